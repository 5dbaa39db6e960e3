"""The items a table lists: the rows under a section
heading, the rows a total adds up, every row of the table; counted for "how many". And the gate passes a lookup
whose row and period a table gives, whatever the question's other words ("What was the amount for Land in
2019?"). Through the real pipeline: an HTML report page, real ingest, Chroma and the embedder."""

from __future__ import annotations

import dataclasses

import pytest

from prism.answering.programs.operation import Evidence
from prism.answering.programs.registry import OPERATIONS
from prism.answering.reading.reader import Reader
from prism.types import IngestItem
from tests.conftest import offline_service
from tests.readings import read, table_evidence

DEFERRED = """<html><body>
<table>
<tr><th></th><th>As of December 31, 2019 (Dollars in millions)</th><th>As of December 31, 2018 (Dollars in
millions)</th></tr>
<tr><td>Deferred tax assets</td><td></td><td></td></tr>
<tr><td>Post-retirement and pension benefit costs</td><td>$1,169</td><td>1,111</td></tr>
<tr><td>Net operating loss carryforwards</td><td>3,167</td><td>3,445</td></tr>
<tr><td>Other employee benefits2</td><td>134</td><td>162</td></tr>
<tr><td>Other</td><td>577</td><td>553</td></tr>
<tr><td>Gross deferred tax assets</td><td>5,047</td><td>5,271</td></tr>
<tr><td>Less valuation allowance</td><td>(1,319)</td><td>(1,331)</td></tr>
<tr><td>Net deferred tax assets</td><td>3,728</td><td>3,940</td></tr>
<tr><td>Deferred tax liabilities</td><td></td><td></td></tr>
<tr><td>Property, plant and equipment</td><td>(3,489)</td><td>(3,011)</td></tr>
<tr><td>Goodwill and other intangible assets</td><td>(3,019)</td><td>(3,303)</td></tr>
<tr><td>Gross deferred tax liabilities</td><td>(6,508)</td><td>(6,337)</td></tr>
<tr><td>Land</td><td>1,949</td><td>1,949</td></tr>
</table>
<p>The components of deferred tax assets and liabilities were as follows.</p>
</body></html>"""


RESULTS = """<html><body>
<table>
<tr><th></th><th>30 June 2019 $’000</th><th>30 June 2018 $’000</th><th>Change (%)</th></tr>
<tr><td>Net profit/(loss) after tax</td><td>(9,819)</td><td>4,240</td><td>(331.6)</td></tr>
<tr><td>Order intake</td><td>532.0</td><td>470.0</td><td>13.2</td></tr>
</table>
<table>
<tr><th></th><th>Cash dividend per share (NT dollars) 2019</th><th>Cash dividend per share (NT dollars) 2018</th></tr>
<tr><td>Cash dividends</td><td>0.75</td><td>0.70</td></tr>
<tr><td>Stock dividends</td><td>0.10</td><td>0.12</td></tr>
</table>
<p>Results for the year (in thousand NT dollars unless stated).</p>
</body></html>"""


AWARDS = """<html><body>
<p>A summary of the status of non-vested awards as of December 31, 2019 and changes during the year is as
follows:</p>
<table>
<tr><th>Non-vested awards</th><th>Shares</th><th>Weighted-Average Grant Date Fair Value</th></tr>
<tr><td>Non-vested at December 31, 2018</td><td>1,187,586</td><td>$41.12</td></tr>
<tr><td>Granted</td><td>473,550</td><td>$53.53</td></tr>
<tr><td>Vested</td><td>(365,223)</td><td>$41.83</td></tr>
<tr><td>Forfeited</td><td>(12,632)</td><td>$50.49</td></tr>
<tr><td>Non-vested at December 31, 2019</td><td>1,283,281</td><td>$45.40</td></tr>
</table>
</body></html>"""


FAIR_VALUE = """<html><body>
<table>
<tr><th>December 31, 2019</th><th></th><th></th></tr>
<tr><td></td><td>Quoted Prices in Active Markets (Level 1)</td><td>Total Fair Value</td></tr>
<tr><td>Money market funds</td><td>$2,010</td><td>$2,010</td></tr>
<tr><td>U.S. treasury bonds</td><td>—</td><td>116,835</td></tr>
<tr><td>Corporate debt securities</td><td>—</td><td>181,079</td></tr>
<tr><td></td><td>2,010</td><td>299,924</td></tr>
</table>
<p>The following table presents our financial assets measured at fair value on a recurring basis.</p>
</body></html>"""


@pytest.fixture(scope="module")
def report(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("listing_home")
    items = []
    for name, page in (("deferred.html", DEFERRED), ("results.html", RESULTS), ("awards.html", AWARDS),
                       ("fair_value.html", FAIR_VALUE)):
        (home / name).write_text(page, encoding="utf-8")
        items.append(IngestItem(home / name))
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    assert [r.status for r in svc.ingest(items, "listing")] == ["ingested"] * 4
    return svc


@pytest.mark.parametrize(("question", "listing"), [
    ("What are the components of deferred tax assets?", ("deferred tax assets", False)),
    ("How many components are there under alternative investments?", ("alternative investments", True)),
    ("What financial items does operating free cash flow consist of?", ("operating free cash flow", False)),
    ("What financial items are listed in the table?", ("", False)),
    ("How many types of finite-Lived Intangible Assets are there?", ("finite-Lived Intangible Assets", True)),
    ("What are the components under deferred tax liabilities in the table?", ("deferred tax liabilities", False)),
    ("How many components of deferred tax assets exceeded $50,000 thousand in 2019?", None),  # a threshold
    ("What was the revenue in 2019?", None),
])
def test_a_list_question_names_the_item_whose_rows_it_asks_for(question, listing):
    reading = read(question)
    if listing is None:
        assert reading.intent not in ("list", "count") or reading.comparison is not None, reading.intent
        return
    subject, count = listing
    assert reading.intent == ("count" if count else "list"), reading.intent
    assert not subject or any(subject.lower() in m.text.lower() for m in reading.mentions), reading.mentions


def _first(answer) -> str:
    return next(line for line in answer.answer.splitlines() if line.startswith("- "))


def test_the_rows_under_a_heading_are_listed_up_to_its_total(report):
    answer = report.ask("What are the components of deferred tax assets?", "listing", sources=["deferred.html"])
    assert not answer.declined
    assert answer.answer.splitlines()[0] == ("Deferred tax assets: Post-retirement and pension benefit costs; Net "
                                             "operating loss carryforwards; Other employee benefits; Other")
    assert "Post-retirement and pension benefit costs" in answer.citations[0].text


def test_how_many_counts_the_rows_and_names_them(report):
    answer = report.ask("How many components are there under deferred tax liabilities?", "listing",
                        sources=["deferred.html"])
    assert not answer.declined
    assert answer.answer.splitlines()[0] == ("Number of Deferred tax liabilities: 2 (Property, plant and equipment; "
                                             "Goodwill and other intangible assets)")


@pytest.mark.parametrize(("question", "first"), [
    ("How many components of deferred tax assets exceeded $500 million in 2019?",
     "Number of Deferred tax assets more than $500 million: 3 (Post-retirement and pension benefit costs; Net "
     "operating loss carryforwards; Other)"),
    ("How many deferred tax asset components were above $1,000 million in 2018?",
     "Number of Deferred tax assets more than $1,000 million: 2 (Post-retirement and pension benefit costs; Net "
     "operating loss carryforwards)"),
    ("How many components of deferred tax assets were below $200 million in 2019?",
     "Number of Deferred tax assets less than $200 million: 1 (Other employee benefits)"),
])
def test_how_many_items_meet_a_threshold_counts_those_whose_figure_of_the_period_meets_it(report, question, first):
    """Each component's figure of the year asked is checked against the threshold, and only those meeting it are
    counted and named; the work line shows every figure, those meeting it marked."""
    answer = report.ask(question, "listing", sources=["deferred.html"])
    assert answer.answer.splitlines()[0] == first, answer.answer
    assert any("✓" in line for line in answer.answer.splitlines()[1:]), answer.answer


def test_the_rows_a_total_adds_up(report):
    answer = report.ask("What are the components of gross deferred tax liabilities?", "listing",
                        sources=["deferred.html"])
    assert answer.answer.splitlines()[0] == ("Gross deferred tax liabilities: Property, plant and equipment; Goodwill "
                                             "and other intangible assets"), answer.answer


def test_a_lookup_the_table_gives_is_answered_not_declined(report):
    answer = report.ask("What was the amount for Land in 2019?", "listing", sources=["deferred.html"])
    assert not answer.declined
    assert _first(answer).startswith("- Land, As of December 31, 2019 (Dollars in millions): $1,949 million")


@pytest.mark.parametrize(("question", "line"), [
    ("What was the net profit/(loss) after tax in 2019?",  # the column notes its unit: "$’000"
     "- Net profit/(loss) after tax, 30 June 2019 $’000: -$9,819 thousand [1]"),
    ("What is the change (%) for order intake?", "Change (%): 13.2"),  # a percent column: no unit, no currency
    ("What was the cash dividend per share in 2019?",  # a per-share column: not in the table's scale
     "Cash dividend per share (NT dollars) 2019: $0.75"),
])
def test_a_cell_is_quoted_in_its_columns_unit(report, question, line):
    answer = report.ask(question, "listing", sources=["results.html"])
    first = _first(answer)
    assert line in first, first
    assert "13.2 million" not in first and "0.75 thousand" not in first


@pytest.mark.parametrize(("question", "line"), [
    # a roll-forward: its columns name no period, its rows do; the row named whole ("Granted") before a longer
    # label missing a word ("Non-vested at December 31, 2019"), the column named by the question's words ("Shares")
    ("What is the number of non-vested shares granted in 2019?", "- Granted, Shares: 473,550 [1]"),
    ("What was the weighted-average fair value of shares forfeited in 2019?",
     "- Forfeited, Weighted-Average Grant Date Fair Value: $50.49 [1]"),
])
def test_a_table_whose_rows_carry_the_year_answers_from_the_column_the_question_names(report, question, line):
    answer = report.ask(question, "listing", sources=["awards.html"])
    assert _first(answer) == line


def test_a_year_the_table_does_not_name_is_not_read_from_it(report):
    answer = report.ask("What is the number of non-vested shares granted in 2017?", "listing", sources=["awards.html"])
    assert "473,550" not in _first(answer) if not answer.declined else answer.declined


def test_a_header_naming_levels_heads_its_columns_and_an_unlabelled_sum_is_the_total(report):
    greatest = report.ask("Which component is the greatest in the total fair value?", "listing",
                          sources=["fair_value.html"])
    assert greatest.answer.splitlines()[0] == "Highest, Total Fair Value: Corporate debt securities (181,079)", \
        greatest.answer  # of the 3 rows: the unlabelled sum below them is their total, not a component
    total = report.ask("What is the total fair value?", "listing", sources=["fair_value.html"])
    assert _first(total).startswith("- Total, Total Fair Value: 299,924"), _first(total)


@pytest.mark.parametrize(("question", "items_offered"), [
    ("In which years were cash flow hedges calculated?", False),  # periods are asked, never a group's items
    ("What years are cash flow hedges given for?", False),
    ("What are the derivatives in cash flow hedging relationship?", True),
])
def test_a_question_asking_for_periods_is_offered_no_list_of_items(question, items_offered):
    rows = table_evidence(("Commodity contracts", "45.4"), ("Foreign exchange contracts", "(2.1)"),
                          ("Total", "43.3")).rows
    table = [dataclasses.replace(r, heading="Derivatives in Cash Flow Hedging Relationship:") for r in rows]
    sections = [("Derivatives in Cash Flow Hedging Relationship:", None), *((r.label, r) for r in table)]
    evidence = Evidence(rows=table, tables={"t": sections})
    programs = list(OPERATIONS["list"].bindings(read(question), evidence))
    assert any(p.option("of") == "items" for p in programs) is items_offered, programs


def test_a_table_whose_items_are_periods_lists_them_for_a_question_asking_for_periods():
    rows = table_evidence(("2020", "460"), ("2021", "361"), ("2022", "254"), ("Thereafter", "70"),
                          ("Less: interest", "(45)")).rows
    evidence = Evidence(rows=rows, tables={"t": [(r.label, r) for r in rows]})
    programs = list(OPERATIONS["list"].bindings(read("Which periods are highlighted in the table?"), evidence))
    assert any(p.option("of") == "items" for p in programs), programs


@pytest.mark.parametrize(("question", "intent"), [
    ("What financial items does amounts falling due within one year consist of?", "list"),  # items, as such
    ("Which components does deferred tax assets comprise?", "list"),
    ("What does working capital consist of?", "description"),  # a description of the term
    ("What does services revenue comprise of?", "description"),
])
def test_a_question_naming_items_as_such_asks_for_the_items_not_a_description(question, intent):
    assert read(question).intent == intent


@pytest.mark.parametrize(("question", "figures"), [
    ("Net operating loss carryforwards for 2018 and 2019?", ("3,167", "3,445")),  # no word of an operation
    ("Give me Other employee benefits in 2019 and 2018", ("134", "162")),
    ("Post-retirement and pension benefit costs, 2019 and 2018", ("1,169", "1,111")),
])
def test_a_figure_asked_of_several_periods_with_no_operation_is_given_for_each(report, question, figures):
    answer = report.ask(question, "listing", sources=["deferred.html"])
    head = answer.answer.split("\n\n")[0] + _first(answer)
    assert all(f in head for f in figures), answer.answer
    assert "change" not in head.lower() and not answer.declined, answer.answer


@pytest.mark.parametrize(("question", "operation"), [
    ("Net operating loss carryforwards for 2018 and 2019?", "list"),
    ("Net operating loss carryforwards 2019 vs 2018", "change"),  # an operation's word: computed
    ("Net operating loss carryforwards in 2018 and 2019 combined", "sum"),
    ("What was the average Land in 2018 and 2019?", "average"),
    ("Defined contribution schemes in 2019 and 2018", "list"),  # "contribution" names the row, asks no share
])
def test_only_an_operations_word_outside_a_name_makes_several_periods_a_computation(embedder, question, operation):
    assert Reader(embedder).read(question).operation == operation
