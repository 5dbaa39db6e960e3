"""Span answers state the answer in the first line: the sentence that restates the question's own wording leads
(not the one retrieved first), and a question that asks what something is, consists of or how it is calculated is
answered by the sentence that says so, not by a table cell. A real HTML page (table, then paragraphs, as TAT-QA
contexts are written), the real parser, embedder, Chroma and BM25."""

from __future__ import annotations

import pytest

from prism.types import IngestItem
from tests.conftest import offline_service
from tests.readings import read

PAGE = """<html><body>
<table>
<tr><th></th><th>2019</th><th>2018</th></tr>
<tr><td>Strategic Alternatives Evaluation (1)</td><td>1,286</td><td>—</td></tr>
<tr><td>Qdoba Evaluation (2)</td><td>—</td><td>2,211</td></tr>
<tr><td>Ship management creditors</td><td>328</td><td>301</td></tr>
</table>
<p>Restructuring charges in 2018 also include costs related to the evaluation of potential alternatives with respect
to the Qdoba brand, which resulted in the Qdoba Sale.</p>
<p>Strategic Alternatives Evaluation costs are primarily related to third party advisory services.</p>
<p>Qdoba Evaluation consulting costs are primarily related to third party advisory services and retention
compensation.</p>
<p>Ship management creditors consist of cash collected from Egypt LNG Shipping Ltd. to cover the obligations of its
vessel under the Group's management.</p>
</body></html>"""


TAXES = """<html><body>
<table>
<tr><th>Components of income tax expense</th><th>2019 £m</th><th>2018 £m</th></tr>
<tr><td>Ireland</td><td>0.4</td><td>0.5</td></tr>
<tr><td>Deferred charges</td><td>2.7</td><td>1.9</td></tr>
<tr><td>Revenues</td><td>601,256</td><td>598,100</td></tr>
</table>
<p>Components of income tax expense consisted of the following for the years indicated.</p>
</body></html>"""


REVENUE = """<html><body>
<table>
<tr><th>Revenue by country</th><th>2019 $</th><th>2018 $</th></tr>
<tr><td>United Kingdom</td><td>103,498</td><td>69,596</td></tr>
<tr><td>United States</td><td>1,155,463</td><td>930,254</td></tr>
<tr><td>Canada</td><td>96,168</td><td>70,774</td></tr>
<tr><td>Rest of World</td><td>230,416</td><td>129,468</td></tr>
<tr><td>Total external revenue</td><td>1,585,545</td><td>1,200,092</td></tr>
</table>
<p>The table presents total external revenues by geographic location of the merchants.</p>
</body></html>"""


@pytest.fixture(scope="module")
def report(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("span_home")
    path = home / "costs.html"
    path.write_text(PAGE, encoding="utf-8")
    taxes = home / "taxes.html"
    taxes.write_text(TAXES, encoding="utf-8")
    revenue = home / "revenue.html"
    revenue.write_text(REVENUE, encoding="utf-8")
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    results = svc.ingest([IngestItem(path), IngestItem(taxes), IngestItem(revenue)], "span")
    assert [r.status for r in results] == ["ingested", "ingested", "ingested"]
    return svc


def _first(answer) -> str:
    return next(li for li in answer.answer.splitlines() if li.startswith("- "))


def test_the_sentence_restating_the_question_leads(report):
    answer = report.ask("What are Qdoba evaluation consulting costs primarily related to?", "span")
    assert not answer.declined and answer.calculation is None
    first = _first(answer)
    assert "third party advisory services and retention compensation" in first, answer.answer
    assert "Strategic" not in first


def test_what_something_consists_of_is_a_sentence_not_a_cell(report):
    answer = report.ask("What does ship management creditors consist of?", "span")
    assert not answer.declined
    first = _first(answer)
    assert "cash collected from Egypt LNG Shipping Ltd." in first, answer.answer
    assert "328" not in first


@pytest.mark.parametrize(("question", "asks"), [
    ("What is Trade receivables?", True),
    ("What does Vessel Calendar Days refer to?", True),
    ("How is EBITDA calculated?", True),
    ("When does the company record an accrued receivable?", True),
    ("What is the revenue?", False),  # a measure, not a term
    ("What is the fee for locker rent?", False),
    ("What was revenue in 2019?", False),
    ("What is the total revenue?", False),
])
def test_a_description_question_is_told_from_a_figure_question(question, asks):
    assert ("description" in read(question).flags) is asks


@pytest.mark.parametrize(("question", "heading_words", "checked"), [
    ("In which year was the amount for Ireland larger?", ("Ireland", "2018"), "2018: 0.5"),
    ("In which year was the amount for deferred charges smaller?", ("Deferred charges", "2018"), "2018: 1.9"),
    ("In which year were revenues less than 600,000?", ("Revenues", "600,000", "2018"), "2018: 598,100"),
])
def test_which_year_names_the_year_first_with_the_row_read(report, question, heading_words, checked):
    # the period comparison in code (a program over the row's years) answers before the year lines
    answer = report.ask(question, "span", sources=["taxes.html"])
    heading, *rest = answer.answer.splitlines()
    assert not answer.declined and answer.calculation is not None and answer.calculation.result == "2018"
    assert all(word in heading for word in heading_words), answer.answer
    assert any(checked in line for line in rest), answer.answer


@pytest.mark.parametrize("question", [
    "Which years does the table provide information for components of income tax expense?",
    "What are the years that information regarding components of income tax expense is made available?",
    "What years does the table on components of income tax expense cover?",
])
def test_which_years_a_table_gives_lists_its_column_years(report, question):
    answer = report.ask(question, "span", sources=["taxes.html"])
    first = _first(answer)
    assert "2019" in first and "2018" in first and "consisted" not in first, answer.answer


@pytest.mark.parametrize(("question", "row", "figure"), [
    ("Which country had the highest total external revenue in 2019?", "United States", "1,155,463"),
    ("Which country had the second highest total external revenue in 2018?", "Rest of World", "129,468"),
    ("Which country had the lowest total external revenue in 2019?", "Canada", "96,168"),
])
def test_which_row_ranks_first_names_the_row_and_its_figure(report, question, row, figure):
    """The total row is not a country: it is left out of the ranking. The answer's first line names the row and its
    figure (and no other country)."""
    answer = report.ask(question, "span", sources=["revenue.html"])
    first = answer.answer.splitlines()[0]
    others = {"United Kingdom", "United States", "Canada", "Rest of World", "Total"} - {row}
    assert not answer.declined and row in first and figure in first, answer.answer
    assert not [name for name in others if name in first], answer.answer


@pytest.mark.parametrize("question", [
    "What years are reported by the table?",
    "Which years does the table cover?",
    "What are the years included in the table?",
])
def test_a_question_about_the_whole_table_gets_its_years(report, question):
    """The question names no row: the table's dated columns answer, in the table's order."""
    answer = report.ask(question, "span", sources=["revenue.html"])
    heading = answer.answer.splitlines()[0]
    assert not answer.declined and answer.calculation is not None, answer.answer
    assert answer.calculation.result == "2019 and 2018", answer.answer
    assert "Periods the table gives" in heading, answer.answer


@pytest.mark.parametrize("question", [
    "What items are listed in the table?",
    "What are the financial items shown in the table?",
])
def test_a_question_about_the_whole_table_gets_its_items_without_the_total(report, question):
    answer = report.ask(question, "span", sources=["revenue.html"])
    assert not answer.declined and answer.calculation is not None, answer.answer
    assert answer.calculation.result == "United Kingdom; United States; Canada; Rest of World", answer.answer


@pytest.mark.parametrize(("question", "expected"), [
    ("What were the respective revenues of Canada and the United Kingdom in 2019?", ("96,168", "103,498")),
    ("What was the revenue of the United Kingdom and Canada in 2018 respectively?", ("69,596", "70,774")),
])
def test_items_asked_respectively_get_a_figure_each_in_the_question_order(report, question, expected):
    answer = report.ask(question, "span", sources=["revenue.html"])
    first = answer.answer.splitlines()[0]
    assert not answer.declined, answer.answer
    assert all(figure in first for figure in expected), answer.answer
    assert first.index(expected[0]) < first.index(expected[1]), answer.answer
