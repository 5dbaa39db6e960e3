"""Officer titles and their abbreviations: a question asks for the "CEO", a filing signs "Chief Executive Officer".

:data:`OFFICER_TITLES` maps each abbreviation (upper case, as questions write it) to the title as filings and
circulars spell it. The answerability gate reads an abbreviation as found when a passage spells the title out, and
the evidence check looks for the spelled-out title's words (otherwise "who is its CEO?" is declined although
"Reed Hastings, Chief Executive Officer" is on three pages of Netflix's 10-K). :mod:`prism.vocabulary.abbreviations`
holds them with the finance abbreviations ("PAT", "NPA", "bps").

Source: the officer titles of SEC Form 10-K's signature page and Item 10 (17 CFR 229.401, "executive officers"),
Regulation S-K Item 402 ("principal executive officer", "principal financial officer"), and the key managerial
personnel of section 2(51) of the Companies Act, 2013 ("managing director", "company secretary").
"""

from __future__ import annotations

OFFICER_TITLES: dict[str, str] = {
    "CEO": "chief executive officer",
    "CFO": "chief financial officer",
    "COO": "chief operating officer",
    "CTO": "chief technology officer",
    "CRO": "chief risk officer",
    "CIO": "chief information officer",
    "CCO": "chief compliance officer",
    "CAO": "chief accounting officer",
    "MD": "managing director",
    "CS": "company secretary",
}
"""Abbreviation → the title spelled out (lower case, words separated by one space)."""


def spelled_out(word: str) -> str | None:
    """The title ``word`` abbreviates ("CEO", "CEOs", "CEO's" → "chief executive officer"), or ``None``."""
    base = word.removesuffix("'s").removesuffix("’s")
    base = base[:-1] if base.endswith("s") and base[:-1].isupper() else base
    return OFFICER_TITLES.get(base)
