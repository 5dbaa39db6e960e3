"""One worksheet read lazily from its XML: the cells that hold data, and what the read-only worksheet drops.

openpyxl's read-only worksheet trusts the sheet's declared dimension (``<dimension ref="A1:XFD1048576"/>``, which one
formatted empty cell in the last row or column inflates) and pads every row to it, so a four-row sheet took 80 s and
was reported as "more than 100,000 rows"; it also drops what its parser reads beyond values (merged ranges, hidden
rows and columns) and, with cached values only, the text of a formula Excel never computed. :func:`read_sheet` runs
the same parser (``openpyxl.worksheet._reader.WorkSheetParser``, openpyxl 3.1, pinned in the lock files) itself: it
keeps only the cells that hold a value, counts rows that hold data (never the declared dimension), and keeps the
merged ranges, the hidden rows and columns and the formulas without a cached value. Rows are read in file order and
never padded, so the time is proportional to the cells written in the file.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from openpyxl.cell.read_only import ReadOnlyCell
from openpyxl.worksheet._reader import FORMULA_TAG, WorkSheetParser

logger = logging.getLogger(__name__)

_TRUE = ("1", "true")


@dataclasses.dataclass
class SheetData:
    """What one sheet holds.

    Attributes:
        title: the sheet's name.
        values: ``{(row, column): value}`` of cells holding a value (1-based), formula cells without a cached value
            excluded; text as stored, numbers, booleans, datetimes.
        formats: ``{(row, column): number format}`` of the numeric and formula cells (``"0.0%"``; ``"General"`` left
            out).
        formulas: ``{(row, column): formula}`` of formula cells without a cached value (``"=SUM(B3:B5)"``).
        hidden_rows: rows marked hidden (``<row hidden="1">``), whatever they hold.
        hidden_columns: ``(first, last)`` column ranges marked hidden (``<col hidden="1">``), 1-based, inclusive.
        merged: ``(min_row, min_col, max_row, max_col)`` of each merged range.
        cut: ``True`` when reading stopped at ``max_rows`` rows holding data (the merged ranges, listed after the
            rows in the file, are then not known).
    """

    title: str
    values: dict[tuple[int, int], Any] = dataclasses.field(default_factory=dict)
    formats: dict[tuple[int, int], str] = dataclasses.field(default_factory=dict)
    formulas: dict[tuple[int, int], str] = dataclasses.field(default_factory=dict)
    hidden_rows: set[int] = dataclasses.field(default_factory=set)
    hidden_columns: list[tuple[int, int]] = dataclasses.field(default_factory=list)
    merged: list[tuple[int, int, int, int]] = dataclasses.field(default_factory=list)
    cut: bool = False

    def column_hidden(self, column: int) -> bool:
        """True when ``column`` (1-based) is in a hidden range."""
        return any(first <= column <= last for first, last in self.hidden_columns)

    def rows(self) -> list[int]:
        """The numbers of the rows holding a value or a formula, ascending."""
        return sorted({r for r, _ in self.values} | {r for r, _ in self.formulas})


class _Parser(WorkSheetParser):
    """openpyxl's sheet parser, reading cached values and keeping the formula of a cell that has none."""

    def parse_cell(self, element: Any) -> dict[str, Any]:
        cell = super().parse_cell(element)
        if cell["value"] is None and element.find(FORMULA_TAG) is not None:
            formula = self.parse_formula(element)
            cell["formula"] = formula if isinstance(formula, str) else str(getattr(formula, "text", formula))
        return cell


def _hidden_columns(dimensions: dict[str, dict[str, str]]) -> list[tuple[int, int]]:
    return [(int(a["min"]), int(a.get("max", a["min"]))) for a in dimensions.values()
            if a.get("hidden", "").lower() in _TRUE and a.get("min", "").isdigit()]


def _keep(data: SheetData, sheet: Any, number: int, cells: list[dict[str, Any]]) -> bool:
    """Store the cells of row ``number`` that hold something; ``True`` when there was one."""
    held = False
    for cell in cells:
        formula = cell.pop("formula", None)
        value = cell["value"]
        key = (number, cell["column"])
        if formula is not None:
            data.formulas[key] = formula
        elif value is None or (isinstance(value, str) and not value.strip()):
            continue
        else:
            data.values[key] = value
        if formula is not None or (isinstance(value, int | float) and not isinstance(value, bool)):
            fmt = ReadOnlyCell(sheet, **cell).number_format
            if fmt and fmt != "General":
                data.formats[key] = fmt
        held = True
    return held


def read_sheet(book: Any, sheet: Any, max_rows: int) -> SheetData:
    """Read one sheet of a read-only workbook.

    Args:
        book: the ``openpyxl`` workbook, opened with ``read_only=True, data_only=True``.
        sheet: one of its ``ReadOnlyWorksheet`` objects.
        max_rows: rows holding data to read; reading stops at the next one.

    Returns:
        The sheet's :class:`SheetData`.

    Raises:
        The parser's own errors for damaged XML (``ValueError``, ``KeyError``, ``SyntaxError`` subclasses); the loader
        translates them.
    """
    data = SheetData(sheet.title)
    held, columns_read = 0, False
    with sheet._get_source() as source:  # the read-only worksheet's part of the package
        parser = _Parser(source, sheet._shared_strings, data_only=True, epoch=book.epoch,
                         date_formats=book._date_formats, timedelta_formats=book._timedelta_formats)
        for number, cells in parser.parse():
            if not columns_read:  # <cols> precede <sheetData>
                data.hidden_columns, columns_read = _hidden_columns(parser.column_dimensions), True
            attrs = parser.row_dimensions.get(str(number), {})
            if not _keep(data, sheet, number, cells):
                continue
            held += 1
            if held > max_rows:
                for key in [k for k in (*data.values, *data.formulas) if k[0] == number]:
                    data.values.pop(key, None)
                    data.formulas.pop(key, None)
                    data.formats.pop(key, None)
                data.cut = True
                break
            if attrs.get("hidden", "").lower() in _TRUE:
                data.hidden_rows.add(number)
        if parser.merged_cells is not None:
            data.merged = [(r.min_row, r.min_col, r.max_row, r.max_col) for r in _ranges(parser.merged_cells)]
    logger.debug("sheet %r: %d rows with data, %d formulas without a value", sheet.title, held, len(data.formulas))
    return data


def _ranges(merged: Any) -> list[Any]:
    from openpyxl.worksheet.cell_range import CellRange

    return [CellRange(m.ref) for m in merged.mergeCell]
