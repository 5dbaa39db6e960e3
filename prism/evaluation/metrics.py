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

logger = logging.getLogger(__name__)

# Prism name → ranx name
_RANX_NAMES = {"hit": "hit_rate", "mrr": "mrr", "map": "map", "ndcg": "ndcg", "p": "precision", "recall": "recall"}

DEFAULT_METRICS: tuple[str, ...] = ("hit@10", "mrr@10", "map@100", "ndcg@10", "p@5", "recall@100")


def _ranx_name(metric: str) -> str:
    base, _, cutoff = metric.partition("@")
    if base not in _RANX_NAMES or not cutoff.isdigit():
        raise ValueError(f"unknown metric {metric!r}; use e.g. {', '.join(DEFAULT_METRICS)}")
    return f"{_RANX_NAMES[base]}@{cutoff}"


def evaluate_run(
    qrels: Mapping[str, Mapping[str, int]],
    run: Mapping[str, Mapping[str, float]],
    metrics: Sequence[str] = DEFAULT_METRICS,
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


CHUNK_METRICS: tuple[str, ...] = (
    "hit@1", "hit@5", "hit@10", "mrr@10", "map@20", "ndcg@10", "p@5", "recall@5", "recall@20",
)
"""Metrics of chunk-level datasets (Prism ground truth, FinanceBench), over the top 20 chunks."""

DOCUMENT_METRICS: tuple[str, ...] = (
    "hit@1", "hit@10", "mrr@10", "map@100", "ndcg@10", "p@5", "recall@10", "recall@100",
)
"""Metrics of document-level datasets (BEIR), over the top 100 documents; a superset of :data:`DEFAULT_METRICS`."""


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
