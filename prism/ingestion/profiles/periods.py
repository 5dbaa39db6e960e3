"""Fiscal periods a company document names in words: the quarter and fiscal year of a call's or a release's title,
the quarter's end date, and the quarter a statement's year-to-date columns imply.

Shared by :mod:`~prism.ingestion.profiles.sec` (10-Q), :mod:`~prism.ingestion.profiles.other` (calls) and
:mod:`~prism.ingestion.profiles.release` (earnings releases). A named quarter is written many ways: "Q2 FY25",
"Q2 FY2025", "Q2 2024", "Q2'25", "2Q25", "second quarter of fiscal 2025", "Second-Quarter 2024", "fiscal 2025
second quarter", "Fourth Quarter and Fiscal 2025", "Q2 FY2024-25" (an Indian year named by its two calendar years is
the one it ends in: 2025). A full year alone: "Full Year 2024", "Fiscal 2024", "FY24", "FY 2023-24".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta

from prism.ingestion.profiles.text import MONTH_AT, Pages, add_months_end, first_date_after, month_number, source
from prism.types import ProfileSource

_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_Y4 = r"((?:19|20)\d{2})(?:\s*[-–/]\s*((?:19|20)?\d{2}))?(?!\d)"
"""A four-digit year, optionally followed by the year it runs into ("2024-25", "2024-2025"): groups 1 and 2."""
_Y4_OR_Y2 = r"(?:((?:19|20)\d{2})(?:\s*[-–/]\s*((?:19|20)?\d{2}))?|(\d{2}))(?!\d)"
"""A year after "FY" or an apostrophe: four digits (and the year it runs into), or two: groups 3, 4 and 5 of the
patterns below (each has groups 1 and 2 first)."""
_QUARTER = re.compile(
    r"\bQ([1-4])(?=FY|['’]|\b)"
    r"|\b([1-4])Q\s*(?:FY\s*)?['’]?((?:19|20)\d{2}|\d{2})(?!\d)"
    r"|\b(first|second|third|fourth)[\s-]+quarter\b",
    re.IGNORECASE,
)
"""A quarter: "Q2" (its year read around it), "2Q25" (with its year), "second quarter"."""
_YEAR_AFTER = re.compile(
    rf"\s*[-–]?\s*(?:of\s+)?(?:(?:the\s+)?(?:fiscal|financial)\s+(?:year\s+)?)?{_Y4}"
    rf"|\s*[-–]?\s*(?:of\s+)?(?:FY\s*['’]?|['’]){_Y4_OR_Y2}",
    re.IGNORECASE,
)
"""The year right after a quarter: " 2024", " of fiscal 2025", " FY25", " FY2024-25", "'25"."""
_YEAR_BEFORE = re.compile(
    rf"(?:(?:(?:fiscal|financial)\s+(?:year\s+)?)?{_Y4}|FY\s*['’]?{_Y4_OR_Y2})\s*[-–]?\s*$", re.IGNORECASE
)
"""The year right before a quarter: "fiscal 2025 ", "2024 ", "FY25 "."""
_FULL_YEAR = re.compile(
    rf"\b(?:full[\s-]+year|(?:fiscal|financial)(?:\s+year)?|annual|year[\s-]end(?:ed)?)\s+(?:of\s+)?{_Y4}"
    rf"|\bFY\s*['’]?{_Y4_OR_Y2}",
    re.IGNORECASE,
)
"""A full year: "Full Year 2024", "fiscal 2025", "Fiscal Year 2024", "FY24", "FY 2023-24"."""
_JOINED_YEAR = re.compile(r"\s*(?:and|&|,)\s*(?:the\s+)?", re.IGNORECASE)
"""What joins a quarter to its full year in a headline: "Fourth Quarter and Fiscal 2025", "Q4 & FY24"."""
_QUARTER_END = re.compile(
    r"\b(?:quarter|three\s+months|(?:twelve|thirteen|fourteen|sixteen|1[2346])[\s-]+weeks?)\b[^.;]{0,60}?"
    r"\b(?:ended|ending)\b",
    re.IGNORECASE,
)
"""Words a quarter's end date follows: "quarter ended", "three months ended", "13-week second quarter ended",
"quarter and half year ended", "second quarter of fiscal 2025, which ended"."""
_YTD_SPANS = (
    (3, r"\b(?:nine|9)\s+months\s+ended|\b(?:thirty[-\s]nine|39|thirty[-\s]six|36|forty|40)\s+weeks\s+ended"),
    (2, r"\b(?:six|6)\s+months\s+ended|\b(?:twenty[-\s]six|26|twenty[-\s]four|24|twenty[-\s]eight|28)\s+weeks\s+ended"
        r"|\bhalf[\s-]+year\s+ended"),
    (4, r"\b(?:twelve|12)\s+months\s+ended|\b(?:fiscal\s+)?years?\s+ended|\b(?:fifty[-\s]two|52|fifty[-\s]three|53)\s+"
        r"weeks\s+ended"),
)
"""Year-to-date column words → the fiscal quarter they end: nine months / 39 or 36 or 40 weeks → 3, six months /
26 or 24 or 28 weeks / half year → 2, twelve months / year / 52 or 53 weeks → 4."""
YTD_QUARTERS = {quarter: re.compile(pattern, re.IGNORECASE) for quarter, pattern in _YTD_SPANS}
"""Quarter → the pattern of its year-to-date columns (:data:`_YTD_SPANS`)."""
MAX_QUARTER_AGE = timedelta(days=200)
"""A quarter's results are released within this long after the quarter ends (a quarter-end date older than the
release date by more is a comparative period)."""


@dataclass(frozen=True)
class NamedPeriod:
    """A period a document names: ``quarter`` 1–4 (``None`` for a full year) and the fiscal ``year`` as named
    (``None`` when the text names the quarter without its year), with where it was read."""

    quarter: int | None
    year: int | None
    source: ProfileSource


def _year_of(m: re.Match[str]) -> int | None:
    """The fiscal year a match of :data:`_YEAR_AFTER`, :data:`_YEAR_BEFORE` or :data:`_FULL_YEAR` names:
    "2024-25" → 2025 (the year it ends in), "2024" → 2024, "25" → 2025."""
    g = m.groups()
    four, runs_into, two = (g[0], g[1], None) if g[0] else (g[2], g[3], g[4])
    if four and runs_into and int(runs_into[-2:]) == (int(four) + 1) % 100:
        return int(four) + 1
    if four:
        return int(four)
    return 2000 + int(two) if two else None


def _year_around(text: str, start: int, end: int) -> int | None:
    """The year a quarter mention at ``text[start:end]`` is of: right after it, right before it, or the full year
    joined to it ("Fourth Quarter and Fiscal 2025", "Q4 & FY24")."""
    after = _YEAR_AFTER.match(text, end)
    if after:
        return _year_of(after)
    before = _YEAR_BEFORE.search(text[max(0, start - 24):start])
    if before:
        return _year_of(before)
    joined = _JOINED_YEAR.match(text, end)
    full = _FULL_YEAR.match(text, joined.end()) if joined else None
    return _year_of(full) if full else None


def named_period(number: int | None, text: str, start: int = 0, end: int | None = None) -> NamedPeriod | None:
    """The first period ``text[start:end]`` names: its first quarter mention, with the year written around it
    (``year`` ``None`` when none is: "Reports Third Quarter Results"), else its first full year (``quarter``
    ``None``); ``None`` when it names none. The first mention is the title's or the dateline's; later ones are
    often comparatives ("up from the third quarter of 2023").

    Args:
        number: the page's 1-based number (``None`` for unpaged text), for the source.
        text: the page's text.
        start, end: the region read (the whole text by default).
    """
    end = len(text) if end is None else end
    m = _QUARTER.search(text, start, end)
    if m is not None:
        quarter = int(m.group(1) or m.group(2) or _ORDINALS[(m.group(4) or "").lower()])
        coded = m.group(3)  # "2Q25": the year is part of the code
        year = (int(coded) + (2000 if len(coded) == 2 else 0)) if coded else _year_around(text, m.start(), m.end())
        return NamedPeriod(quarter, year, source(number, text, m.start(), m.end()))
    full = _FULL_YEAR.search(text, start, end)
    return NamedPeriod(None, _year_of(full), source(number, text, full.start(), full.end())) if full else None


def period_end(pages: Pages, before: date | None = None, words: re.Pattern[str] = _QUARTER_END,
               ) -> tuple[date, ProfileSource] | None:
    """The end date of the period a document reports: the date after ``words`` ("quarter ended", "three months
    ended" … by default; :data:`YTD_QUARTERS` ``[4]`` for a year), the latest such date on ``pages`` that is on or
    before ``before`` (the release date) and at most :data:`MAX_QUARTER_AGE` older; without ``before``, the first
    such date."""
    found: list[tuple[date, ProfileSource]] = []
    for number, text in pages:
        for m in words.finditer(text):
            hit = first_date_after(text, m.end(), within=40)
            if hit is None:
                continue
            if before is None:
                return hit[0], source(number, text, m.start(), hit[2])
            if before - MAX_QUARTER_AGE <= hit[0] <= before:
                found.append((hit[0], source(number, text, m.start(), hit[2])))
    return max(found, key=lambda f: f[0]) if found else None


def ytd_quarter(pages: Pages, month: int, quarters: tuple[int, ...] = (3, 2)) -> tuple[int, ProfileSource] | None:
    """The fiscal quarter a document's year-to-date columns ending in ``month`` (1–12) imply: "Nine months ended
    September 30" → 3, "Six months ended June 30" → 2, and, when ``quarters`` holds 4, "Twelve months ended" /
    "Year ended" / "52 weeks ended" → 4; tried in the order of ``quarters``, pages in order; ``None`` when no
    column says."""
    for quarter in quarters:
        for number, text in pages:
            for m in YTD_QUARTERS[quarter].finditer(text):
                at = MONTH_AT.match(text, m.end())
                if at and month_number(at) == month:
                    return quarter, source(number, text, m.start(), at.end() + 20)
    return None


def fiscal_year_end(quarter: int, end: date) -> date:
    """The end of the fiscal year whose quarter ``quarter`` ended on ``end``: ``end`` itself for a fourth quarter,
    else the month end ``3 × (4 − quarter)`` months later (a 52/53-week year may end a few days off)."""
    return end if quarter == 4 else add_months_end(end, 3 * (4 - quarter))
