"""Text helpers for document profiles: snippets, tolerant dates, fiscal-year naming, currency and unit.

pypdf's text splits words and numbers at odd places on some pages ("Ju ly 15, 2024", "April 30, 2 026",
"November 2 8, 2025"), so the date patterns allow one space inside month names and numbers. Everything here is pure
and works on the pages' text as parsing returns it.
"""

from __future__ import annotations

import calendar
import logging
import re
from collections import Counter
from collections.abc import Sequence
from datetime import date

from prism.types import ProfileSource
from prism.vocabulary import currencies, statements, units
from prism.vocabulary.months import NUMBER as _MONTHS

logger = logging.getLogger(__name__)

Pages = Sequence[tuple[int | None, str]]
"""Pages as ``(1-based page number or None, text)``, in document order."""
Found = tuple[str, ProfileSource]
"""A field value and where it was read."""

SNIPPET_CHARS = 160
"""Longest provenance snippet, characters."""



def _spaced(word: str) -> str:
    """A pattern for ``word`` that also matches it with one space inside ("Ju ly")."""
    return r"\s?".join(re.escape(ch) for ch in word)


_MON = "(?P<mon>" + "|".join(_spaced(m) for m in sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
MONTH_AT = re.compile(r"\s*" + _MON, re.IGNORECASE)
"""A month name or abbreviation (one space inside allowed), after optional whitespace; ``.match`` it at a position
and read :func:`month_number` of the match."""
_DAY = r"(?<![\d,.])(?P<day>[0-3]?\s?\d)"
_YEAR = r"(?P<year>(?:1\s?9|2\s?0)\s?\d\s?\d)(?!\d)"
_ORD = r"(?:st|nd|rd|th|t)?"
DATE_PATTERNS = (
    re.compile(rf"\b{_MON}\s*{_DAY}\s*{_ORD}\s*,?\s*{_YEAR}", re.IGNORECASE),  # April 01, 2025 · October 11th, 2017
    re.compile(rf"{_DAY}\s*{_ORD}\s*{_MON}\s*,?\s*'?{_YEAR}", re.IGNORECASE),  # 1st November 2017 · 30 September 2024
)
"""Month-name dates in both orders; group names ``mon``, ``day``, ``year``."""


def collapse(text: str) -> str:
    """``text`` with every run of whitespace turned into one space, stripped."""
    return " ".join(text.split())


def snippet(text: str, start: int, end: int) -> str:
    """At most :data:`SNIPPET_CHARS` characters of ``text`` around ``text[start:end]``, whitespace collapsed.

    The window is the match's line(s), widened to at most 60 characters before the match when the line is long.
    """
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    left = max(line_start, start - 60)
    piece = collapse(text[left:line_end])
    if len(collapse(text[left:end])) > SNIPPET_CHARS:  # a very long match: keep its end
        piece = collapse(text[left:end])[-SNIPPET_CHARS:]
    piece = piece or collapse(text[start : start + 4 * SNIPPET_CHARS])  # an empty line: the text that follows
    return piece[:SNIPPET_CHARS].rstrip()


def source(page: int | None, text: str, start: int, end: int) -> ProfileSource:
    """A :class:`ProfileSource` for ``text[start:end]`` on ``page``."""
    return ProfileSource(page, snippet(text, start, end))


def month_number(m: re.Match[str]) -> int:
    """The month 1–12 of a match with a ``mon`` group (:data:`MONTH_AT`, :data:`DATE_PATTERNS`)."""
    return _MONTHS[re.sub(r"\s", "", m.group("mon")).lower()]


def _digits(raw: str) -> str:
    return re.sub(r"\s", "", raw)


def match_date(m: re.Match[str]) -> date | None:
    """The calendar date of a :data:`DATE_PATTERNS` match, or ``None`` when it is not a real date."""
    month = _MONTHS.get(re.sub(r"\s", "", m.group("mon")).lower())
    try:
        return date(int(_digits(m.group("year"))), month or 0, int(_digits(m.group("day"))))
    except ValueError:
        return None


def find_dates(text: str, start: int = 0, end: int | None = None) -> list[tuple[date, int, int]]:
    """Every month-name date in ``text[start:end]`` as ``(date, match start, match end)``, by position.

    Overlapping matches keep the earlier, longer one; matches that are not real dates (``February 30``) are dropped.
    """
    end = len(text) if end is None else end
    hits: list[tuple[date, int, int]] = []
    for pattern in DATE_PATTERNS:
        for m in pattern.finditer(text, start, end):
            value = match_date(m)
            if value is not None:
                hits.append((value, m.start(), m.end()))
    hits.sort(key=lambda h: (h[1], -h[2]))
    kept: list[tuple[date, int, int]] = []
    for hit in hits:
        if not kept or hit[1] >= kept[-1][2]:
            kept.append(hit)
    return kept


def first_date_after(text: str, pos: int, within: int = 160) -> tuple[date, int, int] | None:
    """The first date starting within ``within`` characters after ``pos``, or ``None``."""
    hits = find_dates(text, pos, min(len(text), pos + within + 40))
    return next((h for h in hits if h[1] - pos <= within), None)


def fiscal_year_of(end: date) -> int:
    """The fiscal year a year ending on ``end`` is named by: the calendar year in which it ends, except that a
    52/53-week year ending in the first seven days of January is named by the year before (Kraft Heinz's fiscal
    year ended January 3, 2016 is its 2015)."""
    return end.year - 1 if end.month == 1 and end.day <= 7 else end.year


def add_months_end(day: date, months: int) -> date:
    """The last day of the month ``months`` calendar months after ``day``'s month (``months`` ≥ 0)."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    return date(year, month + 1, calendar.monthrange(year, month + 1)[1])


# --- currency and unit -------------------------------------------------------------------------------------------

_CURRENCY_PATTERNS = {code: re.compile(pattern) for code, pattern in currencies.AMOUNT_MARK_RE.items()}
MIN_CURRENCY_HITS = 3
"""Fewest currency marks a document needs before a currency is named."""

_UNIT_WORD = rf"(?P<unit>{units.HEADER_WORD_RE})"
_NOT_LAKH_CRORE = rf"(?!\s+(?:{units.CRORE_RE}))"  # "₹ lakh crore" is no lakh
_MONEY_PREFIX = r"(?:(?:in|of|dollars|amounts?|figures|all|us|u\.s\.|usd|rs\.?|inr|₹|\$|us\$|€|£)\s*)*"
UNIT_PATTERNS = (
    # (In millions, except per share data) · (Dollars in millions) · (₹ in lakh) · (Rs. in Crore ...) · (MILLIONS)
    re.compile(rf"\(\s*{_MONEY_PREFIX}{_UNIT_WORD}\b{_NOT_LAKH_CRORE}(?P<rest>[^()]{{0,60}})", re.IGNORECASE),
    # ₹ crore unless stated · Amount in ₹ lakh · Rs. in crore
    re.compile(rf"(?:₹|\bRs\.?|\bINR)\s*(?:in\s+)?{_UNIT_WORD}\b{_NOT_LAKH_CRORE}(?=\s*(?:unless|except|\)|$))",
               re.IGNORECASE | re.MULTILINE),
    re.compile(rf"\b(?:amounts?|figures|values?)\s+(?:are\s+)?in\s+(?:₹|Rs\.?|INR|\$|US\$)\s*{_UNIT_WORD}\b",
               re.IGNORECASE),
)
"""Statement headers that say what the figures are counted in (not "(Shares in thousands)")."""
_STATEMENT_TITLE = re.compile(
    r"(?:[^\n]{0,60}\s)?\s*(?:(?:condensed\s+)?consolidated\s+|standalone\s+)?"
    rf"(?:{statements.NAMES_RE})(?:\s*\(unaudited\))?\s*",
    re.IGNORECASE,
)
STATEMENT_WEIGHT = 3
"""A unit header on a page whose first lines name a financial statement counts this many times."""


def _is_statement_page(text: str) -> bool:
    """True when one of the page's first eight lines ends with a financial statement's title ("NIKE, Inc.
    Consolidated Statements of Income", "Consolidated Balance Sheets (Unaudited)")."""
    return any(_STATEMENT_TITLE.fullmatch(line) for line in text.lstrip().splitlines()[:8])


def find_unit(pages: Pages) -> Found | None:
    """The unit that dominates the document's statement headers ("(in thousands, except per share data)").

    Every header counts once, or :data:`STATEMENT_WEIGHT` times on a financial-statement page; the unit with the
    highest count wins (ties: the one seen first). The source is its first header on a statement page, else its
    first header.

    Returns:
        ``(unit, source)`` with ``unit`` one of ``thousands``, ``millions``, ``billions``, ``lakh``, ``crore``;
        ``None`` when no page has such a header.
    """
    counts: Counter[str] = Counter()
    first: dict[str, ProfileSource] = {}
    first_statement: dict[str, ProfileSource] = {}
    for number, text in pages:
        weight = STATEMENT_WEIGHT if _is_statement_page(text) else 1
        for pattern in UNIT_PATTERNS:
            for m in pattern.finditer(text):
                unit = units.CANONICAL[m.group("unit").lower()]
                counts[unit] += weight
                first.setdefault(unit, source(number, text, m.start(), m.end()))
                if weight > 1:
                    first_statement.setdefault(unit, source(number, text, m.start(), m.end()))
    if not counts:
        return None
    best = max(counts, key=lambda u: (counts[u], -list(first).index(u)))
    return best, first_statement.get(best) or first[best]


def find_currency(pages: Pages) -> Found | None:
    """The currency whose marks ("$1,234", "₹500", "Rs. 2 lakh", "USD", "INR") are most frequent.

    Returns:
        ``(ISO 4217 code, source)``, the source being its first mark on a financial-statement page, else its first
        mark; ``None`` with fewer than :data:`MIN_CURRENCY_HITS` marks.
    """
    counts: Counter[str] = Counter()
    first: dict[str, ProfileSource] = {}
    first_statement: dict[str, ProfileSource] = {}
    for number, text in pages:
        statement = _is_statement_page(text)
        for code, pattern in _CURRENCY_PATTERNS.items():
            hits = list(pattern.finditer(text))
            if hits:
                counts[code] += len(hits)
                first.setdefault(code, source(number, text, hits[0].start(), hits[0].end()))
                if statement:
                    first_statement.setdefault(code, source(number, text, hits[0].start(), hits[0].end()))
    if not counts:
        return None
    code, total = counts.most_common(1)[0]
    if total < MIN_CURRENCY_HITS:
        return None
    return code, first_statement.get(code) or first[code]
