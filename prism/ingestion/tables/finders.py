"""Chunks of a document with its tables: each table cut only between rows, the prose around the tables chunked as
before.

The document text is the pages' stored texts joined with :data:`~prism.ingestion.chunking.PAGE_SEPARATOR`, after
running lines were removed. Tables are found in each page's final text (:func:`page_tables`: tables of figures by
:func:`prism.ingestion.tables.stored_text.find_tables`, their column headers read from the PDF when the text gives none,
numbered tables of text by :mod:`prism.ingestion.tables.lists`, registers of words by
:mod:`prism.ingestion.tables.words`) or, for a CSV, given by the loader
(``ParsedDocument.tables``), so their offsets index that text. Each table becomes
the spans of :func:`prism.ingestion.tables.chunks.table_chunks` (whole rows; a row cut between its cells only when it
does not fit the window with the table's header); the text between tables is chunked by
:func:`~prism.ingestion.chunking.split_spans` and fitted to the window as before. Every chunk, table or prose,
satisfies ``document_text[chunk.char_start:chunk.char_end] == chunk.text``, and chunks never overlap a table's span.

A table chunk carries a :class:`~prism.types.ChunkTable`: the table's id, title, the headers of the columns it holds,
unit, currency, the index header that is embedded and BM25-indexed in front of its text, and its rows with offsets
relative to the chunk's text.
"""

from __future__ import annotations

import itertools
import logging
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

from prism.ingestion.chunking import TokenCounter, build_chunks, document_text, fit_window, split_spans
from prism.ingestion.tables.chunks import TableChunkSpan, table_chunks
from prism.ingestion.tables.headers import PdfTableHeaders
from prism.ingestion.tables.lists import find_numbered_tables
from prism.ingestion.tables.stored_text import find_tables
from prism.ingestion.tables.words import find_word_tables, likely_register
from prism.types import Chunk, ChunkTable, ParsedDocument, Table, TableRow

logger = logging.getLogger(__name__)

MIN_AGREEMENT = 0.9
"""A table of words replaces the tables of figures it overlaps when under this share of their cells are its cells."""

MIN_TEXT_TOKENS = 16
"""Word pieces a table chunk's own text may always use, however long its index header (a header that leaves less is
cut short instead)."""

Piece = tuple[int, int, "ChunkTable | None"]
"""A chunk before it is numbered: ``(char_start, char_end, table or None)`` in document offsets."""


def page_tables(page_text: str, page: int | None, pdf: PdfTableHeaders | None = None) -> list[Table]:
    """The tables of one page's stored text, in page order.

    Tables of figures (:func:`~prism.ingestion.tables.stored_text.find_tables`); where none has column headers and the
    page looks like a register, a table of words read from the ``pdf``
    (:func:`~prism.ingestion.tables.words.find_word_tables`) instead of those it overlaps, unless they read the same
    cells (:data:`MIN_AGREEMENT`); column headers from the ``pdf``'s word positions for the tables without
    (:class:`~prism.ingestion.tables.headers.PdfTableHeaders`); and numbered tables of text
    (:func:`~prism.ingestion.tables.lists.find_numbered_tables`) that overlap none of them. A table that continues the
    one above it on the page (:func:`continued_tables`) takes its title, headers and unit first; headers read from
    the PDF are kept only when they name columns, not values (:func:`plausible_headers`).
    """
    tables = continued_tables(find_tables(page_text, page))
    if pdf is not None and likely_register(page_text) and not any(t.column_headers for t in tables):
        for word_table in find_word_tables(page_text, page, pdf.words(page), len(tables) + 1):
            rivals = [t for t in tables if _overlap(t, word_table)]
            if not rivals or _agreement(rivals, word_table) < MIN_AGREEMENT:
                tables = [t for t in tables if t not in rivals] + [word_table]
    if pdf is not None:
        tables = [t if t.column_headers else replace(t, column_headers=plausible_headers(pdf(page, t))) for t in tables]
    for t in find_numbered_tables(page_text, page, len(tables) + 1):
        if not any(_overlap(t, o) for o in tables):
            tables.append(t)
    return sorted(tables, key=lambda t: t.char_start)


def _n_cols(table: Table) -> int:
    """The commonest number of values of the table's rows that hold two or more (0 when none does)."""
    counts = Counter(len(row.cells) for row in table.rows if len(row.cells) >= 2)
    return max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0] if counts else 0


def continued_tables(tables: list[Table]) -> list[Table]:
    """The tables of one page, each untitled, headerless table that continues the table above it (same number of
    columns) given that table's title, column headers, and unit and currency where it states none.

    A statement set on one page is often read as two tables: a balance sheet's liabilities follow a heading line
    ("LIABILITIES AND STOCKHOLDERS' EQUITY") below the assets, with no title, periods or unit of their own, so
    their rows ("Accounts payable $ 302,578 $ 255,028") would otherwise be chunked with no column and no unit.
    """
    out: list[Table] = []
    for table in tables:
        above = out[-1] if out else None
        if (above is not None and table.title is None and not table.column_headers and above.column_headers
                and _n_cols(table) == len(above.column_headers)):
            table = replace(table, title=above.title, column_headers=above.column_headers,
                            unit=table.unit or above.unit, currency=table.currency or above.currency)
        out.append(table)
    return out


_VALUE = re.compile(r"\d{1,3}(?:,\d{3})+|\d+\.\d+")


def plausible_headers(headers: tuple[str, ...] | None) -> tuple[str, ...]:
    """``headers`` when they read as column headers, else ``()``: headers that hold a figure ("3,944,463",
    "12.5") or no letter or digit at all ("—") were stitched from the rows of a table above, not from a header."""
    if not headers or any(_VALUE.search(h) or not re.search(r"\w", h) for h in headers):
        return ()
    return headers


def _overlap(a: Table, b: Table) -> bool:
    return a.char_start < b.char_end and b.char_start < a.char_end


def _agreement(figures: list[Table], words: Table) -> float:
    """Share of the figure tables' cells that are whole cells of the table of words: high when both read the same
    columns (the figures are kept), low when the figures are words' tails (``"FROM SEP. 18 446.87"``)."""
    spans = {s for row in words.rows for s in row.cell_spans}
    cells = [s for t in figures for row in t.rows for s in row.cell_spans]
    return sum(s in spans for s in cells) / len(cells) if cells else 0.0


def document_tables(doc: ParsedDocument, find: bool = True, pdf: PdfTableHeaders | None = None,
                    ) -> list[tuple[int, Table]]:
    """Every table of ``doc`` with the index of its page in ``doc.pages``, in document order.

    The loader's tables (a CSV's rows) when it gave any, else (with ``find``) :func:`page_tables` of each page's
    stored text. Tables whose page is not among ``doc.pages`` are left out.
    """
    if not find and not doc.tables:
        return []
    if doc.tables:
        index = {page.number: i for i, page in enumerate(doc.pages)}
        found = [(index[t.page], t) for t in doc.tables if t.page in index]
    else:
        found = [(i, t) for i, page in enumerate(doc.pages) for t in page_tables(page.text, page.number, pdf)]
    return sorted(found, key=lambda it: (it[0], it[1].char_start))


def _prose(text: str, lo: int, hi: int, chunk_size: int, chunk_overlap: int, count_tokens: TokenCounter | None,
           max_tokens: int | None) -> list[Piece]:
    """Chunks of ``text[lo:hi]`` as :func:`~prism.ingestion.chunking.chunk_document` makes them, in document
    offsets."""
    part = text[lo:hi]
    spans = split_spans(part, chunk_size, chunk_overlap)
    if count_tokens is not None and max_tokens is not None:
        spans = [piece for span in spans for piece in fit_window(part, span, count_tokens, max_tokens)]
    return [(lo + s, lo + e, None) for s, e in spans]


def _rows_in(table: Table, start: int, end: int) -> tuple[TableRow, ...]:
    """The table's rows overlapping page offsets ``[start, end)``, relative to ``start``: cells whose spans lie
    inside only, row bounds clipped to the span."""
    rows = []
    for row in table.rows:
        if row.char_end <= start or row.char_start >= end:
            continue
        kept = [(c, (a - start, b - start)) for c, (a, b) in zip(row.cells, row.cell_spans, strict=True)
                if a >= start and b <= end]
        rows.append(TableRow(row.label, tuple(c for c, _ in kept), tuple(s for _, s in kept),
                             max(row.char_start, start) - start, min(row.char_end, end) - start, row.source_row))
    return tuple(rows)


def _table_pieces(table: Table, page_text: str, base: int, chunk_size: int, count_tokens: TokenCounter | None,
                  max_tokens: int | None) -> list[Piece]:
    """The table's chunks (:func:`~prism.ingestion.tables.chunks.table_chunks`) in document offsets. A span still over
    the window with its header (one cell longer than the window) is cut at spaces like prose, keeping its table."""
    if count_tokens is None or max_tokens is None:
        spans = table_chunks(table, page_text, lambda _t: 0, 1, chunk_size)
    else:
        spans = table_chunks(table, page_text, count_tokens, max_tokens, chunk_size)
    pieces: list[Piece] = []
    for span in spans:
        ranges = [(span.char_start, span.char_end)]
        header = span.index_header
        if count_tokens is not None and max_tokens is not None and count_tokens(span.index_text) > max_tokens:
            room = max_tokens - count_tokens(header) + 1
            if room < MIN_TEXT_TOKENS:
                header, room = _shorten(header, count_tokens, max_tokens - MIN_TEXT_TOKENS), MIN_TEXT_TOKENS
            ranges = fit_window(page_text, ranges[0], count_tokens, room)
        for s, e in ranges:
            info = _chunk_table(table, span, header, s, e)
            pieces.append((base + s, base + e, info))
    return pieces


def _shorten(header: str, count_tokens: TokenCounter, budget: int) -> str:
    """``header`` cut at its last ``" | "`` separators until it has at most ``budget`` word pieces (its first part
    alone, cut at spaces, when even that is too long)."""
    parts = header.split(" | ")
    while len(parts) > 1 and count_tokens(" | ".join(parts)) > budget:
        parts.pop()
    text = " | ".join(parts)
    while text and count_tokens(text) > budget:
        text = text.rsplit(" ", 1)[0] if " " in text else ""
    return text


def _chunk_table(table: Table, span: TableChunkSpan, header: str, start: int, end: int) -> ChunkTable:
    return ChunkTable(table.table_id, header, table.title, span.column_headers, table.unit, table.currency,
                      span.row_label, _rows_in(table, start, end))


def structured_chunks(
    doc: ParsedDocument,
    doc_id: str,
    *,
    chunk_size: int,
    chunk_overlap: int,
    count_tokens: TokenCounter | None = None,
    max_tokens: int | None = None,
    attributes: Mapping[str, str] | None = None,
    find: bool = True,
    pdf: PdfTableHeaders | None = None,
) -> list[Chunk]:
    """Chunk a parsed document, its tables at row boundaries (see the module docstring).

    Args:
        doc: parsed, normalised document, running lines already removed (table offsets index its page texts).
        doc_id: the document's id (sha256 hex of its bytes).
        chunk_size: target chunk length, characters (table spans hold whole rows up to this length).
        chunk_overlap: overlap between neighbouring prose chunks, characters (table chunks do not overlap).
        count_tokens: word pieces of a text including special tokens (the embedder's counter); with ``max_tokens``
            every chunk's index text (table header included) fits the window.
        max_tokens: the window left for a chunk's index text (the embedder's, less a title header's share).
        attributes: flat metadata every chunk carries (the document profile's, :meth:`DocumentProfile.metadata`).
        find: look for tables in the page texts (off: only a loader's tables are chunked as tables).
        pdf: the PDF's words, for column headers the text lacks and tables of words (:func:`page_tables`).

    Returns:
        Chunks in document order with ``chunk_index`` 0..n-1, ids ``"{doc_id[:16]}-{index:05d}"`` and pages as
        :func:`~prism.ingestion.chunking.chunk_document` gives them; table chunks have ``table`` set. Without tables
        the chunks are exactly :func:`~prism.ingestion.chunking.chunk_document`'s.
    """
    text, offsets = document_text(doc)
    # a slide or a sheet is a unit of its own: prose chunks never cross one (PDF pages do flow into each other)
    breaks = list(offsets[1:]) if doc.page_unit in ("slide", "sheet") else []

    def prose(lo: int, hi: int) -> list[Piece]:
        cuts = [lo] + [b for b in breaks if lo < b < hi] + [hi]
        return [p for a, b in itertools.pairwise(cuts)
                for p in _prose(text, a, b, chunk_size, chunk_overlap, count_tokens, max_tokens)]

    pieces: list[Piece] = []
    pos = 0
    for i, table in document_tables(doc, find, pdf):
        start = offsets[i] + table.char_start
        if start < pos or not table.rows:
            continue
        pieces += prose(pos, start)
        pieces += _table_pieces(table, doc.pages[i].text, offsets[i], chunk_size, count_tokens, max_tokens)
        pos = offsets[i] + table.char_end
    pieces += prose(pos, len(text))
    chunks = build_chunks(doc, doc_id, text, offsets, pieces, attributes)
    n_tables = sum(1 for _, _, info in pieces if info is not None)
    logger.debug("%s: %d chunks, %d of them table chunks", doc.source, len(chunks), n_tables)
    return chunks
