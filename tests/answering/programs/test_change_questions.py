"""Questions asking how a figure changed between two periods: the first line is the computed change, an amount with
its percentage change beside it; "in percent" asks for the percentage change; the work writes its result as the
inputs are written (grouped, with currency and unit). Through the real pipeline: a generated 10-K with a statement
of operations over 2015 and 2014 (:func:`tests.builders.rd_10k_pdf`, Netflix's figures), real ingest, Chroma and the
embedder; no LLM, or a scripted one for the number check of an LLM's answer."""

from __future__ import annotations

import re

import pytest
import tenacity

from prism.answering.engine import AnswerEngine
from prism.answering.llm import wrap_llms
from prism.answering.programs.writing import COMPUTED_LABEL
from prism.types import IngestItem
from tests.builders import rd_10k_pdf
from tests.conftest import offline_service
from tests.fakes_llm import ScriptedLLM, route
from tests.readings import heading_states, read


@pytest.mark.parametrize("question", [
    "How did net interest margin change between Q1 FY25 and Q2 FY25?",
    "How did Netflix's net income change from 2014 to 2015?",
    "How has net income evolved from 2014 to 2015?",
    "How did revenues move between 2014 and 2015?",
    "How did net income in 2015 compare with 2014?",
    "How did net income fare in 2015 relative to 2014?",
    "How did the average price change between 2018 and 2019?",  # the verb is the operation, not "average"
    "What was net income in 2015 compared with 2014?",
    "What was net income in 2015 versus 2014?",
    "Net income from 2014 to 2015?",
    "By how much has revenue increased between 2018 and 2019?",
])
def test_how_a_figure_changed_is_read_as_a_change(question):
    reading = read(question)
    assert (reading.operation, len(reading.periods)) == ("change", 2)


@pytest.mark.parametrize("question", [
    "By how much did Netflix revenues grow from 2014 to 2015, in percent?",
    "By how much did revenues grow from 2014 to 2015 in %?",
    "How did revenues change from 2014 to 2015 in percentage terms?",
    "By what percentage did net income fall between 2014 and 2015?",
    "How many percent did revenue grow from 2014 to 2015?",
    "What was the % growth in revenues from 2014 to 2015?",
    "What was the growth rate of revenues from 2014 to 2015?",
])
def test_percent_anywhere_asks_for_the_percentage_change(question):
    assert read(question).operation == "percent_change"


@pytest.mark.parametrize("question", [
    "Why did net income change from 2014 to 2015?",  # a reason
    "How did the company grow revenue from 2014 to 2015?",  # a means: the verb takes an object
    "What was the net income for each year from 2013 to 2015?",  # each period's figure
    "What is Nike's revenue CAGR from FY2016 to FY2018?",  # a compound rate, the metric's
    "How is EBITDA calculated?",
    # each year's share, not a percentage change (TAT-QA dev)
    "What is the percentage revenue from sales into Taiwan in 2017, 2018, and 2019, respectively?",
])
def test_reasons_means_listings_and_rates_are_not_a_change(question):
    assert read(question).operation not in ("change", "percent_change")


def test_the_change_in_a_percentage_of_sales_is_a_change_not_a_percentage_change():
    """"in percentage of sales" names the figure (a share), not "in percent" (TAT-QA dev)."""
    reading = read("What was the change in percentage of sales represented by gross profit between 2018 and 2019?")
    assert reading.operation == "change"


@pytest.fixture(scope="module")
def netflix(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("change_home")
    pdf = rd_10k_pdf(home / "Netflix_2015_10K.pdf", "NETFLIX, INC.", "Technology and development",
                     ("650,788", "472,321"), "Technology and development expenses consist of payroll costs.")
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    assert [r.status for r in svc.ingest([IngestItem(pdf)], "nf")] == ["ingested"]
    return svc


NET_INCOME_WORK = "122,641 − 266,799 = -$144,158 thousand; (122,641 − 266,799) / 266,799 × 100 = -54.03 %"


@pytest.mark.parametrize(("question", "first_line", "work"), [
    # 122,641 − 266,799 = −144,158 (thousands); / 266,799 = −54.03 %
    ("How did net income change from 2014 to 2015?",
     "change in Net income, 2014 to 2015 = -$144,158 thousand (-54.03 %)", NET_INCOME_WORK),
    ("How did Netflix's net income in 2015 compare with 2014?",
     "change in Net income, 2014 to 2015 = -$144,158 thousand (-54.03 %)", NET_INCOME_WORK),
    ("What was the change in net income from 2014 to 2015?",
     "change in Net income, 2014 to 2015 = -$144,158 thousand (-54.03 %)", NET_INCOME_WORK),
    # 6,779,511 − 5,504,656 = 1,274,855; / 5,504,656 = 23.16 %
    ("How did revenues move between 2014 and 2015?",
     "change in Revenues, 2014 to 2015 = $1,274,855 thousand (23.16 %)",
     "6,779,511 − 5,504,656 = $1,274,855 thousand; (6,779,511 − 5,504,656) / 5,504,656 × 100 = 23.16 %"),
    ("By how much did revenues grow from 2014 to 2015, in percent?",
     "percentage change in Revenues, 2014 to 2015 = 23.16 %", "(6,779,511 − 5,504,656) / 5,504,656 × 100 = 23.16 %"),
])
def test_the_first_line_is_the_computed_change(netflix, question, first_line, work):
    answer = netflix.ask(question, "nf")
    heading, *rest = answer.answer.splitlines()
    assert f"{COMPUTED_LABEL}." in [n.text for n in answer.notes], answer.notes  # the label is a note, not the heading
    assert heading_states(heading, first_line), heading
    assert any(work in line for line in rest), rest
    assert not any(re.search(r"= -?\d{4,}\b", line) for line in rest), rest  # no ungrouped, unit-less result
    assert answer.unsupported_numbers == [] and not answer.declined
    assert answer.calculation is not None and [i.citation for i in answer.calculation.inputs] == [1, 1]
    assert [c.source for c in answer.citations] == ["Netflix_2015_10K.pdf"]


@pytest.mark.parametrize(("reply", "unsupported"), [
    ("Net income fell by $144,158 thousand, or 54.03 % [1].", []),
    ("Net income fell by $144,158 thousand, or 60 % [1].", ["60 %"]),
])
def test_an_llm_answer_may_state_the_percentage_change_and_no_other(netflix, reply, unsupported):
    fake = ScriptedLLM(respond=route(document_context_blocks=reply, you_choose_the_formula="no formula",
                                     you_choose_the_arithmetic="no plan"))
    settings = netflix.settings.model_copy(update={"hyde_enabled": False, "multi_query_enabled": False})
    engine = AnswerEngine(netflix.open("nf").retriever, netflix.embedder, settings,
                          wrap_llms(fake, settings=settings, wait=tenacity.wait_none()))
    answer = engine.ask("How did net income change from 2014 to 2015?")
    [call] = [c for c in fake.calls if c["kind"] == "stream_chat"]
    assert "Result: Change in Net income, 2014 to 2015: -$144,158 thousand (-54.03 %)" in call["messages"][-1].content
    assert answer.answer == reply and answer.unsupported_numbers == unsupported
