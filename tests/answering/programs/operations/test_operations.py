"""Arithmetic over any table row: the change, the percentage change and the average of one row
across the periods a question names, computed exactly and cited. Through the real pipeline: an HTML report page
(a table with its header row and a paragraph, the way TAT-QA contexts are written), real ingest, Chroma and the
embedder."""

from __future__ import annotations

import pytest

from prism.types import IngestItem
from tests.conftest import offline_service
from tests.readings import heading_states, read

PAGE = """<html><body>
<p>The following table sets forth our non-GAAP measures (in thousands).</p>
<table>
<tr><th></th><th>2019</th><th>2018</th></tr>
<tr><td>Adjusted EBITDA</td><td>108,307</td><td>93,081</td></tr>
<tr><td>Accrued payroll and employee benefits</td><td>116.9</td><td>105.9</td></tr>
<tr><td>Amount outstanding at 31 March</td><td>320,872</td><td>690,791</td></tr>
<tr><td>Dividend equivalent</td><td>1,095</td><td>1,048</td></tr>
</table>
<p>Adjusted EBITDA grew on higher volumes in the Distribution segment.</p>
</body></html>"""


@pytest.mark.parametrize(("question", "kind"), [
    ("What was the percentage change in Adjusted EBITDA between 2018 and 2019?", "percent_change"),
    ("What is the percentage increase / (decrease) of Research, development and engineering from 2018 to 2019?",
     "percent_change"),
    ("What was the change in the amount Outstanding at 31 March in 2019 from 2018?", "change"),
    ("What is the average accrued payroll and employee benefits for 2018 and 2019?", "average"),
    ("How much did revenue increase from 2017 to 2019?", "change"),
    ("What is the sum of finished goods in 2018 and 2019?", "sum"),
    ("What were the combined trade receivables in 2018 and 2019?", "sum"),
    ("What is the 2019 average trade receivables?", "average"),
    ("What was the % change in gains recognized from 2018 to 2019?", "percent_change"),
    ("What is the average of Revenues from sale of services?", "average"),
])
def test_the_operation_is_read_from_the_wording(question, kind):
    assert read(question).operation == kind


@pytest.mark.parametrize("question", [
    "What was the Adjusted EBITDA in 2019?",  # one period: a lookup
    "Why did Adjusted EBITDA change between 2018 and 2019?",  # a reason, not a figure
    "What are the years included in the table, 2018 and 2019?",  # no operation
    "What was the weighted average exercise price?",  # an average the table prints: a lookup
    "What is the average remaining life of the leases?",
])
def test_no_operation_without_one(question):
    assert read(question).operation not in ("change", "percent_change", "average", "total", "ratio", "share", "cagr")


BALANCES = """<html><body>
<p>Inventories and receivables consisted of the following (in thousands).</p>
<table>
<tr><th></th><th>December 31, 2019</th><th>December 31, 2018</th></tr>
<tr><td>Finished goods</td><td>668</td><td>716</td></tr>
<tr><td>Trade receivables</td><td>11,191</td><td>9,660</td></tr>
<tr><td>Total current assets</td><td>40,250</td><td>38,125</td></tr>
</table>
<p>Trade receivables increased primarily due to higher sales in the fourth quarter.</p>
</body></html>"""


@pytest.fixture(scope="module")
def report(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("operations_home")
    path = home / "report.html"
    path.write_text(PAGE, encoding="utf-8")
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    balances = home / "balances.html"
    balances.write_text(BALANCES, encoding="utf-8")
    results = svc.ingest([IngestItem(path), IngestItem(balances)], "ops")
    assert [r.status for r in results] == ["ingested", "ingested"]
    return svc


@pytest.mark.parametrize(("question", "first_line", "work"), [
    ("What was the percentage change in Adjusted EBITDA between 2018 and 2019?",
     "percentage change in Adjusted EBITDA, 2018 to 2019 = 16.36 %", "(108,307 − 93,081) / 93,081 × 100 = 16.36 %"),
    ("What was the change in the amount Outstanding at 31 March in 2019 from 2018?",
     "change in Amount outstanding at 31 March, 2018 to 2019 = -369,919 (-53.55 %)",
     "320,872 − 690,791 = -369,919; (320,872 − 690,791) / 690,791 × 100 = -53.55 %"),
    ("What is the average accrued payroll and employee benefits for 2018 and 2019?",
     "average in Accrued payroll and employee benefits, 2018 to 2019 = 111.4", "(105.9 + 116.9) / 2"),
    ("What was the average dividend equivalent from 2018 to 2019?",
     "average in Dividend equivalent, 2018 to 2019 = 1,071.5", "(1,048 + 1,095) / 2 = 1,071.5"),
])
def test_the_first_line_states_the_computed_result_and_the_cells_are_cited(report, question, first_line, work):
    answer = report.ask(question, "ops")
    heading, *rest = answer.answer.splitlines()
    assert heading_states(heading, first_line), heading
    assert any(work in line for line in rest), rest
    assert answer.calculation is not None and answer.calculation.source == "the question"
    assert [c.page_start for c in answer.citations] and answer.unsupported_numbers == []
    assert not answer.declined


@pytest.mark.parametrize(("question", "first_line", "work"), [
    # a year asked of columns dated in it (a balance sheet's year ends, no fiscal year end known)
    ("What was the change in finished goods from 2018 to 2019?",
     "change in Finished goods, December 31, 2018 to December 31, 2019 = -48 (-6.70 %)",
     "668 − 716 = -48; (668 − 716) / 716 × 100 = -6.70 %"),
    ("What is the sum of finished goods in 2018 and 2019?",
     "total in Finished goods, December 31, 2018 to December 31, 2019 = 1,384", "716 + 668 = 1,384"),
    ("What were the total trade receivables in 2018 and 2019?",  # "total" of a row not labelled so: the sum
     "total in Trade receivables, December 31, 2018 to December 31, 2019 = 20,851", "9,660 + 11,191"),
    # the average balance of one year: its closing and opening values
    ("What is the 2019 average trade receivables?",
     "average in Trade receivables, December 31, 2018 to December 31, 2019 = 10,425.5",
     "(9,660 + 11,191) / 2 = 10,425.5"),
])
def test_dated_columns_sums_and_average_balances(report, question, first_line, work):
    answer = report.ask(question, "ops", sources=["balances.html"])
    heading, *rest = answer.answer.splitlines()
    assert heading_states(heading, first_line), heading
    assert any(work in line for line in rest), rest
    assert answer.unsupported_numbers == [] and not answer.declined


@pytest.mark.parametrize(("question", "heading_end", "work"), [
    # a difference asked without a direction: the gap, the larger figure less the smaller
    ("What is the difference in the amount outstanding at 31 March between 2018 and 2019?", ": 369,919 (115.29 %)",
     "690,791 − 320,872 = 369,919"),
    # a direction asked: the signed movement
    ("What was the change in the amount Outstanding at 31 March in 2019 from 2018?", ": -369,919 (-53.55 %)",
     "320,872 − 690,791 = -369,919"),
])
def test_a_difference_without_a_direction_is_the_gap(report, question, heading_end, work):
    answer = report.ask(question, "ops")
    heading, *rest = answer.answer.splitlines()
    assert heading.endswith(heading_end) and "Amount outstanding at 31 March" in heading, heading
    assert any(work in line for line in rest), rest


def test_an_average_naming_no_period_is_over_every_period_of_the_row(report):
    answer = report.ask("What is the average dividend equivalent?", "ops", sources=["report.html"])
    heading, *rest = answer.answer.splitlines()
    assert heading_states(heading, "average in Dividend equivalent, 2018 to 2019 = 1,071.5"), heading
    assert answer.calculation is not None and answer.calculation.result.endswith("1,071.5")
    assert not answer.declined


def test_total_of_a_total_row_states_its_figures_in_one_line(report):
    answer = report.ask("What were the total current assets in 2018 and 2019?", "ops", sources=["balances.html"])
    # the row's figures are listed, not added: no figure is computed (a listing's calculation has no value)
    assert answer.calculation is None or answer.calculation.value is None
    assert "78,375" not in answer.answer, answer.answer
    first = next(li for li in answer.answer.splitlines() if li.startswith("- "))
    assert first == "- Total current assets, December 31, 2018: 38,125; December 31, 2019: 40,250 [1]", first


@pytest.mark.parametrize("question", [
    "What is the total of current assets in 2018 and 2019?",
    "What were current assets in 2018 and 2019 in total?",
])
def test_the_sum_asked_by_total_adds_a_total_rows_years(report, question):
    answer = report.ask(question, "ops", sources=["balances.html"])
    # "total" asks for the sum here, it names no row: 38,125 + 40,250
    assert answer.calculation is not None and answer.calculation.result.endswith("78,375"), answer.answer


def test_a_reason_is_answered_by_the_sentence_that_gives_it(report):
    answer = report.ask("What caused the increase in trade receivables from 2018 to 2019?", "ops",
                        sources=["balances.html"])
    assert answer.calculation is None and not answer.declined
    first = next(li for li in answer.answer.splitlines() if li.startswith("- "))
    assert "primarily due to higher sales" in first, answer.answer


@pytest.mark.parametrize("question", [
    "What percentage of total current assets were finished goods and trade receivables in 2019?",
    "Finished goods and trade receivables as a % of total current assets, 2019",
])
def test_items_joined_by_and_are_added_up_as_the_part_of_a_share(report, question):
    answer = report.ask(question, "ops", sources=["balances.html"])
    heading, *rest = answer.answer.splitlines()
    # (668 + 11,191) / 40,250 × 100 = 29.46 %: both items, each cell cited, over the total
    assert heading.endswith(": 29.46 %") and "Finished goods and Trade receivables" in heading, heading
    assert any("(668 + 11,191) / 40,250 × 100 = 29.46 %" in line for line in rest), rest
    assert answer.unsupported_numbers == [] and not answer.declined


def test_a_percentage_is_never_divided_by_an_amount():
    from decimal import Decimal

    from prism.answering.programs.formatting import commensurable
    from prism.answering.programs.operation import Operand

    npa = Operand("Gross NPA %", "Q2 FY25", "Q2 FY2025", (2025, 2), "1.74%", Decimal("1.74"), None, None, "percent", 1)
    advances = Operand("Gross advances", "Q2 FY25", "Q2 FY2025", (2025, 2), "3,84,250", Decimal(384250), "crore",
                       "INR", "amount", 1)
    casa = Operand("CASA ratio", "Q2 FY25", "Q2 FY2025", (2025, 2), "38.4%", Decimal("38.4"), None, None, "percent", 1)
    assert not commensurable((npa, advances))
    assert commensurable((npa, casa)) and commensurable((advances, advances))
