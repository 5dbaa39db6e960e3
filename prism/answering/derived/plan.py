"""The LLM's arithmetic plan over table rows, executed in code.

With an LLM, the row operation of a question (:mod:`prism.answering.derived.operations`) may be planned by the small
LLM instead of read from the wording: it is shown the question and the labels and columns of the retrieved tables
(fenced as document text, :func:`prism.answering.citations.data_messages`) and replies with one JSON object
(:data:`OPERATION_PROMPT`)::

    {"operation": "percent_change", "row": "Share based compensation", "periods": ["2017", "2018"]}
    {"operation": "share", "row": "Share based compensation", "of_row": "Freight revenue", "periods": ["2019"]}

The code executes the plan over the table cells (:func:`execute_plan`); the LLM does no arithmetic:

* ``change``, ``percent_change``, ``average``, ``sum`` over one row: the operations' own machinery
  (:func:`~prism.answering.derived.operations.operation_answer`) runs on the row name and periods, with the plan's
  operation standing for the one read from the wording; the row chosen must be the row named (the same words,
  :func:`names_row`), else the plan names no row;
* ``ratio`` (A / B, 2 decimals) and ``share`` (A / B × 100, a percent with 2 decimals) of two rows in one period (the
  latest the plan names): each row's cell is read as the table-cell answer reads one (:func:`~.cells.quote_cells`),
  both brought to one scale (:func:`~prism.answering.derived.calc.unit_scale`), divided in
  :class:`~decimal.Decimal`, half up.

A call that fails, a reply that does not parse or a plan whose row no table has falls back to the operation read from
the question, with a note (as :func:`prism.answering.derived.llm.llm_derived` does for a formula). The LLM is asked only
when the question reads as a row operation (:func:`~prism.answering.derived.operations.read_operation`) or as a share
or ratio of two rows (:data:`TWO_ROWS`); the one decision of which figure to compute stays
:func:`prism.answering.derived.computed.computed_figure`, which calls :func:`llm_operation`'s step in place of
:func:`~prism.answering.derived.operations.operation_answer`.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from prism.answering.citations import data_messages, fence
from prism.answering.derived.answer import DERIVED_LABEL
from prism.answering.derived.calc import unit_scale
from prism.answering.derived.cells import CellQuote, RowsOf, format_quote, quote_cells, table_parts
from prism.answering.derived.computed import OperationStep
from prism.answering.derived.inputs import cell_number, normalise_label
from prism.answering.derived.operations import Operation, operation_answer, read_operation
from prism.answering.stream import AnswerRun
from prism.errors import LLMError
from prism.index.tokenizer import tokenize
from prism.retrieval.understanding import Understanding
from prism.types import Calculation, CalculationInput, Derived, RetrievedChunk

logger = logging.getLogger(__name__)

__all__ = ["OPERATION_PROMPT", "OPERATION_TASK", "TWO_ROWS", "RowPlan", "execute_plan", "llm_operation",
           "names_row", "plan_from_json"]

OPERATION_TASK = "You choose the arithmetic for a question over financial tables; you do no arithmetic."
OPERATION_PROMPT = """Rows and columns of the retrieved tables:
{rows}

Question: {question}

Reply with one JSON object and nothing else:
{{"operation": "change|percent_change|average|sum|ratio|share", "row": "<a row label exactly as listed>",
"of_row": "<ratio and share only: the row divided by>", "periods": ["<a column's year, e.g. 2018>", ...]}}
change = latest - earliest; percent_change = (latest - earliest) / earliest x 100; average, sum: of the periods'
values; ratio = row / of_row; share = row / of_row x 100 (one period)."""
"""The plan call's user prompt (``rows``: the fenced labels and columns; ``question``)."""
SOURCE = "the LLM's plan (arithmetic in code)"
""":attr:`~prism.types.Calculation.source` of a figure computed from the LLM's plan."""
TWO_ROWS = re.compile(r"\bas\s+an?\s+(?:%|percent(?:age)?)\s+of\b|\b(?:ratio|share|proportion)\s+of\b", re.IGNORECASE)
"""A question for one row over another ("A as a percentage of B", "the ratio of A to B"), which the wording reader
does not plan: the LLM is asked for it."""
_OPERATIONS = ("change", "percent_change", "average", "sum", "ratio", "share")
_PERIOD = re.compile(r"(?:FY\s?)?((?:19|20)\d{2})")
_MAX_LABELS = 60


@dataclass(frozen=True)
class RowPlan:
    """An arithmetic plan over table rows, as the LLM wrote it.

    Attributes:
        operation: one of ``change``, ``percent_change``, ``average``, ``sum``, ``ratio``, ``share``.
        row: the row's label; of_row: the divisor's label (``ratio`` and ``share``), else ``""``.
        periods: the years, oldest first (``("2018", "2019")``).
    """

    operation: str
    row: str
    periods: tuple[str, ...]
    of_row: str = ""


def plan_from_json(reply: str) -> RowPlan | None:
    """The plan in the LLM's reply (its first ``{…}``), or ``None``: not JSON, an unknown operation, no row, no
    year, a ratio or share without ``of_row``, or one year for an operation over periods other than an average (the
    average balance of that year and the one before)."""
    m = re.search(r"\{.*\}", reply, re.DOTALL)
    try:
        data = json.loads(m.group(0)) if m else None
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict) or data.get("operation") not in _OPERATIONS:
        return None
    row, of_row, periods = data.get("row"), data.get("of_row") or "", data.get("periods")
    if not isinstance(row, str) or not row.strip() or not isinstance(of_row, str) or not isinstance(periods, list):
        return None
    years = sorted({p.group(1) for p in (_PERIOD.fullmatch(str(x).strip()) for x in periods) if p})
    operation = data["operation"]
    two = operation in ("ratio", "share")
    if not years or (two and not of_row.strip()) or (not two and len(years) < 2 and operation != "average"):
        return None
    return RowPlan(operation, row.strip()[:120], tuple(years), of_row.strip()[:120] if two else "")


def names_row(name: str, label: str) -> bool:
    """True when ``label`` (a table row's) is the row ``name`` names: equal once normalised
    (:func:`~prism.answering.derived.inputs.normalise_label`), or the same words
    (:func:`prism.index.tokenizer.tokenize`)."""
    return normalise_label(name) == normalise_label(label) or set(tokenize(name)) == set(tokenize(label))


def _rows(chunks: Sequence[RetrievedChunk], rows_of: RowsOf) -> str:
    """The labels (with cells) and column headers of the retrieved chunks' tables, one table a line, at most
    :data:`_MAX_LABELS` labels."""
    cache: dict[str, Any] = {}
    seen: set[str] = set()
    lines: list[str] = []
    for chunk in chunks:
        for table, _ in table_parts(chunk, rows_of, cache):
            labels = [r.label.strip() for r in table.rows if r.cells and r.label.strip()]
            new = [x for x in dict.fromkeys(labels) if x not in seen][: _MAX_LABELS - len(seen)]
            if new:
                seen.update(new)
                lines.append(f"columns: {' | '.join(table.column_headers)}; rows: {' | '.join(new)}")
    return "\n".join(lines)


def execute_plan(plan: RowPlan, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None) -> Derived | None:
    """The plan computed from the table cells of ``chunks``, or ``None`` when a row it names is in no table (or
    lacks a number for a period).

    Returns:
        A :class:`~prism.types.Derived` as :func:`~prism.answering.derived.operations.operation_answer` writes one
        (heading, one line per cell with its block, the work; inline markers numbered by first use), its
        calculation's ``source`` :data:`SOURCE`.
    """
    if rows_of is None or not chunks:
        return None
    if plan.operation in ("ratio", "share"):
        return _two_rows(plan, chunks, rows_of)
    understood = Understanding(f"{plan.row} {' '.join(plan.periods)}")
    op = Operation(plan.operation, len(plan.periods), year_before=len(plan.periods) == 1)  # type: ignore[arg-type]
    understood.memo("operation", lambda: op)  # the plan's operation stands for the wording's (read_operation)
    derived = operation_answer(understood, chunks, rows_of)
    if derived is None or not names_row(plan.row, derived.calculation.inputs[0].label):
        return None
    return replace(derived, calculation=replace(derived.calculation, source=SOURCE))


def _cell(name: str, period: str, chunks: Sequence[RetrievedChunk], rows_of: RowsOf
          ) -> tuple[CellQuote, Decimal] | None:
    """The named row's cell of ``period`` and its value in units (its table's scale applied), or ``None``."""
    quotes = quote_cells(Understanding(f"{name} {period}"), chunks, rows_of)
    if len(quotes) != 1 or not names_row(name, quotes[0].label):
        return None
    number = cell_number(quotes[0].value.rstrip("%").strip())
    return None if number is None else (quotes[0], number * unit_scale(quotes[0].unit))


def _two_rows(plan: RowPlan, chunks: Sequence[RetrievedChunk], rows_of: RowsOf) -> Derived | None:
    """``ratio`` = A / B (2 decimals) or ``share`` = A / B × 100 (percent, 2 decimals) in the plan's latest period."""
    period = plan.periods[-1]
    a, b = _cell(plan.row, period, chunks, rows_of), _cell(plan.of_row, period, chunks, rows_of)
    if a is None or b is None or b[1] == 0:
        return None
    raw = a[1] / b[1]
    shown = (raw * 100 if plan.operation == "share" else raw).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    result = f"{shown} %" if plan.operation == "share" else str(shown)
    quotes = [a[0], b[0]]
    extra: list[RetrievedChunk] = []
    blocks = [_block(q, chunks, extra) for q in quotes]
    order = list(dict.fromkeys(blocks))
    name_a, name_b = a[0].label.strip(), b[0].label.strip()
    metric = f"{name_a} as a % of {name_b}" if plan.operation == "share" else f"ratio of {name_a} to {name_b}"
    formula = "row / divisor × 100" if plan.operation == "share" else "row / divisor"
    times = " × 100" if plan.operation == "share" else ""
    marks = " ".join(f"[{i}]" for i in range(1, len(order)))
    work = f"{metric}, {period} = {a[0].value.strip()} / {b[0].value.strip()}{times} = {result} {marks}".rstrip()
    lines = [*((format_quote(q), n) for q, n in zip(quotes, blocks, strict=True)), (work, order[-1])]
    inputs = tuple(CalculationInput(q.label.strip(), q.label, q.period or q.column, q.value, q.unit, q.currency,
                                    order.index(n) + 1) for q, n in zip(quotes, blocks, strict=True))
    calc = Calculation(metric, formula, SOURCE, (period,), inputs, result, float(shown))
    logger.info("planned two-row operation: %s", plan.operation)
    kind = "percent" if plan.operation == "share" else "ratio"
    return Derived(f"{DERIVED_LABEL}: {metric}, {period} = {result}", lines, extra, calc, (), raw, kind)


def _block(quote: CellQuote, chunks: Sequence[RetrievedChunk], extra: list[RetrievedChunk]) -> int:
    """The block number of the chunk holding ``quote`` (a chunk of its table not retrieved is appended to
    ``extra``)."""
    if quote.chunk is None:
        return quote.n
    ids = [c.chunk_id for c in (*chunks, *extra)]
    if quote.chunk.chunk_id not in ids:
        extra.append(quote.chunk)
        ids.append(quote.chunk.chunk_id)
    return ids.index(quote.chunk.chunk_id) + 1


def _note_once(run: AnswerRun, text: str) -> None:
    """A ``degraded`` note, once per answer (one plan is asked per company of a question naming several)."""
    if all(n.text != text for n in run.notes):
        run.note("degraded", text)


def llm_operation(run: AnswerRun, llm: Any) -> OperationStep:
    """The row-operation step of :func:`prism.answering.derived.computed.computed_figure` with an LLM: for a question
    that reads as a row operation or as one row over another (:data:`TWO_ROWS`), the LLM's plan
    (:data:`OPERATION_PROMPT`) executed in code (:func:`execute_plan`); a failed call, an unreadable plan or one
    naming no row of the tables falls back to the operation read from the question, with a ``degraded`` note. Other
    questions make no call. ``llm`` is the wrapped small LLM (:mod:`prism.answering.llm`: ``chat`` returns text)."""

    def step(question: Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None) -> Derived | None:
        if rows_of is None or not chunks or (read_operation(question) is None and not TWO_ROWS.search(question.text)):
            return operation_answer(question, chunks, rows_of)
        prompt = OPERATION_PROMPT.format(rows=fence(_rows(chunks, rows_of), "document"), question=question.text)
        try:
            reply = llm.chat(data_messages(OPERATION_TASK, prompt))
        except LLMError as exc:
            _note_once(run, f"The arithmetic-plan call failed ({exc}); the operation was read from the question.")
            return operation_answer(question, chunks, rows_of)
        plan = plan_from_json(reply)
        derived = execute_plan(plan, chunks, rows_of) if plan is not None else None
        if derived is None:
            why = "could not be read" if plan is None else "names no row of the retrieved tables"
            _note_once(run, f"The LLM's arithmetic plan {why}; the operation was read from the question.")
            return operation_answer(question, chunks, rows_of)
        return derived

    return step
