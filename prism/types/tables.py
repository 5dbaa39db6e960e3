"""Tables read from a document's stored text: rows with their label, cells, column headers (the periods) and unit.

Found by :mod:`prism.ingestion.tables.stored_text`; offsets index the stored page text, so a table chunk is a
contiguous span of rows (``page_text[row.char_start:row.char_end]`` is the row's line).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from prism.vocabulary import number_formats


@dataclass(frozen=True)
class TableRow:
    """One row of a table.

    Attributes:
        label: the row's label (text before its values), whitespace as stored; ``""`` for an unlabelled subtotal.
        cells: the values as printed without currency signs (``"122,641"``, ``"(1,837)"``, ``"—"``), one per column
            from the left; empty for a section label such as ``"Current assets:"``.
        cell_spans: ``(start, end)`` offsets of each cell in the page text, a currency sign before it included.
        char_start: offset of the row's first character in the page text.
        char_end: offset just past its last character; ``page_text[char_start:char_end]`` is the row's line.
        source_row: the row's number in the file itself when the file numbers its rows (a spreadsheet row as the
            spreadsheet shows it, 1-based, the header row included), else ``None``.
    """

    label: str
    cells: tuple[str, ...]
    cell_spans: tuple[tuple[int, int], ...]
    char_start: int
    char_end: int
    source_row: int | None = None


def common_prefix(headers: tuple[str, ...], min_words: int = 3) -> tuple[str, tuple[str, ...]]:
    """``(prefix, rest)``: the words (at least ``min_words``) every one of two or more headers starts with and is
    longer than, and the headers without them; ``("", headers)`` when there are none."""
    split = [h.split() for h in headers]
    if len(split) < 2:
        return "", headers
    n = 0
    while all(len(w) > n + 1 for w in split) and len({w[n] for w in split}) == 1:
        n += 1
    if n < min_words:
        return "", headers
    return " ".join(split[0][:n]), tuple(" ".join(w[n:]) for w in split)


@dataclass(frozen=True)
class Table:
    """A table found on one page.

    Attributes:
        table_id: ``"p{page}-t{n}"`` (``"t{n}"`` for an unpaged text), ``n`` 1-based in page order.
        page: 1-based page number, or ``None``.
        title: statement heading or caption, whitespace collapsed, or ``None``.
        column_headers: one header per column (the periods), or ``()`` when none were found.
        unit: ``thousands``, ``millions``, ``billions``, ``lakh``, ``crore`` or ``None``.
        currency: ISO 4217 code (``USD``, ``INR``, ``EUR``, ``GBP``) or ``None``.
        rows: the rows in page order (value rows and section labels).
        char_start: offset of the table's first line in the page text (its title, unit or header line when found
            above the rows, else its first row).
        char_end: offset just past its last row.
        decimal: the decimal mark its figures are printed with, ``"."`` or ``","`` ("1.234,5"), decided once from
            its cells (:func:`prism.vocabulary.number_formats.decide`).
        ambiguous_numbers: True when its cells did not settle ``decimal`` (a figure read with it must say so).
    """

    table_id: str
    page: int | None
    title: str | None
    column_headers: tuple[str, ...]
    unit: str | None
    currency: str | None
    rows: tuple[TableRow, ...]
    char_start: int
    char_end: int
    decimal: str = "."
    ambiguous_numbers: bool = False

    @property
    def index_header(self) -> str:
        """Title, column headers and unit joined with ``" | "``, the parts that are known; words of three or more
        that open every column header (a stitched caption over all columns) are said once, before the rest.

        Example: ``"CONSOLIDATED STATEMENTS OF OPERATIONS | 2015 | 2014 | 2013 | in thousands"``.
        """
        parts = [self.title] if self.title else []
        prefix, headers = common_prefix(self.column_headers)
        parts.extend([prefix] if prefix else [])
        parts.extend(h for h in headers if h)
        if self.unit:
            parts.append(f"in {self.unit}")
        return " | ".join(parts)


TABLE_METADATA_KEYS: tuple[str, ...] = (
    "table_id", "table_title", "table_columns", "table_unit", "table_currency", "table_row", "table_decimal",
    "table_numbers",
)
"""The flat metadata keys a table chunk carries in the vector store and its chunk row (only those with a value)."""


@dataclass(frozen=True)
class ChunkTable:
    """What a chunk of a table knows about its table: enough to name the row, column and unit of every figure in it.

    Attributes:
        table_id: the table's id within its document (``"p40-t1"``; ``"t1"`` for an unpaged text).
        index_header: the header embedded and BM25-indexed in front of the chunk's text, never stored as its text:
            ``"CONSOLIDATED STATEMENTS OF OPERATIONS | 2015 | 2014 | 2013 | in thousands"`` (``" | " + row label``
            for part of a row cut between its cells).
        title: the table's statement name or caption, or ``None``.
        column_headers: the headers of the columns the chunk holds (the periods), or ``()``.
        unit: ``thousands``, ``millions``, ``billions``, ``lakh``, ``crore`` or ``None``.
        currency: ISO 4217 code or ``None``.
        row_label: the row's label when the chunk is part of one row, else ``None``.
        decimal: the table's decimal mark, ``"."`` or ``","`` (:attr:`Table.decimal`).
        ambiguous_numbers: the table's cells did not settle ``decimal`` (:attr:`Table.ambiguous_numbers`).
        rows: the table's rows that lie in the chunk, with offsets *relative to the chunk's text*
            (``chunk.text[row.char_start:row.char_end]`` is the row's line; a cell span the same), so an answer can
            quote a row's label, the value under a column and that column's header without parsing the page again.
    """

    table_id: str
    index_header: str
    title: str | None
    column_headers: tuple[str, ...]
    unit: str | None
    currency: str | None
    row_label: str | None = None
    rows: tuple[TableRow, ...] = ()
    decimal: str = "."
    ambiguous_numbers: bool = False

    def metadata(self) -> dict[str, str]:
        """Flat metadata (:data:`TABLE_METADATA_KEYS`), only keys that have a value: ``table_columns`` is the column
        headers joined with ``" | "``; ``table_decimal`` is ``","`` for a table printed with decimal commas (absent
        for a decimal point); ``table_numbers`` is ``"ambiguous"`` when its cells did not settle it."""
        values = {
            "table_id": self.table_id,
            "table_title": self.title,
            "table_columns": " | ".join(self.column_headers),
            "table_unit": self.unit,
            "table_currency": self.currency,
            "table_row": self.row_label,
            "table_decimal": self.decimal if self.decimal != "." else None,
            "table_numbers": "ambiguous" if self.ambiguous_numbers else None,
        }
        return {k: v for k, v in values.items() if v}

    def to_dict(self) -> dict[str, Any]:
        """The chunk row's ``"table"`` object: ``{"id", "header", "title", "columns", "unit", "currency", "row_label",
        "decimal", "ambiguous_numbers", "rows": [{"label", "cells", "cell_spans", "start", "end"}]}`` (offsets
        relative to the chunk's text)."""
        return {
            "id": self.table_id, "header": self.index_header, "title": self.title,
            "columns": list(self.column_headers), "unit": self.unit, "currency": self.currency,
            "row_label": self.row_label, "decimal": self.decimal, "ambiguous_numbers": self.ambiguous_numbers,
            "rows": [{"label": r.label, "cells": list(r.cells), "cell_spans": [list(s) for s in r.cell_spans],
                      "start": r.char_start, "end": r.char_end} for r in self.rows],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChunkTable:
        """Inverse of :meth:`to_dict`."""
        rows = tuple(TableRow(str(r["label"]), tuple(r["cells"]), tuple((int(a), int(b)) for a, b in r["cell_spans"]),
                              int(r["start"]), int(r["end"])) for r in data.get("rows") or ())
        return cls(str(data["id"]), str(data.get("header") or ""), data.get("title"), tuple(data.get("columns") or ()),
                   data.get("unit"), data.get("currency"), data.get("row_label"), rows, data.get("decimal") or ".",
                   bool(data.get("ambiguous_numbers")))

    def with_decimal_point(self) -> ChunkTable:
        """This table with each cell written with a decimal point and comma groups, read with its own ``decimal``
        (:func:`prism.vocabulary.number_formats.house_marks`: "(612,8)" → "(612.8)", "1.234,5" → "1,234.5"), the
        form every reader of a cell parses; itself when its decimal mark is the point. Spans still index the
        printed text."""
        if self.decimal == ".":
            return self
        rows = tuple(replace(r, cells=tuple(number_formats.house_marks(c, self.decimal) for c in r.cells))
                     for r in self.rows)
        return replace(self, rows=rows, decimal=".")
