"""Grid cells get the computed figure the Chat answer computes (one decision,
:mod:`prism.answering.programs.answer`): "What was the change in revenue from 2018 to 2019?" asked of
two reports is the row operation per document (latest − earliest, not the growth rate), offline and with an LLM (then
the LLM's answer call gets the work as a checked fact, and an answer that leaves the figure out leads with it). Real
ingest, Chroma in a temp dir, the real embedder; the LLM is a scripted fake. Expected values are computed by hand from
the two pages."""

from __future__ import annotations

import json

import pytest
import tenacity

from prism.answering.llm import wrap_llms
from prism.answering.programs.llm import OMITTED_NOTE
from prism.service import PrismService
from prism.types import IngestItem
from tests.conftest import offline_service
from tests.fakes_llm import ScriptedLLM, route

PAGES = {
    "atlas.html": ("Atlas Freight selected data.", "512,000", "480,000"),
    "cascade.html": ("Cascade Freight selected data.", "300,500", "320,000"),
}
QUESTION = "What was the change in revenue from 2018 to 2019?"
# Atlas: 512,000 − 480,000 = 32,000; Cascade: 300,500 − 320,000 = -19,500
EXPECTED = {"atlas.html": "32,000", "cascade.html": "-19,500"}
PERCENT = {"atlas.html": "6.67 %", "cascade.html": "-6.09 %"}  # 32,000 / 480,000; -19,500 / 320,000


def page(intro: str, y2019: str, y2018: str) -> str:
    return (f"<html><body><p>{intro}</p><table><tr><th></th><th>2019</th><th>2018</th></tr>"
            f"<tr><td>Revenue</td><td>{y2019}</td><td>{y2018}</td></tr>"
            "<tr><td>Operating expenses</td><td>250,100</td><td>262,300</td></tr></table>"
            "<p>Revenue moved with freight volumes.</p></body></html>")


@pytest.fixture(scope="module")
def svc(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("computed_cells_home")
    for name, parts in PAGES.items():
        (home / name).write_text(page(*parts), encoding="utf-8")
    service = offline_service(home, embedder, briefing_on_ingest=False)
    results = service.ingest([IngestItem(home / name) for name in PAGES], "grid")
    assert [r.status for r in results] == ["ingested", "ingested"]
    return service


def test_offline_cells_get_the_row_operation(svc):
    cells = list(svc.compare(list(PAGES), [QUESTION], "grid", use_cache=False))
    assert [c.status for c in cells] == ["found", "found"]
    for cell in cells:
        calc = cell.full["calculation"]
        assert (calc["metric"], calc["result"], calc["source"]) == ("change in Revenue, 2018 to 2019",
                                                                    EXPECTED[cell.document], "the question")
        assert f"Change in Revenue, 2018 to 2019: {EXPECTED[cell.document]}" in cell.answer
        assert [c.file for c in cell.citations] == [cell.document]


def test_llm_cells_get_the_row_operation_as_a_checked_fact(svc, embedder):
    program = json.dumps({"operation": "change", "rows": ["Revenue"], "periods": ["2018", "2019"]})
    fake = ScriptedLLM(respond=route(you_choose_the_calculation=program, you_choose_the_formula="no formula",
                                     document_context_blocks="Revenue moved with freight volumes [1]."))
    settings = svc.settings.model_copy(update={"hyde_enabled": False, "multi_query_enabled": False})
    llm_svc = PrismService(settings, embedder=embedder, llms=wrap_llms(fake, settings=settings,
                                                                       wait=tenacity.wait_none()))
    cells = list(llm_svc.compare(list(PAGES), [QUESTION], "grid", use_cache=False))
    sent = [c["messages"][-1].content for c in fake.calls if c["kind"] == "stream_chat"]
    assert [f"Result: Change in Revenue, 2018 to 2019: {EXPECTED[name]}" in s for s, name in zip(sent, PAGES,
                                                                                                  strict=True)] == [
        True, True]
    for cell in cells:
        assert cell.status == "found" and cell.full["mode"] == "llm"
        calc = cell.full["calculation"]
        assert (calc["result"], calc["source"]) == (EXPECTED[cell.document], "the question")
        # the LLM's answer states no figure: the cell leads with the computed one
        assert cell.answer.startswith("Computed in code from the cited table cells: Change in Revenue, 2018 to "
                                      f"2019: {EXPECTED[cell.document]} ({PERCENT[cell.document]}) [1]")
        assert cell.note == OMITTED_NOTE
