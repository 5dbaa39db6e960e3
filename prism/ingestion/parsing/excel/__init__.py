"""Excel workbooks read the way Excel shows them: a sheet's cells from its XML (:mod:`.reader`), number formats
(:mod:`.numfmt`), simple formulas without a cached value (:mod:`.formulas`) and the sheet laid out as a table with
its merged, multi-row header (:mod:`.layout`). The loader is :mod:`prism.ingestion.parsing.sheets`. Imports openpyxl,
the ground floor and :mod:`prism.ingestion.tables.grid`.
"""

from __future__ import annotations

from prism.ingestion.parsing.excel.layout import SheetLayout, lay_out
from prism.ingestion.parsing.excel.numfmt import format_cell, format_number
from prism.ingestion.parsing.excel.reader import SheetData, read_sheet

__all__ = ["SheetData", "SheetLayout", "format_cell", "format_number", "lay_out", "read_sheet"]
