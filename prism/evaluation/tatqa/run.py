"""Measure answers on TAT-QA: ask each question scoped to its own context's HTML file and score the answer's first
line (or its computed figure) with :func:`prism.evaluation.tatqa.match.line_matches`.

A question's record (in the run file's ``queries``) is ``{"id", "query", "type" (answer_type), "answer_from",
"scale", "gold", "derivation", "source", "reference_answer", "relevant", "retrieved", "metrics", "answer": {"text",
"first_line", "calculation", "declined", "first_line_match", "computed_match", "tatqa_match", "computed"},
"latency_ms"}``. ``tatqa_match`` is ``first_line_match or computed_match``.

Aggregates: ``tatqa_first_line`` (mean of ``tatqa_match``) overall and per answer type (``span``, ``multi-span``,
``arithmetic``, ``count``) and per source (``from table``, ``from text``, ``from table-text``) in
``metrics_by_type``, each row with its ``questions`` count.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from prism.answering.engine import LLM_FAILED_LABEL
from prism.answering.extractive import EXTRACTIVE_LABEL
from prism.errors import LLMAuthError, PrismError
from prism.evaluation import answers as answer_eval
from prism.evaluation.dataset_types import EvalDataset, EvalQuery
from prism.evaluation.metrics import METRICS, stage_percentiles
from prism.evaluation.protocol import EvalService
from prism.evaluation.tatqa.match import line_matches
from prism.evaluation.variants import Variant
from prism.types import ProgressCallback

logger = logging.getLogger(__name__)

SOURCE_PREFIX = "from "
"""Prefix of the per-source rows of ``metrics_by_type`` (``from table``), apart from the answer types."""


def first_line(text: str) -> str:
    """The first line of an answer that says something, as the analyst reads it: the first non-empty line without
    leading bullet or heading marks, skipping the extractive answer's heading (``"Extractive answer (no LLM
    configured):"``, :func:`prism.answering.extractive.format_extractive`); ``""`` for none."""
    headings = {f"{label}:".lower() for label in (EXTRACTIVE_LABEL, LLM_FAILED_LABEL)}
    for line in (text or "").splitlines():
        line = line.strip().lstrip("#>*-• ").strip()
        if line and line.lower() not in headings:
            return line
    return ""


def score_answer(q: EvalQuery, text: str, calculation: dict[str, Any] | None, declined: bool) -> dict[str, Any]:
    """The TAT-QA fields of one answer record (see the module docstring); ``q.gold`` holds the gold."""
    gold = q.gold or {}
    line = first_line(text)
    on_line = not declined and line_matches(line, gold.get("answer"), gold.get("scale", ""))
    result = (calculation or {}).get("result")
    computed = bool(result)
    on_calc = computed and line_matches(str(result), gold.get("answer"), gold.get("scale", ""))
    return {"first_line": line, "first_line_match": on_line, "computed_match": on_calc, "computed": computed,
            "tatqa_match": on_line or on_calc}


def answer_question(service: EvalService, workspace: str, q: EvalQuery, variant: Variant) -> dict[str, Any]:
    """Ask ``q`` scoped to its own file (``sources=q.scope``) with the variant's options and score it; a
    ``PrismError`` is recorded as an unmatched answer with its message.

    Raises:
        LLMAuthError: the LLM rejected the key.
    """
    try:
        ans = service.ask(q.query, workspace, sources=list(q.scope) or None, mode=variant.mode, hyde=variant.hyde,
                          multi_query=variant.multi_query, rerank=variant.rerank, auto_scope=variant.auto_scope)
    except LLMAuthError:
        raise
    except PrismError as exc:
        return {"text": "", "error": str(exc), "declined": None, "timings_ms": {},
                **score_answer(q, "", None, True)}
    calc = ans.calculation.to_dict() if ans.calculation is not None else None
    declined = bool(ans.declined or answer_eval.is_declined(ans.answer))
    return {"text": ans.answer, "mode": ans.mode, "declined": declined, "calculation": calc,
            "citations": [c.chunk_id for c in ans.citations],
            "timings_ms": {k: (round(v, 2) if v is not None else None) for k, v in ans.timings_ms.items()},
            **score_answer(q, ans.answer, calc, declined)}


def _record(q: EvalQuery, answer: dict[str, Any]) -> dict[str, Any]:
    gold = q.gold or {}
    timings = answer.pop("timings_ms", {})
    return {"id": q.id, "query": q.query, "type": q.type, "answer_from": gold.get("answer_from"),
            "scale": gold.get("scale", ""), "gold": gold.get("answer"), "derivation": gold.get("derivation", ""),
            "source": q.scope[0] if q.scope else None, "reference_answer": q.reference_answer,
            "relevant": [], "retrieved": [], "metrics": {}, "answer": answer,
            "latency_ms": {"retrieval": {}, "answer": timings}}


def _means(records: Sequence[dict[str, Any]]) -> dict[str, float]:
    out: dict[str, float] = {"questions": float(len(records))}
    for m in METRICS:
        if m.source != "answers":
            continue
        vals = [v for v in (m.value(r) for r in records) if v is not None]
        if vals:
            out[m.name] = sum(vals) / len(vals)
    return out


def aggregate(records: Sequence[dict[str, Any]]) -> tuple[dict[str, float], dict[str, dict[str, float]]]:
    """``(metrics, metrics_by_type)``: the answer metrics over all records, then per answer type and per
    ``from <answer_from>`` (groups in :data:`~prism.evaluation.tatqa.dataset.ANSWER_TYPES` /
    ``ANSWER_FROM`` order; empty groups left out). Values are shares in [0, 1]; ``questions`` is a count."""
    from prism.evaluation.tatqa.dataset import ANSWER_FROM, ANSWER_TYPES

    metrics = _means(records)
    metrics.pop("questions")
    by: dict[str, dict[str, float]] = {}
    for kind in ANSWER_TYPES:
        group = [r for r in records if r["type"] == kind]
        if group:
            by[kind] = _means(group)
    for origin in ANSWER_FROM:
        group = [r for r in records if r.get("answer_from") == origin]
        if group:
            by[SOURCE_PREFIX + origin] = _means(group)
    return metrics, by


def evaluate_tatqa(service: EvalService, dataset: EvalDataset, workspace: str, variant: Variant, *,
                   limit: int | None = None, progress: ProgressCallback | None = None) -> dict[str, Any]:
    """Answer and score every question (the first ``limit``), each scoped to its own file.

    Returns:
        The measured part of a run record, as :func:`prism.evaluation.runner.evaluate_variant` returns it
        (``chunk_texts`` empty: no retrieval is ranked).

    Raises:
        PrismError: ``limit`` < 1. LLMAuthError: the LLM rejected the key.
    """
    if limit is not None and limit < 1:
        raise PrismError(f"--limit must be at least 1 (got {limit}).")
    queries = list(dataset.queries[: limit or None])
    records = []
    for i, q in enumerate(queries):
        records.append(_record(q, answer_question(service, workspace, q, variant)))
        if progress is not None:
            progress((i + 1) / len(queries), f"{variant.name}: question {i + 1}/{len(queries)}")
    metrics, by_type = aggregate(records)
    counts = {"queries": len(queries), "judged": len(queries), "negatives": 0, "unjudgeable": 0,
              "answered": len(records), "matched": sum(bool(r["answer"]["tatqa_match"]) for r in records),
              "computed": sum(bool(r["answer"]["computed"]) for r in records)}
    options = {**variant.to_dict(), "variant": variant.name, "limit": limit, "answers": True, "judge": False,
               "depth": None, "granularity": dataset.granularity, "documents_ranked": None, "scoped": True}
    logger.info("%s on %s: tatqa_first_line %.3f", variant.name, dataset.name, metrics.get("tatqa_first_line", 0))
    latency = {"answer": stage_percentiles([r["latency_ms"]["answer"] for r in records])}
    return {"metrics": metrics, "metrics_by_type": by_type, "counts": counts, "latency_ms": latency,
            "queries": records, "chunk_texts": {}, "options": options}
