"""CSV rows as a :class:`~prism.types.Table`, so that CSV files are chunked and indexed like PDF tables.

Each data row is rendered as one line ``"header: value; header: value"`` with empty cells left out; rows are
separated by a newline. The first column is the row label; the other columns are the table's columns (the header
row gives the column headers), and each cell's span is its ``"header: value"`` segment, so a row cut between cells
keeps each value with its header. A value longer than ``max_cell_chars`` is split at word boundaries into pieces on
lines of their own, ``"header (part k of n): piece"``; its cell's span covers all of them (the row then spans several
lines).
"""

from __future__ import annotations

from collections.abc import Sequence

from prism.ingestion.tables.stored_text import currency_of, unit_of
from prism.types import Table, TableRow


def split_long(value: str, limit: int) -> list[str]:
    """Split ``value`` into pieces of at most ``limit`` characters, at the last space before the limit if any (past
    half of it), else at the limit."""
    pieces: list[str] = []
    rest = value
    while len(rest) > limit:
        cut = rest.rfind(" ", 0, limit + 1)
        if cut <= limit // 2:
            cut = limit
        pieces.append(rest[:cut].strip())
        rest = rest[cut:].strip()
    if rest:
        pieces.append(rest)
    return pieces


class _Row:
    """The text of one row as it is rendered, with the span of each of its segments (relative to the row)."""

    def __init__(self) -> None:
        self.text = ""
        self.line_open = False

    def add(self, name: str, value: str, max_cell_chars: int | None) -> tuple[int, int]:
        """Render one cell (``""`` renders nothing) and return its span within the row's text."""
        if not value:
            return len(self.text), len(self.text)
        if max_cell_chars is None or len(value) <= max_cell_chars:
            if self.line_open:
                self.text += "; "
            elif self.text:
                self.text += "\n"
            start = len(self.text)
            self.text += f"{name}: {value}"
            self.line_open = True
            return start, len(self.text)
        pieces = split_long(value, max_cell_chars)
        start = len(self.text) + (1 if self.text else 0)
        for k, piece in enumerate(pieces, start=1):
            self.text += ("\n" if self.text else "") + f"{name} (part {k} of {len(pieces)}): {piece}"
        self.line_open = False
        return start, len(self.text)


def table_from_csv_rows(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    title: str | None = None,
    table_id: str = "t1",
    max_cell_chars: int | None = None,
) -> tuple[str, Table]:
    """Render CSV rows as text and describe them as a table whose offsets index that text.

    Args:
        header: the column names (at least one); ``header[0]`` names the label column.
        rows: data rows; a short row is padded with empty cells, cells past ``len(header)`` are dropped.
        title: the table's title (e.g. the file name), or ``None``.
        table_id: the table's id.
        max_cell_chars: longest value rendered inline; longer ones are split into parts on lines of their own
            (``None``: never split).

    Returns:
        ``(text, table)``: rows joined with ``"\\n"``; ``table.rows[i]`` spans row ``i``'s text, its label is the first
        cell, its cells the others (``""`` when empty, with a zero-length span); ``column_headers == header[1:]``;
        unit and currency from the header names (``"Revenue (₹ crore)"`` → ``crore``, ``INR``). Rows without any
        cell are left out.

    Raises:
        ValueError: ``header`` is empty.
    """
    if not header:
        raise ValueError("a CSV table needs at least one column name")
    names = [" ".join(str(h).split()) for h in header]
    lines: list[str] = []
    table_rows: list[TableRow] = []
    pos = 0
    for raw in rows:
        values = [" ".join(str(v).split()) for v in list(raw)[: len(names)]]
        values += [""] * (len(names) - len(values))
        if not any(values):
            continue
        if lines:
            pos += 1  # the newline before this row
        row = _Row()
        spans = [row.add(name, value, max_cell_chars) for name, value in zip(names, values, strict=True)]
        spans = [(pos + s, pos + e) for s, e in spans]
        table_rows.append(TableRow(values[0], tuple(values[1:]), tuple(spans[1:]), pos, pos + len(row.text)))
        lines.append(row.text)
        pos += len(row.text)
    text = "\n".join(lines)
    joined = " ".join(names)
    table = Table(
        table_id, None, title, tuple(names[1:]), unit_of(joined), currency_of(joined), tuple(table_rows), 0, len(text)
    )
    return text, table
