"""Tests of prism.ingestion.tables.stored_text and prism.ingestion.tables.chunks.

Real statement pages are read from ``../shared/data`` (skipped, naming the folder, when it is missing): each page is
copied into a one-page PDF in memory and parsed by Prism's own PDF parser, so the tables are found in exactly the
text Prism stores. Small tables are built in the tests, as text or as PDFs with fpdf2.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from fpdf import FPDF
from pypdf import PdfReader, PdfWriter

from prism.config import Settings
from prism.ingestion.parsing.pdf.read import load_pdf
from prism.ingestion.tables.chunks import table_chunks
from prism.ingestion.tables.csv import table_from_csv_rows
from prism.ingestion.tables.finders import continued_tables, page_tables, plausible_headers
from prism.ingestion.tables.pdf_words import PdfTableHeaders
from prism.ingestion.tables.stored_text import Table, find_tables, is_statement_heading, is_unit_line

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT.parent / "shared" / "data"
TRUTH = json.loads((ROOT / "data" / "ground_truth" / "tables.json").read_text(encoding="utf-8"))


def _stored_page(file: str, page: int) -> str:
    """Prism's stored text of one page of a shared PDF (the page copied into a one-page PDF, then parsed)."""
    path = DATA / file
    if not path.is_file():
        pytest.skip(f"{path.parent} is missing (shared data folder ../shared/data)")
    writer = PdfWriter()
    writer.add_page(PdfReader(path).pages[page - 1])
    buffer = io.BytesIO()
    writer.write(buffer)
    return load_pdf(buffer.getvalue(), path.name, Settings(ocr_enabled=False)).pages[0].text


def _row(table: Table, label: str):
    return next(row for row in table.rows if row.label == label)


def _words(text: str) -> int:
    return len(text.split())


def _check_offsets(tables: list[Table], text: str) -> None:
    for table in tables:
        assert 0 <= table.char_start <= table.rows[0].char_start
        assert table.char_end == table.rows[-1].char_end
        for row in table.rows:
            line = text[row.char_start : row.char_end]
            assert line == line.strip() and row.label.split()[:1] == line.split()[:1] or not row.label
            for (start, end), cell in zip(row.cell_spans, row.cells, strict=True):
                assert row.char_start <= start < end <= row.char_end
                assert text[start:end].endswith(cell)


# --- real statements -------------------------------------------------------------------------------------------------


def test_netflix_2015_income_statement_keeps_periods_unit_and_cells():
    text = _stored_page("financebench-dev/pdfs/NETFLIX_2015_10K.pdf", 40)
    [table] = find_tables(text, 40)
    assert table.table_id == "p40-t1"
    assert table.title == "CONSOLIDATED STATEMENTS OF OPERATIONS"
    assert table.column_headers == ("2015", "2014", "2013")
    assert (table.unit, table.currency) == ("thousands", "USD")
    net = _row(table, "Net income")
    assert net.cells == ("122,641", "266,799", "112,403")
    assert dict(zip(table.column_headers, net.cells, strict=True))["2015"] == "122,641"
    assert text[net.char_start : net.char_end] == "Net income $ 122,641 $ 266,799 $ 112,403"
    assert _row(table, "Loss on extinguishment of debt").cells == ("—", "—", "(25,129)")
    assert table.rows[-1].label == "Diluted"  # the page number "38" below is not a row
    assert table.index_header == "CONSOLIDATED STATEMENTS OF OPERATIONS | 2015 | 2014 | 2013 | in thousands"
    _check_offsets([table], text)


def test_amazon_balance_sheet_puts_the_as_of_date_in_front_of_each_year():
    text = _stored_page("financebench-dev/pdfs/AMAZON_2019_10K.pdf", 40)
    [table] = find_tables(text, 40)
    assert table.column_headers == ("December 31, 2018", "December 31, 2019")
    assert (table.title, table.unit) == ("CONSOLIDATED BALANCE SHEETS", "millions")
    assert _row(table, "Operating leases").cells == ("—", "25,141")
    assert _row(table, "Outstanding shares — 491 and 498").cells == ("5", "5")  # extra values go back to the label


def test_mgm_labels_set_one_word_per_line_are_joined():
    text = _stored_page("financebench-dev/pdfs/MGMRESORTS_2018_10K.pdf", 58)
    table = find_tables(text, 58)[0]
    assert table.column_headers == ("2018", "2017", "2016")  # "Year Ended December 31," spans them: no date added
    row = _row(table, "Net income")
    assert row.cells == ("583,894", "2,088,184", "1,235,846")
    assert text[row.char_start : row.char_end] == "Net\nincome 583,894 2,088,184 1,235,846"


def _with_pdf_headers(file: str, page: int) -> list[Table]:
    """``page_tables`` of one page of a shared PDF, with the PDF's words for headers the text does not give."""
    text = _stored_page(file, page)
    return page_tables(text, page, PdfTableHeaders((DATA / file).read_bytes()))


def test_a_balance_sheet_cut_by_its_liabilities_heading_keeps_one_title_periods_and_unit():
    assets, liabilities = _with_pdf_headers("financebench-dev/pdfs/MGMRESORTS_2018_10K.pdf", 57)
    assert (assets.title, assets.column_headers, assets.unit) == (
        "CONSOLIDATED BALANCE SHEETS", ("December 31, 2018", "December 31, 2017"), "thousands")
    # the liabilities follow "LIABILITIES AND STOCKHOLDERS' EQUITY": before, their headers were stitched from the
    # assets' figures ("3,944,463 455,318 …") and they had no title or unit
    assert (liabilities.title, liabilities.column_headers, liabilities.unit) == (
        assets.title, assets.column_headers, "thousands")
    assert _row(liabilities, "Accounts payable").cells == ("302,578", "255,028")
    [_, equity] = _with_pdf_headers("financebench-dev/pdfs/PFIZER_2021_10K.pdf", 59)
    assert (equity.title, equity.column_headers, equity.unit) == ("Consolidated Balance Sheets", ("2021", "2020"),
                                                                  "millions")


def test_a_continuation_inherits_only_when_it_has_no_title_headers_and_the_same_columns():
    page = ("CONSOLIDATED BALANCE SHEETS\n(In millions)\nDecember 31, 2019 2018\n"
            "Cash 1,000 900\nReceivables 2,000 1,800\nInventories 3,000 2,700\n"
            "LIABILITIES AND EQUITY\nCurrent liabilities\nThis heading line is long enough to stop the first table "
            "because prose of more than one hundred characters ends it.\n"
            "Accounts payable 400 350\nAccrued expenses 500 450\nShort-term debt 600 550\n"
            "Segment data\nThis heading line is long enough to stop the second table as well, since prose of more than "
            "one hundred characters ends a table.\n"
            "Revenue 1 2 3\nCosts 4 5 6\nProfit 7 8 9\n")
    first, second, third = page_tables(page, 4, None)
    assert (first.title, first.column_headers, first.unit) == ("CONSOLIDATED BALANCE SHEETS",
                                                               ("December 31, 2019", "December 31, 2018"), "millions")
    assert (second.title, second.column_headers, second.unit) == (first.title, first.column_headers, "millions")
    assert (third.title, third.column_headers, third.unit) == (None, (), None)  # three columns: not a continuation
    assert continued_tables([third, second])[1] == second  # a table that already has headers is left alone


def test_headers_read_from_figures_or_dashes_are_not_headers():
    assert plausible_headers(("3,944,463 455,318", "3,877,960 430,440")) == ()
    assert plausible_headers(("—", "—")) == ()
    assert plausible_headers(("Streaming 12.5", "DVD")) == ()
    assert plausible_headers(None) == ()
    assert plausible_headers(("December 31, 2018", "2017")) == ("December 31, 2018", "2017")
    assert plausible_headers(("Domestic streaming", "International streaming", "Domestic DVD")) == (
        "Domestic streaming", "International streaming", "Domestic DVD")


def test_financebench_truth_cells_are_found():
    """The FinanceBench statements of the truth set: 95 % of their cells under the right period, 90 % of each one's."""
    right_total = cells_total = 0
    for truth in (t for t in TRUTH["tables"] if t["file"].startswith("financebench")):
        text = _stored_page(truth["file"], truth["page"])
        tables = find_tables(text, truth["page"])
        _check_offsets(tables, text)
        found = {
            (" ".join(row.label.split()), header, cell)
            for table in tables
            for row in table.rows
            for header, cell in zip(table.column_headers, row.cells, strict=False)
        }
        right = sum(
            any(
                label.replace("––", "—") == cell["row"].replace("––", "—")
                and cell["column"] in header
                and value == cell["value"]
                for label, header, value in found
            )
            for cell in truth["cells"]
        )
        assert right >= 0.9 * len(truth["cells"]), truth["id"]
        right_total += right
        cells_total += len(truth["cells"])
    assert right_total >= 0.95 * cells_total


def test_no_table_on_a_prose_page():
    text = _stored_page("rbi/pdfs/MD_10201_Archives.pdf", 10)
    assert find_tables(text, 10) == []


# --- built tables ----------------------------------------------------------------------------------------------------


def _statement_pdf() -> bytes:
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", size=10)
    lines = [
        ("", "ACME CORP"),
        ("", "CONSOLIDATED STATEMENTS OF CASH FLOWS"),
        ("", "(in millions)"),
        ("", ""),
        ("periods", ""),
        ("Net income", ("1,250", "(310)", "-")),
        ("Depreciation and amortization", ("480", "455", "431")),
        ("Net cash provided by operating activities", ("2,004", "1,871", "1,502")),
    ]
    for label, cells in lines:
        if label == "periods":
            for x, year in zip((120, 150, 180), ("2024", "2023", "2022"), strict=True):
                pdf.text(x, pdf.get_y() + 4, year)
        elif label:
            pdf.text(15, pdf.get_y() + 4, label)
            for x, cell in zip((120, 150, 180), cells, strict=True):
                pdf.text(x, pdf.get_y() + 4, cell)
        else:
            pdf.cell(0, 6, cells, new_x="LMARGIN", new_y="NEXT")
            continue
        pdf.ln(6)
    return bytes(pdf.output())


def test_table_in_a_built_pdf_is_read_from_the_stored_text():
    doc = load_pdf(_statement_pdf(), "acme.pdf", Settings(ocr_enabled=False))
    text = doc.pages[0].text
    [table] = find_tables(text, 1)
    assert (table.title, table.unit, table.currency) == ("CONSOLIDATED STATEMENTS OF CASH FLOWS", "millions", None)
    assert table.column_headers == ("2024", "2023", "2022")
    assert [(r.label, r.cells) for r in table.rows] == [
        ("Net income", ("1,250", "(310)", "-")),
        ("Depreciation and amortization", ("480", "455", "431")),
        ("Net cash provided by operating activities", ("2,004", "1,871", "1,502")),
    ]
    _check_offsets([table], text)


INDIAN = """Bank of Example
Statement of Profit and Loss
(₹ in crore)
Q3 FY24 Q3 FY23
Interest earned 12,345.67 10,987.10
Other income 1,234.00 987.65
Total income 13,579.67 11,974.75

The Board approved the results on January 20, 2024 and noted 3 items."""


def test_quarter_headers_rupee_unit_and_statement_title_from_text():
    [table] = find_tables(INDIAN, None)
    assert table.table_id == "t1"
    assert (table.title, table.column_headers) == ("Statement of Profit and Loss", ("Q3 FY24", "Q3 FY23"))
    assert (table.unit, table.currency) == ("crore", "INR")
    assert _row(table, "Total income").cells == ("13,579.67", "11,974.75")
    assert table.rows[-1].label == "Total income"  # the sentence below is not a row
    assert INDIAN[table.char_start : table.char_end].startswith("Statement of Profit and Loss\n(₹ in crore)")


def test_a_unit_written_after_a_figure_above_the_table_is_not_the_tables_unit():
    """"up to ₹10 lakh" in the sentence above a fee table is that balance's unit: the table's fees (₹2.00) are not in
    lakh; a unit line still is the table's."""
    rows = "Channel At branch Online\nNEFT 2.00 1.00\nRTGS 20.00 10.00\nIMPS 5.00 2.50\n"
    above = "Savings interest: 3.00% p.a.\non balances up to ₹10 lakh.\nTable 2 – Transfer charges\n"
    [table] = find_tables(above + rows, 1)
    assert (table.title, table.unit) == ("Table 2 – Transfer charges", None)
    assert _row(table, "NEFT").cells == ("2.00", "1.00")
    [table] = find_tables(above + "(₹ in lakh)\n" + rows, 1)
    assert table.unit == "lakh"


def test_dated_headers_on_one_line_and_years_in_labels():
    text = (
        "CONSOLIDATED BALANCE SHEETS\n(amounts in millions)\nAugust 29,2021 August 30,2020\n"
        "2.50% Senior Notes due 2025 $ 500 $ 500\nOther liabilities 1,935 2,415\nTOTAL LIABILITIES 41,190 36,851"
    )
    [table] = find_tables(text, 38)
    assert table.column_headers == ("August 29, 2021", "August 30, 2020")
    assert _row(table, "2.50% Senior Notes due 2025").cells == ("500", "500")
    assert table.rows[0].cell_spans[0] == (text.index("$ 500"), text.index("$ 500") + 5)


@pytest.mark.parametrize(
    "text",
    [
        "In 2019 the bank lent 5,000 crore to 120 borrowers in 14 states.\nParagraph 3.1 applies from April 1, 2025.",
        "Introduction 3\nScope 4\nDefinitions 5\nRepeal 9",  # one value per line: an index, not a table
        "",
    ],
)
def test_no_table_in_prose_or_lists(text):
    assert find_tables(text, 1) == []


# --- unit lines and statement headings -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "(in millions)",
        "(In thousands, except per share data)",
        "(Dollars in millions, except per share data)",
        "(Millions, except per share amounts)",
        "Rs. in crore",
        "(In crores of Rupees)",
        "₹ lakh",
        "(₹ in lakh)",
        "(amounts in millions, except par value and share data)",
    ],
)
def test_unit_lines(line):
    assert is_unit_line(line)


@pytest.mark.parametrize(
    "line", ["Table of Contents", "Page 3 of 5", "The company earned $5 million in 2020.", "Millions of customers", ""]
)
def test_not_unit_lines(line):
    assert not is_unit_line(line)


@pytest.mark.parametrize(
    "line",
    [
        "CONSOLIDATED BALANCE SHEETS",
        "Consolidated Statements of Cash Flows",
        "Consolidated Statement of Financial Position",
        "Statement of Profit and Loss",
        "NIKE, Inc. Consolidated Statements of Income",
        "CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME",
    ],
)
def test_statement_headings(line):
    assert is_statement_heading(line)


@pytest.mark.parametrize(
    "line",
    [
        "See accompanying notes to consolidated financial statements.",
        "The consolidated balance sheets include the accounts of the Company and its subsidiaries.",
        "Table of Contents",
    ],
)
def test_not_statement_headings(line):
    assert not is_statement_heading(line)


# --- chunks ----------------------------------------------------------------------------------------------------------

NETFLIX = """NETFLIX, INC.
CONSOLIDATED STATEMENTS OF OPERATIONS
(in thousands, except per share data)
Year ended December 31,
2015 2014 2013
Revenues $ 6,779,511 $ 5,504,656 $ 4,374,562
Cost of revenues 4,591,476 3,752,760 3,117,203
Operating income 305,826 402,648 228,347
Other income (expense):
Interest expense (132,716) (50,219) (29,142)
Net income $ 122,641 $ 266,799 $ 112,403"""


def test_chunks_split_only_at_row_boundaries():
    [table] = find_tables(NETFLIX, 40)
    spans = table_chunks(table, NETFLIX, _words, max_tokens=256, max_chars=120)
    assert len(spans) >= 3
    starts = {table.char_start} | {row.char_start for row in table.rows}
    ends = {row.char_end for row in table.rows}
    for span in spans:
        assert NETFLIX[span.char_start : span.char_end] == span.text
        assert span.char_start in starts and span.char_end in ends
        assert len(span.text) <= 120 or "\n" not in span.text[span.text.find("Revenues") :]
        assert span.index_header == "CONSOLIDATED STATEMENTS OF OPERATIONS | 2015 | 2014 | 2013 | in thousands"
        assert (span.column_headers, span.unit, span.row_label) == (("2015", "2014", "2013"), "thousands", None)
    assert spans[0].text.startswith("CONSOLIDATED STATEMENTS OF OPERATIONS\n")
    assert [s.char_start for s in spans] == sorted(s.char_start for s in spans)
    assert all(a.char_end < b.char_start for a, b in zip(spans, spans[1:], strict=False))
    covered = " ".join(s.text for s in spans)
    assert all(NETFLIX[r.char_start : r.char_end] in covered for r in table.rows)
    assert spans[-1].char_end == table.char_end


def test_one_span_when_the_table_fits():
    [table] = find_tables(NETFLIX, 40)
    [span] = table_chunks(table, NETFLIX, _words, max_tokens=256, max_chars=500)
    assert (span.char_start, span.char_end) == (table.char_start, table.char_end)
    assert span.index_text == f"{span.index_header}\n{span.text}"


def test_a_row_over_the_window_is_cut_at_cells_and_each_part_names_the_row():
    [table] = find_tables(NETFLIX, 40)
    header_words = _words(table.index_header)
    # the whole row does not fit with the table's header (13 + 8 words); with "| Net income" (3 more words) the
    # label and one "$ value" pair fit (20 words), and so do the two other pairs (16 + 4)
    spans = table_chunks(table, NETFLIX, _words, max_tokens=header_words + 7, max_chars=500)
    net = [s for s in spans if s.row_label == "Net income"]
    assert [s.text for s in net] == ["Net income $ 122,641", "$ 266,799 $ 112,403"]
    assert [s.column_headers for s in net] == [("2015",), ("2014", "2013")]
    for span in net:
        assert span.index_header == table.index_header + " | Net income"
        assert NETFLIX[span.char_start : span.char_end] == span.text
        assert _words(span.index_text) <= header_words + 7
    assert [s.text for s in spans if s.row_label is None][-1] == "Interest expense (132,716) (50,219) (29,142)"


def test_chunks_fit_the_real_embedder_window(embedder):
    text = "\n".join(
        ["CONSOLIDATED STATEMENTS OF OPERATIONS", "(in thousands)", "2015 2014 2013"]
        + [f"Line item number {i} {i},001 {i},002 {i},003" for i in range(1, 60)]
    )
    [table] = find_tables(text, 1)
    spans = table_chunks(table, text, embedder.count_tokens, max_tokens=64, max_chars=500)
    assert len(spans) > 1
    for span in spans:
        assert embedder.count_tokens(span.index_text) <= 64
        assert text[span.char_start : span.char_end] == span.text
        assert re.fullmatch(r"(?:.*\n)?Line item number \d+ [\d,]+ [\d,]+ [\d,]+", span.text, re.DOTALL)


# --- CSV -------------------------------------------------------------------------------------------------------------


def test_csv_rows_become_a_table_whose_offsets_index_the_rendered_text():
    text, table = table_from_csv_rows(
        ["Bank", "FY2024 (₹ crore)", "FY2023 (₹ crore)"],
        [["SBI", "1,234", "987"], ["HDFC", "", "800"], ["", ""], ["ICICI", "5", "6", "extra"]],
        title="loans.csv",
    )
    assert text == (
        "Bank: SBI; FY2024 (₹ crore): 1,234; FY2023 (₹ crore): 987\n"
        "Bank: HDFC; FY2023 (₹ crore): 800\n"
        "Bank: ICICI; FY2024 (₹ crore): 5; FY2023 (₹ crore): 6"
    )
    assert (table.column_headers, table.unit, table.currency) == (
        ("FY2024 (₹ crore)", "FY2023 (₹ crore)"),
        "crore",
        "INR",
    )
    assert [(r.label, r.cells) for r in table.rows] == [
        ("SBI", ("1,234", "987")),
        ("HDFC", ("", "800")),
        ("ICICI", ("5", "6")),
    ]
    assert [text[s:e] for s, e in table.rows[1].cell_spans] == ["", "FY2023 (₹ crore): 800"]
    assert [text[r.char_start : r.char_end] for r in table.rows] == text.split("\n")
    spans = table_chunks(table, text, _words, max_tokens=256, max_chars=70)
    assert [s.text for s in spans] == text.split("\n")


def test_csv_table_needs_a_header():
    with pytest.raises(ValueError, match="at least one column name"):
        table_from_csv_rows([], [["a"]])
