"""Profiles of company documents that are not SEC filings: earnings-call transcripts, annual reports, press
releases, a bank's own circulars and schedules.

The entity is the company name with a legal suffix ("Meridian Bank Ltd", "Infosys Limited", "Acme Corp.") that the
first pages repeat most; the period is the quarter a call discusses ("Q2 FY25 Earnings Conference Call",
"Results for the quarter ended 30 September 2024") or the year an annual report covers ("for the financial year
ended March 31, 2024"); the date is the document's own ("Dated 12 June 2025", the call's date).
"""

from __future__ import annotations

import logging
import re
from collections import Counter

from prism.ingestion.profiles.text import (
    SNIPPET_CHARS,
    Found,
    Pages,
    add_months_end,
    collapse,
    find_dates,
    first_date_after,
    fiscal_year_of,
    source,
)
from prism.types import ProfileSource
from prism.vocabulary import legal

logger = logging.getLogger(__name__)

HEAD_PAGES = 3
"""Pages read for the entity, type, period and date of a company document."""

_SUFFIX = legal.ENTITY_RE
_COMPANY = re.compile(rf"\b((?:(?:[A-Z]|\d+[A-Za-z])[\w&.'’-]*\s+){{1,5}}{_SUFFIX})")
"""One to five capitalised words ("3M" counts as one) and a legal suffix: "Meridian Bank Ltd", "Acme Corp."."""
_LEADING_WORDS = {"On", "Of", "For", "At", "By", "In", "To", "From", "And", "With", "As", "This", "Our", "Dear"}
_CALL = re.compile(
    r"earnings\s+(?:conference\s+)?call|conference\s+call\s+transcript|results\s+(?:conference\s+)?call", re.I
)
_ANNUAL = re.compile(r"\bannual\s+report\b", re.IGNORECASE)
_QUARTER_NAMED = re.compile(r"\bQ([1-4])\s*(?:FY\s*'?(\d{4}|\d{2})|[-' ]?((?:19|20)\d{2}))\b")
_QUARTER_WORDS = {"first": 1, "second": 2, "third": 3, "fourth": 4}
_QUARTER_SPELLED = re.compile(r"\b(first|second|third|fourth)\s+quarter\s+(?:of\s+)?(?:fiscal\s+(?:year\s+)?)?"
                              r"(?:FY\s*)?'?((?:19|20)\d{2})\b", re.IGNORECASE)
_QUARTER_ENDED = re.compile(r"quarter\s+(?:ended|ending)", re.IGNORECASE)
_YEAR_ENDED = re.compile(r"(?:financial|fiscal)\s+year\s+ended|\bfor\s+the\s+year\s+ended", re.IGNORECASE)
"""An annual period: "for the financial year ended March 31, 2024", "Statement of Profit and Loss for the year ended
31 March 2025"."""
_DATED = re.compile(r"\bDated\b\s*:?", re.IGNORECASE)
_REFERENCE = re.compile(
    r"\b(?:Circular\s+No\.?|Ref(?:erence)?\.?(?:\s+No\.?)?)\s*:?\s*([A-Z][A-Z0-9]*(?:/[A-Z0-9.-]+){2,})"
)


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9&]+", " ", name.casefold()).strip()


def company(pages: Pages, file_name: str | None) -> Found | None:
    """The company name (with a legal suffix) the first :data:`HEAD_PAGES` pages repeat most, in its most frequent
    mixed-case spelling; ties go to the name seen first, unless the file name names only one of them (then the
    source says so)."""
    counts: Counter[str] = Counter()
    spellings: dict[str, Counter[str]] = {}
    first: dict[str, ProfileSource] = {}
    for number, text in pages[:HEAD_PAGES]:
        for m in _COMPANY.finditer(text):
            words = collapse(m.group(1)).split()
            while len(words) > 2 and words[0] in _LEADING_WORDS:
                words = words[1:]
            name, key = " ".join(words), _key(" ".join(words))
            counts[key] += 1
            spellings.setdefault(key, Counter())[name] += 1
            first.setdefault(key, source(number, text, m.start(1), m.end(1)))
    if not counts:
        return None
    top = max(counts.values())
    tied = [k for k in first if counts[k] == top]
    best, src = tied[0], first[tied[0]]
    if len(tied) > 1 and file_name:
        stem = _key(re.sub(r"\.[A-Za-z0-9]{1,5}$", "", file_name).replace("_", " "))
        named = [k for k in tied if k.split()[0] in stem.split()]
        if len(named) == 1:
            best = named[0]
            note = f" (tie broken by the file name {file_name})"
            src = ProfileSource(first[best].page, (first[best].snippet[: SNIPPET_CHARS - len(note)] + note)[-160:])
    mixed = [(n, c) for n, c in spellings[best].most_common() if n != n.upper()]
    return (mixed[0][0] if mixed else spellings[best].most_common(1)[0][0]), src


def document_type(pages: Pages) -> Found:
    """``earnings_call`` (a call or its transcript named on the first page), ``annual_report`` ("Annual Report" in
    the first 600 characters) or ``other``."""
    number, text = pages[0]
    m = _CALL.search(text[:2000])
    if m:
        return "earnings_call", source(number, text, m.start(), m.end())
    m = _ANNUAL.search(text[:600])
    if m:
        return "annual_report", source(number, text, m.start(), m.end())
    return "other", source(number, text, 0, min(len(text), 60))


def _named_quarter(pages: Pages) -> tuple[int, int, ProfileSource] | None:
    for number, text in pages[:HEAD_PAGES]:
        m = _QUARTER_NAMED.search(text)
        if m:
            year = m.group(2) or m.group(3)
            return int(m.group(1)), int(year) + (2000 if len(year) == 2 else 0), source(number, text, m.start(),
                                                                                          m.end())
        m = _QUARTER_SPELLED.search(text)
        if m:
            return _QUARTER_WORDS[m.group(1).lower()], int(m.group(2)), source(number, text, m.start(), m.end())
    return None


def quarter_period(pages: Pages) -> tuple[Found, Found | None] | None:
    """``(period "Q2 FY2025", fiscal_year_end "2025-03-31" or None)`` of a call.

    The quarter is the one the document names ("Q2 FY25", "Q2 2024", "second quarter of fiscal 2024"); when it
    also says when the quarter ended ("quarter ended 30 September 2024") the fiscal year's end is that date plus
    ``3 × (4 − quarter)`` months.
    """
    named = _named_quarter(pages)
    ended = None
    for number, text in pages[:HEAD_PAGES]:
        m = _QUARTER_ENDED.search(text)
        hit = first_date_after(text, m.end(), within=20) if m else None
        if m and hit:
            ended = hit[0], source(number, text, m.start(), hit[2])
            break
    if named is None:
        return None
    quarter, year, src = named
    if ended is None:
        return (f"Q{quarter} FY{year}", src), None
    year_end = add_months_end(ended[0], 3 * (4 - quarter))
    return (f"Q{quarter} FY{fiscal_year_of(year_end)}", src), (year_end.isoformat(), ended[1])


def annual_period(pages: Pages) -> tuple[Found, Found] | None:
    """``(period "FY2024", fiscal_year_end "2024-03-31")`` from "for the financial year ended March 31, 2024" (or
    "for the year ended 31 March 2024")."""
    for number, text in pages[:HEAD_PAGES]:
        m = _YEAR_ENDED.search(text)
        hit = first_date_after(text, m.end(), within=20) if m else None
        if m and hit:
            src = source(number, text, m.start(), hit[2])
            return (f"FY{fiscal_year_of(hit[0])}", src), (hit[0].isoformat(), src)
    return None


def document_date(pages: Pages) -> Found | None:
    """The date after "Dated", else the first date of the first page that is not a period's end ("quarter ended
    30 September 2024") nor a column header after another ("Year ended 31 March 2025 31 March 2024")."""
    number, text = pages[0]
    m = _DATED.search(text)
    hit = first_date_after(text, m.end(), within=20) if m else None
    if m and hit:
        return hit[0].isoformat(), source(number, text, m.start(), hit[2])
    for when, start, end in find_dates(text):
        before = text[max(0, start - 16):start]
        if not re.search(r"(?:ended|ending|end of|as (?:at|on|of)|(?:19|20)\d\d)\s*$", before, re.I):
            return when.isoformat(), source(number, text, start, end)
    return None


def reference(pages: Pages) -> Found | None:
    """A circular or reference number on the first page ("Circular No. MBL/2025-26/OPS/017")."""
    number, text = pages[0]
    m = _REFERENCE.search(text)
    return (m.group(1), source(number, text, m.start(), m.end())) if m else None
