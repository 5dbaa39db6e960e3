"""Questions asking how a figure changed between two periods are read as a change ("How did net income change from
2014 to 2015?", "… compared with 2014", "net income from 2014 to 2015"); "in percent", "in %", "percentage" ask for
the percentage change."""

from __future__ import annotations

import pytest

from prism.answering.derived.operations import read_operation


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
    op = read_operation(question)
    assert op is not None and (op.kind, op.periods) == ("change", 2)


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
    op = read_operation(question)
    assert op is not None and op.kind == "percent_change"


@pytest.mark.parametrize("question", [
    "Why did net income change from 2014 to 2015?",  # a reason
    "How did the company grow revenue from 2014 to 2015?",  # a means: the verb takes an object
    "What was the net income for each year from 2013 to 2015?",  # each period's figure
    "What is Nike's revenue CAGR from FY2016 to FY2018?",  # a compound rate, the metric's
    "How is EBITDA calculated?",
])
def test_reasons_means_listings_and_rates_are_not_a_change(question):
    op = read_operation(question)
    assert op is None or op.kind != "change"
