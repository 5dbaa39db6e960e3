"""The comparison grid on the real sample documents (real parser, embedder, Chroma, BM25, retriever, extractive
answers): known answers cite the right page, a question a document does not answer is ``not_found`` there, every
cell stays inside its own document, the cache answers a reopened grid and a replaced document is asked again alone;
plus the pure helpers (short answers, template periods, exports) and ``python -m prism compare``."""

from __future__ import annotations

import io
import json
from dataclasses import replace

import pandas as pd
import pytest
import tenacity

from prism.answering.compare.export import cell_text, grid_csv, grid_markdown, grid_xlsx
from prism.answering.compare.grid import compare_cells, resolve_question, settings_key, short_answer
from prism.answering.llm import wrap_llms
from prism.cli.common import EXIT_FAILED, EXIT_OK
from prism.cli.main import main
from prism.errors import DocumentNotFoundError, PrismError
from prism.service import PrismService
from prism.types import CellCitation, CompareCell, CompareGrid, DocumentRecord, IngestItem
from tests.conftest import REPO, offline_service
from tests.fakes_llm import ScriptedLLM, rate_limit_error

SAMPLE = REPO / "data" / "sample"
UPI = "meridian_bank_upi_operating_circular.pdf"
MASTER = "rbi_style_master_circular_digital_payments.pdf"
CALL = "meridian_q2_fy25_earnings_call.pdf"
COOLING = "What is the cooling period after registering UPI on a new device?"
NII = "What was net interest income{period}?"
PENALTY = "What is the penalty for non-compliance?"


@pytest.fixture(scope="module")
def svc(tmp_path_factory, embedder) -> PrismService:
    service = offline_service(tmp_path_factory.mktemp("compare_home"), embedder, briefing_on_ingest=False)
    results = service.ingest([IngestItem(SAMPLE / name) for name in (UPI, MASTER, CALL)], "cmp")
    assert [r.status for r in results] == ["ingested"] * 3
    return service


@pytest.fixture(scope="module")
def grid(svc) -> dict[tuple[str, str], CompareCell]:
    cells = list(svc.compare([UPI, MASTER, CALL], [COOLING, NII, PENALTY], "cmp"))
    return {(c.document, c.question): c for c in cells}


def _pages(cell: CompareCell) -> set[int | None]:
    return {c.page for c in cell.citations}


def test_known_answers_cite_the_right_page(grid):
    assert len(grid) == 9
    upi, master = grid[(UPI, COOLING)], grid[(MASTER, COOLING)]
    # Meridian's cooling period: defined on page 1 (3.4), its rule on page 2 (4.3.1), its cap in Annexure B (page 5);
    # the definition, quoted whole across the two chunks that cut it, fills the cell with its page
    assert upi.status == "found" and _pages(upi) and _pages(upi) <= {1, 2, 5} and "24 hours" in upi.answer
    assert master.status == "found" and 1 in _pages(master)  # paragraph 4.4, page 1
    nii = grid[(CALL, NII)]
    assert nii.status == "found" and nii.period == "Q2 FY2025"
    assert nii.asked == "What was net interest income in Q2 FY2025?"
    assert 1 in _pages(nii) and "4,862" in nii.answer


def test_a_question_a_document_does_not_answer_is_not_found_with_the_closest_passage(grid):
    for doc in (UPI, MASTER):
        cell = grid[(doc, PENALTY)]
        assert cell.status == "not_found" and cell.answer == "Not found in this document." and not cell.citations
        assert cell.closest is not None and cell.closest.file == doc
    master_nii = grid[(MASTER, NII)]
    assert master_nii.status == "not_found" and master_nii.period is None  # a circular has no fiscal period
    assert master_nii.asked == "What was net interest income?"


def test_every_cell_stays_inside_its_own_document(grid):
    for (doc, _), cell in grid.items():
        assert cell.status in ("found", "not_found")
        cited = [*cell.citations, *([cell.closest] if cell.closest else [])]
        assert cited and {c.file for c in cited} == {doc}
        assert cell.full is not None
        assert {c["source"] for c in cell.full["citations"] + cell.full["retrieved"]} == {doc}


def test_reopening_is_cached_and_a_replaced_document_is_asked_again_alone(svc, grid):
    again = list(svc.compare([UPI, MASTER, CALL], [COOLING, NII, PENALTY], "cmp"))
    assert all(c.cached for c in again)
    assert {(c.document, c.question): c for c in again} == grid
    records = {d.source: d for d in svc.documents("cmp")}
    replaced = replace(records[MASTER], doc_id="f" * 64)  # new bytes under the same name: a new document id
    asked: list[tuple[str, str]] = []

    def ask(source: str, question: str):
        asked.append((source, question))
        return svc.ask(question, "cmp", sources=[source])

    key = settings_key({"mode": "hybrid"})
    store = svc.grids("cmp")
    first = list(compare_cells(ask, [records[UPI], records[MASTER]], [PENALTY], key, store))
    assert len(asked) == 2 and not any(c.cached for c in first)
    asked.clear()
    second = list(compare_cells(ask, [records[UPI], replaced], [PENALTY], key, store))
    assert asked == [(MASTER, PENALTY)]
    assert [c.cached for c in second] == [True, False]


def test_a_rate_limited_llm_cell_says_so_keeps_its_stand_in_and_is_asked_again(svc, embedder):
    fake = ScriptedLLM(respond=rate_limit_error())  # every call: HTTP 429
    settings = svc.settings.model_copy(update={"llm_max_attempts": 2})
    llm_svc = PrismService(settings, embedder=embedder,
                           llms=wrap_llms(fake, settings=settings, wait=tenacity.wait_none()))
    first = list(llm_svc.compare([UPI], [COOLING], "cmp"))
    cell = first[0]
    assert cell.status == "found" and "24 hours" in cell.answer  # the extractive stand-in, with its citations
    assert cell.note is not None and "rate-limiting" in cell.note and "after 2 attempt(s)" in cell.note
    assert cell.to_dict()["note"] == cell.note and CompareCell.from_dict(cell.to_dict()).note == cell.note
    calls = len(fake.calls)
    assert calls >= 2  # the answer call was retried
    again = list(llm_svc.compare([UPI], [COOLING], "cmp"))
    assert not again[0].cached and len(fake.calls) > calls  # not cached: the next run asks the LLM again


def test_compare_refuses_unknown_documents_and_too_many(svc):
    with pytest.raises(DocumentNotFoundError, match="no document named 'nope.pdf'"):
        svc.compare([UPI, "nope.pdf"], [PENALTY], "cmp")
    records = [DocumentRecord(doc_id=f"{i:064x}", source=f"d{i}.pdf", kind="pdf", pages=1, chunks=1) for i in range(13)]
    with pytest.raises(PrismError, match="at most 12 documents; 13"):
        list(compare_cells(lambda s, q: None, records, [PENALTY], "k"))  # type: ignore[arg-type,return-value]
    with pytest.raises(PrismError, match="at least one document and one question"):
        list(compare_cells(lambda s, q: None, records[:1], ["  "], "k"))  # type: ignore[arg-type,return-value]


def test_saved_grids_round_trip_and_export(svc, grid):
    questions = (COOLING, NII, PENALTY)
    saved = svc.grids("cmp").save(CompareGrid("", "  Circulars   vs call ", (UPI, MASTER, CALL), questions,
                                              tuple(grid.values())))
    assert saved.id.startswith("g-") and saved.title == "Circulars vs call"
    [listed] = svc.grids("cmp").list()
    assert listed == saved and svc.grids("cmp").get(saved.id).cell(CALL, NII) == grid[(CALL, NII)]
    frame = pd.read_csv(io.BytesIO(grid_csv(saved)), index_col="question", encoding="utf-8-sig")
    nii_row = "What was net interest income in each document's fiscal period?"  # a template row: no placeholder
    assert list(frame.columns) == [UPI, MASTER, CALL] and list(frame.index) == [COOLING, nii_row, PENALTY]
    assert frame.loc[PENALTY, UPI].startswith("Not found in this document. (closest: " + UPI + " p. ")
    assert frame.loc[nii_row, CALL].startswith("[What was net interest income in Q2 FY2025?] ")
    assert f"{CALL} p. 1" in frame.loc[nii_row, CALL]
    sheet = pd.read_excel(io.BytesIO(grid_xlsx(saved)), sheet_name="Comparison", index_col=0)
    assert sheet.shape == (3, 3) and sheet.loc[nii_row, CALL] == frame.loc[nii_row, CALL]
    md = grid_markdown(saved).splitlines()
    assert md[0] == "# Circulars vs call" and md[2] == f"| question | {UPI} | {MASTER} | {CALL} |"
    assert md[3] == "|---|---|---|---|" and len(md) == 4 + 3
    svc.grids("cmp").delete(saved.id)
    assert svc.grids("cmp").list() == []
    with pytest.raises(PrismError, match="no saved comparison grid"):
        svc.grids("cmp").get(saved.id)


def test_short_answer_and_cell_text():
    text = ("Extractive answer (no LLM configured):\n\n- 10. Effective Date and Review [1]\n"
            "- 10.1 This circular is effective from 1 July 2025. [1]\n- Net sales $ 5,213 [2]")
    assert short_answer(text) == "10.1 This circular is effective from 1 July 2025. [1] Net sales $ 5,213 [2]"
    assert short_answer("- No. Circular Date [1]") == "No. Circular Date [1]"  # nothing else is left
    assert short_answer("word " * 100, max_chars=20) == "word word word…"
    cell = CompareCell("a.pdf", "q", "q", "found", "x | y", (CellCitation("a.pdf", 3), CellCitation("a.pdf", 3),
                                                             CellCitation("a.pdf", None, "Slide 2")))
    assert cell_text(cell) == "x | y (a.pdf p. 3; a.pdf, Slide 2)"
    assert cell_text(replace(cell, status="error", answer="boom")) == "Error: boom" and cell_text(None) == ""
    assert CompareCell.from_dict(cell.to_dict()) == cell


def test_template_period_comes_from_each_profile():
    record = DocumentRecord(doc_id="0" * 64, source="x.pdf", kind="pdf", pages=1, chunks=1,
                            profile={"entity": "X", "type": "10-K", "period": "FY2022"})
    assert resolve_question("What was revenue{period}?", record) == ("What was revenue in FY2022?", "FY2022")
    circular = replace(record, profile={"type": "rbi_circular", "period": "2025-04-01"})
    assert resolve_question("What was revenue{period}?", circular) == ("What was revenue?", None)
    assert resolve_question("  Who? ", record) == ("Who?", None)


def test_cli_compare_json_and_export(svc, grid, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("prism.cli.common.service", lambda: svc)
    out = tmp_path / "grid.md"
    code = main(["compare", "--workspace", "cmp", "--doc", UPI, "--doc", CALL, "--question", NII, "--question",
                 PENALTY, "--out", str(out), "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK and payload["columns"] == [UPI, CALL] and payload["rows"] == [NII, PENALTY]
    assert [(c["document"], c["question"]) for c in payload["cells"]] == [(UPI, NII), (CALL, NII), (UPI, PENALTY),
                                                                        (CALL, PENALTY)]
    by = {(c["document"], c["question"]): c for c in payload["cells"]}
    assert by[(CALL, NII)]["status"] == "found" and by[(CALL, NII)]["citations"][0]["file"] == CALL
    assert by[(UPI, PENALTY)]["status"] == "not_found" and by[(UPI, PENALTY)]["citations"] == []
    assert by[(CALL, NII)] == {**grid[(CALL, NII)].to_dict(), "title": CALL}  # no title of its own: the file name
    assert out.read_text(encoding="utf-8").startswith("# Comparison\n")
    assert main(["compare", "--workspace", "cmp", "--doc", UPI, "--template", "nope", "--json"]) == EXIT_FAILED
    assert "no question template 'nope'" in json.loads(capsys.readouterr().out)["error"]


def test_export_formats_come_from_one_registry(svc, grid, tmp_path):
    """The facade, the Compare page and ``compare --out`` read :data:`prism.types.EXPORT_FORMATS`; every format has
    a writer, an extension alias selects its format, and another extension is refused naming the formats."""
    from prism.answering.compare.facade import WRITERS
    from prism.types import EXPORT_FORMATS

    assert [f.key for f in svc.export_formats()] == ["csv", "xlsx", "md"] == list(WRITERS)
    assert svc.export_formats() is EXPORT_FORMATS
    saved = CompareGrid("", "Grid", (UPI, CALL), (NII,), (grid[(UPI, NII)], grid[(CALL, NII)]))
    assert svc.export_grid(saved, ".markdown") == svc.export_grid(saved, "md") == grid_markdown(saved).encode()
    assert svc.export_grid(saved, "CSV") == grid_csv(saved)
    with pytest.raises(PrismError, match="A grid exports as csv, xlsx, md, not '.pdf'"):
        svc.export_grid(saved, ".pdf")
