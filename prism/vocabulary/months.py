"""Month names: full names, abbreviations (three letters, and "Sept"), and their numbers.

Source: the Gregorian calendar's English month names (as :data:`calendar.month_name` gives them) and their common
abbreviations in financial documents ("Sept. 30, 2024", "31-Mar-2024").
"""

from __future__ import annotations

NAMES: tuple[str, ...] = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
                          "october", "november", "december")
"""Full month names, lower case, January first."""

ABBREVIATIONS: dict[str, int] = {**{name[:3]: i for i, name in enumerate(NAMES, start=1)}, "sept": 9}
"""Abbreviations, lower case, without a stop → month number 1–12 ("may" is its own abbreviation)."""

NUMBER: dict[str, int] = {**ABBREVIATIONS, **{name: i for i, name in enumerate(NAMES, start=1)}}
"""Every name and abbreviation, lower case → month number 1–12."""

ANY_RE = "|".join(sorted(NUMBER, key=lambda m: (-len(m), m)))
"""An alternation of every name and abbreviation, longest first (``september|…|sept|…|sep``); lower case, use
with ``re.IGNORECASE``."""

NAME_RE = "|".join(name.capitalize() for name in NAMES)
"""An alternation of the full names, capitalised (``January|February|…``); use with ``re.IGNORECASE`` for any
case."""
