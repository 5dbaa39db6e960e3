"""Arithmetic over two items of one table: "the ratio of total assets to total liabilities in 2019", "employee
termination costs as a proportion of total costs in 2018", "the percentage of audit fees in total fees", "the
difference between the domestic and international discount rates".

:func:`read_pair` reads the operation and its two operands from the question's wording; :func:`pair_answer` finds
both in one table of the retrieved chunks — as two rows (the operands name their labels, matched as the table-cell
reader matches a row, :func:`prism.answering.derived.cells.match_row`) read in the column of the period asked (the
latest when none is), or as two columns (the operands name their headers: "domestic" / "international") of the row
the rest of the question names — and computes exactly (:class:`~decimal.Decimal`):

* **ratio** = A / B, shown to 2 decimals ("ratio of A to B", "proportion of A over B", "A as a proportion of B");
* **share** = A / B × 100, shown to 2 decimals with ``%`` ("A as a percentage of B", "percentage of A in B", "what
  percentage of B is A");
* **difference** = |A − B|, at the inputs' decimals (a difference between two items is a magnitude; the heading says
  which is larger through the order of the cells quoted);
* **sum** = A + B, at the inputs' decimals, in their currency and unit ("the combined outstanding of home loans and
  personal loans", "What were A and B combined?").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Literal

from prism.answering.derived.cells import (
    CellQuote,
    RowsOf,
    cited_blocks,
    format_quote,
    match_row,
    table_parts,
)
from prism.answering.derived.columns import column_periods, pick_columns
from prism.answering.derived.numbers import cell_number
from prism.answering.derived.operations import DERIVED_LABEL, written_amount
from prism.answering.units import printed_label
from prism.index.tokenizer import tokenize
from prism.retrieval.periods import period_label
from prism.retrieval.understanding import Understanding
from prism.types import Calculation, CalculationInput, ChunkTable, Derived, RetrievedChunk, TableRow

logger = logging.getLogger(__name__)

__all__ = ["Pair", "pair_answer", "read_pair"]

PairKind = Literal["ratio", "share", "difference", "sum"]

_LEAD = r"^\s*(?:(?:for|in)\s+[^,]+,\s*)?(?:what|how\s+much)\s+(?:is|was|were|are)?\s*(?:the\s+)?(?:value\s+of\s+)?"
_PATTERNS: tuple[tuple[re.Pattern[str], str | None], ...] = (
    (re.compile(r"\bratio\s+of\s+(?:the\s+)?(?P<a>.+?)\s+(?:to|over|against|versus|vs\.?)\s+(?:the\s+)?(?P<b>.+)$",
                re.I), "ratio"),
    (re.compile(_LEAD + r"(?P<a>.+?)\s+as\s+an?\s+(?P<k>percentage|proportion|share|ratio|%)\s+of\s+(?:the\s+)?"
                r"(?P<b>.+)$", re.I), None),
    (re.compile(r"^\s*what\s+(?P<k>percentage|proportion|share|portion|%)\s+of\s+(?:the\s+)?(?P<b>.+?)\s+"
                r"(?:is|was|were|are)\s+(?:made\s+up\s+of|generated\s+(?:from|by)|from|accounted\s+for\s+(?:by|using)|"
                r"attributable\s+to|due\s+to|related\s+to)\s+(?:the\s+)?(?P<a>.+)$", re.I), None),
    (re.compile(r"\b(?P<k>percentage|proportion|share|portion)\s+of\s+(?:constitution\s+of\s+)?(?:the\s+)?"
                r"(?P<a>.+?)\s+(?:in|out\s+of|among|over|within|relative\s+to|of)\s+(?:the\s+)?(?P<b>.+)$", re.I),
     None),
    (re.compile(r"\bdifference\s+between\s+(?:the\s+)?(?P<a>.+?)\s+and\s+(?:the\s+)?(?P<b>.+)$", re.I), "difference"),
    (re.compile(r"\b(?:combined|sum|total|aggregate)\b(?:\s+[\w()₹$-]+){0,3}?\s+of\s+(?:the\s+)?(?P<a>.+?)\s+and\s+"
                r"(?:the\s+)?(?P<b>.+?)(?:\s+(?:segments?|categories|items|rows|combined|together))?$", re.I), "sum"),
    (re.compile(_LEAD + r"(?P<a>.+?)\s+and\s+(?:the\s+)?(?P<b>.+?)\s+(?:combined|together|put\s+together|added)$",
                re.I), "sum"),
)
_PERIOD_TAIL = re.compile(
    r"\s+(?:in|for|at|as\s+(?:at|of)|of|during|on|by|from)\s+(?:[\w,]+\s+){0,4}"
    r"(?:(?:19|20)\d\d|fy\d\d|f\d\d)\b.*$"
    r"|\s+(?:(?:19|20)\d\d)\b.*$", re.I)
_PERIOD_WORDS = re.compile(r"\b(?:(?:19|20)\d\d|fy\d{2,4}|f\d\d|q[1-4])\b|['’]s\b", re.I)
_NO_ITEM = frozenset(tokenize("amount value figure number total"))


@dataclass(frozen=True)
class Pair:
    """Two operands and what to compute of them, read from a question.

    Attributes:
        kind: ``ratio`` (A / B), ``share`` (A / B × 100), ``difference`` (|A − B|) or ``sum`` (A + B).
        a: the first operand as the question words it ("total assets").
        b: the second operand ("total liabilities").
    """

    kind: PairKind
    a: str
    b: str


def _operand(text: str) -> str:
    """An operand without its period ("total assets in 2019" → "total assets") or possessive owner."""
    text = _PERIOD_TAIL.sub("", text.strip().rstrip("?").strip())
    return re.sub(r"^[A-Z][\w&.-]*['’]s\s+", "", text).strip(" ,")


def read_pair(question: str | Understanding) -> Pair | None:
    """The two-operand operation a question asks for, or ``None`` (it names no two items, or its "difference
    between" is between two periods: a change of one row, :mod:`prism.answering.derived.operations`)."""
    understood = Understanding.of(question)
    return understood.memo("pair", lambda: _read(understood.text))


def _read(text: str) -> Pair | None:
    text = text.strip().rstrip("?").strip()
    for pattern, kind in _PATTERNS:
        m = pattern.search(text)
        if m is None:
            continue
        a, b = _operand(m.group("a")), _operand(m.group("b"))
        if not (set(tokenize(_PERIOD_WORDS.sub(" ", a))) and set(tokenize(_PERIOD_WORDS.sub(" ", b)))):
            return None
        if kind is None:
            word = m.group("k").lower()
            kind = "ratio" if word in ("proportion", "ratio", "portion") else "share"
        return Pair(kind, a, b)  # type: ignore[arg-type]
    return None


def _total_row(rows: Sequence[TableRow]) -> TableRow | None:
    """The table's total: its last row labelled "Total …", else its last unlabelled row of figures."""
    labelled = [r for r in rows if r.cells and r.label.strip().lower().startswith("total")]
    if labelled:
        return labelled[-1]
    unlabelled = [r for r in rows if r.cells and not r.label.strip()]
    return unlabelled[-1] if unlabelled else None


def _row_for(operand: str, rows: Sequence[TableRow]) -> TableRow | None:
    tokens = set(tokenize(operand))
    if not tokens - _NO_ITEM and re.search(r"\btotal\b", operand, re.I):
        return _total_row(rows)
    found = match_row(tokens, rows, operand)
    return found[0] if found is not None else None


def _column_for(operand: str, headers: Sequence[str]) -> int | None:
    """The one column whose header holds every word of ``operand`` that is no period word."""
    tokens = set(tokenize(_PERIOD_WORDS.sub(" ", operand))) - _NO_ITEM
    if not tokens:
        return None
    hits = [j for j, h in enumerate(headers) if tokens <= set(tokenize(h))]
    if len(hits) != 1:
        hits = [j for j, h in enumerate(headers) if tokens & set(tokenize(h))]
    return hits[0] if len(hits) == 1 else None


def _pick_column(table: ChunkTable, understood: Understanding, fye: str | None) -> int | None:
    named = column_periods(table.column_headers, fye)
    wanted = [period_label(m, fye) for m in understood.periods]
    picked = pick_columns(named, wanted[:1], table.column_headers, set(tokenize(understood.text)))
    return picked[0] if picked else (0 if table.column_headers else None)


def _quote(n: int, table: ChunkTable, row: TableRow, j: int, fye: str | None) -> CellQuote | None:
    if j >= len(row.cells) or cell_number(row.cells[j]) is None:
        return None
    return CellQuote(n, row.label, row.cells[j], table.column_headers[j],
                     column_periods(table.column_headers, fye)[j], table.unit, table.currency, table.title)


def _in_table(pair: Pair, understood: Understanding, n: int, chunk: RetrievedChunk, table: ChunkTable
              ) -> tuple[CellQuote, CellQuote] | None:
    """The two operands' cells in one table: two rows in the period's column, else two columns of one row."""
    if not table.column_headers:
        return None
    fye = chunk.metadata.get("fiscal_year_end") or None
    row_a, row_b = _row_for(pair.a, table.rows), _row_for(pair.b, table.rows)
    j = _pick_column(table, understood, fye)
    if row_a is not None and row_b is not None and row_a is not row_b and j is not None:
        qa, qb = _quote(n, table, row_a, j, fye), _quote(n, table, row_b, j, fye)
        return (qa, qb) if qa is not None and qb is not None else None
    ja, jb = _column_for(pair.a, table.column_headers), _column_for(pair.b, table.column_headers)
    if ja is None or jb is None or ja == jb:
        return None
    rest = set(tokenize(understood.text)) - set(tokenize(pair.a)) - set(tokenize(pair.b))
    found = match_row(rest | (set(tokenize(pair.b)) - set(tokenize(table.column_headers[jb]))), table.rows)
    if found is None:
        return None
    qa, qb = _quote(n, table, found[0], ja, fye), _quote(n, table, found[0], jb, fye)
    return (qa, qb) if qa is not None and qb is not None else None


def pair_answer(question: str | Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None
                ) -> Derived | None:
    """The ratio, share or difference of two items the question names, computed from two cited cells of one table.

    Args:
        question: the (standalone) question or its :class:`~prism.retrieval.understanding.Understanding`.
        chunks: the retrieved chunks, best first (block ``n`` = position + 1).
        rows_of: the workspace's ``read_chunks(doc_id)`` (table rows), or ``None``.

    Returns:
        A :class:`~prism.types.Derived` whose heading states the result, whose lines quote both cells and the work;
        ``None`` when the question names no two items, no retrieved table holds both, or B is zero.
    """
    pair = read_pair(question)
    if pair is None or rows_of is None or not chunks:
        return None
    understood = Understanding.of(question)
    if len({p.year for p in understood.periods}) >= 2:  # over several years: a metric or a row operation
        return None
    cache: dict[str, dict[str, Mapping[str, Any]]] = {}
    for n, chunk in enumerate(chunks, start=1):
        for table, holder in table_parts(chunk, rows_of, cache):
            found = _in_table(pair, understood, n, chunk, table)
            if found is None:
                continue
            quotes = [CellQuote(q.n, q.label, q.value, q.column, q.period, q.unit, q.currency, q.title, holder)
                      for q in found]
            return _derived(pair, quotes, chunks)
    return None


def _derived(pair: Pair, quotes: list[CellQuote], chunks: Sequence[RetrievedChunk]) -> Derived | None:
    a, b = (cell_number(q.value) for q in quotes)
    if a is None or b is None or (pair.kind != "difference" and b == 0):
        return None
    decimals = max((len(m.group(1)) for q in quotes if (m := re.search(r"\.(\d+)", q.value))), default=0)
    if pair.kind == "sum":
        raw = a + b
        shown = raw.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
        result, formula, kind = written_amount(shown, quotes[0], change=False), "A + B", "amount"
        work = f"{quotes[0].value.strip()} + {quotes[1].value.strip()} = {result}"
    elif pair.kind == "difference":
        raw = abs(a - b)
        shown = raw.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
        result, formula, kind = written_amount(shown, quotes[0]), "|A − B|", "amount"
        work = f"|{quotes[0].value.strip()} − {quotes[1].value.strip()}| = {result}"
    else:
        raw = a / b
        scale = 100 if pair.kind == "share" else 1
        shown = (raw * scale).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        result = f"{shown} %" if pair.kind == "share" else f"{shown}"
        formula = "A / B × 100" if pair.kind == "share" else "A / B"
        kind = "percent" if pair.kind == "share" else "ratio"
        work = f"{quotes[0].value.strip()} / {quotes[1].value.strip()}{' × 100' if scale == 100 else ''} = {result}"
    label_a, label_b = (printed_label(q.label.strip()) or q.column for q in quotes)
    same_row = quotes[0].label == quotes[1].label
    name_a, name_b = (quotes[0].column, quotes[1].column) if same_row else (label_a, label_b)
    where = label_a if same_row else quotes[0].column
    metric = {"ratio": f"ratio of {name_a} to {name_b}", "share": f"{name_a} as a % of {name_b}",
              "difference": f"difference between {name_a} and {name_b}",
              "sum": f"{name_a} and {name_b} combined"}[pair.kind]
    blocks, extra = cited_blocks(quotes, chunks)
    lines = [(format_quote(q), n) for q, n in zip(quotes, blocks, strict=True)]
    order = list(dict.fromkeys(blocks))
    lines.append((f"{metric}, {where} = {work}", blocks[-1]))
    inputs = tuple(CalculationInput(metric, q.label, q.period or q.column, q.value, q.unit, q.currency,
                                    order.index(n) + 1) for q, n in zip(quotes, blocks, strict=True))
    calc = Calculation(metric, formula, "the question", tuple(dict.fromkeys(q.period or q.column for q in quotes)),
                       inputs, result, float(shown))
    logger.info("pair operation: %s", pair.kind)
    return Derived(f"{DERIVED_LABEL}: {metric}, {where} = {result}", lines, extra, calc, (a, b), raw, kind)
