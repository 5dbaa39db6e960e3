"""Excel fidelity: merged and two-level headers, no column lost to an empty header cell, formulas without a cached
value, the used range read from the data, number formats as Excel shows them, hidden sheets, rows and columns; HTML
tables with colspan / rowspan as tables.

The case files (``tests/fixtures/cases/c5*.xlsx``) are copies of the project's third batch; the other workbooks are
built here with openpyxl, which writes formulas without a cached value as a program does.
"""

from __future__ import annotations

import time

import pytest
from openpyxl import Workbook

from prism.config import Settings
from prism.ingestion import parsing
from prism.ingestion.parsing.excel import format_number
from tests.conftest import CASES
from tests.ingestion import office_files as files

NO_OCR = Settings(ocr_enabled=False)


def _load(path_or_bytes, name: str | None = None, settings: Settings = NO_OCR):
    if isinstance(path_or_bytes, bytes):
        return parsing.load(path_or_bytes, name or "book.xlsx", settings)
    return parsing.load(path_or_bytes.read_bytes(), path_or_bytes.name, settings)


def _lines(doc, page: int = 0) -> list[str]:
    return doc.pages[page].text.split("\n")


# --- 1. merged, two-level headers -----------------------------------------------------------------------------------
def test_c56_merged_two_level_header_names_every_column():
    doc = _load(CASES / "c56_merged_header.xlsx")
    (table,) = doc.tables
    assert table.column_headers == ("Revenue (Rs. crore) FY2024", "Revenue (Rs. crore) FY2023",
                                    "Net profit (Rs. crore) FY2024", "Net profit (Rs. crore) FY2023")
    assert (table.unit, doc.warnings) == ("crore", ())
    assert _lines(doc)[0] == ("Segment: Retail banking; Revenue (Rs. crore) FY2024: 1840; Revenue (Rs. crore) FY2023: "
                              "1615; Net profit (Rs. crore) FY2024: 262; Net profit (Rs. crore) FY2023: 231")
    retail = table.rows[0]
    assert (retail.label, retail.cells, retail.source_row) == ("Retail banking", ("1840", "1615", "262", "231"), 3)
    text = doc.pages[0].text
    assert text[slice(*retail.cell_spans[3])] == "Net profit (Rs. crore) FY2023: 231"
    assert [r.source_row for r in table.rows] == [3, 4, 5]


def test_two_level_header_without_merges_and_a_merged_label_over_data_rows():
    """A label "centred across the selection" (no merge) still spans its sub-columns; a segment merged over two
    data rows labels both."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Segment", "Product", "Advances", None, "NPA (%)", None])
    ws.append([None, None, "FY2024", "FY2023", "FY2024", "FY2023"])
    ws.append(["Retail", "Housing", 18420, 15960, 0.9, 1.1])
    ws.append([None, "Vehicle", 6135, 5210, 2.7, 3.4])
    doc = _load(files.save(wb))
    assert doc.tables[0].column_headers == ("Product", "Advances FY2024", "Advances FY2023", "NPA (%) FY2024",
                                            "NPA (%) FY2023")
    ws.merge_cells("A3:A4")
    ws.merge_cells("C1:D1")
    ws.merge_cells("E1:F1")
    merged = _load(files.save(wb))
    assert _lines(merged) == [
        "Segment: Retail; Product: Housing; Advances FY2024: 18420; Advances FY2023: 15960; NPA (%) FY2024: 0.9; "
        "NPA (%) FY2023: 1.1",
        "Segment: Retail; Product: Vehicle; Advances FY2024: 6135; Advances FY2023: 5210; NPA (%) FY2024: 2.7; "
        "NPA (%) FY2023: 3.4"]


def test_a_text_table_is_not_taken_for_a_two_level_header():
    wb = Workbook()
    ws = wb.active
    ws.append(["Item", "Note"])
    ws.append(["Source", "Branch MIS"])
    ws.append(["Owner", "Treasury"])
    doc = _load(files.save(wb))
    assert doc.tables[0].column_headers == ("Note",) and _lines(doc) == ["Item: Source; Note: Branch MIS",
                                                                         "Item: Owner; Note: Treasury"]


# --- 2. no data column dropped for an empty header cell -------------------------------------------------------------
def test_no_data_column_is_dropped_because_its_header_cell_is_empty():
    wb = Workbook()
    ws = wb.active
    ws.append(["Branch", "Deposits", None, "Advances", None])
    ws.append(["Pune", 1200, 1100, 900, 870])
    ws.append(["Thane", 800, 760, 640, 610])
    doc = _load(files.save(wb))
    assert doc.tables[0].column_headers == ("Deposits", "column C", "Advances", "column E")
    assert _lines(doc)[0] == "Branch: Pune; Deposits: 1200; column C: 1100; Advances: 900; column E: 870"


# --- 3. formulas without a cached value -----------------------------------------------------------------------------
def test_c55_simple_formulas_are_computed_and_said_so():
    doc = _load(CASES / "c55_formulas_nocache.xlsx")
    assert _lines(doc)[-2:] == ["Branch: Total deposits; Deposits FY2024: 885; Deposits FY2023: 818",
                                "Branch: Growth in total deposits (%); Deposits FY2024: 8.2"]  # ROUND(67/818*100, 1)
    assert doc.warnings == ("c55_formulas_nocache.xlsx: sheet 'Deposits': 3 formula cells had no value saved by "
                            "Excel; Prism computed them (B6, C6, B7)",)


def test_formulas_that_cannot_be_computed_are_counted_and_named():
    wb = Workbook()
    ws = wb.active
    ws.title = "Fees"
    ws.append(["Product", "Fee", "Share"])
    ws.append(["Card", 120, None])
    ws.append(["Loan", 80, None])
    ws["C2"] = "=B2/SUM($B$2:$B$3)"
    ws["C2"].number_format = "0.0%"
    ws["C3"] = "=VLOOKUP(A3,Rates!A:B,2,FALSE)"
    ws.append(["Total", "=B2+B3", "=C2/0"])
    for row in range(5, 12):
        ws.append([f"Item {row}", f"=Other!B{row}", None])
    doc = _load(files.save(wb), "fees.xlsx")
    assert _lines(doc)[:3] == ["Product: Card; Fee: 120; Share: 60.0%", "Product: Loan; Fee: 80",
                               "Product: Total; Fee: 200"]
    assert doc.warnings == (
        "fees.xlsx: sheet 'Fees': 2 formula cells had no value saved by Excel; Prism computed them (C2, B4)",
        "fees.xlsx: sheet 'Fees': 9 formula cells have no value saved by Excel and are empty here (C3, C4, B5, B6, "
        "B7, …); open the workbook in Excel and save it to store the values")


# --- 4. the used range comes from the data --------------------------------------------------------------------------
@pytest.mark.parametrize("case", ["c58_used_range_rows.xlsx", "c58_used_range_wide.xlsx"])
def test_c58_an_inflated_used_range_reads_the_four_real_rows(case):
    start = time.perf_counter()
    doc = _load(CASES / case)
    elapsed = time.perf_counter() - start
    assert _lines(doc) == ["Card variant: Classic; Daily ATM limit (Rs.): 25000; Daily POS limit (Rs.): 50000",
                           "Card variant: Platinum; Daily ATM limit (Rs.): 75000; Daily POS limit (Rs.): 200000",
                           "Card variant: Business; Daily ATM limit (Rs.): 100000; Daily POS limit (Rs.): 500000"]
    assert doc.warnings == () and [r.source_row for r in doc.tables[0].rows] == [2, 3, 4]
    assert elapsed < 30, "finishes (it padded 1,048,576 rows to 16,384 columns before: 80 s)"  # bench/sheets.py


def test_the_row_limit_counts_rows_that_hold_data():
    """Eleven rows hold data, every other row from 1 to 21, under a used range inflated to XFD1048576."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Limits"
    ws.append(["Card", "Limit"])
    for i in range(10):
        ws.cell(3 + 2 * i, 1, f"Card {i}")
        ws.cell(3 + 2 * i, 2, 1000 * (i + 1))
    ws["XFD1048576"].number_format = "0.00"  # a formatted empty cell
    data = files.save(wb)
    doc = _load(data, "limits.xlsx", Settings(ocr_enabled=False, sheet_max_rows=11))
    assert [r.source_row for r in doc.tables[0].rows] == list(range(3, 22, 2)) and doc.warnings == ()
    cut = _load(data, "limits.xlsx", Settings(ocr_enabled=False, sheet_max_rows=10))
    assert [r.source_row for r in cut.tables[0].rows] == list(range(3, 20, 2))
    assert cut.warnings == ("limits.xlsx: sheet 'Limits' has more than 10 rows; only the first ones were read",)


# --- 5. number formats ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("value", "fmt", "shown"), [
    (0.1234, "0.0%", "12.3%"), (0.255, "0%", "26%"), (1234567, "#,##0", "1,234,567"), (3.4, "0.00", "3.40"),
    (2.675, "0.00", "2.68"), (-1234.5, "#,##0.00;(#,##0.00)", "(1,234.50)"), (-5, "#,##0;[Red](#,##0)", "(5)"),
    (-5, "#,##0", "-5"), (0, '#,##0;(#,##0);"-"', "-"), (1234.5, '"$"#,##0.00', "$1,234.50"),
    (1234.5, "[$₹-4009] #,##0.00", "₹ 1,234.50"), (1234.5, "[$-409]#,##0", "1,235"), (1234567890, '#,##0,,"M"',
                                                                                       "1,235M"),
    (12345, "0.0,", "12.3"), (1234567.891, '#,##0.0,,"m"', "1.2m"), (-1234.5, '_("$"* #,##0.00_);_("$"* (#,##0.00)',
                                                                     "$(1,234.50)"),
    (1.25, "0.0#", "1.25"), (1.5, "0.0#", "1.5"), (12345, "0.00E+00", "1.23E+04"), (568.0, "General", "568"),
    (594.3, "General", "594.3"), (7, "# ?/?", "7"),
])  # fmt: skip
def test_number_formats_as_excel_shows_them(value, fmt, shown):
    assert format_number(value, fmt) == shown


def test_formatted_cells_reach_the_page_text():
    wb = Workbook()
    ws = wb.active
    ws.append(["Line", "Amount", "Margin"])
    ws.append(["Revenue", 1234567890, 0.1234])
    ws.append(["Loss", -45210, -0.05])
    for row in (2, 3):
        ws.cell(row, 2).number_format = '#,##0.0,,"M";(#,##0.0,,"M")'
        ws.cell(row, 3).number_format = "0.0%"
    assert _lines(_load(files.save(wb))) == ["Line: Revenue; Amount: 1,234.6M; Margin: 12.3%",
                                             "Line: Loss; Amount: (0.0M); Margin: -5.0%"]


# --- 6. hidden sheets, rows and columns -----------------------------------------------------------------------------
def test_hidden_sheets_rows_and_columns_are_left_out_and_named():
    wb = Workbook()
    ws = wb.active
    ws.title = "Rates"
    ws.append(["Product", "Rate", "Internal floor", "Note"])
    ws.append(["Savings", "3.0%", "2.1%", "public"])
    ws.append(["Staff savings", "4.0%", "3.9%", "internal"])
    ws.append(["FD 1 year", "6.8%", "6.1%", "public"])
    ws.row_dimensions[3].hidden = True
    ws.column_dimensions["C"].hidden = True
    secret = wb.create_sheet("Workings")
    secret.append(["Step", "Value"])
    secret.append(["Margin target", "9.9%"])
    secret.sheet_state = "hidden"
    doc = _load(files.save(wb), "rates.xlsx")
    assert _lines(doc) == ["Product: Savings; Rate: 3.0%; Note: public", "Product: FD 1 year; Rate: 6.8%; Note: public"]
    assert doc.warnings == (
        "rates.xlsx: sheet 'Rates': 1 hidden row (3) and 1 hidden column (C) left out, as Excel does not show them",
        "rates.xlsx: hidden sheet 'Workings' left out, as Excel does not show it")
    assert [(s.number, s.reason) for s in doc.skipped_pages] == [(2, "sheet 'Workings' is hidden")]
    assert doc.total_pages == 2 and len(doc.pages) == 1


# --- 7. HTML tables -------------------------------------------------------------------------------------------------
def test_c67_html_table_spans_become_a_table_with_full_column_names():
    doc = parsing.load((CASES / "c67_segment_results.html").read_bytes(), "c67_segment_results.html", NO_OCR)
    segments, deposits = doc.tables
    assert segments.column_headers == ("Product", "Gross advances (Rs. crore) FY2024",
                                       "Gross advances (Rs. crore) FY2023", "Gross NPA (%) FY2024",
                                       "Gross NPA (%) FY2023")
    assert [(r.label, r.cells[0], r.cells[4]) for r in segments.rows] == [
        ("Retail", "Housing loans", "1.1"), ("Retail", "Vehicle loans", "3.4"), ("MSME", "Term loans", "5.2"),
        ("MSME", "Working capital", "4.4")]  # the rowspan label carried into each row it covers
    text = doc.pages[0].text
    vehicle = segments.rows[1]
    assert text[vehicle.char_start : vehicle.char_end] == (
        "Segment: Retail; Product: Vehicle loans; Gross advances (Rs. crore) FY2024: 6,135; Gross advances (Rs. "
        "crore) FY2023: 5,210; Gross NPA (%) FY2024: 2.7; Gross NPA (%) FY2023: 3.4")
    assert text[slice(*vehicle.cell_spans[4])] == "Gross NPA (%) FY2023: 3.4"
    assert deposits.rows[2].cells == ("Domestic: 7,215 Foreign branch: 640", "6,902")  # list items in one cell
    assert "Vehicle loan asset quality improved" in text and "|" not in text


def test_html_colspan_in_a_data_row_is_not_repeated():
    html = ("<!doctype html><html><body><article><p>Fees for the year under review, by channel and quarter.</p>"
            "<table><tr><th>Channel</th><th>Q1</th><th>Q2</th></tr>"
            "<tr><td>Branch</td><td colspan=\"2\">120 (whole half)</td></tr>"
            "<tr><td>Digital</td><td>40</td><td>55</td></tr></table></article></body></html>")
    doc = parsing.load(html.encode(), "fees.html", NO_OCR)
    assert [(r.label, r.cells) for r in doc.tables[0].rows] == [("Branch", ("120 (whole half)", "")),
                                                                ("Digital", ("40", "55"))]
