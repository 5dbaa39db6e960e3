"""A table the page break cuts after its first row: the row ending the page is read as the table's head, with the
column headers the next page repeats, and the rest keeps them too, though the same figures stand in many rows and
the header's cells are wrapped ("Per day" over "(aggregate)") beside one-line cells set level between the two lines.

A two-page limits schedule built here with fpdf2, read by the real loader (pypdf), the table finder and pypdfium2's
word positions; then through the real service (embedder, Chroma, BM25, the extractive answer); and the shipped sample
circular, whose limits table is cut the same way.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from fpdf import FPDF

from prism.config import Settings
from prism.ingestion.parsing import load
from prism.ingestion.prepare import strip_running
from prism.ingestion.tables import PdfTableHeaders, document_tables
from prism.ingestion.tables.finders import plausible_headers
from prism.types import IngestItem
from tests.conftest import REPO, offline_service

HEADERS = ("Per transaction", "Per day (aggregate)", "Rule para")
FIRST = ("Person-to-person transfers", "₹1,00,000", "₹1,00,000", "9.1")
REST = (("General merchants", "₹1,00,000", "₹2,00,000", "9.1"), ("Tax payments", "₹5,00,000", "₹5,00,000", "9.3"),
        ("Hospitals and schools", "₹5,00,000", "₹5,00,000", "9.3"), ("Insurance premium", "₹2,00,000", "₹2,00,000",
                                                                      "9.1"),
        ("Small-value wallet", "₹500", "₹4,000 (spends)", "9.2"))
COLUMNS = (300, 380, 470)


def _header(pdf: FPDF, top: float) -> None:
    """"Category" and "Per transaction" set level between the two lines of "Per day / (aggregate)" and "Rule / para"."""
    pdf.set_xy(56, top + 6)
    pdf.cell(w=200, h=12, text="Category")
    pdf.set_xy(COLUMNS[0], top + 6)
    pdf.cell(w=70, h=12, text="Per transaction", align="R")
    for x, (upper, lower) in zip(COLUMNS[1:], (("Per day", "(aggregate)"), ("Rule", "para")), strict=True):
        pdf.set_xy(x, top)
        pdf.cell(w=70, h=12, text=upper, align="R")
        pdf.set_xy(x, top + 12)
        pdf.cell(w=70, h=12, text=lower, align="R")


def _row(pdf: FPDF, row: tuple[str, ...], top: float) -> None:
    pdf.set_xy(56, top)
    pdf.cell(w=200, h=14, text=row[0])
    for x, cell in zip(COLUMNS, row[1:], strict=False):
        pdf.set_xy(x, top)
        pdf.cell(w=70, h=14, text=cell, align="R")


def _limits(path: Path) -> Path:
    """Page 1: prose, the table's header and its first row at the foot of the page, a page number; page 2: a running
    head, the header again, the other rows."""
    pdf = FPDF(unit="pt", format="A4")
    pdf.set_auto_page_break(False)
    pdf.add_font("DejaVu", fname=str(_dejavu()))
    pdf.set_font("DejaVu", size=9)
    pdf.add_page()
    lines = ("Kestrel Bank Ltd - UPI operating circular", "4. Transaction limits",
             "4.1 The limits below apply per customer per UPI handle and are enforced by the switch.")
    for i, line in enumerate(lines):
        pdf.set_xy(56, 56 + 16 * i)
        pdf.cell(w=483, h=14, text=line)
    _header(pdf, 720)
    _row(pdf, FIRST, 752)
    pdf.set_xy(56, 800)
    pdf.cell(w=483, h=12, text="Page 1 of 2", align="C")
    pdf.add_page()
    pdf.set_xy(56, 30)
    pdf.cell(w=483, h=12, text="Kestrel Bank Ltd - UPI operating circular - for internal use", align="R")
    _header(pdf, 60)
    for k, row in enumerate(REST):
        _row(pdf, row, 92 + 18 * k)
    pdf.set_xy(56, 200)
    pdf.cell(w=483, h=14, text="4.2 A customer may make at most 20 transfers in any rolling 24 hours.")
    pdf.output(str(path))
    return path


def _dejavu() -> Path:
    """A TrueType font with the rupee sign (matplotlib ships DejaVu Sans)."""
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"


def _tables(path: Path):
    data = path.read_bytes()
    pdf = PdfTableHeaders(data)
    try:
        doc, _ = strip_running(load(data, path.name), Settings())
        return [t for _, t in document_tables(doc, True, pdf)]
    finally:
        pdf.close()


def test_the_row_ending_a_page_is_the_head_of_the_table_the_next_page_continues(tmp_path):
    head, rest = _tables(_limits(tmp_path / "limits.pdf"))
    assert (head.page, [r.label for r in head.rows], head.rows[0].cells) == (1, [FIRST[0]], ("1,00,000", "1,00,000",
                                                                                             "9.1"))
    assert head.column_headers == HEADERS
    assert (rest.page, rest.column_headers, rest.currency) == (2, HEADERS, "INR")
    assert [r.label for r in rest.rows] == [row[0] for row in REST]


def test_a_page_ending_in_a_row_is_no_table_when_the_next_page_opens_with_a_paragraph(tmp_path):
    pdf = FPDF(unit="pt", format="A4")
    pdf.add_font("DejaVu", fname=str(_dejavu()))
    pdf.set_font("DejaVu", size=9)
    pdf.add_page()
    _header(pdf, 720)
    _row(pdf, FIRST, 752)
    pdf.add_page()
    for k, line in enumerate(("5. Merchant charges", "5.1 No charge applies to transfers between persons.",
                              "5.2 Merchants pay the rates below on each payment they receive, from the first",
                              "payment of the month; the rates are reviewed every quarter.")):
        pdf.set_xy(56, 60 + 16 * k)
        pdf.cell(w=483, h=14, text=line)
    for k, row in enumerate(REST):
        _row(pdf, row, 300 + 18 * k)
    pdf.output(str(tmp_path / "two.pdf"))
    assert [t.page for t in _tables(tmp_path / "two.pdf")] == [2]


def test_the_sample_circulars_limits_table_keeps_its_first_row_and_headers():
    head, rest = _tables(REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf")[:2]
    headers = ("Per transaction", "Per day (aggregate)", "Master Circular para")
    assert (head.page, head.rows[0].label, head.rows[0].cells, head.column_headers) == (
        1, "P2P transfers", ("1,00,000", "1,00,000", "9.1"), headers)
    assert (rest.page, rest.column_headers, rest.rows[0].label) == (2, headers, "P2M – general merchants")
    assert (rest.rows[-1].label, rest.rows[-1].cells) == ("UPI Lite (on-device wallet)",
                                                          ("500", "4,000 (spends)", "9.2"))


def test_a_note_after_a_cells_figure_stays_in_its_cell(tmp_path):
    """"₹4,000 (spends)": the note belongs to the figure before it; the row keeps its label and all its values."""
    rest = _tables(_limits(tmp_path / "limits.pdf"))[1]
    assert (rest.rows[-1].label, rest.rows[-1].cells) == ("Small-value wallet", ("500", "4,000 (spends)", "9.2"))


@pytest.fixture(scope="module")
def svc(tmp_path_factory, embedder):
    root = tmp_path_factory.mktemp("cut")
    service = offline_service(root / "home", embedder, briefing_on_ingest=False)
    [result] = service.ingest([IngestItem(_limits(root / "kestrel_upi_limits.pdf"))], "bank")
    assert result.status == "ingested"
    return service


@pytest.mark.parametrize(("question", "figure", "page"), [
    ("Per-transaction limit for person-to-person transfers", "Per transaction: ₹1,00,000", 1),
    ("Per-day limit for general merchants", "Per day (aggregate): ₹2,00,000", 2),
    ("What is the daily limit for a small-value wallet?", "Per day (aggregate): ₹4,000 (spends)", 2),
])
def test_a_limit_is_quoted_with_its_column_on_either_side_of_the_break(svc, question, figure, page):
    answer = svc.ask(question, "bank")
    assert figure in answer.answer, answer.answer
    assert "₹9." not in answer.answer  # the "Rule para" column holds paragraph numbers, never figures
    cited = answer.citations[0]
    assert cited.page_start == page
    assert cited.text.startswith("Category Per transaction Per day Rule\n(aggregate) para\n\n")  # chunked with its rows


def test_a_table_is_titled_by_the_caption_nearest_its_rows_and_headed_below_it():
    """The fee schedule's Table 5 (one charge per row, no table of figures) stands above Table 6's caption: Table 6's
    rows are titled by their own caption, and their headers, the same figures in many rows, are read below it."""
    tables = _tables(REPO / "data" / "sample" / "meridian_fee_schedule_tables.pdf")
    [lockers] = [t for t in tables if t.rows and t.rows[0].label == "Small"]
    assert lockers.title == "Table 6 – Safe deposit locker rent (per year)"
    assert lockers.column_headers == ("Metro / urban", "Semi-urban", "Rural")


def test_a_row_whose_last_cell_is_a_word_is_a_row_of_its_table():
    """The fee schedule's "Unlimited" free ATM transactions: the row keeps its label and its three cells."""
    tables = _tables(REPO / "data" / "sample" / "meridian_fee_schedule_tables.pdf")
    [cards] = [t for t in tables if (t.title or "").startswith("Table 3")]
    assert [(r.label, r.cells) for r in cards.rows[3:5]] == [
        ("Free ATM transactions a month – Meridian ATMs", ("5", "5", "Unlimited")),
        ("Free ATM transactions a month – other banks, metro", ("3", "3", "5"))]


def test_headers_stitched_from_the_tables_own_values_are_no_headers(tmp_path):
    table = _tables(_limits(tmp_path / "limits.pdf"))[1]
    assert plausible_headers(("9.1", "Per day"), None) == ()
    assert plausible_headers(("Tax", "9"), replace(table, rows=(replace(table.rows[0], cells=("9", "9", "9")),))) == ()
    assert plausible_headers(HEADERS, table) == HEADERS


def test_headers_read_by_rows_lines_are_refused_when_two_columns_share_them(tmp_path):
    """Columns placed by their rows' lines (the same figures in every row) take no headers that two columns share
    ("Store count Total" twice) or that name two years: such words were not read from a header."""
    pdf = FPDF(unit="pt", format="A4")
    pdf.add_font("DejaVu", fname=str(_dejavu()))
    pdf.set_font("DejaVu", size=9)
    pdf.add_page()
    pdf.set_xy(300, 92)
    pdf.cell(w=160, h=12, text="Store count", align="C")
    for x in COLUMNS[:2]:
        pdf.set_xy(x, 104)
        pdf.cell(w=70, h=12, text="Total", align="R")
    for k, label in enumerate(("Alabama", "Alaska", "Arizona", "Arkansas")):
        _row(pdf, (label, "12", "12"), 120 + 16 * k)
    pdf.output(str(tmp_path / "stores.pdf"))
    [table] = _tables(tmp_path / "stores.pdf")
    assert [r.label for r in table.rows] == ["Alabama", "Alaska", "Arizona", "Arkansas"]
    assert table.column_headers == ()
