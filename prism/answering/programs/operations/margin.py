"""``margin``: a profit line as a percentage of revenue ("gross margin", "operating margin", "EBITDA margin").

The numerator is a row the question names; the denominator a revenue row of the same table and column (its label
one of the revenue labels of :data:`prism.index.statements.ITEMS`), whether or not the question names it. Unit
rule: a percent, two decimals. Source: Investopedia, "Profit margin" (profit / revenue × 100).
"""

from __future__ import annotations

from collections.abc import Iterator

from prism.answering.programs.binding import rows
from prism.answering.programs.evidence import Evidence, Row
from prism.answering.programs.formatting import common_scale, rounded, written
from prism.answering.programs.operation import Operation, Program, Result
from prism.answering.programs.periods import asked
from prism.index.statements import ITEMS
from prism.types.reading import Reading

_REVENUE = frozenset(label.lower() for key in ("revenue",) if key in ITEMS for label in ITEMS[key].labels)


def _revenue_rows(evidence: Evidence) -> list[Row]:
    return [r for r in evidence.rows if r.label.lower().strip(" :") in _REVENUE or r.label.lower().startswith(
        ("total revenue", "net revenue", "total net revenue", "revenue", "net sales", "total net sales", "sales"))]


class Margin(Operation):
    """profit / revenue × 100 in one period."""

    name = "margin"
    roles = ("profit", "revenue")
    phrasings = ("what is the X margin in P", "X as a percentage of revenue in P", "what was the X margin for P",
                 "X margin", "X to revenue percentage", "how profitable was X relative to sales in P")
    cues = ("margin", "margins", "of revenue", "of sales", "of net sales", "profitability", "to revenue",
            "to sales")
    formula = "profit / revenue × 100"

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        revenues = _revenue_rows(evidence)
        for row in rows(reading, evidence):
            if row in revenues:
                continue
            for figure in asked(reading, row):
                for revenue in revenues:
                    base = next((f for f in revenue.figures if f.table == figure.table and f.col == figure.col), None)
                    if base is not None:
                        yield Program(self.name, (figure, base))

    def run(self, program: Program, reading: Reading) -> Result:
        profit, revenue = program.operands
        (vp, vr), _ = common_scale(program.operands)
        if vr == 0:
            raise ZeroDivisionError("a margin over zero revenue")
        raw = vp / vr
        shown = rounded(raw * 100, 2)
        text = written(shown, "percent")
        return Result(raw, shown, "percent", text, work=f"{profit.printed} / {revenue.printed} × 100 = {text}")

    def subject(self, program: Program) -> str:
        profit, revenue = program.operands
        return f"{profit.name} margin (over {revenue.name})" + (f", {profit.column}" if profit.column else "")


OPERATION = Margin()
