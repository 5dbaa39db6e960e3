"""Tables read from a document's stored text: rows with their label, cells, column headers (the periods) and unit.

Found by :mod:`prism.ingestion.tables`; offsets index the stored page text, so a table chunk is a contiguous span of
rows (``page_text[row.char_start:row.char_end]`` is the row's line).
"""

from __future__ import annotations

from dataclasses import dataclass


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

    @property
    def index_header(self) -> str:
        """Title, column headers and unit joined with ``" | "``, the parts that are known.

        Example: ``"CONSOLIDATED STATEMENTS OF OPERATIONS | 2015 | 2014 | 2013 | in thousands"``.
        """
        parts = [self.title] if self.title else []
        parts.extend(h for h in self.column_headers if h)
        if self.unit:
            parts.append(f"in {self.unit}")
        return " | ".join(parts)
