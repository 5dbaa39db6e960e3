"""Derived figures, pure parts: the arithmetic, reading the metric and its definition, the number check.

Every expected value is computed by hand in the comments next to it.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from prism.answering.metrics.answer import derive, metric_answer
from prism.answering.metrics.calc import (
    Mean,
    Op,
    Plan,
    Ref,
    aggregate,
    common_unit,
    needed,
    present,
    render,
    shift_period,
)
from prism.answering.metrics.inputs import FoundInput, cell_number, normalise_label
from prism.answering.numbercheck import accept_derived
from prism.answering.programs.operation import Operand, Program
from prism.answering.programs.registry import OPERATIONS
from prism.answering.reading.formulas import parse_expression
from prism.index.statements import ITEMS
from prism.types import RetrievedChunk
from tests.readings import metric_plan, read

NAMES = {k: v.name for k, v in ITEMS.items()}
D = Decimal


# --- arithmetic ---------------------------------------------------------------------------------------------------
def test_average_of_yearly_ratios_and_cagr():
    values = {("capex", "FY2021"): D(34500), ("revenue", "FY2021"): D(690005),
              ("capex", "FY2022"): D(44707), ("revenue", "FY2022"): D(745120)}
    plan = Plan("capex share", Op("/", Ref("capex"), Ref("revenue")), ("FY2021", "FY2022"), "average", "percent", 1)
    raw, per = aggregate(plan, values)
    # 34,500 / 690,005 = 0.0499996…; 44,707 / 745,120 = 0.0600004…; mean 0.055000…
    assert [round(float(v), 6) for v in per] == [0.05, 0.06]
    assert present(raw, "percent", 1) == D("5.5")
    cagr = Plan("growth", Ref("revenue"), ("FY2021", "FY2022"), "cagr", "percent", 2)
    raw, _ = aggregate(cagr, values)
    assert present(raw, "percent", 2) == D("7.99")  # 745,120 / 690,005 - 1 = 0.079876…


def test_rounding_is_half_up_and_amounts_change_scale():
    assert present(D("0.06625"), "percent", 2) == D("6.63")  # 6.625 → 6.63, not banker's 6.62
    assert present(D("1832000"), "amount", 0, unit="millions", from_unit="thousands") == D("1832")
    assert present(D("0.0025"), "bps", 0) == D("25")
    assert common_unit(["millions", None, "thousands"]) == "thousands"
    assert common_unit([None]) is None


def test_division_by_zero_and_shifting_a_quarter_are_errors():
    plan = Plan("m", Op("/", Ref("cogs"), Ref("revenue")), ("FY2020",))
    with pytest.raises(ZeroDivisionError):
        aggregate(plan, {("cogs", "FY2020"): D(1), ("revenue", "FY2020"): D(0)})
    assert shift_period("FY2020", -1) == "FY2019"
    with pytest.raises(ValueError, match="only fiscal years"):
        shift_period("Q2 FY2022", -1)


# --- reading the question ------------------------------------------------------------------------------------------
def test_definition_in_words_with_periods_and_an_average():
    expr = parse_expression("(FY2019 COGS) / (average inventory between FY2018 and FY2019)")
    assert expr == Op("/", Ref("cogs", period="FY2019"),
                      Mean((Ref("inventory", period="FY2018"), Ref("inventory", period="FY2019"))))
    assert parse_expression("cash from operations divided by total current liabilities") == Op(
        "/", Ref("cfo"), Ref("current_liabilities"))
    assert parse_expression("operating income + widgets") is None  # "widgets" names no line item


@pytest.mark.parametrize(("question", "metric", "formula", "periods", "how", "kind", "decimals"), [
    ("What is the FY2015 operating cash flow ratio for Adobe? Operating cash flow ratio is defined as: cash from "
     "operations / total current liabilities. Round your answer to two decimal places.", "operating cash flow ratio",
     "cash from operations / total current liabilities", ("FY2015",), "single", "ratio", 2),
    ("What is the FY2018 - FY2020 3 year average unadjusted EBITDA % margin for Walmart? Define unadjusted EBITDA as "
     "unadjusted operating income + depreciation and amortization from the cash flow statement. Answer in units of "
     "percents and round to one decimal place.", "3-year average unadjusted ebitda margin",
     "(operating income + depreciation and amortization) / revenue", ("FY2018", "FY2019", "FY2020"), "average",
     "percent", 1),
    ("What is Nike's three year average of cost of goods sold as a % of revenue from FY2016 to FY2018?",
     "3-year average cost of goods sold as a % of revenue", "cost of goods sold / revenue",
     ("FY2016", "FY2017", "FY2018"), "average", "percent", 1),
    ("What is the change in operating margin in basis points in FY2015?", "change in operating margin",
     "operating income / revenue - operating income (year before) / revenue (year before)", ("FY2015",), "single",
     "bps", 0),
])
def test_plan_of_reads_metric_formula_periods_and_rounding(question, metric, formula, periods, how, kind, decimals):
    plan = metric_plan(question)
    assert plan is not None
    assert (plan.metric, render(plan.expr, NAMES), plan.periods, plan.how, plan.kind, plan.decimals) == (
        metric, formula, periods, how, kind, decimals)


def test_growth_of_one_row_is_a_program_over_the_year_before():
    """"YoY growth in revenue for FY2015" is (revenue − revenue (year before)) / revenue (year before): the
    percentage change program over FY2014 and FY2015 (:mod:`prism.answering.programs.operations.percent_change`),
    not a statement metric."""
    reading = read("What was the YoY growth in revenue for FY2015?")
    assert (reading.operation, [p.text for p in reading.periods]) == ("percent_change", ["FY2014", "FY2015"])
    assert OPERATIONS["percent_change"].formula == "(to − from) / |from| × 100"
    assert metric_plan("What was the YoY growth in revenue for FY2015?") is None


def test_questions_without_a_derived_figure_give_no_plan():
    assert metric_plan("What is Netflix's revenue in FY2015?") is None
    assert metric_plan("What drove operating margin change as of FY2022 for 3M?") is None  # asks for reasons
    assert metric_plan("What is the P2P limit for UPI?") is None


def test_cells_and_labels():
    assert cell_number("(1,837)") == D(-1837) and cell_number("5.2") == D("5.2") and cell_number("—") is None
    assert normalise_label("Operating income (loss)") == "operating income loss"
    assert normalise_label("Inventories (Note 4)") == "inventories"


# --- the work and the number check ---------------------------------------------------------------------------------
def _chunk(n: int) -> RetrievedChunk:
    return RetrievedChunk(f"c{n}", "d", "acme.pdf", "…", n, n, n)


def _margin():
    plan = Plan("operating margin", Op("/", Ref("operating_income"), Ref("revenue")), ("FY2023",), kind="percent",
                decimals=1)
    found = [FoundInput("operating_income", "FY2023", "Operating income", "96,310", D(96310), "thousands", "USD", None,
                        _chunk(1)),
             FoundInput("revenue", "FY2023", "Revenues", "0.8124", D("0.8124"), "billions", "USD", None, _chunk(2))]
    return plan, found


def test_inputs_in_two_units_are_brought_to_one_and_the_work_is_shown():
    plan, found = _margin()
    derived = derive(plan, found, [], [_chunk(1), _chunk(2)])
    # 0.8124 billion = 812,400 thousand; 96,310 / 812,400 = 0.11855 → 11.9 %
    assert derived.calculation.result == "11.9 %" and derived.calculation.value == 11.9
    assert derived.lines[-1] == ("operating margin FY2023 = operating income / revenue = 96,310 / 812,400 "
                                 "(USD thousands) = 11.9 % [1]", 2)
    assert [(i.line_item, i.citation) for i in derived.calculation.inputs] == [("operating income", 1),
                                                                                ("revenue", 2)]


def test_number_check_accepts_the_recomputed_result_and_rejects_a_wrong_one():
    plan, found = _margin()
    derived = derive(plan, found, [], [_chunk(1), _chunk(2)])
    # 96,310 / 812,400 = 0.1185499…: "11.9 %" and "11.85 %" state it; "11.86 %" is off in its last decimal
    assert accept_derived(derived, ["11.9 %", "11.85 %", "11.86 %", "12.5 %", "$4 million"]) == [
        "11.86 %", "12.5 %", "$4 million"]
    missing = derive(plan, found[:1], [("revenue", "FY2023")], [_chunk(1)])
    assert missing.calculation.result is None and missing.calculation.missing == ("FY2023 revenue",)
    assert missing.heading.text.startswith("operating margin: cannot be computed: no FY2023 revenue found")
    assert accept_derived(missing, ["11.9 %"]) == ["11.9 %"]  # nothing computed: nothing accepted


def test_needed_lists_every_input_once_oldest_period_first():
    plan = Plan("turnover", Op("/", Ref("cogs"), Mean((Ref("inventory", -1), Ref("inventory")))), ("FY2019",))
    assert needed(plan) == [("cogs", "FY2019"), ("inventory", "FY2018"), ("inventory", "FY2019")]


def _found(item: str, period: str, cell: str, n: int = 1) -> FoundInput:
    return FoundInput(item, period, item, cell, cell_number(cell), "thousands", "USD", None, _chunk(n))


def test_change_in_basis_points_is_shown_and_checked_within_its_rounding():
    plan = metric_plan("What was Netflix's operating margin change in basis points in FY2015?")
    found = [_found("operating_income", "FY2015", "305,826"), _found("revenue", "FY2015", "6,779,511"),
             _found("operating_income", "FY2014", "402,648"), _found("revenue", "FY2014", "5,504,656")]
    derived = derive(plan, found, [], [_chunk(1)])
    # 305,826 / 6,779,511 - 402,648 / 5,504,656 = 0.0451103 - 0.0731470 = -0.0280367 → -280.37 bps → -280 bps
    assert derived.calculation.result == "-280 bps"
    assert accept_derived(derived, ["-280 bps", "-290 bps", "2.8 %"]) == ["-290 bps"]


def _revenue(year: int, cell: str) -> Operand:
    return Operand("Revenues", str(year), f"FY{year}", (year, 0), cell, cell_number(cell), "thousands", "USD",
                   "amount", 1, table="t", row=0, col=2018 - year)


def test_cagr_shows_first_and_last_value():
    # a row's CAGR is a program (prism.answering.programs.operations.cagr), over the row's first and last figure
    reading = read("What is Nike's revenue CAGR from FY2016 to FY2018?")
    assert reading.operation == "cagr" and metric_plan("What is Nike's revenue CAGR from FY2016 to FY2018?") is None
    program = Program("cagr", (_revenue(2016, "32,376"), _revenue(2018, "36,397")))
    result = OPERATIONS["cagr"].run(program, reading)
    # (36,397 / 32,376) ** (1 / 2) - 1 = 1.1241969 ** 0.5 - 1 = 0.060282 → 6.03 % (the program's two decimals)
    assert (result.text, result.work) == ("6.03 %", "(36,397 / 32,376) ^ (1 / 2) − 1 = 6.03 %")


def test_no_input_in_any_table_leaves_the_question_to_the_passages():
    prose = RetrievedChunk("p1", "d", "circular.pdf", "Net profit grew 12 % in FY2024 to ₹812 crore.", 0, 1, 1,
                           metadata={"period": "FY2024"})
    assert metric_answer(read("What was the growth in net income in FY2024?"), [prose], lambda _doc: [], None) is None
