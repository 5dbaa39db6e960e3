"""The inputs of a derived figure, each read from a table cell of the scoped document, with its citation.

For each ``(line item, fiscal period)`` a :class:`~prism.answering.metrics.calc.Plan` needs, :func:`find_inputs` looks
in the tables of the retrieved chunks and of the other chunks of those tables
(:func:`prism.answering.derived.cells.table_parts`);
an input not among them, or found only outside its statement (an MD&A table), is looked for by a focused
sub-retrieval in the same document through the engine's own retriever — the item's row labels and its statement's
heading as filings print them ("cost of sales cost of goods sold cost of products sold consolidated statements of
income operations"), one per line item — and then in the document's tables of that statement (its stored chunk
rows); the chunk it comes from is added as a source. A row holds the item when its normalised label
(:func:`normalise_label`) is one of the item's labels (:data:`prism.index.statements.ITEMS`) or one followed by a
qualifier (:func:`label_rank`); the best row is in a table of the item's statement kind, then has the item's
earliest label, then comes from the earliest chunk. The column is the one whose header names the period
(:func:`prism.answering.programs.columns.column_periods`, with the document's fiscal year end).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from prism.answering.programs.columns import column_periods
from prism.answering.programs.numbers import cell_number
from prism.answering.programs.tables import RowsOf, sibling_chunk, table_parts
from prism.index.statements import ITEMS, statement_kinds
from prism.types import ChunkTable, RetrievedChunk
from prism.vocabulary.statements import SEARCH_WORDS

logger = logging.getLogger(__name__)

__all__ = ["FoundInput", "cell_number", "find_inputs", "label_rank", "normalise_label"]

_STATEMENT_WORDS = SEARCH_WORDS
"""The statement headings as filings print them (:data:`prism.vocabulary.statements.SEARCH_WORDS`)."""
_MAGNITUDE = frozenset({"capex", "da", "cogs"})
"""Items reported as outflows in a cash flow statement ("(1,486,843)"): their size is the figure."""


@dataclass(frozen=True)
class FoundInput:
    """One input read from a table cell.

    Attributes:
        item: the line item's key (:data:`~prism.index.statements.ITEMS`).
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


def _in_table(item: str, period: str, table: ChunkTable, fye: str | None) -> tuple[int, str, str] | None:
    """``(label rank, row label, cell)`` of the item's best row in the table with a value for the period."""
    labels = ITEMS[item].labels
    periods = column_periods(table.column_headers, fye)
    if period not in periods:
        return None
    j = periods.index(period)
    best: tuple[int, str, str] | None = None
    for row in table.rows:
        rank = label_rank(normalise_label(row.label), labels)
        if rank is not None and j < len(row.cells) and cell_number(row.cells[j]) is not None:
            if best is None or rank < best[0]:
                best = (rank, row.label, row.cells[j])
    return best


_QUALIFIERS = ("net of ", "excluding ", "including ", "net ", "total ")


def label_rank(name: str, labels: Sequence[str]) -> int | None:
    """How well a normalised row label names an item: its position among ``labels`` when equal to one; after every
    exact label when it is one followed by a qualifier ("capital expenditures net of construction payable",
    "inventories net"); ``None`` otherwise ("net sales growth" is not "net sales")."""
    if name in labels:
        return labels.index(name)
    for i, label in enumerate(labels):
        rest = name[len(label) + 1:] if name.startswith(label + " ") else None
        if rest is not None and rest.startswith(_QUALIFIERS) or rest in ("net", "total"):
            return len(labels) + i
    return None


def _search_chunks(item: str, period: str, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None
                   ) -> FoundInput | None:
    """The item's value for the period in the chunks' tables (and their tables' other chunks), or ``None``: a table
    of the item's statement kind first, then the best label (:func:`label_rank`), then the earliest chunk."""
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
            key = (other, hit[0], n)
            number = cell_number(hit[2])
            if number is None or (best is not None and key >= best[0]):
                continue
            number = abs(number) if item in _MAGNITUDE else number
            label = re.sub(r"[\s.…:]{2,}$", "", hit[1].strip())
            best = key, FoundInput(item, period, label, hit[2], number, table.unit, table.currency, table.title,
                                   holder or chunk)
    return best[1] if best else None


def _statement_chunks(doc_id: str, chunks: Sequence[RetrievedChunk], rows_of: RowsOf, item: str
                      ) -> list[RetrievedChunk]:
    """The first chunk of each table of the document whose heading names the item's statement kind (read from the
    stored chunk rows, in chunk order): the last place an input is looked for when neither the retrieved chunks nor
    the sub-retrieval hold it."""
    want = ITEMS[item].statement
    first: dict[str, RetrievedChunk] = {}
    like = next(c for c in chunks if c.doc_id == doc_id)
    for row in sorted(rows_of(doc_id), key=lambda r: r.get("chunk_index") or 0):
        title, table_id = str(row.get("table_title") or ""), row.get("table_id")
        if table_id and table_id not in first and want in statement_kinds(title):
            first[str(table_id)] = sibling_chunk(like, row)
    return list(first.values())


Search = Callable[[str, Sequence[str]], Sequence[RetrievedChunk]]
"""``search(query, sources)`` → retrieved chunks of those documents, best first (the engine's retriever)."""


def find_inputs(needed: Sequence[tuple[str, str]], chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None,
                search: Search | None, entity: str | None = None) -> tuple[list[FoundInput], list[tuple[str, str]]]:
    """Every input the plan needs, read from table cells, and those not found.

    Args:
        needed: ``(item, period)`` pairs (:func:`prism.answering.metrics.calc.needed`).
        chunks: the retrieved chunks, best first; the document of the first table chunk is the one read (inputs of
            one formula come from one document). An input they do not hold is looked for by ``search``, then in the
            document's tables of the item's statement kind (stored chunk rows).
        rows_of: the workspace's ``read_chunks(doc_id)``.
        search: the sub-retrieval for an input the chunks do not hold, or ``None`` for none.
        entity: the document's entity, put in front of a sub-retrieval's query.

    Returns:
        ``(found, missing)``: found inputs in ``needed`` order, and the pairs no table cell gave.
    """
    rows_of = _memo(rows_of) if rows_of is not None else None
    tables = [c for c in chunks if c.metadata.get("table_id")]
    doc = tables[0].doc_id if tables else (chunks[0].doc_id if chunks else None)
    own = [c for c in chunks if c.doc_id == doc]
    sources = list(dict.fromkeys(c.source for c in own))
    found: list[FoundInput] = []
    missing: list[tuple[str, str]] = []
    searched: dict[str, list[RetrievedChunk]] = {}
    for item, period in needed:
        hit = _search_chunks(item, period, own, rows_of)
        if not _in_statement(hit) and search is not None and sources:
            if item not in searched:  # one focused sub-retrieval per line item (its columns hold every period)
                labels = " ".join(dict.fromkeys(" ".join(ITEMS[item].labels[:3]).split()))
                query = f"{labels} {_STATEMENT_WORDS[ITEMS[item].statement]}"
                searched[item] = [c for c in search(query, sources) if c.doc_id == doc]
            hit = _better(hit, _search_chunks(item, period, searched[item], rows_of))
        if not _in_statement(hit) and doc is not None and rows_of is not None:
            statement = _statement_chunks(doc, own or chunks, rows_of, item)
            hit = _better(hit, _search_chunks(item, period, statement, rows_of))
        if hit is None:
            missing.append((item, period))
        else:
            found.append(hit)
    logger.info("derived inputs: %d found, %d missing, %d sub-retrieval(s)", len(found), len(missing), len(searched))
    return found, missing


def _memo(rows_of: RowsOf) -> RowsOf:
    """``rows_of`` reading each document's chunk rows once (every input of a formula reads the same document)."""
    memo: dict[str, Sequence[Any]] = {}

    def rows(doc_id: str) -> Sequence[Any]:
        if doc_id not in memo:
            memo[doc_id] = rows_of(doc_id)
        return memo[doc_id]

    return rows


def _in_statement(hit: FoundInput | None) -> bool:
    """True when the input was read from a table of its item's statement kind."""
    return hit is not None and ITEMS[hit.item].statement in statement_kinds(hit.title or "")


def _better(first: FoundInput | None, second: FoundInput | None) -> FoundInput | None:
    """``second`` when it comes from the item's statement and ``first`` does not (or there is no ``first``)."""
    if first is None or (second is not None and _in_statement(second) and not _in_statement(first)):
        return second
    return first
