"""Arithmetic over any table row a question names: the change, the percentage change or the average of one row
across the periods asked ("What was the percentage change in Adjusted EBITDA between 2018 and 2019?").

The statement metrics of :mod:`~prism.answering.derived.formulas` know a fixed list of line items; this step knows
none. :func:`read_operation` reads the operation from the question's wording; the row and its columns are those the
table-cell reader picks for the question (:func:`prism.answering.derived.cells.quote_cells`: the row whose label
shares most words with the question, one column per period asked). The arithmetic is exact
(:class:`~decimal.Decimal`):

* **change** = value of the latest period − value of the earliest ("the change from 2018 to 2019" is 2019 − 2018; a
  fall is negative); of two quarters or halves too ("from Q1 FY25 to Q2 FY25"); a change of a percentage is in
  percentage points, or in basis points when the question asks for them (× 100: 1 bp = 0.01 percentage point);
  an amount's change states its percentage change beside it when both values are positive ("-$144,158 thousand
  (-54.03 %)"); "How did X change / compare …" asks for it (:mod:`prism.vocabulary.changes`);
* **percentage change** = (latest − earliest) / earliest × 100, shown to 2 decimals;
* **average** = the mean of the periods' values, shown to two decimals more than the inputs, trailing zeros
  dropped (the mean of two whole numbers is exact to one decimal, of three it is shown to two); an average asked
  of one year ("the 2019 average trade receivables") is the average balance, the mean of that year's and the
  year before's values (closing and opening);
* **sum** = the periods' values added ("the combined X in 2018 and 2019"; "the total X …" only when the row is not
  itself labelled "Total …", whose figures are then quoted instead).

These are the three operations behind 81 % of TAT-QA dev's arithmetic questions (Zhu et al., "TAT-QA: A Question
Answering Benchmark on a Hybrid of Tabular and Textual Content in Finance", ACL 2021; counted on its dev set's 718
arithmetic questions: change 259, percentage change 163, average 163).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal

from prism.answering.derived.cells import CellQuote, RowsOf, cited_blocks, format_quote, quote_cells
from prism.answering.derived.numbers import cell_number
from prism.answering.units import PERCENT_LABEL, label_states_unit
from prism.retrieval.understanding import Understanding
from prism.types import Calculation, CalculationInput, Derived, RetrievedChunk
from prism.vocabulary import changes
from prism.vocabulary.currencies import SYMBOL
from prism.vocabulary.units import SPOKEN

logger = logging.getLogger(__name__)

__all__ = ["Operation", "operation_answer", "read_operation", "written_amount"]

OperationKind = Literal["change", "percent_change", "average", "sum"]

_PERCENT_CHANGE = re.compile(changes.PERCENT_CHANGE_RE)
_CHANGE = re.compile(changes.CHANGE_RE)
_HOW_CHANGED = re.compile(changes.HOW_CHANGED_RE)
_COMPARED = re.compile(changes.COMPARED_RE)
_FROM_TO = re.compile(changes.FROM_TO_RE)
_NOT_A_CHANGE = re.compile(changes.NOT_A_CHANGE_RE)
_AVERAGE = re.compile(r"\baverage\b|\bmean\b")
_SUM = re.compile(r"\b(?:sum|combined|altogether|in\s+total|total\s+of|aggregate|add(?:ed|ing)?\s+up)\b")
_TOTAL = re.compile(r"\btotal\b")
_BPS = re.compile(r"\bbasis\s+points?\b|\bbps\b|\bbp\b", re.IGNORECASE)
_WEIGHTED = re.compile(r"\bweighted[\s-]+average\b|\baverage\s+(?:daily|monthly|balance|price|rate|cost|age|"
                       r"life|term|number|remaining|exercise|grant)\b")
"""An average a table prints as its own row ("weighted average exercise price", "average remaining life")."""
_NOT_ARITHMETIC = re.compile(r"^\s*(?:why|how\s+(?:did|does|do|is|are|was|were)\b(?!\s+much)|what\s+(?:caused|drove|"
                             r"explains|led|were\s+the\s+reasons))", re.IGNORECASE)
"""Questions that ask for reasons, not a figure ("Why did revenue change between 2018 and 2019?")."""

_NAMES = {"change": "change", "percent_change": "percentage change", "average": "average", "sum": "total"}
_FORMULAS = {"change": "latest − earliest", "percent_change": "(latest − earliest) / earliest × 100",
             "average": "sum of the periods' values / number of periods", "sum": "sum of the periods' values"}


@dataclass(frozen=True)
class Operation:
    """An arithmetic operation over one row, read from a question.

    Attributes:
        kind: ``change``, ``percent_change``, ``average`` or ``sum``.
        periods: how many periods the question names (at least two, or one for ``year_before``).
        year_before: an average asked of one year ("the 2019 average trade receivables"): the average balance of
            that year's closing and opening values, i.e. the year and the year before.
        if_no_total_row: a ``sum`` read only from the word "total" ("What was the total revenue in 2018 and
            2019?"): a row labelled "Total …" means the question asks for that row's figures, not their sum.
        every_period: an average that names no period ("What is the average of Revenues from sale of services?"):
            the mean over every period column of the row.
    """

    kind: OperationKind
    periods: int
    year_before: bool = False
    if_no_total_row: bool = False
    every_period: bool = False


def read_operation(question: str | Understanding) -> Operation | None:
    """The operation a question asks for over one row, or ``None`` (it names fewer than two periods, asks why, or
    asks for no change, percentage change or average; an average naming no period is over every period of the row,
    unless it is an average a table prints, :data:`_WEIGHTED`). Read once per question
    (:meth:`~prism.retrieval.understanding.Understanding.memo`)."""
    understood = Understanding.of(question)
    return understood.memo("operation", lambda: _read(understood))


def _read(understood: Understanding) -> Operation | None:
    """See :func:`read_operation`. "How did X change / move / compare …" (:data:`~prism.vocabulary.changes.
    HOW_CHANGED_RE`) asks how much X moved: a change (or a percentage change when the question asks for percent), not
    a reason; so does a question setting one period against another ("compared with", "versus") or naming a span
    ("X from 2014 to 2015") without asking for each period's figure."""
    text = understood.text.lower()
    years = {p.year for p in understood.periods if p.kind in ("FY", "year", "date")}
    parts = {(p.kind, p.year, p.part) for p in understood.periods if p.kind in ("Q", "H")}
    if len(parts) >= 2 and len(parts) == len(understood.periods):  # "from Q1 FY25 to Q2 FY25": quarters or halves
        years = {(year, part) for _, year, part in parts}  # type: ignore[misc]
    how_changed = _HOW_CHANGED.search(text) is not None
    if not how_changed and _NOT_ARITHMETIC.search(text):
        return None
    if not how_changed and len(years) == 1 and _AVERAGE.search(text) and all(
            p.kind in ("FY", "year") for p in understood.periods):
        return Operation("average", 1, year_before=True)
    if not how_changed and not understood.periods and _AVERAGE.search(text) and not _WEIGHTED.search(text):
        return Operation("average", 0, every_period=True)
    if len(years) < 2:
        return None
    if _PERCENT_CHANGE.search(text) and (how_changed or _CHANGE.search(text) or not _NOT_A_CHANGE.search(text)):
        return Operation("percent_change", len(years))  # not "the percentage … in 2017, 2018 and 2019, respectively"
    if how_changed:  # the verb is the operation: "How did the average price change …" is a change
        return Operation("change", len(years))
    if _AVERAGE.search(text):
        return Operation("average", len(years))
    if _CHANGE.search(text):
        return Operation("change", len(years))
    if _SUM.search(text):
        return Operation("sum", len(years))
    if _TOTAL.search(text):
        return Operation("sum", len(years), if_no_total_row=True)
    if (_COMPARED.search(text) or _FROM_TO.search(text)) and not _NOT_A_CHANGE.search(text):
        return Operation("change", len(years))
    return None


def _year(quote: CellQuote) -> tuple[int, int]:
    """When a quote's column falls, for ordering: ``(year, quarter or half)`` ("Q1 FY2025" → (2025, 1))."""
    text = quote.period or quote.column
    found = re.findall(r"(?:19|20)\d{2}", text)
    part = re.search(r"\b[QH]([1-4])\b", text)
    return (int(found[-1]) if found else 0, int(part.group(1)) if part else 0)


def _decimals(cells: Sequence[str]) -> int:
    return max((len(m.group(1)) for c in cells if (m := re.search(r"\.(\d+)", c))), default=0)


def _percent_row(quote: CellQuote) -> bool:
    """Whether a row's values are percentages: its cell ends with ``%`` or its label or column says so ("Net
    interest margin (NIM) %")."""
    return quote.value.strip().endswith("%") or bool(PERCENT_LABEL.search(quote.label)) or bool(
        PERCENT_LABEL.search(quote.column))


def written_amount(value: Decimal, quote: CellQuote, change: bool = True) -> str:
    """A computed amount written as its row's cells are quoted: grouped, with the table's currency and unit
    (``-$144,158 thousand``, ``₹141,280 crore``); a count (a row stating its own unit, "Branches (number)") bare
    (``1,384``); a ``change`` of a percentage in percentage points and basis points, as banks state them
    (``-0.06 percentage points (-6 bps)``; 1 bp = 0.01 percentage point), an average or sum of one a percentage."""
    sign = "-" if value < 0 else ""
    number = f"{abs(value):,}"
    if _percent_row(quote) and not change:
        return f"{sign}{number} %"
    if _percent_row(quote):
        bps = (abs(value) * 100).normalize()
        return f"{sign}{number} percentage points ({sign}{bps:f} bps)"
    if label_states_unit(quote.label):  # "Branches (number)": a count, not the table's ₹ crore
        return f"{sign}{number}"
    unit = f" {SPOKEN[quote.unit]}" if quote.unit in SPOKEN else ""
    return f"{sign}{SYMBOL.get(quote.currency or '', '')}{number}{unit}"


def _change_percent(op: Operation, values: Sequence[Decimal], quote: CellQuote, bps: bool) -> Decimal | None:
    """The percentage change stated beside an amount change, as a ratio ((latest − earliest) / earliest), where it
    means something: ``None`` for another operation, a change of a percentage (in points or bps) and an earliest
    value that is not positive or a latest that is negative (a change from a loss, or across zero)."""
    earliest, latest = values[0], values[-1]
    if op.kind != "change" or bps or _percent_row(quote) or earliest <= 0 or latest < 0:
        return None
    return (latest - earliest) / earliest


def _compute(op: Operation, values: list[Decimal], cells: list[str]) -> tuple[Decimal, Decimal]:
    """``(raw, shown)``: the unrounded result (a ratio for a percentage change) and the result as shown.

    Raises:
        ZeroDivisionError: a percentage change from zero.
    """
    earliest, latest = values[0], values[-1]
    if op.kind == "change":
        raw = latest - earliest
        return raw, raw.quantize(Decimal(1).scaleb(-_decimals(cells)), rounding=ROUND_HALF_UP)
    if op.kind == "percent_change":
        if earliest == 0:
            raise ZeroDivisionError("the earliest value is zero")
        raw = (latest - earliest) / abs(earliest)
        return raw, (raw * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if op.kind == "sum":
        raw = sum(values, Decimal(0))
        return raw, raw.quantize(Decimal(1).scaleb(-_decimals(cells)), rounding=ROUND_HALF_UP)
    raw = sum(values, Decimal(0)) / len(values)
    return raw, _mean_shown(raw, _decimals(cells))


def _mean_shown(raw: Decimal, decimals: int) -> Decimal:
    """A mean as shown: rounded half-up to two decimals more than its inputs, trailing zeros beyond the inputs'
    decimals dropped (the mean of 1,671 and 1,612 is 1,641.5; of 550, 33 and 28 it is 203.67)."""
    shown = raw.quantize(Decimal(1).scaleb(-(decimals + 2)), rounding=ROUND_HALF_UP)
    while shown.as_tuple().exponent < -decimals and shown == shown.quantize(  # type: ignore[operator]
            Decimal(1).scaleb(shown.as_tuple().exponent + 1)):  # type: ignore[operator]
        shown = shown.quantize(Decimal(1).scaleb(shown.as_tuple().exponent + 1))  # type: ignore[operator]
    return shown


def operation_answer(question: str | Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None
                     ) -> Derived | None:
    """The change, percentage change or average the question asks of one table row, computed from cited cells.

    Args:
        question: the (standalone) question or its :class:`~prism.retrieval.understanding.Understanding`.
        chunks: the retrieved chunks, best first (block ``n`` = position + 1).
        rows_of: the workspace's ``read_chunks(doc_id)`` (table rows), or ``None``.

    Returns:
        A :class:`~prism.types.Derived` whose heading states the result, whose lines quote each cell (with its row,
        column, unit and block) and the work; ``None`` when the question asks for no such operation or the row
        chosen has no number for every period asked (then the table-cell and sentence answers run as before).
    """
    op = read_operation(question)
    if op is None or rows_of is None or not chunks:
        return None
    understood = Understanding.of(question)
    periods = list(understood.periods)
    if op.year_before:
        periods = [replace(periods[0], year=periods[0].year - 1, text=str(periods[0].year - 1)), *periods]
    quotes = sorted(quote_cells(understood, chunks, rows_of, periods=periods, every_column=op.every_period),
                    key=_year)
    if op.if_no_total_row and quotes and _TOTAL.search(quotes[0].label.lower()):
        return None
    if op.every_period and quotes and _AVERAGE.search(quotes[0].label.lower()):
        return None  # the row is itself an average: quoted, not averaged again
    values = [cell_number(q.value) for q in quotes]
    if len(quotes) < 2 or len({_year(q) for q in quotes}) != len(quotes) or any(v is None for v in values):
        return None
    numbers = [v for v in values if v is not None]
    try:
        raw, shown = _compute(op, numbers, [q.value for q in quotes])
    except ZeroDivisionError:
        return None
    if op.kind == "change" and _BPS.search(understood.text) and _percent_row(quotes[0]):
        return _derived(op, quotes, numbers, raw / 100, (raw * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP),
                        chunks, bps=True)  # in basis points (1 bp = 0.01 %); raw as a fraction, as a metric's
    return _derived(op, quotes, numbers, raw, shown, chunks)


def _derived(op: Operation, quotes: list[CellQuote], values: list[Decimal], raw: Decimal, shown: Decimal,
             chunks: Sequence[RetrievedChunk], bps: bool = False) -> Derived:
    """The answer's heading, cited lines and calculation (block numbers as :func:`~.cells.cell_lines` numbers
    them: a cell of another chunk of a retrieved table is appended as a block). The work ends with the result as
    the heading writes it ("122,641 − 266,799 = -$144,158 thousand"); an amount change states its percentage change
    beside it (:func:`_change_percent`: "= -$144,158 thousand (-54.03 %)")."""
    blocks, extra = cited_blocks(quotes, chunks)
    first, last = quotes[0], quotes[-1]
    label = first.label.strip()
    span = f"{first.column} to {last.column}"
    result = f"{shown} %" if op.kind == "percent_change" else f"{shown} bps" if bps else written_amount(
        shown, first, change=op.kind == "change")
    metric = f"{_NAMES[op.kind]} in {label}"
    lines = [(format_quote(q), n) for q, n in zip(quotes, blocks, strict=True)]
    cells = [q.value.strip() for q in quotes]
    percent = _change_percent(op, values, first, bps)
    pct = None if percent is None else (percent * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if op.kind == "change":
        work = f"({cells[-1]} − {cells[0]}) × 100 = {result}" if bps else f"{cells[-1]} − {cells[0]} = {result}"
        if pct is not None:
            work += f"; ({cells[-1]} − {cells[0]}) / {cells[0]} × 100 = {pct} %"
    elif op.kind == "percent_change":
        work = f"({cells[-1]} − {cells[0]}) / {cells[0]} × 100 = {result}"
    elif op.kind == "sum":
        work = f"{' + '.join(cells)} = {result}"
    else:
        work = f"({' + '.join(cells)}) / {len(cells)} = {result}"
    order = list(dict.fromkeys(blocks))
    marks = " ".join(f"[{i}]" for i in range(1, len(order)))
    lines.append((f"{metric}, {span} = {work} {marks}".rstrip(), order[-1]))
    inputs = tuple(CalculationInput(label, q.label, q.period or q.column, q.value, q.unit, q.currency,
                                    order.index(n) + 1) for q, n in zip(quotes, blocks, strict=True))
    periods = tuple(q.period or q.column for q in quotes)
    formula = _FORMULAS[op.kind] + ("" if pct is None else "; percentage change = (latest − earliest) / earliest × 100")
    calc = Calculation(metric, formula, "the question", periods, inputs, result, float(shown))
    points = op.kind != "percent_change" and not bps and _percent_row(first)  # points, bps or %: checked as percent
    kind = "percent" if op.kind == "percent_change" else "bps" if bps or points else "amount"
    heading = f"{DERIVED_LABEL}: {metric}, {span} = {result}" + (f" ({pct} %)" if pct is not None else "")
    logger.info("row operation: %s over %d cells", op.kind, len(quotes))
    return Derived(heading, lines, extra, calc, tuple(values), raw / 100 if points else raw, kind,
                   (percent,) if percent is not None else ())


DERIVED_LABEL = "Computed in code from the cited table cells (extractive, no LLM)"
