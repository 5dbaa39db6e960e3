"""A table continued on the next page, its header and unit printed on the first page only, keeps them on the
continuation when its columns line up (same count, same positions on the page); a table on the next page whose
columns stand elsewhere keeps none.

Two-page schedules built here with fpdf2 (columns set at fixed positions), read by the real loader (pypdf), the
table finder and pypdfium2's word positions; then through the real service (embedder, Chroma, BM25, the extractive
answer) for a row printed on the second page.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from fpdf import FPDF

from prism.ingestion.parsing import load
from prism.ingestion.tables import PdfTableHeaders, document_tables
from prism.types import IngestItem
from tests.conftest import offline_service

FIRST = (("Agriculture and allied activities", "4,812.36", "3,905.14"), ("Micro and small enterprises", "3,120.50",
         "2,876.25"), ("Medium enterprises", "1,045.10", "998.40"), ("Large industries", "812.75", "790.05"),
         ("Housing loans", "5,406.90", "4,711.35"), ("Vehicle loans", "2,214.60", "1,987.20"),
         ("Education loans", "318.45", "290.10"), ("Gold loans", "1,764.30", "1,402.85"))
SECOND = (("Microfinance", "2,931.70", "2,402.15"), ("Loans against property", "1,288.05", "1,104.60"),
          ("Credit card receivables", "402.20", "351.95"), ("Other retail loans", "655.35", "590.80"),
          ("Total advances", "24,772.26", "21,110.84"))


def _schedule(path: Path, second_columns: Sequence[float] = (380, 460)) -> Path:
    """Page 1: the bank, the schedule's heading, its unit and column headers, eight rows; page 2: a running head and
    five more rows, their figures set at ``second_columns`` (the first page's positions by default)."""
    pdf = FPDF(unit="pt", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=10)
    pdf.add_page()
    for i, line in enumerate(("KESTREL SMALL FINANCE BANK LIMITED", "Schedule 9 - Advances by sector",
                              "(Rs. in crore)")):
        pdf.set_xy(56, 56 + 15 * i)
        pdf.cell(w=483, h=15, text=line)
    rows: list[tuple[str, ...]] = [("Sector", "31.03.2025", "31.03.2024"), *FIRST]
    _rows(pdf, rows, 125, (380, 460))
    pdf.add_page()
    pdf.set_xy(56, 40)
    pdf.cell(w=483, h=15, text="Kestrel Small Finance Bank Limited - Notes to accounts")
    _rows(pdf, SECOND, 70, second_columns)
    pdf.output(str(path))
    return path


def _rows(pdf: FPDF, rows: Sequence[Sequence[str]], top: float, columns: Sequence[float]) -> None:
    for k, row in enumerate(rows):
        pdf.set_xy(56, top + 16 * k)
        pdf.cell(w=240, h=15, text=row[0])
        for x, cell in zip(columns, row[1:], strict=True):
            pdf.set_xy(x, top + 16 * k)
            pdf.cell(w=70, h=15, text=cell, align="R")


def _tables(path: Path):
    data = path.read_bytes()
    pdf = PdfTableHeaders(data)
    try:
        return [t for _, t in document_tables(load(data, path.name), True, pdf)]
    finally:
        pdf.close()


def test_the_continuation_takes_the_header_title_and_unit_of_the_first_page(tmp_path):
    first, second = _tables(_schedule(tmp_path / "schedule.pdf"))
    assert first.column_headers == ("31.03.2025", "31.03.2024")
    assert (second.page, second.column_headers, second.unit, second.currency, second.title) == (
        2, first.column_headers, "crore", "INR", first.title)
    assert [r.label for r in second.rows] == [label for label, *_ in SECOND]


def test_a_next_page_table_whose_columns_stand_elsewhere_keeps_no_header(tmp_path):
    first, second = _tables(_schedule(tmp_path / "shifted.pdf", second_columns=(220, 300)))
    assert first.column_headers == ("31.03.2025", "31.03.2024")
    assert second.column_headers != first.column_headers
    assert second.unit is None


@pytest.fixture(scope="module")
def svc(tmp_path_factory, embedder):
    root = tmp_path_factory.mktemp("continued")
    service = offline_service(root / "home", embedder, briefing_on_ingest=False)
    [result] = service.ingest([IngestItem(_schedule(root / "kestrel_schedule_9.pdf"))], "bank")
    assert result.status == "ingested"
    return service


@pytest.mark.parametrize(("question", "figure"), [
    ("What were microfinance advances as at 31 March 2025?", "Microfinance, 31.03.2025: ₹2,931.70 crore"),
    ("What were loans against property in FY 2023-24?", "Loans against property, 31.03.2024: ₹1,104.60 crore"),
])
def test_a_row_on_the_second_page_is_quoted_with_its_column_and_unit(svc, question, figure):
    answer = svc.ask(question, "bank")
    assert figure in answer.answer, answer.answer
    [cited] = {c.page_start for c in answer.citations}
    assert cited == 2
