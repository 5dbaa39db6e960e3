"""``min``: the period or item with the lowest figure ("In which year was revenue lowest?", "Which was lower?")."""

from __future__ import annotations

from prism.answering.programs.extremes import Extreme


class Minimum(Extreme):
    """argmin over one row's periods, one column's items, or two named items."""

    name = "min"
    roles = ("values*",)
    phrasings = ("in which year was X the lowest", "when was X at its lowest", "which was lower X or Y",
                 "which X had the smallest Y in P", "which year had the least X", "what was the minimum X",
                 "which is smaller X or Y", "in which period was X less", "which grew slower X or Y")
    cues = ("lowest", "smallest", "least", "fewest", "minimum", "trough", "lower", "smaller", "fewer", "bottom",
            "worst", "min", "record low", "less", "its low", "which is lower",
            "which was lower", "which is smaller", "which was smaller", "slower", "slowest")
    formula = "the smallest value"
    same_unit = True
    intent = "which"

    largest = False
    word = "lowest"


OPERATION = Minimum()
