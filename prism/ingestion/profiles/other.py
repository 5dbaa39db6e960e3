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

from prism.ingestion.profiles import periods, release
from prism.ingestion.profiles.text import (
    SNIPPET_CHARS,
    Found,
    Pages,
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
_TRANSCRIPT = re.compile(r"\btranscript\b|\b(?:Operator|Moderator)\s*:|question[-\s]and[-\s]answer\s+session", re.I)
"""What only a call's transcript prints: a call that quotes its press release is still a call."""
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
    """The kind the first page names first: ``earnings_call`` (a call or its transcript, in the first 2,000
    characters), ``earnings_release`` (:func:`~prism.ingestion.profiles.release.results_mark`: a results headline
    or a "today reported … results" dateline) or ``annual_report`` ("Annual Report" in the first 600 characters);
    a page that names a call and prints a transcript's marks (:data:`_TRANSCRIPT`) is a call wherever it quotes
    its results release; else ``other``.

    A release that invites to its "earnings conference call" names its results first (headline, dateline); a
    transcript names its call first ("Q2 FY25 Earnings Conference Call – Transcript").
    """
    number, text = pages[0]
    marks: list[tuple[int, Found]] = []
    call = _CALL.search(text[:2000])
    if call:
        found_call = "earnings_call", source(number, text, call.start(), call.end())
        if _TRANSCRIPT.search(text[:4000]):
            return found_call
        marks.append((call.start(), found_call))
    results = release.results_mark(pages)
    if results:
        marks.append(results)
    annual = _ANNUAL.search(text[:600])
    if annual:
        marks.append((annual.start(), ("annual_report", source(number, text, annual.start(), annual.end()))))
    if marks:
        return min(marks, key=lambda mark: mark[0])[1]
    return "other", source(number, text, 0, min(len(text), 60))


def quarter_period(pages: Pages) -> tuple[Found, Found | None] | None:
    """``(period "Q2 FY2025", fiscal_year_end "2025-03-31" or None)`` of a call.

    The quarter is the first one the first :data:`HEAD_PAGES` pages name with its year ("Q2 FY25", "Q2 2024",
    "second quarter of fiscal 2024": :func:`~prism.ingestion.profiles.periods.named_period`), else the first named
    without it; when the document also says when the quarter ended ("quarter ended 30 September 2024") the fiscal
    year's end is that date plus ``3 × (4 − quarter)`` months, and a quarter named without its year takes the
    fiscal year of that end. ``None`` without a named quarter, or without a year from either.
    """
    named_ = [periods.named_period(number, text) for number, text in pages[:HEAD_PAGES]]
    quarters = [n for n in named_ if n is not None and n.quarter is not None]
    if not quarters:
        return None
    named = next((n for n in quarters if n.year is not None and n.quarter == quarters[0].quarter), quarters[0])
    ended = periods.period_end(pages[:HEAD_PAGES])
    if named.quarter is None:
        return None
    if ended is None:
        return ((f"Q{named.quarter} FY{named.year}", named.source), None) if named.year else None
    year_end = periods.fiscal_year_end(named.quarter, ended[0])
    year = named.year or fiscal_year_of(year_end)
    return (f"Q{named.quarter} FY{year}", named.source), (year_end.isoformat(), ended[1])


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
