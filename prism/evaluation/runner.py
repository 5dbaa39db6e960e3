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

Answers (datasets with reference answers, unless switched off) go through ``PrismService.ask`` with the variant's
options and are scored by :mod:`prism.evaluation.answers`; with an LLM configured, by the LLM judge as well.
Latency is recorded per query and stage (retrieval: ``embed``, ``dense``, ``bm25``, ``fuse``, ``rerank``,
``expand``, ``total``; answer: :data:`prism.types.TIMING_STAGES`) and summarised as p50 / p95 / p99.

Ablation (``ablation=True``): ``dense``, ``bm25`` and ``hybrid`` without reranking or expansion, then
``hybrid+rerank`` (cross-encoder), ``hybrid+hyde`` and ``hybrid+multi_query`` (LLM) where available — otherwise
recorded under ``skipped`` with the reason — written as one group of runs sharing ``group``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import prism
from prism.errors import LLMAuthError, LLMError, PrismError
from prism.evaluation import answers as answer_eval
from prism.evaluation.datasets import EvalDataset, EvalQuery
from prism.evaluation.metrics import CHUNK_METRICS, DOCUMENT_METRICS, METRICS, evaluate_run, stage_percentiles
from prism.evaluation.relevance import FUZZY_THRESHOLD, lenient_precision_at_k, relevant_chunk_ids
from prism.evaluation.runs import RunStore, environment, git_commit, settings_snapshot
from prism.fsutil import sha256_file
from prism.retrieval.fusion import MODES, retrieval_mode

logger = logging.getLogger(__name__)

Progress = Callable[[float, str], None]

CHUNK_DEPTH = 20
"""Chunks ranked per question on chunk-level datasets (covers ``map@20`` and ``recall@20``)."""

RECORDED_CHUNKS = 10
"""Retrieved chunks kept per question in a chunk-level run file (with text)."""

RECORDED_DOCUMENTS = 5
"""Ranked documents kept per question in a document-level run file (best chunk, shortened text)."""

CHUNK_TEXT_CHARS = 700
DOCUMENT_TEXT_CHARS = 200

NO_LLM_REASON = "no LLM is configured (set GROQ_API_KEY)"


@dataclass(frozen=True)
class Variant:
    """One retrieval configuration: ``mode`` plus the optional stages."""

    name: str
    mode: str
    rerank: bool = False
    hyde: bool = False
    multi_query: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def variant_name(mode: str, rerank: bool, hyde: bool, multi_query: bool) -> str:
    """``hybrid``, ``hybrid+rerank``, ``dense+hyde+multi_query`` …"""
    return mode + "".join(f"+{n}" for n, on in (("rerank", rerank), ("hyde", hyde), ("multi_query", multi_query))
                          if on)


def product_variant(service: Any, mode: str | None = None) -> Variant:
    """What the product does by default: the mode (default ``settings.retrieval_mode``), reranking when the
    cross-encoder is available, HyDE / multi-query when an LLM is configured and the settings enable them."""
    s = service.settings
    mode = mode or s.retrieval_mode
    rerank = bool(service.reranker.enabled)
    llm = bool(service.llms.available)
    hyde, multi = llm and s.hyde_enabled, llm and s.multi_query_enabled
    return Variant(variant_name(mode, rerank, hyde, multi), mode, rerank, hyde, multi)


def ablation_variants(service: Any) -> tuple[list[Variant], list[dict[str, str]]]:
    """The ablation group and the variants skipped, each ``{"variant", "reason"}``."""
    single = [m.name for m in MODES.values() if not m.fused]
    fused = [m.name for m in MODES.values() if m.fused]
    variants = [Variant(name, name) for name in single + fused]
    top = fused[0] if fused else single[0]  # the stages are added to the first fused mode (hybrid)
    skipped: list[dict[str, str]] = []
    if service.reranker.enabled:
        variants.append(Variant(variant_name(top, True, False, False), top, rerank=True))
    else:
        skipped.append({"variant": variant_name(top, True, False, False),
                        "reason": service.reranker.state.reason or "reranker off"})
    hyde, multi = variant_name(top, False, True, False), variant_name(top, False, False, True)
    if service.llms.available:
        variants += [Variant(hyde, top, hyde=True), Variant(multi, top, multi_query=True)]
    else:
        reason = getattr(service.llms, "reason", None) or NO_LLM_REASON
        skipped += [{"variant": hyde, "reason": f"HyDE needs an LLM: {reason}"},
                    {"variant": multi, "reason": f"multi-query needs an LLM: {reason}"}]
    return variants, skipped


# --- the workspace ----------------------------------------------------------------------------------------------

def _find_file_workspace(service: Any, doc_ids: set[str]) -> str | None:
    """A workspace holding exactly these documents (by content hash), e.g. the sample workspace."""
    for info in service.workspaces():
        if {d.doc_id for d in service.documents(info.name)} == doc_ids:
            return info.name
    return None


def _find_beir_workspace(service: Any, corpus_hash: str) -> str | None:
    for info in service.workspaces():
        marker = Path(service.settings.home) / "workspaces" / info.id / "beir_corpus.json"
        if marker.is_file() and f'"{corpus_hash}"' in marker.read_text(encoding="utf-8"):
            return info.name
    return None


def prepare_workspace(service: Any, dataset: EvalDataset, workspace: str | None = None,
                      progress: Progress | None = None) -> dict[str, Any]:
    """Make sure a workspace holds the dataset's documents and return what was used.

    Without ``workspace``: a workspace already holding exactly the dataset's documents is reused (BEIR: one whose
    ``beir_corpus.json`` marker names the corpus hash); else ``eval-<name>`` (BEIR: ``beir-<name>``) is created.
    Documents already present (same content hash) are never ingested again.

    Returns:
        ``{"name", "documents", "ingested", "extra_documents"}`` (``extra_documents``: documents in the workspace
        that the dataset does not name — they compete in retrieval; logged at WARNING).

    Raises:
        PrismError: a document fails to ingest.
    """
    if dataset.granularity == "document":
        from prism.evaluation.beir import ensure_corpus

        if dataset.beir is None:
            raise PrismError(f"Dataset {dataset.name} has no BEIR corpus to ingest.")
        name = workspace or _find_beir_workspace(service, dataset.corpus_hash) or f"beir-{dataset.name}"
        before = len(service.documents(name)) if service.catalog.find(name) else 0
        ensure_corpus(service, dataset.beir, name, progress)
        after = len(service.documents(name))
        return {"name": name, "documents": after, "ingested": max(0, after - before),
                "extra_documents": max(0, after - len(dataset.documents))}

    from prism.types import IngestItem

    wanted = {sha256_file(d.path): d for d in dataset.documents if d.path is not None}
    name = workspace or _find_file_workspace(service, set(wanted)) or f"eval-{dataset.name}"
    service.open(name, create=True)
    have = {d.doc_id for d in service.documents(name)}
    todo = [d for doc_id, d in wanted.items() if doc_id not in have]
    if todo:
        logger.info("ingesting %d document(s) of %s into workspace %s", len(todo), dataset.name, name)
        results = service.ingest([IngestItem(d.path, d.source) for d in todo], name, progress,
                                 contextual=False, briefing=False)
        failed = [r for r in results if r.status == "failed"]
        if failed:
            raise PrismError(f"{failed[0].file} could not be ingested into '{name}': {failed[0].error}")
    extra = len({d.doc_id for d in service.documents(name)} - set(wanted))
    if extra:
        logger.warning("workspace %s holds %d document(s) the dataset does not name", name, extra)
    return {"name": name, "documents": len(wanted) + extra, "ingested": len(todo), "extra_documents": extra}


def _chunk_rows(service: Any, workspace: str, sources: set[str]) -> list[dict[str, Any]]:
    handle = service.open(workspace)
    rows = []
    for doc in handle.workspace.documents():
        if doc.source not in sources:
            continue
        for row in handle.workspace.read_chunks(doc.doc_id):
            rows.append({"chunk_id": row["chunk_id"], "source": doc.source, "text": row["text"],
                         "page_start": row.get("page_start"), "page_end": row.get("page_end")})
    return rows


# --- one variant ------------------------------------------------------------------------------------------------
def _round_scores(scores: dict[str, Any]) -> dict[str, Any]:
    return {k: (round(v, 5) if isinstance(v, float) else v) for k, v in scores.items()}


def _retrieved_record(r: Any, relevant: bool, texts: dict[str, str], text_chars: int,
                      rank: int | None = None) -> dict[str, Any]:
    """One retrieved chunk of a question's record; its (shortened) text goes to the run's ``chunk_texts``."""
    if r.chunk_id not in texts:
        text = " ".join(r.text.split())
        texts[r.chunk_id] = text[:text_chars] + ("…" if len(text) > text_chars else "")
    return {"rank": rank if rank is not None else r.rank, "chunk_id": r.chunk_id, "source": r.source,
            "page_start": r.page_start, "page_end": r.page_end, "relevant": relevant,
            "scores": _round_scores(r.scores())}


def _search(service: Any, retriever: Any, query: str, variant: Variant, top_k: int) -> tuple[Any, dict[str, float]]:
    """One retrieval with the variant's stages; returns the result and its stage timings (ms)."""
    dense_q = sparse_q = None
    extra: dict[str, float] = {}
    if variant.hyde or variant.multi_query:
        from prism.retrieval.expansion import expand

        t = time.perf_counter()
        exp = expand(query, service.llms.cheap, hyde=variant.hyde, multi=variant.multi_query,
                     n=service.settings.multi_query_count)
        extra["expand"] = (time.perf_counter() - t) * 1000
        dense_q, sparse_q = exp.dense_queries, exp.sparse_queries
    result = retriever.search(query, mode=variant.mode, top_k=top_k, rerank=variant.rerank, dense_queries=dense_q,
                              sparse_queries=sparse_q, rerank_query=query)
    timings = {**result.timings_ms, **extra}
    if "expand" in extra:
        timings["total"] = timings.get("total", 0.0) + extra["expand"]
    return result, timings


def _answer(service: Any, workspace: str, q: EvalQuery, variant: Variant, judge: bool) -> dict[str, Any]:
    """Ask the question and score the answer; an LLM failure other than a rejected key is recorded, not raised."""
    try:
        ans = service.ask(q.query, workspace, mode=variant.mode, hyde=variant.hyde, multi_query=variant.multi_query,
                          rerank=variant.rerank)
    except LLMAuthError:
        raise
    except PrismError as exc:
        return {"text": "", "error": str(exc), "declined": None, "timings_ms": {}}
    text = ans.answer
    declined = answer_eval.is_declined(text)
    record: dict[str, Any] = {
        "text": text, "mode": ans.mode, "declined": declined,
        "citations": [c.chunk_id for c in ans.citations],
        "unsupported_numbers": list(ans.unsupported_numbers),
        "timings_ms": {k: (round(v, 2) if v is not None else None) for k, v in ans.timings_ms.items()},
    }
    if q.reference_answer is not None and not q.negative:
        record["f1"] = answer_eval.token_f1(text, q.reference_answer)
        record["numeric_match"] = answer_eval.numeric_match(text, q.reference_answer)
    if judge and q.reference_answer is not None:
        try:
            verdict = answer_eval.judge_correctness(q.query, q.reference_answer, text, service.llms.main)
            if verdict is not None:
                record["judge_correctness"] = verdict.normalized
                record["judge_score"] = verdict.score
                record["judge_reason"] = verdict.reason
            if not q.negative:
                record["answer_relevancy"] = answer_eval.answer_relevancy(q.query, text, service.llms.cheap,
                                                                          service.embedder)
        except LLMAuthError:
            raise
        except LLMError as exc:
            record["judge_error"] = str(exc)
    return record


def _mean(values: Sequence[float | None]) -> float | None:
    vals = [float(v) for v in values if v is not None]
    return sum(vals) / len(vals) if vals else None


def _answer_means(records: Sequence[dict[str, Any]]) -> dict[str, float]:
    """The mean of every answer metric (:data:`~prism.evaluation.metrics.METRICS` with ``source="answers"``) over
    the records that have a value; metrics without any value are left out."""
    means = {m.name: _mean([m.value(r) for r in records]) for m in METRICS if m.source == "answers"}
    return {k: v for k, v in means.items() if v is not None}


def evaluate_variant(
    service: Any,
    dataset: EvalDataset,
    workspace: str,
    variant: Variant,
    *,
    limit: int | None = None,
    answers: bool | None = None,
    judge: bool | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Evaluate one variant over a prepared workspace.

    Args:
        service: a :class:`prism.service.PrismService`.
        dataset: the dataset; its documents must already be in ``workspace`` (:func:`prepare_workspace`).
        workspace: the workspace name.
        variant: the retrieval configuration.
        limit: evaluate only the first ``limit`` questions.
        answers: answer the questions too (default: when the dataset has reference answers).
        judge: use the LLM judge (default: when answering and an LLM is configured).
        progress: ``callback(fraction in [0, 1], message)``.

    Returns:
        The measured part of a run record: ``{"metrics", "metrics_by_type", "counts", "latency_ms", "queries",
        "chunk_texts", "options"}`` (see :mod:`prism.evaluation.runs`).

    Raises:
        PrismError: ``limit`` < 1, the workspace is missing, or the LLM key was rejected.
    """
    if limit is not None and limit < 1:
        raise PrismError(f"--limit must be at least 1 (got {limit}).")
    queries = list(dataset.queries[: limit or None])
    has_refs = any(q.reference_answer for q in queries)
    answers = has_refs if answers is None else (answers and has_refs)
    judge = bool(answers and service.llms.available) if judge is None else bool(judge and answers and
                                                                                service.llms.available)
    document_level = dataset.granularity == "document"
    metric_names = DOCUMENT_METRICS if document_level else CHUNK_METRICS
    if document_level:
        from prism.evaluation.beir import CHUNKS_PER_SIDE, DOCS_TO_RANK, eval_retriever

        retriever = eval_retriever(service, workspace)
        top_k = 2 * CHUNKS_PER_SIDE
        chunk_rows: list[dict[str, Any]] = []
    else:
        retriever = service.open(workspace).retriever
        top_k = CHUNK_DEPTH
        chunk_rows = _chunk_rows(service, workspace, {s.source for q in queries for s in q.relevant})

    run: dict[str, dict[str, float]] = {}
    qrels: dict[str, dict[str, int]] = {}
    records: list[dict[str, Any]] = []
    lenient: dict[str, float] = {}
    texts: dict[str, str] = {}
    unjudgeable = 0
    n = len(queries)
    for i, q in enumerate(queries):
        result, timings = _search(service, retriever, q.query, variant, top_k)
        if document_level:
            relevant_ids = dict(q.grades) or {s.source: 1 for s in q.relevant}
            ranked: dict[str, float] = {}
            shown = []
            for r in result.results:
                if r.source in ranked:
                    continue
                ranked[r.source] = 1.0 / (len(ranked) + 1)
                if len(shown) < RECORDED_DOCUMENTS:
                    shown.append(_retrieved_record(r, r.source in relevant_ids, texts, DOCUMENT_TEXT_CHARS,
                                                   len(ranked)))
                if len(ranked) >= DOCS_TO_RANK:
                    break
        else:
            relevant_ids = relevant_chunk_ids(q.relevant, chunk_rows) if q.relevant else {}
            ranked = {r.chunk_id: 1.0 / r.rank for r in result.results}
            shown = [_retrieved_record(r, r.chunk_id in relevant_ids, texts, CHUNK_TEXT_CHARS)
                     for r in result.results[:RECORDED_CHUNKS]]
            if q.relevant:
                lenient[q.id] = lenient_precision_at_k(
                    [{"source": r.source, "text": r.text} for r in result.results], q.relevant, q.keywords, 5)
        if q.relevant and not relevant_ids:
            unjudgeable += 1
            logger.warning("question %s: no chunk of the workspace holds its evidence; left out of the metrics", q.id)
        if relevant_ids:
            run[q.id] = ranked
            qrels[q.id] = relevant_ids
        rec: dict[str, Any] = {
            "id": q.id, "query": q.query, "type": q.type,
            "relevant": sorted(relevant_ids), "retrieved": shown, "metrics": {},
            "latency_ms": {"retrieval": {k: round(v, 2) for k, v in timings.items()}},
        }
        if not document_level:
            rec["relevant_entries"] = [s.to_dict() for s in q.relevant]
            rec["reference_answer"] = q.reference_answer
        if answers:
            rec["answer"] = _answer(service, workspace, q, variant, judge)
            rec["latency_ms"]["answer"] = rec["answer"].pop("timings_ms", {})
        records.append(rec)
        if progress is not None:
            progress((i + 1) / n, f"{variant.name}: question {i + 1}/{n}")

    metrics: dict[str, float] = {}
    if qrels:
        means, per_query = evaluate_run(qrels, run, metric_names)
        metrics.update(means)
        for rec in records:
            rec["metrics"] = per_query.get(rec["id"], {})
            if rec["id"] in lenient and rec["id"] in qrels:
                rec["metrics"]["lenient_p@5"] = lenient[rec["id"]]
        if lenient:
            vals = [lenient[q] for q in qrels if q in lenient]
            metrics["lenient_p@5"] = sum(vals) / len(vals)
    metrics.update(_answer_means(records))

    by_type: dict[str, dict[str, float]] = {}
    for qtype in sorted({r["type"] for r in records}):
        group = [r for r in records if r["type"] == qtype]
        row: dict[str, float] = {"questions": float(len(group))}
        for m in (m.name for m in METRICS if m.source != "answers" and dataset.granularity in m.granularities):
            v = _mean([r["metrics"].get(m) for r in group])
            if v is not None:
                row[m] = v
        row.update(_answer_means(group))
        by_type[qtype] = row

    counts = {"queries": n, "judged": len(qrels), "negatives": sum(1 for q in queries if q.negative),
              "unjudgeable": unjudgeable, "answered": sum(1 for r in records if r.get("answer") is not None)}
    latency = {"retrieval": stage_percentiles([r["latency_ms"]["retrieval"] for r in records])}
    if answers:
        latency["answer"] = stage_percentiles([r["latency_ms"].get("answer", {}) for r in records])
    options = {**variant.to_dict(), "variant": variant.name, "limit": limit, "answers": answers, "judge": judge,
               "depth": top_k if not document_level else None, "granularity": dataset.granularity,
               "documents_ranked": DOCS_TO_RANK if document_level else None}
    logger.info("%s on %s: %s", variant.name, dataset.name,
                ", ".join(f"{k} {v:.3f}" for k, v in metrics.items() if k in ("ndcg@10", "mrr@10", "answer_f1")))
    return {"metrics": metrics, "metrics_by_type": by_type, "counts": counts, "latency_ms": latency,
            "queries": records, "chunk_texts": texts, "options": options}


# --- whole runs -------------------------------------------------------------------------------------------------
def _config(service: Any, variant: Variant) -> dict[str, Any]:
    from prism.evaluation import relevance

    try:
        from importlib.metadata import version

        matcher = f"rapidfuzz {version('rapidfuzz')}" if relevance._rf_fuzz is not None else "difflib"
    except Exception:  # metadata lookups must never fail a run
        matcher = "rapidfuzz" if relevance._rf_fuzz is not None else "difflib"
    return {
        "settings": settings_snapshot(service.settings),
        "reranker": service.reranker.state.to_dict(),
        "llm": service.llms.status(),
        "effective": {"mode": variant.mode, "rerank": variant.rerank, "hyde": variant.hyde,
                      "multi_query": variant.multi_query},
        "relevance": {"rule": "prism.evaluation.relevance", "fuzzy_threshold": FUZZY_THRESHOLD, "matcher": matcher},
    }


def run_evaluation(
    service: Any,
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
    progress: Progress | None = None,
) -> list[tuple[dict[str, Any], Path]]:
    """Evaluate ``dataset`` and write the run file(s).

    Args:
        service: a :class:`prism.service.PrismService`.
        dataset: from :func:`prism.evaluation.datasets.load_dataset`.
        workspace: workspace to use (default: see :func:`prepare_workspace`).
        mode: ``hybrid``, ``dense`` or ``bm25`` for a single run (default ``settings.retrieval_mode``), with the
            product's default stages (:func:`product_variant`). Ignored with ``ablation``.
        ablation: run the ablation group (:func:`ablation_variants`) instead.
        limit: only the first ``limit`` questions.
        tag: a label stored in the runs (e.g. ``baseline``).
        answers, judge: see :func:`evaluate_variant`.
        store: where to write (default ``RunStore(service.settings.eval_dir)``).
        progress: ``callback(fraction, message)``.

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
    if ablation:
        variants, skipped = ablation_variants(service)
    else:
        variants, skipped = [product_variant(service, mode)], []
    ws = prepare_workspace(service, dataset, workspace, progress)
    moment = datetime.now(UTC)
    version = prism.__version__
    group = store.new_id(version, moment) if ablation else None
    commit = git_commit()
    env = environment()
    written = []
    for k, variant in enumerate(variants):

        def sub(fraction: float, message: str, _k: int = k) -> None:
            if progress is not None:
                progress((_k + fraction) / len(variants), message)

        measured = evaluate_variant(service, dataset, ws["name"], variant, limit=limit, answers=answers, judge=judge,
                                    progress=sub)
        run_id = store.new_id(version, moment, variant.name if ablation else None)
        run = {
            "schema": 1,
            "id": run_id,
            "group": group or run_id,
            "variant": variant.name,
            "version": version,
            "tag": tag,
            "created_at": moment.isoformat(timespec="seconds"),
            "git_commit": commit,
            "dataset": {**dataset.summary(), "evaluated_queries": measured["counts"]["queries"]},
            "workspace": ws,
            "options": measured["options"],
            "config": _config(service, variant),
            "environment": env,
            "metrics": measured["metrics"],
            "metrics_by_type": measured["metrics_by_type"],
            "counts": measured["counts"],
            "latency_ms": measured["latency_ms"],
            "skipped": skipped,
            "queries": measured["queries"],
            "chunk_texts": measured["chunk_texts"],
        }
        written.append((run, store.write(run)))
    return written
