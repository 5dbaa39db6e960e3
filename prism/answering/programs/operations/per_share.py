"""``per_share``: an amount divided by a number of shares ("book value per share", "dividends per share").

The denominator is a row of shares (its label names shares) in the same table and column, both read in their
table's scale. Unit rule: a per-unit amount in the numerator's currency, two decimals.
"""

from __future__ import annotations

from collections.abc import Iterator

from prism.answering.programs.binding import rows
from prism.answering.programs.evidence import Evidence
from prism.answering.programs.formatting import rounded, written
from prism.answering.programs.operation import Operation, Program, Result
from prism.answering.programs.periods import asked
from prism.types.reading import Reading


class PerShare(Operation):
    """amount / shares in one period."""

    name = "per_share"
    roles = ("amount", "shares")
    phrasings = ("what is X per share in P", "X divided by the number of shares", "X per share for P",
                 "how much X for each share outstanding")
    cues = ("per share", "per-share", "each share", "a share", "per common share")
    formula = "amount / shares"

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        shares = [r for r in evidence.rows if "share" in r.label.lower() and "per share" not in r.label.lower()]
        for row in rows(reading, evidence):
            if row in shares:
                continue
            for figure in asked(reading, row):
                for share_row in shares:
                    base = next((f for f in share_row.figures if f.table == figure.table and f.col == figure.col),
                                None)
                    if base is not None:
                        yield Program(self.name, (figure, base))

    def run(self, program: Program, reading: Reading) -> Result:
        amount, shares = program.operands
        if shares.value == 0:
            raise ZeroDivisionError("no shares")
        raw = amount.value / shares.value
        shown = rounded(raw, 2)
        text = written(shown, "per_unit", amount)
        return Result(raw, shown, "per_unit", text, work=f"{amount.printed} / {shares.printed} = {text}")

    def subject(self, program: Program) -> str:
        amount = program.operands[0]
        return f"{amount.name} per share" + (f", {amount.column}" if amount.column else "")


OPERATION = PerShare()
