"""A question asking a segment's figure is answered by that segment's figures only: a bank-wide gross NPA ratio does
not answer "the gross NPA ratio of the home loan segment" (declined), a ratio of two bank-wide rows does not either,
while a segment the documents report answers, and the bank-wide question is answered. Through the real pipeline: an
HTML page, real ingest, Chroma and the embedder."""

from __future__ import annotations

import pytest

from tests.conftest import pages_service

RESULTS = """<html><body>
<p>Quarterly key metrics (standalone, unaudited).</p>
<table>
<tr><th></th><th>Q2 FY25</th><th>Q1 FY25</th></tr>
<tr><td>Gross NPA %</td><td>1.74</td><td>1.79</td></tr>
<tr><td>Net NPA %</td><td>0.46</td><td>0.49</td></tr>
<tr><td>CASA ratio %</td><td>38.4</td><td>39.1</td></tr>
</table>
<p>Loan book by segment, 30 September 2024.</p>
<table>
<tr><th>Segment</th><th>Outstanding (Rs crore)</th><th>YoY growth %</th></tr>
<tr><td>Home loans</td><td>102,380</td><td>13.2</td></tr>
<tr><td>Personal loans</td><td>41,210</td><td>19.5</td></tr>
</table>
<p>Segment results for Q2 FY25 (Rs crore).</p>
<table>
<tr><th>Segment</th><th>Net profit</th><th>Revenue</th></tr>
<tr><td>Retail banking</td><td>1,204</td><td>6,870</td></tr>
<tr><td>Corporate banking</td><td>942</td><td>4,115</td></tr>
</table>
</body></html>"""


@pytest.fixture(scope="module")
def bank(tmp_path_factory, embedder):
    return pages_service(tmp_path_factory.mktemp("segment_home"), embedder, {"results.html": RESULTS}, "segments")


def _first(answer) -> str:
    return next(li for li in answer.answer.splitlines() if li.strip() and not li.startswith("Extractive"))


@pytest.mark.parametrize("question", [
    "What was the gross NPA ratio of the home loan segment in Q2 FY25?",
    "What was the home loan segment's gross NPA in Q2 FY25?",
    "Gross NPA of the home loans division, Q2 FY25",
    "What was the gross NPA of the home loan segment?",
])
def test_a_segment_the_figures_are_not_of_is_declined(bank, question):
    answer = bank.ask(question, "segments")
    head = answer.answer.split("Closest passages")[0]
    assert answer.declined, answer.answer
    assert "1.74" not in head and "3.78" not in head, head


def test_the_bank_wide_figure_is_answered(bank):
    answer = bank.ask("What was the gross NPA ratio in Q2 FY25?", "segments")
    assert not answer.declined and "1.74" in _first(answer), answer.answer


def test_a_segment_the_documents_report_is_answered(bank):
    answer = bank.ask("What was the net profit of the retail banking segment in Q2 FY25?", "segments")
    assert not answer.declined and "1,204" in _first(answer), answer.answer


@pytest.mark.parametrize(("question", "named"), [
    ("What was the gross NPA ratio of the home loan segment in Q2 FY25?", ({"home", "loan"},)),
    ("What was the retail division's revenue?", ({"retail"},)),
    ("How were operating segments defined?", ()),  # what a segment is: no segment's figure
    ("In 2022 Q2, which of JPM's business segments had the highest net income?", ()),  # which segment: none named
    ("What are the business segments the company operates in?", ()),
    ("Is 3M a capital-intensive business based on FY2022 data?", ()),  # "business" qualifies, names no segment
    ("What events outside Pfizer's standard business operations raised net income?", ()),
])
def test_the_segments_a_question_names(embedder, question, named):
    from prism.answering.reading.reader import Reader
    from prism.answering.reading.segments import segments

    assert [set(words) for words in segments(Reader(embedder).read(question))] == [set(n) for n in named]


@pytest.mark.parametrize("question", [
    "How much did personal loans grow year on year?",
    "What was the YoY growth of personal loans?",
    "By how much have personal loans grown?",
    "Personal loans growth YoY",
    "personal loan book growth, year over year",
    "How fast did personal loans grow",
    "Give the year-on-year growth in personal loans",
    "What growth did the personal loan segment report?",
    "How much have personal loans grown over the year?",
])
def test_a_growth_the_table_states_is_quoted_however_it_is_asked(bank, question):
    """The loan table states each segment's growth in a "YoY growth %" column: every wording of "how much did it
    grow" ("grew", "grown", "growth"; the tokenizer gives them one term) is answered with that cell, not computed."""
    answer = bank.ask(question, "segments")
    assert _first(answer).startswith("- Personal loans, YoY growth %: 19.5%"), answer.answer  # the cell, looked up
