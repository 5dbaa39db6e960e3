"""A computed figure for a question naming two companies is computed per company through the same decision
(:mod:`prism.answering.programs.entities`), offline and with an LLM, each line naming its company and
citing its own filing (the real pipeline: two 10-Ks built with fpdf2, the real embedder, Chroma and BM25,
auto-scope; the LLM is a scripted fake). Expected values are computed by hand from
:data:`tests.builders.STATEMENT_ROWS` and :data:`tests.builders.BOLT_ROWS`."""

from __future__ import annotations

import json

import pytest
import tenacity

from prism.answering.engine import AnswerEngine
from prism.answering.llm import wrap_llms
from prism.answering.programs import llm as program_llm
from prism.types import IngestItem
from tests.builders import bolt_statement_pdf, statements_pdf
from tests.conftest import offline_service
from tests.fakes_llm import ScriptedLLM, route

CHANGE_Q = "Compare Acme Widgets' and Bolt Gears' change in net income from 2022 to 2023"


@pytest.fixture(scope="module")
def two(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("entity_computed_home")
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    results = svc.ingest([IngestItem(statements_pdf(home / "acme_10k.pdf")),
                          IngestItem(bolt_statement_pdf(home / "bolt_10k.pdf"))], "two")
    assert [r.status for r in results] == ["ingested", "ingested"]
    return svc


def test_each_company_gets_its_own_computed_figure(two):
    answer = two.ask(CHANGE_Q, "two")
    # Acme: 64,875 − 52,301 = 12,574 (+24.04 %); Bolt Gears: 27,310 − 25,004 = 2,306 (+9.22 %) (thousands)
    # the subject once, then each company's result
    assert answer.answer.splitlines()[0] == (
        "Change in Net income, 2022 to 2023: Acme Widgets: $12,574 thousand (24.04 %); Bolt Gears: $2,306 thousand "
        "(9.22 %)")
    lines = [li.removeprefix("- ") for li in answer.answer.splitlines()[2:]]
    assert lines[1] == ("Acme Widgets: change in Net income, 2022 to 2023 = 64,875 − 52,301 = $12,574 thousand; "
                        "(64,875 − 52,301) / 52,301 × 100 = 24.04 % [1]")
    assert lines[3] == ("Bolt Gears: change in Net income, 2022 to 2023 = 27,310 − 25,004 = $2,306 thousand; "
                        "(27,310 − 25,004) / 25,004 × 100 = 9.22 % [2]")
    assert [c.source for c in answer.citations] == ["acme_10k.pdf", "bolt_10k.pdf"]
    assert answer.unsupported_numbers == []
    assert answer.calculation.metric == "Acme Widgets: change in Net income, 2022 to 2023"
    assert [i.citation for i in answer.calculation.inputs] == [1, 1]
    # a margin per company: 96,310 / 812,400 = 11.9 %; 41,200 / 402,900 = 10.2 %
    margin = two.ask("Compare Acme Widgets' and Bolt Gears' operating margin in 2023", "two")
    assert margin.answer.splitlines()[0] == "operating margin FY2023: Acme Widgets: 11.9 %; Bolt Gears: 10.2 %"


def test_with_an_llm_both_companies_work_reaches_the_answer_call_and_each_figure_is_checked(two, monkeypatch):
    # the LLM proposes the program whenever asked to (the reader is sure of this change, so it would not be)
    monkeypatch.setattr(program_llm, "PROPOSE_BELOW", 1.1)
    plan = json.dumps({"operation": "change", "rows": ["Net income"], "periods": ["2022", "2023"]})
    fake = ScriptedLLM(respond=route(
        you_choose_the_calculation=plan, you_choose_the_formula="no formula",
        document_context_blocks="Acme's net income rose $12,574 thousand [1]; Bolt Gears' rose $2,400 thousand [2]."))
    settings = two.settings.model_copy(update={"hyde_enabled": False, "multi_query_enabled": False})
    engine = AnswerEngine(two.open("two").retriever, two.embedder, settings,
                          wrap_llms(fake, settings=settings, wait=tenacity.wait_none()))
    answer = engine.ask(CHANGE_Q)
    [sent] = [c["messages"][-1].content for c in fake.calls if c["kind"] == "stream_chat"]
    work = sent.split("<calculation>\n", 1)[1]
    # the subject once, then each company's result (as the offline answer's first line)
    assert work.startswith("Result: Change in Net income, 2022 to 2023: Acme Widgets: $12,574 thousand (24.04 %); "
                           "Bolt Gears: $2,306 thousand (9.22 %)\n")
    assert "Bolt Gears: change in Net income, 2022 to 2023 = 27,310 − 25,004 = $2,306 thousand; (27,310 − 25,004) / " \
           "25,004 × 100 = 9.22 % [" in work
    assert len([c for c in fake.calls if "choose the calculation" in c["text"]]) == 2  # one plan per company
    assert answer.unsupported_numbers == ["$2,400 thousand"]  # Bolt Gears' is $2,306 thousand
    assert answer.answer.startswith("Acme's net income rose $12,574 thousand")  # states the result: nothing added
