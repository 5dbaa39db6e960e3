"""The periods a question names, and what each is called in one document's own fiscal calendar.

:func:`find_periods` reads the periods of a question, in text order, without knowing any document: period codes
(the one vocabulary of :mod:`prism.index.period_codes`: "FY2018", "FY24", "FY 2023-24", "Q3 FY24", "Q3FY24",
"3QFY24", "H1 FY25", "2022 Q2", and an Indian fiscal year without "FY": "2024-25", the year ending in 2025), "fiscal
2018" / "fiscal year 2018", "the second quarter of fiscal 2022", dates ("year ended December 31, 2015", "as of March
31, 2024", "30 September 2024", and day first as Indian and European documents write them: "31.12.2023",
"31/03/2024", "31-Mar-2024", read by :func:`prism.vocabulary.dates.read_date`; a day written without its year
before another that has one takes that year: "June 30 and December 31, 2019", "30 June and 31 December 2019") and a
bare year ("in 2015"). A
date after a stated duration keeps it (:attr:`~prism.types.PeriodMention.months`): "three months ended June 30,
2024", "quarter ended …" (3), "six months ended …" (6), "nine months ended …" (9), a 52/53-week year's "13 / 26 / 39
/ 52 weeks ended …" (3 / 6 / 9 / 12); so do "first half of 2024" / "second half of fiscal 2023" (``H1`` / ``H2``)
and "first three / six / nine months of 2024" (Q1 / H1 / nine months), the periods of a 10-Q's columns. A range
("FY2018 - FY2020", "from FY2016 to FY2018", "2018-2020") names every year in it (at most
:data:`MAX_RANGE_YEARS`), a range of quarters every quarter ("from Q2 FY24 to Q2 FY25": five); "between FY20 and
FY21" names its two years.

:func:`period_label` names one mention in the profile convention of :mod:`prism.ingestion.profiles.read` (``FY2024``,
``Q3 FY2024``, ``H1 FY2025``, an ISO date) with one document's fiscal year end: "as of March 31, 2024" is
``FY2024`` for an Indian bank (its year ends on 31 March) and ``Q1 FY2024`` for a calendar-year company; "2019" is
``FY2019`` for Amazon and ``FY2020`` for Walmart, whose FY2020 runs from February 2019 to 31 January 2020. A
period with a duration is named by it: the six months ended June 30, 2024 are ``H1 FY2024`` and the three months
``Q2 FY2024`` of a calendar-year company, the nine months ended September 30 ``9M FY2024``.

:func:`duration_hint` reads the duration a question implies without naming a period ("the quarter", "first half",
"year to date"), for picking among a 10-Q's three- and six-month columns.
"""

from __future__ import annotations

import logging
import re
from datetime import date, timedelta

from prism.index.period_codes import PERIOD_CODE_RE, code_of
from prism.types import PeriodMention
from prism.vocabulary import dates, months, units

logger = logging.getLogger(__name__)

__all__ = ["MAX_RANGE_YEARS", "YEAR_TO_DATE", "closes_prior_year", "duration_hint", "duration_of", "find_periods",
           "is_period_code", "period_label"]

MAX_RANGE_YEARS = 10
"""A range spanning more years than this ("1990-2024") names only its two ends."""

_MONTHS = months.NUMBER
_MONTH = rf"(?P<month>{months.ANY_RE})\.?"
_DATE_RE = re.compile(
    rf"\b(?:{_MONTH}\s+(?P<day>[0-3]?[0-9])(?:st|nd|rd|th)?,?\s+(?P<year>(?:19|20)[0-9]{{2}})"
    rf"|(?P<day2>[0-3]?[0-9])(?:st|nd|rd|th)?\s+{_MONTH.replace('month', 'month2')}"
    rf"\s+(?P<year2>(?:19|20)[0-9]{{2}}))\b",
    re.IGNORECASE,
)
_DAY_FIRST_RE = re.compile(dates.DAY_FIRST_RE, re.IGNORECASE)
"""Numeric and hyphenated dates ("31.12.2023", "31/03/2024", "31-Mar-2024"), read by :func:`prism.vocabulary.dates.
read_date` (dateparser, day first)."""
_ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
_WORD_QUARTER_RE = re.compile(
    r"\b(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)\s+(?:fiscal\s+)?quarter\s+(?:of\s+|in\s+)?(?:fiscal\s+)?"
    r"(?:year\s+)?(?P<year>(?:19|20)[0-9]{2})\b", re.IGNORECASE)
_FISCAL_RE = re.compile(r"\bfiscal\s+(?:year\s+)?(?P<year>(?:19|20)[0-9]{2})\b", re.IGNORECASE)
_YEAR_RE = re.compile(r"(?<![\w$€£₹./])(?:(?<=[0-9]{4},)|(?<!,))(?P<year>(?:19[7-9]|20[0-9])[0-9])"
                      r"(?![\w%]|\.[0-9]|,(?!(?:19|20)[0-9]{2}(?![0-9]))[0-9]|-[0-9]{2}-)"
                      rf"(?!\s*(?:{units.SPOKEN_RE}|{units.ABBREVIATION_RE})\b)", re.IGNORECASE)
_YEAR4 = r"(?P<year>(?:19|20)[0-9]{2})"
_DAY_WITHOUT_YEAR_RE = re.compile(
    rf"\b(?:{_MONTH}\s+(?P<day>[0-3]?[0-9])(?:st|nd|rd|th)?|(?P<day2>[0-3]?[0-9])(?:st|nd|rd|th)?\s+"
    rf"{_MONTH.replace('month', 'month2')})\b(?=(?P<joint>,?\s*(?:and|or|to|through|-|–|,)\s*))", re.IGNORECASE)
""""June 30" / "30 June" before a joining word, where the next date written gives the year of both."""
_DURATION_MONTHS = {"three": 3, "3": 3, "six": 6, "6": 6, "nine": 9, "9": 9, "twelve": 12, "12": 12,
                    "thirteen": 3, "13": 3, "twenty-six": 6, "26": 6, "thirty-nine": 9, "39": 9,
                    "fifty-two": 12, "52": 12, "fifty-three": 12, "53": 12, "quarter": 3, "quarterly": 3}
"""Durations in months: a count of months, a 52/53-week year's weeks (13 a quarter, 26 a half, 39 nine months)."""
_DURATION_BEFORE_RE = re.compile(
    r"\b(?:(?P<months>three|six|nine|twelve|3|6|9|12)[\s-]+months?|(?P<weeks>thirteen|twenty[\s-]six|"
    r"thirty[\s-]nine|fifty[\s-]two|fifty[\s-]three|13|26|39|52|53)[\s-]+weeks?|(?P<quarter>quarter(?:ly)?))"
    r"(?:\s+period)?\s+end(?:ed|ing)\s*,?\s*(?:on\s+)?$", re.IGNORECASE)
"""A stated duration right before a date: "three months ended ", "26 weeks ended ", "quarter ended "."""
_PART_OF_YEAR_RE = re.compile(
    r"\b(?:(?P<half>first|second|1st|2nd)\s+half|first\s+(?P<count>three|six|nine|3|6|9)\s+months)"
    rf"\s+(?:of\s+|in\s+)?(?:the\s+)?(?:fiscal\s+)?(?:year\s+)?{_YEAR4}\b", re.IGNORECASE)
YEAR_TO_DATE = 0
""":func:`duration_hint` of "year to date" / "YTD": the longest period a filing reports up to its latest date."""
_HINTS = (
    (YEAR_TO_DATE, re.compile(r"\b(?:year[\s-]to[\s-]date|ytd)\b", re.IGNORECASE)),
    (9, re.compile(r"\b(?:nine|9)[\s-]months?\b|\b(?:thirty[\s-]nine|39)[\s-]weeks?\b", re.IGNORECASE)),
    (6, re.compile(r"\b(?:six|6)[\s-]months?\b|\b(?:twenty[\s-]six|26)[\s-]weeks?\b|\bhalf\b|\bh[12]\b"
                   r"|\b(?:half[\s-]year(?:ly)?|semi[\s-]?annual)\b", re.IGNORECASE)),
    (3, re.compile(r"\b(?:three|3)[\s-]months?\b|\b(?:thirteen|13)[\s-]weeks?\b|\bquarter(?:ly)?\b|\bq[1-4]\b",
                   re.IGNORECASE)),
)
"""Duration words of a question, most specific first ("first half of the quarter" is rare; "six months" wins)."""
_RANGE_RE = re.compile(r"^\s*(?:-|–|—|to|through|thru|until)\s*$", re.IGNORECASE)


def _date_mention(question: str, m: re.Match[str]) -> PeriodMention | None:
    """The date one :data:`_DATE_RE` or :data:`_DAY_FIRST_RE` match writes, with the duration stated right before it
    ("six months ended June 30, 2024": ``months`` 6, the span widened to hold the words); ``None`` for an impossible
    date."""
    if "month" in m.re.groupindex:
        month = _MONTHS[(m.group("month") or m.group("month2")).lower()[:3]]
        day, year = int(m.group("day") or m.group("day2")), int(m.group("year") or m.group("year2"))
        try:
            iso = date(year, month, day).isoformat()
        except ValueError:
            return None
    else:
        read = dates.read_date(m.group())
        if read is None:
            return None
        iso, year = read.isoformat(), read.year
    before = _DURATION_BEFORE_RE.search(question[max(0, m.start() - 40):m.start()])
    if before is None:
        return PeriodMention(m.group(), "date", year, None, iso, m.start(), m.end())
    word = (before.group("months") or before.group("weeks") or before.group("quarter")).lower()
    start = max(0, m.start() - 40) + before.start()
    months = _DURATION_MONTHS[re.sub(r"\s+", "-", word)]
    return PeriodMention(question[start:m.end()], "date", year, None, iso, start, m.end(), months)


def _part_of_year(m: re.Match[str]) -> PeriodMention:
    """"first half of 2024" → H1 2024, "second half of fiscal 2023" → H2 2023, "first nine months of 2024" → nine
    months (kind ``Q``, part 3, ``months`` 9), "first six / three months" → H1 / Q1."""
    year = int(m.group("year"))
    if m.group("half"):
        part = 1 if m.group("half").lower() in ("first", "1st") else 2
        return PeriodMention(m.group(), "H", year, part, None, m.start(), m.end(), 6)
    months = _DURATION_MONTHS[m.group("count").lower()]
    if months == 6:
        return PeriodMention(m.group(), "H", year, 1, None, m.start(), m.end(), 6)
    return PeriodMention(m.group(), "Q", year, months // 3, None, m.start(), m.end(), months)


def _shared_year(question: str, m: re.Match[str], found: list[PeriodMention]) -> PeriodMention | None:
    """The date a :data:`_DAY_WITHOUT_YEAR_RE` match writes, in the year of the dated mention right after its joining
    word ("June 30 and December 31, 2019": June 30, 2019); ``None`` when none follows or the day is impossible."""
    after = m.end() + len(m.group("joint"))
    nxt = next((f for f in found if f.kind == "date" and f.start == after and f.date), None)
    if nxt is None:
        return None
    month = _MONTHS[(m.group("month") or m.group("month2")).lower()[:3]]
    try:
        iso = date(nxt.year, month, int(m.group("day") or m.group("day2"))).isoformat()
    except ValueError:
        return None
    return PeriodMention(m.group(), "date", nxt.year, None, iso, m.start(), m.end())


def _mentions(question: str) -> list[PeriodMention]:
    """Every single period the question writes, in text order; spans never overlap (codes and dates first)."""
    found: list[PeriodMention] = []
    taken: list[tuple[int, int]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    def add(mention: PeriodMention) -> None:
        found.append(mention)
        taken.append((mention.start, mention.end))

    for code in PERIOD_CODE_RE.finditer(question):
        for kind, part, year in code_of(code):
            add(PeriodMention(code.group().strip(), kind, year, part, None, code.start(), code.end()))
    for pattern in (_DATE_RE, _DAY_FIRST_RE):
        for m in pattern.finditer(question):
            dated = _date_mention(question, m) if free(m.start(), m.end()) else None
            if dated is not None:
                add(dated)
    for m in _DAY_WITHOUT_YEAR_RE.finditer(question):
        if (shared := _shared_year(question, m, found)) is not None and free(m.start(), m.end()):
            add(shared)
    for m in _PART_OF_YEAR_RE.finditer(question):
        if free(m.start(), m.end()):
            add(_part_of_year(m))
    for m in _WORD_QUARTER_RE.finditer(question):
        if free(m.start(), m.end()):
            add(PeriodMention(m.group(), "Q", int(m.group("year")), _ORDINALS[m.group("ord").lower()], None,
                              m.start(), m.end()))
    for m in _FISCAL_RE.finditer(question):
        if free(m.start(), m.end()):
            add(PeriodMention(m.group(), "FY", int(m.group("year")), None, None, m.start(), m.end()))
    for m in _YEAR_RE.finditer(question):
        if free(m.start(), m.end()):
            add(PeriodMention(m.group(), "year", int(m.group("year")), None, None, m.start(), m.end()))
    return sorted(found, key=lambda p: (p.start, p.part or 0, p.year))


def _fill_ranges(question: str, mentions: list[PeriodMention]) -> list[PeriodMention]:
    """``mentions`` with the years between the two ends of each range added ("FY2018 - FY2020" → FY2019 too;
    "2019 to 2017" → 2018), and the quarters between two quarters ("Q2 FY24 to Q2 FY25" → Q3 FY24, Q4 FY24, Q1 FY25;
    at most :data:`MAX_RANGE_YEARS` years of them)."""
    out: list[PeriodMention] = []
    for i, m in enumerate(mentions):
        out.append(m)
        nxt = mentions[i + 1] if i + 1 < len(mentions) else None
        if nxt is None or m.kind not in ("FY", "year", "Q") or nxt.kind != m.kind:
            continue
        if not _RANGE_RE.match(question[m.end:nxt.start]):
            continue  # "between FY20 and FY21": its two ends are all it names
        if m.kind == "Q":
            out.extend(_quarters_between(m, nxt))
            continue
        span = nxt.year - m.year
        if 1 < abs(span) <= MAX_RANGE_YEARS:  # a descending range ("2019 to 2017") names its years in its order
            step = 1 if span > 0 else -1
            for year in range(m.year + step, nxt.year, step):
                text = f"{m.text} … {nxt.text}"
                out.append(PeriodMention(text, m.kind, year, None, None, m.start, nxt.end))
    return out


def _quarters_between(first: PeriodMention, last: PeriodMention) -> list[PeriodMention]:
    """The quarters strictly between two quarter mentions, in the range's order (none when they are adjacent or
    more than :data:`MAX_RANGE_YEARS` years apart)."""
    a, b = first.year * 4 + (first.part or 1) - 1, last.year * 4 + (last.part or 1) - 1
    if not 1 < abs(b - a) <= 4 * MAX_RANGE_YEARS:
        return []
    step = 1 if b > a else -1
    text = f"{first.text} … {last.text}"
    return [PeriodMention(text, "Q", k // 4, k % 4 + 1, None, first.start, last.end) for k in range(a + step, b, step)]


def find_periods(question: str) -> tuple[PeriodMention, ...]:
    """The periods a question names (see the module docstring for every form).

    Args:
        question: the analyst's question, any case.

    Returns:
        Mentions in text order (a range's inner years right after its first end), without repeats of the same
        ``(kind, part, year, date, months)``; ``()`` when the question names no period. Kinds: ``"FY"`` (a fiscal year),
        ``"Q"`` (quarter ``part`` 1-4 of fiscal year ``year``), ``"H"`` (half ``part`` 1-2), ``"date"`` (``date``
        an ISO date), ``"year"`` (a bare four-digit year 1970-2099, not an amount: "2,015", "$2015", "2015.5",
        "2015 million" are not years). ``months`` holds a stated duration (see the module docstring).
    """
    seen: set[tuple[str, int | None, int, str | None, int | None]] = set()
    out: list[PeriodMention] = []
    for m in _fill_ranges(question, _mentions(question)):
        key = (m.kind, m.part, m.year, m.date, m.months)
        if key not in seen:
            seen.add(key)
            out.append(m)
    return tuple(out)


_PERIOD_CODE = re.compile(r"(?:fy|cy|q[1-4]|h[12]|[1-4]q)[0-9]{0,4}(?:fy[0-9]{0,4})?")


def is_period_code(token: str, *, years: bool = False) -> bool:
    """Whether the index token ``token`` (lower case, as :func:`prism.index.tokenizer.tokenize` gives it) names a
    fiscal period ("q3", "fy25", "q3fy25", "h1fy"), or with ``years`` also a bare year or year code ("2019", "19"):
    it names when, not what."""
    return bool(_PERIOD_CODE.fullmatch(token)) or (years and token.isdigit() and 2 <= len(token) <= 4)


def closes_prior_year(day: date, *, first_day: int = 1) -> bool:
    """Whether ``day`` falls in the first week of January (from ``first_day``, 1-7): where a 52/53-week fiscal year
    ends (the Saturday nearest 31 December, or the first Saturday of January), a year named by the calendar year
    before ("fiscal 2019" ended January 3, 2020). ``first_day=2`` leaves out 1 January, which in a table with no
    fiscal year end profiled is an opening balance of its own year ("Balance at January 1, 2019")."""
    return day.month == 1 and first_day <= day.day <= 7


def _fiscal_year_name(end: date) -> int:
    """The profile's name for the fiscal year ending on ``end``: its calendar year, or the year before for a
    52/53-week year ending in the first seven days of January (:func:`closes_prior_year`)."""
    return end.year - 1 if closes_prior_year(end) else end.year


def _year_end_in(year: int, fye: date) -> date:
    """The fiscal year end with ``fye``'s month and day in calendar ``year`` (28 February for 29 February)."""
    day = min(fye.day, 28) if fye.month == 2 else fye.day
    return date(year, fye.month, day)


def _date_label(day: date, fye: date) -> str:
    """``day`` in the fiscal calendar ending on ``fye``'s month and day: ``FY<y>`` within a week of a year end,
    ``Q<n> FY<y>`` within ten days of a quarter end, else the ISO date."""
    end = next(e for e in (_year_end_in(y, fye) for y in range(day.year - 1, day.year + 2))
               if e >= day - timedelta(days=7))
    gap = (end - day).days
    if abs(gap) <= 7:
        return f"FY{_fiscal_year_name(end)}"
    quarters_left = round(gap / 91.3)
    if 1 <= quarters_left <= 3 and abs(gap - quarters_left * 91.3) <= 10:
        return f"Q{4 - quarters_left} FY{_fiscal_year_name(end)}"
    return day.isoformat()


def duration_of(mention: PeriodMention) -> int | None:
    """The months a mention spans: its stated ``months``, else what its kind implies (``Q`` 3, ``H`` 6, ``FY``
    12); ``None`` for a date or a bare year without a stated duration."""
    return mention.months or {"Q": 3, "H": 6, "FY": 12}.get(mention.kind)


def duration_hint(question: str) -> int | None:
    """The duration a question implies, in months, when it names one without (or besides) a period: "the quarter",
    "three months", "Q2", "13 weeks" → 3; "first half", "six months", "H1", "26 weeks" → 6; "nine months" → 9;
    "year to date" / "YTD" → :data:`YEAR_TO_DATE`; ``None`` when it implies none (then a filing's own period, its
    first column, is read)."""
    for hinted, pattern in _HINTS:
        if pattern.search(question):
            return hinted
    return None


def _duration_label(day: date, months: int, fye: date) -> str:
    """A period of ``months`` ending on ``day`` in the fiscal calendar ending on ``fye``'s month and day: ``Q2
    FY2024`` (3), ``H1 FY2024`` (6, ending at the second quarter's end), ``9M FY2024`` (9, at the third's),
    ``FY2024`` (12, at the year end), else ``"<months>M <ISO date>"``."""
    label = _date_label(day, fye)
    m = re.fullmatch(r"(?:Q([1-4]) )?FY(\d{4})", label)
    if m is None:
        return f"{months}M {day.isoformat()}"
    quarter, year = int(m.group(1) or 4), m.group(2)
    if months == 3:
        return f"Q{quarter} FY{year}"
    if months == 6 and quarter in (2, 4):
        return f"H{quarter // 2} FY{year}"
    if months == 9 and quarter == 3:
        return f"9M FY{year}"
    if months == 12 and quarter == 4:
        return f"FY{year}"
    return f"{months}M {day.isoformat()}"


def period_label(mention: PeriodMention, fiscal_year_end: str | None) -> str:
    """One mention named as a document with this fiscal year end names its periods.

    Args:
        mention: from :func:`find_periods`.
        fiscal_year_end: the document profile's ``fiscal_year_end`` (ISO date; only its month and day count), or
            ``None`` when the document has none (a circular): then a date stays an ISO date and a bare year is
            ``FY<year>``.

    Returns:
        ``"FY2024"``, ``"Q3 FY2024"``, ``"H1 FY2025"``, ``"9M FY2024"`` (nine months) or an ISO date. Fiscal years
        are named by the calendar year they end in; a bare year is the fiscal year that ends in it, except for a
        year ending in January or February, which is named after the calendar year that holds most of it
        (Walmart's "2019" is FY2020). A date with a stated duration names that period (:func:`_duration_label`;
        without a fiscal year end, in the calendar year, the usual one of a 10-Q): "six months ended June 30,
        2024" → ``H1 FY2024``, never the quarter's ``Q2 FY2024``; one that fits no quarter end keeps its duration,
        ``"6M 2024-05-15"``.
    """
    if mention.kind == "FY":
        return f"FY{mention.year}"
    if mention.kind == "Q" and mention.months == 9:
        return f"9M FY{mention.year}"
    if mention.kind in ("Q", "H"):
        return f"{mention.kind}{mention.part} FY{mention.year}"
    fye = date.fromisoformat(fiscal_year_end) if fiscal_year_end else None
    if mention.kind == "year":
        return f"FY{mention.year + 1}" if fye and fye.month <= 2 and fye.day > 7 else f"FY{mention.year}"
    day = date.fromisoformat(str(mention.date))
    if mention.months:
        return _duration_label(day, mention.months, fye or date(day.year, 12, 31))
    return _date_label(day, fye) if fye else day.isoformat()
