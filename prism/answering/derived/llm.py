"""Derived figures with an LLM: the LLM chooses the formula, the code reads the inputs and does the arithmetic.

For a question that asks for a derived figure (:func:`prism.answering.derived.formulas.plan_of` recognises one), the
small LLM is asked for the formula as a small JSON reply (:data:`FORMULA_PROMPT`): the metric's name, the formula over
the line items of :data:`prism.index.statements.ITEMS` in words, the periods, how they combine and the rounding.
The reply is parsed by the same expression reader as a definition in a question
(:func:`prism.answering.derived.formulas.parse_expression`); a reply that does not parse (or a failed call) falls back
to the plan read from the question, with a note. The rest is the one pipeline the offline answer runs
(:func:`prism.answering.derived.answer.derived_answer`): the inputs are read from table cells
(:mod:`prism.answering.derived.inputs`), the result computed in code (:mod:`prism.answering.derived.calc`), and the work
(inputs with their block numbers, the formula, the result) is put in front of the answer call as a block the LLM
must state and cite. The LLM's final figure goes through the number check, which accepts a figure only when it
equals the recomputed result (:func:`prism.answering.derived.answer.accept_derived`).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import replace
from typing import Any

from prism.answering.citations import fence
from prism.answering.derived.answer import derived_answer, derived_text, sub_search
from prism.answering.derived.calc import Plan
from prism.answering.derived.cells import RowsOf
from prism.answering.derived.formulas import parse_expression
from prism.answering.seams import Retriever
from prism.answering.stream import AnswerRun
from prism.answering.units import blocks_of_chunks
from prism.errors import LLMError
from prism.index.statements import ITEMS

logger = logging.getLogger(__name__)

__all__ = ["FORMULA_PROMPT", "llm_derived", "plan_from_reply"]

FORMULA_PROMPT = """You choose the formula for a financial metric; you do no arithmetic.
Line items you may use: {items}.
Question: {question}

Reply with one JSON object and nothing else:
{{"metric": "<the metric's name>", "formula": "<line items joined by + - * / and parentheses; write 'average
<item> <period> <period>' for the average of two year-end balances; add a period (FY2019) after an item only when
the question fixes it>", "periods": ["FY2018", ...], "how": "single|average|cagr", "kind": "ratio|percent|amount|bps",
"decimals": <int>}}"""
"""The formula call's prompt (``items`` and ``question`` filled in)."""

_KINDS = ("ratio", "percent", "amount", "bps")


def plan_from_reply(reply: str, fallback: Plan, fiscal_year_end: str | None = None) -> Plan | None:
    """The LLM's formula reply as a :class:`~prism.answering.derived.calc.Plan`, or ``None`` when it does not parse.

    Fields missing or out of range keep the ``fallback`` plan's (read from the question): the periods, how they
    combine, the result kind, the decimals (0–6) and the unit.
    """
    m = re.search(r"\{.*\}", reply, re.DOTALL)
    try:
        data = json.loads(m.group(0)) if m else None
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict) or not isinstance(data.get("formula"), str):
        return None
    expr = parse_expression(data["formula"], fiscal_year_end)
    if expr is None:
        return None
    periods = data.get("periods")
    periods = tuple(p for p in periods if isinstance(p, str) and re.fullmatch(r"FY\d{4}", p)) \
        if isinstance(periods, list) else ()
    how = data.get("how") if data.get("how") in ("single", "average", "cagr") else fallback.how
    kind = data.get("kind") if data.get("kind") in _KINDS else fallback.kind
    decimals = data.get("decimals")
    decimals = decimals if isinstance(decimals, int) and 0 <= decimals <= 6 else fallback.decimals
    metric = str(data.get("metric") or fallback.metric)[:80]
    return replace(fallback, metric=metric, expr=expr, periods=tuple(sorted(periods)) or fallback.periods, how=how,
                   kind=kind, decimals=decimals, source="the LLM's formula (arithmetic in code)")


def _plan(run: AnswerRun, llm: Any, fallback: Plan, fye: str | None) -> Plan:
    """The plan: the LLM's formula when it gives a usable one, else ``fallback``, the one read from the question."""
    items = ", ".join(item.name for item in ITEMS.values())
    try:
        reply = llm.complete(FORMULA_PROMPT.format(items=items, question=run.condensed))
    except LLMError as exc:
        run.note("degraded", f"The formula call failed ({exc}); the formula was read from the question.")
        return fallback
    plan = plan_from_reply(reply, fallback, fye)
    if plan is None:
        run.note("degraded", "The LLM's formula could not be read; the formula was read from the question.")
        return fallback
    return plan


def llm_derived(run: AnswerRun, llm: Any, rows_of: RowsOf | None, retriever: Retriever) -> str:
    """Work out the derived figure for an LLM answer through the one pipeline
    (:func:`prism.answering.derived.answer.derived_answer`, the LLM choosing the formula): sets ``run.derived``,
    appends the chunks holding inputs to ``run.chunks`` / ``run.blocks``, and returns the text to add to the answer
    call's user message ("" when the question asks for no derived figure, no table holds any input, there is no LLM
    or no chunk rows)."""
    if llm is None or rows_of is None or not run.chunks:
        return ""
    derived = derived_answer(run.understood, run.chunks, rows_of, sub_search(retriever, run.understood),
                             choose=lambda plan, fye: _plan(run, llm, plan, fye), renumber=False)
    if derived is None:
        return ""
    run.derived = derived
    run.chunks, run.blocks = run.chunks + derived.extra, run.blocks + blocks_of_chunks(derived.extra)
    lines = derived_text(derived)
    return ("\n\nCalculation done in code from the blocks' table cells (state its result and cite its blocks; do "
            "not redo the arithmetic; if it says it cannot compute, say which inputs are missing and give no "
            f"number):\n{fence(lines, 'calculation')}")
