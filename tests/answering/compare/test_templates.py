"""Grid templates fill every placeholder per cell, no export carries a placeholder, and a figure question's cell gets
a figure.

Two generated 10-Ks whose research and development row is worded differently ("Technology and development" at
Netflix, "Research and development" at Adobe), each with a sentence that defines R&D without an amount; the real
parser, embedder, Chroma and BM25 (offline service: extractive answers through the table-cell path).
"""

from __future__ import annotations

import io

import pandas as pd
import pytest

from prism.answering.compare.export import grid_csv, grid_markdown, grid_xlsx
from prism.answering.compare.grid import NOT_FOUND_TEXT, TEMPLATES, cell_from_answer, compare_cells
from prism.answering.compare.templates import PLACEHOLDERS, fill_question, resolve_question, row_label, unfilled
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
    assert missing.missing == ("ticker",) and missing.asked == "Who is the document's ticker's CEO?"
    assert row_label(RD) == "What was research and development expense in each document's fiscal period?"
    assert row_label("What was revenue{period}?") == "What was revenue in each document's fiscal period?"
    assert row_label("Who audits {entity}?") == "Who audits each document's company?"


def test_no_export_carries_a_placeholder_and_an_unfillable_one_is_said_in_words():
    """Every placeholder in a template row, one document whose profile fills them all and one (a circular) whose
    profile has none but its entity: no CSV, XLSX or Markdown cell, header or row carries ``{name}`` or ``[name]``;
    the circular's cells that need a missing field say which, in words, and nothing is asked of it for them."""
    filing = DocumentRecord(doc_id="1" * 64, source="acme_10k.pdf", kind="pdf", pages=90, chunks=400,
                            profile={"entity": "Acme Corp", "type": "10-K", "period": "FY2023", "ticker": "ACME",
                                     "fiscal_year_end": "June 30", "currency": "USD", "unit": "millions",
                                     "date": "2023-08-17", "reference": "0001748790-23-000018"})
    circular = DocumentRecord(doc_id="2" * 64, source="rbi.pdf", kind="pdf", pages=4, chunks=12,
                              profile={"entity": "Reserve Bank of India", "period": "2025-04-01"})
    every = "What did {entity} ({ticker}, {type}) report in {currency} {unit} for {period} to {fiscal_year_end} " \
            "as of {date} under {reference}?"
    questions = [*(t.question for t in TEMPLATES["filings"]), every, "Who is {entity}'s auditor?"]
    assert set(unfilled(every.replace("{", "[").replace("}", "]"))) == set(PLACEHOLDERS)  # the check sees them all
    asked: list[tuple[str, str]] = []

    def ask(source: str, question: str) -> Answer:
        asked.append((source, question))
        return Answer(answer=f"Operating income, {question[-7:-1]}: $1,596 million [1]", mode="extractive")

    cells = list(compare_cells(ask, [filing, circular], questions, "k"))
    assert all(not unfilled(q) for _, q in asked) and ("rbi.pdf", every) not in asked
    by = {(c.document, c.question): c for c in cells}
    assert by[("acme_10k.pdf", TEMPLATES["filings"][2].question)].asked == "What was the operating margin in FY2023?"
    assert by[("rbi.pdf", TEMPLATES["filings"][2].question)].asked == "What was the operating margin?"
    not_asked = by[("rbi.pdf", every)]
    assert not_asked.status == "not_found" and not_asked.answer.startswith(
        "Not asked: this document's profile has no ticker or document type or currency or unit or fiscal year end "
        "or date or reference number, which the question needs")
    assert by[("rbi.pdf", "Who is {entity}'s auditor?")].asked == "Who is Reserve Bank of India's auditor?"

    grid = CompareGrid("", "Every placeholder", ("acme_10k.pdf", "rbi.pdf"), tuple(questions), tuple(cells))
    titles = {"acme_10k.pdf": "Acme Corp 10-K FY2023"}
    csv_text = grid_csv(grid, titles).decode("utf-8-sig")
    md = grid_markdown(grid, titles)
    sheet = pd.read_excel(io.BytesIO(grid_xlsx(grid, titles)), sheet_name="Comparison", index_col=0, dtype=str)
    xlsx_text = " ".join([*map(str, sheet.index), *map(str, sheet.columns), *sheet.fillna("").to_numpy().ravel()])
    for name, text in (("csv", csv_text), ("md", md), ("xlsx", xlsx_text)):
        assert unfilled(text) == [], (name, unfilled(text))
        assert "What was the operating margin in each document's fiscal period?" in text, name
        assert "has no ticker" in text and "in FY2023" in text, name
    frame = pd.read_csv(io.StringIO(csv_text), index_col="question")
    assert list(frame.index) == [row_label(q) for q in questions] and len(frame.columns) == 2


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
    label = "What was research and development expense in each document's fiscal period?"
    assert list(frame.index) == [label]
    assert frame.loc[label, NETFLIX].startswith("[What was research and development expense in FY2015?] ")
    sheet = pd.read_excel(io.BytesIO(grid_xlsx(grid)), sheet_name="Comparison", index_col=0)
    assert sheet.loc[label, ADOBE] == frame.loc[label, ADOBE] and "862,730" in sheet.loc[label, ADOBE]
    md = grid_markdown(grid)
    assert unfilled(md) == [] and "in FY2015?]" in md
    assert unfilled(grid_csv(grid).decode("utf-8-sig")) == []


def test_a_cell_is_the_chat_answer_cut_short_and_a_declined_one_is_not_found():
    """No figure logic of the grid's own: a cell states what the Chat answer states (a definition stays a
    definition), and only a declined answer is ``not_found``."""
    record = _record(entity="Netflix, Inc.", period="FY2015")
    asked = "What was research and development expense in FY2015?"
    answer = Answer(answer=f"Extractive answer (no LLM configured):\n\n- {DEFINITION} [1]", mode="extractive")
    cell = cell_from_answer(answer, record, RD, asked, "FY2015")
    assert (cell.status, cell.answer) == ("found", f"{DEFINITION} [1]")
    declined = cell_from_answer(Answer(answer="The documents don't answer that.", mode="extractive",
                                       declined=True), record, RD, asked, "FY2015")
    assert (declined.status, declined.answer) == ("not_found", NOT_FOUND_TEXT)


def test_financebench_netflix_and_adobe_rd_cells(tmp_path, embedder):
    files = {name: require_data("financebench-dev", "pdfs", f"{name}_2015_10K.pdf") for name in ("NETFLIX", "ADOBE")}
    service = offline_service(tmp_path / "home", embedder, briefing_on_ingest=False)
    service.ingest([IngestItem(p) for p in files.values()], "fb")
    cells = {c.document: c for c in service.compare([p.name for p in files.values()], [RD], "fb")}
    netflix, adobe = cells[files["NETFLIX"].name], cells[files["ADOBE"].name]
    assert "650,788" in netflix.answer and "862,730" in adobe.answer


def test_the_operating_margin_template_row_is_computed_from_each_statement(svc):
    """The statement pages write the fiscal year as "2015", the question "FY2015": the gate lets the metric the
    programs compute whole answer (305,826 / 6,779,511 = 4.51 %), in the grid as in Chat."""
    margin = next(t.question for t in TEMPLATES["filings"] if t.label == "Operating margin")
    for cell in svc.compare([NETFLIX, ADOBE], [margin], "rd", use_cache=False):
        assert (cell.status, cell.asked) == ("found", "What was the operating margin in FY2015?"), cell.answer
        assert cell.answer.startswith("operating margin FY2015: 4.5 %") and cell.full["calculation"]["inputs"][0][
            "value"] == "305,826"
        chat = svc.ask(cell.asked, "rd", sources=[cell.document], web=False)
        assert not chat.declined and chat.calculation is not None and chat.calculation.result == "4.5 %"
