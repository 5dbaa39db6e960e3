"""Two rows of one column added, subtracted or divided, however the question is worded, where a filing prints the
column's currency sign on its first row and its total only ("$30,191" over "12,899"): the column is one kind of
figure, and one figure is no evidence of a row or of a series of periods, so a lookup of one of the rows does not
outrank the program over both. Features on hand-made operands; answers through the real pipeline (an HTML page,
real ingest, Chroma and the embedder)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from prism.answering.programs.evidence import Evidence, Row
from prism.answering.programs.features import FEATURES
from prism.answering.programs.operation import Operand
from prism.answering.programs.ranker import candidates
from prism.index.tokenizer import tokenize
from tests.conftest import pages_service
from tests.readings import read

_MIXED = FEATURES.index("mixed_kinds")
_SAME_ROW = FEATURES.index("same_row")
_DISTINCT = FEATURES.index("distinct_periods")

PAGE = """<html><body>
<p>Product revenue and service revenue by fiscal year (in millions).</p>
<table>
<tr><th></th><th>July 27, 2019</th><th>July 28, 2018</th></tr>
<tr><td>Infrastructure Platforms</td><td>$30,191</td><td>$28,322</td></tr>
<tr><td>Applications</td><td>5,803</td><td>5,036</td></tr>
<tr><td>Security</td><td>2,730</td><td>2,352</td></tr>
<tr><td>Services</td><td>12,899</td><td>12,621</td></tr>
<tr><td>Total</td><td>$51,904</td><td>$49,330</td></tr>
</table>
</body></html>"""


def _cell(label: str, row: int, col: int, printed: str, kind: str, year: int = 2019) -> Operand:
    return Operand(label, str(year), f"FY{year}", (year, 0), printed, Decimal(printed.strip("$%").replace(",", "")),
                   None, None, kind, 1, table="t", row=row, col=col)  # type: ignore[arg-type]


def _evidence(*figures: Operand) -> Evidence:
    rows: dict[tuple[str, int], list[Operand]] = {}
    for f in figures:
        rows.setdefault(f.series, []).append(f)
    return Evidence(rows=[Row(key, fs[0].label, frozenset(tokenize(fs[0].label)), tuple(fs))
                          for key, fs in rows.items()])


def _first(answer) -> str:
    """The answer's first line, below the extractive label."""
    return next(li for li in answer.answer.splitlines() if li.strip() and not li.startswith("Extractive answer"))


def _program(found, operation, labels):
    return next(c for c in found if c.program.operation == operation
                and [o.label for o in c.program.operands] == labels)


def test_a_bare_figure_under_a_currency_sign_in_its_column_is_not_a_mixed_kind():
    reading = read("What were Infrastructure Platforms and Services combined in 2019?")
    found = candidates(reading, _evidence(_cell("Infrastructure Platforms", 0, 0, "$30,191", "amount"),
                                          _cell("Services", 1, 0, "12,899", "number"),
                                          _cell("Services margin", 2, 0, "18.5%", "percent")))
    assert _program(found, "sum", ["Infrastructure Platforms", "Services"]).features[_MIXED] == 0.0
    assert _program(found, "sum", ["Infrastructure Platforms", "Services margin"]).features[_MIXED] == 1.0


def test_one_figure_is_neither_one_rows_figures_nor_a_series_of_periods():
    reading = read("What was the total of Services in 2018 and 2019?")
    found = candidates(reading, _evidence(_cell("Services", 0, 0, "12,899", "amount"),
                                          _cell("Services", 0, 1, "12,621", "amount", 2018)))
    lookup = _program(found, "lookup", ["Services"])
    series = _program(found, "sum", ["Services", "Services"])
    assert lookup.features[_SAME_ROW] == 0.0 and lookup.features[_DISTINCT] == 0.0
    assert series.features[_SAME_ROW] == 1.0 and series.features[_DISTINCT] == 1.0


@pytest.fixture(scope="module")
def filing(tmp_path_factory, embedder):
    return pages_service(tmp_path_factory.mktemp("one_column_home"), embedder, {"revenue.html": PAGE}, "column")


@pytest.mark.parametrize("question", [
    "Add Services and Infrastructure Platforms for 2019",
    "What were Infrastructure Platforms and Services combined in 2019?",
    "Infrastructure Platforms plus Services in 2019",
    "What was the total of Services and Infrastructure Platforms in 2019?",
])
def test_two_rows_added_in_any_wording(filing, question):
    first = _first(filing.ask(question, "column"))
    assert "43,090" in first, first  # 30,191 + 12,899


@pytest.mark.parametrize("question", [
    "How much higher was Infrastructure Platforms than Services in 2019?",
    "Infrastructure Platforms minus Services in 2019",
])
def test_two_rows_subtracted_in_any_wording(filing, question):
    first = _first(filing.ask(question, "column"))
    assert "17,292" in first, first  # 30,191 − 12,899


def test_one_row_asked_is_still_looked_up(filing):
    first = _first(filing.ask("What was Services revenue in 2019?", "column"))
    assert "12,899" in first and "43,090" not in first, first


def test_figures_in_different_units_are_never_added_compared_or_taken_as_parts():
    """A volume in crore transactions and a value in ₹ lakh crore are no parts of each other, nor is ₹10.50 lakh
    crore a share of a sentence's ₹21.7 crore; a ratio may still divide them (value per transaction)."""
    from prism.answering.programs.operation import one_unit

    volume = _cell("Volume (crore transactions)", 0, 0, "787", "number")
    value = _cell("Value (₹ lakh crore)", 1, 0, "10.50", "number")
    restated = _cell("UPI transactions (crore)", 2, 0, "787", "number")
    plain = _cell("Services", 3, 0, "12,899", "amount")
    assert not one_unit((volume, value)) and not one_unit((volume, restated))
    assert one_unit((volume, volume)) and one_unit((plain, volume))  # a label stating no unit takes its table's
    stated = Operand("unauthorised UPI value ₹21.7 crore", "FY2025", "FY2025", (2025, 0), "₹21.7 crore",
                     Decimal("21.7"), "crore", "INR", "amount", 1, source="sentence")
    assert not one_unit((value, stated))
    reading = read("What share of UPI value was UPI volume in 2019?")
    found = candidates(reading, _evidence(volume, value))
    assert not any(c.program.operation in ("share", "sum", "change", "max") for c in found)
    assert any(c.program.operation == "ratio" for c in found)


def test_a_percentage_and_a_figure_whose_column_states_a_scale_are_never_one_unit():
    """One row of a loan table, "Outstanding (Rs crore)" and "YoY growth %": no change, percentage change or sum runs
    from the growth to the balance; a percentage beside a column stating no unit ("%" printed in a row's first column
    only) is still one unit with it."""
    from prism.answering.programs.operation import one_unit

    balance = Operand("Personal loans", "Outstanding (Rs crore)", None, (0, 0), "41,210", Decimal("41210"), "crore",
                      "INR", "amount", 1, table="t", row=1, col=0)
    growth = Operand("Personal loans", "YoY growth %", None, (0, 0), "19.5", Decimal("19.5"), None, None, "percent",
                     1, table="t", row=1, col=1)
    assert not one_unit((growth, balance)) and not one_unit((balance, growth))
    this_year = _cell("Effective tax rate", 4, 0, "21.0%", "percent")
    last_year = Operand("Effective tax rate", "2018", "FY2018", (2018, 0), "19.5", Decimal("19.5"), "millions", None,
                        "amount", 1, table="t", row=4, col=1)
    assert one_unit((last_year, this_year))
    found = candidates(read("How much did personal loans grow?"), _evidence(balance, growth))
    assert not any(len({o.col for o in c.program.operands}) > 1 for c in found), [c.program for c in found]
    ratio = Operand("Gross NPA", "FY2024 (₹ crore)", "FY2024", (2024, 0), "3.9%", Decimal("3.9"), "crore", "INR",
                    "percent", 1, table="t", row=5, col=0)
    level = Operand("Gross NPA", "FY2023 (₹ crore)", "FY2023", (2023, 0), "3.8", Decimal("3.8"), "crore", "INR",
                    "amount", 1, table="t", row=5, col=1)
    assert one_unit((level, ratio))  # both columns state crore: the percentage's own column says the same


def test_a_movement_verb_is_told_from_a_row_name_by_its_form_not_by_its_number():
    """"volume grow" beside the row "YoY volume growth" is a movement (the verb is no row's noun); "deposits growth"
    beside the row "Deposit growth" is the row's name (singular and plural are one word)."""
    from prism.answering.programs.binding import _moving

    growth = _evidence(_cell("YoY volume growth", 0, 0, "28.6", "percent"), _cell("Deposit growth", 1, 0, "13.6",
                                                                                   "percent"))
    assert _moving(read("Did UPI volume grow in FY2025?"), growth)
    assert not _moving(read("What was the deposits growth in FY2025?"), growth)


def test_money_answers_how_many_only_when_the_question_names_a_value_besides_what_it_counts():
    from prism.answering.programs.operation import Program, Result
    from prism.answering.programs.ranker import _money_for_a_count

    rupees = Operand("repurchases", "FY2019", "FY2019", (2019, 0), "₹21.7 crore", Decimal("21.7"), "crore", "INR",
                     "amount", 1, source="sentence")
    money = Result(Decimal("21.7"), Decimal("21.7"), "amount", "₹21.7 crore")
    program = Program("lookup", (rupees,))
    assert _money_for_a_count(read("How many shares did the company repurchase in 2019?"), program, money)
    assert _money_for_a_count(read("How many UPI transactions in FY2025?"), program, money)
    assert not _money_for_a_count(read("How many complaints did it receive in FY2025, and for what value?"), program,
                                  money)
    assert not _money_for_a_count(read("In how many years is the cost to be recognized?"), program, money)

