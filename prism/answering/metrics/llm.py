"""A statement metric's formula chosen by the LLM; the code reads the inputs and does the arithmetic.

For a question naming a statement metric (:attr:`prism.types.reading.Reading.plans`) the small LLM is asked for the
formula as a small JSON reply (:data:`FORMULA_PROMPT`): the metric's name, the formula over the line items of
:data:`prism.index.statements.ITEMS` in words, the periods, how they combine and the rounding. The reply is parsed by
the same expression reader as a definition in a question
(:func:`prism.answering.reading.formulas.parse_expression`); a reply that does not parse (or a failed call) keeps the
plan read from the question, with a note. The inputs are read from table cells and computed in code
(:func:`prism.answering.metrics.answer.metric_answer`).
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import replace
from typing import Any

from prism.answering.metrics.calc import Plan
from prism.answering.reading.formulas import parse_expression
from prism.answering.stream import AnswerRun
from prism.errors import LLMError
from prism.index.statements import ITEMS

logger = logging.getLogger(__name__)

__all__ = ["FORMULA_PROMPT", "llm_plan", "plan_from_reply"]

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
    how: Any = data.get("how") if data.get("how") in ("single", "average", "cagr") else fallback.how
    kind: Any = data.get("kind") if data.get("kind") in _KINDS else fallback.kind
    decimals = data.get("decimals")
    decimals = decimals if isinstance(decimals, int) and 0 <= decimals <= 6 else fallback.decimals
    metric = str(data.get("metric") or fallback.metric)[:80]
    return replace(fallback, metric=metric, expr=expr, periods=tuple(sorted(periods)) or fallback.periods, how=how,
                   kind=kind, decimals=decimals, source="the LLM's formula (arithmetic in code)")


def llm_plan(run: AnswerRun, llm: Any, fallback: Plan, fye: str | None) -> Plan:
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
