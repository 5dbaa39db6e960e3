"""Two items compared by name ("was products revenue or services revenue higher?"): each figure is the row the
question's own word for it names, not a row named only by the word the two share ("Revenue")."""

from __future__ import annotations

from prism.answering.programs.extremes import compared_sets
from tests.readings import read, table_evidence

EVIDENCE = table_evidence(("Revenue", "1,250"), ("Products", "800"), ("Services", "450"))


def _item_pairs(question: str) -> list[tuple[str, ...]]:
    return [tuple(o.label for o in p.operands) for p in compared_sets("max", read(question), EVIDENCE)
            if p.option("over") == "items" and len(p.operands) == 2]


def test_two_items_sharing_a_word_are_the_rows_their_own_words_name():
    assert _item_pairs("In FY24, was products revenue or services revenue higher?") == [("Products", "Services")]


def test_items_named_by_words_of_their_own_keep_every_pair():
    pairs = _item_pairs("Which was higher in FY24, revenue or services?")
    assert ("Revenue", "Services") in pairs


def test_one_figure_stated_in_two_copies_of_a_statement_is_no_pair():
    """A share, ratio or difference of a figure with itself ("Revenues as a percentage of Revenues: 100 %") is no
    candidate: the same line item, period and value in two tables is one figure."""
    from decimal import Decimal

    from prism.answering.programs.binding import item_pairs
    from prism.answering.programs.evidence import Evidence, Row
    from prism.answering.programs.operation import Operand
    from prism.index.tokenizer import tokenize

    def row(label: str, value: int, table: str, i: int) -> Row:
        figure = Operand(label, "2015", "FY2015", (2015, 0), f"{value:,}", Decimal(value), None, None, "amount", 1,
                         table=table, row=i, col=0)
        return Row((table, i), label, frozenset(tokenize(label)), (figure,))

    evidence = Evidence(rows=[row("Revenues", 6779511, "t1", 0), row("Revenues", 6779511, "t2", 0),
                              row("Streaming revenues", 4180339, "t1", 1)])
    pairs = {(a.label, b.label) for a, b in item_pairs(read("What share of 2015 revenues came from streaming?"),
                                                       evidence)}
    assert ("Revenues", "Revenues") not in pairs
    assert ("Streaming revenues", "Revenues") in pairs


def test_a_total_rows_years_added_up_say_sum_not_total_twice():
    from decimal import Decimal

    from prism.answering.programs.operation import Operand, Program
    from prism.answering.programs.registry import OPERATIONS

    def cell(label: str, year: int, row: int, col: int) -> Operand:
        return Operand(label, str(year), f"FY{year}", (year, 0), "1", Decimal(1), None, None, "amount", 1,
                       table="t", row=row, col=col)

    total_row = Program("sum", (cell("Total accounts receivable", 2018, 0, 1), cell("Total accounts receivable", 2019,
                                                                                   0, 0)))
    assert OPERATIONS["sum"].subject(total_row) == "sum of Total accounts receivable, 2018 and 2019"
    plain_row = Program("sum", (cell("Accounts receivable", 2018, 1, 1), cell("Accounts receivable", 2019, 1, 0)))
    assert OPERATIONS["sum"].subject(plain_row) == "total Accounts receivable, 2018 and 2019"
