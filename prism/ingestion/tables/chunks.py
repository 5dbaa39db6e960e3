"""Chunks of a table: contiguous spans of its rows, each indexed under the table's title, periods and unit.

A table found by :func:`prism.ingestion.tables.stored_text.find_tables` is cut only between rows, into spans of at most
``max_chars`` characters of the page text (the chunk size); the lines above its first row (title, unit, column
headers) open the first span. Each span carries an *index header*, ``"title | 2015 | 2014 | 2013 | in thousands"``,
which is embedded and BM25-indexed in front of the span while the stored chunk text stays ``page_text[start:end]``.
When the header plus one row is over the embedder's window (``count_tokens(header + "\\n" + row) > max_tokens``), that
row alone is cut between its cells, and each part's header names the row's label, so a part that holds only
``"2,088,184"`` is still indexed as ``"… | 2017 | in thousands | Net income"``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from prism.types import Table, TableRow

logger = logging.getLogger(__name__)

TokenCounter = Callable[[str], int]
"""Word pieces of a text as the embedder counts them (special tokens included)."""


@dataclass(frozen=True)
class TableChunkSpan:
    """One chunk of a table.

    Attributes:
        table_id: the table's id (``"p40-t1"``).
        char_start: offset of the span in the page text.
        char_end: offset just past it; ``page_text[char_start:char_end] == text``.
        text: the span's text: whole rows (and, for the first span, the lines above the rows), or part of one row.
        index_header: what is embedded and indexed in front of ``text``: the table's
            :attr:`~prism.ingestion.tables.stored_text.Table.index_header`, plus ``" | " + row label`` for part of a
            row.
        column_headers: the headers of the columns the span holds (all of the table's, or those of a row part).
        unit: the table's unit or ``None``.
        row_label: the row's label when the span is part of one row, else ``None``.
    """

    table_id: str
    char_start: int
    char_end: int
    text: str
    index_header: str
    column_headers: tuple[str, ...]
    unit: str | None
    row_label: str | None = None

    @property
    def index_text(self) -> str:
        """The text to embed and BM25-index: ``index_header``, a newline, then ``text`` (``text`` alone without one)."""
        return f"{self.index_header}\n{self.text}" if self.index_header else self.text


def _fits(header: str, text: str, count_tokens: TokenCounter, max_tokens: int) -> bool:
    return count_tokens(f"{header}\n{text}" if header else text) <= max_tokens


def _split_row(
    table: Table, row: TableRow, page_text: str, count_tokens: TokenCounter, max_tokens: int
) -> list[TableChunkSpan]:
    """Cut one row between its cells into parts that fit the window with the row label in each part's header.

    The first part starts with the label; a part holds at least one cell even when that cell alone does not fit (a
    cell is never cut), and a row without cells stays whole.
    """
    header = f"{table.index_header} | {row.label}" if row.label else table.index_header
    if not row.cell_spans:
        return [_part(table, row, page_text, row.char_start, row.char_end, header, [])]
    parts: list[TableChunkSpan] = []
    start, end, columns = row.char_start, row.char_start, list[int]()
    for j, (cell_start, cell_end) in enumerate(row.cell_spans):
        if columns and not _fits(header, page_text[start:cell_end], count_tokens, max_tokens):
            parts.append(_part(table, row, page_text, start, end, header, columns))
            start, columns = cell_start, []
        end = cell_end
        columns.append(j)
    parts.append(_part(table, row, page_text, start, end, header, columns))
    return parts


def _part(
    table: Table, row: TableRow, page_text: str, start: int, end: int, header: str, columns: list[int]
) -> TableChunkSpan:
    headers = tuple(table.column_headers[j] for j in columns if j < len(table.column_headers))
    return TableChunkSpan(table.table_id, start, end, page_text[start:end], header, headers, table.unit, row.label)


def _whole(table: Table, page_text: str, start: int, end: int) -> TableChunkSpan:
    return TableChunkSpan(
        table.table_id, start, end, page_text[start:end], table.index_header, table.column_headers, table.unit
    )


def table_chunks(
    table: Table, page_text: str, count_tokens: TokenCounter, max_tokens: int, max_chars: int = 500
) -> list[TableChunkSpan]:
    """Split a table at row boundaries into spans of at most ``max_chars`` characters that fit the window.

    Rows are added to a span while the span stays within ``max_chars`` characters and ``index_header + "\\n" +
    span`` within ``max_tokens`` word pieces; a row that does not fit starts the next span. A single row longer than
    ``max_chars`` that fits the window is one span; one that does not fit the window is cut between cells (see the
    module docstring). The lines above the first row open the first span, or are a span of their own when they and
    the first row do not fit together.

    Args:
        table: a table found in ``page_text``.
        page_text: the page text the table's offsets index.
        count_tokens: the embedder's word-piece counter.
        max_tokens: the embedder's window (``Settings.embed_max_tokens``, 256 for MiniLM).
        max_chars: the target chunk size in characters (``Settings.chunk_size``).

    Returns:
        Spans in page order, each with ``page_text[span.char_start:span.char_end] == span.text``; they do not overlap
        and together cover every row; empty when the table has no rows.
    """
    header = table.index_header
    spans: list[TableChunkSpan] = []
    start: int | None = table.char_start
    end = -1  # < 0: the open span holds no row yet
    for row in table.rows:
        if start is None:
            start = row.char_start
        if end >= 0:
            text = page_text[start : row.char_end]
            if len(text) <= max_chars and _fits(header, text, count_tokens, max_tokens):
                end = row.char_end
                continue
            spans.append(_whole(table, page_text, start, end))
            start, end = row.char_start, -1
        if _fits(header, page_text[start : row.char_end], count_tokens, max_tokens):
            end = row.char_end
            continue
        if start < row.char_start:  # the lines above the rows do not fit with the first row: a span of their own
            spans.append(_whole(table, page_text, start, start + len(page_text[start : row.char_start].rstrip())))
            start = row.char_start
            if _fits(header, page_text[start : row.char_end], count_tokens, max_tokens):
                end = row.char_end
                continue
        spans.extend(_split_row(table, row, page_text, count_tokens, max_tokens))
        start, end = None, -1
    if start is not None and end >= 0:
        spans.append(_whole(table, page_text, start, end))
    logger.debug("table %s: %d rows in %d spans", table.table_id, len(table.rows), len(spans))
    return spans
