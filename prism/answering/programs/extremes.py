"""What the ``max`` and ``min`` operations share: the sets of figures compared, and the answer naming the winner.

Compared are one row's figures across periods ("In which year was revenue highest?", "When did revenue peak?"),
the rows of one table in one column ("Which segment had the largest operating income in 2019?"; totals left out),
or two items the question names ("Which was higher, A or B?"). The answer names the period (its year as the column
writes it) or the item, with the figure that makes it so; :attr:`~prism.types.reading.Reading.ordinal` picks the
second highest, the third …
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from prism.answering.programs.binding import item_pairs, rows
from prism.answering.programs.evidence import Evidence, naming_tokens
from prism.answering.programs.formatting import common_scale, written
from prism.answering.programs.operation import Operand, Operation, Program, Result
from prism.answering.programs.periods import asked, asked_periods
from prism.answering.units import without_parentheses
from prism.index.tokenizer import tokenize
from prism.retrieval.periods import find_periods
from prism.types.reading import Reading

__all__ = ["compared_sets", "extreme_result", "period_name"]

_YEARS = re.compile(r"(?:19|20)\d{2}")
_PART_WORD = re.compile(r"\b(?:Q[1-4]|H[12]|quarter|half)\b", re.IGNORECASE)
"""A column header naming a quarter or half of its own; else a quarter's figure is named by its row."""


def period_name(figure: Operand) -> str:
    """The period a figure's column names as an analyst says it: its year ("Years ended December 31, 2019" →
    "2019"); a quarter or a half as the column writes it, without a parenthesis restating it ("Q4 FY25 (Jan–Mar
    2025)" → "Q4 FY25", never its year alone, which its other quarters share), or as its row does when the column
    names only the year ("Fourth Quarter" under "2018 Low" → "Fourth Quarter 2018"); else the column header as
    printed."""
    if figure.period and figure.period[:1] in ("Q", "H"):
        if figure.label and find_periods(f"{figure.label} {figure.when[0]}") and not _PART_WORD.search(figure.column):
            return f"{without_parentheses(figure.label)} {figure.when[0]}"  # a quarter its row names: "Fourth Quarter"
        return without_parentheses(figure.column) or figure.period
    years = _YEARS.findall(figure.column)
    return years[-1] if years else figure.column.strip() or (figure.period or "")


def compared_sets(name: str, reading: Reading, evidence: Evidence) -> Iterator[Program]:
    """The programs of operation ``name`` (``max`` or ``min``) over every set of figures a question may compare; a
    question asking for an item ("Which country had the lowest revenue in 2019?": the reader expects a label) of one
    period or none is not compared over one row's periods."""
    periods = asked_periods(reading)
    rank = (("rank", reading.ordinal),) if reading.ordinal > 1 else ()
    over_periods = reading.expected_unit != "label" or len(periods) >= 2
    for row in rows(reading, evidence, figures=2) if over_periods else ():
        figures = tuple(asked(reading, row)) if len(periods) >= 2 else tuple(f for f in row.figures
                                                                              if f.when != (0, 0))
        if len({f.when for f in figures}) >= 2:
            yield Program(name, figures, (("over", "periods"), *rank))
    for table in list(evidence.tables.values())[:2]:
        members = [r for _, r in table if r is not None and not r.total]
        totals = [r.label for _, r in table if r is not None and r.total]
        group = (("group", totals[-1]),) if totals else ()  # the total they add up to names what is compared
        columns = sorted({f.col for r in members for f in asked(reading, r)})
        for col in columns:
            figures = tuple(f for r in members for f in r.figures if f.col == col)
            if len(figures) >= 2:
                yield Program(name, figures, (("over", "items"), *group, *rank))
    for a, b in item_pairs(reading, evidence):
        if a.row < b.row and not (a.total or b.total) and _names_both(a, b, reading):  # a total is no item
            yield Program(name, (a, b), (("over", "items"),))


def _names_both(a: Operand, b: Operand, reading: Reading) -> bool:
    """Whether the question names each of two items by what sets it apart from the other ("Which was higher, home
    loans or vehicle loans?"): two rows of a category the question names as a whole ("Which loan segment grew
    fastest?") are half a comparison, which the table's column answers. Of two mentions that share words
    ("products revenue or services revenue"), one must hold one item's own words and the other the other's: a row
    named only by the shared word ("Revenue") is not one of the two items; of two alternatives ("higher revenue:
    products or services?"), each is one of the items."""
    ta, tb = naming_tokens(a.label), naming_tokens(b.label)
    if not (ta - tb & reading.tokens and tb - ta & reading.tokens):
        return False
    named = [m for m in reading.mentions if m.tokens]
    shared = [(set(x.tokens) - set(y.tokens), set(y.tokens) - set(x.tokens))
              for i, x in enumerate(named) for y in named[i + 1:] if set(x.tokens) & set(y.tokens)]
    shared += [(set(x.tokens) - set(y.tokens), set(y.tokens) - set(x.tokens))
               for x, y in zip(named, named[1:], strict=False)
               if reading.text[x.end:y.start].strip(" ,").lower() == "or"]  # "…: products or services?"
    if not shared:
        return True
    la, lb = set(tokenize(a.label)), set(tokenize(b.label))
    return any(x and y and ((x & la and y & lb) or (x & lb and y & la)) for x, y in shared)


def extreme_result(program: Program, reading: Reading, largest: bool) -> Result:
    """The winner of ``program`` (the ``reading.ordinal``-th largest or smallest), named and with its figure; the
    work quotes every figure compared, the winner's marked ✓, then their order ("2019: $16,684 ✓; 2018: $8,078
    ($16,684 > $8,078)")."""
    values, unit = common_scale(program.operands)
    order = sorted(range(len(values)), key=lambda i: values[i], reverse=largest)
    k = min(max(reading.ordinal, 1), len(order)) - 1
    winner = program.operands[order[k]]
    over_periods = program.option("over") == "periods"
    name = period_name(winner) if over_periods else winner.label
    figure = written(winner.value, winner.kind, winner)
    cells = "; ".join(f"{period_name(o) if over_periods else o.label}: {o.printed.strip()}"
                      + (" ✓" if i == order[k] else "") for i, o in enumerate(program.operands))
    relation = ">" if largest else "<"
    ranked = f" {relation} ".join(o.printed.strip() for o in (program.operands[i] for i in order))
    return Result(Decimal(values[order[k]]), None, "period" if over_periods else "label", name, f"({figure})",
                  f"{cells} ({ranked})", picked=(order[k],))


class Extreme(Operation):
    """The shared body of ``max`` and ``min``: the sets a question may compare (:func:`compared_sets`), the result
    (:func:`extreme_result`) and the subject; a subclass sets :attr:`largest` and :attr:`word`."""

    largest: bool = True
    word: str = "highest"

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        yield from compared_sets(self.name, reading, evidence)

    def run(self, program: Program, reading: Reading) -> Result:
        return extreme_result(program, reading, largest=self.largest)

    def subject(self, program: Program) -> str:
        first = program.operands[0]
        rank = program.option("rank", 1)
        word = f"{_ORDINAL_WORDS.get(rank, f'#{rank}')} {self.word}" if rank > 1 else self.word
        if program.option("over") == "periods":
            return f"{word} {first.name}"
        return word + (f", {first.column}" if first.column else "")


_ORDINAL_WORDS = {2: "second", 3: "third", 4: "fourth"}
