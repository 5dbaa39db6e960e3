"""How often a figure applies, as one index term however it is worded: "daily", "per day" and "a day's" limit meet.

A circular's table says "Per day (aggregate)" or "per annum" where an analyst asks for the "daily limit" or the
"annual fee"; stemming joins "monthly" and "month" but keeps "daily" apart from "day" and "annual" from "year", so BM25
could not match them. :func:`frequency_nouns` gives the noun of each frequency a text names as an adjective
(:data:`~prism.vocabulary.question_words.FREQUENCIES`: daily, weekly, monthly, quarterly, annual, annually, yearly) or
as "per annum" / "p.a."; :func:`prism.index.tokenizer.tokenize` adds its term to the text's own when they lack it, for
chunks and queries alike, as :mod:`prism.index.statements` does for statement names.
"""

from __future__ import annotations

import re

from prism.vocabulary import question_words

__all__ = ["frequency_nouns"]

_FREQUENCY = re.compile(
    r"\b(?:(?P<adjective>" + "|".join(question_words.FREQUENCIES) + r")|per\s+annum|p\.\s?a)\b\.?(?![\w-])",
    re.IGNORECASE,
)


def frequency_nouns(text: str) -> list[str]:
    """The noun of each frequency ``text`` names, once each, in order of first mention: ``"the daily limit"`` →
    ``["day"]``; ``"₹499 per annum"``, ``"12% p.a."``, ``"annual fee"`` → ``["year"]``; ``"monthly"`` →
    ``["month"]``; ``"a day"``, ``"days"`` and ``"per day"`` name no adjective's frequency (``[]``: the text holds the
    noun itself)."""
    out: list[str] = []
    for m in _FREQUENCY.finditer(text):
        adjective = m.group("adjective")
        noun = question_words.FREQUENCIES[adjective.lower()][0] if adjective else "year"
        if noun not in out:
            out.append(noun)
    return out
