"""Number conventions (prism.vocabulary.number_formats): what one printed figure implies, a table's convention from
its cells (the document's when they say nothing), babel's reading, and figures rewritten with a decimal point."""

from __future__ import annotations

from decimal import Decimal

import pytest

from prism.vocabulary.number_formats import (
    DECIMAL_COMMA,
    DECIMAL_POINT,
    NumberConvention,
    decide,
    evidence,
    house_marks,
    read_number,
)


@pytest.mark.parametrize(("figure", "implied"), [
    ("1.234,5", DECIMAL_COMMA), ("(612,8)", DECIMAL_COMMA), ("2,97", DECIMAL_COMMA), ("24,6%", DECIMAL_COMMA),
    ("1.234.567", DECIMAL_COMMA), ("€ 84,3", DECIMAL_COMMA),
    ("1,234.5", DECIMAL_POINT), ("2.41", DECIMAL_POINT), ("1,23,456", DECIMAL_POINT), ("1,234,567", DECIMAL_POINT),
    ("$(5,637.25)", DECIMAL_POINT),
    ("1,234", None), ("1.246", None), ("2024", None), ("—", None), ("n/a", None),
])
def test_what_one_figure_implies(figure, implied):
    assert evidence(figure) == implied


def test_a_table_is_read_with_what_its_cells_agree_on():
    assert decide(["1.234,5", "1.102,3", "(612,8)", "1.246"]) == NumberConvention(DECIMAL_COMMA, False)
    assert decide(["4,812.36", "3,905.14", "1,246"]) == NumberConvention(DECIMAL_POINT, False)
    assert decide(["1,5", "2.41", "3.75"]) == NumberConvention(DECIMAL_POINT, True)  # they disagree: the majority
    assert decide(["1,5", "2,5", "2.41"]) == NumberConvention(DECIMAL_COMMA, True)


def test_a_table_its_cells_do_not_settle_takes_the_documents_or_says_it_is_ambiguous():
    assert decide(["1.246", "1.088"], fallback=NumberConvention(DECIMAL_COMMA)) == NumberConvention(DECIMAL_COMMA)
    assert decide(["1.246", "1.088"]) == NumberConvention(DECIMAL_POINT, True)
    assert decide(["1,246", "1,088"]) == NumberConvention(DECIMAL_POINT, False)  # the usual thousands group
    assert decide(["2024", "—"]) == NumberConvention(DECIMAL_POINT, False)


@pytest.mark.parametrize(("figure", "decimal", "value"), [
    ("1.234,5", DECIMAL_COMMA, Decimal("1234.5")), ("612,8", DECIMAL_COMMA, Decimal("612.8")),
    ("1.246", DECIMAL_COMMA, Decimal("1246")), ("1.246", DECIMAL_POINT, Decimal("1.246")),
    ("1,23,456.50", DECIMAL_POINT, Decimal("123456.50")), ("1,234,567", DECIMAL_POINT, Decimal("1234567")),
    ("1,234.5", DECIMAL_COMMA, None), ("1.234,5", DECIMAL_POINT, None),
])
def test_read_number_parses_with_the_convention(figure, decimal, value):
    assert read_number(figure, decimal) == value


def test_house_marks_rewrites_figures_and_leaves_years_and_words():
    assert house_marks("Revenue 1.234,5 1.102,3 Cost of sales (612,8) 2024 Take rate 1,46%", DECIMAL_COMMA) == \
        "Revenue 1,234.5 1,102.3 Cost of sales (612.8) 2024 Take rate 1.46%"
    assert house_marks("Revenue 1.234,5", DECIMAL_POINT) == "Revenue 1.234,5"
