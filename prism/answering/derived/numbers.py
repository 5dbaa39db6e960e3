"""The one reader of a table cell as a number, for the cell quotes, the statement-metric inputs and the row
arithmetic of :mod:`prism.answering.derived`."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

__all__ = ["cell_number"]

_CELL = re.compile(
    r"(?P<open>\()?\s*(?P<minus>[-−–])?\s*(?:US\$|Rs\.?|INR|[$€£¥₹])?\s*(?P<open2>\()?\s*(?P<minus2>[-−–])?\s*"
    r"(?P<num>\d[\d,]*(?:\.\d+)?|\.\d+)\s*(?P<close>\))?\s*(?P<pct>%)?\s*(?P<close2>\))?",
    re.IGNORECASE,
)


def cell_number(cell: str) -> Decimal | None:
    """The number a table cell states, or ``None`` for a dash, an empty cell or text.

    ``"1,234"`` → 1234; ``"$1,139,927"``, ``"€ 4,411"``, ``"₹ 12.5"`` → the number without its currency sign;
    ``"(1,837)"``, ``"$(5,637)"``, ``"-5.2"`` and ``"−5.2"`` → negative (accounting parentheses are a minus sign);
    ``"3.40%"`` → 3.40 (the percent is the cell's unit, kept by the caller). Thousands separators are dropped; a
    cell with words or two numbers ("2019 2018", "n/m") is not a number.
    """
    text = str(cell).strip()
    m = _CELL.fullmatch(text)
    if m is None:
        return None
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
