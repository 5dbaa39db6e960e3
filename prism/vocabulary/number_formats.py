"""Number conventions: which mark a document writes its decimals with, decided once per table, and its figures read
with it (babel's locale number parsing).

Three conventions occur in the filings Prism reads: ``1,234.5`` (US and UK), ``1,23,456.50`` (Indian grouping, the
same marks) and ``1.234,5`` (German, Indonesian, most of continental Europe: a decimal comma and points between
thousands). A single figure often settles its own convention (:func:`evidence`): ``1.234,5`` and ``612,8`` have a
decimal comma, ``1,234.5``, ``2.41`` and ``1,23,456`` a decimal point; ``1,234`` and ``1.246`` do not (one mark and
three digits after it: a thousands group, or three decimals). :func:`decide` reads a table's cells: the marks its
unambiguous figures agree on, else the document's convention (``fallback``), else the decimal point; it is
*ambiguous* when its figures disagree, or when nothing settled it and a figure such as ``1.246`` depends on it — the
figure is then read by the majority (or the point) and the caller says so beside it. :func:`read_number` parses one
figure with babel (``parse_decimal``, strict; locale ``de`` for a decimal comma, ``en`` / ``en_IN`` for a point), and
:func:`house_marks` writes a text's figures with a decimal point and comma groups, the form every reader of a table
cell in Prism understands ("(612,8)" → "(612.8)", "1.234,5" → "1,234.5").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from prism.vocabulary import currencies

__all__ = ["AMBIGUOUS_NOTE", "DECIMAL_COMMA", "DECIMAL_POINT", "NOT_COMPUTED_NOTE", "NumberConvention", "decide",
           "evidence", "grouped", "house_marks", "is_cell_note", "lakh_grouped", "read_number", "split_cell_note",
           "takes_cell_note"]

DECIMAL_POINT = "."
"""``1,234.5`` and Indian ``1,23,456.50``."""
DECIMAL_COMMA = ","
"""``1.234,5``: a decimal comma and points between thousands."""

AMBIGUOUS_NOTE = "(number format unclear in the document: a point or comma may be a decimal mark; check the original)"
"""What a figure read with an ambiguous convention says after its value."""
NOT_COMPUTED_NOTE = ("Nothing is computed from these figures: the document's number format is unclear, so each could "
                     "be a thousand times off.")
"""What an answer says in place of a computation over figures read with an ambiguous convention."""

_NUMBER = re.compile(r"\d(?:[\d.,]*\d)?")
"""A run of digits with the marks between them ("1.234,5", "612,8", "1,23,456.50")."""
_THREE_AFTER_ONE_MARK = re.compile(r"\d{1,3}[.,]\d{3}")
_COMMA_GROUPS = re.compile(r"\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})+,\d{3}")
_POINT_GROUPS = re.compile(r"\d{1,3}(?:\.\d{3}){2,}")


@dataclass(frozen=True)
class NumberConvention:
    """How a table (or a document) writes its figures.

    Attributes:
        decimal: :data:`DECIMAL_POINT` or :data:`DECIMAL_COMMA`.
        ambiguous: True when the figures did not settle it (they disagree, or nothing decided and a figure such as
            "1.246" reads differently under each): a figure read with it must say so.
    """

    decimal: str = DECIMAL_POINT
    ambiguous: bool = False


def evidence(figure: str) -> str | None:
    """The decimal mark one figure as printed implies ("(1.234,5)", "24,6%", "€ 1,46"), or ``None`` when it implies
    none: no mark, or one mark followed by exactly three digits ("1,234", "1.246")."""
    match = _NUMBER.search(figure)
    if match is None:
        return None
    number = match.group()
    if "." in number and "," in number:
        return DECIMAL_COMMA if number.rfind(",") > number.rfind(".") else DECIMAL_POINT
    if "," in number:
        if _THREE_AFTER_ONE_MARK.fullmatch(number):
            return None
        return DECIMAL_POINT if _COMMA_GROUPS.fullmatch(number) else DECIMAL_COMMA
    if "." in number:
        if _THREE_AFTER_ONE_MARK.fullmatch(number):
            return None
        return DECIMAL_COMMA if _POINT_GROUPS.fullmatch(number) else DECIMAL_POINT
    return None


def _depends(figure: str) -> bool:
    """True when ``figure`` reads differently under the two conventions ("1.246", "1,234")."""
    match = _NUMBER.search(figure)
    return match is not None and _THREE_AFTER_ONE_MARK.fullmatch(match.group()) is not None


def decide(figures: Iterable[str], fallback: NumberConvention | None = None) -> NumberConvention:
    """The convention of a table whose cells are ``figures`` (as printed).

    Args:
        figures: the cells (any text; words and dashes imply nothing).
        fallback: the document's convention, used when no cell settles the table's; ``None``: the decimal point.

    Returns:
        The marks most unambiguous cells imply (a tie: the decimal point), ambiguous when some imply the other;
        without any, ``fallback`` when given, else the decimal point, ambiguous only when a cell written with a
        point and three digits ("1.246") depends on it (a comma there, "1,234", is read as the usual thousands
        group).
    """
    cells = list(figures)
    votes = [e for e in (evidence(c) for c in cells) if e is not None]
    if votes:
        commas = votes.count(DECIMAL_COMMA)
        decimal = DECIMAL_COMMA if commas > len(votes) - commas else DECIMAL_POINT
        return NumberConvention(decimal, 0 < commas < len(votes))
    if fallback is not None:
        return fallback
    dotted = any(_depends(c) and "." in c for c in cells)
    return NumberConvention(DECIMAL_POINT, dotted)


def read_number(figure: str, decimal: str = DECIMAL_POINT) -> Decimal | None:
    """The number one figure writes (its digits and marks only: no sign, currency or percent), read with babel.

    Args:
        figure: "1.234,5", "612,8", "1,234.5", "1,23,456.50", "2024".
        decimal: the convention's decimal mark (:data:`DECIMAL_POINT` or :data:`DECIMAL_COMMA`).

    Returns:
        The value, or ``None`` when ``figure`` is not one number written in that convention ("1,234.5" with a
        decimal comma; misplaced groups).
    """
    from babel.numbers import NumberFormatError, parse_decimal

    locales = ("de",) if decimal == DECIMAL_COMMA else ("en", "en_IN")
    for locale in locales:
        try:
            return parse_decimal(figure.strip(), locale=locale, strict=True)
        except NumberFormatError:
            continue
    return None


def _house(number: str, decimal: str) -> str:
    if "," not in number and "." not in number:
        return number  # "2024": no mark to rewrite (a year stays a year)
    value = read_number(number, decimal)
    if value is None:
        return number
    return f"{value:,f}"


def house_marks(text: str, decimal: str) -> str:
    """``text`` with each figure written with a decimal point and comma groups ("(612,8)" → "(612.8)", "1.234,5
    EUR" → "1,234.5 EUR", "1,46%" → "1.46%"), read with ``decimal`` (:func:`read_number`); unchanged for
    :data:`DECIMAL_POINT`. A run that is not one number in that convention is left as written."""
    if decimal != DECIMAL_COMMA:
        return text
    return _NUMBER.sub(lambda m: _house(m.group(), decimal), text)


_LAKH_GROUPS = re.compile(r"\d,\d{2},\d{3}(?!\d)")
"""Two-digit groups before the last three ("1,00,000", "3,84,250.75"): the Indian way of grouping."""


def lakh_grouped(figure: str) -> bool:
    """Whether ``figure`` groups its digits the Indian way, in lakhs and crores ("₹1,00,000", "3,84,250 crore"); a
    figure under a lakh ("50,000") settles nothing and gives ``False``."""
    return _LAKH_GROUPS.search(figure) is not None


def grouped(value: Decimal, *, lakh: bool = False) -> str:
    """``value`` written with a decimal point, its decimals as it states them, and its digits grouped in thousands
    ("-2,500,000.50") or, with ``lakh``, the Indian way ("-25,00,000.50"), by babel's CLDR patterns (``#,##0`` for
    ``en``, ``#,##,##0`` for ``en_IN``)."""
    from babel.numbers import format_decimal

    places = max(0, -int(value.as_tuple().exponent))
    pattern = ("#,##,##0" if lakh else "#,##0") + ("." + "0" * places if places else "")
    return format_decimal(value, format=pattern, locale="en_IN" if lakh else "en")


_CELL_NOTE = r"\([A-Za-z]{3}[A-Za-z .'/-]{0,28}\)"
"""A note in words printed after a cell's figure ("₹4,000 (spends)", "9.2 (aggregate)"): in parentheses, three letters
first, no digits, at most 31 characters."""
_NOTE_ONLY = re.compile(_CELL_NOTE)
_NOTE_AT_END = re.compile(rf"(?<=[\d%)])\s+{_CELL_NOTE}\s*$")
_NOTED_FIGURE = re.compile(rf"[,.%]|\d{{3}}|^\(?(?:{currencies.SYMBOL_CLASS}|Rs)")


def is_cell_note(text: str) -> bool:
    """True when ``text`` is a note in words as a table prints it after a figure: ``"(spends)"``, ``"(on-device
    wallet)"``; not ``"(a)"``, ``"(1,837)"`` or ``"(Note 4)"``."""
    return _NOTE_ONLY.fullmatch(" ".join(text.split())) is not None


def takes_cell_note(figure: str) -> bool:
    """True when a note in words after ``figure`` belongs to its cell: an amount, a rate or a number of three digits
    or more (``"₹4,000"``, ``"9.2"``, ``"12%"``, ``"500"``), not a label's small number (``"Tier 1 (core)"``)."""
    return _NOTED_FIGURE.search(figure) is not None


def split_cell_note(cell: str) -> tuple[str, str]:
    """``(figure, note)`` of a cell whose figure is followed by a note in words: ``"₹4,000 (spends)"`` →
    ``("₹4,000", "(spends)")``; any other cell → ``(cell, "")``. Only the shape is read: whether a note names a
    scale ("(in lakh)") is the caller's to judge."""
    m = _NOTE_AT_END.search(cell)
    return (cell[:m.start()], m.group(0).strip()) if m else (cell, "")
