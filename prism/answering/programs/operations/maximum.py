"""``max``: the period or item with the highest figure ("When did revenue peak?", "Which was higher, A or B?")."""

from __future__ import annotations

from collections.abc import Iterator

from prism.answering.programs.evidence import Evidence
from prism.answering.programs.extremes import compared_sets, extreme_result
from prism.answering.programs.operation import Operation, Program, Result
from prism.types.reading import Reading


class Maximum(Operation):
    """argmax over one row's periods, one column's items, or two named items."""

    name = "max"
    roles = ("values*",)
    phrasings = ("in which year was X the highest", "when did X peak", "which was higher X or Y",
                 "which X had the largest Y in P", "which year had the most X", "what was the maximum X",
                 "which is bigger X or Y", "in which period was X greater")
    cues = ("highest", "largest", "greatest", "biggest", "most", "maximum", "peak", "peaked", "higher", "larger",
            "greater", "bigger", "top", "best", "max", "record high")
    formula = "the largest value"
    intent = "which"

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        yield from compared_sets(self.name, reading, evidence)

    def run(self, program: Program, reading: Reading) -> Result:
        return extreme_result(program, reading, largest=True)

    def subject(self, program: Program) -> str:
        first = program.operands[0]
        if program.option("over") == "periods":
            return f"highest {first.name}"
        return "highest" + (f", {first.column}" if first.column else "")


OPERATION = Maximum()
