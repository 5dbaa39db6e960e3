"""``change``: how much a figure moved between two periods, or the difference of two items (to − from); a difference
asked without a direction (the reading's ``gap`` flag: "the difference in total costs between 2018 and 2019") is the
gap, the larger figure less the smaller, its work showing which is which.

Unit rule: an amount's change is an amount in its currency and scale, stated with its percentage change beside it
when both figures are positive; a change of percentages is in percentage points with basis points beside it (in bps
when the question asks); a count's change is a count.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from prism.answering.programs.binding import into_year_pairs, item_pairs, series_pairs
from prism.answering.programs.evidence import Evidence
from prism.answering.programs.formatting import common_scale, rounded, written
from prism.answering.programs.operation import Operation, Program, Result, shown_decimals
from prism.types.reading import Reading


class Change(Operation):
    """``to − from`` over two figures of one row (two periods) or of two rows (two items, one period)."""

    name = "change"
    roles = ("from", "to")
    phrasings = ("what is the change in X from P to P", "how much did X increase from P to P",
                 "what is the difference in X between P and P", "by how much did X move from P to P",
                 "X delta P versus P", "what was the movement in X between P and P",
                 "what is the difference between X and Y", "how much higher was X than Y",
                 "how much did X decline", "X swing P to P", "X minus Y in P", "by how much did X exceed Y in P")
    cues = ("change", "difference", "increase", "decrease", "movement", "delta", "swing", "move", "moved",
            "grew", "growth", "declined", "decline", "rise", "rose", "fell", "fall", "drop", "dropped", "higher than",
            "lower than", "more than", "less than", "by how much", "variance", "net change", "compare",
            "compared", "versus", "evolve", "evolved", "fare", "fared", "how much higher", "how much lower",
            "how much more", "how much less", "how much larger", "how much smaller", "how much bigger",
            "how much greater", "minus", "exceed", "exceeded", "exceeds", "subtract")
    formula = "to − from"
    same_unit = True
    in_time_order = True

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        gap = (("gap", "yes"),) if "gap" in reading.flags else ()  # a difference asked without a direction
        for a, b in series_pairs(reading, evidence):
            yield Program(self.name, (a, b), gap)
        for a, b in item_pairs(reading, evidence):
            yield Program(self.name, (a, b), gap)
        for a, b in into_year_pairs(reading, evidence):
            yield Program(self.name, (a, b), gap)

    def run(self, program: Program, reading: Reading) -> Result:
        a, b = program.operands
        (va, vb), unit = common_scale(program.operands)
        if program.option("gap") and vb < va:  # the gap: the larger figure less the smaller
            a, b, va, vb = b, a, vb, va
        raw = vb - va
        if a.kind == "percent" and b.kind == "percent":
            if "bps" in reading.flags:
                shown = rounded(raw * 100, 0)
                return Result(raw / 100, shown, "bps", written(shown, "bps"), work=f"({b.printed} − {a.printed}) "
                              f"× 100 = {written(shown, 'bps')}")
            shown = rounded(raw, 2)
            text = written(shown, "points")
            return Result(raw / 100, shown, "points", text, work=f"{b.printed} − {a.printed} = {text}")
        kind = "count" if a.kind == "count" == b.kind else a.kind if a.kind in ("amount", "per_unit") else b.kind
        shown = rounded(raw, shown_decimals(program.operands))
        text = written(shown, kind, a if a.currency or a.unit else b, unit)
        work = f"{b.printed} − {a.printed} = {text}"
        percents: tuple[Decimal, ...] = ()
        aside = ""
        if kind in ("amount", "number", "count", "per_unit") and va > 0 and vb >= 0:
            pct = (vb - va) / va
            percents = (pct,)
            aside = f"({written(rounded(pct * 100, 2), 'percent')})"
            work += f"; ({b.printed} − {a.printed}) / {a.printed} × 100 = {written(rounded(pct * 100, 2), 'percent')}"
        return Result(raw, shown, kind, text, aside, work, percents=percents)

    def subject(self, program: Program) -> str:
        a, b = program.operands
        if program.option("gap"):
            if a.series == b.series:
                return f"difference in {a.name}, {a.column} and {b.column}"
            return f"difference between {a.name} and {b.name}" + (f", {a.column}" if a.column else "")
        if a.series == b.series:
            if a.when == b.when and a.when != (0, 0) and a.column != b.column:
                # two columns of one date (Domestic, International September 30, 2019): no movement in time
                return f"difference in {a.name}, {b.column} − {a.column}"
            return f"change in {a.name}, {a.column} to {b.column}"
        return f"difference, {b.name} − {a.name}" + (f", {a.column}" if a.column else "")


OPERATION = Change()
