"""Office and HTML files (DOCX, XLSX, PPTX, HTML) through prism.ingestion.parsing.load: text in reading order, tables
with their header row, sheets with their rows, slides with their notes, refusals and type sniffing; Markdown with an
inline base64 image (case 42). Test files are built in the test (``office_files``)."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from prism.config import Settings
from prism.errors import CorruptDocumentError, EncryptedDocumentError, NoExtractableTextError, UnsupportedFileError
from prism.ingestion import parsing
from prism.ingestion.chunking import chunk_document
from prism.ingestion.parsing.datauri import replace_data_uris
from prism.ingestion.parsing.sheets import format_cell
from prism.types import Page
from tests.conftest import CASES
from tests.ingestion import office_files as files

NO_OCR = Settings(ocr_enabled=False)


def _row(doc, table, i: int) -> str:
    page = next(p for p in doc.pages if p.number == table.page)
    return page.text[table.rows[i].char_start : table.rows[i].char_end]


# --- DOCX ----------------------------------------------------------------------------------------------------------
def test_docx_headings_paragraphs_lists_and_table_in_order():
    doc = parsing.load(files.build_docx(), "board_note.docx", NO_OCR)
    assert (doc.kind, doc.total_pages, doc.paged) == ("docx", 0, False)
    assert doc.warnings == ('board_note.docx: page header and footer text is not indexed (page furniture): '
                            '"Confidential - board use only"',)  # left out, but never silently
    assert len(doc.pages) == 1 and doc.pages[0].number is None
    text = doc.pages[0].text
    blocks = text.split("\n\n")
    assert blocks[:4] == [
        "Board note: liquidity review Q3 FY25",
        "The board reviewed the liquidity coverage ratio, which stood at 134 per cent at the end of the quarter, "
        "well above the regulatory minimum of 100 per cent.",
        "Deposits by segment",
        "Retail deposits grew faster than corporate deposits; the table gives the balances in crore of rupees.",
    ]
    assert blocks[4] == ("Segment: Retail; Q2 FY25: 4,210; Q3 FY25: 4,480\n"
                         "Segment: Corporate; Q2 FY25: 2,950; Q3 FY25: 2,870\n"
                         "Segment: Government; Q2 FY25: 1,120; Q3 FY25: 1,190")
    assert blocks[5:] == ["Merchant accounts", files.DOCX_FACT,
                          "Reconcile nodal balances daily.\nReport breaches to the compliance officer within a day."]
    assert "Confidential" not in text, "the page header is furniture"


def test_docx_table_is_a_table_of_the_tables_module():
    doc = parsing.load(files.build_docx(), "board_note.docx", NO_OCR)
    (table,) = doc.tables
    assert (table.table_id, table.page, table.column_headers) == ("t1", None, ("Q2 FY25", "Q3 FY25"))
    assert [(r.label, r.cells, r.source_row) for r in table.rows] == [
        ("Retail", ("4,210", "4,480"), None), ("Corporate", ("2,950", "2,870"), None),
        ("Government", ("1,120", "1,190"), None)]
    assert _row(doc, table, 1) == "Segment: Corporate; Q2 FY25: 2,950; Q3 FY25: 2,870"
    text = doc.pages[0].text
    assert [text[s:e] for s, e in table.rows[0].cell_spans] == ["Q2 FY25: 4,210", "Q3 FY25: 4,480"]


# --- XLSX ----------------------------------------------------------------------------------------------------------
def test_xlsx_sheets_are_pages_named_by_the_sheet_with_spreadsheet_rows():
    doc = parsing.load(files.build_xlsx(), "branches.xlsx", NO_OCR)
    assert (doc.kind, doc.total_pages, doc.paged, doc.page_unit) == ("xlsx", 2, True, "sheet")
    assert [(p.number, p.label) for p in doc.pages] == [(1, "Q3"), (2, "Notes")]
    q3, notes = doc.tables
    assert (q3.table_id, q3.page, q3.title) == ("p1-t1", 1, "Q3")
    assert q3.column_headers == ("Branch", "Deposits (₹ crore)", "Advances (₹ crore)", "CASA share", "Audit date")
    assert (q3.unit, q3.currency) == ("crore", "INR")
    assert [r.source_row for r in q3.rows] == list(range(2, 22))  # the header is row 1
    row14 = next(r for r in q3.rows if r.source_row == 14)
    assert _row(doc, q3, q3.rows.index(row14)) == (
        "Region: West; Branch: Nashik Road; Deposits (₹ crore): 1234; Advances (₹ crore): 876.1; "
        "CASA share: 31.0%; Audit date: 2024-12-13")
    assert doc.pages[1].text == ("Item: Source; Note: Branch MIS as of 31 December 2024\n"
                                 "Item: Owner; Note: Treasury operations")
    assert [r.source_row for r in notes.rows] == [2, 3]


def test_xlsx_chunks_carry_the_sheet_and_their_rows():
    doc = parsing.load(files.build_xlsx(), "branches.xlsx", NO_OCR)
    chunks = chunk_document(doc, "ab" * 32, chunk_size=500, chunk_overlap=50)
    q3 = doc.tables[0]
    on_q3 = [c for c in chunks if c.page_start == 1]
    assert len(on_q3) > 3
    for c in on_q3:  # sheet Q3 is the first page: document offsets are page offsets
        rows = [r.source_row for r in q3.rows if r.char_start < c.char_end and r.char_end > c.char_start]
        assert (c.page_end, c.page_unit, c.label_start, c.row_start, c.row_end) == (1, "sheet", "Q3", min(rows),
                                                                                     max(rows))
    nashik = next(c for c in chunks if "Nashik Road" in c.text)
    assert nashik.row_start <= 14 <= nashik.row_end
    assert nashik.locator == f"Sheet 'Q3' rows {nashik.row_start}–{nashik.row_end}"
    last = chunks[-1]
    assert (last.locator, last.metadata()["label_start"], last.metadata()["row_end"]) == (
        "Sheet 'Notes' rows 2–3", "Notes", 3)


def test_xlsx_title_rows_above_the_header_and_empty_columns_and_sheets():
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Summary"
    ws["B1"] = "Branch deposits, Q3 FY25"
    ws.append([])
    ws.append([None, "Branch", "Deposits"])
    ws.append([None, "Pune", 1200])
    ws.append([None, "Thane", 0.5])
    ws.cell(row=5, column=3).number_format = "0%"
    wb.create_sheet("Empty")
    doc = parsing.load(files.save(wb), "summary.xlsx", NO_OCR)
    text = "Branch deposits, Q3 FY25\n\nBranch: Pune; Deposits: 1200\nBranch: Thane; Deposits: 50%"
    assert doc.pages == (Page(1, text, label="Summary"),)
    assert [r.source_row for r in doc.tables[0].rows] == [4, 5]
    assert [(s.number, s.reason) for s in doc.skipped_pages] == [(2, "sheet 'Empty' holds no data")]


@pytest.mark.parametrize(("value", "fmt", "shown"), [
    (None, "General", ""), (True, "General", "TRUE"), (568.0, "General", "568"), (594.3, "General", "594.3"),
    (0.255, "0.0%", "25.5%"), (0.25, "0%", "25%"), (1234567, "#,##0", "1,234,567"), (3.4, "0.00", "3.40"),
    (1234.5, "#,##0.00;(#,##0.00)", "1,234.50"), (dt.datetime(2024, 12, 31), "yyyy-mm-dd", "2024-12-31"),
    (dt.datetime(2024, 12, 31, 9, 30), "General", "2024-12-31 09:30"), ("Pune", "@", "Pune"),
])
def test_format_cell(value, fmt, shown):
    assert format_cell(value, fmt) == shown


def test_xlsx_cut_at_the_row_limit_warns():
    doc = parsing.load(files.build_xlsx(rows=30), "big.xlsx", Settings(ocr_enabled=False, sheet_max_rows=11))
    assert [r.source_row for r in doc.tables[0].rows] == list(range(2, 12))
    assert doc.warnings == ("big.xlsx: sheet 'Q3' has more than 11 rows; only the first ones were read",)


# --- PPTX ----------------------------------------------------------------------------------------------------------
def test_pptx_slides_are_pages_with_their_notes_and_tables():
    doc = parsing.load(files.build_pptx(), "results.pptx", NO_OCR)
    assert (doc.kind, doc.total_pages, doc.page_unit) == ("pptx", 3, "slide")
    assert [p.number for p in doc.pages] == [1, 2, 3] and all(p.label is None for p in doc.pages)
    assert doc.pages[0].text == "Q3 FY25 results\n\nMeridian Bank investor call"
    assert doc.pages[1].text == ("Profitability\n\nEBITDA margin rose to 18.2 per cent\nNet interest margin held at "
                                 f"3.4 per cent\n\nNotes: {files.PPTX_NOTE}")
    assert doc.pages[2].text == ("Revenue by segment\n\nSegment: Retail; Revenue (₹ crore): 1,842\n"
                                 "Segment: Wholesale; Revenue (₹ crore): 1,215")
    (table,) = doc.tables
    assert (table.table_id, table.page, table.column_headers, [r.label for r in table.rows]) == (
        "p3-t1", 3, ("Revenue (₹ crore)",), ["Retail", "Wholesale"])
    chunks = chunk_document(doc, "cd" * 32, chunk_size=500, chunk_overlap=50)
    # no chunk crosses a slide; slide 3's table is cut at its rows, apart from the slide's title
    assert [c.locator for c in chunks] == ["Slide 1", "Slide 2", "Slide 3", "Slide 3"]
    assert [c.table is not None for c in chunks] == [False, False, False, True]
    assert chunks[3].text.startswith("Segment: Retail")


def test_pptx_slide_without_text_is_reported():
    from pptx import Presentation

    deck = Presentation()
    deck.slides.add_slide(deck.slide_layouts[6])  # blank layout
    titled = deck.slides.add_slide(deck.slide_layouts[5])
    titled.shapes.title.text = "Liquidity"
    doc = parsing.load(files.save(deck), "deck.pptx", NO_OCR)
    assert [(p.number, p.text) for p in doc.pages] == [(2, "Liquidity")]
    assert [(s.number, s.reason) for s in doc.skipped_pages] == [(1, "no text on this slide")]
    blank = Presentation()
    blank.slides.add_slide(blank.slide_layouts[6])
    with pytest.raises(NoExtractableTextError, match=r"^empty\.pptx has no text on any of its 1 slides$"):
        parsing.load(files.save(blank), "empty.pptx", NO_OCR)


# --- HTML ----------------------------------------------------------------------------------------------------------
def test_html_file_keeps_the_article_and_drops_scripts_navigation_and_banners():
    doc = parsing.load(files.build_html(), "dispute_rules.html", NO_OCR)
    assert (doc.kind, doc.paged) == ("html", False)
    text = doc.pages[0].text
    assert text.startswith("New UPI dispute rules take effect\n")
    assert files.HTML_FACT in text
    assert "Transaction type: Merchant refund not credited; Turn-around time: T+5 days" in text  # a table's row
    assert doc.tables[0].column_headers == ("Turn-around time",)
    for junk in ("tracking", "console.log", "font-family", "Sign in", "Subscribe", "cookies", "Copyright",
                 "Privacy", "base64", "iVBOR"):
        assert junk not in text, junk
    same = parsing.load(files.build_html(), "saved.htm", NO_OCR)
    assert same.pages == doc.pages and same.kind == "html"


SHORT_TABLE_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>Balance sheet note</title>
</head><body>
<h1>Balance sheet note</h1>
<table>
<thead><tr><th>December 31,</th><th></th><th></th></tr></thead><tbody>
<tr><td></td><td>2019</td><td>2018</td></tr>
<tr><td>Prepaid expenses</td><td>$2,303</td><td>$1,780</td></tr>
<tr><td>Other current assets</td><td>193</td><td>167</td></tr>
<tr><td>Total prepaid expenses and other</td><td>$2,496</td><td>$1,947</td></tr>
</tbody></table>
<p>Note 3: Balance Sheet Components</p>
<p>Prepaid expenses and other consist of the following (in thousands):</p>
</body></html>"""


def test_a_short_html_page_keeps_its_table_as_rows():
    """A page too short for trafilatura's main extraction (one table and a note) still reads its table as rows,
    not one cell per line."""
    doc = parsing.load(SHORT_TABLE_PAGE.encode(), "note3.html", NO_OCR)
    text = doc.pages[0].text
    assert "Prepaid expenses; 2019: $2,303; 2018: $1,780" in text
    assert "Other current assets; 2019: 193; 2018: 167" in text
    assert len(doc.tables) == 1
    assert "Prepaid expenses and other consist of the following" in text


def test_html_under_a_txt_name_is_read_as_html():
    doc = parsing.load(files.build_html(), "page.txt", NO_OCR)
    assert doc.kind == "html" and "Sign in" not in doc.pages[0].text
    assert doc.warnings == ("page.txt is really an HTML page, not what its name says; it was read as one",)


# --- the bytes decide; refusals -------------------------------------------------------------------------------------
def test_office_files_under_another_name_are_read_as_what_they_are():
    docx_as_txt = parsing.load(files.build_docx(), "board_note.txt", NO_OCR)
    assert docx_as_txt.kind == "docx" and files.DOCX_FACT in docx_as_txt.pages[0].text
    assert docx_as_txt.warnings[0] == (
        "board_note.txt is really a Word document (DOCX), not what its name says; it was read as one")
    xlsx_as_docx = parsing.load(files.build_xlsx(), "model.docx", NO_OCR)
    assert xlsx_as_docx.kind == "xlsx" and xlsx_as_docx.warnings == (
        "model.docx is really an Excel workbook (XLSX), not what its name says; it was read as one",)
    pdf_as_docx = parsing.load((CASES / "33_a_three_pages.pdf").read_bytes(), "report.docx", NO_OCR)
    assert pdf_as_docx.kind == "pdf" and pdf_as_docx.total_pages == 3
    assert pdf_as_docx.warnings[0] == "report.docx is really a PDF, not what its name says; it was read as one"


@pytest.mark.parametrize(("build", "name", "what"), [
    (files.build_docx, "board_note.docx", "Word document"),
    (files.build_xlsx, "branches.xlsx", "Excel workbook"),
    (files.build_pptx, "results.pptx", "PowerPoint presentation"),
])
def test_password_protected_office_files_are_refused(build, name, what):
    data = files.encrypt_office(build())
    assert data.startswith(b"\xd0\xcf\x11\xe0")
    with pytest.raises(EncryptedDocumentError, match=rf"^{re.escape(name)} is a password-protected {what}; remove the "
                                                      "password and upload it again$"):
        parsing.load(data, name, NO_OCR)


def test_broken_office_files_get_a_clear_message():
    with pytest.raises(CorruptDocumentError, match=r"^deck\.pptx is not a valid PowerPoint presentation \(it is not"):
        parsing.load(b"just text", "deck.pptx", NO_OCR)
    data = files.build_docx()
    with pytest.raises(CorruptDocumentError, match=r"^cut\.docx is not a valid Word document"):
        parsing.load(data[: len(data) // 2], "cut.docx", NO_OCR)  # a truncated ZIP is no readable package
    with pytest.raises(UnsupportedFileError, match=r"^notes\.txt is an OLE compound file \(legacy Office, Outlook or "
                                                   r"similar\) that Prism cannot read; save it as DOCX"):
        parsing.load(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, "notes.txt", NO_OCR)
    with pytest.raises(UnsupportedFileError, match=r"^archive\.txt is a ZIP archive file, not TXT"):
        parsing.load(b"PK\x03\x04" + b"\0" * 40, "archive.txt", NO_OCR)


def test_an_empty_word_document_has_no_text():
    from docx import Document

    with pytest.raises(NoExtractableTextError, match=r"^blank\.docx has no text"):
        parsing.load(files.save(Document()), "blank.docx", NO_OCR)


def test_every_registered_type_is_named_to_the_analyst():
    names = [t.name for t in parsing.file_types()]
    assert names == ["pdf", "docx", "xlsx", "pptx", "html", "txt", "md", "csv"]
    assert parsing.SUPPORTED_EXTENSIONS == (".pdf", ".docx", ".xlsx", ".pptx", ".html", ".htm", ".txt", ".md", ".csv")
    with pytest.raises(UnsupportedFileError, match=r"upload PDF, DOCX, XLSX, PPTX, HTML, TXT, MD or CSV files"):
        parsing.load(b"x", "a.rtf", NO_OCR)


# --- Markdown with an inline image (case 42) -------------------------------------------------------------------------
def test_case_42_base64_image_becomes_a_placeholder():
    doc = parsing.load(CASES / "42_markdown_with_base64_image.md", settings=NO_OCR)
    text = doc.pages[0].text
    assert text == ("# Branch visit notes\n\nThe Nashik branch has two cash counters and one locker room with 120 "
                    "lockers.\n\n[image: floor plan]\n\nThe locker room is open from 11 am to 3 pm on working days.")
    chunks = chunk_document(doc, "ef" * 32, chunk_size=500, chunk_overlap=50)
    assert 1 <= len(chunks) <= 2
    assert not any("base64" in c.text or re.search(r"[A-Za-z0-9+/]{40}", c.text) for c in chunks)


@pytest.mark.parametrize(("text", "expected", "count"), [
    ('<img src="data:image/png;base64,AAAA" alt="logo"> end', "[image: logo] end", 1),
    ("![](data:image/gif;base64,R0lGODlh) x", "[image] x", 1),
    ("[plan]: data:image/png;base64,iVBORw0KGgo=\n![p][plan]", "[plan]: [embedded image]\n![p][plan]", 1),
    ("see data:application/pdf;base64," + "A" * 60 + " here", "see [embedded data] here", 1),
    ("short data:text/plain;base64,SGk= stays", "short data:text/plain;base64,SGk= stays", 0),
    ("no data URIs here", "no data URIs here", 0),
])
def test_replace_data_uris(text, expected, count):
    assert replace_data_uris(text) == (expected, count)
