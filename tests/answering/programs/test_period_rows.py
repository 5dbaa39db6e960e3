"""Periods and figures: a row labelled with a period only (a table of periods down, measures across), and a fiscal
year asked of a row whose columns are its quarters. The full pipeline over the sample workspace is in
tests/answering/test_sample_tables.py."""

from __future__ import annotations

from decimal import Decimal

import pytest

from prism.answering.programs.evidence import Row, period_only
from prism.answering.programs.operation import Operand
from prism.answering.programs.periods import asked
from prism.index.tokenizer import tokenize
from tests.readings import read


@pytest.mark.parametrize(("label", "only"), [
    ("FY2025", True),
    ("Q4 FY25 (Jan–Mar 2025)", True),  # the parenthesis restates the quarter's months
    ("2019", True),
    ("December 31, 2019", True),
    ("Net income 2019", False),
    ("Non-vested at December 31, 2019", False),
    ("Year ended March 31, 2025", True),  # words framing the period: still the period alone
    ("Quarter ended June 30, 2024", True),
    ("As at 31 March 2024", True),
    ("Balance at December 31, 2019", False),  # a measure at a date
    ("FY2024 restated", False),
    ("Volume (crore transactions)", False),
])
def test_a_label_that_names_a_period_only(label, only):
    assert period_only(label) is only


def _quarter(label: str, part: int, value: str) -> Operand:
    return Operand("UPI transactions (crore)", label, f"Q{part} FY2025", (2025, part), value, Decimal(value), None,
                   None, "number", 1, table="t9", row=0, col=part - 1)


def test_a_fiscal_year_asked_is_not_answered_by_its_quarters_but_a_bare_year_is():
    """"FY2025" asks the year's figure, which no quarter's column states; "2018" over a table of quarters by year
    (a stock's high and low price per quarter) reads that year's quarters."""
    figures = (_quarter("Q1 FY25", 1, "181"), _quarter("Q2 FY25", 2, "189"))
    row = Row(("t9", 0), "UPI transactions (crore)", frozenset(tokenize("UPI transactions (crore)")), figures)
    assert asked(read("How many UPI transactions in FY2025?"), row) == []
    assert asked(read("How many UPI transactions in 2025?"), row) == list(figures)
