"""Profiles of press releases, earnings releases above all, read from their first page.

An earnings release names its company, its kind and its period at the top: a headline ("Acme Corp Reports Second
Quarter Fiscal 2025 Results", "Meridian Finance Ltd announces Q2 FY25 results", "Vestra Industrial N.V. reports
third quarter 2024 results") and a dateline sentence ("NEW YORK, Aug. 7, 2025 /PRNewswire/ -- Acme Corp (NYSE:
ACME) today reported financial results for its second quarter of fiscal 2025, which ended June 30, 2025"). Its
statements follow ("Three Months Ended June 30, 2025", "(in millions, except per share data)").

* **Kind** (:func:`results_mark`): a results headline among the first page's first lines, or a dateline sentence
  saying the company "today reported / announced … results" (or revenue, net income, profit). A headline that
  only announces a date ("Acme to Report Second Quarter Results on August 7") or names a call ("Q2 FY25 Earnings
  Call") is no results headline.
* **Company** (:func:`company`): the name in front of the ticker's parenthesis ("Acme Corp (NYSE: ACME)", "(NSE:
  MERIDFIN; BSE: 543210)"), else in front of "today reported / announced", else the headline's subject ("Lumen
  Devices Announces …"); a name written without its legal form ("NVIDIA") takes the legal form the document
  prints after it elsewhere ("NVIDIA CORPORATION AND SUBSIDIARIES" → "NVIDIA Corporation"). The ticker is the
  parenthesis' first symbol.
* **Period** (:func:`period`): the quarter and fiscal year the headline names (else the dateline sentence, else
  the first page); the quarter's end date ("quarter ended June 30, 2025", "Three Months Ended June 30, 2025": the
  latest such date on or before the release date) gives the fiscal year's end (:func:`~prism.ingestion.profiles.
  periods.fiscal_year_end`) and, when the headline names no year ("Reports Third Quarter Results"), the fiscal
  year; when the headline names no quarter, the year-to-date columns do (six months → Q2, nine → Q3, twelve months
  or year ended → Q4). A headline naming only a year ("Full Year 2024 Results") gives ``FY2024``.
"""

from __future__ import annotations

import logging
import re
from datetime import date

from prism.ingestion.profiles import periods
from prism.ingestion.profiles.text import Found, Pages, collapse, fiscal_year_of, source
from prism.vocabulary import exchanges, legal

logger = logging.getLogger(__name__)

HEAD_LINES = 15
"""Non-empty lines of the first page read for the headline (letterheads and contacts come first)."""
HEAD_CHARS = 3000
"""Characters of the first page read for the dateline sentence and the company."""
DATELINE_CHARS = 300
"""Characters of the dateline sentence read for the period when the headline names none or no year."""
RELEASE_PAGES = 3
"""Pages of a release read for its period (the statements follow the text)."""

_RESULTS = r"\b(?:results|earnings)\b(?!\s+(?:call|conference|webcast|presentation|date|release\s+date))"
_WRAPPED = r"[^.!?\n]{{0,{n}}}?(?:\n[^.!?\n]{{0,{n}}}?)?"
"""Words up to ``n`` characters on the line, or on the next one too (a headline wrapped by the PDF)."""
_HEADLINE_VERB = re.compile(
    r"\b(?:reports|reported|announces|announced|posts|posted|delivers|delivered|releases|released|publishes|"
    r"published)\b"
    + _WRAPPED.format(n=100) + _RESULTS,
    re.IGNORECASE,
)
"""A results headline with its verb, the company its subject: "Acme Corp Reports Second Quarter Fiscal 2025
Results" (a label, "PRESS RELEASE", "FOR IMMEDIATE RELEASE", has no such verb)."""
_HEADLINE_PERIOD = re.compile(
    r"(?:\bQ[1-4]|\b[1-4]Q|\b(?:first|second|third|fourth)[\s-]+quarter|\bquarterly|\bhalf[\s-]+year(?:ly)?|"
    r"\b(?:full|fiscal)[\s-]+year|\bfiscal|\bFY\s*['’]?\d{2}|\binterim|\bannual|\byear[\s-]end)"
    + _WRAPPED.format(n=60) + _RESULTS,
    re.IGNORECASE,
)
"""A results headline without a verb: "Q3 2024 Results", "Fourth Quarter and Full Year 2024 Earnings"."""
_JOINING_END = re.compile(r"(?:\b(?:and|of|for|the|to|in|with)|[&,–-])\s*$", re.IGNORECASE)
"""A headline line that goes on on the next line."""
_ANNOUNCEMENT_ONLY = re.compile(r"\b(?:to|will)\s+(?:report|announce|release|publish|post|host)\b", re.IGNORECASE)
"""A headline announcing when results will come ("Acme Corp to Report Second Quarter 2025 Results on August 7")."""
_TODAY_RESULTS = re.compile(
    r"\btoday\s+(?:reported|announced|released|posted|published)\b[^.!?]{0,120}?"
    r"\b(?:results|earnings|revenues?|net\s+(?:income|profit|sales)|profit)\b",
    re.IGNORECASE,
)
"""The dateline sentence of a results release: "… today reported financial results for its second quarter"."""
_CALL_LINE = re.compile(r"\b(?:earnings|results|conference)\s+(?:conference\s+)?call\b|\btranscript\b", re.I)
_TICKER = re.compile(
    rf"\(\s*{exchanges.DATELINE_RE}\s*:\s*([A-Z][A-Z0-9]{{0,9}}(?:[.\-][A-Z0-9]{{1,3}})?)\b[^()\n]{{0,60}}\)"
)
"""A ticker's parenthesis: "(NYSE: ACME)", "(NSE: MERIDFIN; BSE: 543210)"; group 1 is the first symbol."""
_TODAY = re.compile(r"\s+today\s+(?:reported|announced|released|posted|published)\b", re.IGNORECASE)
_SUBJECT_VERB = re.compile(
    r"\s+(?:Reports|Announces|Posts|Delivers|Releases|Publishes|Reported|Announced)\b")
_SEPARATOR = re.compile(r"--|—|–|\s-\s|:\s|\)|/|;|•|\||\bPRNewswire\b|\bWIRE\b|\bNEWSWIRE\b", re.IGNORECASE)
_NAME_WORD = r"(?:[A-Z]|\d+[A-Za-z])[\w&.'’,®™-]*"
_NAME_TAIL = re.compile(rf"((?:{_NAME_WORD}\s+|(?:and|of|de|du|la|&)\s+)*{_NAME_WORD})\s*$")
_TRAILING_PARENS = re.compile(r"\s*\([^()]*\)\s*$")
_ENDS_LEGAL = re.compile(rf"(?:,?\s+{legal.NAME_END_RE}|\s+&\s+Co\.?)$")
MAX_NAME_WORDS = 8
"""A company name read before a ticker or a verb has at most this many words."""


def _head_end(text: str) -> int:
    """The offset where the first :data:`HEAD_LINES` non-empty lines of ``text`` end."""
    count, end = 0, 0
    for m in re.finditer(r"[^\n]*\n?", text):
        if not m.group().strip():
            if m.end() == m.start():
                break
            continue
        count, end = count + 1, m.end()
        if count >= HEAD_LINES:
            break
    return min(end, HEAD_CHARS)


def headline(pages: Pages) -> re.Match[str] | None:
    """The results headline among the first page's first :data:`HEAD_LINES` lines: a verb then "results" /
    "earnings" ("… Reports Second Quarter Fiscal 2025 Results"), or a period then "results" ("Q3 2024 Results");
    not a line naming a call or a transcript, not "… to Report … Results on August 7"."""
    if not pages:
        return None
    text = pages[0][1]
    end = _head_end(text)
    found = [m for pattern in (_HEADLINE_VERB, _HEADLINE_PERIOD) for m in pattern.finditer(text, 0, end)
             if not _ANNOUNCEMENT_ONLY.search(_lines_of(text, m)) and not _CALL_LINE.search(_lines_of(text, m))]
    return min(found, key=lambda m: m.start()) if found else None


def _lines_of(text: str, m: re.Match[str]) -> str:
    """The whole line(s) of ``text`` a match spans."""
    start = text.rfind("\n", 0, m.start()) + 1
    end = text.find("\n", m.end())
    return text[start:end if end >= 0 else len(text)]


def headline_line(pages: Pages) -> Found | None:
    """The whole line of the results headline (:func:`headline`), whitespace collapsed, as the document's title."""
    m = headline(pages)
    if m is None:
        return None
    number, text = pages[0]
    start = text.rfind("\n", 0, m.start()) + 1
    end = start + len(_lines_of(text, m))
    if _JOINING_END.search(text[start:end]):  # "… Results for Fourth Quarter and" / "Fiscal 2025"
        following = text.find("\n", end + 1)
        end = len(text) if following < 0 else following
    return collapse(text[start:end]), source(number, text, start, end)


def results_mark(pages: Pages) -> tuple[int, Found] | None:
    """``(offset on the first page, ("earnings_release", source))`` of the first sign that the document is an
    earnings release (module docstring: a results headline or a "today reported … results" dateline sentence);
    ``None`` for any other document."""
    if not pages:
        return None
    number, text = pages[0]
    hits = [m for m in (headline(pages), _TODAY_RESULTS.search(text, 0, HEAD_CHARS)) if m is not None]
    if not hits:
        return None
    m = min(hits, key=lambda h: h.start())
    return m.start(), ("earnings_release", source(number, text, m.start(), m.end()))


def _name_before(text: str, at: int) -> tuple[str, int] | None:
    """The company name that ends right before ``text[at]`` (bracketed asides such as '("Acme" or the
    "Company")' skipped), cut at the dateline's dash, colon, wire name or bracket; ``(name, start offset)``."""
    window_start = max(0, at - 160)
    prefix = text[window_start:at]
    while _TRAILING_PARENS.search(prefix):
        prefix = _TRAILING_PARENS.sub("", prefix)
    cuts = list(_SEPARATOR.finditer(prefix))
    begin = cuts[-1].end() if cuts else 0
    m = _NAME_TAIL.search(prefix, begin)
    if m is None:
        return None
    words = m.group(1).replace("\n", " ").split()
    while words and words[0] in ("and", "of", "de", "du", "la", "&"):
        words = words[1:]
    name = re.sub(r"[®™]", "", " ".join(words)).strip(" ,")  # "Apple®"
    if not words or len(words) > MAX_NAME_WORDS or not re.search(r"[A-Za-z]{2}", name):
        return None
    return name, window_start + m.start(1)


def _with_legal_form(name: str, pages: Pages) -> str:
    """``name`` with the legal form the first pages print after it ("NVIDIA" and "NVIDIA CORPORATION" →
    "NVIDIA Corporation"), or ``name`` itself when it has one or none is printed."""
    if _ENDS_LEGAL.search(name):
        return name
    pattern = re.compile(rf"(?<!\w){re.escape(name)}(,?\s+)({legal.ENTITY_RE})(?!\w)", re.IGNORECASE)
    for _, text in pages[:RELEASE_PAGES]:
        m = pattern.search(text)
        if m:
            suffix = m.group(2)
            core = suffix.rstrip(".")
            spelled = legal.SPELLING.get(core.lower(), core) if suffix.isupper() and len(core) > 3 else core
            return f"{name}{',' if ',' in m.group(1) else ''} {spelled}{'.' if suffix.endswith('.') else ''}"
    return name


def company(pages: Pages) -> tuple[Found | None, Found | None]:
    """``(entity, ticker)`` of a press release (module docstring), each ``None`` when the first page does not
    give it."""
    if not pages:
        return None, None
    number, text = pages[0]
    ticker = _TICKER.search(text, 0, HEAD_CHARS)
    found_ticker = (ticker.group(1), source(number, text, ticker.start(), ticker.end())) if ticker else None
    anchors = [ticker.start()] if ticker else []
    today = _TODAY.search(text, 0, HEAD_CHARS)
    anchors += [today.start()] if today else []
    m = headline(pages)
    line_start = text.rfind("\n", 0, m.start()) + 1 if m else 0
    subject = _SUBJECT_VERB.search(text, line_start, m.end()) if m else None
    anchors += [subject.start()] if subject else []
    for at in anchors:
        named = _name_before(text, at)
        if named:
            name, start = named
            return (_with_legal_form(name, pages), source(number, text, start, at)), found_ticker
    return None, found_ticker


def period(pages: Pages, released: date | None) -> tuple[Found, Found | None] | None:
    """``(period "Q2 FY2025", fiscal_year_end "2025-12-31" or None)`` of an earnings release (module docstring).

    Args:
        pages: the release's pages (an 8-K's exhibit pages onward); the first :data:`RELEASE_PAGES` are read.
        released: the release date (its dateline), or ``None``.

    Returns:
        ``None`` when neither the text nor the columns give a quarter or a year; a quarter named without its year
        and without an end date gives ``None`` too (no year is guessed).
    """
    head = list(pages[:RELEASE_PAGES])
    if not head:
        return None
    number, text = head[0]
    named = periods.named_period(number, text, 0, _head_end(text))
    dateline = _TODAY_RESULTS.search(text, 0, HEAD_CHARS)
    if (named is None or named.year is None) and dateline is not None:  # "… today reported … second quarter of
        said = periods.named_period(number, text, dateline.start(), dateline.start() + DATELINE_CHARS)  # 2025"
        if said is not None and said.year is not None and (named is None or said.quarter == named.quarter):
            named = said
    named = named or periods.named_period(number, text, 0, HEAD_CHARS)
    ended = periods.period_end(head, released)
    quarter = named.quarter if named else None
    if quarter is None and ended is not None and (named is None or named.year is None):
        ytd = periods.ytd_quarter(head, ended[0].month, quarters=(3, 2, 4))
        quarter = ytd[0] if ytd else None
        if ytd:
            named = periods.NamedPeriod(quarter, None, ytd[1])
    if named is None:
        return None
    if quarter is None or ended is None:
        if named.year is None:
            return None
        if quarter is None:  # a full year: its end is the latest "year ended" date
            year_ended = periods.period_end(head, released, periods.YTD_QUARTERS[4])
            end_found = (year_ended[0].isoformat(), year_ended[1]) if year_ended else None
            return (f"FY{named.year}", named.source), end_found
        return (f"Q{quarter} FY{named.year}", named.source), None
    year_end = periods.fiscal_year_end(quarter, ended[0])
    year = named.year or fiscal_year_of(year_end)
    if named.year and named.year != fiscal_year_of(year_end):
        logger.info("fiscal year named by the release: %s, not %s", named.year, fiscal_year_of(year_end))
    return (f"Q{quarter} FY{year}", named.source), (year_end.isoformat(), ended[1])


def is_press_release(pages: Pages) -> bool:
    """True when the first page reads as a press release: a wire service, a "press / news release" label, or a
    ticker's parenthesis followed by "today …"."""
    if not pages:
        return False
    head = pages[0][1][:HEAD_CHARS]
    return bool(re.search(r"PR\s?Newswire|Business\s?Wire|GLOBE\s?NEWSWIRE|ACCESSWIRE|\b(?:press|news|earnings)\s+"
                          r"release\b|for\s+immediate\s+release", head, re.IGNORECASE)
                or (_TICKER.search(head) and _TODAY.search(head)))


_EXHIBIT = re.compile(r"^\s*(?:EX-|Exhibit\s+)99(?:\.\d+)?\b", re.IGNORECASE | re.MULTILINE)


def exhibit_release(pages: Pages, after: int) -> int | None:
    """The index into ``pages`` of the first page after ``after`` that opens an exhibit 99 ("Exhibit 99.1" in its
    first lines) reading as an earnings release (:func:`results_mark`); ``None`` when there is none."""
    for index in range(after + 1, len(pages)):
        number, text = pages[index]
        if _EXHIBIT.search(text[:300]) and results_mark([(number, text)]) is not None:
            return index
    return None

