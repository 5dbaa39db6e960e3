"""Spreadsheet exports that carry no live formula: the one sanitiser every CSV and XLSX export goes through.

Formula (CSV) injection, CWE-1236; OWASP "CSV Injection" (https://owasp.org/www-community/attacks/CSV_Injection);
OWASP Top 10 for LLM Applications 2025, LLM05 "Improper Output Handling". Document text reaches exported cells
(a comparison grid's answers, questions, file names): a cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or
a carriage return is read as a formula by Excel, LibreOffice and Google Sheets (``=HYPERLINK(...)`` sends data
away, ``@SUM(1+1)*cmd|' /C calc'!A0`` is a DDE payload). Following OWASP, such a text is written with a single
quote in front, in CSV and XLSX alike, so it reads as the same text in both; XLSX cells are moreover all typed
as strings (never a formula, never a number) with Excel's quote-prefix style on the prefixed ones.

Headers are cells too: every header and index value goes through :func:`spreadsheet_text`.
"""

from __future__ import annotations

import csv
import io
import math
import numbers
from collections.abc import Iterable, Sequence

FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
"""The first characters that make a spreadsheet read a cell as a formula (OWASP CSV Injection)."""

__all__ = ["FORMULA_TRIGGERS", "csv_bytes", "spreadsheet_text", "xlsx_bytes"]


def spreadsheet_text(value: object) -> str:
    """``value`` as the text of one exported cell, never a formula.

    ``None`` is ``""``. A text whose first character, or first after leading spaces or line breaks, is one of
    :data:`FORMULA_TRIGGERS` gets a ``'`` in front (``"=1+1"`` → ``"'=1+1"``, ``"-5"`` → ``"'-5"``,
    ``" @SUM(A1)"`` → ``"' @SUM(A1)"``); anything else is ``str(value)`` unchanged.
    """
    if value is None:
        return ""
    text = str(value)
    if text.startswith(FORMULA_TRIGGERS) or text.lstrip(" \n").startswith(FORMULA_TRIGGERS):
        return "'" + text
    return text


def _csv_value(value: object) -> object:
    """A genuine number (a :class:`numbers.Real` such as ``int``, ``float`` or a NumPy scalar, not ``bool``) stays
    a number in CSV: its written form is a numeric literal (``-0.25``), never a formula. NaN is an empty cell.
    Everything else, digits in a text included, is :func:`spreadsheet_text`."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        if math.isnan(value):
            return ""
        if math.isfinite(value):
            return value
    return spreadsheet_text(value)


def csv_bytes(header: Sequence[object], rows: Iterable[Sequence[object]]) -> bytes:
    """A CSV table (RFC 4180 quoting, ``\\r\\n`` line ends) in UTF-8 with a byte-order mark (so spreadsheet
    programs read the ₹ sign), every text cell and header passed through :func:`spreadsheet_text`.

    Args:
        header: the column names, written as the first row.
        rows: the rows, each as many values as ``header``; genuine numbers stay numeric (NaN is empty).
    """
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow([spreadsheet_text(h) for h in header])
    writer.writerows([_csv_value(v) for v in row] for row in rows)
    return buffer.getvalue().encode("utf-8-sig")


def xlsx_bytes(sheet: str, header: Sequence[object], rows: Iterable[Sequence[object]]) -> bytes:
    """An XLSX workbook with one sheet: ``header`` in bold in row 1, then ``rows``; every cell a string.

    Every value, numbers included, goes through :func:`spreadsheet_text` and is stored with the string type
    (``data_type == "s"``): openpyxl would otherwise store a text starting with ``=`` as a formula. A prefixed
    cell also has the quote-prefix style, so editing it in Excel keeps it text.

    Args:
        sheet: the sheet's name (at most 31 characters; Excel's rule).
        header, rows: as for :func:`csv_bytes`.
    """
    from openpyxl import Workbook  # imported on use, like pandas: the app starts without it
    from openpyxl.styles import Font

    book = Workbook()
    ws = book.worksheets[0]  # a new workbook's one sheet
    ws.title = sheet[:31]
    bold = Font(bold=True)
    for r, row in enumerate([list(header), *(list(x) for x in rows)], start=1):
        for c, value in enumerate(row, start=1):
            text = spreadsheet_text(value)
            cell = ws.cell(row=r, column=c)
            cell.value = text
            cell.data_type = "s"
            if text != ("" if value is None else str(value)):
                cell.quotePrefix = True
            if r == 1:
                cell.font = bold
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
