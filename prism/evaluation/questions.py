"""One question under one variant: retrieve (with the variant's expansions) and record what came back with its
relevance; answer and score the answer.

A question's record is ``{"id", "query", "type", "relevant", "retrieved", "metrics", "latency_ms", ...}`` (see
:mod:`prism.evaluation.runs`); retrieved chunk texts go to the run's shared ``chunk_texts``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from prism.errors import LLMAuthError, LLMError, PrismError
from prism.evaluation import answers as answer_eval
from prism.evaluation.beir import DOCS_TO_RANK
from prism.evaluation.dataset_types import EvalQuery
from prism.evaluation.protocol import EvalService
from prism.evaluation.relevance import lenient_precision_at_k, relevant_chunk_ids
from prism.evaluation.variants import Variant
from prism.retrieval.expansion import expanded_search
from prism.retrieval.retriever import HybridRetriever
from prism.types import RetrievedChunk

logger = logging.getLogger(__name__)

RECORDED_CHUNKS = 10
"""Retrieved chunks kept per question in a chunk-level run file (with text)."""

RECORDED_DOCUMENTS = 5
"""Ranked documents kept per question in a document-level run file (best chunk, shortened text)."""

CHUNK_TEXT_CHARS = 700
DOCUMENT_TEXT_CHARS = 200


@dataclass
class Tally:
    """What the questions of one variant add up to: the ranx run and qrels, lenient P@5 per question, the shared
    chunk texts, the question records and how many questions had evidence no chunk holds."""

    run: dict[str, dict[str, float]] = field(default_factory=dict)
    qrels: dict[str, dict[str, int]] = field(default_factory=dict)
    lenient: dict[str, float] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    records: list[dict[str, Any]] = field(default_factory=list)
    unjudgeable: int = 0


@dataclass
class Setup:
    """How one variant's questions are retrieved: the retriever, its depth, and (chunk datasets) the chunk rows the
    relevance rule is applied to."""

    retriever: HybridRetriever
    top_k: int
    document_level: bool
    chunk_rows: list[dict[str, Any]] = field(default_factory=list)


def _round_scores(scores: dict[str, Any]) -> dict[str, Any]:
    return {k: (round(v, 5) if isinstance(v, float) else v) for k, v in scores.items()}


def _retrieved_record(r: RetrievedChunk, relevant: bool, texts: dict[str, str], text_chars: int,
                      rank: int | None = None) -> dict[str, Any]:
    """One retrieved chunk of a question's record; its (shortened) text goes to the run's ``chunk_texts``."""
    if r.chunk_id not in texts:
        text = " ".join(r.text.split())
        texts[r.chunk_id] = text[:text_chars] + ("…" if len(text) > text_chars else "")
    return {"rank": rank if rank is not None else r.rank, "chunk_id": r.chunk_id, "source": r.source,
            "page_start": r.page_start, "page_end": r.page_end, "relevant": relevant,
            "scores": _round_scores(r.scores())}


def search(service: EvalService, setup: Setup, query: str, variant: Variant) -> tuple[Any, dict[str, float]]:
    """One retrieval with the variant's stages (:func:`prism.retrieval.expansion.expanded_search`); returns the
    result and its stage timings in ms, ``expand`` included in ``total``."""
    searched = expanded_search(setup.retriever, query, service.llms.cheap, hyde=variant.hyde,
                               multi_query=variant.multi_query, n=service.settings.multi_query_count,
                               mode=variant.mode, top_k=setup.top_k, rerank=variant.rerank,
                               auto_scope=variant.auto_scope)
    timings = dict(searched.result.timings_ms)
    if searched.expand_ms is not None:
        timings["expand"] = searched.expand_ms
        timings["total"] = timings.get("total", 0.0) + searched.expand_ms
    return searched.result, timings


def _rank_documents(q: EvalQuery, results: list[RetrievedChunk],
                    tally: Tally) -> tuple[dict[str, int], dict[str, float], list[dict[str, Any]]]:
    """Documents ranked by their best chunk (score ``1 / document rank``), :data:`DOCS_TO_RANK` deep."""
    relevant_ids = dict(q.grades) or {s.source: 1 for s in q.relevant}
    ranked: dict[str, float] = {}
    shown: list[dict[str, Any]] = []
    for r in results:
        if r.source in ranked:
            continue
        ranked[r.source] = 1.0 / (len(ranked) + 1)
        if len(shown) < RECORDED_DOCUMENTS:
            shown.append(_retrieved_record(r, r.source in relevant_ids, tally.texts, DOCUMENT_TEXT_CHARS,
                                           len(ranked)))
        if len(ranked) >= DOCS_TO_RANK:
            break
    return relevant_ids, ranked, shown


def _rank_chunks(q: EvalQuery, results: list[RetrievedChunk], setup: Setup,
                 tally: Tally) -> tuple[dict[str, int], dict[str, float], list[dict[str, Any]]]:
    """Chunks ranked as retrieved (score ``1 / rank``), relevance by the chunk rule, and the lenient P@5."""
    relevant_ids = relevant_chunk_ids(q.relevant, setup.chunk_rows) if q.relevant else {}
    ranked = {r.chunk_id: 1.0 / r.rank for r in results}
    shown = [_retrieved_record(r, r.chunk_id in relevant_ids, tally.texts, CHUNK_TEXT_CHARS)
             for r in results[:RECORDED_CHUNKS]]
    if q.relevant:
        tally.lenient[q.id] = lenient_precision_at_k([{"source": r.source, "text": r.text} for r in results],
                                                     q.relevant, q.keywords, 5)
    return relevant_ids, ranked, shown


def retrieval_record(service: EvalService, setup: Setup, q: EvalQuery, variant: Variant,
                     tally: Tally) -> dict[str, Any]:
    """Retrieve one question, add its ranking and judgements to ``tally``, and return its record."""
    result, timings = search(service, setup, q.query, variant)
    if setup.document_level:
        relevant_ids, ranked, shown = _rank_documents(q, result.results, tally)
    else:
        relevant_ids, ranked, shown = _rank_chunks(q, result.results, setup, tally)
    if q.relevant and not relevant_ids:
        tally.unjudgeable += 1
        logger.warning("question %s: no chunk of the workspace holds its evidence; left out of the metrics", q.id)
    if relevant_ids:
        tally.run[q.id] = ranked
        tally.qrels[q.id] = relevant_ids
    record: dict[str, Any] = {
        "id": q.id, "query": q.query, "type": q.type, "relevant": sorted(relevant_ids), "retrieved": shown,
        "metrics": {}, "latency_ms": {"retrieval": {k: round(v, 2) for k, v in timings.items()}},
    }
    if not setup.document_level:
        record["relevant_entries"] = [s.to_dict() for s in q.relevant]
        record["reference_answer"] = q.reference_answer
    return record


def answer_record(service: EvalService, workspace: str, q: EvalQuery, variant: Variant,
                  judge: bool) -> dict[str, Any]:
    """Ask the question with the variant's options and score the answer (:mod:`prism.evaluation.answers`; the LLM
    judge when ``judge``). An LLM failure other than a rejected key is recorded, not raised.

    Raises:
        LLMAuthError: the LLM rejected the key.
    """
    try:
        ans = service.ask(q.query, workspace, mode=variant.mode, hyde=variant.hyde, multi_query=variant.multi_query,
                          rerank=variant.rerank, auto_scope=variant.auto_scope)
    except LLMAuthError:
        raise
    except PrismError as exc:
        return {"text": "", "error": str(exc), "declined": None, "timings_ms": {}}
    text = ans.answer
    record: dict[str, Any] = {
        "text": text, "mode": ans.mode, "declined": ans.declined or answer_eval.is_declined(text),
        "citations": [c.chunk_id for c in ans.citations],
        "unsupported_numbers": list(ans.unsupported_numbers),
        "timings_ms": {k: (round(v, 2) if v is not None else None) for k, v in ans.timings_ms.items()},
    }
    if q.reference_answer is not None and not q.negative:
        record["f1"] = answer_eval.token_f1(text, q.reference_answer)
        record["numeric_match"] = answer_eval.numeric_match(text, q.reference_answer, question=q.query)
    if judge and q.reference_answer is not None:
        record.update(_judged(service, q, text))
    return record


def _judged(service: EvalService, q: EvalQuery, text: str) -> dict[str, Any]:
    """The LLM judge's fields for one answer (``judge_error`` when a call failed)."""
    out: dict[str, Any] = {}
    main, cheap = service.llms.main, service.llms.cheap
    if main is None or cheap is None:  # no LLM configured: nothing can judge
        return out
    try:
        verdict = answer_eval.judge_correctness(q.query, q.reference_answer or "", text, main)
        if verdict is not None:
            out.update(judge_correctness=verdict.normalized, judge_score=verdict.score, judge_reason=verdict.reason)
        if not q.negative:
            out["answer_relevancy"] = answer_eval.answer_relevancy(q.query, text, cheap, service.embedder)
    except LLMAuthError:
        raise
    except LLMError as exc:
        out["judge_error"] = str(exc)
    return out
