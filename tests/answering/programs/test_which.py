"""Which period (comparison, min / max): one table row compared across its columns in code, the
periods in the first line, the cells cited. Also the cell reader's currency-printed cells and generic row labels
named as written. Through the real pipeline: an HTML report page, real ingest, Chroma and the embedder."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest

from prism.answering.programs.numbers import cell_number
from prism.answering.programs.operation import Evidence
from prism.answering.programs.registry import OPERATIONS
from prism.types import IngestItem
from tests.conftest import offline_service
from tests.readings import read, table_evidence

PAGE = """<html><body>
<p>Operating expenses and segment figures (in thousands).</p>
<table>
<tr><th></th><th>Years ended December 31, 2019</th><th>Years ended December 31, 2018</th>
<th>Years ended December 31, 2017</th></tr>
<tr><td>Products and licensing costs</td><td>$16,684</td><td>$8,078</td><td>$9,512</td></tr>
<tr><td>Amortization of acquired intangibles</td><td>$2,410</td><td>$1,950</td><td>$1,720</td></tr>
<tr><td>Total other income (expense), net</td><td>$ (3,781)</td><td>$ (2,727)</td><td>$ (1,004)</td></tr>
<tr><td>Total Other</td><td>89</td><td>95</td><td>82</td></tr>
<tr><td>Risk-free interest rate</td><td>2.4%</td><td>2.1%</td><td>1.9%</td></tr>
</table>
<table>
<tr><th></th><th>2019 Amount</th><th>2019 % of total revenue</th><th>2018 Amount</th>
<th>2018 % of total revenue</th></tr>
<tr><td>Maintenance</td><td>16,499</td><td>2%</td><td>14,783</td><td>2%</td></tr>
<tr><td>Services</td><td>243,053</td><td>34%</td><td>246,548</td><td>38%</td></tr>
</table>
<p>Working capital consists of current assets less current liabilities.</p>
</body></html>"""


@pytest.fixture(scope="module")
def report(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("which_home")
    path = home / "costs.html"
    path.write_text(PAGE, encoding="utf-8")
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    results = svc.ingest([IngestItem(path)], "which")
    assert [r.status for r in results] == ["ingested"]
    return svc


@pytest.mark.parametrize(("cell", "value"), [
    ("$16,684", Decimal(16684)), ("$ (3,781)", Decimal(-3781)), ("$(5,637)", Decimal(-5637)),
    ("(1,837)", Decimal(-1837)),
    ("−5.2", Decimal("-5.2")), ("2.4%", Decimal("2.4")), ("€ 4,411", Decimal(4411)), ("1,23,456", Decimal(123456)),
    ("—", None), ("-", None), ("2019 2018", None), ("n/m", None), ("(12", None), ("", None),
    ("₹4,000 (spends)", Decimal(4000)), ("3.4% (annualised)", Decimal("3.4")), ("4,000 (in lakh)", None),
    ("5 (a)", None), ("12 (core 1)", None),
])
def test_a_cell_is_read_as_a_number_with_its_sign_and_without_its_currency(cell, value):
    assert cell_number(cell) == value


@pytest.mark.parametrize(("question", "kind", "above", "threshold"), [
    ("In which year was Products and licensing costs less than 10,000?", "threshold", False, Decimal(10000)),
    ("Which years did the amount for Other exceed $5 million?", "threshold", True, Decimal(5)),
    ("In which year was Total other income (expense), net less than -3,000 thousands?", "threshold", False,
     Decimal(-3000)),
    ("In which year was Risk-free interest rate greater than 2.0%?", "threshold", True, Decimal("2.0")),
    ("In which year was the amount of Investments higher?", "extreme", True, None),
    ("In which year was the LTV ratio the lowest?", "extreme", False, None),
    ("Which years does the table provide information for net sales?", "coverage", True, None),
])
def test_the_comparison_is_read_from_the_wording(question, kind, above, threshold):
    reading = read(question)
    if kind == "threshold":
        c = reading.comparison
        assert c is not None and (c.relation in ("above", "at_least")) is above, c
        assert c.value == threshold, c
    elif kind == "extreme":
        assert reading.comparison is None and reading.polarity == ("max" if above else "min"), reading.polarity
    else:  # the years a table covers
        assert reading.expected_unit == "period" and reading.comparison is None and reading.polarity is None


@pytest.mark.parametrize("question", ["What was revenue in 2019?", "Which segment had the highest revenue?",
                                      "What was the change in revenue from 2018 to 2019?"])
def test_questions_that_compare_no_periods_are_not_read(question):
    assert read(question).expected_unit != "period"


@pytest.mark.parametrize(("question", "heading_end", "checked"), [
    ("In which year was Products and licensing costs less than 10,000 thousand?",
     "Periods with Products and licensing costs less than 10,000 thousand: 2018 and 2017", "2018: $8,078 ✓"),
    ("In which year was Amortization of acquired intangibles lower than 2,000 thousands?",
     "lower than 2,000 thousands: 2018 and 2017".replace("lower", "less"), "2017: $1,720 ✓"),
    ("In which year was Total other income (expense), net less than -3,000 thousands?",
     "Periods with Total other income (expense), net less than -3,000 thousands: 2019", "2019: $ (3,781) ✓"),
    ("In which year was Risk-free interest rate greater than 2.0%?",
     "Periods with Risk-free interest rate more than 2.0%: 2019 and 2018", "2018: 2.1% ✓"),
    ("In which year was the amount of Products and licensing costs the largest?",
     "Highest Products and licensing costs: 2019 ($16,684)", "2019: $16,684 ✓"),
    ("In which year was Risk-free interest rate the lowest?", "Lowest Risk-free interest rate: 2017 (1.9 %)",
     "2017: 1.9% ✓"),
    ("Between 2018 and 2019, which year had higher Amortization of acquired intangibles?",
     "Highest Amortization of acquired intangibles: 2019 ($2,410)", "2019: $2,410 ✓"),
])
def test_the_first_line_names_the_periods_compared_in_code(report, question, heading_end, checked):
    answer = report.ask(question, "which")
    heading, *rest = answer.answer.splitlines()
    assert heading.endswith(heading_end), heading
    assert any(checked in line for line in rest), rest
    periods = heading_end.rsplit(": ", 1)[1].split(" (")[0]  # the periods named, without the figure beside them
    assert answer.calculation is not None and answer.calculation.result == periods
    assert answer.unsupported_numbers == [] and not answer.declined and answer.citations


def test_every_period_the_table_gives_is_listed(report):
    answer = report.ask("Which years does the table provide information for Total Other?", "which")
    assert answer.answer.splitlines()[0].endswith("Periods the table gives Total Other for: 2019, 2018 and 2017"), \
        answer.answer


def test_a_generic_label_named_as_written_is_its_row(report):
    answer = report.ask("What was the percentage change in Total Other in 2018 from 2017?", "which")
    assert answer.answer.splitlines()[0].endswith("Percentage change in Total Other, Years ended December 31, 2017 "
                                                  "to Years ended December 31, 2018: 15.85 %"), answer.answer


def test_a_currency_printed_cell_is_computed_with_its_sign(report):
    answer = report.ask("What was the change in Total other income (expense), net from 2018 to 2019?", "which")
    heading, *rest = answer.answer.splitlines()
    assert heading.endswith(": -$1,054"), heading
    assert any("Total other income (expense), net, Years ended December 31, 2018: -$2,727" in li
               for li in rest), rest


def test_an_amount_threshold_is_not_compared_with_a_rows_percentages(report):
    answer = report.ask("In which year was Maintenance less than 15,000?", "which")
    heading = answer.answer.splitlines()[0]
    assert heading.endswith("Periods with Maintenance less than 15,000: 2018"), heading  # not its 2 % of revenue
    assert answer.unsupported_numbers == [] and not answer.declined


def test_a_yes_no_amount_threshold_is_tested_on_the_amount_not_its_percentage(report):
    answer = report.ask("Was Maintenance less than 15,000 in 2019?", "which")
    heading = answer.answer.splitlines()[0]
    assert heading.startswith("No") and "16,499" in heading and "2%" not in heading, heading
    [row] = table_evidence(("Maintenance", "16,499")).rows
    share = dataclasses.replace(row.figures[0], printed="2%", value=Decimal(2), kind="percent", col=1)
    evidence = Evidence(rows=[dataclasses.replace(row, figures=(row.figures[0], share))])
    tested = [p.operands[0].printed for p in OPERATIONS["yes_no"].bindings(read("Was Maintenance less than 15,000 in "
                                                                                "FY24?"), evidence)]
    assert tested == ["16,499"]  # the row's "% of total revenue" figure is never tested against an amount


def test_a_description_question_is_answered_by_its_sentence_not_a_cell(report):
    answer = report.ask("What does working capital consist of?", "which")
    first = next(li for li in answer.answer.splitlines() if li.startswith("- "))
    assert "current assets less current liabilities" in first, answer.answer
    assert answer.calculation is None


def test_how_many_periods_are_counted_in_code(report):
    answer = report.ask("How many years did Amortization of acquired intangibles exceed $1,800 thousand?", "which")
    heading = answer.answer.splitlines()[0]
    assert heading.endswith("Number of periods with Amortization of acquired intangibles more than $1,800 thousand: "
                            "2 (2019 and 2018)"), heading
    assert answer.calculation is not None and answer.calculation.value == 2.0
    assert answer.unsupported_numbers == [] and not answer.declined


@pytest.mark.parametrize(("printed", "written"), [
    ("20 per cent", "20 per cent"), ("12.5 percent", "12.5 percent"), ("3.40%", "3.40%"), ("15", "15%"),
])
def test_a_percentage_is_quoted_with_one_percent_sign_at_most(printed, written):
    """A rule's "20 per cent" says its unit in words: no "%" is added after it ("20 per cent%")."""
    from prism.answering.programs.operation import Operand
    from prism.answering.programs.writing import quote

    sentence = f"The exposure limit is {printed} of Tier 1 capital."
    figure = Operand(sentence, "", None, (0, 0), printed, cell_number(printed.split()[0].rstrip("%")), None,
                     None, "percent", 1, "sentence")
    assert quote(figure) == f"{written}: {sentence}"
