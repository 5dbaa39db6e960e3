"""Retrieval metrics computed with ranx (https://github.com/AmenRa/ranx), under Prism's metric names.

Shapes follow ranx / TREC: qrels ``{query_id: {doc_id: relevance (int ≥ 1)}}``, run ``{query_id: {doc_id: score}}``
(higher score = better; ranx sorts by score, ties broken by doc id). Formulas: NDCG — Järvelin & Kekäläinen,
"Cumulated gain-based evaluation of IR techniques", TOIS 2002 (ranx's default, linear gain); MRR@k — reciprocal
rank of the first relevant document within k; MAP@k — mean average precision cut at k; P@k, Recall@k and Hit@k as
in ranx's documentation (https://amenra.github.io/ranx/metrics/).
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Mapping, Sequence

from prism.types import MetricSpec

logger = logging.getLogger(__name__)

# Prism name → ranx name
_RANX_NAMES = {"hit": "hit_rate", "mrr": "mrr", "map": "map", "ndcg": "ndcg", "p": "precision", "recall": "recall"}

_BOTH = ("chunk", "document")
METRICS: tuple[MetricSpec, ...] = (
    MetricSpec("ndcg@10", "NDCG of the top 10 (Järvelin & Kekäläinen 2002)", granularities=_BOTH, headline=True,
               plain="How near the top the right passages are in the first 10 results: 1 means all of them first.",
               win="ranks the right passages higher for {n}"),
    MetricSpec("mrr@10", "reciprocal rank of the first relevant result in the top 10", granularities=_BOTH,
               headline=True, plain="How soon the first right passage comes: 1 when it is first, 0.5 second, 0 not "
               "in the first 10.", win="finds the first right passage sooner for {n}"),
    MetricSpec("hit@5", "a relevant result in the top 5", granularities=("chunk",), headline=True,
               plain="Share of questions with a right passage among the first 5 results.",
               win="finds a right passage in the first 5 for {n}"),
    MetricSpec("hit@10", "a relevant result in the top 10", granularities=_BOTH, headline=True,
               plain="Share of questions with a right passage among the first 10 results.",
               win="finds a right passage in the first 10 for {n}"),
    MetricSpec("recall@20", "share of the relevant results in the top 20", granularities=("chunk",), headline=True,
               plain="Share of all the right passages found in the first 20 results.",
               win="finds more of the right passages for {n}"),
    MetricSpec("recall@100", "share of the relevant results in the top 100", granularities=("document",),
               headline=True, plain="Share of all the right documents found in the first 100 results.",
               win="finds more of the right documents for {n}"),
    MetricSpec("p@5", "share of the top 5 that is relevant", granularities=_BOTH, headline=True,
               plain="Share of the first 5 results that are right passages (the rest is noise).",
               win="shows fewer wrong passages in the first 5 for {n}"),
    MetricSpec("lenient_p@5", "share of the top 5 from an evidence document and holding an evidence keyword "
               "(prism.evaluation.relevance)", source="relevance", granularities=("chunk",), headline=True,
               plain="Share of the first 5 results from the right document that mention what the answer needs.",
               win="shows more useful passages in the first 5 for {n}"),
    MetricSpec("answer_f1", "SQuAD token F1 of the answer against the reference", source="answers", headline=True,
               answer_key="f1", questions="positive",
               plain="How much the answer's wording overlaps the expected answer (0 to 1).",
               win="answers closer to the expected answer for {n}"),
    MetricSpec("numeric_match", "share of the reference's figures the answer states", source="answers",
               headline=True, answer_key="numeric_match", questions="positive",
               plain="Share of the expected figures (amounts, percentages) that the answer states.",
               win="states more of the expected figures for {n}"),
    MetricSpec("declined_negatives", "share of unanswerable questions the answer declines", source="answers",
               headline=True, answer_key="declined", questions="negative",
               plain="Share of questions the documents cannot answer where Prism rightly says so instead of guessing.",
               win="rightly declines {n}"),
    MetricSpec("tatqa_first_line", "TAT-QA: share of answers whose first line (or computed figure) states the gold "
               "answer (prism.evaluation.tatqa.match)", source="answers", headline=True, answer_key="tatqa_match",
               questions="positive", plain="Share of questions answered right in the answer's first line.",
               win="answers {n} right"),
    MetricSpec("judge_correctness", "LLM judge's grade against the reference, (score - 1) / 4", source="answers",
               headline=True, answer_key="judge_correctness",
               plain="How correct a grading model judges the answer against the expected one (0 to 1).",
               win="answers more correctly for {n}"),
    MetricSpec("map@20", "mean average precision of the top 20", granularities=("chunk",),
               plain="How well the right passages are ranked in the first 20 results, all of them counted.",
               win="ranks the right passages higher for {n}"),
    MetricSpec("map@100", "mean average precision of the top 100", granularities=("document",),
               plain="How well the right documents are ranked in the first 100 results, all of them counted.",
               win="ranks the right documents higher for {n}"),
    MetricSpec("hit@1", "a relevant result first", granularities=_BOTH,
               plain="Share of questions whose very first result is a right passage.",
               win="puts a right passage first for {n}"),
    MetricSpec("recall@5", "share of the relevant results in the top 5", granularities=("chunk",),
               plain="Share of all the right passages found in the first 5 results.",
               win="finds more of the right passages for {n}"),
    MetricSpec("recall@10", "share of the relevant results in the top 10", granularities=("document",),
               plain="Share of all the right documents found in the first 10 results.",
               win="finds more of the right documents for {n}"),
    MetricSpec("false_declines", "share of answerable questions the answer declines", source="answers",
               lower_is_better=True, answer_key="declined", questions="positive",
               plain="Share of answerable questions where Prism wrongly says the documents do not answer (lower is "
               "better).", win="wrongly declines {n}"),
    MetricSpec("tatqa_computed", "TAT-QA: share of answers that carry a figure computed in code", source="answers",
               answer_key="computed", questions="positive",
               plain="Share of answers whose figure Prism computed itself (a sum, change or ratio) from the table.",
               win="computes the figure for {n}"),
    MetricSpec("answer_relevancy", "RAGAS answer relevancy (Es et al. 2023)", source="answers",
               answer_key="answer_relevancy", questions="positive",
               plain="How directly the answer addresses the question asked (0 to 1).",
               win="answers more to the point for {n}"),
)
"""Every metric a run reports, headline ones first, in display order: the one list read by run files and
``index.json`` (:mod:`prism.evaluation.runs`), the runner, the CLI summary and the Eval page. Add a metric: a line
here (a ranx metric needs nothing else; another needs its computation where its ``source`` is computed), with its
``plain`` line for the Eval page's readers and its ``win`` clause for the comparison sentence."""

CHUNK_METRICS: tuple[str, ...] = tuple(m.name for m in METRICS if m.source == "ranx" and "chunk" in m.granularities)
"""ranx metrics of chunk-level datasets (Prism ground truth, FinanceBench), over the top 20 chunks."""

DOCUMENT_METRICS: tuple[str, ...] = tuple(
    m.name for m in METRICS if m.source == "ranx" and "document" in m.granularities
)
"""ranx metrics of document-level datasets (BEIR), over the top 100 documents."""

HEADLINE: tuple[str, ...] = tuple(m.name for m in METRICS if m.headline)
"""The headline metrics, in display order."""


def _ranx_name(metric: str) -> str:
    base, _, cutoff = metric.partition("@")
    if base not in _RANX_NAMES or not cutoff.isdigit():
        raise ValueError(f"unknown metric {metric!r}; use e.g. {', '.join(DOCUMENT_METRICS)}")
    return f"{_RANX_NAMES[base]}@{cutoff}"


def evaluate_run(
    qrels: Mapping[str, Mapping[str, int]],
    run: Mapping[str, Mapping[str, float]],
    metrics: Sequence[str] = DOCUMENT_METRICS,
) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """Mean and per-query metric values.

    Args:
        qrels: relevance judgements; queries without any relevant document must be left out (ranx would count them
            as 0 and the mean would not be comparable to published numbers).
        run: retrieved documents with scores per query; a query of ``qrels`` missing from ``run`` scores 0.
        metrics: Prism metric names such as ``ndcg@10``.

    Returns:
        ``(means, per_query)``: ``means[metric]`` in [0, 1]; ``per_query[query_id][metric]``. Inputs are not mutated.

    Raises:
        ValueError: an unknown metric name, or empty qrels.
    """
    if not qrels:
        raise ValueError("no relevance judgements to evaluate against")
    from ranx import Qrels, Run, evaluate

    names = {m: _ranx_name(m) for m in metrics}
    q = Qrels({qid: {d: int(r) for d, r in docs.items()} for qid, docs in qrels.items()})
    r = Run({qid: dict(run.get(qid, {})) or {"__none__": 0.0} for qid in qrels})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba type-safety chatter
        evaluate(q, r, list(names.values()), return_mean=False, make_comparable=True)
    means: dict[str, float] = {}
    per_query: dict[str, dict[str, float]] = {qid: {} for qid in qrels}
    for metric, ranx_name in names.items():
        scores = r.scores[ranx_name]
        means[metric] = float(sum(scores.values()) / len(scores))
        for qid, value in scores.items():
            per_query[qid][metric] = float(value)
    return means, per_query


def percentiles(values_ms: Sequence[float], points: Sequence[int] = (50, 95, 99)) -> dict[str, float]:
    """Latency percentiles ``{"p50": ms, ...}`` (numpy's linear interpolation); empty input gives ``{}``."""
    import numpy as np

    if not values_ms:
        return {}
    arr = np.asarray(values_ms, dtype=float)
    return {f"p{p}": float(np.percentile(arr, p)) for p in points}


def stage_percentiles(timings: Sequence[Mapping[str, float | None]]) -> dict[str, dict[str, float]]:
    """Latency percentiles per stage.

    Args:
        timings: one ``{stage: ms or None}`` per query (``None`` or a missing key: the stage did not run).

    Returns:
        ``{stage: {"p50", "p95", "p99", "n"}}`` in ms (``n``: queries where the stage ran), stages in first-seen
        order; stages that never ran are left out.
    """
    values: dict[str, list[float]] = {}
    for t in timings:
        for stage, ms in t.items():
            if ms is not None:
                values.setdefault(stage, []).append(float(ms))
    return {stage: {**percentiles(v), "n": len(v)} for stage, v in values.items()}


PUBLISHED_ANCHORS: dict[str, dict[str, dict[str, float]]] = {
    "scifact": {
        "ndcg@10": {
            "BM25 (BEIR paper)": 0.665,
            "all-MiniLM-L6-v2 dense (MTEB)": 0.645,
            "bge-small-en-v1.5 dense (MTEB)": 0.713,
            "BM25 + MiniLM-L6 cross-encoder (BEIR paper)": 0.688,
        },
        "mrr@10": {"all-MiniLM-L6-v2 dense (MTEB)": 0.605},
        "recall@10": {"all-MiniLM-L6-v2 dense (MTEB)": 0.783},
        "recall@100": {"all-MiniLM-L6-v2 dense (MTEB)": 0.925},
    },
}
"""Published results to draw as reference lines: ``{dataset: {metric: {system: value}}}``. All are on the SciFact
**test** split (300 queries; ../shared/data/README.md); Prism's committed SciFact runs use the **train** split, which
is easier or harder by a few points — compare trends, not decimals."""

ANCHOR_SPLIT = "test"
"""The split the :data:`PUBLISHED_ANCHORS` were measured on."""
