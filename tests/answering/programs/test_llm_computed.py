"""The same computed figure with an LLM as without one: the row operation the offline answer computes reaches the
answer call as a checked fact (the result, each cited cell), the number check holds the LLM's figure to it, and an
answer that leaves it out still leads with it. Through the real pipeline: an HTML page with a table, real ingest,
Chroma in a temp dir, the real embedder, the real AnswerEngine; the LLM is a scripted fake.

Expected values are computed by hand from :data:`PAGE`.
"""

from __future__ import annotations

import json
import re

import pytest
import tenacity

from prism.answering.engine import AnswerEngine
from prism.answering.llm import wrap_llms
from prism.answering.programs import llm as programs_llm
from prism.answering.programs.llm import OMITTED_NOTE
from prism.types import IngestItem
from tests.conftest import offline_service
from tests.fakes_llm import ScriptedLLM, route

PAGE = """<html><body>
<p>Selected financial data of Borealis Logistics.</p>
<table>
<tr><th></th><th>2019</th><th>2018</th><th>2017</th></tr>
<tr><td>Adjusted EBITDA</td><td>108,307</td><td>93,081</td><td>80,112</td></tr>
<tr><td>Share based compensation</td><td>4,200</td><td>3,500</td><td>2,800</td></tr>
<tr><td>Freight revenue</td><td>512,000</td><td>480,000</td><td>455,000</td></tr>
</table>
<p>Adjusted EBITDA grew on higher volumes in the Distribution segment.</p>
</body></html>"""
EBITDA_Q = "What was the percentage change in Adjusted EBITDA between 2018 and 2019?"
# (108,307 − 93,081) / 93,081 × 100 = 15,226 / 93,081 × 100 = 16.3578… → 16.36 %
RESULT = "Percentage change in Adjusted EBITDA, 2018 to 2019: 16.36 %"


@pytest.fixture(scope="module")
def borealis(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("llm_computed_home")
    path = home / "borealis.html"
    path.write_text(PAGE, encoding="utf-8")
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    [result] = svc.ingest([IngestItem(path)], "borealis")
    assert result.status == "ingested"
    return svc


@pytest.fixture
def plan_call(monkeypatch):
    """The program call is made whatever the reader's confidence (it is made only when the reader is unsure,
    :data:`prism.answering.programs.llm.PROPOSE_BELOW`): the tests of the LLM's plan need it made."""
    monkeypatch.setattr(programs_llm, "PROPOSE_BELOW", 1.01)


def llm_engine(svc, answer: str, **replies: str) -> tuple[AnswerEngine, ScriptedLLM]:
    """An engine over the workspace whose LLM answers ``answer`` to the answer call and ``replies`` (by a keyword
    of the prompt) to the others; by default a formula or plan call gets a reply that is neither (the question's
    reading stands, as offline)."""
    replies.setdefault("you_choose_the_formula", "no formula")
    replies.setdefault("you_choose_the_calculation", "no plan")
    fake = ScriptedLLM(respond=route(document_context_blocks=answer, **replies))
    settings = svc.settings.model_copy(update={"hyde_enabled": False, "multi_query_enabled": False})
    llms = wrap_llms(fake, settings=settings, wait=tenacity.wait_none())
    return AnswerEngine(svc.open("borealis").retriever, svc.embedder, settings, llms), fake


def answer_call(fake: ScriptedLLM) -> str:
    """The user message of the (last) answer call."""
    [call] = [c for c in fake.calls if c["kind"] == "stream_chat"]
    return call["messages"][-1].content


def test_the_row_operation_reaches_the_answer_call_as_a_checked_fact(borealis):
    offline = borealis.ask(EBITDA_Q, "borealis")
    assert offline.answer.splitlines()[0].endswith(RESULT)  # the offline answer computes it
    engine, fake = llm_engine(borealis, "Adjusted EBITDA rose 16.36 % [1].")
    answer = engine.ask(EBITDA_Q)
    sent = answer_call(fake)
    work = sent.split("<calculation>\n", 1)[1].split("\n</calculation>", 1)[0].splitlines()
    block = int(work[1].rsplit("[", 1)[1].rstrip("]"))  # the table's block number in this call
    assert work == [f"Result: {RESULT}",
                    f"- Adjusted EBITDA, 2018: 93,081; 2019: 108,307 [{block}]",  # one row's cells: one line
                    "- percentage change in Adjusted EBITDA, 2018 to 2019 = (108,307 − 93,081) / 93,081 × 100 = "
                    f"16.36 % [{block}]"]
    assert f"[{block}] source: borealis.html\n" in sent and "Adjusted EBITDA; 2019: 108,307" in sent
    assert "it is a checked fact. Your answer must state its result" in sent
    assert answer.mode == "llm" and answer.calculation is not None
    assert (answer.calculation.result, answer.calculation.source) == ("16.36 %", "the question")


def test_the_right_figure_is_accepted_and_the_calculation_cites_the_answers_numbers(borealis):
    engine, fake = llm_engine(borealis, "")
    engine.ask(EBITDA_Q)
    block = int(answer_call(fake).split("- Adjusted EBITDA, 2018: 93,081; 2019: 108,307 [", 1)[1].split("]", 1)[0])
    engine, _ = llm_engine(borealis, f"Adjusted EBITDA rose 16.36 % [{block}] from 2018 to 2019.")
    answer = engine.ask(EBITDA_Q)
    assert answer.unsupported_numbers == []  # 16.36 % is in no block: the recomputed result accepts it
    assert answer.answer == "Adjusted EBITDA rose 16.36 % [1] from 2018 to 2019."
    assert all(n.text != OMITTED_NOTE for n in answer.notes)
    assert [(i.period, i.value, i.citation) for i in answer.calculation.inputs] == [("FY2018", "93,081", 1),
                                                                                    ("FY2019", "108,307", 1)]
    assert answer.citations[0].rank == block and "Adjusted EBITDA; 2019: 108,307" in answer.citations[0].text


def test_the_inputs_are_accepted_whichever_block_they_cite(borealis):
    engine, fake = llm_engine(borealis, "")
    engine.ask(EBITDA_Q)
    sent = answer_call(fake)
    blocks = re.findall(r"^\[(\d+)\] source: borealis.html\n(.*?)(?=\n\n\[|\n</documents>)", sent, re.M | re.S)
    prose = next(int(n) for n, text in blocks if "108,307" not in text)  # a block without the table
    reply = f"Adjusted EBITDA rose from $93,081 to $108,307, by 16.36 % [{prose}]; it was $97,000 in 2017 [{prose}]."
    engine, _ = llm_engine(borealis, reply)
    answer = engine.ask(EBITDA_Q)
    assert answer.unsupported_numbers == ["$97,000"]  # the cells and the result are the work's; 2017 was 80,112


def test_a_wrong_figure_is_flagged_and_the_computed_one_leads(borealis):
    engine, _ = llm_engine(borealis, "Adjusted EBITDA rose 17.5 % [1].")
    answer = engine.ask(EBITDA_Q)
    assert answer.unsupported_numbers == ["17.5 %"]
    first, blank, rest = answer.answer.split("\n", 2)
    assert first.startswith(f"Computed in code from the cited table cells: {RESULT} [")
    assert (blank, rest.split(" [")[0]) == ("", "Adjusted EBITDA rose 17.5 %")
    assert any(n.text == OMITTED_NOTE for n in answer.notes)


def test_an_answer_that_omits_the_figure_leads_with_it(borealis):
    engine, _ = llm_engine(borealis, "Adjusted EBITDA grew on higher volumes in the Distribution segment [1].")
    answer = engine.ask(EBITDA_Q)
    assert answer.answer.startswith(f"Computed in code from the cited table cells: {RESULT} [1]\n\n")
    assert answer.unsupported_numbers == [] and any(n.text == OMITTED_NOTE for n in answer.notes)
    assert "Adjusted EBITDA; 2019: 108,307" in answer.citations[0].text  # [1] is the table's block


def test_a_plain_number_states_an_amount_without_a_unit(borealis):
    # 512,000 − 480,000 = 32,000 (the table states no unit: a bare number)
    question = "What was the change in freight revenue from 2018 to 2019?"
    engine, fake = llm_engine(borealis, "Freight revenue rose by 32,000 [1].")
    answer = engine.ask(question)
    assert "Result: Change in Freight revenue, 2018 to 2019: 32,000" in answer_call(fake)
    assert answer.answer == "Freight revenue rose by 32,000 [1]." and answer.calculation.result == "32,000"


# --- the LLM writes the plan, the code executes it ------------------------------------------------------------------
SBC_Q = "What was the change in share based compensation between 2017 and 2018?"


def plan(operation: str, row: str, periods: list[str], of_row: str | None = None) -> str:
    """The program call's reply: one JSON object (:data:`prism.answering.programs.llm.PROGRAM_PROMPT`)."""
    rows = [row] if of_row is None else [row, of_row]
    return "Here is the program:\n" + json.dumps({"operation": operation, "rows": rows, "periods": periods})


def test_the_llms_plan_is_executed_over_the_cells(borealis, plan_call):
    # the wording asks for the change (3,500 − 2,800 = 700); the plan asks for the percentage change, which the code
    # computes from the cells: (3,500 − 2,800) / 2,800 × 100 = 25.00 %
    reply = plan(operation="percent_change", row="Share based compensation", periods=["2017", "2018"])
    engine, fake = llm_engine(borealis, "Share based compensation rose 25.00 % [1].", you_choose_the_calculation=reply)
    answer = engine.ask(SBC_Q)
    [call] = [c for c in fake.calls if "choose the calculation" in c["text"]]
    assert "Share based compensation" in call["text"].split("<rows>", 1)[1]  # the labels, fenced
    assert "(3,500 − 2,800) / 2,800 × 100 = 25.00 %" in answer_call(fake)
    assert (answer.calculation.result, answer.calculation.source) == ("25.00 %", "the question")
    assert [i.value for i in answer.calculation.inputs] == ["2,800", "3,500"]
    assert answer.unsupported_numbers == [] and not [n for n in answer.notes if "plan" in n.text]


def test_a_share_of_two_rows_is_planned_and_computed(borealis, plan_call):
    # 4,200 / 512,000 × 100 = 0.8203125 → 0.82 %
    reply = plan(operation="share", row="Share based compensation", of_row="Freight revenue", periods=["FY2019"])
    engine, fake = llm_engine(borealis, "It was 0.91 % of freight revenue [1].", you_choose_the_calculation=reply)
    answer = engine.ask("What was share based compensation as a percentage of freight revenue in 2019?")
    assert answer.calculation is not None
    assert (answer.calculation.result, answer.calculation.source) == ("0.82 %", "the question")
    assert [(i.label, i.value) for i in answer.calculation.inputs] == [("Share based compensation", "4,200"),
                                                                       ("Freight revenue", "512,000")]
    assert "= 4,200 / 512,000 × 100 = 0.82 %" in answer_call(fake)
    assert answer.unsupported_numbers == ["0.91 %"]  # not the computed share
    assert answer.answer.startswith("Computed in code from the cited table cells: Share based compensation as a "
                                    "percentage of Freight revenue, 2019: 0.82 % [1]")


def test_a_ratio_of_two_rows_is_planned_and_computed(borealis, plan_call):
    # 108,307 / 512,000 = 0.21153… → 0.21
    reply = plan(operation="ratio", row="Adjusted EBITDA", of_row="Freight revenue", periods=["2019"])
    engine, fake = llm_engine(borealis, "The ratio was 0.21 [1].", you_choose_the_calculation=reply)
    answer = engine.ask("What was the ratio of Adjusted EBITDA to freight revenue in 2019?")
    assert (answer.calculation.result, answer.calculation.formula) == ("0.21", "A / B")
    assert "ratio of Adjusted EBITDA to Freight revenue, 2019 = 108,307 / 512,000 = 0.21 [" in answer_call(fake)


@pytest.mark.parametrize("reply", [
    "The change is about 700.",
    plan(operation="change", row="Goodwill", periods=["2017", "2018"]),
])
def test_an_unusable_plan_falls_back_to_the_question_with_a_note(borealis, plan_call, reply):
    engine, fake = llm_engine(borealis, "It rose by 700 [1].", you_choose_the_calculation=reply)
    answer = engine.ask(SBC_Q)
    # the wording's plan: 3,500 − 2,800 = 700
    assert (answer.calculation.result, answer.calculation.source) == ("700", "the question")
    assert "Result: Change in Share based compensation, 2017 to 2018: 700" in answer_call(fake)
    assert "The LLM's proposed calculation matched no figures; the reader's choice was used." in [
        n.text for n in answer.notes]


def test_a_wrong_plain_number_for_a_result_without_a_unit_is_flagged(borealis):
    # 512,000 − 480,000 = 32,000; the answer's 35,000 is in no block and is not the result
    engine, _ = llm_engine(borealis, "Freight revenue rose by 35,000 [1] to 512,000 [1] in 2019.")
    answer = engine.ask("What was the change in freight revenue from 2018 to 2019?")
    assert answer.unsupported_numbers == ["35,000"]
    assert answer.answer.startswith("Computed in code from the cited table cells: Change in Freight revenue, 2018 to "
                                    "2019: 32,000 (6.67 %) [")
