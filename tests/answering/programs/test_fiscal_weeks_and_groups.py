"""A 52/53-week fiscal year's column ("January 3, 2020" closes fiscal 2019) answers to either year; an average over
a group of a table's items (every quarter of a year) is computed over all of them; a percentage change of two
negative figures is the change of their size; an operation word inside a row's name ("Change in valuation
allowance", "Return on average equity") names the row, it asks for no operation; a row named by a stop word alone
("Other") is named by it. Through the real pipeline:
an HTML report page as TAT-QA writes them, real ingest, Chroma and the embedder."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from prism.answering.programs.groups import group_columns
from prism.answering.programs.numbers import cell_number
from prism.answering.programs.operation import Evidence, Operand, Program
from prism.answering.programs.periods import matches_period
from prism.answering.programs.registry import OPERATIONS
from prism.index.tokenizer import tokenize
from prism.retrieval.periods import find_periods
from prism.types import IngestItem
from tests.conftest import offline_service
from tests.readings import read, table_evidence

PAGE = """<html><body>
<p>The following table summarizes our cash flows for the fiscal years presented (in millions).</p>
<table>
<tr><th></th><th>January 3, 2020</th><th>December 28, 2018</th><th>December 29, 2017</th></tr>
<tr><td>Net cash provided by operating activities</td><td>$992</td><td>$768</td><td>$526</td></tr>
<tr><td>Net cash provided by (used in) investing activities</td><td>65</td><td>(114)</td><td>(71)</td></tr>
</table>
<p>Our effective tax rate differs from the statutory rate as follows (in millions).</p>
<table>
<tr><th></th><th>January 3, 2020</th><th>December 28, 2018</th><th>December 29, 2017</th></tr>
<tr><td>Amount computed at the statutory federal income tax rate</td><td>$182</td><td>$128</td><td>$138</td></tr>
<tr><td>Change in valuation allowance for deferred tax assets</td><td>6</td><td>(49)</td><td>7</td></tr>
<tr><td>Return on average equity (%)</td><td>13.9</td><td>9.8</td><td>18.6</td></tr>
</table>
<p>Our fiscal year is the 52 or 53 weeks ending on the Friday closest to December 31.</p>
</body></html>"""

PRICES = """<html><body>
<p>The high and low sales prices of our common stock in each quarter were as follows.</p>
<table>
<tr><th></th><th>Common Stock Price Range 2018 Low</th><th>Common Stock Price Range 2018 High</th></tr>
<tr><td>First Quarter</td><td>$ 5.99</td><td>$ 8.40</td></tr>
<tr><td>Second Quarter</td><td>$ 4.79</td><td>$ 6.48</td></tr>
<tr><td>Third Quarter</td><td>$ 2.66</td><td>$ 4.63</td></tr>
<tr><td>Fourth Quarter</td><td>$ 1.88</td><td>$ 3.39</td></tr>
</table>
</body></html>"""


SALES = """<html><body>
<p>Our sales by contract type were as follows (in millions).</p>
<table>
<tr><th></th><th>Years Ended September 30, 2019</th><th>Years Ended September 30, 2018</th></tr>
<tr><td>Fixed Price</td><td>$ 1,452.4</td><td>$ 1,146.2</td></tr>
<tr><td>Other</td><td>44.1</td><td>56.7</td></tr>
<tr><td>Total sales</td><td>$ 1,496.5</td><td>$ 1,202.9</td></tr>
</table>
</body></html>"""


def _cell(header: str, period: str | None, when: tuple[int, int]) -> Operand:
    return Operand("Net cash", header, period, when, "1", Decimal(1), None, None, "amount", 1)


def test_a_column_closing_a_52_53_week_year_answers_to_either_year():
    closing = _cell("January 3, 2020", "2020-01-03", (2020, 0))
    [fiscal_2019], [calendar_2020], [year_2018] = (find_periods(t) for t in ("fiscal 2019", "2020", "2018"))
    assert matches_period(fiscal_2019, closing) and matches_period(calendar_2020, closing)
    assert not matches_period(year_2018, closing)
    opening = _cell("January 1, 2019", "2019-01-01", (2019, 0))  # an opening balance stays in its own year
    [year_2019] = find_periods("2019")
    assert matches_period(year_2019, opening) and not matches_period(year_2018, opening)


@pytest.fixture(scope="module")
def report(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("fiscal_weeks_home")
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    items = []
    for name, text in (("cashflows.html", PAGE), ("prices.html", PRICES), ("sales.html", SALES)):
        (home / name).write_text(text, encoding="utf-8")
        items.append(IngestItem(home / name))
    assert [r.status for r in svc.ingest(items, "weeks")] == ["ingested"] * 3
    return svc


def test_an_average_over_fiscal_years_takes_the_year_closing_in_january(report):
    answer = report.ask("What was the average net cash provided by operating activities between fiscal years "
                        "2017-2019?", "weeks", sources=["cashflows.html"])
    heading, *rest = answer.answer.splitlines()
    # (526 + 768 + 992) / 3: fiscal 2019 is the column dated January 3, 2020
    assert heading.endswith(": $762") and "Net cash provided by operating activities" in heading, heading
    assert any("$526 + $768 + $992" in line or "$992 + $768 + $526" in line for line in rest), rest
    assert not answer.declined


def test_the_calendar_year_still_names_the_column(report):
    answer = report.ask("What was the net cash provided by operating activities in 2020?", "weeks",
                        sources=["cashflows.html"])
    first = next(line for line in answer.answer.splitlines() if line.startswith("- "))
    assert "January 3, 2020: $992" in first, answer.answer


def test_an_average_over_a_group_of_items_takes_every_item(report):
    answer = report.ask("What is the average quarterly low price in 2018?", "weeks", sources=["prices.html"])
    # (5.99 + 4.79 + 2.66 + 1.88) / 4 = 3.83, over the four quarters' rows, never three of them
    assert answer.calculation is not None, answer.answer
    assert answer.calculation.result.endswith("3.83"), answer.calculation
    assert len(answer.calculation.inputs) == 4


@pytest.mark.parametrize("question", ["What were the low prices of each quarter in 2018?",
                                      "List the 2018 low price for each quarter"])
def test_each_items_figure_is_listed_with_its_item(report, question):
    answer = report.ask(question, "weeks", sources=["prices.html"])
    first = answer.answer.splitlines()[0]
    assert first.endswith("2018 Low: First Quarter: $5.99; Second Quarter: $4.79; Third Quarter: $2.66; "
                          "Fourth Quarter: $1.88"), answer.answer
    assert not answer.declined and answer.unsupported_numbers == []


@pytest.mark.parametrize(("question", "offered"), [
    ("What is the total of the quarterly low prices in FY24?", True),  # the sum's word: the items are summed
    ("What were the quarterly low prices in FY24 in total?", True),
    ("What was the total low price in FY24?", False),  # a total named: its own row, not the items
])
def test_only_a_total_named_keeps_a_group_from_being_offered(question, offered):
    rows = table_evidence(("First Quarter", "5.99"), ("Second Quarter", "4.79"), ("Third Quarter", "2.66"),
                          ("Fourth Quarter", "1.88"))
    context = frozenset(tokenize("Common Stock Price Range Low"))
    table = [dataclasses.replace(r, context=context) for r in rows.rows]
    evidence = Evidence(rows=table, tables={"t": [(r.label, r) for r in table]})
    groups = list(group_columns(read(question), evidence))
    assert bool(groups) is offered, groups
    assert all(len(figures) == 4 for _, figures in groups)


@pytest.mark.parametrize(("question", "first"), [
    ("In 2018, how many quarters had stock prices lower than $2.00 during their lows?",
     "Number of periods with Common Stock Price Range 2018 Low less than $2.00: 1 (Fourth Quarter 2018)"),
    ("How many quarters in 2018 had a low price below $5.00?",
     "Number of periods with Common Stock Price Range 2018 Low less than $5.00: 3 (Second Quarter 2018, Third "
     "Quarter 2018 and Fourth Quarter 2018)"),
])
def test_how_many_quarters_meet_a_threshold_counts_the_rows_of_a_table_of_quarters_down(report, question, first):
    """Quarters as rows, the year's low and high across: the quarters meeting the threshold are counted down the
    column the question names, and named by their rows; never one quarter's low and high as two periods."""
    answer = report.ask(question, "weeks", sources=["prices.html"])
    assert answer.answer.splitlines()[0] == first, answer.answer


def test_items_the_question_names_are_averaged_alone(report):
    answer = report.ask("What was the average low price in the first and second quarters of 2018?", "weeks",
                        sources=["prices.html"])
    # (5.99 + 4.79) / 2: the two quarters named, in the Low column
    assert answer.calculation is not None and answer.calculation.result.endswith("5.39"), answer.answer
    assert len(answer.calculation.inputs) == 2


@pytest.mark.parametrize(("before", "after", "expected"), [
    ("(33.6)", "(25.0)", "-25.60 %"),  # a loss narrowing: its size fell
    ("(9,166)", "(18,668)", "103.67 %"),  # payables in parentheses, doubled
    ("(10)", "5", "150.00 %"),  # from a loss to a profit: measured on the size of the base
    ("1,758", "(2,935)", "-266.95 %"),
    ("93,081", "108,307", "16.36 %"),
])
def test_a_percentage_change_of_two_negative_figures_is_the_change_of_their_size(before, after, expected):
    def cell(printed: str, year: int, col: int) -> Operand:
        value = cell_number(printed)
        assert value is not None
        return Operand("Loss from operations", str(year), f"FY{year}", (year, 0), printed, value, None, None,
                       "amount", 1, table="t", row=0, col=col)

    program = Program("percent_change", (cell(before, 2018, 1), cell(after, 2019, 0)))
    result = OPERATIONS["percent_change"].run(program, read("What was the percentage change from 2018 to 2019?"))
    assert result.text == expected


@pytest.mark.parametrize(("question", "cell"), [
    ("What was the change in valuation allowance for deferred tax assets in 2018?", "December 28, 2018: (49)"),
    ("What was the change in valuation allowance in 2017?", "December 29, 2017: 7"),
    ("What was the return on average equity in 2017?", "December 29, 2017: 18.6"),
])
def test_an_operation_word_in_a_row_name_asks_for_the_row(report, question, cell):
    answer = report.ask(question, "weeks", sources=["cashflows.html"])
    first = next(line for line in answer.answer.splitlines() if line.startswith("- "))
    assert cell in first, answer.answer
    assert answer.calculation is None or answer.calculation.value is None


def test_the_operation_asked_besides_the_row_name_is_computed(report):
    answer = report.ask("What was the change in the change in valuation allowance for deferred tax assets from 2017 "
                        "to 2018?", "weeks", sources=["cashflows.html"])
    # -49 − 7 = -56: the row's movement, asked by the first "change"
    assert answer.calculation is not None and answer.calculation.result.endswith("-56"), answer.answer


def test_a_movement_asked_of_one_year_is_from_the_year_before(report):
    answer = report.ask("What was the increase in net cash provided by operating activities in 2019?", "weeks",
                        sources=["cashflows.html"])
    # 992 − 768 = 224: into fiscal 2019 (the column of January 3, 2020) from fiscal 2018; the reader takes "the
    # increase in X in 2019" as a lookup or a change (the year's figure is given beside the other reading)
    movement = "change in Net cash provided by operating activities, December 28, 2018 to January 3, 2020"
    assert any(movement.lower() in line.lower() and "$224" in line for line in answer.answer.splitlines()), \
        answer.answer
    compared = report.ask("Compare net cash provided by operating activities in 2019", "weeks",
                          sources=["cashflows.html"])
    assert compared.calculation is None or compared.calculation.value is None, compared.answer  # a figure, no movement


def test_parts_adding_up_to_their_whole_are_no_share_asked():
    evidence = table_evidence(("License", "10"), ("Subscription and SaaS", "30"),
                              ("Total license and subscription and SaaS", "40"))
    reading = read("What percentage of total license and subscription and SaaS was subscription and SaaS in 2024?")
    assert "conjoined" in reading.flags  # the total's own "and" joins words: the reader cannot tell
    programs = list(OPERATIONS["share"].bindings(reading, evidence))
    parts = [tuple(o.label for o in p.operands) for p in programs]
    assert ("Subscription and SaaS", "Total license and subscription and SaaS") in parts
    # License + Subscription and SaaS = the total: 100 % is no share anyone asks for
    assert not any(len(p) == 3 for p in parts), parts


def test_losses_adding_up_to_their_total_are_no_share_asked():
    evidence = table_evidence(("Unrealized losses", "(34)"), ("Realized losses", "(13)"),
                              ("Total realized and unrealized losses", "(47)"))
    reading = read("What percentage of total realized and unrealized losses was unrealized losses in 2024?")
    parts = [tuple(o.label for o in p.operands) for p in OPERATIONS["share"].bindings(reading, evidence)]
    assert ("Unrealized losses", "Total realized and unrealized losses") in parts
    assert not any(len(p) == 3 for p in parts), parts  # (34) + (13) = (47): all of it


@pytest.mark.parametrize(("question", "result"), [
    ("What is the percentage change in Other in 2019 from 2018?", "-22.22 %"),  # (44.1 − 56.7) / 56.7
    ("What is the change in Other in 2019 from 2018?", "-12.6"),
])
def test_a_row_named_by_a_common_word_alone_is_named_by_it(report, question, result):
    """"Other" is a stop word, so the row has no index token; written whole in the question it still names the row
    (the rule that "Total" alone names no row leaves it alone)."""
    answer = report.ask(question, "weeks", sources=["sales.html"])
    assert answer.calculation is not None, answer.answer
    assert answer.calculation.result.startswith(result), answer.calculation
    assert [i.label for i in answer.calculation.inputs] == ["Other", "Other"]
