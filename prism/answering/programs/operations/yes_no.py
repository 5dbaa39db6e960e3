"""``yes_no``: Yes or No over a condition a figure decides — a threshold the question states ("Is the UPI Lite limit
above ₹1,000?") or a direction of change ("Did revenue grow year over year?"). The answer opens with Yes or No and
then states the figure (or the two figures) that decide it; "Did X grow in 2025?" compares 2025 with the year
before. A yes/no question about a rule that no figure decides is answered by the rule's sentence
(:mod:`prism.answering.extractive`)."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain

from prism.answering.programs.binding import into_year_pairs, rows, series_pairs
from prism.answering.programs.evidence import Evidence
from prism.answering.programs.formatting import written
from prism.answering.programs.groups import comparable, meets
from prism.answering.programs.operation import Operation, Program, Result
from prism.answering.programs.periods import asked
from prism.types.reading import Reading


class YesNo(Operation):
    """Yes / No: a figure against the question's threshold, or a change's direction against the one asked."""

    name = "yes_no"
    roles = ("figures*",)
    phrasings = ("is X above N", "does X exceed N", "is X less than N", "did X grow from P to P",
                 "did X increase year over year", "was X higher in P than in P", "has X declined",
                 "is X at least N")
    cues = ("is", "does", "did", "was", "were", "has", "have", "can", "exceed", "above", "below", "at least",
            "at most", "more than", "less than", "grow", "increase", "decline", "fall", "rise")
    formula = "the condition, tested on the figure"
    intent = "yes_no"
    in_time_order = True

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        if reading.comparison is not None:
            for row in rows(reading, evidence, limit=10):
                for figure in asked(reading, row):
                    if comparable(reading.comparison, figure):
                        yield Program(self.name, (figure,), (("test", "threshold"),))
        direction = "rise" if "rise" in reading.flags else "fall" if "fall" in reading.flags else None
        if direction is not None:  # between the periods asked, or into the one year asked from the year before
            for a, b in chain(series_pairs(reading, evidence), into_year_pairs(reading, evidence, named_apart=True)):
                if a.when < b.when:
                    yield Program(self.name, (a, b), (("test", direction),))

    def run(self, program: Program, reading: Reading) -> Result:
        test = program.option("test")
        if test == "threshold":
            figure = program.operands[0]
            if reading.comparison is None:
                raise ArithmeticError("no threshold")
            yes = meets(reading.comparison, figure)
            shown = written(figure.value, figure.kind, figure)
            relation = reading.comparison.text
            return Result(None, None, "yes_no", "Yes" if yes else "No",
                          f"({shown}; asked: {relation})", work=f"{figure.printed} vs {relation}")
        a, b = program.operands
        rose = b.value > a.value
        yes = rose if test == "rise" else b.value < a.value
        moved = "rose" if rose else "fell" if b.value < a.value else "was unchanged"
        aside = (f"({moved} from {written(a.value, a.kind, a)} in {a.column} to "
                 f"{written(b.value, b.kind, b)} in {b.column})")
        return Result(None, None, "yes_no", "Yes" if yes else "No", aside, work=f"{b.printed} vs {a.printed}")

    def subject(self, program: Program) -> str:
        first = program.operands[0]
        return first.name

    def render(self, program: Program) -> str:
        """A direction's test as the question that asks it ("did Net income increase from 2023 to 2024"); a
        threshold's as the first phrasing."""
        test = program.option("test")
        if test not in ("rise", "fall"):
            return super().render(program)
        a, b = program.operands
        return f"did {a.label} {'increase' if test == 'rise' else 'decrease'} from {a.column} to {b.column}"


OPERATION = YesNo()
