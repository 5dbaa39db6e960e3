"""Derived figures through the real pipeline: a 10-K built with fpdf2 holding three statements
(:func:`tests.builders.statements_pdf`: operations and cash flows in thousands, the balance sheet in millions), the
real parser, table finder, embedder, Chroma, BM25 and AnswerEngine, no LLM; then two FinanceBench dev questions on
the real filings (slow; skipped, naming the folder, without ../shared/data).

Expected values are computed by hand from :data:`tests.builders.STATEMENT_ROWS`, ``BALANCE_ROWS`` and
``CASH_FLOW_ROWS``.
"""

from __future__ import annotations

import json

import pytest
import tenacity

from prism.answering.engine import AnswerEngine
from prism.answering.llm import wrap_llms
from prism.answering.metrics.answer import derive, sub_search
from prism.answering.metrics.calc import Op, Plan, Ref
from prism.answering.metrics.inputs import find_inputs
from prism.answering.metrics.llm import plan_from_reply
from prism.types import IngestItem
from tests.builders import statements_pdf
from tests.conftest import offline_service, require_data
from tests.fakes_llm import ScriptedLLM, route
from tests.readings import metric_plan


@pytest.fixture(scope="module")
def acme(tmp_path_factory, embedder):
    """Acme's 10-K with three statements (:func:`tests.builders.statements_pdf`), ingested once per module."""
    home = tmp_path_factory.mktemp("derived_home")
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    [result] = svc.ingest([IngestItem(statements_pdf(home / "acme_10k.pdf"))], "acme")
    assert result.status == "ingested"
    return svc


def _lines(answer) -> list[str]:
    """The answer's lines under its heading, without their "- " bullets."""
    return [li.removeprefix("- ") for li in answer.answer.splitlines()[2:]]


def test_margin_is_computed_with_the_work_and_cited_inputs(acme):
    answer = acme.ask("What was Acme's operating margin in FY2023?", "acme")
    # 96,310 / 812,400 = 0.11855 → 11.9 %
    assert answer.answer.splitlines()[0].endswith("operating margin FY2023: 11.9 %")
    assert _lines(answer) == [
        "Operating income, FY2023: $96,310 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS) [1]",
        "Revenues, FY2023: $812,400 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS) [1]",
        "operating margin FY2023 = operating income / revenue = 96,310 / 812,400 (USD thousands) = 11.9 % [1]",
    ]
    assert [(c.n, c.page_start) for c in answer.citations] == [(1, 2)]  # the statement of operations is page 2
    assert answer.unsupported_numbers == [] and not answer.declined and answer.mode == "extractive"
    calc = answer.to_dict()["calculation"]
    assert json.loads(json.dumps(calc)) == calc
    assert (calc["metric"], calc["formula"], calc["result"], calc["missing"]) == (
        "operating margin", "operating income / revenue", "11.9 %", [])
    assert [(i["line_item"], i["period"], i["value"], i["unit"], i["citation"]) for i in calc["inputs"]] == [
        ("operating income", "FY2023", "96,310", "thousands", 1), ("revenue", "FY2023", "812,400", "thousands", 1)]


def test_three_year_average_shows_each_year(acme):
    answer = acme.ask("What is the FY2021 - FY2023 3 year average of capex as a % of revenue for Acme? Answer in "
                      "units of percents and round to one decimal place.", "acme")
    # 34,500 / 690,005 = 4.99996 %; 44,707 / 745,120 = 6.00005 %; 48,740 / 812,400 = 5.99951 % (each shown to three
    # decimals: 5.000, 6.000, 6.000); their mean 5.66651 % → 5.7 %
    assert answer.calculation is not None and answer.calculation.result == "5.7 %"
    lines = _lines(answer)
    assert lines[-1] == ("3-year average capital expenditures as a % of revenue FY2021–FY2023 = (5.000 % + 6.000 % "
                         "+ 6.000 %) / 3 = 5.7 % [1] [2]")
    assert [li.split(" = ")[-1] for li in lines[-4:-1]] == ["5.000 % [1] [2]", "6.000 % [1] [2]", "6.000 % [1] [2]"]
    assert {(c.n, c.page_start) for c in answer.citations} == {(1, 4), (2, 2)}  # cash flows p4, operations p2
    assert answer.unsupported_numbers == []


def test_turnover_with_average_inventory_across_units(acme):
    answer = acme.ask("What is Acme's FY2023 inventory turnover ratio? Round your answer to two decimal places.",
                      "acme")
    # COGS 501,220 thousand / average(58, 62 million = 58,000, 62,000 thousand) = 501,220 / 60,000 = 8.3537 → 8.35
    assert answer.calculation is not None and answer.calculation.result == "8.35"
    assert _lines(answer)[-1].startswith("inventory turnover FY2023 = cost of goods sold / average(inventory (year "
                                         "before), inventory) = 501,220 / average(58,000, 62,000) (USD thousands) "
                                         "= 8.35")
    assert [(i.period, i.value, i.unit) for i in answer.calculation.inputs] == [
        ("FY2023", "501,220", "thousands"), ("FY2022", "58", "millions"), ("FY2023", "62", "millions")]


def test_definition_given_in_the_question(acme):
    answer = acme.ask("Cash conversion is defined as: cash from operations / net income. What is Acme's FY2023 "
                      "cash conversion?", "acme")
    # 120,600 / 64,875 = 1.85896 → 1.86
    assert answer.calculation is not None
    assert (answer.calculation.metric, answer.calculation.source, answer.calculation.result) == (
        "cash conversion", "the question", "1.86")


def test_missing_input_is_named_and_no_number_is_given(acme):
    answer = acme.ask("What is Acme's FY2021 inventory turnover ratio?", "acme")
    # the balance sheet has 2023 and 2022 only: the FY2020 and FY2021 inventories are not there
    assert answer.answer.splitlines()[0] == ("inventory turnover: cannot be computed: no FY2020 inventory, FY2021 "
                                             "inventory found in a table of acme_10k.pdf. No figure is given.")
    assert answer.calculation is not None and answer.calculation.result is None
    assert answer.calculation.missing == ("FY2020 inventory", "FY2021 inventory")
    assert " = " not in answer.answer  # no work line, no result


def test_an_input_the_retrieved_chunks_lack_comes_from_the_sub_retrieval_and_is_cited(acme):
    handle = acme.open("acme")
    [income] = handle.retriever.search("revenues operating income statements of operations", top_k=1).results
    assert income.page_start == 2  # the statement of operations only: no capex, no balance sheet
    returned: list[str] = []
    search = sub_search(handle.retriever)

    def recorded(query, sources):
        chunks = search(query, sources)
        returned.extend(c.chunk_id for c in chunks)
        return chunks

    found, missing = find_inputs([("revenue", "FY2023"), ("capex", "FY2023"), ("inventory", "FY2022")], [income],
                                 handle.workspace.read_chunks, recorded)
    assert missing == []
    assert [(f.label, f.cell, f.number, f.chunk.page_start) for f in found] == [
        ("Revenues", "812,400", 812400, 2), ("Capital expenditures", "(48,740)", 48740, 4),  # an outflow's size
        ("Inventories", "58", 58, 3)]
    assert found[1].chunk.chunk_id in returned and found[2].chunk.chunk_id in returned
    # a share of one period is a program now (no metric plan): the statement metric's plan is written out
    plan = Plan("capital expenditures as a % of revenue", Op("/", Ref("capex"), Ref("revenue")), ("FY2023",),
                kind="percent", decimals=1)
    derived = derive(plan, found[:2], [], [income])
    assert [c.page_start for c in derived.extra] == [4]  # the chunk holding capex becomes a source: block [2]
    assert derived.lines[1] == ("Capital expenditures, FY2023: -48,740 thousand (CONSOLIDATED STATEMENTS OF CASH "
                                "FLOWS)", 2)


# --- with an LLM: it chooses the formula, the code does the arithmetic ------------------------------------------
FORMULA = json.dumps({"metric": "EBITDA margin", "formula": "(operating income + depreciation and amortization) / "
                      "revenue", "periods": ["FY2023"], "how": "single", "kind": "percent", "decimals": 1})


def _llm_engine(svc, answer_text: str) -> tuple[AnswerEngine, ScriptedLLM]:
    fake = ScriptedLLM(respond=route(you_choose_the_formula=FORMULA, document_context_blocks=answer_text))
    settings = svc.settings.model_copy(update={"hyde_enabled": False, "multi_query_enabled": False})
    llms = wrap_llms(fake, settings=settings, wait=tenacity.wait_none())
    return AnswerEngine(svc.open("acme").retriever, svc.embedder, settings, llms), fake


def test_llm_chooses_the_formula_and_the_code_computes_and_checks(acme):
    engine, fake = _llm_engine(acme, "Acme's FY2023 EBITDA margin was 16.2 % [1][2].")
    answer = engine.ask("What is Acme's FY2023 EBITDA margin?")
    # (96,310 + 35,190) / 812,400 = 0.161866 → 16.2 %: computed in code and handed to the answer call
    assert answer.mode == "llm" and answer.calculation is not None
    assert (answer.calculation.result, answer.calculation.source) == ("16.2 %", "the LLM's formula (arithmetic in "
                                                                                "code)")
    answer_call = fake.calls[-1]["messages"][-1].content
    assert "= (96,310 + 35,190) / 812,400 (USD thousands) = 16.2 %" in answer_call
    assert answer.unsupported_numbers == []  # the LLM's 16.2 % equals the recomputed result


def test_llm_figure_that_disagrees_with_the_computed_one_is_flagged(acme):
    engine, _ = _llm_engine(acme, "Acme's FY2023 EBITDA margin was 17.4 % [1][2].")
    answer = engine.ask("What is Acme's FY2023 EBITDA margin?")
    assert answer.calculation is not None and answer.calculation.result == "16.2 %"
    assert answer.unsupported_numbers == ["17.4 %"]


def test_unreadable_formula_reply_falls_back_to_the_question():
    fallback = metric_plan("What is Acme's FY2023 operating margin?")
    assert fallback is not None
    assert plan_from_reply("I think it is about 12%", fallback) is None
    assert plan_from_reply('{"formula": "widgets / gadgets"}', fallback) is None
    plan = plan_from_reply('{"formula": "net income / revenue", "decimals": 9}', fallback)
    assert plan is not None and plan.decimals == 1 and plan.periods == ("FY2023",)  # 9 is out of range


# --- real filings --------------------------------------------------------------------------------------------------
REAL = {"financebench_id_04735": ("ADOBE_2015_10K.pdf", 0.66), "financebench_id_04254":
        ("AMERICANWATERWORKS_2021_10K.pdf", 1832.0)}


@pytest.mark.slow
def test_financebench_calculations_on_real_filings(tmp_path, embedder):
    questions = {q["id"]: q for q in map(json.loads, require_data("financebench-dev", "questions.jsonl")
                                         .read_text(encoding="utf-8").splitlines())}
    pdfs = [require_data("financebench-dev", "pdfs", name) for name, _ in REAL.values()]
    svc = offline_service(tmp_path, embedder, briefing_on_ingest=False)
    assert [r.status for r in svc.ingest([IngestItem(p) for p in pdfs], "filings")] == ["ingested"] * 2
    for qid, (source, expected) in REAL.items():
        answer = svc.ask(questions[qid]["question"], "filings")
        assert answer.calculation is not None and answer.calculation.value == expected, answer.answer
        assert {c.source for c in answer.citations} == {source}
        assert answer.unsupported_numbers == []
