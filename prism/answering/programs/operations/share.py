"""``share``: one figure as a percentage of another, A / B × 100 ("what share of B came from A", "A as a % of B"); the
part may be several items added up ("A and B as a percentage of total": (A1 + A2) / B × 100).

Unit rule: a percent, two decimals. A share of zero is undefined; a percentage is no part of an amount
(:func:`~prism.answering.programs.formatting.commensurable`).
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from prism.answering.programs.binding import item_pairs, part_sets, series_pairs
from prism.answering.programs.evidence import Evidence
from prism.answering.programs.formatting import common_scale
from prism.answering.programs.operation import Program
from prism.answering.programs.operations.quotient import Quotient
from prism.types.reading import Reading


class Share(Quotient):
    """A / B × 100: the part A of the whole B, in one period (or one period's figure as a share of another's). Of two
    rows, the part is never the larger positive figure nor the total: "what share of revenue went to R&D" is R&D over
    revenue, never revenue over R&D."""

    name = "share"
    kind = "percent"
    factor = Decimal(100)
    roles = ("part", "whole")
    phrasings = ("what percentage of Y is X in P", "X as a percentage of Y", "what share of Y came from X",
                 "what portion of Y does X represent", "X as a share of Y", "what proportion of Y is X",
                 "X as a % of Y", "how much of Y is X in percent", "percentage of X in Y")
    cues = ("share of", "percentage of", "percent of", "% of", "portion of", "proportion of", "fraction of",
            "as a percentage", "as a percent", "as a share", "as a proportion", "what share", "what portion",
            "what proportion", "what percentage", "what percent", "contribution", "constitute", "represent",
            "mix", "weight")
    formula = "A / B × 100"
    same_unit = True

    def candidate_bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        for a, b in item_pairs(reading, evidence):
            (va, vb), _ = common_scale((a, b))
            if va > vb > 0 or (a.total and not b.total):
                continue  # a part is not larger than its whole, and a total is no part of an item
            yield Program(self.name, (a, b))
        for a, b in series_pairs(reading, evidence):
            yield Program(self.name, (a, b))
        for parts, whole in part_sets(reading, evidence):
            values, _ = common_scale((*parts, whole))
            added, of = sum(values[:-1]), values[-1]
            if added > of > 0 or (added < of < 0 and all(v < 0 for v in values)) or added == of:
                continue  # parts that add up to more than their whole are not its parts; to all of it, no share asked
            yield Program(self.name, (*parts, whole), (("parts", len(parts)),))

    def subject(self, program: Program) -> str:
        parts, (b,) = program.parts
        if len(parts) > 1:
            return f"{' and '.join(o.name for o in parts)} as a percentage of {b.name}" + (
                f", {b.column}" if b.column else "")
        a = parts[0]
        if a.series == b.series:
            return f"{a.name}, {a.column} as a percentage of {b.column}"
        return f"{a.name} as a percentage of {b.name}" + (f", {a.column}" if a.column else "")


OPERATION = Share()
