"""``min``: the period or item with the lowest figure ("In which year was revenue lowest?", "Which was lower?")."""

from __future__ import annotations

from collections.abc import Iterator

from prism.answering.programs.evidence import Evidence
from prism.answering.programs.extremes import compared_sets, extreme_result
from prism.answering.programs.operation import Operation, Program, Result
from prism.types.reading import Reading


class Minimum(Operation):
    """argmin over one row's periods, one column's items, or two named items."""

    name = "min"
    roles = ("values*",)
    phrasings = ("in which year was X the lowest", "when was X at its lowest", "which was lower X or Y",
                 "which X had the smallest Y in P", "which year had the least X", "what was the minimum X",
                 "which is smaller X or Y", "in which period was X less")
    cues = ("lowest", "smallest", "least", "fewest", "minimum", "trough", "lower", "smaller", "fewer", "bottom",
            "worst", "min", "record low")
    formula = "the smallest value"
    intent = "which"

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        yield from compared_sets(self.name, reading, evidence)

    def run(self, program: Program, reading: Reading) -> Result:
        return extreme_result(program, reading, largest=False)

    def subject(self, program: Program) -> str:
        first = program.operands[0]
        if program.option("over") == "periods":
            return f"lowest {first.name}"
        return "lowest" + (f", {first.column}" if first.column else "")


OPERATION = Minimum()
