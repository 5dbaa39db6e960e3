"""Run an evaluation: make sure the workspace holds the dataset's documents, retrieve (and answer) every question
under one or more variants, score, and write one versioned run file per variant.

Retrieval is scored with ranx (:mod:`prism.evaluation.metrics`):

- **chunk** datasets (Prism ground truth, FinanceBench): each question's ranking is the top :data:`CHUNK_DEPTH`
  chunks of ``HybridRetriever.search`` (the product's retriever and settings, ``top_k`` raised to the depth);
  its qrels are every chunk of the workspace that the relevance rule (:mod:`prism.evaluation.relevance`) marks
  relevant, so Recall and NDCG see all of them, not only the retrieved ones. Negative questions and questions
  whose evidence no chunk holds (counted as ``unjudgeable``) are left out of the retrieval metrics.
- **document** datasets (BEIR): documents ranked by their best chunk, :data:`~prism.evaluation.beir.DOCS_TO_RANK`
  deep, against the dataset's graded qrels.

One question's retrieval and answer records are made by :mod:`prism.evaluation.questions`; the service is reached
only through :class:`~prism.evaluation.protocol.EvalService`.

Answers (datasets with reference answers, unless switched off) go through the service's ``ask`` with the variant's
options and are scored by :mod:`prism.evaluation.answers`; with an LLM configured, by the LLM judge as well.
Latency is recorded per query and stage (retrieval: ``embed``, ``dense``, ``bm25``, ``fuse``, ``rerank``,
``expand``, ``total``; answer: :data:`prism.types.TIMING_STAGES`) and summarised as p50 / p95 / p99.

Ablation (``ablation=True``, :func:`~prism.evaluation.variants.ablation_variants`): ``dense``, ``bm25`` and
``hybrid`` without reranking or expansion, then ``hybrid+rerank`` (cross-encoder), ``hybrid+hyde`` and
``hybrid+multi_query`` (LLM) where available — otherwise recorded under ``skipped`` with the reason — written as one
group of runs sharing ``group``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import prism
from prism.errors import PrismError
from prism.evaluation import relevance
from prism.evaluation.beir import CHUNKS_PER_SIDE, DOCS_TO_RANK, eval_retriever
from prism.evaluation.dataset_types import EvalDataset, EvalQuery
from prism.evaluation.metrics import CHUNK_METRICS, DOCUMENT_METRICS, METRICS, evaluate_run, stage_percentiles
from prism.evaluation.prepare import prepare_workspace
from prism.evaluation.protocol import EvalService
from prism.evaluation.questions import Setup, Tally, answer_record, retrieval_record
from prism.evaluation.runs import RUN_KEYS, RunStore, environment, git_commit, settings_snapshot
from prism.evaluation.variants import Variant, ablation_variants, product_variant
from prism.retrieval.fusion import retrieval_mode
from prism.types import ProgressCallback

__all__ = ["CHUNK_DEPTH", "ablation_variants", "evaluate_variant", "prepare_workspace", "run_evaluation"]

logger = logging.getLogger(__name__)

CHUNK_DEPTH = 20
"""Chunks ranked per question on chunk-level datasets (covers ``map@20`` and ``recall@20``)."""


def _mean(values: Sequence[float | None]) -> float | None:
    vals = [float(v) for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None


def _answer_means(records: Sequence[dict[str, Any]]) -> dict[str, float]:
    """The mean of every answer metric (:data:`~prism.evaluation.metrics.METRICS` with ``source="answers"``) over
    the records that have a value; metrics without any value are left out."""
    means = {m.name: _mean([m.value(r) for r in records]) for m in METRICS if m.source == "answers"}
    return {k: v for k, v in means.items() if v is not None}


def _setup(service: EvalService, dataset: EvalDataset, workspace: str, queries: Sequence[EvalQuery]) -> Setup:
    """The retriever and depth for the dataset's granularity; chunk datasets get the chunk rows of the documents
    their questions name (the relevance rule is applied to all of them)."""
    if dataset.granularity == "document":
        return Setup(eval_retriever(service, workspace), 2 * CHUNKS_PER_SIDE, True)
    sources = {s.source for q in queries for s in q.relevant}
    rows = [{"chunk_id": row["chunk_id"], "source": doc.source, "text": row["text"],
             "page_start": row.get("page_start"), "page_end": row.get("page_end")}
            for doc, doc_rows in service.chunk_rows(workspace) if doc.source in sources for row in doc_rows]
    return Setup(service.retriever(workspace), CHUNK_DEPTH, False, rows)


def _metrics(tally: Tally, metric_names: Sequence[str]) -> dict[str, float]:
    """The run's means (ranx over the judged questions, lenient P@5, answer metrics); each question's own values go
    into its record's ``metrics``."""
    metrics: dict[str, float] = {}
    if tally.qrels:
        means, per_query = evaluate_run(tally.qrels, tally.run, metric_names)
        metrics.update(means)
        for rec in tally.records:
            rec["metrics"] = per_query.get(rec["id"], {})
            if rec["id"] in tally.lenient and rec["id"] in tally.qrels:
                rec["metrics"]["lenient_p@5"] = tally.lenient[rec["id"]]
        if tally.lenient:
            vals = [tally.lenient[q] for q in tally.qrels if q in tally.lenient]
            metrics["lenient_p@5"] = sum(vals) / len(vals)
    metrics.update(_answer_means(tally.records))
    return metrics


def _by_type(records: Sequence[dict[str, Any]], granularity: str) -> dict[str, dict[str, float]]:
    """Per question type: ``{"questions": n, <metric>: mean, ...}`` over the questions that have a value."""
    names = [m.name for m in METRICS if m.source != "answers" and granularity in m.granularities]
    by_type: dict[str, dict[str, float]] = {}
    for qtype in sorted({r["type"] for r in records}):
        group = [r for r in records if r["type"] == qtype]
        row: dict[str, float] = {"questions": float(len(group))}
        for m in names:
            v = _mean([r["metrics"].get(m) for r in group])
            if v is not None:
                row[m] = v
        row.update(_answer_means(group))
        by_type[qtype] = row
    return by_type


def _answer_options(service: EvalService, queries: Sequence[EvalQuery], answers: bool | None,
                    judge: bool | None) -> tuple[bool, bool]:
    has_refs = any(q.reference_answer for q in queries)
    answers = has_refs if answers is None else bool(answers and has_refs)
    llm = bool(service.llms.available)
    return answers, bool(answers and llm) if judge is None else bool(judge and answers and llm)


def evaluate_variant(
    service: EvalService,
    dataset: EvalDataset,
    workspace: str,
    variant: Variant,
    *,
    limit: int | None = None,
    answers: bool | None = None,
    judge: bool | None = None,
    progress: ProgressCallback | None = None,
) -> dict[str, Any]:
    """Evaluate one variant over a prepared workspace (:func:`prepare_workspace`).

    TAT-QA datasets are answered scoped to each question's own file and scored by
    :func:`prism.evaluation.tatqa.run.evaluate_tatqa` instead (no retrieval ranking).

    ``limit``: only the first ``limit`` questions. ``answers``: answer them too (default: when the dataset has
    reference answers). ``judge``: use the LLM judge (default: when answering with an LLM configured).

    Returns:
        The measured part of a run record: ``{"metrics", "metrics_by_type", "counts", "latency_ms", "queries",
        "chunk_texts", "options"}`` (see :mod:`prism.evaluation.runs`).

    Raises:
        PrismError: ``limit`` < 1, the workspace is missing, or the LLM key was rejected.
    """
    if limit is not None and limit < 1:
        raise PrismError(f"--limit must be at least 1 (got {limit}).")
    if dataset.format == "tatqa":
        from prism.evaluation.tatqa.run import evaluate_tatqa

        return evaluate_tatqa(service, dataset, workspace, variant, limit=limit, progress=progress)
    queries = list(dataset.queries[: limit or None])
    answers, judge = _answer_options(service, queries, answers, judge)
    setup = _setup(service, dataset, workspace, queries)
    tally = Tally()
    for i, q in enumerate(queries):
        record = retrieval_record(service, setup, q, variant, tally)
        if answers:
            record["answer"] = answer_record(service, workspace, q, variant, judge)
            record["latency_ms"]["answer"] = record["answer"].pop("timings_ms", {})
        tally.records.append(record)
        if progress is not None:
            progress((i + 1) / len(queries), f"{variant.name}: question {i + 1}/{len(queries)}")
    metrics = _metrics(tally, DOCUMENT_METRICS if setup.document_level else CHUNK_METRICS)
    records = tally.records
    counts = {"queries": len(queries), "judged": len(tally.qrels), "negatives": sum(q.negative for q in queries),
              "unjudgeable": tally.unjudgeable, "answered": sum(r.get("answer") is not None for r in records)}
    latency = {"retrieval": stage_percentiles([r["latency_ms"]["retrieval"] for r in records])}
    if answers:
        latency["answer"] = stage_percentiles([r["latency_ms"].get("answer", {}) for r in records])
    options = {**variant.to_dict(), "variant": variant.name, "limit": limit, "answers": answers, "judge": judge,
               "depth": None if setup.document_level else setup.top_k, "granularity": dataset.granularity,
               "documents_ranked": DOCS_TO_RANK if setup.document_level else None}
    logger.info("%s on %s: %s", variant.name, dataset.name,
                ", ".join(f"{k} {v:.3f}" for k, v in metrics.items() if k in ("ndcg@10", "mrr@10", "answer_f1")))
    return {"metrics": metrics, "metrics_by_type": _by_type(records, dataset.granularity), "counts": counts,
            "latency_ms": latency, "queries": records, "chunk_texts": tally.texts, "options": options}


# --- whole runs -------------------------------------------------------------------------------------------------
def _config(service: EvalService, variant: Variant) -> dict[str, Any]:
    try:
        rapidfuzz = f"rapidfuzz {metadata.version('rapidfuzz')}"
    except metadata.PackageNotFoundError:
        rapidfuzz = "rapidfuzz"
    return {
        "settings": settings_snapshot(service.settings),
        "reranker": service.reranker_state().to_dict(),
        "llm": service.llms.status(),
        "effective": {"mode": variant.mode, "rerank": variant.rerank, "hyde": variant.hyde,
                      "multi_query": variant.multi_query},
        "relevance": {"rule": "prism.evaluation.relevance", "fuzzy_threshold": relevance.FUZZY_THRESHOLD,
                      "matcher": rapidfuzz if relevance._rf_fuzz is not None else "difflib"},
    }


def _run_record(service: EvalService, dataset: EvalDataset, ws: dict[str, Any], variant: Variant,
                measured: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """A run file's record, keys in :data:`prism.evaluation.runs.RUN_KEYS` order: ``fields`` give ``schema``,
    ``id``, ``group``, ``version``, ``tag``, ``created_at``, ``git_commit``, ``environment`` and ``skipped``."""
    record = {
        **fields,
        "variant": variant.name,
        "dataset": {**dataset.summary(), "evaluated_queries": measured["counts"]["queries"]},
        "workspace": ws,
        "options": measured["options"],
        "config": _config(service, variant),
        "metrics": measured["metrics"],
        "metrics_by_type": measured["metrics_by_type"],
        "counts": measured["counts"],
        "latency_ms": measured["latency_ms"],
        "queries": measured["queries"],
        "chunk_texts": measured["chunk_texts"],
    }
    return {key: record[key] for key in RUN_KEYS}


def run_evaluation(
    service: EvalService,
    dataset: EvalDataset,
    *,
    workspace: str | None = None,
    mode: str | None = None,
    ablation: bool = False,
    limit: int | None = None,
    tag: str | None = None,
    answers: bool | None = None,
    judge: bool | None = None,
    store: RunStore | None = None,
    progress: ProgressCallback | None = None,
    auto_scope: bool = True,
) -> list[tuple[dict[str, Any], Path]]:
    """Evaluate ``dataset`` (from :func:`prism.evaluation.datasets.load_dataset`) and write the run file(s).

    ``workspace``: default see :func:`prepare_workspace`. ``mode``: a retrieval mode for a single run (default
    ``settings.retrieval_mode``) with the product's default stages (:func:`product_variant`); ignored with
    ``ablation``, which runs the group of :func:`ablation_variants`. ``limit``, ``answers``, ``judge``: see
    :func:`evaluate_variant`. ``auto_scope``: ``False`` runs the single variant without auto-scope (ablations keep
    it on). ``tag``: a label stored in the runs. ``store``: where to write (default
    ``RunStore(settings.eval_dir)``).

    Returns:
        ``[(run record, file path), ...]`` in variant order.

    Raises:
        PrismError: a document failed to ingest, a bad option, or the LLM key was rejected.
    """
    store = store or RunStore(Path(service.settings.eval_dir))
    if mode is not None:
        retrieval_mode(mode)
    if limit is not None and limit < 1:
        raise PrismError(f"--limit must be at least 1 (got {limit}).")
    variants, skipped = ablation_variants(service) if ablation else ([product_variant(service, mode, auto_scope)], [])
    ws = prepare_workspace(service, dataset, workspace, progress)
    moment = datetime.now(UTC)
    version = prism.__version__
    group = store.new_id(version, moment) if ablation else None
    provenance = {"git_commit": git_commit(), "environment": environment()}
    written = []
    for k, variant in enumerate(variants):

        def sub(fraction: float, message: str, _k: int = k) -> None:
            if progress is not None:
                progress((_k + fraction) / len(variants), message)

        measured = evaluate_variant(service, dataset, ws["name"], variant, limit=limit, answers=answers, judge=judge,
                                    progress=sub)
        run_id = store.new_id(version, moment, variant.name if ablation else None)
        run = _run_record(service, dataset, ws, variant, measured, schema=1, id=run_id, group=group or run_id,
                          version=version, tag=tag, created_at=moment.isoformat(timespec="seconds"),
                          skipped=skipped, **provenance)
        written.append((run, store.write(run)))
    return written
