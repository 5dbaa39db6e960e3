"""Excel and HTML tables end to end: the real service (real embedder, Chroma, BM25) ingests the case files and the
figure under its full column name is found and answered."""

from __future__ import annotations

import pytest

from prism.service import PrismService
from prism.types import IngestItem
from tests.conftest import CASES, offline_service

WS = "tables"
QUESTION = "net profit of the Retail banking segment in FY2023"


@pytest.fixture(scope="module")
def svc(tmp_path_factory, embedder) -> PrismService:
    service = offline_service(tmp_path_factory.mktemp("tables_home"), embedder, ocr_enabled=False)
    names = ["c56_merged_header.xlsx", "c55_formulas_nocache.xlsx", "c67_segment_results.html"]
    results = service.ingest([IngestItem(CASES / n) for n in names], WS, briefing=False)
    assert [r.status for r in results] == ["ingested"] * len(names)
    return service


def test_c56_the_chunk_holds_retail_banking_with_231_under_its_full_column_name(svc):
    top = svc.search(QUESTION, WS).results[0]
    assert top.source == "c56_merged_header.xlsx" and top.locator.startswith("Sheet 'Segments' row")
    assert "Segment: Retail banking;" in top.text and "Net profit (Rs. crore) FY2023: 231" in top.text


def test_c56_the_extractive_answer_gives_231(svc):
    answer = svc.ask(QUESTION, WS)
    assert not answer.declined and "231" in answer.answer
    assert answer.citations[0].source == "c56_merged_header.xlsx"


def test_c55_computed_total_is_searchable(svc):
    results = svc.search("Total deposits FY2024", WS, sources=["c55_formulas_nocache.xlsx"]).results
    assert any("Branch: Total deposits; Deposits FY2024: 885; Deposits FY2023: 818" in r.text for r in results[:2])


def test_c67_html_row_is_found_under_its_spanned_headers(svc):
    results = svc.search("gross NPA of Retail vehicle loans in FY2023", WS,
                         sources=["c67_segment_results.html"]).results
    assert any("Segment: Retail; Product: Vehicle loans;" in r.text and "Gross NPA (%) FY2023: 3.4" in r.text
               for r in results[:2])
