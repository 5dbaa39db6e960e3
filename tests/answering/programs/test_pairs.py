"""Arithmetic over two items of one table (ratio, share or proportion, difference between two rows
or two columns), computed exactly and cited; the gate passes such a question when the retrieved table gives the
figure. Through the real pipeline: an HTML report page, real ingest, Chroma and the embedder."""

from __future__ import annotations

import pytest

from prism.types import IngestItem
from tests.conftest import offline_service
from tests.readings import heading_states, read

PAGE = """<html><body>
<p>Summarised balance sheet of the joint venture (in millions).</p>
<table>
<tr><th></th><th>2019</th><th>2018</th></tr>
<tr><td>Property, plant, and equipment</td><td>2,641</td><td>2,590</td></tr>
<tr><td>Total assets</td><td>2,664</td><td>3,025</td></tr>
<tr><td>Total liabilities</td><td>909</td><td>1,120</td></tr>
</table>
</body></html>"""

RATES = """<html><body>
<p>Assumptions used for the pension plans.</p>
<table>
<tr><th></th><th>Domestic September 30, 2019</th><th>International September 30, 2019</th></tr>
<tr><td>Discount rate</td><td>4.00%</td><td>1.90%</td></tr>
<tr><td>Expected return on plan assets</td><td>6.75%</td><td>3.40%</td></tr>
</table>
</body></html>"""

ASSETS = """<html><body>
<p>Property and equipment, at cost, consisted of the following.</p>
<table>
<tr><th></th><th>December 31, 2019</th><th>December 31, 2018</th></tr>
<tr><td>Equipment, furniture and fixtures</td><td>307,559</td><td>289,033</td></tr>
<tr><td>Capitalized internally developed software costs</td><td>38,466</td><td>31,218</td></tr>
<tr><td>Transportation equipment</td><td>613</td><td>613</td></tr>
<tr><td>Total</td><td>346,638</td><td>320,864</td></tr>
</table>
</body></html>"""

FEES = """<html><body>
<p>Fees paid to the auditor (in thousands).</p>
<table>
<tr><th></th><th>2019</th><th>2018</th></tr>
<tr><td>Audit fees</td><td>1,092</td><td>1,010</td></tr>
<tr><td>Non-audit fees</td><td>598</td><td>281</td></tr>
<tr><td>Total</td><td>1,690</td><td>1,291</td></tr>
</table>
</body></html>"""


@pytest.fixture(scope="module")
def report(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("pairs_home")
    items = []
    for name, text in (("balance.html", PAGE), ("rates.html", RATES), ("assets.html", ASSETS), ("fees.html", FEES)):
        (home / name).write_text(text, encoding="utf-8")
        items.append(IngestItem(home / name))
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    assert [r.status for r in svc.ingest(items, "pairs")] == ["ingested"] * 4
    return svc


@pytest.mark.parametrize(("question", "kind", "a", "b"), [
    ("What is the ratio of IMFT’s total assets to total liabilities in 2019?", "ratio", "total assets",
     "total liabilities"),
    ("What is the proportion of property, plant, and equipment over total assets in 2018?", "ratio",
     "property, plant, and equipment", "total assets"),
    ("What was the employee termination costs as a proportion of total costs in 2018?", "ratio",
     "employee termination costs", "total costs"),
    ("What is the percentage of audit fees in total fees in 2019?", "share", "audit fees", "total fees"),
    ("What percentage of the total unrealized gain is generated from U.S. government obligations in 2018?", "share",
     "U.S. government obligations", "total unrealized gain"),
    ("What is the difference between the domestic and international discount rates as at September 30, 2019?",
     "difference", "domestic", "international discount rates"),
])
def test_the_operation_and_its_operands_are_read_from_the_wording(question, kind, a, b):
    reading = read(question)
    named = [m.text.lower() for m in reading.mentions]
    assert reading.operation == {"difference": "change"}.get(kind, kind), reading.operations[:3]
    assert any(a.lower() in m for m in named) and any(b.lower() in m for m in named), named


@pytest.mark.parametrize("question", ["What is the difference between 2018 and 2019?",
                                      "What was the percentage change in revenue from 2018 to 2019?",
                                      "What was revenue in 2019?"])
def test_questions_about_one_item_are_not_read_as_pairs(question):
    reading = read(question)
    assert reading.operation not in ("ratio", "share") and len(reading.mentions) < 2, reading.mentions


@pytest.mark.parametrize(("question", "heading_end", "work"), [
    ("What is the ratio of total assets to total liabilities in 2019?",
     "ratio of Total assets to Total liabilities, 2019 = 2.93", "2,664 / 909 = 2.93"),
    ("What is the proportion of property, plant, and equipment over total assets in 2018?",
     "ratio of Property, plant, and equipment to Total assets, 2018 = 0.86", "2,590 / 3,025 = 0.86"),
    ("What were total liabilities as a percentage of total assets in 2018?",
     "Total liabilities as a percentage of Total assets, 2018 = 37.02 %", "1,120 / 3,025 × 100 = 37.02 %"),
    ("What is the difference between the domestic and international discount rates as at September 30, 2019?",
     "difference in Discount rate, Domestic September 30, 2019 − International September 30, 2019 = "
     "2.10 percentage points (210 bps)", "4.00% − 1.90% = 2.10 percentage points"),  # domestic − international
])
def test_the_first_line_states_the_result_computed_from_two_cited_cells(report, question, heading_end, work):
    answer = report.ask(question, "pairs")
    heading, *rest = answer.answer.splitlines()
    assert heading_states(heading, heading_end), heading
    assert any(work in line for line in rest), rest
    assert answer.calculation is not None and not answer.declined
    assert answer.unsupported_numbers == [] and answer.citations


@pytest.mark.parametrize(("question", "work"), [
    ("Total assets minus total liabilities in 2019", "2,664 − 909 = "),
    ("By how much did total assets exceed total liabilities in 2019?", "2,664 − 909 = "),
    ("How much higher were total assets than total liabilities in 2019?", "2,664 − 909 = "),
    ("total liabilities minus total assets, 2019", "909 − 2,664 = "),  # the other way round: negative
])
def test_a_difference_of_two_items_subtracts_the_second_from_the_first_named(report, question, work):
    """"A minus B", "by how much did A exceed B", "how much higher was A than B": the first named less the second
    (a change from A to B would run the other way)."""
    assert "minuend_first" in read(question).flags
    answer = report.ask(question, "pairs", sources=["balance.html"])
    assert answer.calculation is not None, answer.answer
    assert any(work in line for line in answer.answer.splitlines()[1:]), answer.answer


@pytest.mark.parametrize("question", [
    "What was the total of Equipment, furniture and fixtures and Capitalized internally developed software costs in "
    "2019?",
    "What was the sum of equipment, furniture and fixtures and capitalized internally developed software costs in "
    "2019?",
])
def test_the_total_of_items_is_read_as_the_sum_asked_not_as_a_name(question):
    """"The total of A and B" asks for a sum: its "total" names no row."""
    assert not any(m.text.lower().startswith("total") for m in read(question).mentions)


def test_the_total_of_two_items_is_their_sum(report):
    """The two items, not them and the table's own Total row (which holds them already)."""
    answer = report.ask("What was the total of Equipment, furniture and fixtures and Capitalized internally developed "
                        "software costs in 2019?", "pairs", sources=["assets.html"])
    assert answer.calculation is not None, answer.answer
    assert answer.calculation.result.endswith("346,025"), answer.calculation  # 307,559 + 38,466
    assert len(answer.calculation.inputs) == 2


@pytest.mark.parametrize("question", [
    "What was the total of Audit fees and Non-audit fees in 2019?",
    "What was the total of audit fees and non-audit fees in 2019",
    "What were audit fees and non-audit fees in total in 2019?",
])
def test_a_sum_of_two_items_leaves_the_total_row_out_when_total_is_the_sum_word(report, question):
    """The question's "total" asks for the sum; no mention names the table's Total row, so it is no operand (one
    item's name inside the other's, "audit fees" in "non-audit fees", leaves the Total row's word the only one
    telling them apart)."""
    answer = report.ask(question, "pairs", sources=["fees.html"])
    assert answer.calculation is not None, answer.answer
    assert answer.calculation.result.endswith("1,690"), answer.calculation  # 1,092 + 598
    assert sorted(str(i) for i in answer.calculation.inputs) == sorted(str(i) for i in answer.calculation.inputs
                                                                      if "Total" not in str(i))
