"""Dates as Indian and European documents write them, day first: "31 March 2025", "31st March 2025", "31.12.2023",
"31/03/2024", "31-03-2024", "31-Mar-2024", "31-Mar-24".

:data:`DAY_FIRST_RE` finds such a date in a text (a pattern fragment without groups, for embedding in a column-header
or question pattern); :func:`read_date` reads one with dateparser (``DATE_ORDER="DMY"``, strict: day, month and
year must all be there), so "01/04/2024" is 1 April 2024 (an Indian fiscal year's first day), not January 4. A numeric
date that cannot be day first ("12/31/2023": no 31st month) is read month first, as a US document writes it.

Numeric dates need a four-digit year ("31.12.2023"; "10.5.12" is a section number, not a date); a date with its
month named may have a two-digit year when hyphenated ("31-Mar-24"). Month names come from
:mod:`prism.vocabulary.months`.
"""

from __future__ import annotations

import functools
import logging
import re
from datetime import date

from prism.vocabulary import months

logger = logging.getLogger(__name__)

__all__ = ["DAY_FIRST_RE", "read_date"]

_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_MONTH_NUMBER = r"(?:0?[1-9]|1[0-2])"
_YEAR4 = r"(?:19|20)\d{2}"
DAY_FIRST_RE = (
    rf"(?<![\w./-])(?:{_DAY}\.{_MONTH_NUMBER}\.{_YEAR4}|{_DAY}/{_MONTH_NUMBER}/{_YEAR4}|{_DAY}-{_MONTH_NUMBER}-{_YEAR4}"
    rf"|{_DAY}-(?:{months.ANY_RE})\.?-(?:{_YEAR4}|\d{{2}})"
    rf"|{_DAY}(?:st|nd|rd|th)?\s+(?:{months.ANY_RE})\.?,?\s+{_YEAR4}"
    rf"|{_MONTH_NUMBER}/(?:1[3-9]|2\d|3[01])/{_YEAR4})(?![\w./-]|,\d)"
)
"""A day-first date: numeric with ``.``, ``/`` or ``-`` and a four-digit year; ``31-Mar-2024`` / ``31-Mar-24``; or
``31 March 2025`` / ``31st Mar. 2025``; and a US numeric date that cannot be day first ("12/31/2023"). No groups;
use with ``re.IGNORECASE``."""
_MONTH_FIRST = re.compile(rf"^\s*{_MONTH_NUMBER}([./-])(1[3-9]|2\d|3[01])\1({_YEAR4})\s*$")


@functools.lru_cache(maxsize=4096)
def read_date(text: str) -> date | None:
    """The calendar date ``text`` writes, day first (see the module docstring), or ``None``.

    Args:
        text: one date as written ("31.12.2023", "31-Mar-2024", "31st March 2025"; "12/31/2023" is read month
            first because its second number cannot be a month).

    Returns:
        The date, or ``None`` when ``text`` is not one date (an impossible date such as "31.02.2024" included).
    """
    import dateparser  # imported on first use: it loads its language data (about a second)

    text = " ".join(text.split())
    month_first = _MONTH_FIRST.match(text)
    order = "MDY" if month_first else "DMY"
    try:
        parsed = dateparser.parse(text, languages=["en"], settings={"DATE_ORDER": order, "STRICT_PARSING": True})
    except (ValueError, OverflowError) as exc:
        logger.debug("not a date: %r (%s)", text, exc)
        return None
    return parsed.date() if parsed is not None else None
