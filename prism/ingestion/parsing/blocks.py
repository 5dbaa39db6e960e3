"""One page of text built from a file's structure: paragraphs, and tables rendered as rows Prism can index.

The Office loaders (DOCX, PPTX, XLSX) walk their file and add blocks here in reading order. A paragraph is normalised
(:mod:`prism.ingestion.parsing.normalize`) and kept as one block; a table is rendered one row per line, ``"header:
value; header: value"``, by :func:`prism.ingestion.tables.csv.table_from_csv_rows`, and described by a
:class:`~prism.types.Table` whose offsets index the finished page text (CSV files are rendered the same way). Blocks
are separated by a blank line (a paragraph break for the chunker); lines of one block (list items, a slide's text
frame) by one newline. Every piece is normalised before it is placed, so the page text needs no normalisation
afterwards and the table offsets hold.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence

from prism.ingestion.parsing.normalize import normalize_report
from prism.ingestion.tables.csv import table_from_csv_rows
from prism.types import Table

logger = logging.getLogger(__name__)

BLOCK_SEPARATOR = "\n\n"


def clean(text: str) -> str:
    """``text`` normalised for storage (see :mod:`prism.ingestion.parsing.normalize`)."""
    return normalize_report(text).text


def _cell(value: object) -> str:
    if value is None:
        return ""
    text = str(value)
    if text.isascii() and text.isprintable():  # nothing for normalisation to change but spaces (most cells)
        return " ".join(text.split())
    return " ".join(clean(text).split())


def _shift(table: Table, offset: int, page: int | None, table_id: str, source_rows: Sequence[int] | None) -> Table:
    rows = tuple(
        dataclasses.replace(
            row,
            cell_spans=tuple((s + offset, e + offset) for s, e in row.cell_spans),
            char_start=row.char_start + offset,
            char_end=row.char_end + offset,
            source_row=source_rows[i] if source_rows is not None else None,
        )
        for i, row in enumerate(table.rows)
    )
    return dataclasses.replace(table, table_id=table_id, page=page, rows=rows,
                               char_start=table.char_start + offset, char_end=table.char_end + offset)


class PageBuilder:
    """Collects the blocks of one page and returns its text and tables.

    Args:
        page: the 1-based page (slide, sheet) number the tables are on, or ``None`` for an unpaged document.
    """

    def __init__(self, page: int | None = None):
        self.page = page
        self._parts: list[str] = []
        self._length = 0
        self.tables: list[Table] = []

    def _place(self, text: str) -> int:
        """Append ``text`` as a new block; returns its offset in the page text."""
        if self._parts:
            self._parts.append(BLOCK_SEPARATOR)
            self._length += len(BLOCK_SEPARATOR)
        offset = self._length
        self._parts.append(text)
        self._length += len(text)
        return offset

    def paragraph(self, text: str) -> None:
        """Add a paragraph (or several lines kept together); nothing when it has no visible text."""
        text = clean(text)
        if text:
            self._place(text)

    def table(self, header: Sequence[object], rows: Sequence[Sequence[object]], title: str | None = None,
              source_rows: Sequence[int] | None = None) -> None:
        """Add a table: ``header`` names its columns, ``rows`` are its data rows (``source_rows[i]`` the row number
        of ``rows[i]`` in the file, e.g. its spreadsheet row). Rows without any cell text are left out; a table
        without a data row adds nothing. No column that holds a value is dropped because its header cell is empty:
        it is named by its position (``"column 3"``, as CSV files name theirs); only columns empty in the header and
        in every row are left out at the right.
        """
        names = [_cell(h) for h in header]
        kept: list[list[str]] = []
        numbers: list[int] = []
        for i, row in enumerate(rows):
            values = [_cell(v) for v in row]
            if any(values):
                kept.append(values)
                if source_rows is not None:
                    numbers.append(source_rows[i])
        width = max((c + 1 for r in [names, *kept] for c, v in enumerate(r) if v), default=0)
        if not kept or width == 0:
            return
        names = [n or f"column {i}" for i, n in enumerate((names + [""] * width)[:width], start=1)]
        kept = [(r + [""] * width)[:width] for r in kept]
        n = len(self.tables) + 1
        table_id = f"p{self.page}-t{n}" if self.page is not None else f"t{n}"
        text, table = table_from_csv_rows(names, kept, title=_cell(title) or None, table_id=table_id)
        offset = self._place(text)
        self.tables.append(_shift(table, offset, self.page, table_id, numbers if source_rows is not None else None))

    def build(self) -> tuple[str, tuple[Table, ...]]:
        """``(page_text, tables)``; the tables are dropped (with a log line) in the rare case that normalising the
        joined text would still change it, since their offsets would then be wrong."""
        text = "".join(self._parts)
        if self.tables and clean(text) != text:
            logger.warning("page %s: text changes when normalised again; its %d tables are not kept", self.page,
                           len(self.tables))
            return clean(text), ()
        return text, tuple(self.tables)
