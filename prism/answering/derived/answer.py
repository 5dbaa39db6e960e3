"""Derived figures in an answer: recognise the metric, read its inputs from cited cells, compute, show the work.

:func:`derived_answer` is the engine's step for a question that asks for a derived figure
(:func:`prism.answering.derived.formulas.plan_of`): it reads every input from a table cell of the scoped document
(:func:`prism.answering.derived.inputs.find_inputs`, with a sub-retrieval for an input the retrieved chunks lack),
brings the inputs to one unit (the smallest they state: thousands and millions → thousands), computes in code
(:mod:`prism.answering.derived.calc`, :class:`~decimal.Decimal`), and writes the answer as lines an analyst can check::

    Derived figure, computed in code from the cited table cells (extractive, no LLM): EBITDA margin FY2015 = 5.4 %

    - Operating income, FY2015: $305,826 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS) [1]
    - Depreciation and amortization of property, equipment and intangibles, FY2015: $62,283 thousand (…) [2]
    - Revenues, FY2015: $6,779,511 thousand (…) [1]
    - EBITDA margin FY2015 = (operating income + depreciation and amortization) / revenue
      = (305,826 + 62,283) / 6,779,511 = 5.4 % [1] [2]

An average shows each year's value, then their mean. A missing input gives "Cannot compute …: no FY2018 inventory
found in a table of <document>", the inputs that were found, and no number. :func:`accept_derived` is the number
check's part: a figure the work states (the result, a year's value) is accepted only when recomputing the formula
from the inputs read from the cited cells gives it within its rounding; any other figure stays unsupported.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from decimal import Decimal

from prism.answering.answerability import Answerability
from prism.answering.derived.calc import (
    Plan,
    aggregate,
    common_unit,
    needed,
    present,
    render,
    substitute,
    unit_scale,
)
from prism.answering.derived.captions import caption_lines
from prism.answering.derived.cells import CellQuote, RowsOf, format_quote, quote_cells
from prism.answering.derived.formulas import plan_of
from prism.answering.derived.inputs import FoundInput, Search, cell_number, find_inputs
from prism.answering.derived.listing import listing_lines
from prism.answering.derived.operations import operation_answer
from prism.answering.derived.pairs import pair_answer
from prism.answering.derived.which import which_answer
from prism.answering.figures import Figure, extract_figures
from prism.answering.seams import Retriever
from prism.index.statements import ITEMS
from prism.retrieval.understanding import Understanding
from prism.types import Calculation, CalculationInput, Derived, RetrievedChunk
from prism.vocabulary.currencies import SYMBOL
from prism.vocabulary.units import SPOKEN

logger = logging.getLogger(__name__)

__all__ = ["DERIVED_LABEL", "accept_derived", "derive", "derived_answer", "derived_gate", "derived_text",
           "document_period", "sub_search"]

DERIVED_LABEL = "Derived figure, computed in code from the cited table cells (extractive, no LLM)"
_NAMES = {key: item.name for key, item in ITEMS.items()}



def _plain(value: Decimal) -> str:
    """``Decimal("305826")`` → ``"305,826"`` (decimals kept as they are)."""
    return f"{value:,f}" if value != value.to_integral_value() else f"{value.to_integral_value():,}"


def _shown(plan: Plan, value: Decimal, currency: str | None, unit: str | None) -> str:
    """The result as written: ``"5.4 %"``, ``"0.66"``, ``"25 bps"``, ``"$1,832 million"``."""
    if plan.kind == "percent":
        return f"{value} %"
    if plan.kind == "bps":
        return f"{value} bps"
    if plan.kind == "amount":
        shown_unit = plan.unit or unit
        spoken = f" {SPOKEN[shown_unit]}" if shown_unit in SPOKEN else ""
        return f"{SYMBOL.get(currency or '', '')}{_plain(value)}{spoken}"
    return str(value)


def _numbering(found: Sequence[FoundInput], chunks: Sequence[RetrievedChunk]
               ) -> tuple[dict[tuple[str, str], int], list[RetrievedChunk]]:
    """Each input's block number (``chunks`` then the chunks added) and the chunks to add."""
    ids = [c.chunk_id for c in chunks]
    extra: list[RetrievedChunk] = []
    block: dict[tuple[str, str], int] = {}
    for f in found:
        if f.chunk.chunk_id not in ids:
            ids.append(f.chunk.chunk_id)
            extra.append(f.chunk)
        block[(f.item, f.period)] = ids.index(f.chunk.chunk_id) + 1
    return block, extra


def _work_line(plan: Plan, period: str, shown: dict[tuple[str, str], str], value: str, unit_note: str) -> str:
    return (f"{plan.metric} {period} = {render(plan.expr, _NAMES)} = {substitute(plan.expr, period, shown)}"
            f"{unit_note} = {value}")


def _steps(plan: Plan, shown: dict[tuple[str, str], str], unit: str | None, unit_note: str, per: list[Decimal],
           result: str) -> list[str]:
    """The work lines: the formula with its numbers; for an average each year's value first (two more decimals than
    the result), then their mean; for a CAGR the first and last values."""
    span = f"{plan.periods[0]}–{plan.periods[-1]}"
    if plan.how == "single":
        return [_work_line(plan, plan.periods[-1], shown, result, unit_note)]
    if plan.how == "cagr":
        first, last = (_plain(round(v, 4)) for v in (per[0], per[-1]))
        return [f"{plan.metric} {span} = ({last} / {first}) ^ (1 / {len(per) - 1}) - 1{unit_note} = {result}"]
    yearly = [_shown(plan, present(v, plan.kind, plan.decimals + 2, unit=plan.unit, from_unit=unit), None, unit)
              for v in per]
    name = replace(plan, metric=plan.metric.split(" average ", 1)[-1])
    lines = [_work_line(name, p, shown, y, unit_note) for p, y in zip(plan.periods, yearly, strict=True)]
    lines.append(f"{plan.metric} {span} = ({' + '.join(yearly)}) / {len(yearly)} = {result}")
    return lines


def _missing_text(plan: Plan, missing: Sequence[tuple[str, str]], document: str | None) -> str:
    what = ", ".join(f"{period} {ITEMS[item].name}" for item, period in missing)
    where = f" of {document}" if document else ""
    return f"Cannot compute {plan.metric}: no {what} found in a table{where}. No figure is given."


def derive(plan: Plan, found: Sequence[FoundInput], missing: Sequence[tuple[str, str]],
           chunks: Sequence[RetrievedChunk], *, renumber: bool = True) -> Derived:
    """Compute ``plan`` from the inputs found (or say which are missing) and write the work.

    Args:
        plan: the metric (:func:`prism.answering.derived.formulas.plan_of`).
        found: inputs read from table cells; missing: the ``(item, period)`` pairs not found.
        chunks: the answer's blocks so far (retrieved chunks), to number the inputs' citations.
        renumber: write the work line's markers as the extractive answer numbers its citations (by first use);
            ``False`` keeps block numbers (the LLM's context).
    """
    block, extra = _numbering(found, chunks)
    order = list(dict.fromkeys(block[(f.item, f.period)] for f in found))
    new = {n: (i if renumber else n) for i, n in enumerate(order, start=1)}
    unit = common_unit([f.unit for f in found])
    currency = next((f.currency for f in found if f.currency), None)
    inputs = tuple(CalculationInput(_NAMES[f.item], f.label, f.period, f.cell, f.unit, f.currency,
                                    new[block[(f.item, f.period)]]) for f in found)
    lines = [(format_quote(CellQuote(0, f.label, f.cell, f.period, f.period, f.unit, f.currency, f.title)),
              block[(f.item, f.period)]) for f in found]
    formula = render(plan.expr, _NAMES)
    document = chunks[0].source if chunks else None
    if missing or not found:
        heading = _missing_text(plan, missing or needed(plan), found[0].chunk.source if found else document)
        calc = Calculation(plan.metric, formula, plan.source, plan.periods, inputs, None, None,
                           tuple(f"{p} {ITEMS[i].name}" for i, p in (missing or needed(plan))))
        return Derived(heading, lines, extra, calc, kind=plan.kind)
    values = {(f.item, f.period): f.number * unit_scale(f.unit) / unit_scale(unit) for f in found}
    shown = {(f.item, f.period): _plain(values[(f.item, f.period)]) for f in found}
    try:
        raw, per = aggregate(plan, values)
    except (ZeroDivisionError, ValueError) as exc:
        heading = f"Cannot compute {plan.metric}: {exc}. No figure is given."
        calc = Calculation(plan.metric, formula, plan.source, plan.periods, inputs, None, None, (str(exc),))
        return Derived(heading, lines, extra, calc, kind=plan.kind)
    value = present(raw, plan.kind, plan.decimals, unit=plan.unit, from_unit=unit)
    result = _shown(plan, value, currency, unit)
    cur = f"{currency} " if currency else ""
    unit_note = f" ({cur}{unit})" if unit and plan.kind != "amount" else ""
    cited = sorted({block[k] for k in needed(plan)}, key=new.__getitem__)  # the line's own [n] is written last
    marks = " ".join(f"[{new[n]}]" for n in cited[:-1])
    for text in _steps(plan, shown, unit, unit_note, per, result):
        lines.append((f"{text} {marks}".rstrip(), cited[-1]))
    heading = f"{DERIVED_LABEL}: {plan.metric} {_span(plan)} = {result}"
    calc = Calculation(plan.metric, formula, plan.source, plan.periods, inputs, result, float(value))
    logger.info("derived figure: %s from %d input(s)", plan.metric, len(found))
    return Derived(heading, lines, extra, calc, tuple(per), raw, plan.kind)


def _span(plan: Plan) -> str:
    return plan.periods[-1] if len(plan.periods) == 1 else f"{plan.periods[0]}–{plan.periods[-1]}"


def document_period(chunks: Sequence[RetrievedChunk]) -> str | None:
    """The scoped document's own fiscal period (chunk metadata ``period``), for a question that names none."""
    for c in chunks:
        period = str(c.metadata.get("period") or "")
        if period.startswith("FY"):
            return period
    return None


def derived_answer(question: str | Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None,
                   search: Callable[[str, Sequence[str]], Sequence[RetrievedChunk]] | None, *,
                   choose: Callable[[Plan, str | None], Plan] | None = None, renumber: bool = True) -> Derived | None:
    """The one derived-figure pipeline, offline and with an LLM: plan → period → inputs → derive.

    Args:
        question: the (standalone) question or its :class:`~prism.retrieval.understanding.Understanding`.
        chunks: the retrieved chunks, best first.
        rows_of: the workspace's ``read_chunks(doc_id)`` (``None``: no tables, no derived figure).
        search: the focused sub-retrieval for inputs no retrieved table holds (:func:`sub_search`), or ``None``.
        choose: the optional step that may replace the plan read from the question, given it and the documents'
            fiscal year end (the LLM's formula, :func:`prism.answering.derived.llm.llm_derived`).
        renumber: number the inputs' blocks for an extractive answer (``False``: keep the retrieval ranks, for the
            LLM's block numbers).

    Returns:
        The derived figure worked out from the chunks' tables, or ``None`` when the question asks for none or no
        table holds any of its inputs (then the figure lookup and the extractive answer run as before: a passage may
        state the figure). With some inputs found and others not, the answer names the missing ones.
    """
    fye = next((str(c.metadata["fiscal_year_end"]) for c in chunks if c.metadata.get("fiscal_year_end")), None)
    plan = plan_of(question, fye)
    if plan is None or rows_of is None:
        return None
    if choose is not None:
        plan = choose(plan, fye)
    if not plan.periods:
        latest = document_period(chunks)
        if latest is None:
            return None
        plan = replace(plan, periods=(latest,))
    entity = next((str(c.metadata["entity"]) for c in chunks if c.metadata.get("entity")), None)
    try:
        found, missing = find_inputs(needed(plan), chunks, rows_of, search, entity)
    except ValueError:  # a period that does not shift (a quarter asked for a year-over-year formula)
        return None
    if not found:  # no table holds any input (a circular, prose): the passages may state the figure itself
        logger.info("derived figure %s: no input in a table; answering from the passages", plan.metric)
        return None
    return derive(plan, found, missing, chunks, renumber=renumber)


def _rounding(figure: Figure) -> float:
    """Half a unit of the figure's last written digit, in the units of its ``value``: a computed figure is rounded,
    so "-280 bps" states -280.36 bps and "$1,832 million" states 1,831.6 (the number check's whole numbers are
    exact; a computed one is not)."""
    number = re.search(r"\d[\d,]*(?:\.(\d+))?", figure.text)
    decimals = len(number.group(1) or "") if number else 0
    scale = figure.value / figure.mantissa if figure.mantissa else 1.0
    return 0.5 * 10 ** (-decimals) * scale


def accept_derived(derived: Derived | None, unsupported: Sequence[str], tolerance: float = 0.0, *,
                   result_only: bool = False) -> list[str]:
    """The unsupported figures minus those the derived figure's work states and recomputing confirms.

    A percent (or bps) figure is accepted when it equals the result or one period's value (recomputed from the
    inputs read from the cited cells, :attr:`Derived.raw` / :attr:`Derived.per_period`) within the rounding it is
    written with (half a unit of its last decimal) plus ``tolerance`` percent points; an amount the same in its
    own scale. A figure equal to one of the inputs (a cell of :attr:`~prism.types.Calculation.inputs`, in its table's
    unit, its size) is accepted too: an answer may state them citing another block, and so is a percent figure equal
    to a percentage change stated beside an amount change (:attr:`Derived.percents`). ``result_only`` accepts the
    result alone (no period's value, no input, no percentage beside it). Everything else stays unsupported, so a
    wrong result is still reported.
    """
    if derived is None or derived.raw is None:
        return list(unsupported)
    scale = {"percent": 100, "bps": 100, "ratio": 100, "amount": 1}[derived.kind]
    targets = [float(v) * scale for v in (derived.raw, *(() if result_only else derived.per_period))]
    if derived.kind == "amount":
        targets = [t * float(unit_scale(common_unit([i.unit for i in derived.calculation.inputs]))) for t in targets]
    if not result_only:
        targets += [float(n * unit_scale(i.unit)) for i in derived.calculation.inputs
                    if (n := cell_number(i.value.rstrip("%").strip())) is not None]
    percents = [] if result_only else [float(p) * 100 for p in derived.percents]
    kept = []
    for text in unsupported:
        figures = extract_figures(text)
        ok = bool(figures) and all(any(abs(f.value - abs(t)) <= _rounding(f) + tolerance + 1e-9 * abs(t)
                                       for t in (targets + percents if f.kind == "percent" else targets))
                                   for f in figures)
        if not ok:
            kept.append(text)
    return kept


def derived_text(derived: Derived) -> str:
    """The answer text: the heading, then one ``- line [n]`` per line (block numbers, renumbered by the engine)."""
    body = "\n".join(f"- {text} [{n}]" for text, n in derived.lines)
    return f"{derived.heading}\n\n{body}" if body else derived.heading


def sub_search(retriever: Retriever, understood: Understanding | None = None) -> Search:
    """The focused sub-retrieval through the engine's retriever: ``search(query, sources)`` → chunks of those
    documents (no auto-scope: the sources are the scope), ``settings.fusion_top_k`` of them (the candidates a
    reranker would see). A search for the question itself reuses ``understood`` (its vector)."""
    top_k = retriever.settings.fusion_top_k

    def search(query: str, sources: Sequence[str]) -> Sequence[RetrievedChunk]:
        return list(retriever.search(query, sources=list(sources), auto_scope=False, top_k=top_k,
                                     understanding=understood).results)

    return search


def derived_gate(question: str | Understanding, verdict: Answerability, chunks: Sequence[RetrievedChunk] = (),
                 rows_of: RowsOf | None = None) -> Answerability:
    """The answerability verdict, passed for a question that asks for a derived figure: its metric's words
    ("unadjusted EBITDA", "turnover") are never printed in a statement, so the gate would decline on them; the
    derived step then computes the figure from cited cells or names the inputs it cannot find. Passed too when the
    retrieved tables (``chunks``, their rows through ``rows_of``) give the question's computation over named rows
    ("the ratio of total assets to total liabilities", "In which year was X highest?", "the change in X from 2018 to
    2019"): its words ("ratio", "highest") are the question's, not the table's; for "What does the table show?"
    when a sentence of the document introduces a table (:mod:`~prism.answering.derived.captions`); for the items a
    table lists under an item the question names (:mod:`~prism.answering.derived.listing`); and when a table
    row the question names has a cell for every period it asks (:func:`_cells_answer`: "What was the amount for
    Land in 2019?" is read from the row "Land", whatever the question's other words)."""
    if verdict.answerable:
        return verdict
    if plan_of(question) is not None:
        return replace(verdict, answerable=True)
    if rows_of is not None and chunks and any(step(question, chunks, rows_of) is not None
                                              for step in (which_answer, pair_answer, operation_answer)):
        return replace(verdict, answerable=True)
    if caption_lines(question, chunks, rows_of)[0] or listing_lines(question, chunks, rows_of)[0] or _cells_answer(
            question, chunks, rows_of):
        return replace(verdict, answerable=True)
    return verdict


def _cells_answer(question: str | Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None) -> bool:
    """True when the retrieved tables answer a lookup: :func:`~prism.answering.derived.cells.quote_cells` reads a
    row whose label the question names in full, with a cell for each period the question names (one, the latest,
    when it names none)."""
    if rows_of is None or not chunks:
        return False
    understood = Understanding.of(question)
    quotes = quote_cells(understood, chunks, rows_of)
    return bool(quotes) and len({q.column for q in quotes}) >= len(understood.periods)
