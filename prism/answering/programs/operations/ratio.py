"""``ratio``: one figure divided by another, A / B ("the ratio of A to B", "A divided by B", "A over B"); the
numerator may be several items added up ("the proportion of A and B over total": (A1 + A2) / B).

Unit rule: a ratio has no unit; two decimals. Division by zero is undefined; a percentage over an amount is no
ratio (:func:`~prism.answering.programs.formatting.commensurable`).
"""

from __future__ import annotations

from collections.abc import Iterator

from prism.answering.programs.binding import item_pairs, part_sets, series_pairs
from prism.answering.programs.evidence import Evidence
from prism.answering.programs.operation import Program
from prism.answering.programs.operations.quotient import Quotient
from prism.types.reading import Reading


class Ratio(Quotient):
    """A / B over two items in one period (or one item in two periods)."""

    name = "ratio"
    kind = "ratio"
    roles = ("numerator", "denominator")
    phrasings = ("what is the ratio of X to Y in P", "X divided by Y", "X over Y in P", "X to Y ratio",
                 "how many times Y is X", "what is X relative to Y", "X / Y for P", "compute X as a multiple of Y")
    cues = ("ratio", "divided by", "over", "times", "multiple of", "relative to", "coverage", "per")
    formula = "A / B"

    def candidate_bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        for a, b in item_pairs(reading, evidence):
            yield Program(self.name, (a, b))
        for a, b in series_pairs(reading, evidence):
            yield Program(self.name, (a, b))
        for parts, whole in part_sets(reading, evidence):
            yield Program(self.name, (*parts, whole), (("parts", len(parts)),))

    def subject(self, program: Program) -> str:
        parts, (b,) = program.parts
        if len(parts) > 1:
            return f"ratio of {' and '.join(o.name for o in parts)} to {b.name}" + (f", {b.column}" if b.column else "")
        a = parts[0]
        if a.series == b.series:
            return f"{a.name}, {a.column} / {b.column}"
        return f"ratio of {a.name} to {b.name}" + (f", {a.column}" if a.column else "")


OPERATION = Ratio()
