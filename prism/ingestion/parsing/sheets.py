"""Excel workbooks (.xlsx) with openpyxl: each sheet is a page holding one table, its rows numbered as Excel numbers
them.

Each visible sheet with data becomes a :class:`~prism.types.Page` (``number`` = the sheet's 1-based position in the
workbook, ``label`` = its name) whose text is the sheet's table rendered like a CSV file, one row per line ``"header:
value; header: value"`` (:mod:`prism.ingestion.parsing.blocks`), and a :class:`~prism.types.Table` whose rows carry
their spreadsheet row (:attr:`~prism.types.TableRow.source_row`), so a citation names the sheet and the rows
(``"Sheet 'Q3' row 14"``). How a sheet is read and laid out — rows counted by the data they hold, never by the
declared used range; merged and multi-row headers; hidden rows and columns left out; number formats as Excel shows
them; simple formulas without a cached value computed — is :mod:`prism.ingestion.parsing.excel`. Hidden sheets are
left out with a warning. Chosen by measurement over pandas ``read_excel`` (the same reader, number formats lost:
``0.255`` for 25.5 %) and markitdown: ``bench/formats.py``; reading speed: ``bench/sheets.py``.
"""

from __future__ import annotations

import io
import logging
import zipfile
from typing import Any

from prism.config import Settings
from prism.errors import CorruptDocumentError, NoExtractableTextError
from prism.ingestion.parsing.blocks import PageBuilder
from prism.ingestion.parsing.excel import format_cell, lay_out, read_sheet
from prism.ingestion.parsing.office import open_package_error
from prism.ingestion.parsing.zipguard import check_package
from prism.types import Page, ParsedDocument, SkippedPage, Table

logger = logging.getLogger(__name__)

__all__ = ["format_cell", "load_xlsx"]


def _sheet(book: Any, sheet: Any, number: int, name: str, settings: Settings
           ) -> tuple[str, tuple[Table, ...], list[str]]:
    """Text, tables and warnings of one visible sheet (``""`` when it holds no visible value)."""
    try:
        data = read_sheet(book, sheet, settings.sheet_max_rows)
    except (ValueError, KeyError, SyntaxError, zipfile.BadZipFile) as exc:
        raise CorruptDocumentError(f"{name}: sheet '{sheet.title}' is damaged and cannot be read "
                                   f"({type(exc).__name__}); check the file and upload it again") from exc
    warnings = [f"{name}: sheet '{sheet.title}' has more than {settings.sheet_max_rows:,} rows; only the first ones "
                "were read"] if data.cut else []
    layout = lay_out(data)
    if layout is None:
        return "", (), warnings
    warnings.extend(f"{name}: {note}" for note in layout.notes)
    builder = PageBuilder(number)
    for title in layout.titles:
        builder.paragraph(title)
    builder.table(layout.header, layout.rows, title=sheet.title, source_rows=layout.source_rows)
    text, tables = builder.build()
    return text, tables, warnings


def load_xlsx(data: bytes, name: str, settings: Settings) -> ParsedDocument:
    """Load a workbook: one page per sheet with data, named by the sheet.

    Args:
        data: the file's bytes (an OOXML package; the registry has checked that).
        name: display name (``source``).
        settings: ``sheet_max_rows`` (rows read per sheet).

    Returns:
        ``ParsedDocument(kind="xlsx")``: a page per sheet with data (``number`` its position, ``label`` its name),
        ``total_pages`` = sheets in the workbook, empty and hidden sheets in ``skipped_pages``, one table per page,
        and warnings: a sheet cut at ``sheet_max_rows`` rows holding data, a hidden sheet, hidden rows or columns
        left out, formula cells without a saved value (computed, or how many are empty and where).

    Raises:
        CorruptDocumentError: openpyxl cannot open the workbook, or a sheet's XML is damaged.
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
            if sheet.sheet_state != "visible":
                skipped.append(SkippedPage(number, f"sheet '{sheet.title}' is hidden"))
                warnings.append(f"{name}: hidden sheet '{sheet.title}' left out, as Excel does not show it")
                continue
            text, found, notes = _sheet(book, sheet, number, name, settings)
            warnings.extend(notes)
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
