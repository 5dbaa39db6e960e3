"""Exports of a comparison grid: CSV, XLSX (pandas with openpyxl) and Markdown.

Each is one table, a row per question (a template's placeholders shown as ``[period]``:
:func:`~prism.answering.compare.templates.row_label`) and a column per document. A cell whose question was filled
from its document's profile starts with that question, ``"[What was revenue in FY2022?] "`` (issue 31). A found
cell reads ``"<short answer> (file p. N; file p. M)"``, a not-found cell ``"Not found in this document."`` (with
the closest passage as ``"closest: file p. N"``), an error cell ``"Error: <message>"``, a cell not answered yet ``""``.

CSV and XLSX carry no live formula (CWE-1236, OWASP "CSV Injection"): every cell, the headers (file names) and the
questions go through :mod:`prism.types.spreadsheets`, so an answer quoting ``=HYPERLINK(...)`` from a document is
written as ``'=HYPERLINK(...)``, and every XLSX cell is a string. Markdown has no formulas and is written as is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prism.answering.compare.templates import row_label
from prism.types import CompareCell, CompareGrid, csv_bytes, xlsx_bytes

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["cell_text", "grid_csv", "grid_frame", "grid_markdown", "grid_xlsx"]


def cell_text(cell: CompareCell | None) -> str:
    """One cell as exported (see the module docstring)."""
    if cell is None:
        return ""
    asked = f"[{cell.asked}] " if cell.asked and cell.asked != cell.question.strip() else ""
    if cell.status == "error":
        return f"{asked}Error: {cell.answer}"
    if cell.status == "not_found":
        return asked + cell.answer + (f" (closest: {cell.closest.label()})" if cell.closest else "")
    period = f"[{cell.period}] " if cell.period and not asked else ""
    labels = cell.citation_labels()
    return f"{asked}{period}{cell.answer}" + (f" ({labels})" if labels else "")


def grid_frame(grid: CompareGrid) -> pd.DataFrame:
    """The grid as a DataFrame: index ``question`` (the rows), one column per document (file name)."""
    import pandas as pd  # imported on use: pandas takes half a second to import and the app starts without it

    data = {doc: [cell_text(grid.cell(doc, q)) for q in grid.questions] for doc in grid.documents}
    return pd.DataFrame(data, index=pd.Index([row_label(q) for q in grid.questions], name="question"))


def _table(grid: CompareGrid) -> tuple[list[str], list[list[str]]]:
    """The header (``question`` then the file names) and one row per question, as exported."""
    rows = [[row_label(q), *(cell_text(grid.cell(doc, q)) for doc in grid.documents)] for q in grid.questions]
    return ["question", *grid.documents], rows


def grid_csv(grid: CompareGrid) -> bytes:
    """The grid as UTF-8 CSV (with a byte-order mark, so spreadsheet programs read the ₹ sign); no cell or header
    is a formula (:func:`prism.types.spreadsheets.csv_bytes`)."""
    return csv_bytes(*_table(grid))


def grid_xlsx(grid: CompareGrid) -> bytes:
    """The grid as an XLSX workbook: one sheet named "Comparison", the questions in column A, every cell a string
    and none a formula (:func:`prism.types.spreadsheets.xlsx_bytes`)."""
    return xlsx_bytes("Comparison", *_table(grid))


def _md(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def grid_markdown(grid: CompareGrid) -> str:
    """The grid as a Markdown document: its title, then a pipe table (``|`` in cells escaped)."""
    head = ["question", *grid.documents]
    lines = [f"# {grid.title or 'Comparison'}", "", "| " + " | ".join(_md(h) for h in head) + " |",
             "|" + "---|" * len(head)]
    for q in grid.questions:
        cells = [row_label(q), *(cell_text(grid.cell(d, q)) for d in grid.documents)]
        lines.append("| " + " | ".join(_md(x) for x in cells) + " |")
    return "\n".join(lines) + "\n"
