"""Features of candidate programs that read the question's structure: a unit outmatched by another candidate, the
order of a multiple's items and of two items named alike, an operation named only by the row's own name."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest

from prism.answering.programs.evidence import Evidence, Row
from prism.answering.programs.features import FEATURES, _item_order, _naming_tokens
from prism.answering.programs.operation import Operand, Program
from prism.answering.programs.ranker import candidates
from prism.answering.programs.row_names import column_states, operation_log_probability
from prism.evaluation.training.train import _OP
from prism.index.tokenizer import tokenize
from tests.readings import read, table_evidence

_OUT = FEATURES.index("unit_outmatched")
_CLASH = FEATURES.index("unit_clash")


def test_a_result_in_another_unit_is_outmatched_only_when_a_candidate_has_the_asked_unit():
    reading = read("What was net income per share in 2024?")
    found = candidates(reading, table_evidence(("Net income", "180.0"), ("Diluted shares outstanding", "150.0")))
    by_program = {(c.program.operation, tuple(o.label for o in c.program.operands)): c for c in found}
    per_share = by_program[("per_share", ("Net income", "Diluted shares outstanding"))]
    lookup = by_program[("lookup", ("Net income",))]
    assert str(per_share.result.shown) == "1.20" and per_share.features[_OUT] == 0.0
    assert lookup.features[_CLASH] == 1.0 and lookup.features[_OUT] == 1.0
    alone = candidates(reading, table_evidence(("Net income", "180.0")))  # nothing to divide by: no better unit
    assert all(c.features[_OUT] == 0.0 for c in alone) and any(c.features[_CLASH] for c in alone)


def _row(label: str, i: int) -> Row:
    return Row(("t", i), label, frozenset(tokenize(label)), ())


def test_a_multiple_names_its_divisor_first():
    gross, opex = _row("Gross profit", 0), _row("Operating expenses", 1)
    ratio = read("What is the ratio of gross profit to operating expenses in 2024?")
    multiple = read("How many times operating expenses was gross profit in 2024?")
    assert "multiple" in multiple.flags and "multiple" not in ratio.flags
    assert _item_order([gross, opex], ratio, "ratio") == 1.0
    assert _item_order([gross, opex], multiple, "ratio") == 1.0  # gross profit / operating expenses, as asked
    assert _item_order([opex, gross], multiple, "ratio") == -1.0


@pytest.mark.parametrize("question", ["Gross profit minus operating expenses in 2024",
                                      "By how much did gross profit exceed operating expenses in 2024?",
                                      "How much higher was gross profit than operating expenses in 2024?"])
def test_a_difference_written_first_less_second_runs_from_the_second_item(question):
    """A change runs from its first operand to its second; "A minus B" is B to A, so its order is the reverse, for
    a change only (a ratio of the same items keeps its order)."""
    gross, opex = _row("Gross profit", 0), _row("Operating expenses", 1)
    reading = read(question)
    assert "minuend_first" in reading.flags
    assert _item_order([opex, gross], reading, "change") == 1.0  # gross profit − operating expenses
    assert _item_order([gross, opex], reading, "change") == -1.0
    assert _item_order([gross, opex], reading, "ratio") == 1.0
    assert "minuend_first" not in read("What was the change from gross profit to operating expenses?").flags


def test_a_reading_in_a_unit_the_question_does_not_ask_for_is_no_rival_to_one_in_the_unit_it_asks_for():
    from prism.answering.programs.answer import Choice

    reading = read("What was net income per share in 2024?")
    found = candidates(reading, table_evidence(("Net income", "180.0"), ("Diluted shares outstanding", "150.0")))
    per_share = next(c for c in found if c.program.operation == "per_share"
                     and [o.label for o in c.program.operands] == ["Net income", "Diluted shares outstanding"])
    lookup = next(c for c in found if c.program.operation == "lookup" and c.program.operands[0].label == "Net income")
    per_share.score, lookup.score = 16.08, 15.98  # all but tied: the bare net income would be the runner-up
    choice = Choice([per_share, lookup])
    assert choice.runner_up() is None and choice.margin() == 1.0  # 180.0 is an amount, not a per-share figure
    other = Choice([lookup, per_share])  # the other way round, the best clashes: the rival stands
    assert other.runner_up() is per_share and other.margin() < 0.6


def test_an_item_is_placed_by_the_mention_that_names_it_best():
    # "non-current deferred revenue" holds every word of "current deferred revenue": each row is the mention it
    # matches whole, not the first that shares a word with it
    current, noncurrent = _row("Deferred revenue (current)", 0), _row("Deferred revenue (non-current)", 1)
    reading = read("What is the ratio of current deferred revenue to non-current deferred revenue at year end?")
    assert _item_order([current, noncurrent], reading, "ratio") == 1.0
    assert _item_order([noncurrent, current], reading, "ratio") == -1.0


def _two_year_row(label: str, i: int, before: str, after: str) -> Row:
    figures = tuple(Operand(label, str(year), f"FY{year}", (year, 0), printed, Decimal(printed), None, None, "amount",
                            1, table="t", row=i, col=col)
                    for col, (year, printed) in enumerate(((2024, after), (2023, before))))
    return Row(("t", i), label, frozenset(tokenize(label)), figures)


def test_an_operation_named_only_by_the_row_is_not_asked_in_serving_and_training_alike():
    evidence = Evidence(rows=[_two_year_row("Change in valuation allowance", 0, "7", "-49")])
    reading = read("What was the change in valuation allowance in 2024?")
    found = candidates(reading, evidence)
    change = next(c for c in found if c.program.operation == "change")
    lookup = next(c for c in found if c.program.operation == "lookup")
    assert change.named_by_row and not lookup.named_by_row
    least = min(p for _, p in reading.operations)
    assert math.isclose(change.features[_OP], math.log(max(least, 1e-6)))
    assert change.features[_OP] < lookup.features[_OP]
    # training sets the feature from its held-out probabilities through the same function
    probabilities = {name: 1.0 / len(reading.operations) for name, _ in reading.operations} | {"change": 0.9}
    assert operation_log_probability(probabilities, "change", True) == math.log(min(probabilities.values()))
    asked = read("What was the change in the change in valuation allowance from 2023 to 2024?")
    moved = next(c for c in candidates(asked, evidence) if c.program.operation == "change")
    assert not moved.named_by_row  # "the change in …" besides the row's name asks for one


@pytest.mark.parametrize(("column", "stated"), [
    ("Change (%)", {"change"}), ("% Change", {"change", "percent_change"}), ("2019 % of total revenue", {"share"}),
    ("Total", {"sum"}), ("Increase (decrease)", {"change"}), ("2019", set()), ("Per share", set()),
])
def test_a_column_named_for_an_operation_states_its_result(column, stated):
    """A lookup of a cell in a "Change (%)" column reads the change as printed: it takes the likelier of the
    lookup's and the stated operation's probability (a computed change of the same row keeps its own)."""
    cell = Operand("Order intake", column, None, (0, 0), "13.2", Decimal("13.2"), None, None, "percent", 1,
                   table="t", row=0, col=2)
    lookup = Program("lookup", (cell,))
    assert column_states("lookup", lookup) == stated
    assert column_states("change", Program("change", (cell, cell))) == frozenset()
    probabilities = {"change": 0.8, "lookup": 0.1}
    expected = math.log(0.8) if "change" in stated else math.log(0.1)
    assert operation_log_probability(probabilities, "lookup", False, column_states("lookup", lookup)) == \
        pytest.approx(expected)


@pytest.mark.parametrize(("label", "column", "kind", "counted"), [
    ("FY2025", "Volume (crore transactions)", "number", True),  # a scale and a noun: a count of transactions
    ("Employees (number)", "2019", "count", True),
    ("Number of stores", "2019", "count", True),
    ("FY2025", "Value (₹ lakh crore)", "number", False),  # money
    ("FY2025", "Outstanding (crore)", "number", False),  # a scale alone
    ("Home loans", "Share of book (%)", "percent", False),
])
def test_a_cell_stating_a_count_answers_how_many_as_printed(label, column, kind, counted):
    """"In FY2025, how many UPI transactions were there?" reads a count; the year's cell under "Volume (crore
    transactions)" states it, so its lookup takes the likelier of the lookup's and the count's probability."""
    cell = Operand(label, column, None, (0, 0), "787", Decimal("787"), None, None, kind, 1, table="t", row=0, col=0)
    stated = column_states("lookup", Program("lookup", (cell,)))
    assert ("count" in stated) is counted
    probabilities = {"count": 0.86, "lookup": 0.05}
    assert operation_log_probability(probabilities, "lookup", False, stated) == \
        pytest.approx(math.log(0.86 if counted else 0.05))


@pytest.mark.parametrize(("label", "kind", "share"), [
    ("CASA ratio %", "percent", True),  # a ratio printed as a percentage: the share of one thing in another
    ("Loan-to-deposit ratio", "percent", True),
    ("Gross NPA", "percent", False),  # a percentage, no ratio named
    ("Current ratio", "ratio", False),  # a ratio printed as a multiple
])
def test_a_ratio_printed_as_a_percentage_answers_a_share_as_printed(label, kind, share):
    """"What share of deposits were CASA?" reads a share; the "CASA ratio %" cell states it."""
    cell = Operand(label, "Q2 FY25", None, (0, 0), "38.4%", Decimal("38.4"), None, None, kind, 1, table="t", row=0,
                   col=0)
    assert ("share" in column_states("lookup", Program("lookup", (cell,)))) is share


def test_a_change_the_question_writes_inside_a_rows_name_lifts_no_stated_change():
    """"Net change in cash balance?" names a row; it asks for no change, so the "Change (%)" column's cells
    keep the lookup's own probability, while "What is the change (%) for order intake?" lifts them."""
    def cell(label: str, row: int, column: str, col: int, printed: str) -> Operand:
        return Operand(label, column, "FY2019" if "2019" in column else None, (2019, 0) if "2019" in column
                       else (0, 0), printed, Decimal(printed), None, None, "number", 1, table="t", row=row, col=col)

    figures = [[cell("Net change in cash balance", 0, "2019", 0, "-16"), cell("Net change in cash balance", 0,
                                                                                "Change (%)", 1, "-120.0")],
               [cell("Order intake", 1, "2019", 0, "532.0"), cell("Order intake", 1, "Change (%)", 1, "13.2")]]
    evidence = Evidence(rows=[Row(("t", i), fs[0].label, frozenset(tokenize(fs[0].label)), tuple(fs))
                              for i, fs in enumerate(figures)])

    def lookup_log_p(question: str, label: str, column: str) -> float:
        reading = read(question)
        found = candidates(reading, evidence)
        c = next(c for c in found if c.program.operation == "lookup" and c.program.operands[0].label == label
                 and c.program.operands[0].column == column)
        return c.features[FEATURES.index("op_log_probability")], dict(reading.operations)

    named, probabilities = lookup_log_p("Net change in cash balance?", "Net change in cash balance", "Change (%)")
    assert named == pytest.approx(math.log(max(probabilities.get("lookup", 0.0), 1e-6)))
    asked, probabilities = lookup_log_p("What is the change (%) for order intake?", "Order intake", "Change (%)")
    assert asked == pytest.approx(math.log(probabilities["change"])) and probabilities["change"] > probabilities[
        "lookup"]


@pytest.mark.parametrize(("question", "label", "unasked"), [
    ("What was the License and subscription revenue in 2024?", "Cost of license and subscription revenue", 1.0),
    ("What was the License and subscription revenue in 2024?", "License and subscription", 0.0),
    ("What was the cost of license and subscription revenue in 2024?", "Cost of license and subscription revenue",
     0.0),
    ("What was goodwill in 2024?", "Impairment of goodwill", 1.0),
    ("What was the goodwill impairment in 2024?", "Impairment of goodwill", 0.0),
    ("How many shares were outstanding in 2024?", "Number of shares outstanding", 0.0),  # the number is the thing
    ("What were the proceeds in 2024?", "Proceeds from sale of assets", 0.0),  # no head: "from" links the phrase
])
def test_a_row_naming_another_quantity_of_the_thing_asked_is_marked(question, label, unasked):
    """"Cost of license and subscription revenue" is a cost, not the license and subscription revenue the question
    asks: a row whose label's head (the words before "of") the question does not write is marked ``head_unasked``."""
    found = candidates(read(question), table_evidence((label, "1,002")))
    lookup = next(c for c in found if c.program.operation == "lookup")
    assert lookup.features[FEATURES.index("head_unasked")] == unasked


@pytest.mark.parametrize(("sentence", "figure", "words"), [
    # a figure followed by a preposition is named by the words after it; a joining word ends the clause before it
    ("Gross NPA was 2.1% in personal loans and 3.4% in credit cards.", "3.4%", {"credit", "card"}),
    ("Gross NPA was 2.1% in personal loans and 3.4% in credit cards.", "2.1%", {"gross", "npa", "person", "loan"}),
    ("Return on assets was 1.52% and return on equity 15.1%.", "15.1%", {"return", "equiti"}),
    ("P2M transactions were 61% of volume but 34% of value.", "34%", {"valu"}),
    # the periods a sentence names are no name of its figures
    ("Total revenue includes SPVSS revenue of $168 million and $903 million for fiscal 2019 and 2018, respectively.",
     "$903 million", set()),
])
def test_the_words_naming_a_figure_of_a_sentence(sentence, figure, words):
    assert _naming_tokens(sentence, figure) == frozenset(words)
