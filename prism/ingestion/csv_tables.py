"""CSV rows as a :class:`~prism.types.Table`, so that CSV files are chunked and indexed like PDF tables.

The text is rendered the way :mod:`prism.ingestion.parsing.csv` renders rows, one row per line: ``"header: value;
header: value"`` with empty cells left out. The first column is the row label; the other columns are the table's
columns, and each cell's span is its ``"header: value"`` segment, so a row cut between cells keeps each value with its
header.
"""

from __future__ import annotations

from collections.abc import Sequence

from prism.ingestion.tables import currency_of, unit_of
from prism.types import Table, TableRow


def table_from_csv_rows(
    header: Sequence[str], rows: Sequence[Sequence[str]], title: str | None = None, table_id: str = "t1"
) -> tuple[str, Table]:
    """Render CSV rows as text and describe them as a table whose offsets index that text.

    Args:
        header: the column names (at least one); ``header[0]`` names the label column.
        rows: data rows; a short row is padded with empty cells, cells past ``len(header)`` are dropped.
        title: the table's title (e.g. the file name), or ``None``.
        table_id: the table's id.

    Returns:
        ``(text, table)``: rows joined with ``"\\n"``; ``table.rows[i]`` spans row ``i``'s line, its label is the first
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
        line, spans = "", []
        for name, value in zip(names, values, strict=True):
            if value:
                line += ("; " if line else "") + f"{name}: {value}"
                spans.append((pos + len(line) - len(name) - 2 - len(value), pos + len(line)))
            else:
                spans.append((pos + len(line), pos + len(line)))
        table_rows.append(TableRow(values[0], tuple(values[1:]), tuple(spans[1:]), pos, pos + len(line)))
        lines.append(line)
        pos += len(line)
    text = "\n".join(lines)
    joined = " ".join(names)
    table = Table(
        table_id, None, title, tuple(names[1:]), unit_of(joined), currency_of(joined), tuple(table_rows), 0, len(text)
    )
    return text, table
