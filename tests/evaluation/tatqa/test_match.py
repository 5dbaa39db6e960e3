"""The TAT-QA matcher on real TAT-QA gold shapes (answers, scales and derivations as the dev set writes them):
scale words, percent, negatives, multi-span sets, counts and text spans."""

from __future__ import annotations

from decimal import Decimal

import pytest

from prism.evaluation.tatqa.match import Stated, gold_items, line_matches, normalized_tokens, stated_numbers


def test_stated_numbers_read_sign_scale_and_percent() -> None:
    got = stated_numbers("Other fell (12.6) to -22.22% of $1,496.5 million, from 2018-2019 [1]")
    assert got == [Stated(Decimal("-12.6"), None), Stated(Decimal("-22.22"), "percent"),
                   Stated(Decimal("1496.5"), "million"), Stated(Decimal("2018"), None),
                   Stated(Decimal("2019"), None)]


def test_gold_items_keep_precision_and_scale() -> None:
    # context 1 of the dev set: "What is the amount of total sales in 2019?" → ["$1,496.5"], scale million
    (item,) = gold_items(["$1,496.5"], "million")
    assert (item.value, item.unit, item.decimals) == (Decimal("1496.5"), "million", 1)
    (pct,) = gold_items(-22.22, "percent")
    assert (pct.value, pct.unit, pct.decimals) == (Decimal("-22.22"), "percent", 2)
    (tiny,) = gold_items(1e-05, "")
    assert tiny.value == Decimal("0.00001") and tiny.decimals == 5
    text, year = gold_items(["fixed-price type", "2019"])
    assert text.value is None and year.value == Decimal(2019)


@pytest.mark.parametrize(("line", "answer", "scale", "expected"), [
    # arithmetic, million: "What is the change in Other in 2019 from 2018?" 44.1-56.7 = -12.6
    ("The change in Other is -12.6 million.", -12.6, "million", True),
    ("Other changed by (12.6).", -12.6, "million", True),
    ("Other fell by 12.6.", -12.6, "million", False),  # sign must agree, as in TAT-QA's script
    ("The change is -12,600 thousand.", -12.6, "million", True),  # scale words convert
    ("The change is -12.6%.", -12.6, "million", False),  # a percent never states an amount
    # a span gold that is a number with its scale word: that number in that scale
    ("Selling, general and administrative, 2019: $24.9", ["$24.9 million"], "", True),
    ("Net loss, 30 June 2019 $'000: -$9,819 thousand", ["$(9.8) million"], "", True),
    ("Net loss, 30 June 2019 $'000: $9,819 thousand", ["$(9.8) million"], "", False),  # the sign
    ("Revenue was 24.9 billion", ["$24.9 million"], "", False),  # the scale
    # arithmetic, percent: (44.1-56.7)/56.7 = -22.22
    ("Other changed by -22.22%.", -22.22, "percent", True),
    ("Other changed by -22.2%.", -22.22, "percent", False),  # coarser than the gold's precision
    ("Other changed by -22.2222 percent.", -22.22, "percent", True),  # rounds half-up to the gold's decimals
    ("Other changed by -22.22 million.", -22.22, "percent", False),
    # span that is a number, thousand
    ("Billed receivables, December 31: $213,654 [1]", ["$213,654"], "thousand", True),
    ("Billed receivables were $213.654 million", ["$213,654"], "thousand", True),
    ("Billed receivables were $213,655", ["$213,654"], "thousand", False),
    # integer gold rounds the stated figure
    ("The average is 425,855.0", 425855, "", True),
    ("The average is 425,854.5", 425855, "", True),
    ("The average is 425,854.4", 425855, "", False),
    # count (stored as a string) and number words
    ("There are three contract types.", "3", "", True),
    ("There are 3 contract types.", "3", "", True),
    ("There are two contract types.", "3", "", False),
])
def test_numbers(line: str, answer: object, scale: str, expected: bool) -> None:
    assert line_matches(line, answer, scale) is expected


def test_text_span_matches_on_normalised_tokens() -> None:
    gold = ["finance lease"]
    assert line_matches("The minimum fixed payments have been classified as a Finance-Lease. [1]", gold)
    assert not line_matches("The minimum fixed payments are operating leases.", gold)
    assert normalized_tokens("The Company’s $1,452.4 (an increase)") == ["company", "s", "1452.4", "increase"]


def test_multi_span_is_a_set_in_any_order() -> None:
    gold = ["fixed-price type", "cost-plus type", "time-and-material type"]
    assert line_matches("Types: time-and-material type, fixed-price type and cost-plus type.", gold)
    assert not line_matches("Types: fixed-price type and cost-plus type.", gold)
    assert line_matches("In 2018 and 2019 [2]", ["2019", "2018"])
    assert line_matches("Interest expense: $133, $140 and $138 million", ["$133", "$138", "$140"], "million")


def test_empty_line_or_gold_never_matches() -> None:
    assert not line_matches("", ["2019"])
    assert not line_matches("2019", [])
