"""Column headers of a table of figures, read from the text above its rows: the periods its columns are of.

A header is a period as statements print them: a year (``2015``), a fiscal year (``FY 2024-25``, ``2024-25``,
``FY24``), a quarter or half (``Q3 FY24``), a date month first (``December 31, 2018``) or day first (``31 March 2025``,
``31.03.2025``, ``31/03/2025``, ``31-Mar-2025``: :data:`prism.vocabulary.dates.DAY_FIRST_RE`). :func:`column_headers`
takes the last periods of the lines above a table's first row, one per column, even when the PDF set them one word
per line; a date that spans all columns of a balance sheet (``"December 31,"`` or ``"As at 31 March"`` over ``2018
2019``) is put in front of each year, one that follows "ended" (``"Year ended December 31,"``) is not; a 10-Q's
duration groups ("Three Months Ended June 30," over its years) are put in front of the columns under them.
Used by :mod:`prism.ingestion.tables.stored_text`.
"""

from __future__ import annotations

import re

from prism.vocabulary import dates

__all__ = ["PERIOD", "column_headers"]

_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|"
    r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_MONTH_DAY = rf"{_MONTH}\s*\d{{1,2}}"
_YEAR = r"(?:19|20)\d{2}(?:\s?[-–/]\s?(?:\d{4}|\d{2})(?!\d))?"
PERIOD = re.compile(
    rf"(?<![\w.])(?:{dates.DAY_FIRST_RE}|(?:{_MONTH_DAY}\s*,?\s*)?(?:(?:Q[1-4]|H[12]|[1-4]Q)\s+)?(?:FY\s?|Fiscal\s+)?{_YEAR}"
    rf"|(?:(?:Q[1-4]|H[12])\s+)?FY\s?'?\d{{2}})(?![\w%])",
    re.IGNORECASE,
)
"""One period as a column header prints it (see the module docstring)."""
_DURATION_GROUP = re.compile(
    rf"\b(?P<span>(?:three|six|nine|twelve|3|6|9|12)\s+months|(?:thirteen|twenty[\s-]six|thirty[\s-]nine|"
    rf"fifty[\s-]two|fifty[\s-]three|13|26|39|52|53)\s+weeks|quarter)\s+ended(?:\s+(?P<day>{_MONTH_DAY})\s*,?)?",
    re.IGNORECASE,
)
"""A 10-Q's column group: "Three Months Ended June 30," over its years (a 52/53-week year's "26 Weeks Ended")."""
_DAY_MONTH = rf"\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}"
_SPAN_DATE = re.compile(rf"({_MONTH_DAY}|{_DAY_MONTH})\s*,?\s*$", re.IGNORECASE)
_FULL_DATE = re.compile(rf"{_MONTH_DAY}|{dates.DAY_FIRST_RE}", re.IGNORECASE)
"""A header that is a whole date, month first ("December 31, 2018") or day first ("31 March 2025", "31.03.2025")."""
def _clean_period(text: str) -> str:
    text = " ".join(text.split())
    return re.sub(r",(?=\d)", ", ", text)


def column_headers(zone: str, n_cols: int) -> tuple[str, ...]:
    """The headers of a table's ``n_cols`` value columns: the last ``n_cols`` periods of the header zone's text (the
    lines above its first row, joined), a spanning as-of date put in front of bare years, a duration group in front
    of the periods under it; ``()`` when the zone names fewer periods."""
    found = list(PERIOD.finditer(zone))
    if len(found) < n_cols:
        return ()
    picked = found[-n_cols:]
    headers = [_clean_period(m.group()) for m in picked]
    dated = [bool(_FULL_DATE.match(h)) for h in headers]
    span: str | None = None
    ended = re.search(r"\bended\b", zone[max(0, picked[0].start() - 40) : picked[0].start()], re.IGNORECASE)
    month_first = bool(re.match(_MONTH_DAY, headers[0], re.IGNORECASE))
    if month_first and not any(dated[1:]) and n_cols > 1:  # "December 31, 2018 2017": the date spans the columns
        span = re.match(rf"{_MONTH_DAY}", headers[0], re.IGNORECASE).group()  # type: ignore[union-attr]
        headers[0] = headers[0][len(span) :].lstrip(" ,")
        span = None if ended else span
    elif not any(dated):
        before = zone[: picked[0].start()]
        match = _SPAN_DATE.search(before)
        if match and not re.search(r"\bended\b", before[max(0, match.start() - 40) : match.start()], re.IGNORECASE):
            span = match.group(1)
    if span:  # "December 31, 2018"; day first without the comma: "31 March 2025"
        comma = "" if re.match(r"\d", span) else ","
        headers = [f"{_clean_period(span)}{comma} {h}" for h in headers]
    return _with_durations(zone, picked, headers)


def _with_durations(zone: str, picked: list[re.Match[str]], headers: list[str]) -> tuple[str, ...]:
    """``headers`` under the duration groups above them: "Three Months Ended June 30," and "Six Months Ended June
    30," over ``2024 2023 2024 2023`` → "Three Months Ended June 30, 2024" … "Six Months Ended June 30, 2023", so
    each column keeps its duration (a quarter is not its half year). The groups split the columns evenly, left to
    right; groups set on one line with their dates on the next ("Three Months Ended Six Months Ended" over "June 30,
    June 30,") take those dates in order. Without groups, or when they do not divide the columns, the headers are
    returned unchanged."""
    groups = [g for g in _DURATION_GROUP.finditer(zone) if g.start() < picked[-1].start()]
    if not groups or len(headers) % len(groups):
        return tuple(headers)
    per = len(headers) // len(groups)
    days = [g.group("day") for g in groups]
    if not all(days):  # "Three Months Ended Six Months Ended" over "June 30, June 30,": the dates in order
        below = [m.group() for m in re.finditer(_MONTH_DAY, zone[groups[0].start():picked[0].end()], re.IGNORECASE)]
        days = below if len(below) == len(groups) else days
    out = []
    for j, header in enumerate(headers):
        group, day = groups[j // per], days[j // per]
        words = " ".join(zone[group.start():group.start("day") if group.group("day") else group.end()].split())
        if re.match(_MONTH_DAY, header, re.IGNORECASE) or not day:
            out.append(f"{words} {header}")
        else:
            out.append(f"{words} {_clean_period(day)}, {header}")
    return tuple(out)
