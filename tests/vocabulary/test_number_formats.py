"""Number conventions (prism.vocabulary.number_formats): what one printed figure implies, a table's convention from
its cells (the document's when they say nothing), babel's reading, and figures rewritten with a decimal point."""

from __future__ import annotations

from decimal import Decimal

import pytest

from prism.vocabulary import number_formats
from prism.vocabulary.number_formats import (
    DECIMAL_COMMA,
    DECIMAL_POINT,
    NumberConvention,
    decide,
    evidence,
    grouped,
    house_marks,
    lakh_grouped,
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


@pytest.mark.parametrize(("figure", "lakh"), [
    ("₹1,00,000", True), ("3,84,250.75 crore", True), ("(12,34,567)", True), ("10,00,00,000", True),
    ("50,000", False), ("1,234,567", False), ("₹500", False), ("2024", False),
])
def test_lakh_grouping_is_told_from_a_figure_over_a_lakh(figure, lakh):
    assert lakh_grouped(figure) is lakh


@pytest.mark.parametrize(("value", "thousands", "lakhs"), [
    ("100000", "100,000", "1,00,000"), ("-2500000.50", "-2,500,000.50", "-25,00,000.50"),
    ("141280", "141,280", "1,41,280"), ("999", "999", "999"), ("12.345", "12.345", "12.345"),
])
def test_a_value_is_grouped_in_thousands_or_lakhs_with_its_decimals_kept(value, thousands, lakhs):
    assert (grouped(Decimal(value)), grouped(Decimal(value), lakh=True)) == (thousands, lakhs)


@pytest.mark.parametrize(("cell", "parts"), [
    ("₹4,000 (spends)", ("₹4,000", "(spends)")),
    ("9.2 (per day aggregate)", ("9.2", "(per day aggregate)")),
    ("(1,837) (restated)", ("(1,837)", "(restated)")),
    ("4,000 (in lakh)", ("4,000 (in lakh)", "")),  # two letters first: not a note in words
    ("4,000 (Note 4)", ("4,000 (Note 4)", "")),  # a digit: a reference, not a note
    ("(1,837)", ("(1,837)", "")),
    ("Tier (core)", ("Tier (core)", "")),  # no figure before it
])
def test_a_note_in_words_after_a_figure_is_split_from_it(cell, parts):
    assert number_formats.split_cell_note(cell) == parts


def test_which_figures_take_a_note_and_which_texts_are_notes():
    assert [number_formats.takes_cell_note(f) for f in ("₹500", "9.2", "12%", "500", "1", "12")] == \
        [True, True, True, True, False, False]
    assert [number_formats.is_cell_note(t) for t in ("(spends)", "(per  day)", "(a)", "(1,837)")] == \
        [True, True, False, False]
