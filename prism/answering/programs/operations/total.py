"""``sum``: several figures added: a figure over periods ("total for 2018 and 2019") or several items ("A and B
combined").

Unit rule: the operands' unit, at their decimals.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from prism.answering.programs.binding import item_sets, series_sets
from prism.answering.programs.evidence import Evidence
from prism.answering.programs.formatting import common_scale, rounded, written
from prism.answering.programs.groups import group_columns, unnamed_part
from prism.answering.programs.operation import Operation, Program, Result, shown_decimals
from prism.index.tokenizer import tokenize
from prism.types.reading import Reading


class Total(Operation):
    """v1 + … + vn over a row's periods, or over several items in one period."""

    name = "sum"
    roles = ("values*",)
    phrasings = ("what is the total X for P and P", "what is the sum of X and Y", "X and Y combined",
                 "add X and Y", "what were X and Y together", "combined X over P to P", "X plus Y in P",
                 "aggregate X across P and P", "what is the total of X and Y in P", "what were X and Y in total in P",
                 "how much did X and Y add up to in P", "sum X over P and P")
    cues = ("sum", "total of", "combined", "together", "altogether", "in total", "aggregate", "add", "plus",
            "cumulative", "sum of", "combined total", "total", "in all", "all together")
    formula = "sum of the values"
    same_unit = True

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        # "total" names the row ("the total current assets in 2018 and 2019") unless another word asks for the sum,
        # or "total" itself does ("the total of current assets in 2018 and 2019": Reading.names_total is false)
        named_total = reading.names_total and not (_SUM_TOKENS & reading.tokens)
        for figures in series_sets(reading, evidence):
            if named_total and figures[0].total and _TOTAL_TOKENS & frozenset(tokenize(figures[0].label)):
                continue  # "the total current assets in 2018 and 2019": the row's name, not a sum of its years
            yield Program(self.name, figures)
        groups = list(group_columns(reading, evidence))
        for figures in item_sets(reading, evidence):
            if not unnamed_part(figures, groups, reading):
                yield Program(self.name, figures)
        for group, figures in groups:
            yield Program(self.name, figures, (("over", "items"), ("group", group)))

    def run(self, program: Program, reading: Reading) -> Result:
        values, unit = common_scale(program.operands)
        raw = sum(values, Decimal(0))
        shown = rounded(raw, shown_decimals(program.operands))
        first = program.operands[0]
        kind = first.kind if len({o.kind for o in program.operands}) == 1 else "number"
        text = written(shown, kind, first, unit)
        return Result(raw, shown, kind, text, work=f"{' + '.join(o.printed for o in program.operands)} = {text}")

    def subject(self, program: Program) -> str:
        first = program.operands[0]
        if len({o.series for o in program.operands}) == 1:  # one row's periods; a Total row's: "sum of Total …"
            lead = "sum of" if first.name.lower().startswith("total") else "total"
            return f"{lead} {first.name}, {' and '.join(o.column for o in program.operands)}"
        return f"sum of {', '.join(o.name for o in program.operands)}" + (f", {first.column}" if first.column else "")


_TOTAL_TOKENS = frozenset(tokenize("total"))
_SUM_TOKENS = frozenset(tokenize(" ".join(c for c in Total.cues if "total" not in c))) - _TOTAL_TOKENS
"""The index tokens of the words asking for a sum besides "total" ("sum", "combined", "together" …)."""

OPERATION = Total()
