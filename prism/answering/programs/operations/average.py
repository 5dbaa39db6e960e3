"""``average``: the mean of a figure over periods (or of several items), sum / n.

Unit rule: the operands' unit (an average of percentages is a percent); shown at two decimals more than its inputs,
trailing zeros beyond them dropped.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from prism.answering.programs.binding import item_sets, series_sets
from prism.answering.programs.evidence import Evidence
from prism.answering.programs.formatting import common_scale, mean_shown, written
from prism.answering.programs.groups import group_columns, unnamed_part
from prism.answering.programs.operation import Operation, Program, Result, shown_decimals
from prism.types.reading import Reading


class Average(Operation):
    """(v1 + … + vn) / n over a row's periods, or over several items in one period."""

    name = "average"
    roles = ("values*",)
    phrasings = ("what is the average X for P and P", "what was the mean X from P to P", "average X",
                 "average X over P to P", "what is the average of X and Y", "X on average across P and P",
                 "typical X per year between P and P")
    cues = ("average", "mean", "on average", "avg", "typical", "per year on average", "averaged")
    formula = "sum / number of values"
    same_unit = True

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        for figures in series_sets(reading, evidence):
            yield Program(self.name, figures)
        groups = list(group_columns(reading, evidence))
        for figures in item_sets(reading, evidence):
            if not unnamed_part(figures, groups, reading):
                yield Program(self.name, figures)
        for group, figures in groups:
            yield Program(self.name, figures, (("over", "items"), ("group", group)))

    def run(self, program: Program, reading: Reading) -> Result:
        values, unit = common_scale(program.operands)
        raw = sum(values, Decimal(0)) / len(values)
        shown = mean_shown(raw, shown_decimals(program.operands))
        first = program.operands[0]
        kind = first.kind if len({o.kind for o in program.operands}) == 1 else "number"
        text = written(shown, kind, first, unit)
        work = f"({' + '.join(o.printed for o in program.operands)}) / {len(values)} = {text}"
        return Result(raw / 100 if kind == "percent" else raw, shown, kind, text, work=work)  # a percent as a ratio

    def subject(self, program: Program) -> str:
        first = program.operands[0]
        if len({o.series for o in program.operands}) == 1:
            return f"average {first.name}, {' and '.join(o.column for o in program.operands)}"
        return f"average of {', '.join(o.name for o in program.operands)}" + (
            f", {first.column}" if first.column else "")


OPERATION = Average()
