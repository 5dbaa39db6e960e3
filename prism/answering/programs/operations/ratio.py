"""``ratio``: one figure divided by another, A / B ("the ratio of A to B", "A divided by B", "A over B").

Unit rule: a ratio has no unit; two decimals. Division by zero is undefined.
"""

from __future__ import annotations

from collections.abc import Iterator

from prism.answering.programs.binding import item_pairs, series_pairs
from prism.answering.programs.evidence import Evidence
from prism.answering.programs.formatting import common_scale, rounded, written
from prism.answering.programs.operation import Operation, Program, Result
from prism.types.reading import Reading


class Ratio(Operation):
    """A / B over two items in one period (or one item in two periods)."""

    name = "ratio"
    roles = ("numerator", "denominator")
    phrasings = ("what is the ratio of X to Y in P", "X divided by Y", "X over Y in P", "X to Y ratio",
                 "how many times Y is X", "what is X relative to Y", "X / Y for P", "compute X as a multiple of Y")
    cues = ("ratio", "divided by", "over", "times", "multiple of", "relative to", "coverage", "per")
    formula = "A / B"

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        for a, b in item_pairs(reading, evidence):
            yield Program(self.name, (a, b))
        for a, b in series_pairs(reading, evidence):
            yield Program(self.name, (a, b))

    def run(self, program: Program, reading: Reading) -> Result:
        a, b = program.operands
        (va, vb), _ = common_scale(program.operands)
        if vb == 0:
            raise ZeroDivisionError("a ratio over zero")
        raw = va / vb
        shown = rounded(raw, 2)
        text = written(shown, "ratio")
        return Result(raw, shown, "ratio", text, work=f"{a.printed} / {b.printed} = {text}")

    def subject(self, program: Program) -> str:
        a, b = program.operands
        if a.series == b.series:
            return f"{a.name}, {a.column} / {b.column}"
        return f"ratio of {a.name} to {b.name}" + (f", {a.column}" if a.column else "")


OPERATION = Ratio()
