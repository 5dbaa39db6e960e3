"""``max``: the period or item with the highest figure ("When did revenue peak?", "Which was higher, A or B?")."""

from __future__ import annotations

from prism.answering.programs.extremes import Extreme


class Maximum(Extreme):
    """argmax over one row's periods, one column's items, or two named items."""

    name = "max"
    roles = ("values*",)
    phrasings = ("in which year was X the highest", "when did X peak", "which was higher X or Y",
                 "which X had the largest Y in P", "which year had the most X", "what was the maximum X",
                 "which is bigger X or Y", "in which period was X greater", "which grew faster X or Y")
    cues = ("highest", "largest", "greatest", "biggest", "most", "maximum", "peak", "peaked", "higher", "larger",
            "greater", "bigger", "top", "best", "max", "record high", "more", "its high", "which is higher",
            "which was higher", "which is larger", "which was larger", "which is greater", "which was greater",
            "faster", "fastest")
    formula = "the largest value"
    same_unit = True
    intent = "which"

    largest = True
    word = "highest"


OPERATION = Maximum()
