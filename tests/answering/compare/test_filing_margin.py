"""The grid's operating margin cell on real FinanceBench 10-Ks equals operating income / revenue read from the
filing's own income statement: the cell's two inputs are the income statement's figures, both printed on the page
the cell cites (read again here with pypdf, not through Prism), and its result is their quotient to one decimal.

Amcor's 10-K when ``../shared/data/financebench-dev/pdfs`` holds one (``AMCOR_*10K*.pdf``); 3M's FY2022 10-K with
its figures read by hand from page 48, "Consolidated Statement of Income": net sales $34,229 million, operating
income $6,539 million, so 6,539 / 34,229 = 19.10 %. Real ingest, Chroma in a temp dir, the real embedder, offline
answers (the programs). Each filing takes minutes to index: slow lane."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pypdf
import pytest

from prism.answering.compare.grid import TEMPLATES
from prism.types import CompareCell, IngestItem
from tests.conftest import offline_service, require_data

pytestmark = pytest.mark.slow

MARGIN = next(t.question for t in TEMPLATES["filings"] if t.label == "Operating margin")
PDFS = ("financebench-dev", "pdfs")
HAND = {"3M_2022_10K.pdf": ("FY2022", "6,539", "34,229", "19.1 %", 48)}
"""Figures read by hand: period, operating income, net sales (USD millions), margin, income statement page."""


def _amcor() -> Path:
    folder = require_data(*PDFS)
    found = sorted(folder.glob("AMCOR_*10K*.pdf"))
    if not found:
        pytest.skip(f"no Amcor 10-K in {folder} (FinanceBench's AMCOR_*10K*.pdf is not "
                    "in this sample)")
    return found[-1]


def _filing(name: str) -> Path:
    return _amcor() if name == "amcor" else require_data(*PDFS, name)


@pytest.fixture(scope="module", params=["amcor", "3M_2022_10K.pdf"])
def margin_cell(request, tmp_path_factory, embedder) -> tuple[Path, CompareCell]:
    pdf = _filing(request.param)
    service = offline_service(tmp_path_factory.mktemp("margin") / "home", embedder, briefing_on_ingest=False)
    assert [r.status for r in service.ingest([IngestItem(pdf)], "filings")] == ["ingested"]
    [cell] = service.compare([pdf.name], [MARGIN], "filings")
    return pdf, cell


def _number(text: str) -> Decimal:
    return Decimal(text.replace(",", "").replace("(", "-").replace(")", ""))


def test_operating_margin_cell_is_operating_income_over_revenue_of_the_income_statement(margin_cell):
    pdf, cell = margin_cell
    assert cell.status == "found", cell.answer
    calc = cell.full["calculation"]
    assert calc is not None and calc["formula"] == "operating income / revenue", cell.answer
    inputs = {i["line_item"]: i for i in calc["inputs"]}
    income, revenue = inputs["operating income"], inputs["revenue"]
    assert income["period"] == revenue["period"] == cell.period
    expected = (_number(income["value"]) / _number(revenue["value"]) * 100).quantize(Decimal("0.1"), ROUND_HALF_UP)
    assert calc["result"] == f"{expected} %" and cell.answer.startswith(f"operating margin {cell.period}: {expected} %")

    # both figures are printed on the income statement page the cell cites (read with pypdf)
    pages = {c["n"]: c["page_start"] for c in cell.full["citations"]}
    assert pages[income["citation"]] == pages[revenue["citation"]]
    page = pages[income["citation"]]
    text = " ".join((pypdf.PdfReader(pdf).pages[page - 1].extract_text() or "").split())
    assert "statement of income" in text.lower() or "statement of earnings" in text.lower() \
        or "statements of operations" in text.lower() or "statement of operations" in text.lower(), text[:300]
    assert income["value"] in text and revenue["value"] in text
    if pdf.name in HAND:
        assert (cell.period, income["value"], revenue["value"], calc["result"], page) == HAND[pdf.name]
