"""A row of several measures in columns that name no period (options: their number, exercise price, remaining
life; a segment's share of revenue, growth and margin, all percentages; a stock's high and low): a question naming
one measure is that cell, not its difference from or ratio to the row's other measures; a question naming two of
them compares them. Through the real pipeline (an HTML note, real ingest, Chroma, the packaged embedder, BM25 and
the extractive engine), and the pairs offered on hand-made operands."""

from __future__ import annotations

from decimal import Decimal

import pytest

from prism.answering.programs.binding import series_pairs, series_sets
from prism.answering.programs.evidence import Evidence, Row, naming_tokens
from prism.answering.programs.operation import Operand
from tests.conftest import pages_service
from tests.readings import read

NOTE = """<html><body>
<p>Stock options of the Company at year end.</p>
<table>
<tr><th></th><th>Number of options</th><th>Weighted average exercise price ($)</th>
<th>Weighted average remaining life (years)</th></tr>
<tr><td>Options outstanding</td><td>1,250</td><td>24.60</td><td>6.2</td></tr>
<tr><td>Options exercisable</td><td>830</td><td>19.40</td><td>4.1</td></tr>
</table>
<p>Segment mix: each segment's share of revenue, its revenue growth on the prior year and its operating margin.</p>
<table>
<tr><th>Segment</th><th>Share of revenue</th><th>Revenue growth</th><th>Operating margin</th></tr>
<tr><td>Cloud services</td><td>41.5%</td><td>18.2%</td><td>27.9%</td></tr>
<tr><td>Devices</td><td>33.0%</td><td>-4.6%</td><td>9.8%</td></tr>
<tr><td>Consulting</td><td>25.5%</td><td>6.1%</td><td>14.3%</td></tr>
</table>
<p>Market price of the common stock during the year.</p>
<table>
<tr><th></th><th>High</th><th>Low</th></tr>
<tr><td>Common stock price ($)</td><td>48.20</td><td>31.70</td></tr>
</table>
</body></html>"""


@pytest.fixture(scope="module")
def note(tmp_path_factory, embedder):
    return pages_service(tmp_path_factory.mktemp("measures_home"), embedder, {"options.html": NOTE}, "measures")


@pytest.mark.parametrize(("question", "cell"), [
    ("What was the weighted average exercise price of options exercisable?", "19.40"),
    ("options exercisable weighted average exercise price", "19.40"),
    ("What is the weighted average remaining life of options outstanding?", "6.2"),
    ("cloud services revenue growth", "18.2%"),
    ("How much did revenue of cloud services grow?", "18.2%"),
    ("Cloud services operating margin", "27.9%"),
    ("devices revenue growth %", "-4.6%"),
])
def test_one_measure_named_is_its_cell(note, question, cell):
    answer = note.ask(question, "measures")
    assert answer.calculation is None, answer.answer
    assert f": {cell}" in answer.answer.split("\n- ")[1], answer.answer


def test_two_measures_named_are_compared(note):
    answer = note.ask("What is the difference between the high and low price of the common stock?", "measures")
    assert answer.calculation is not None, answer.answer
    assert any("48.20 − 31.70 = " in line or "31.70 − 48.20 = " in line for line in answer.answer.splitlines()), \
        answer.answer


def _measures(label: str, cells: dict[str, str]) -> Evidence:
    figures = tuple(Operand(label, column, None, (0, 0), printed, Decimal(printed.rstrip("%")), None, None,
                            "percent", 1, "cell", "t", 0, j) for j, (column, printed) in enumerate(cells.items()))
    return Evidence(rows=[Row(("t", 0), label, naming_tokens(label), figures)])


@pytest.mark.parametrize(("question", "pairs"), [
    ("personal loans YoY growth", []),  # one measure named: no pair
    ("By how much did personal loans grow?", []),
    ("What was the share of book of personal loans?", []),
    ("What is the difference between the YoY growth and the share of book of personal loans?",
     [("Share of book", "YoY growth")]),  # both named
    ("Difference in personal loans figures", [("Share of book", "YoY growth")]),  # neither named: any two
])
def test_two_measures_of_a_row_pair_only_when_the_question_names_both_or_neither(question, pairs):
    evidence = _measures("Personal loans", {"Share of book": "10.1%", "YoY growth": "19.8%"})
    found = sorted({tuple(sorted((a.column, b.column))) for a, b in series_pairs(read(question), evidence)})
    assert found == pairs



@pytest.mark.parametrize(("question", "sets"), [
    ("What is the total deferred revenue at the end of the period?", []),  # one column named: no sum of the row
    ("What is deferred revenue's beginning balance plus the increase plus its end balance?", [3]),  # all named
    ("Sum of deferred revenue figures", [3]),  # none named: the row's figures
])
def test_a_row_s_undated_figures_are_one_set_only_when_the_question_names_all_or_none(question, sets):
    cells = {"Balance at Beginning of Period": "5101", "Increase / (Decrease)": "-618",
             "Balance at End of Period": "4483"}
    figures = tuple(Operand("Deferred revenue (current)", column, None, (0, 0), printed, Decimal(printed), None, None,
                            "amount", 1, "cell", "t", 0, j) for j, (column, printed) in enumerate(cells.items()))
    evidence = Evidence(rows=[Row(("t", 0), figures[0].label, naming_tokens(figures[0].label), figures)])
    assert [len(s) for s in series_sets(read(question), evidence)] == sets
