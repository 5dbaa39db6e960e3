"""The one reader of a table cell as a number, for the cell quotes, the statement-metric inputs and the row
arithmetic of :mod:`prism.answering.derived`; and of a number phrase (:func:`read_number_words`, from
:mod:`prism.vocabulary.number_words`: "fifteen crore", "1,23,456", "2:1")."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from prism.vocabulary import currencies, number_formats, number_words
from prism.vocabulary.number_words import read_number_words

__all__ = ["cell_number", "read_number_words"]

_CELL = re.compile(
    r"(?P<open>\()?\s*(?P<minus>[-−–])?\s*(?:US\$|Rs\.?|INR|[$€£¥₹])?\s*(?P<open2>\()?\s*(?P<minus2>[-−–])?\s*"
    r"(?P<num>\d[\d,]*(?:\.\d+)?|\.\d+)\s*(?P<close>\))?\s*(?P<pct>%)?\s*(?P<close2>\))?",
    re.IGNORECASE,
)
_MARK = re.compile(rf"^(?:{currencies.MARK_RE})\s*", re.IGNORECASE)


def cell_number(cell: str) -> Decimal | None:
    """The number a table cell states, or ``None`` for a dash, an empty cell or text.

    ``"1,234"`` → 1234; ``"$1,139,927"``, ``"€ 4,411"``, ``"₹ 12.5"`` → the number without its currency sign;
    ``"(1,837)"``, ``"$(5,637)"``, ``"-5.2"`` and ``"−5.2"`` → negative (accounting parentheses are a minus sign);
    ``"3.40%"`` → 3.40 (the percent is the cell's unit, kept by the caller); a note in words after the figure is not
    part of it (``"₹4,000 (spends)"`` → 4000) unless it names a scale ("4,000 (in lakh)" is not a number).
    Thousands separators are dropped, in western or Indian grouping (``"1,23,456"`` → 123456); a cell with two
    numbers ("2019 2018", "n/m") is not a number. A cell that is one number in words, or a ratio, is read by
    :func:`read_number_words`: ``"fifteen"``, ``"₹ fifteen"`` → 15, ``"2:1"`` → 2; other words ("Nil", "Free",
    "one of two") are not numbers, nor is a cell with a scale word ("5 lakh", "fifteen crore": the table's unit is
    the caller's to apply, and a cell's own would be applied twice).
    """
    text = str(cell).strip()
    figure, note = number_formats.split_cell_note(text)
    if note and not any(w.lower() in number_words.SCALES for w in re.findall(r"[A-Za-z]+", note)):
        text = figure
    m = _CELL.fullmatch(text)
    if m is None:
        return _word_number(text)
    opened = bool(m.group("open") or m.group("open2"))
    closed = bool(m.group("close") or m.group("close2"))
    if opened != closed:
        return None
    raw = m.group("num").replace(",", "")
    try:
        value = Decimal(raw)
    except InvalidOperation:
        return None
    negative = opened or bool(m.group("minus") or m.group("minus2"))
    return -value if negative else value


def _word_number(text: str) -> Decimal | None:
    """A cell that is a ratio ("2:1") or one number in words without a scale word ("fifteen", "₹ fifteen")."""
    text = _MARK.sub("", text)
    if not text or any(w.lower() in number_words.SCALES for w in re.findall(r"[A-Za-z]+", text)):
        return None
    return read_number_words(text)
