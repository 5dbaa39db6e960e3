"""Document profiles: which entity, document type, period, currency and unit a document is about, read from its
own text, each field with the page and snippet it came from.

Profiles are read from the parsed pages *before* running headers and footers are removed (a cover's or a circular's
first lines are exactly what that removal may drop). The file name is never read for the entity or the period
(names are often opaque: ``d123456d10k.pdf``, RBI's ``05MC0104….pdf``); it only breaks a tie between two company
names, and the source then says so.

Which reader runs:
    * SEC filings (a cover naming the SEC, FORM 10-K / 10-Q / 8-K and a cover's own words such as "(Exact name of
      registrant …)"; a press release citing its "Form 10-K … filed with the Securities and Exchange Commission"
      is none): :mod:`~prism.ingestion.profiles.sec`. An 8-K whose Exhibit 99 is an earnings release is read as
      that release (below).
    * NPCI circulars ("NPCI/UPI/OC No. 37/2017-18" or the NPCI letterhead on top of page 1) and RBI documents
      ("RESERVE BANK OF INDIA", an "RBI/2025-26/13" reference or an RBI department reference on page 1; a
      results release naming the bank below its first lines, "an NBFC registered with the Reserve Bank of
      India", is the company's): :mod:`~prism.ingestion.profiles.india`.
    * Everything else (earnings calls, earnings and other press releases, annual reports, a bank's own circulars):
      :mod:`~prism.ingestion.profiles.other`, with :mod:`~prism.ingestion.profiles.release` for press releases.
    * Currency and unit for all (:func:`~prism.ingestion.profiles.text.find_currency`, ``find_unit``).

Conventions:
    * ``type``: one of :data:`prism.types.DOCUMENT_TYPES`: ``10-K``, ``10-Q``, ``8-K``, ``annual_report``,
      ``earnings_call``, ``earnings_release``, ``rbi_master_direction`` (master directions and "… Directions,
      2025"), ``rbi_master_circular``, ``rbi_circular``, ``rbi_notification``, ``npci_circular``, ``other``.
      An 8-K furnishing an earnings release (Item 2.02, its Exhibit 99.1) is ``earnings_release``: its pages are
      the release and its statements, and the type keeps one period convention (an 8-K's period is its date, a
      release's its fiscal quarter); its entity, ticker and date stay the cover's. Any other 8-K stays ``8-K``.
    * Fiscal years are named by the calendar year in which they END: Walmart's year ended January 31, 2020 is
      ``FY2020``, NIKE's ended May 31, 2018 is ``FY2018``, an Indian bank's April 2024 - March 2025 is ``FY2025``.
      Two exceptions: a document that names its years itself ('January 31, 2020 ("fiscal 2020")') is followed,
      and a 52/53-week year ending in the first seven days of January is named by the year before.
    * ``period``: ``"FY2020"`` for a 10-K or an annual report; ``"Q2 FY2022"`` for a 10-Q, a call or an earnings
      release (``"FY2024"`` for a release of a full year only), the fiscal quarter and the fiscal year it belongs
      to (four-digit year, so ``Q2 FY2022`` and ``FY2022`` share their year form). For a calendar-year company the
      fiscal quarter is the calendar quarter (JPMorgan's quarter ended June 30, 2022 is ``Q2 FY2022``); Walmart's
      quarter ended July 31, 2022 is ``Q2 FY2023``. A question's "Q2 FY22", "Q2 2022", "2Q22" or "second quarter
      of fiscal 2022" should be normalised to the same ``Q2 FY2022`` before it is matched. For circulars,
      notifications and current reports (8-K) the period is the document's date.
    * ``fiscal_year_end``: ISO date the fiscal year of ``period`` ends: read from a 10-K cover; derived for a 10-Q,
      a call or a release as the quarter's end plus ``3 × (4 − quarter)`` months (month end), e.g. Q2 ended
      2024-09-30 → ``2025-03-31`` (a release's fourth quarter: its end date itself).
    * ``date`` (ISO): a circular's or notification's date (the one on its reference line), an 8-K's date of
      report, a call's date, a release's dateline, a document's "Dated …" date.
    * ``title``: the document's own title (:mod:`~prism.ingestion.profiles.heading`), else a release's headline.
    * ``reference``: "RBI/2025-26/13" (else "FEMA 401/2026-RB", "A.P. (DIR Series) Circular No. 09"), an NPCI
      circular number as printed ("NPCI/UPI/OC No. 37/2017-18"), a company circular's "Circular No. …".
    * ``entity``: a registrant in its running-text spelling ("Walmart Inc.", not the cover's "WALMART INC.");
      a release's company as its dateline names it ("Acme Corp (NYSE: ACME)"), with the legal form the document
      prints after that name; "Reserve Bank of India, Department of Regulation"; "National Payments Corporation of
      India". ``ticker``: a cover's symbol, or a release's first symbol in its parenthesis.
      ``aliases``: the entity, its short form without the legal suffix ("3M"), the ticker, the regulator's
      abbreviation and department code, every reference.
    * ``currency``: ISO 4217 code of the most frequent currency mark; ``unit``: the unit the statement headers state
      most ("(in thousands, except per share data)" → ``thousands``; "(₹ in lakh)" → ``lakh``); for calls and other
      company documents without such headers, the unit most amounts are written in ("₹2,146 crore" → ``crore``).
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Sequence
from datetime import date as date_type

from prism.ingestion.profiles import india as profile_india
from prism.ingestion.profiles import other as profile_other
from prism.ingestion.profiles import release as profile_release
from prism.ingestion.profiles import sec as profile_sec
from prism.ingestion.profiles.heading import find_title
from prism.ingestion.profiles.text import Found, Pages, find_currency, find_unit, source
from prism.types import PROFILE_FIELDS, DocumentProfile, ProfileSource
from prism.vocabulary import currencies, legal, units

logger = logging.getLogger(__name__)

_LEGAL_SUFFIX = re.compile(rf"(?:,?\s+{legal.NAME_END_RE}|\s+&\s+Co\.?)$")
_INLINE_UNIT = re.compile(
    rf"(?:{currencies.SYMBOL_CLASS}|\bRs\.?|\bINR|US\$|\bUSD|\bEUR|\bGBP)\s?\d[\d,.]*\s*"
    rf"({units.LAKH_CRORE}|{units.SPOKEN_RE})\b",
    re.IGNORECASE,
)
MIN_INLINE_UNIT_HITS = 3
"""Fewest amounts with a unit word ("₹2,146 crore") a document without statement headers needs for a unit (the
unit most of them use)."""


def short_name(entity: str) -> str:
    """``entity`` without its legal suffixes and a leading "The": "The Boeing Company" → "Boeing",
    "American Water Works Company, Inc." → "American Water Works", "JPMorgan Chase & Co." → "JPMorgan Chase"."""
    name = entity.strip()
    while True:
        shorter = _LEGAL_SUFFIX.sub("", name).strip(" ,")
        if shorter == name or not shorter:
            break
        name = shorter
    return re.sub(r"^The\s+", "", name)


def _aliases(entity: str | None, ticker: str | None, extra: Sequence[str]) -> tuple[str, ...]:
    names: list[str] = []
    if entity and not entity.startswith(profile_india.RBI):
        names += [entity, short_name(entity)]
        if names[-1].lower().endswith(".com"):
            names.append(names[-1][:-4])
    names += [ticker] if ticker else []
    names += list(extra)
    unique: dict[str, str] = {}
    for name in names:
        if name:
            unique.setdefault(name.casefold(), name)
    return tuple(unique.values())


def _read_sec(pages: Pages, cover: int, found_form: Found) -> dict[str, Found]:
    fields: dict[str, Found] = {"type": found_form}
    form = found_form[0]
    for name, found in (("entity", profile_sec.registrant(pages, cover)), ("ticker", profile_sec.ticker(pages, cover))):
        if found:
            fields[name] = found
    period = None
    if form == "10-K":
        period = profile_sec.annual_period(pages, cover)
    elif form == "10-Q":
        period = profile_sec.quarterly_period(pages, cover)
    if period:
        fields["period"], fields["fiscal_year_end"] = period
    if form == "8-K":
        day = profile_sec.report_date(pages, cover)
        if day:
            fields["period"] = fields["date"] = day
        fields.update(_exhibit_release(pages, cover, day))
    return fields


def _exhibit_release(pages: Pages, cover: int, day: Found | None) -> dict[str, Found]:
    """The type, period, fiscal year end and title of an 8-K whose exhibit 99 is an earnings release (``{}`` for
    any other 8-K): the document is read as the release it furnishes, its company and date staying the cover's."""
    at = profile_release.exhibit_release(pages, cover)
    if at is None:
        return {}
    exhibit = pages[at:]
    mark = profile_release.results_mark(exhibit)
    fields: dict[str, Found] = {"type": mark[1]} if mark else {}
    released = date_type.fromisoformat(day[0]) if day else None
    period = profile_release.period(exhibit, released)
    if period:
        fields["period"] = period[0]
        if period[1]:
            fields["fiscal_year_end"] = period[1]
    headline = profile_release.headline_line(exhibit)
    if headline:
        fields["title"] = headline
    return fields


def _read_other(pages: Pages, file_name: str | None) -> dict[str, Found]:
    fields: dict[str, Found] = {"type": profile_other.document_type(pages)}
    kind = fields["type"][0]
    entity, ticker = None, None
    if kind == "earnings_release" or profile_release.is_press_release(pages):
        entity, ticker = profile_release.company(pages)
    for name, found in (
        ("entity", entity or profile_other.company(pages, file_name)),
        ("ticker", ticker),
        ("reference", profile_other.reference(pages)),
        ("date", profile_other.document_date(pages)),
    ):
        if found:
            fields[name] = found
    if kind == "earnings_release":
        released = date_type.fromisoformat(fields["date"][0]) if "date" in fields else None
        period = profile_release.period(pages, released)
        headline = profile_release.headline_line(pages)
        if headline:
            fields["title"] = headline
    else:
        period = profile_other.quarter_period(pages) if kind == "earnings_call" else None
        period = period or profile_other.annual_period(pages)
    if period:
        fields["period"] = period[0]
        if period[1]:
            fields["fiscal_year_end"] = period[1]
    elif "date" in fields:
        fields["period"] = fields["date"]
    return fields


def _inline_unit(pages: Pages) -> Found | None:
    counts: Counter[str] = Counter()
    first: dict[str, ProfileSource] = {}
    for number, text in pages:
        for m in _INLINE_UNIT.finditer(text):
            unit = units.CANONICAL.get(m.group(1).lower())  # "lakh crore" counts for no unit
            if unit:
                counts[unit] += 1
                first.setdefault(unit, source(number, text, m.start(), m.end()))
    if sum(counts.values()) < MIN_INLINE_UNIT_HITS:
        return None
    unit = counts.most_common(1)[0][0]
    return unit, first[unit]


def extract_profile(pages: Sequence[tuple[int | None, str]], *, file_name: str | None = None) -> DocumentProfile:
    """Read a document's profile from its own text (see the module docstring for every convention).

    Args:
        pages: ``(1-based page number or None for unpaged text, text)`` in document order, as parsing returns them
            (before running headers and footers are removed). Empty pages are ignored.
        file_name: the display name; used only to break a tie between two company names of equal weight.

    Returns:
        A :class:`~prism.types.DocumentProfile`; fields the text does not give are ``None`` and have no source.
        Every source's snippet is at most 160 characters of its page's text. An empty document gives an empty
        profile.
    """
    pages = [(number, text) for number, text in pages if text and text.strip()]
    if not pages:
        return DocumentProfile(None, None, None, None, None, None, None)
    extra: list[str] = []
    cover = profile_sec.cover_page(pages)
    if cover is not None:
        fields = _read_sec(pages, *cover)
    elif profile_india.is_npci(pages):
        fields, extra = profile_india.read_npci(pages)
    elif profile_india.is_rbi(pages) and (profile_india.rbi_letterhead(pages)
                                          or profile_release.results_mark(pages) is None):
        fields, extra = profile_india.read_rbi(pages)
    else:
        fields = _read_other(pages, file_name)
    title = find_title(pages)
    if title:
        fields["title"] = title  # a release's headline (read above) only when the page has no title of its own
    currency = find_currency(pages)
    if currency:
        fields["currency"] = currency
    unit = find_unit(pages)
    if unit is None and fields["type"][0] in ("earnings_call", "earnings_release", "annual_report", "other"):
        unit = _inline_unit(pages)
    if unit:
        fields["unit"] = unit
    values = {name: (fields[name][0] if name in fields else None) for name in PROFILE_FIELDS}
    logger.debug("profile of %s: found %s", file_name or "a document", ", ".join(sorted(fields)))
    return DocumentProfile(
        **values,
        sources={name: fields[name][1] for name in PROFILE_FIELDS if name in fields},
        aliases=_aliases(values["entity"], values["ticker"], extra),
    )
