"""Two dates of one year are two periods: "at June 30 and December 31, 2019" names the column of each day (a day
without its year takes the year of the date after it), in the order the question names them, so a change between
them runs from the first to the second; and a change "from 2017 to 2019" runs between the range's ends, not through
the year inside it. Through the real pipeline for the answers: an HTML page, real ingest, Chroma and the embedder."""

from __future__ import annotations

from decimal import Decimal

import pytest

from prism.answering.programs.binding import series_pairs
from prism.answering.programs.operation import Evidence, Operand, Row
from prism.answering.programs.periods import asked_periods, matches_period
from prism.index.tokenizer import tokenize
from prism.retrieval.periods import find_periods
from tests.conftest import pages_service
from tests.readings import read

PAGE = """<html><body>
<p>The purchase price allocation was finalised during the year (in thousands).</p>
<table>
<tr><th></th><th>Estimated at June 30, 2019</th><th>Adjustments</th><th>Final as of December 31, 2019</th></tr>
<tr><td>Cash</td><td>$3,795</td><td>-</td><td>$3,795</td></tr>
<tr><td>Working capital adjustment to purchase price</td><td>(38)</td><td>20</td><td>(18)</td></tr>
<tr><td>Total fair value of consideration transferred</td><td>$3,757</td><td>20</td><td>$3,777</td></tr>
</table>
</body></html>"""


def _dated(header: str, iso: str) -> Operand:
    return Operand("Cash", header, iso, (int(iso[:4]), 0), "1", Decimal(1), None, None, "amount", 1)


def test_two_dates_of_one_year_are_two_periods_each_naming_its_own_column():
    reading = read("What is the change in cash between June 30 and December 31, 2019?")
    assert [p.date for p in asked_periods(reading)] == ["2019-06-30", "2019-12-31"]
    june, december = asked_periods(reading)
    estimated, final = _dated("Estimated at June 30, 2019", "2019-06-30"), _dated("Final as of December 31, 2019",
                                                                                  "2019-12-31")
    assert matches_period(june, estimated) and not matches_period(june, final)
    assert matches_period(december, final) and not matches_period(december, estimated)
    [year] = find_periods("in 2019")  # a year still names every column of it
    assert matches_period(year, estimated) and matches_period(year, final)
    [close] = find_periods("as of December 28, 2019")  # and a day names a column of another day of its month
    assert matches_period(close, _dated("December 31, 2019", "2019-12-31"))


@pytest.mark.parametrize(("question", "pairs"), [
    ("What was the change in revenue from 2017 to 2019?", {("2017", "2019"), ("2019", "2017")}),  # the range's ends
    ("What was the change in revenue between 2018 and 2019?", {("2018", "2019"), ("2019", "2018")}),
    ("What was the change in revenue in 2017, 2018 and 2019?", {("2017", "2018"), ("2017", "2019"), ("2018", "2019"),
                                                              ("2018", "2017"), ("2019", "2017"), ("2019", "2018")}),
])
def test_a_change_over_a_range_of_years_runs_between_its_ends(question, pairs):
    years = ((2017, 66), (2018, 65), (2019, 70))
    figures = tuple(Operand("Revenue", str(year), f"FY{year}", (year, 0), str(v), Decimal(v), None, None, "amount", 1,
                            table="t", row=0, col=i) for i, (year, v) in enumerate(years))
    evidence = Evidence(rows=[Row(("t", 0), "Revenue", frozenset(tokenize("Revenue")), figures)])
    assert {(a.column, b.column) for a, b in series_pairs(read(question), evidence)} == pairs


@pytest.fixture(scope="module")
def report(tmp_path_factory, embedder):
    return pages_service(tmp_path_factory.mktemp("dates_home"), embedder, {"allocation.html": PAGE}, "dates")


@pytest.mark.parametrize(("question", "ending"), [
    ("What is the percentage change in the working capital adjustment at June 30 and December 31, 2019?",
     ": -52.63 %"),  # (−18 − (−38)) / −38: from June 30 to December 31, not the other way (111.11 %)
    ("What are the respective working capital adjustment at June 30 and December 31, 2019?",
     "Estimated at June 30, 2019: -38; Final as of December 31, 2019: -18"),
])
def test_a_question_naming_two_dates_of_one_year_is_answered_over_both_in_its_order(report, question, ending):
    first = report.ask(question, "dates").answer.splitlines()[0]
    assert first.endswith(ending), first
