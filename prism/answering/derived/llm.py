"""Computed figures with an LLM: the LLM may choose the formula, the code reads the inputs and does the arithmetic.

The figure is the one the offline answer computes, decided in one place
(:func:`prism.answering.derived.computed.computed_figure`): a statement metric, else the arithmetic over the table row
the question names (:mod:`prism.answering.derived.operations`). For a statement metric
(:func:`prism.answering.derived.formulas.plan_of` recognises one) the small LLM is asked for the formula as a small
JSON reply (:data:`FORMULA_PROMPT`): the metric's name, the formula over the line items of
:data:`prism.index.statements.ITEMS` in words, the periods, how they combine and the rounding. The reply is parsed by
the same expression reader as a definition in a question (:func:`prism.answering.derived.formulas.parse_expression`);
a reply that does not parse (or a failed call) falls back to the plan read from the question, with a note. The inputs
are read from table cells (:mod:`prism.answering.derived.inputs`), the result computed in code
(:mod:`prism.answering.derived.calc`), and the work (the result, each input cell with its block number, the formula)
goes into the answer call as a checked fact the LLM must state and cite (:data:`CHECKED`). The LLM's figures go
through the number check, which accepts a figure only when it equals the recomputed result
(:func:`prism.answering.derived.answer.accept_derived`); another figure for it stays unsupported. A reply that does not
state the result gets it in front (:func:`surface_computed`), with a note.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal
from typing import Any

from prism.answering.citations import MARKER_RE, fence
from prism.answering.derived.answer import accept_derived, sub_search
from prism.answering.derived.calc import Plan
from prism.answering.derived.computed import missing_note, scoped_figure
from prism.answering.derived.formulas import parse_expression
from prism.answering.derived.inputs import cell_number
from prism.answering.derived.plan import llm_operation
from prism.answering.figures import extract_figures
from prism.answering.seams import Retriever, WorkspaceReader
from prism.answering.stream import AnswerRun
from prism.answering.units import blocks_of_chunks
from prism.errors import LLMError
from prism.index.statements import ITEMS
from prism.types import Calculation, Derived

logger = logging.getLogger(__name__)

__all__ = ["CHECKED", "FORMULA_PROMPT", "OMITTED_NOTE", "cited_calculation", "llm_derived", "plan_from_reply",
           "states_result", "surface_computed", "unsupported_bare"]

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


def llm_derived(run: AnswerRun, llm: Any, workspace: WorkspaceReader | None, retriever: Retriever) -> str:
    """Work out the computed figure for an LLM answer through the one decision the offline answer uses
    (:func:`prism.answering.derived.computed.scoped_figure`: a statement metric, the LLM choosing the formula, else
    the arithmetic over the table row the question names, its plan the LLM's, :mod:`~prism.answering.derived.plan`;
    one per company for a scope naming several, the formula asked once): sets ``run.derived``, appends the chunks
    holding inputs to ``run.chunks`` / ``run.blocks``, notes the companies none was computed for, and returns the text
    to add to the answer call's user message (:data:`CHECKED` and the fenced work; "" when the question asks for no
    computed figure, no table holds an input, there is no LLM or no workspace)."""
    if llm is None or workspace is None or not run.chunks:
        return ""
    derived, missing = scoped_figure(run.understood, run.chunks, workspace, sub_search(retriever, run.understood),
                                     run.scope, choose=lambda plan, fye: run.understood.memo(
                                         ("llm formula", fye), lambda: _plan(run, llm, plan, fye)),
                                     operation=llm_operation(run, llm), renumber=False)
    if derived is None:
        return ""
    if missing:
        run.note("no_match", missing_note(missing))
    run.derived = derived
    run.chunks, run.blocks = run.chunks + derived.extra, run.blocks + blocks_of_chunks(derived.extra)
    work = "\n".join([f"Result: {_fact(derived)}", *(f"- {text} [{n}]" for text, n in derived.lines)])
    return f"\n\n{CHECKED}\n{fence(work, 'calculation')}"


CHECKED = ("A calculation done in code from the blocks' table cells follows; it is a checked fact. Your answer must "
           "state its result exactly as written and cite its blocks; do not redo the arithmetic and give no other "
           "figure for it; if it says it cannot compute, say which inputs are missing and give no number.")
"""The instruction in front of the fenced calculation block of the answer call's user message."""
_OFFLINE = "(extractive, no LLM): "
OMITTED_NOTE = ("The LLM's answer did not state the figure computed in code from the cited table cells; it is given "
                "first.")


def _fact(derived: Derived) -> str:
    """The heading without the extractive label: ``"percentage change in Adjusted EBITDA, 2018 to 2019 = 16.36 %"``."""
    return derived.heading.split(": ", 1)[1] if _OFFLINE in derived.heading else derived.heading


def states_result(derived: Derived, text: str) -> bool:
    """True when ``text`` states the computed result: a figure of it equal to the result within its rounding
    (:func:`~prism.answering.derived.answer.accept_derived`; a period's value does not count), or the result's own
    number as written, for a result with no unit, currency or percent that the figure reader does not read
    ("369,919" states "-369,919"). For one figure per company, the first company's result is the one looked for."""
    if any(not accept_derived(derived, [f.text], result_only=True) for f in extract_figures(text)):
        return True
    number = re.search(r"\d[\d,]*(?:\.\d+)?", derived.calculation.result or "")
    return number is not None and re.search(rf"(?<![\d.,]){re.escape(number.group(0))}(?![\d]|[.,]\d)",
                                            text) is not None


def surface_computed(run: AnswerRun, text: str) -> str:
    """An LLM answer with the computed figure in front when it does not state it (noted :data:`OMITTED_NOTE`).

    An analyst asked for the figure, so a reply that leaves it out (or states another) still leads with it: one line
    ``"Computed in code from the cited table cells: <metric>, <periods> = <result> [n] …"`` citing the blocks its
    work cites (block numbers, renumbered with the rest of the answer), a blank line, then the LLM's text unchanged (a
    different figure in it stays among the number check's unsupported figures). Nothing changes for an extractive
    answer (``run.lines`` set), when there is no computed result (none asked, or an input missing) or the reply
    states it (:func:`states_result`).
    """
    derived = run.derived
    if run.lines is not None or derived is None or derived.raw is None or states_result(derived, text):
        return text
    marks = "".join(f"[{n}]" for n in dict.fromkeys(n for _, n in derived.lines))
    line = f"Computed in code from the cited table cells: {_fact(derived)} {marks}".rstrip()
    run.note("degraded", OMITTED_NOTE)
    return f"{line}\n\n{text.lstrip()}"


_GROUPED = re.compile(r"(?<![\w.,])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w]|[.,]\d)")


def unsupported_bare(run: AnswerRun, text: str) -> list[str]:
    """The bare numbers of an LLM answer that contradict a computed figure stated without a unit.

    The number check reads only figures with a unit, currency or percent (a bare number's scale is unknown). When
    the computed result is itself bare (a row of a table whose unit is stated in prose: "-369,919"), a grouped number
    of the answer ("400,000", not a year) is unsupported unless it is the result, a period's value or an input (within
    the rounding it is written with), a figure with a unit, or written in a block. Nothing for an extractive answer.
    """
    derived = run.derived
    if run.lines is not None or derived is None or derived.raw is None or derived.kind != "amount" \
            or extract_figures(derived.calculation.result or ""):
        return []
    known = [abs(v) for v in (derived.raw, *derived.per_period)] + [
        abs(n) for i in derived.calculation.inputs if (n := cell_number(i.value)) is not None]
    figures = " ".join(f.text for f in extract_figures(text))
    sources = [b.text for b in run.blocks] + [w.content for w in run.web]
    out: list[str] = []
    for m in _GROUPED.finditer(MARKER_RE.sub(" ", text)):
        number = m.group(0).lstrip("-")
        value = Decimal(number.replace(",", ""))
        exponent = value.as_tuple().exponent  # an int: the text is digits (never NaN or Infinity)
        step = Decimal("0.5").scaleb(exponent) if isinstance(exponent, int) and exponent < 0 else Decimal(0)
        if number in figures or any(number in src for src in sources) \
                or any(abs(value - k) <= step for k in known):
            continue
        out.append(m.group(0))
    return list(dict.fromkeys(out))


def cited_calculation(run: AnswerRun, order: Sequence[int]) -> Calculation | None:
    """``run.derived``'s calculation with its inputs' citations as the answer numbers its sources.

    An LLM answer's work carries block numbers (retrieval ranks); the answer numbers the blocks it cites by first use
    (``order``, the ranks in that order) and then the blocks it does not cite (``Answer.retrieved``), so block ``n``
    becomes ``order.index(n) + 1``, or ``len(order) + 1 +`` its place among the uncited ranks. An extractive answer's
    calculation is numbered so already (``run.lines`` set) and is returned as it is.
    """
    if run.derived is None:
        return None
    calc = run.derived.calculation
    if run.lines is not None:
        return calc
    uncited = [rank for rank in range(1, len(run.chunks) + 1) if rank not in order]
    final = {n: i for i, n in enumerate([*order, *uncited], start=1)}
    return replace(calc, inputs=tuple(replace(i, citation=final.get(i.citation, i.citation)) for i in calc.inputs))
