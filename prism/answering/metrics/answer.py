"""Statement metrics in an answer: a standard metric or a definition the question gives, its inputs read from cited
cells across the document's statements, computed in code, the work shown.

:func:`metric_answer` is the engine's step for a question the reader reads a metric in
(:meth:`prism.types.reading.Reading.plan_for`: "EBITDA margin", "inventory turnover", "Define X as A / B"): it reads
every input from a table cell of the scoped document (:func:`prism.answering.metrics.inputs.find_inputs`, with a
sub-retrieval for an input the retrieved chunks lack: a metric's inputs sit in several statements), brings them to
one unit (the smallest they state), computes in code (:mod:`prism.answering.metrics.calc`, :class:`~decimal.
Decimal`), and writes the answer as lines an analyst can check::

    EBITDA margin FY2015: 5.4 %

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
from collections.abc import Callable, Sequence
from dataclasses import replace
from decimal import Decimal

from prism.answering.metrics.calc import (
    Plan,
    aggregate,
    common_unit,
    needed,
    present,
    render,
    substitute,
    unit_scale,
)
from prism.answering.metrics.inputs import FoundInput, Search, find_inputs
from prism.answering.programs.tables import RowsOf
from prism.answering.programs.writing import cell_quote
from prism.answering.seams import Retriever
from prism.index.statements import ITEMS
from prism.types import Calculation, CalculationInput, Derived, Heading, RetrievedChunk
from prism.types.reading import Reading
from prism.vocabulary.currencies import SYMBOL
from prism.vocabulary.units import SPOKEN

logger = logging.getLogger(__name__)

__all__ = ["derive", "document_period", "metric_answer", "sub_search"]

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
    return f"cannot be computed: no {what} found in a table{where}. No figure is given."


def derive(plan: Plan, found: Sequence[FoundInput], missing: Sequence[tuple[str, str]],
           chunks: Sequence[RetrievedChunk], *, renumber: bool = True) -> Derived:
    """Compute ``plan`` from the inputs found (or say which are missing) and write the work.

    Args:
        plan: the metric (:func:`prism.answering.reading.formulas.plan_of`).
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
    lines = [(cell_quote(f.label, f.period, f.cell, f.unit, f.currency, f.title), block[(f.item, f.period)])
             for f in found]
    formula = render(plan.expr, _NAMES)
    document = chunks[0].source if chunks else None
    if missing or not found:
        heading = Heading(plan.metric, _missing_text(plan, missing or needed(plan),
                                                      found[0].chunk.source if found else document))
        calc = Calculation(plan.metric, formula, plan.source, plan.periods, inputs, None, None,
                           tuple(f"{p} {ITEMS[i].name}" for i, p in (missing or needed(plan))))
        return Derived(heading, lines, extra, calc, kind=plan.kind)
    values = {(f.item, f.period): f.number * unit_scale(f.unit) / unit_scale(unit) for f in found}
    shown = {(f.item, f.period): _plain(values[(f.item, f.period)]) for f in found}
    try:
        raw, per = aggregate(plan, values)
    except (ZeroDivisionError, ValueError) as exc:
        heading = Heading(plan.metric, f"cannot be computed: {exc}. No figure is given.")
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
    heading = Heading(f"{plan.metric} {_span(plan)}", result)
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


def metric_answer(reading: Reading, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None,
                  search: Search | None, *, choose: Callable[[Plan, str | None], Plan] | None = None,
                  renumber: bool = True) -> Derived | None:
    """The statement-metric pipeline, offline and with an LLM: plan → period → inputs → derive.

    Args:
        reading: the question as read (its metric plan for the chunks' fiscal year end).
        chunks: the retrieved chunks, best first.
        rows_of: the workspace's ``read_chunks(doc_id)`` (``None``: no tables, no figure).
        search: the focused sub-retrieval for inputs no retrieved table holds (:func:`sub_search`), or ``None``.
        choose: the optional step that may replace the plan, given it and the documents' fiscal year end (the LLM's
            formula, :func:`prism.answering.metrics.llm.llm_plan`).
        renumber: number the inputs' blocks for an extractive answer (``False``: keep the retrieval ranks, for the
            LLM's block numbers).

    Returns:
        The metric worked out from the chunks' tables, or ``None`` when the question names no metric or no table
        holds any of its inputs (a passage may state the figure). With some inputs found and others not, the
        answer names the missing ones.
    """
    fye = next((str(c.metadata["fiscal_year_end"]) for c in chunks if c.metadata.get("fiscal_year_end")), None)
    plan = reading.plan_for(fye)
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
        logger.info("metric %s: no input in a table; answering from the passages", plan.metric)
        return None
    return derive(plan, found, missing, chunks, renumber=renumber)


def sub_search(retriever: Retriever, reading: Reading | None = None) -> Search:
    """The focused sub-retrieval through the engine's retriever: ``search(query, sources)`` → chunks of those
    documents (no auto-scope: the sources are the scope), ``settings.fusion_top_k`` of them (the candidates a
    reranker would see). A search for the question itself reuses ``reading`` (its vector)."""
    top_k = retriever.settings.fusion_top_k

    def search(query: str, sources: Sequence[str]) -> Sequence[RetrievedChunk]:
        return list(retriever.search(query, sources=list(sources), auto_scope=False, top_k=top_k,
                                     reading=reading).results)

    return search
