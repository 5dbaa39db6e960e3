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
