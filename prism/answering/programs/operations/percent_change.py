"""``percent_change``: a figure's change in percent, (to − from) / |from| × 100 (growth rate, "% delta", YoY %).

When both figures are negative (a loss, an outflow or a liability printed in parentheses) the change is that of
their size, (|to| − |from|) / |from| × 100 = (to − from) / from × 100: a loss from operations of (33.6) narrowing to
(25.0) is a fall of 25.60 %, as "the loss fell by a quarter" says, not a rise. TAT-QA's derivations divide by the
signed base throughout ("-25.0 / -33.6 - 1"), which agrees here; from a negative base to a positive figure the
change is measured on |from| (a swing from a loss of 10 to a profit of 5 is +150 %).

Unit rule: a percent, two decimals; of two percentages (a rate, a margin, a share), the change in percentage points
is stated beside it ("-1.63 % (-0.06 percentage points)"), as an analyst reads a rate's move both ways. A change
from zero is undefined.
"""

from __future__ import annotations

from collections.abc import Iterator

from prism.answering.programs.binding import into_year_pairs, item_pairs, series_pairs
from prism.answering.programs.evidence import Evidence
from prism.answering.programs.formatting import common_scale, points, rounded, written
from prism.answering.programs.operation import Operation, Program, Result
from prism.types.reading import Reading


class PercentChange(Operation):
    """(to − from) / |from| × 100 over two figures of one row (or two items); of two negative figures, the change
    of their size (module docstring)."""

    name = "percent_change"
    roles = ("from", "to")
    phrasings = ("what is the percentage change in X from P to P", "by what percent did X grow from P to P",
                 "what was the growth rate of X in P", "X percent change P versus P", "% change in X",
                 "how much did X increase in percent", "X year over year growth percentage",
                 "what is the percentage increase in X from P to P", "X percentage delta")
    cues = ("percentage change", "percent change", "% change", "growth rate", "rate of growth", "percentage increase",
            "percentage decrease", "percent increase", "percent decrease", "% growth", "% increase", "% decrease",
            "by what percent", "by what percentage", "in percent", "in percentage", "year over year",
            "percentage growth", "percentage delta", "% delta", "percentage movement", "% movement",
            "percentage difference", "relative change", "in %", "what percent did", "what percentage did", "what % did")
    formula = "(to − from) / |from| × 100"
    same_unit = True
    in_time_order = True

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        for a, b in series_pairs(reading, evidence):
            yield Program(self.name, (a, b))
        for a, b in item_pairs(reading, evidence):
            yield Program(self.name, (a, b))
        for a, b in into_year_pairs(reading, evidence):
            yield Program(self.name, (a, b))

    def run(self, program: Program, reading: Reading) -> Result:
        a, b = program.operands
        (va, vb), _ = common_scale(program.operands)
        if va == 0:
            raise ZeroDivisionError("a percentage change from zero")
        raw = (vb - va) / (va if vb < 0 else abs(va))  # both negative: (|to| − |from|) / |from|
        shown = rounded(raw * 100, 2)
        text = written(shown, "percent")
        work = f"({b.printed} − {a.printed}) / {a.printed} × 100 = {text}"
        if a.kind == "percent" and b.kind == "percent":  # a rate's move in points beside its relative change
            moved = points(rounded(vb - va, 2))
            return Result(raw, shown, "percent", text, f"({moved})", f"{work}; {b.printed} − {a.printed} = {moved}",
                          percents=((vb - va) / 100,))
        return Result(raw, shown, "percent", text, work=work)

    def subject(self, program: Program) -> str:
        a, b = program.operands
        if a.series == b.series:
            return f"percentage change in {a.name}, {a.column} to {b.column}"
        return f"{b.name} relative to {a.name}, percentage difference" + (f", {a.column}" if a.column else "")


OPERATION = PercentChange()
