"""A row label the question names in another form: an abbreviation either way, a word cut short, a line item's
other name; and the items an alternative question offers."""

from __future__ import annotations

import pytest

from prism.answering.programs.evidence import Row
from prism.answering.programs.extremes import _names_both
from prism.answering.programs.features import _row_tokens
from prism.answering.programs.naming import equivalent_tokens, label_share
from prism.answering.programs.operation import Operand
from prism.index.tokenizer import tokenize
from tests.readings import read


def _row(label: str) -> Row:
    return Row(("t", 0), label, frozenset(tokenize(label)), ())


@pytest.mark.parametrize("question, label", [
    ("What were the gross non-performing assets in Q2 FY25?", "Gross NPA %"),  # the label's abbreviation spelled
    ("Gross adv. Q2 FY25?", "Gross advances"),  # a word cut short with a full stop
    ("What were govt. securities in FY24?", "Government securities"),
])
def test_a_label_named_in_another_form_is_named_whole(question, label):
    assert label_share(_row(label), read(question)) == 1.0


def test_a_word_that_merely_begins_a_label_word_is_not_a_cut_word():
    reading = read("What was the gross adv in Q2 FY25?")  # no full stop: not marked as cut short
    assert equivalent_tokens("Gross advances", reading) == frozenset()
    assert label_share(_row("Gross advances"), reading) == 0.5


def test_a_line_item_named_by_another_of_its_names_reaches_the_row():
    reading = read("What were Meridian Bank's Q2 FY25 net earnings?")
    assert "net_income" in reading.items
    assert {"net", "earn"} <= _row_tokens(_row("Net profit (PAT)"), reading)
    assert _row_tokens(_row("Net interest income (NII)"), reading) == frozenset(tokenize("Net interest income NII"))


def _figure(label: str, row: int) -> Operand:
    return Operand(label, "FY24", "FY2024", (2024, 0), "1", 1, None, None, "amount", 1, table="t", row=row, col=0)


@pytest.mark.parametrize("question", [
    "Higher revenue in 2024: products or services?",
    "Which was higher in 2024, products revenue or services revenue?",
])
def test_the_alternatives_offered_are_the_items_compared(question):
    reading = read(question)
    products, services, revenue = _figure("Products", 1), _figure("Services", 2), _figure("Revenue", 0)
    assert _names_both(products, services, reading)
    assert not _names_both(revenue, services, reading) and not _names_both(revenue, products, reading)


def test_two_rows_of_a_category_named_as_a_whole_are_no_pair():
    """"Which loan segment grew fastest?" names loans, the word both rows share: the column's extreme answers."""
    home, vehicle = _figure("Home loans", 1), _figure("Vehicle loans", 2)
    assert not _names_both(home, vehicle, read("Which loan segment grew fastest?"))
    assert _names_both(home, vehicle, read("Which grew faster, home loans or vehicle loans?"))
