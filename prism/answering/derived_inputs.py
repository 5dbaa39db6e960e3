"""The inputs of a derived figure, each read from a table cell of the scoped document, with its citation.

For each ``(line item, fiscal period)`` a :class:`~prism.answering.calc.Plan` needs, :func:`find_inputs` looks in the
tables of the retrieved chunks and of the other chunks of those tables (:func:`prism.answering.cells.table_parts`);
an input not among them is looked for by a focused sub-retrieval in the same document ("Netflix depreciation and
amortization FY2015 cash flow statement") through the engine's own retriever, and the chunk it comes from is added
as a source. A row holds the item when its normalised label (:func:`normalise_label`) is one of the item's labels
(:data:`prism.answering.derived.ITEMS`); the best row is the item's earliest label, then a table of the item's
statement kind, then the earliest retrieved chunk. The column is the one whose header names the period
(:func:`prism.answering.cells.column_periods`, with the document's fiscal year end).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from prism.answering.cells import RowsOf, column_periods, table_parts
from prism.answering.derived import ITEMS
from prism.index.statements import statement_kinds
from prism.types import ChunkTable, RetrievedChunk

logger = logging.getLogger(__name__)

__all__ = ["FoundInput", "cell_number", "find_inputs", "normalise_label"]

_STATEMENT_WORDS = {"income": "income statement", "balance": "balance sheet", "cash_flow": "cash flow statement"}
_MAGNITUDE = frozenset({"capex", "da", "cogs"})
"""Items reported as outflows in a cash flow statement ("(1,486,843)"): their size is the figure."""


@dataclass(frozen=True)
class FoundInput:
    """One input read from a table cell.

    Attributes:
        item: the line item's key (:data:`~prism.answering.derived.ITEMS`).
        period: the fiscal period (``"FY2015"``).
        label: the row label as printed.
        cell: the cell as printed (``"(1,837)"``).
        number: the cell's value in the table's unit (``Decimal``; outflow items as their size).
        unit: the table's unit or ``None``; currency: ISO 4217 or ``None``; title: the table's heading or ``None``.
        chunk: the chunk holding the cell (a retrieved one, another chunk of its table, or a sub-retrieval's).
    """

    item: str
    period: str
    label: str
    cell: str
    number: Decimal
    unit: str | None
    currency: str | None
    title: str | None
    chunk: RetrievedChunk


def normalise_label(label: str) -> str:
    """Lower case, letters and digits only, single spaces: ``"Operating income (loss)"`` → ``"operating income
    loss"``; a trailing note reference ("(Note 4)") is dropped."""
    text = re.sub(r"\(\s*notes?\s*\d+\s*\)", " ", label.lower())
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


def cell_number(cell: str) -> Decimal | None:
    """``"1,234"`` → 1234, ``"(1,837)"`` and ``"-5.2"`` → negative; ``None`` for a dash or text."""
    text = cell.strip().replace("$", "").replace(",", "").replace(" ", "")
    negative = text.startswith("(") and text.endswith(")") or text[:1] in "-−"
    text = text.strip("()").lstrip("-−")
    if not re.fullmatch(r"\d+(?:\.\d+)?", text):
        return None
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return -value if negative else value


def _in_table(item: str, period: str, table: ChunkTable, fye: str | None) -> tuple[int, str, str] | None:
    """``(label rank, row label, cell)`` of the item's best row in the table with a value for the period."""
    labels = ITEMS[item].labels
    periods = column_periods(table.column_headers, fye)
    if period not in periods:
        return None
    j = periods.index(period)
    best: tuple[int, str, str] | None = None
    for row in table.rows:
        name = normalise_label(row.label)
        if name in labels and j < len(row.cells) and cell_number(row.cells[j]) is not None:
            rank = labels.index(name)
            if best is None or rank < best[0]:
                best = (rank, row.label, row.cells[j])
    return best


def _search_chunks(item: str, period: str, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None
                   ) -> FoundInput | None:
    """The item's value for the period in the chunks' tables (and their tables' other chunks), or ``None``."""
    cache: dict[str, Any] = {}
    best: tuple[tuple[int, int, int], FoundInput] | None = None
    want = ITEMS[item].statement
    for n, chunk in enumerate(chunks):
        fye = chunk.metadata.get("fiscal_year_end") or None
        for table, holder in table_parts(chunk, rows_of, cache) if rows_of is not None else []:
            hit = _in_table(item, period, table, fye)
            if hit is None:
                continue
            other = 0 if want in statement_kinds(table.title or "") else 1
            key = (hit[0], other, n)
            number = cell_number(hit[2])
            if number is None or (best is not None and key >= best[0]):
                continue
            number = abs(number) if item in _MAGNITUDE else number
            label = re.sub(r"[\s.…:]{2,}$", "", hit[1].strip())
            best = key, FoundInput(item, period, label, hit[2], number, table.unit, table.currency, table.title,
                                   holder or chunk)
    return best[1] if best else None


Search = Callable[[str, Sequence[str]], Sequence[RetrievedChunk]]
"""``search(query, sources)`` → retrieved chunks of those documents, best first (the engine's retriever)."""


def find_inputs(needed: Sequence[tuple[str, str]], chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None,
                search: Search | None, entity: str | None = None) -> tuple[list[FoundInput], list[tuple[str, str]]]:
    """Every input the plan needs, read from table cells, and those not found.

    Args:
        needed: ``(item, period)`` pairs (:func:`prism.answering.calc.needed`).
        chunks: the retrieved chunks, best first; the document of the first table chunk is the one read (inputs of
            one formula come from one document).
        rows_of: the workspace's ``read_chunks(doc_id)``.
        search: the sub-retrieval for an input the chunks do not hold, or ``None`` for none.
        entity: the document's entity, put in front of a sub-retrieval's query.

    Returns:
        ``(found, missing)``: found inputs in ``needed`` order, and the pairs no table cell gave.
    """
    tables = [c for c in chunks if c.metadata.get("table_id")]
    doc = tables[0].doc_id if tables else (chunks[0].doc_id if chunks else None)
    own = [c for c in chunks if c.doc_id == doc]
    sources = list(dict.fromkeys(c.source for c in own))
    found: list[FoundInput] = []
    missing: list[tuple[str, str]] = []
    for item, period in needed:
        hit = _search_chunks(item, period, own, rows_of)
        if hit is None and search is not None and sources:
            words = (entity, ITEMS[item].name, period, _STATEMENT_WORDS[ITEMS[item].statement])
            query = " ".join(w for w in words if w)
            extra = [c for c in search(query, sources) if c.doc_id == doc]
            hit = _search_chunks(item, period, extra, rows_of)
            logger.info("derived input: sub-retrieval for %s %s %s", item, period, "found" if hit else "not found")
        if hit is None:
            missing.append((item, period))
        else:
            found.append(hit)
    return found, missing
