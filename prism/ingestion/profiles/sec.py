"""Profiles of SEC filings (10-K, 10-Q, 8-K) read from the cover page.

The cover names the form ("FORM 10-K"), the period ("For the fiscal year ended January 31, 2020", "For the quarterly
period ended June 30, 2022", "Date of report (Date of earliest event reported): August 19, 2022"), the registrant
(the line above "(Exact name of registrant as specified in its charter)") and, on covers since 2019, the trading
symbols ("Title of each class | Trading Symbol(s) | Name of each exchange on which registered"). Older covers have
no symbol column; then the symbol is read from Item 5 ("our common stock ... trades under the symbol NKE").
"""

from __future__ import annotations

import logging
import re
from collections import Counter

from prism.ingestion.profiles.periods import ytd_quarter
from prism.ingestion.profiles.text import (
    Found,
    Pages,
    add_months_end,
    collapse,
    find_dates,
    first_date_after,
    fiscal_year_of,
    source,
)
from prism.vocabulary import currencies, exchanges, legal

logger = logging.getLogger(__name__)

COVER_PAGES = 3
"""Pages searched for the cover (some filings open with a blank or a table-of-contents page)."""
SYMBOL_SEARCH_PAGES = 80
"""Pages searched for "under the symbol" when the cover has no symbol column."""

_SEC = re.compile(r"SECURITIES\s+AND\s+EXCHANGE\s+COMMISSION", re.IGNORECASE)
_FORM = re.compile(r"\bFORM\s+(10-K|10-Q|8-K)\b", re.IGNORECASE)
_CAPTION = re.compile(
    r"\(?\s*Exact\s+name\s+of\s+(?:the\s+)?registrant\s+as\s+specified\s+in\s+(?:its\s+)?charter", re.IGNORECASE
)
_FILE_NUMBER = re.compile(r"^\s*Commission\s+file\s+(?:number|no\.?)[^\n]*\n\s*([^\n]+)", re.IGNORECASE | re.MULTILINE)
_STOP_LINE = re.compile(  # cover lines that are never (part of) the registrant's name
    r"commission|file\s+n|\bnumber\b|\bform\s+\d|fiscal\s+year|transition\s+period|quarterly\s+period|"
    r"\bpursuant\b|\d{4,}|^[_\-=\s]*$",
    re.IGNORECASE,
)
_FISCAL_YEAR_ENDED = re.compile(r"for\s+the\s+fiscal\s+year\s+ended", re.IGNORECASE)
_QUARTER_ENDED = re.compile(r"for\s+the\s+quarterly\s+period\s+ended", re.IGNORECASE)
_REPORT_DATE = re.compile(r"Date\s+of\s+report\s*(?:\(\s*Date\s+of\s+earliest\s+event\s+reported\s*\))?", re.I)
_SYMBOL_ROW = re.compile(rf"(?<![A-Za-z$.\-])([A-Z]{{1,5}}(?:\.[A-Z]{{1,2}})?)\s+{exchanges.COVER_NAMES_RE}\b")
_NOT_SYMBOLS = {"THE", "NYSE", "PAR", currencies.USD, *legal.NOT_TICKERS}
_UNDER_SYMBOL = re.compile(
    r"common\s+stock[^.]{0,200}?under\s+the\s+(?:ticker\s+|trading\s+)?symbols?\s+[\"“”']?([A-Z]{1,5}(?:\.[A-Z])?)\b",
    re.IGNORECASE,
)
_SPLIT_SMALL_CAPS = re.compile(r"\b([A-Z]) ([A-Z]{3,})\b")
_LOWER_WORDS = {"and", "of", "the", "for", "&"}


_FORM_PERIOD = re.compile(r"\bFORM\s+(10-K|10-Q)\b[\s\-–—:,]{0,12}for\s+the\s+(?:fiscal\s+year|quarterly\s+period)"
                          r"\s+ended", re.IGNORECASE)
"""A filing's first line without the SEC's cover: "FORM 10-Q - For the quarterly period ended June 30, 2024"."""
FORM_LINES = 5
"""A cover-less filing's "FORM 10-Q - For the quarterly period ended …" starts one of the page's first lines."""
_COVER_MARK = re.compile(
    r"exact\s+name\s+of\s+(?:the\s+)?registrant|commission\s+file\s+(?:number|no)|\b20549\b|\(\s*mark\s+one\s*\)|"
    r"date\s+of\s+report|employer\s+identification|(?:annual|quarterly|current|transition)\s+report\s+pursuant",
    re.IGNORECASE,
)
"""Words only a cover prints: the registrant's caption, the file number, the SEC's ZIP code, "(Mark One)", an 8-K's
"Date of report", the IRS number, "ANNUAL REPORT PURSUANT TO SECTION 13 …". A press release that cites its "Form
10-K … filed with the Securities and Exchange Commission" has none of them."""


def _form_line(text: str) -> re.Match[str] | None:
    """:data:`_FORM_PERIOD` starting one of the first :data:`FORM_LINES` non-empty lines of ``text`` (not a
    sentence's "… our Quarterly Report on Form 10-Q for the quarterly period ended …")."""
    for m in _FORM_PERIOD.finditer(text[:3000]):
        before = text[: m.start()]
        starts_line = not before.strip() or before.rstrip(" \t").endswith("\n")
        if starts_line and sum(1 for line in before.split("\n") if line.strip()) < FORM_LINES:
            return m
    return None


def cover_page(pages: Pages) -> tuple[int, Found] | None:
    """``(index into pages, (form, source))`` of the first of the first :data:`COVER_PAGES` pages that names the
    SEC, a form 10-K, 10-Q or 8-K and a cover's own words (:data:`_COVER_MARK`) in its first 3,000 characters, or
    opens with a form 10-K / 10-Q followed by its period (:func:`_form_line`: an excerpt of a filing without the
    cover); ``None`` for documents that are not SEC filings (a press release naming its Form 10-K is none)."""
    for index, (number, text) in enumerate(pages[:COVER_PAGES]):
        head = text[:3000]
        form = _FORM.search(head) if _SEC.search(head) and _COVER_MARK.search(head) else _form_line(head)
        if form:
            return index, (form.group(1).upper(), source(number, text, form.start(), form.end()))
    return None


def _clean_name(name: str) -> str:
    name = collapse(name)
    name = re.sub(r"\s+([.,])", r"\1", name)
    while _SPLIT_SMALL_CAPS.search(name):  # "MGM R ESORTS I NTERNATIONAL" (small caps split by pypdf)
        name = _SPLIT_SMALL_CAPS.sub(r"\1\2", name)
    return name.strip(" ,;:")


def _title_case(name: str) -> str:
    """A name in capitals in title case: a legal suffix in its spelling ("INC." → "Inc.", "L.P." → "L.P.",
    :data:`prism.vocabulary.legal.SPELLING`), a short word or one with a digit kept ("IBM", "3M")."""
    words = []
    for i, word in enumerate(name.split()):
        low = word.lower()
        core = word.strip(".,")
        if core.lower() in legal.SPELLING:
            words.append(word.replace(core, legal.SPELLING[core.lower()], 1))
        elif any(ch.isdigit() for ch in word) or (len(core) <= 3 and low.strip(".,") not in _LOWER_WORDS):
            words.append(word)
        elif i and low in _LOWER_WORDS:
            words.append(low)
        else:
            words.append(word[:1].upper() + word[1:].lower())
    return " ".join(words)


def display_name(name: str, pages: Pages) -> str:
    """The name as the document writes it in running text when the cover prints it in capitals ("WALMART INC."
    → "Walmart Inc."): the most frequent mixed-case spelling in the document, else a title-cased form."""
    if name != name.upper():
        return name
    pattern = re.compile(r"(?<!\w)" + r"\s+".join(re.escape(t) for t in name.split()) + r"(?!\w)", re.IGNORECASE)
    variants: Counter[str] = Counter()
    for _, text in pages:
        for m in pattern.finditer(text):
            spelled = collapse(m.group(0))
            if spelled != spelled.upper():
                variants[spelled] += 1
    return variants.most_common(1)[0][0] if variants else _title_case(name)


def _registrant_above(text: str, caption_start: int) -> tuple[str, int] | None:
    """The name on the lines just above the caption; fragments a PDF split one per line are joined."""
    lines = text[:caption_start].split("\n")
    offsets, total = [], 0
    for line in lines:
        offsets.append(total)
        total += len(line) + 1
    picked: list[int] = []
    for i in range(len(lines) - 1, max(-1, len(lines) - 12), -1):
        line = lines[i].strip()
        if not line:
            if picked:
                break
            continue
        if _STOP_LINE.search(line) or line.startswith("("):
            break
        if picked and not (len(line) <= 3 or len(lines[picked[-1]].strip()) <= 3):
            break
        picked.append(i)
    if not picked:
        return None
    name = _clean_name(" ".join(lines[i] for i in reversed(picked)))
    return (name, offsets[picked[-1]]) if re.search(r"[A-Za-z]", name) else None


def registrant(pages: Pages, cover: int) -> Found | None:
    """The registrant named on the cover (``pages[cover]``) with its source, in its running-text spelling."""
    number, text = pages[cover]
    caption = _CAPTION.search(text)
    if caption:
        above = _registrant_above(text, caption.start())
        if above:
            name, start = above
            return display_name(name, pages), source(number, text, start, caption.end())
    m = _FILE_NUMBER.search(text)  # covers without the caption (3M): the name follows the file number
    if m and not re.match(r"\s*\(|\s*(?:state|indicate|delaware)", m.group(1), re.IGNORECASE):
        return display_name(_clean_name(m.group(1)), pages), source(number, text, m.start(1), m.end(1))
    return _name_above_form(pages, cover)


def _name_above_form(pages: Pages, cover: int) -> Found | None:
    """A filing without the cover: the company on the line above "FORM 10-Q …" when it ends in a legal suffix
    ("ORBITAL LOOM PAYMENTS, INC.")."""
    number, text = pages[cover]
    form = _form_line(text)
    lines = [line for line in text[:form.start()].split("\n") if line.strip()] if form else []
    name = _clean_name(lines[-1]) if lines else ""
    if not name or name.split()[-1].lower().rstrip(".") not in legal.SPELLING:
        return None
    start = text.find(lines[-1])
    return display_name(name, pages), source(number, text, start, start + len(lines[-1]))


def ticker(pages: Pages, cover: int) -> Found | None:
    """The first trading symbol of the cover's 12(b) table (the common stock), else the symbol Item 5 gives the
    common stock ("under the symbol “NFLX”"); ``None`` when neither is there."""
    number, text = pages[cover]
    start = text.find("12(b)")
    header = text.find("Trading Symbol", max(start, 0))
    if start >= 0 and header >= 0:
        region_end = text.find("12(g)", header)
        region_end = region_end if region_end > 0 else header + 2500
        for m in _SYMBOL_ROW.finditer(text, header, region_end):
            if m.group(1) not in _NOT_SYMBOLS:
                return m.group(1), source(number, text, m.start(1), m.end())
    for page_number, page_text in pages[:SYMBOL_SEARCH_PAGES]:
        under = _UNDER_SYMBOL.search(page_text)
        if under:
            return under.group(1).upper(), source(page_number, page_text, under.start(), under.end())
    return None


def _defined_fiscal_year(pages: Pages, end_text: str) -> Found | None:
    """A fiscal-year name the document defines for the year ending on ``end_text``: '... January 31, 2020
    ("fiscal 2020")'."""
    pattern = re.compile(
        re.escape(end_text) + r"\s*\(\s*[\"“”']?\s*fiscal\s+(?:year\s+)?(\d{4})\s*[\"“”']?\s*\)", re.IGNORECASE
    )
    for number, text in pages[:SYMBOL_SEARCH_PAGES]:
        m = pattern.search(text)
        if m:
            return m.group(1), source(number, text, m.start(), m.end())
    return None


def annual_period(pages: Pages, cover: int) -> tuple[Found, Found] | None:
    """``(period "FY2020", fiscal_year_end "2020-01-31")`` from "For the fiscal year ended January 31, 2020".

    The fiscal year is named as the document names it when it says so ('January 31, 2020 ("fiscal 2020")'), else
    by :func:`~prism.ingestion.profiles.text.fiscal_year_of`.
    """
    number, text = pages[cover]
    m = _FISCAL_YEAR_ENDED.search(text)
    hit = first_date_after(text, m.end()) if m else None
    if m is None or hit is None:
        return None
    end, _, hit_end = hit
    src = source(number, text, m.start(), hit_end)
    year = fiscal_year_of(end)
    defined = _defined_fiscal_year(pages, collapse(text[hit[1]:hit_end]))
    if defined and int(defined[0]) != year:
        logger.info("fiscal year named by the document: %s instead of %s", defined[0], year)
        year = int(defined[0])
        src = defined[1]
    return (f"FY{year}", src), (end.isoformat(), source(number, text, m.start(), hit_end))


def quarterly_period(pages: Pages, cover: int) -> tuple[Found, Found] | None:
    """``(period "Q2 FY2022", fiscal_year_end "2022-12-31")`` of a 10-Q.

    The quarter number comes from the year-to-date columns ("Six months ended June 30" → 2, none → 1:
    :func:`~prism.ingestion.profiles.periods.ytd_quarter`); the fiscal year ends
    ``3 × (4 − quarter)`` months after the quarter's month (month end; a 52/53-week year may end a few days off)
    and is named by :func:`~prism.ingestion.profiles.text.fiscal_year_of`.
    """
    number, text = pages[cover]
    m = _QUARTER_ENDED.search(text)
    hit = first_date_after(text, m.end()) if m else None
    if m is None or hit is None:
        return None
    end, _, hit_end = hit
    ytd = ytd_quarter(pages[:40], end.month)
    quarter = ytd[0] if ytd else 1  # a first quarter has only "Three months ended" columns
    year_end = add_months_end(end, 3 * (4 - quarter))
    src = source(number, text, m.start(), hit_end)
    return (f"Q{quarter} FY{fiscal_year_of(year_end)}", src), (year_end.isoformat(), src)


def report_date(pages: Pages, cover: int) -> Found | None:
    """The ISO date of an 8-K's "Date of report (Date of earliest event reported): August 19, 2022"."""
    number, text = pages[cover]
    m = _REPORT_DATE.search(text)
    hit = first_date_after(text, m.end(), within=80) if m else None
    if m is None or hit is None:
        dates = find_dates(text)
        return None if not dates else (dates[0][0].isoformat(), source(number, text, dates[0][1], dates[0][2]))
    return hit[0].isoformat(), source(number, text, m.start(), hit[2])
