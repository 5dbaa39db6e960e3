"""Fiscal period codes: the one vocabulary that chunk tokens (:mod:`prism.index.tokenizer`) and question
understanding (:mod:`prism.retrieval.periods`) share.

A period code is a compact way of writing a fiscal year, quarter or half: "FY24", "FY2024", "FY 2023-24", "2023-24"
(an Indian fiscal year without "FY"), "Q3 FY24", "Q3FY24", "Q3 FY2024", "3QFY24", "3Q24", "Q3 2024", "2022 Q2",
"H1 FY25". However it is spaced or abbreviated, one code has one canonical form: ``("FY", None, 2024)``, ``("Q", 3,
2024)``, ``("H", 1, 2025)``, written as tokens ``fy2024``, ``q3fy2024``, ``h1fy2025``. Two-digit years are 20YY below
70 and 19YY from 70 ("FY24" → 2024, "FY98" → 1998). A span "FY 2023-24" (or "FY23-24", "2023-24") names the one
fiscal year that ends in 2024, and a quarter or half of it ("Q3 FY 2023-24") is of that year; when its two years are
not consecutive ("FY2018-20") each year is read on its own.

The pattern runs on lower-cased text (the tokenizer lower-cases first; :data:`PERIOD_CODE_RE` is compiled
case-insensitive for other callers). Quarters and halves need either "FY" or a four-digit year (19xx or 20xx) next
to them, so "Q3 24 branches" and "Q1 1234" are not periods; an ISO date ("2024-03-31") is no "2024-03".
"""

from __future__ import annotations

import logging
from typing import Literal

import regex

logger = logging.getLogger(__name__)

__all__ = ["PERIOD_CODE_PATTERN", "PERIOD_CODE_RE", "PeriodCode", "code_of", "code_tokens", "full_year"]

PeriodCode = tuple[Literal["FY", "Q", "H"], int | None, int]
"""``(kind, part, fiscal_year)``: kind ``"FY"`` (part ``None``), ``"Q"`` (part 1-4) or ``"H"`` (part 1-2); the
fiscal year as four digits, named by the calendar year it ends in (the profile convention)."""

_Y = r"(?:(?:19|20)[0-9]{2}|[0-9]{2})"
_Y4 = r"(?:19|20)[0-9]{2}"
_FY = rf"fy\s?'?{_Y}"
PERIOD_CODE_PATTERN = rf"""
    (?<![\p{{L}}\p{{N}}.,/])(?:
      q(?P<pc_q>[1-4])\s?(?:fy\s?'?(?P<pc_qfy>{_Y})(?:\s?[-–]\s?(?P<pc_qfy2>{_Y})(?![0-9]))?|(?P<pc_qy>{_Y4}))
     |(?P<pc_nq>[1-4])q\s?(?:fy\s?'?)?(?P<pc_nqy>{_Y})
     |(?P<pc_yq>{_Y4})\s?q(?P<pc_yqq>[1-4])
     |h(?P<pc_h>[12])\s?(?:fy\s?'?(?P<pc_hfy>{_Y})(?:\s?[-–]\s?(?P<pc_hfy2>{_Y})(?![0-9]))?|(?P<pc_hy>{_Y4}))
     |fy\s?'?(?P<pc_fy>{_Y})(?:\s?[-–]\s?(?P<pc_fy2>{_Y})(?![0-9]))?
     |(?P<pc_sy>{_Y4})\s?[-–]\s?(?P<pc_sy2>[0-9]{{2}})(?![0-9]|[-–/.][0-9])
    )(?![\p{{L}}\p{{N}}])
"""
"""The period code alternatives (verbose ``regex`` syntax, group names prefixed ``pc_``), for embedding in a larger
pattern; see :func:`code_of` for how a match is read."""

PERIOD_CODE_RE = regex.compile(PERIOD_CODE_PATTERN, regex.VERBOSE | regex.IGNORECASE | regex.V1)
""":data:`PERIOD_CODE_PATTERN` compiled on its own (case-insensitive)."""


def full_year(digits: str) -> int:
    """A written year as four digits: ``"24"`` → 2024, ``"98"`` → 1998 (two digits below 70 are 20YY),
    ``"2024"`` → 2024."""
    year = int(digits)
    if len(digits) == 2:
        return 2000 + year if year < 70 else 1900 + year
    return year


def code_of(match: regex.Match[str]) -> list[PeriodCode]:
    """The period code(s) one match of :data:`PERIOD_CODE_PATTERN` names.

    Args:
        match: a match of :data:`PERIOD_CODE_RE`, or of a larger pattern that embeds :data:`PERIOD_CODE_PATTERN`.

    Returns:
        One code; two (``("FY", None, 2018)``, ``("FY", None, 2020)``) for a span such as "FY2018-20" whose years
        are not consecutive, which is two years written together, not one fiscal year.
    """
    g = match.group
    if g("pc_q"):
        return [("Q", int(g("pc_q")), _split_year(g("pc_qfy"), g("pc_qfy2")) if g("pc_qfy") else int(g("pc_qy")))]
    if g("pc_nq"):
        return [("Q", int(g("pc_nq")), full_year(g("pc_nqy")))]
    if g("pc_yq"):
        return [("Q", int(g("pc_yqq")), int(g("pc_yq")))]
    if g("pc_h"):
        return [("H", int(g("pc_h")), _split_year(g("pc_hfy"), g("pc_hfy2")) if g("pc_hfy") else int(g("pc_hy")))]
    if g("pc_sy"):
        start, end = int(g("pc_sy")), _split_year(g("pc_sy"), g("pc_sy2"))
        return [("FY", None, end)] if end != start else [("FY", None, start), ("FY", None, full_year(g("pc_sy2")))]
    first = full_year(g("pc_fy"))
    if not g("pc_fy2"):
        return [("FY", None, first)]
    second = _split_year(g("pc_fy"), g("pc_fy2"))
    if second == first + 1:
        return [("FY", None, second)]  # FY 2023-24: the fiscal year that ends in 2024
    return [("FY", None, first), ("FY", None, full_year(g("pc_fy2")))]


def _split_year(first: str, second: str | None) -> int:
    """The fiscal year "2023-24" names (2024, when its years are consecutive), else the first year ("2023")."""
    start = full_year(first)
    if not second:
        return start
    end = int(second) if len(second) == 4 else start // 100 * 100 + int(second)
    return end if end == start + 1 else start


def code_tokens(code: PeriodCode) -> list[str]:
    """The BM25 tokens of one code: ``("FY", None, 2024)`` → ``["fy2024", "2024"]`` (the bare year too, so "FY2024"
    in a question meets a statement's "2024" column); ``("Q", 3, 2024)`` → ``["q3fy2024", "q3", "fy2024"]``;
    ``("H", 1, 2025)`` → ``["h1fy2025", "h1", "fy2025"]``."""
    kind, part, year = code
    if kind == "FY":
        return [f"fy{year}", str(year)]
    head = f"{kind.lower()}{part}"
    return [f"{head}fy{year}", head, f"fy{year}"]
