"""``cagr``: compound annual growth rate between the first and last period, (last / first) ^ (1 / years) − 1.

Source: CFA Institute, *Quantitative Methods* ("compound growth rate"). Unit rule: a percent, two decimals;
undefined unless both figures are positive and the periods are whole years apart.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from prism.answering.programs.binding import series_sets
from prism.answering.programs.evidence import Evidence
from prism.answering.programs.formatting import common_scale, rounded, written
from prism.answering.programs.operation import Operation, Program, Result
from prism.types.reading import Reading


class Cagr(Operation):
    """(last / first) ^ (1 / years) − 1 over a row's first and last period."""

    name = "cagr"
    roles = ("first", "last")
    phrasings = ("what is the compound annual growth rate of X from P to P", "X CAGR P to P",
                 "annualised growth of X between P and P", "compounded yearly growth in X over P to P",
                 "average annual growth rate of X compounded")
    cues = ("cagr", "compound annual growth", "compounded annual", "compound annual", "compound growth",
            "annualised growth", "annualized growth", "compounded")
    formula = "(last / first) ^ (1 / years) − 1"
    same_unit = True
    in_time_order = True

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        for figures in series_sets(reading, evidence):
            if figures[-1].when[0] > figures[0].when[0]:
                yield Program(self.name, (figures[0], figures[-1]))

    def run(self, program: Program, reading: Reading) -> Result:
        first, last = program.operands
        (v0, v1), _ = common_scale(program.operands)
        years = last.when[0] - first.when[0]
        if v0 <= 0 or v1 <= 0 or years <= 0:
            raise ArithmeticError("a compound growth rate needs two positive figures years apart")
        raw = Decimal(str(float(v1 / v0) ** (1.0 / years))) - 1
        shown = rounded(raw * 100, 2)
        text = written(shown, "percent")
        work = f"({last.printed} / {first.printed}) ^ (1 / {years}) − 1 = {text}"
        return Result(raw, shown, "percent", text, work=work)

    def subject(self, program: Program) -> str:
        first, last = program.operands
        return f"compound annual growth rate of {first.name}, {first.column} to {last.column}"


OPERATION = Cagr()
