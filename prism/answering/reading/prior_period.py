"""The period before the one a question names, when it compares with it without naming it ("YoY", "QoQ", "from
the prior year"): the reader's periods with that one added."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from prism.types import PeriodMention
from prism.vocabulary import question_words

__all__ = ["with_prior_period"]

_PRIOR = re.compile(r"\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(
    question_words.PRIOR_PERIOD_PHRASES, key=len, reverse=True)) + r")\b", re.IGNORECASE)


def with_prior_period(text: str, periods: Sequence[PeriodMention]) -> tuple[PeriodMention, ...]:
    """``periods`` with the period before the one named, when the question names one fiscal year, year, quarter or
    half and compares it with the period before without naming it ("YoY", "from the prior year", "QoQ":
    :data:`prism.vocabulary.question_words.PRIOR_PERIOD_PHRASES`); the period before is written first and spans the
    named one's text. Otherwise ``periods`` unchanged."""
    m = _PRIOR.search(text)
    if m is None or len(periods) != 1 or periods[0].kind not in ("FY", "year", "Q", "H"):
        return tuple(periods)
    p = periods[0]
    step = question_words.PRIOR_PERIOD_PHRASES[" ".join(m.group(0).lower().split())]
    year, part = p.year - 1, p.part
    if step == "quarter":
        if p.kind != "Q" or p.part is None:
            return tuple(periods)
        year, part = (p.year, p.part - 1) if p.part > 1 else (p.year - 1, 4)
    before = replace(p, text=_period_text(p.kind, year, part), year=year, part=part)
    return (before, p)


def _period_text(kind: str, year: int, part: int | None) -> str:
    """A period written the way the reader shows it: ``"2023"``, ``"FY2023"``, ``"Q1 FY2025"``, ``"H1 FY2025"``."""
    return {"year": f"{year}", "FY": f"FY{year}", "Q": f"Q{part} FY{year}", "H": f"H{part} FY{year}"}[kind]
