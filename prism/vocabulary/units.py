"""Scale units of financial figures: the house words, their scales, and every way documents write them.

The house words (the units every table, profile and answer names) are ``thousands``, ``millions``, ``billions``,
``lakh`` and ``crore`` — the units a table, a statement header or a document profile states (:data:`TABLE_UNITS`);
``trillions`` is only ever read in running text ("$1.2 trillion"). A unit is written as a word in the singular or plural
("million", "millions"), the Indian ones also as "lakhs", "lac", "lacs", "crores", and abbreviated ("mn", "bn", "tn",
"cr", a column note "000s"); a letter attached to a number ("$5.2B", "₹5cr") is one of :data:`LETTERS`. "Lakh crore"
(1e12) is an Indian compound: ₹2.52 lakh crore = ₹2,52,000 crore.

Sources: the Indian numbering system (1 lakh = 1,00,000 = 1e5; 1 crore = 1,00,00,000 = 1e7), Reserve Bank of India
publications ("₹ lakh crore"), and the unit headers of SEC filings ("(In millions, except per share amounts)",
Regulation S-X presentation) and Indian financial results ("Rs. in crore", "₹ crore unless stated").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Unit:
    """One scale unit.

    Attributes:
        name: the house word (``"thousands"``, ``"lakh"``), as stored in chunk metadata and profiles.
        spoken: the word written after a figure (``"thousand"``: "$5,213 thousand").
        scale: what one of it is worth, exactly (``Decimal(10) ** 3``).
        words: its written words, lower case (singular and plural forms).
        abbreviations: its written abbreviations, lower case ("mn", "cr", "000s"), without a final stop.
    """

    name: str
    spoken: str
    scale: Decimal
    words: tuple[str, ...]
    abbreviations: tuple[str, ...] = ()


UNITS: tuple[Unit, ...] = (
    Unit("thousands", "thousand", Decimal(10) ** 3, ("thousand", "thousands"), ("000s", "000's")),
    Unit("millions", "million", Decimal(10) ** 6, ("million", "millions"), ("mn",)),
    Unit("billions", "billion", Decimal(10) ** 9, ("billion", "billions"), ("bn",)),
    Unit("trillions", "trillion", Decimal(10) ** 12, ("trillion", "trillions"), ("tn",)),
    Unit("lakh", "lakh", Decimal(10) ** 5, ("lakh", "lakhs", "lac", "lacs")),
    Unit("crore", "crore", Decimal(10) ** 7, ("crore", "crores"), ("cr",)),
)
"""Every scale unit, in the order of the house words."""

BY_NAME: dict[str, Unit] = {u.name: u for u in UNITS}
"""House word → unit."""

TABLE_UNITS: tuple[str, ...] = ("thousands", "millions", "billions", "lakh", "crore")
"""The units a table, a statement header or a document profile states (house words; no "trillions")."""

INDIAN_UNITS: tuple[str, ...] = ("lakh", "crore")
"""The units of the Indian numbering system (house words)."""

LAKH_CRORE = "lakh crore"
"""The Indian compound unit (1 lakh crore = 1e12), a unit of its own in a table header ("₹ lakh crore")."""

SCALE: dict[str, Decimal] = {name: BY_NAME[name].scale for name in TABLE_UNITS}
"""Exact scale of each table unit (house word → ``Decimal``): ``SCALE["crore"] == Decimal(10) ** 7``."""

LAKH_CRORE_SCALE: Decimal = BY_NAME["lakh"].scale * BY_NAME["crore"].scale
"""The scale of :data:`LAKH_CRORE`, 1e12."""

SPOKEN: dict[str, str] = {name: BY_NAME[name].spoken for name in TABLE_UNITS}
"""Table unit → the word written after a figure: ``{"thousands": "thousand", …, "crore": "crore"}``."""

CANONICAL: dict[str, str] = {form: u.name for u in UNITS for form in (*u.words, *u.abbreviations)}
"""Every written form, lower case → its house word: ``"mn"`` → ``"millions"``, ``"lacs"`` → ``"lakh"``,
``"000s"`` → ``"thousands"``."""

SPOKEN_OF: dict[str, str] = {form: u.spoken for u in UNITS for form in (*u.words, *u.abbreviations)}
"""Every written form, lower case → its spoken word: ``"lacs"`` → ``"lakh"``, ``"bn"`` → ``"billion"``."""

LETTERS: dict[str, str] = {"k": "thousand", "m": "million", "b": "billion"}
"""A letter written against a number ("$5.2B", "5k") → the spoken word of its unit."""


def _alternation(forms: tuple[str, ...] | list[str]) -> str:
    """A regex alternation of literal forms, longest first (so "thousands" is tried before "thousand")."""
    return "|".join(re.escape(f) for f in sorted(dict.fromkeys(forms), key=lambda f: (-len(f), f)))


def words_re(names: tuple[str, ...] = TABLE_UNITS, *, spoken_only: bool = False, plural_only: bool = False) -> str:
    """An alternation (no group, no anchors; use with ``re.IGNORECASE``) of the written words of units ``names``.

    Args:
        names: house words of :data:`UNITS`.
        spoken_only: only the spoken word of each unit ("crore", not "crores", "lacs").
        plural_only: only the plural of each unit's spoken word ("millions").

    Raises:
        KeyError: a name that is not a house word.
    """
    if spoken_only:
        return _alternation([BY_NAME[n].spoken for n in names])
    if plural_only:
        return _alternation([BY_NAME[n].spoken + "s" for n in names])
    return _alternation([w for n in names for w in BY_NAME[n].words])


def abbreviations_re(names: tuple[str, ...] = TABLE_UNITS, *, column_notes: bool = False) -> str:
    """An alternation of the abbreviations of units ``names`` ("mn", "bn", "cr"); ``column_notes`` adds the
    column-note forms "000s" / "000's".

    Raises:
        KeyError: a name that is not a house word.
    """
    return _alternation([a for n in names for a in BY_NAME[n].abbreviations if column_notes or not a[0].isdigit()])


WORD_RE = words_re()
"""The words of the table units: ``thousands?|millions?|billions?|lakhs?|lacs?|crores?`` (longest first)."""

ABBREVIATION_RE = abbreviations_re()
"""The abbreviations of the table units: ``mn|bn|cr``."""

SPOKEN_RE = words_re(spoken_only=True)
"""The spoken words of the table units: ``thousand|million|billion|lakh|crore``."""

FIGURE_WORD_RE = f"{words_re(tuple(BY_NAME))}|{abbreviations_re(tuple(BY_NAME))}"
"""Every word and abbreviation of every unit, trillions included: the scale words a figure in text carries."""

HEADER_WORD_RE = f"{words_re(('thousands', 'millions', 'billions'), plural_only=True)}|{words_re(INDIAN_UNITS)}"
"""The unit words a statement header counts in: a western unit in the plural ("(In millions)"; the singular is more
often a count: "(million barrels)"), an Indian one in any form ("(₹ in lakh)", "(Rs. in Crores)")."""

LAKH_CRORE_RE = rf"(?:{words_re(('lakh',))})\s+(?:{words_re(('crore',))})"
"""The compound "lakh crore" in any of its forms ("lakhs crores", "lac crore")."""

CRORE_RE = words_re(("crore",))
"""The words of crore alone (a "lakh" that a "crore" follows is the compound, not lakh)."""

EXCEPTIONS_RE = r"unless|except"
"""The words that qualify a unit statement: "(In millions, except per share amounts)", "₹ crore unless stated"."""

PER_SHARE_RE = r"except\s+per\s+share"
"""A unit statement's exception for per-share figures ("except per share data")."""


_COLUMN_UNITS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("thousands", re.compile(r"(?:[$€£¥₹(]\s?|[’'‘])000(?:[’']?s)?(?=$|[\s)])|\b(?:thousands?|000s)\b",
                             re.IGNORECASE)),
    ("millions", re.compile(r"(?:[$€£¥₹]|\b(?:rmb|usd|eur|gbp|inr|aud|cad|sgd|hkd))\s?[’']?(?:m|mn|million|millions)\b"
                            r"|\b(?:millions?|mn)\b", re.IGNORECASE)),
    ("billions", re.compile(r"(?:[$€£¥₹]|\b(?:rmb|usd|eur|gbp|inr))\s?[’']?(?:bn|b|billion|billions)\b"
                            r"|\b(?:billions?|bn)\b", re.IGNORECASE)),
    ("crore", re.compile(rf"\b(?:{CRORE_RE})\b", re.IGNORECASE)),
    ("lakh", re.compile(rf"\b(?:{words_re(('lakh',))})\b(?!\s+(?:{CRORE_RE}))", re.IGNORECASE)),
)


def column_unit(header: str) -> str | None:
    """The scale unit a table's column header states for its cells (house word), or ``None``: the column notes of
    annual reports — ``"2019 $’000"``, ``"RMB'000"``, ``"$000s"`` → ``thousands``; ``"2019 €m"``, ``"RMB’Million"``,
    ``"US$ mn"`` → ``millions``; ``"£bn"`` → ``billions``; ``"₹ crore"`` → ``crore``; ``"(₹ lakh)"`` → ``lakh``. A
    lone "000" (a figure) is no note: it needs a currency sign, an apostrophe or a bracket before it."""
    for name, pattern in _COLUMN_UNITS:
        if pattern.search(header):
            return name
    return None
