"""Tables the stored text cannot read alone: column headers from the PDF's word positions (two-level headers), tables
of words (registers), numbered tables of text, and pages whose pypdf text is garbled (read with pdfium). PDFs are
built with fpdf2; the real hard PDFs of ../shared/data are read where present."""

from __future__ import annotations

from fpdf import FPDF

from prism.config import Settings
from prism.ingestion import parsing
from prism.ingestion.parsing.pdf.garbled import readable_text, word_share
from prism.ingestion.tables.finders import page_tables
from prism.ingestion.tables.lists import find_numbered_tables
from prism.ingestion.tables.pdf_words import PdfTableHeaders
from prism.ingestion.tables.stored_text import find_tables
from prism.types import Table
from tests.conftest import require_data

NO_OCR = Settings(ocr_enabled=False, parse_in_subprocess=False)
SUBS = ("Revenue", "Capital", "Total")


def _budget_pdf(path) -> None:
    """A two-level header: "Plan" and "Non-Plan" each centred over Revenue / Capital / Total, then six columns."""
    pdf = FPDF(orientation="L")
    pdf.set_font("Helvetica", size=9)
    pdf.add_page()
    pdf.cell(0, 6, "Budget 2014-2015 (In crores of Rupees)", new_x="LMARGIN", new_y="NEXT", align="C")
    pdf.cell(70, 6, "")
    pdf.cell(90, 6, "Plan", align="C")
    pdf.cell(90, 6, "Non-Plan", align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(70, 6, "Ministry/Demand")
    for sub in SUBS * 2:
        pdf.cell(30, 6, sub, align="R")
    pdf.cell(0, 6, "", new_x="LMARGIN", new_y="NEXT")
    for i in range(1, 9):
        pdf.cell(70, 6, f"Department of Works {chr(64 + i)}")
        for j in range(6):
            pdf.cell(30, 6, f"{i * 100 + j * 7 + 0.25:.2f}", align="R")
        pdf.cell(0, 6, "", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


def test_two_level_headers_are_stitched_from_word_positions(tmp_path):
    path = tmp_path / "budget.pdf"
    _budget_pdf(path)
    data = path.read_bytes()
    doc = parsing.load(data, "budget.pdf", NO_OCR)
    [plain] = find_tables(doc.pages[0].text, 1)
    assert plain.column_headers == ()  # the text alone cannot tell which sub-header is Plan's
    reader = PdfTableHeaders(data)
    try:
        [table] = page_tables(doc.pages[0].text, 1, reader)
    finally:
        reader.close()
    assert table.column_headers == ("Plan Revenue", "Plan Capital", "Plan Total", "Non-Plan Revenue",
                                    "Non-Plan Capital", "Non-Plan Total")
    assert table.unit == "crore" and len(table.rows) == 8
    assert table.index_header == " | ".join((*table.column_headers, "in crore"))


def _register_pdf(path) -> None:
    """A register of payments: a header of word columns and rows of names, dates, descriptions and amounts."""
    pdf = FPDF(orientation="L")
    pdf.set_font("Helvetica", size=8)
    pdf.add_page()
    widths = (40, 30, 60, 90, 30)
    for head, w in zip(("DOCUMENT NO.", "DATE POSTED", "PAYEE NAME", "DESCRIPTION", "AMOUNT"), widths, strict=True):
        pdf.cell(w, 5, head, align="R" if head == "AMOUNT" else "L")
    pdf.cell(0, 5, "", new_x="LMARGIN", new_y="NEXT")
    for i in range(1, 7):
        cells = (f"DOC2019000{i}", f"05/0{i}/2019", f"PAYEE NUMBER {chr(64 + i)} LTD", f"STAFF TRAVEL TO CITY {i}",
                 f"{i * 111:,}.50")
        for text, w in zip(cells, widths, strict=True):
            pdf.cell(w, 5, text, align="R" if w == 30 and "." in text else "L")
        pdf.cell(0, 5, "", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


def test_a_register_of_words_is_read_from_positions_and_located_in_the_text(tmp_path):
    path = tmp_path / "register.pdf"
    _register_pdf(path)
    data = path.read_bytes()
    doc = parsing.load(data, "register.pdf", NO_OCR)
    text = doc.pages[0].text
    [figures] = find_tables(text, 1)  # "... CITY 3 333.50": the text alone takes the 3 for a figure
    assert figures.rows[2].cells == ("3", "333.50")
    reader = PdfTableHeaders(data)
    try:
        [table] = page_tables(text, 1, reader)
    finally:
        reader.close()
    assert table.column_headers == ("DOCUMENT NO.", "DATE POSTED", "PAYEE NAME", "DESCRIPTION", "AMOUNT")
    assert [r.label for r in table.rows] == [f"DOC2019000{i}" for i in range(1, 7)]
    assert table.rows[2].cells == ("DOC20190003", "05/03/2019", "PAYEE NUMBER C LTD", "STAFF TRAVEL TO CITY 3",
                                   "333.50")
    for row in table.rows:
        assert text[row.char_start:row.char_end].startswith(row.label)
        assert [text[a:b] for a, b in row.cell_spans] == list(row.cells)


def test_numbered_tables_of_text():
    page = ("Table 1 : Documents to be submitted\nNo. Item\n1 Engine particulars\n2 Engine cross section, with\n"
            "all dimensions\nFor electronic engines:\n3 Control valves\n4 Flywheel\n(1) A footnote.\n"
            "1. Introduction is not a row")
    [table] = find_numbered_tables(page, 7)
    assert (table.table_id, table.title, table.column_headers) == ("p7-t1", "Table 1 : Documents to be submitted",
                                                                   ("Item",))
    assert [(r.label, r.cells) for r in table.rows] == [
        ("1", ("Engine particulars",)), ("2", ("Engine cross section, with all dimensions",)),
        ("For electronic engines:", ()), ("3", ("Control valves",)), ("4", ("Flywheel",))]
    assert page[table.rows[1].char_start:table.rows[1].char_end] == "2 Engine cross section, with\nall dimensions"
    assert page[table.char_end - 8:table.char_end] == "Flywheel"  # the footnote is not the table's
    assert find_numbered_tables("No. Item\n1 One\n2 Two", 1) == []  # fewer than three rows
    assert find_numbered_tables("1. First point\n2. Second point\n3. Third point", 1) == []  # no header


def test_garbled_text_is_read_with_pdfium():
    assert word_share("BAIN, J MATTHEW DISTRICT DIRECTOR 37,499.96") == 1.0
    assert word_share("o(hô..i.p3xSTRxtT3xR2tTOR /xNhyM/TTw2W") == 0.0
    assert word_share("") == 1.0
    path = require_data("hard-pdfs", "senate-expenditures.pdf")
    data = path.read_bytes()
    clean = "a readable page of words"
    assert readable_text(clean, data, 0, path.name) is clean  # a readable page is never read again
    doc = parsing.load(data, path.name, NO_OCR)
    assert "BAIN, J MATTHEW DISTRICT DIRECTOR 37,499.96" in doc.pages[0].text
    reader = PdfTableHeaders(data)
    try:
        [table] = page_tables(doc.pages[0].text, 1, reader)
    finally:
        reader.close()
    assert isinstance(table, Table) and table.column_headers[:3] == ("DOCUMENT NO.", "DATE POSTED", "PAYEE NAME")
    assert "OBLIGATION/SERVICE DATES START" in table.column_headers
    bain = next(r for r in table.rows if r.label == "BAIN, J MATTHEW")
    assert bain.cells[-2:] == ("DISTRICT DIRECTOR", "37,499.96")


def test_a_caption_starts_a_new_table_and_wrapped_headers_are_joined_across_a_level_line():
    """The sample fee schedule prints Table 10 and Table 11 one under the other with the same columns, each header
    cell "Outstanding (₹ crore)" and "Share of deposits" wrapped onto two lines with the one-line cells ("Share of
    book", "YoY growth") set level between the halves: each caption starts its own table, and the halves join."""
    from pathlib import Path

    from prism.ingestion.tables.finders import document_tables

    pdf = Path(__file__).resolve().parents[3] / "data" / "sample" / "meridian_fee_schedule_tables.pdf"
    data = pdf.read_bytes()
    doc = parsing.load_bytes(data, pdf.name, Settings(ocr_enabled=False))
    tables = {t.title: t for _, t in document_tables(doc, True, PdfTableHeaders(data)) if t.page == 4}
    loans = tables["Table 10 – Loan book by segment, 30 September 2024"]
    deposits = tables["Table 11 – Deposits by type, 30 September 2024"]
    assert loans.column_headers == ("Outstanding (₹ crore)", "Share of book", "YoY growth")
    assert deposits.column_headers == ("Outstanding (₹ crore)", "Share of deposits", "YoY growth")
    assert [r.label for r in loans.rows][-1] == "Total gross advances"
    assert [r.label for r in deposits.rows] == ["Savings deposits", "Current deposits", "Term deposits",
                                                "Total deposits"]
