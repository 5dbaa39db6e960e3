"""The one scan of a printed table row's trailing cells, shared by ingestion's rows and the answer's row quotes."""

import pytest

from prism.index.row_cells import CellSpan, is_figure, trailing_cells


def _cells(row: str) -> tuple[str, list[str]]:
    tokens = row.split()
    label_end, cells = trailing_cells(tokens)
    return " ".join(tokens[:label_end]), [" ".join(tokens[c.first:c.stop]) for c in cells]


def test_a_row_ends_in_its_figures_and_a_note_stays_with_its_figure():
    tokens = "Small-value wallet ₹500 ₹4,000 (spends) 9.2".split()
    assert trailing_cells(tokens) == (2, [CellSpan(2, 2, 3), CellSpan(3, 3, 5), CellSpan(5, 5, 6)])


@pytest.mark.parametrize(("row", "label", "cells"), [
    ("UPI Lite (on-device wallet) ₹500 ₹4,000 (spends) 9.2", "UPI Lite (on-device wallet)",
     ["₹500", "₹4,000 (spends)", "9.2"]),
    ("Net income attributable $ 466,772 $ (5,637)", "Net income attributable", ["$ 466,772", "$ (5,637)"]),
    ("Tier 1 (core)", "Tier 1 (core)", []),  # a label's small number keeps its note: no cells
    ("Deposits 4,000 (in lakh)", "Deposits 4,000 (in lakh)", []),  # "(in lakh)" is no note in words
    ("Other income — 1,234.5 12.5%", "Other income", ["—", "1,234.5", "12.5%"]),
    ("Capital 1.234,5 (612,8) n/a", "Capital", ["1.234,5", "(612,8)", "n/a"]),
    ("See pages 71-72", "See pages", ["71-72"]),
    # a fee or limit a schedule states in a word is a cell; a sentence's lower-case "free" is not
    ("Free ATM transactions a month – Meridian ATMs 5 5 Unlimited", "Free ATM transactions a month – Meridian ATMs",
     ["5", "5", "Unlimited"]),
    ("Standard settlement (T+1) Free", "Standard settlement (T+1)", ["Free"]),
    ("All P2P payments are free", "All P2P payments are free", []),
    ("No figures here", "No figures here", []),
])
def test_the_cells_a_printed_row_ends_with(row, label, cells):
    assert _cells(row) == (label, cells)


def test_a_dash_is_a_value_but_states_no_figure():
    assert [is_figure(t) for t in ("—", "n/a", "Unlimited", "(1,837)", "₹4,000", "12.5%")] == [
        False, False, False, True, True, True]
