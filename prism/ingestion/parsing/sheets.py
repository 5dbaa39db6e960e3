"""Excel workbooks (.xlsx) with openpyxl: each sheet is a page holding one table, its rows numbered as Excel numbers
them.

Each sheet with data becomes a :class:`~prism.types.Page` (``number`` = the sheet's 1-based position in the workbook,
``label`` = its name) whose text is the sheet's table rendered like a CSV file, one row per line ``"header: value;
header: value"`` (:mod:`prism.ingestion.parsing.blocks`), and a :class:`~prism.types.Table` whose rows carry their
spreadsheet row (:attr:`~prism.types.TableRow.source_row`), so a citation names the sheet and the rows
(``"Sheet 'Q3' row 14"``). The header row is the first row with at least two cells that are all text (rows above
it, such as a report title, open the page as a paragraph); columns empty in every row are dropped.

Cells are read as Excel stored them (``data_only``: a formula gives the value Excel last computed; a workbook
written by a program that never computed its formulas has none, and those cells are empty). Values are shown as
Excel formats them where it matters for figures: percentages (``0.0%`` → ``"25.5%"``), thousands separators
(``#,##0`` → ``"1,234"``), fixed decimals, dates as ISO dates; other numbers in their shortest exact form.
Chosen by measurement over pandas ``read_excel`` (the same reader, number formats lost: ``0.255`` for 25.5 %) and
markitdown: ``bench/formats.py``.
"""

from __future__ import annotations

import datetime as dt
import io
import logging
import re
import zipfile
from collections.abc import Sequence
from typing import Any

from prism.config import Settings
from prism.errors import NoExtractableTextError
from prism.ingestion.parsing.blocks import PageBuilder
from prism.ingestion.parsing.office import open_package_error
from prism.ingestion.parsing.zipguard import check_package
from prism.types import Page, ParsedDocument, SkippedPage, Table

logger = logging.getLogger(__name__)

_DECIMALS = re.compile(r"\.(0+)")


def format_cell(value: Any, number_format: str = "General") -> str:
    """A cell's value as text, formatted the way its Excel number format shows figures.

    Args:
        value: what openpyxl read (``None``, ``str``, ``int``, ``float``, ``bool``, ``datetime``/``date``/``time``).
        number_format: the cell's Excel number format (``"General"``, ``"0.0%"``, ``"#,##0.00"``, ``"yyyy-mm-dd"``).

    Returns:
        ``""`` for ``None``; ``"TRUE"``/``"FALSE"``; ISO dates (``"2024-12-31"``, with ``"HH:MM"`` when the time is
        not midnight); numbers: percent formats multiply by 100 and keep the format's decimals (``0.255``, ``"0.0%"``
        → ``"25.5%"``), a format with ``,`` groups thousands, a format's decimals are kept (``"0.00"`` → ``"3.40"``);
        otherwise integers as integers and floats in their shortest form (``568.0`` → ``"568"``, ``594.3`` →
        ``"594.3"``).
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if not isinstance(value, int | float):
        return str(value)
    fmt = (number_format or "General").split(";")[0]
    if fmt == "General" or not any(ch in fmt for ch in "0#"):
        return str(int(value)) if float(value).is_integer() else f"{value:.15g}"
    match = _DECIMALS.search(fmt)
    decimals = len(match.group(1)) if match else 0
    if "%" in fmt:
        return f"{value * 100:.{decimals}f}%"
    return f"{value:,.{decimals}f}" if "," in fmt else f"{value:.{decimals}f}"


def _header_index(rows: Sequence[Sequence[str]], raw: Sequence[Sequence[Any]]) -> int:
    """Index of the header row: the first with at least two non-empty cells that are all text, else the first
    non-empty row."""
    for i, row in enumerate(raw):
        filled = [v for v in row if v is not None and str(v).strip()]
        if len(filled) >= 2 and all(isinstance(v, str) for v in filled):
            return i
    return next(i for i, row in enumerate(rows) if any(row))


def _sheet_page(number: int, title: str, cells: list[tuple[int, list[Any], list[str]]]
                ) -> tuple[str, tuple[Table, ...]]:
    """Text and table of one sheet from its non-empty rows ``(row number, raw values, shown values)``."""
    width = max(len(shown) for _, _, shown in cells)
    used = [c for c in range(width) if any(c < len(shown) and shown[c] for _, _, shown in cells)]
    shown_rows = [[shown[c] if c < len(shown) else "" for c in used] for _, _, shown in cells]
    raw_rows = [[raw[c] if c < len(raw) else None for c in used] for _, raw, _ in cells]
    head = _header_index(shown_rows, raw_rows)
    builder = PageBuilder(number)
    for row in shown_rows[:head]:
        builder.paragraph(" ".join(v for v in row if v))
    builder.table(shown_rows[head], shown_rows[head + 1 :], title=title,
                  source_rows=[n for n, _, _ in cells[head + 1 :]])
    return builder.build()


def _read_sheet(sheet: Any, max_rows: int) -> tuple[list[tuple[int, list[Any], list[str]]], bool]:
    """The sheet's non-empty rows as ``(row number, raw values, shown values)`` and whether ``max_rows`` cut it."""
    cells: list[tuple[int, list[Any], list[str]]] = []
    for number, row in enumerate(sheet.iter_rows(), start=1):
        if number > max_rows:
            return cells, True
        raw = [c.value for c in row]
        if all(v is None or v == "" for v in raw):
            continue
        shown = [" ".join(v.split()) if isinstance(v, str) else  # the number format only matters for numbers
                 format_cell(v, c.number_format if isinstance(v, int | float) else "General")
                 for c, v in zip(row, raw, strict=True)]
        if any(shown):
            cells.append((number, raw, shown))
    return cells, False


def load_xlsx(data: bytes, name: str, settings: Settings) -> ParsedDocument:
    """Load a workbook: one page per sheet with data, named by the sheet.

    Args:
        data: the file's bytes (an OOXML package; the registry has checked that).
        name: display name (``source``).
        settings: ``sheet_max_rows`` (rows read per sheet).

    Returns:
        ``ParsedDocument(kind="xlsx")``: a page per sheet with data (``number`` its position, ``label`` its name),
        ``total_pages`` = sheets in the workbook, empty sheets in ``skipped_pages``, one table per page, and a
        warning for each sheet cut at ``sheet_max_rows``.

    Raises:
        CorruptDocumentError: openpyxl cannot open the workbook.
        NoExtractableTextError: no sheet holds any value.
        FileTooLargeError, UnsupportedFileError: the ZIP guard refused it (:mod:`~prism.ingestion.parsing.zipguard`).
    """
    from openpyxl import load_workbook

    check_package(data, name, ".xlsx", settings)

    try:
        book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, TypeError, OSError) as exc:
        raise open_package_error(name, ".xlsx", exc) from exc
    pages: list[Page] = []
    tables: list[Table] = []
    skipped: list[SkippedPage] = []
    warnings: list[str] = []
    try:
        sheets = list(book.worksheets)
        for number, sheet in enumerate(sheets, start=1):
            cells, cut = _read_sheet(sheet, settings.sheet_max_rows)
            if cut:
                warnings.append(f"{name}: sheet '{sheet.title}' has more than {settings.sheet_max_rows:,} rows; only "
                                "the first ones were read")
            text, found = _sheet_page(number, sheet.title, cells) if cells else ("", ())
            if not text:
                skipped.append(SkippedPage(number, f"sheet '{sheet.title}' holds no data"))
                continue
            pages.append(Page(number, text, label=sheet.title))
            tables.extend(found)
    finally:
        book.close()
    if not pages:
        raise NoExtractableTextError(f"{name} has no values in any of its {len(sheets)} sheets")
    logger.info("%s: %d sheets, %d with data, %d rows", name, len(sheets), len(pages),
                sum(len(t.rows) for t in tables))
    return ParsedDocument(source=name, kind="xlsx", pages=tuple(pages), total_pages=len(sheets),
                          skipped_pages=tuple(skipped), warnings=tuple(warnings), tables=tuple(tables))
