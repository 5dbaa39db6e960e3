"""Grid templates fill every placeholder per cell, and a figure question's cell gets a figure.

Two generated 10-Ks whose research and development row is worded differently ("Technology and development" at
Netflix, "Research and development" at Adobe), each with a sentence that defines R&D without an amount; the real
parser, embedder, Chroma and BM25 (offline service: extractive answers through the table-cell path).
"""

from __future__ import annotations

import io
from dataclasses import replace

import pandas as pd
import pytest

from prism.answering.compare.export import grid_csv, grid_markdown, grid_xlsx
from prism.answering.compare.grid import NO_FIGURE_TEXT, cell_from_answer, compare_cells, figure_item
from prism.answering.compare.templates import fill_question, resolve_question, row_label
from prism.errors import PrismError
from prism.types import Answer, CompareGrid, DocumentRecord, IngestItem
from tests.builders import rd_10k_pdf
from tests.conftest import offline_service, require_data

RD = "What was research and development expense in {period}?"
NETFLIX = "Netflix_2015_10K.pdf"
ADOBE = "Adobe_2015_10K.pdf"
DEFINITION = ("Research and development expenses consist primarily of payroll and related costs of the engineers "
              "who design and develop our products, and are expensed as incurred.")


@pytest.fixture(scope="module")
def svc(tmp_path_factory, embedder):
    root = tmp_path_factory.mktemp("rd_grid")
    netflix = rd_10k_pdf(root / NETFLIX, "NETFLIX, INC.", "Technology and development", ("650,788", "472,321"),
                         DEFINITION)
    adobe = rd_10k_pdf(root / ADOBE, "ADOBE SYSTEMS INCORPORATED", "Research and development", ("862,730", "844,353"),
                       DEFINITION)
    service = offline_service(root / "home", embedder, briefing_on_ingest=False)
    assert [r.status for r in service.ingest([IngestItem(netflix), IngestItem(adobe)], "rd")] == ["ingested"] * 2
    return service


def _record(**profile) -> DocumentRecord:
    return DocumentRecord(doc_id="0" * 64, source="x.pdf", kind="pdf", pages=1, chunks=1, profile=profile or None)


def test_every_placeholder_is_filled_from_the_profile():
    record = _record(entity="Netflix, Inc.", type="10-K", period="FY2015", currency="USD")
    assert fill_question(RD, record).asked == "What was research and development expense in FY2015?"
    assert resolve_question("What was {entity}'s revenue{period} in {currency}?", record) == (
        "What was Netflix, Inc.'s revenue in FY2015 in USD?", "FY2015")
    circular = _record(entity="Reserve Bank of India", type="rbi_circular", period="2025-04-01")
    assert fill_question(RD, circular).asked == "What was research and development expense?"  # no fiscal period
    missing = fill_question("Who is {ticker}'s CEO?", circular)
    assert missing.missing == ("ticker",) and "{" not in missing.asked
    assert row_label(RD) == "What was research and development expense in [period]?"
    assert row_label("What was revenue{period}?") == "What was revenue in [period]?"


def test_an_unknown_placeholder_is_refused_by_name_before_anything_is_asked():
    asked: list[str] = []
    with pytest.raises(PrismError, match=r"unknown placeholder \{year\}.*\{period\}, \{entity\}"):
        list(compare_cells(lambda s, q: asked.append(q), [_record()], ["What was revenue?", "Revenue in {year}?"],
                           "k"))  # type: ignore[arg-type,return-value]
    assert asked == []


def test_a_figure_question_gets_the_figure_from_each_documents_own_row(svc):
    cells = {c.document: c for c in svc.compare([NETFLIX, ADOBE], [RD], "rd")}
    netflix, adobe = cells[NETFLIX], cells[ADOBE]
    assert netflix.asked == adobe.asked == "What was research and development expense in FY2015?"
    assert netflix.status == adobe.status == "found"
    assert "650,788" in netflix.answer and "consist primarily" not in netflix.answer
    assert "862,730" in adobe.answer and "consist primarily" not in adobe.answer
    assert [c.page for c in netflix.citations] == [3] and [c.page for c in adobe.citations] == [3]

    grid = CompareGrid("", "R&D", (NETFLIX, ADOBE), (RD,), tuple(cells.values()))
    frame = pd.read_csv(io.BytesIO(grid_csv(grid)), index_col="question", encoding="utf-8-sig")
    label = "What was research and development expense in [period]?"
    assert list(frame.index) == [label]
    assert frame.loc[label, NETFLIX].startswith("[What was research and development expense in FY2015?] ")
    sheet = pd.read_excel(io.BytesIO(grid_xlsx(grid)), sheet_name="Comparison", index_col=0)
    assert sheet.loc[label, ADOBE] == frame.loc[label, ADOBE] and "862,730" in sheet.loc[label, ADOBE]
    md = grid_markdown(grid)
    assert "{period}" not in md and "in FY2015?]" in md
    assert "{period}" not in grid_csv(grid).decode("utf-8-sig")


def test_a_figure_question_answered_without_a_figure_is_not_found_and_says_why():
    assert figure_item("What was research and development expense in FY2015?") == "research and development"
    assert figure_item("What does research and development include?") is None
    assert figure_item("What are the key risk factors?") is None
    record = _record(entity="Netflix, Inc.", period="FY2015")
    answer = Answer(answer=f"Extractive answer (no LLM configured):\n\n- {DEFINITION} [1]", mode="extractive")
    asked = "What was research and development expense in FY2015?"
    cell = cell_from_answer(answer, record, RD, asked, "FY2015")
    assert cell.status == "not_found" and cell.answer == NO_FIGURE_TEXT.format(item="research and development")
    found = cell_from_answer(replace(answer, answer="- Technology and development, 2015: $650,788 thousand [1]"),
                             record, RD, asked, "FY2015")
    assert found.status == "found"


def test_financebench_netflix_and_adobe_rd_cells(tmp_path, embedder):
    files = {name: require_data("financebench-dev", "pdfs", f"{name}_2015_10K.pdf") for name in ("NETFLIX", "ADOBE")}
    service = offline_service(tmp_path / "home", embedder, briefing_on_ingest=False)
    service.ingest([IngestItem(p) for p in files.values()], "fb")
    cells = {c.document: c for c in service.compare([p.name for p in files.values()], [RD], "fb")}
    netflix, adobe = cells[files["NETFLIX"].name], cells[files["ADOBE"].name]
    assert "650,788" in netflix.answer and "862,730" in adobe.answer
