"""Questions answered by a year of a table's columns: "In which year was the amount for Ireland larger?", "In which
year was revenue less than 600,000 thousands?", "Which years did expected term exceed 0.5 years?" and "Which years
does the table provide information for components of income tax expense?".

An analyst wants the year itself first, then the figures it was read from. :func:`year_lines` reads the row the
question names (:func:`~prism.answering.derived.cells.match_row`) across every column whose header names a year,
picks the year(s) by the question's comparison (the larger / smaller value, or those above / below a threshold the
question states, in the table's own unit) and writes one line: ``"2018: Ireland, 2019 £m: 0.4; 2018 £m: 0.5 (larger
in 2018)"``. A plural "which years" without a comparison lists the years of the table's columns. Pure functions;
the chunk rows come in through ``rows_of`` (the workspace's ``read_chunks``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from prism.answering.derived.cells import RowsOf, match_row, table_parts
from prism.answering.units import printed_label
from prism.index.tokenizer import tokenize
from prism.retrieval.understanding import Understanding
from prism.types import ChunkTable, RetrievedChunk, TableRow

logger = logging.getLogger(__name__)

__all__ = ["cell_value", "year_lines"]

_WHICH_YEAR = re.compile(r"\b(?:which|what)\s+(?:(?:is|are)\s+the\s+)?(?:fiscal\s+|financial\s+)?"
                         r"(?P<plural>years|year)\b(?!-)", re.IGNORECASE)
_MORE = re.compile(r"\b(?:higher|highest|larger|largest|greater|greatest|more|most|bigger|biggest|exceed(?:s|ed)?|"
                   r"above|over)\b", re.IGNORECASE)
_LESS = re.compile(r"\b(?:lower|lowest|smaller|smallest|less|least|fewer|below|under)\b", re.IGNORECASE)
_THRESHOLD = re.compile(r"\b(?:than|exceed(?:s|ed)?|above|below|over|under)\s+\$?(?P<n>\d[\d,]*(?:\.\d+)?)",
                        re.IGNORECASE)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_CELL = re.compile(r"^\(?-?[$£€¥₹]?\s*[\d,]*\d(?:\.\d+)?\)?%?$")


def cell_value(cell: str) -> Decimal | None:
    """The cell as a number ("(1,837)" → -1837), or ``None`` when it is not one ("—")."""
    text = cell.strip()
    if not _CELL.match(text):
        return None
    negative = text.startswith("(") or "-" in text[:2]
    try:
        number = Decimal(re.sub(r"[^\d.]", "", text))
    except InvalidOperation:
        return None
    return -number if negative else number


def _year_cells(table: ChunkTable, row: TableRow) -> list[tuple[str, str, Decimal]]:
    """``[(year, header, value)]`` for each column whose header names exactly one year and whose cell is a number."""
    out = []
    for header, cell in zip(table.column_headers, row.cells, strict=False):
        years = set(_YEAR.findall(header))
        value = cell_value(cell)
        if len(years) == 1 and value is not None:
            out.append((years.pop(), header, value))
    return out


def _pick(question: str, cells: list[tuple[str, str, Decimal]], plural: bool) -> tuple[list[str], str] | None:
    """The years the comparison picks and the words saying why, or ``None`` when the question compares nothing."""
    more, less = bool(_MORE.search(question)), bool(_LESS.search(question))
    if more == less:
        return None
    threshold = _THRESHOLD.search(question)
    if threshold is not None:
        bound = Decimal(threshold.group("n").replace(",", ""))
        picked = [y for y, _, v in cells if (v > bound if more else v < bound)]
        return (picked, f"{'above' if more else 'below'} {threshold.group('n')}") if picked else None
    if plural or len({v for _, _, v in cells}) < 2:
        return None
    best = (max if more else min)(cells, key=lambda c: c[2])
    return [best[0]], f"{'larger' if more else 'smaller'} in {best[0]}"


def _best_row(q_tokens: set[str], chunks: Sequence[RetrievedChunk], rows_of: RowsOf
              ) -> tuple[int, ChunkTable, TableRow, RetrievedChunk | None] | None:
    """The retrieved tables' row the question names best (most label tokens, then retrieval rank)."""
    cache: dict[str, dict[str, Mapping[str, Any]]] = {}
    best: tuple[tuple[int, int], tuple[int, ChunkTable, TableRow, RetrievedChunk | None]] | None = None
    for n, chunk in enumerate(chunks, start=1):
        for table, holder in table_parts(chunk, rows_of, cache):
            found = match_row(q_tokens, table.rows) if table.column_headers else None
            if found is None or len(_year_cells(table, found[0])) < 2:
                continue
            key = (-found[1], n)
            if best is None or key < best[0]:
                best = key, (n, table, found[0], holder)
    return best[1] if best is not None else None


def _table_years(chunks: Sequence[RetrievedChunk], rows_of: RowsOf) -> tuple[int, list[str], str | None] | None:
    """The first retrieved table's column years, newest first as printed, with its block ``n`` and title."""
    cache: dict[str, dict[str, Mapping[str, Any]]] = {}
    for n, chunk in enumerate(chunks, start=1):
        for table, holder in table_parts(chunk, rows_of, cache):
            years = list(dict.fromkeys(y for h in table.column_headers for y in _YEAR.findall(h)))
            if len(years) >= 2 and holder is None:
                return n, years, table.title
    return None


def _listed(years: Sequence[str]) -> str:
    """"2019", "2019 and 2018", "2020, 2019 and 2018"."""
    return years[0] if len(years) == 1 else f"{', '.join(years[:-1])} and {years[-1]}"


def year_lines(question: str | Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None
               ) -> list[tuple[str, int]]:
    """The answer line of a "which year(s)" question, as ``[(line, n)]`` (block ``n`` cited), or ``[]``.

    A comparison ("larger", "less than 600,000", "exceed 0.5") is read on the row the question names, across the
    columns whose header names one year; the threshold is in the table's own unit, as the question states it. The
    line names the year(s) first, then the row's figures: ``"2018: Ireland, 2019 £m: 0.4; 2018 £m: 0.5 (larger in
    2018)"``. Without a comparison, a plural "which years" gets the years of the first retrieved table's columns:
    ``"2019 and 2018: the years the table gives (Components of income tax expense)"``. ``[]`` when the question
    asks no year, no row of two or more year columns matches, or no year satisfies the comparison.
    """
    understood = Understanding.of(question)
    text = understood.text
    asked = _WHICH_YEAR.search(text)
    if rows_of is None or not chunks or asked is None:
        return []
    plural = asked.group("plural").lower() == "years"
    found = _best_row(set(tokenize(text)), chunks, rows_of)
    if found is not None:
        n, table, row, _holder = found
        cells = _year_cells(table, row)
        picked = _pick(text, cells, plural)
        if picked is not None and _holder is None:
            figures = "; ".join(f"{header}: {row.cells[table.column_headers.index(header)].strip()}"
                                for _, header, _ in cells)
            logger.info("year answer: %d year(s) from block %d", len(picked[0]), n)
            return [(f"{_listed(picked[0])}: {printed_label(row.label)}, {figures} ({picked[1]})", n)]
    if plural and not (_MORE.search(text) or _LESS.search(text)):
        years = _table_years(chunks, rows_of)
        if years is not None:
            n, listed, title = years
            about = f" ({title})" if title else ""
            return [(f"{_listed(listed)}: the years the table gives{about}", n)]
    return []
