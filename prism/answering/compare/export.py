"""Exports of a comparison grid: CSV, XLSX (pandas with openpyxl) and Markdown.

Each is one table, a row per question (a template's placeholders in words, "in each document's fiscal period":
:func:`~prism.answering.compare.templates.row_label`; no export carries a placeholder) and a column per document,
headed by the document's display title with its file name in brackets (``titles``: ``{file name: title}`` from the
facade's one display rule, :func:`prism.service.document_title`; a document whose title is its file name is headed
by the file name). A cell whose question was filled from its document's profile starts with that question,
``"[What was revenue in FY2022?] "`` (the reader sees the question actually asked, never a template); a cell whose
document's profile could not fill a placeholder says so in words
(:func:`~prism.answering.compare.templates.missing_text`). A found cell reads ``"<short answer> (title p. N; title
p. M)"``, a not-found cell ``"Not found in this document."`` (with the closest passage as ``"closest: title p.
N"``), an error cell ``"Error: <message>"``, a cell not answered yet ``""``.

CSV and XLSX carry no live formula (CWE-1236, OWASP "CSV Injection"): every cell, the headers (titles, file names)
and the questions go through :mod:`prism.types.spreadsheets`, so an answer quoting ``=HYPERLINK(...)`` from a document
is written as ``'=HYPERLINK(...)``, and every XLSX cell is a string. Markdown has no formulas and is written as is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from prism.answering.compare.templates import row_label
from prism.types import CompareCell, CompareGrid, csv_bytes, xlsx_bytes

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["cell_text", "column_name", "grid_csv", "grid_frame", "grid_markdown", "grid_xlsx"]


Titles = Mapping[str, str]
"""``{file name: display title}``; a file name missing from it is its own title."""


def cell_text(cell: CompareCell | None, titles: Titles | None = None) -> str:
    """One cell as exported (see the module docstring)."""
    if cell is None:
        return ""
    asked = f"[{cell.asked}] " if cell.asked and cell.asked != cell.question.strip() else ""
    if cell.status == "error":
        return f"{asked}Error: {cell.answer}"
    if cell.status == "not_found":
        return asked + cell.answer + (f" (closest: {cell.closest.label(titles)})" if cell.closest else "")
    period = f"[{cell.period}] " if cell.period and not asked else ""
    labels = cell.citation_labels(titles)
    return f"{asked}{period}{cell.answer}" + (f" ({labels})" if labels else "")


def column_name(source: str, titles: Titles | None = None) -> str:
    """A document's column header: ``"title (file name)"``, or the file name when it is its own title."""
    title = (titles or {}).get(source, source)
    return source if title == source else f"{title} ({source})"


def grid_frame(grid: CompareGrid, titles: Titles | None = None) -> pd.DataFrame:
    """The grid as a DataFrame: index ``question`` (the rows), one column per document (:func:`column_name`)."""
    import pandas as pd  # imported on use: pandas takes half a second to import and the app starts without it

    data = {column_name(doc, titles): [cell_text(grid.cell(doc, q), titles) for q in grid.questions]
            for doc in grid.documents}
    return pd.DataFrame(data, index=pd.Index([row_label(q) for q in grid.questions], name="question"))


def _table(grid: CompareGrid, titles: Titles | None) -> tuple[list[str], list[list[str]]]:
    """The header (``question`` then the documents' :func:`column_name`) and one row per question, as exported."""
    rows = [[row_label(q), *(cell_text(grid.cell(doc, q), titles) for doc in grid.documents)]
            for q in grid.questions]
    return ["question", *(column_name(doc, titles) for doc in grid.documents)], rows


def grid_csv(grid: CompareGrid, titles: Titles | None = None) -> bytes:
    """The grid as UTF-8 CSV (with a byte-order mark, so spreadsheet programs read the ₹ sign); no cell or header
    is a formula (:func:`prism.types.spreadsheets.csv_bytes`), titles included."""
    return csv_bytes(*_table(grid, titles))


def grid_xlsx(grid: CompareGrid, titles: Titles | None = None) -> bytes:
    """The grid as an XLSX workbook: one sheet named "Comparison", the questions in column A, every cell a string
    and none a formula (:func:`prism.types.spreadsheets.xlsx_bytes`), titles included."""
    return xlsx_bytes("Comparison", *_table(grid, titles))


def _md(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def grid_markdown(grid: CompareGrid, titles: Titles | None = None) -> str:
    """The grid as a Markdown document: its title, then a pipe table (``|`` in cells escaped)."""
    head, rows = _table(grid, titles)
    lines = [f"# {grid.title or 'Comparison'}", "", "| " + " | ".join(_md(h) for h in head) + " |",
             "|" + "---|" * len(head)]
    for row in rows:
        lines.append("| " + " | ".join(_md(x) for x in row) + " |")
    return "\n".join(lines) + "\n"
