"""Excel number formats: a cell's value as the text Excel shows in the cell.

A focused formatter for the format codes financial workbooks use; no library in the venv does it, and of the two on
PyPI that claim to, ``ssf`` (a 2020 port of SheetJS's ``ssf``) no longer constructs with Babel 2.x and ``xlfmt`` has
one release and no track record. The rules follow Microsoft's "Review guidelines for customizing a number format"
(https://support.microsoft.com/office/c0a1d1fa-d3f4-4018-96b7-9c9354dd99f5) and ECMA-376 Part 1, §18.8.31 (numFmt).

Covered:

- sections ``positive;negative;zero;text``: with two or more sections a negative number is shown in the second
  section without its minus sign (``#,##0;(#,##0)`` → ``"(1,234)"``), zero in the third; with one section a
  negative number gets a leading ``-``;
- digit placeholders ``0`` (a digit always), ``#`` and ``?`` (a digit when significant), a decimal point and the
  format's decimals, rounded half away from zero as Excel rounds (``0.00`` → ``"3.40"``, ``0.0#`` → ``"1.25"``);
- ``,`` between digit placeholders groups thousands (``#,##0`` → ``"1,234,567"``); each ``,`` after the last digit
  placeholder of the integer part divides by 1,000 (``#,##0,,"M"`` → ``"1,235M"``, ``0.0,`` → ``"12.3"``);
- ``%`` multiplies by 100 (``0.0%`` → ``"12.3%"``); scientific ``0.00E+00``;
- literals: ``"text"``, ``\\x``, the characters Excel shows unquoted (``$ - + ( ) : space``), the currency of a
  locale tag (``[$₹-4009]`` → ``₹``, ``[$-409]`` → nothing); colours (``[Red]``) and conditions are not shown;
  padding ``_x`` and fill ``*x`` render as nothing (they only align the cell);
- ``General`` and anything else (fractions ``# ?/?``, elapsed times ``[h]:mm``, conditions ``[>100]``): the number
  in its shortest exact form (``568.0`` → ``"568"``).

Dates and times arrive as ``datetime`` (openpyxl converts cells with a date format) and are shown as ISO dates.
"""

from __future__ import annotations

import datetime as dt
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

_CURRENCY = re.compile(r"\$([^-\]]*)")
_DATE_LETTERS = set("ymdhsYMDHS")
_DIGITS = "0#?"


def _sections(fmt: str) -> list[str]:
    """``fmt`` split at the ``;`` that are not quoted or escaped."""
    parts, current, quoted, i = [], [], False, 0
    while i < len(fmt):
        ch = fmt[i]
        if ch == '"':
            quoted = not quoted
        elif ch == "\\" and not quoted and i + 1 < len(fmt):
            current.append(fmt[i : i + 2])
            i += 2
            continue
        elif ch == ";" and not quoted:
            parts.append("".join(current))
            current = []
            i += 1
            continue
        current.append(ch)
        i += 1
    parts.append("".join(current))
    return parts


def _tokens(section: str) -> list[tuple[str, str]] | None:
    """``(kind, text)`` tokens of one section: ``lit`` (shown as is), ``digit``, ``point``, ``comma``, ``percent``,
    ``exp`` (``E+``/``E-``); ``None`` when the section uses codes this formatter does not cover."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(section):
        ch = section[i]
        if ch == '"':
            end = section.find('"', i + 1)
            end = len(section) if end < 0 else end
            out.append(("lit", section[i + 1 : end]))
            i = end + 1
            continue
        if ch in "\\_*" and i + 1 < len(section):
            out.append(("lit", section[i + 1] if ch == "\\" else ""))
            i += 2
            continue
        if ch == "[":
            end = section.find("]", i)
            end = len(section) if end < 0 else end
            tag = section[i + 1 : end]
            if tag[:1] in "<>=" or tag.lower()[:1] in "hms":  # a condition or an elapsed time
                return None
            currency = _CURRENCY.match(tag)
            out.append(("lit", currency.group(1) if currency else ""))
            i = end + 1
            continue
        if ch in "eE" and section[i + 1 : i + 2] in ("+", "-"):
            out.append(("exp", section[i : i + 2]))
            i += 2
            continue
        if ch in _DATE_LETTERS or ch in "/@":
            return None
        kind = {"0": "digit", "#": "digit", "?": "digit", ".": "point", ",": "comma", "%": "percent"}.get(ch, "lit")
        out.append((kind, ch))
        i += 1
    return out


def _layout(tokens: list[tuple[str, str]]) -> tuple[int, int, int, bool, int]:
    """``(min_integer_digits, min_decimals, max_decimals, grouping, scale_commas)`` of a section's number."""
    point = next((i for i, (k, _) in enumerate(tokens) if k == "point"), len(tokens))
    integer = [(i, t) for i, (k, t) in enumerate(tokens[:point]) if k in ("digit", "comma")]
    decimals = [t for k, t in tokens[point + 1 :] if k == "digit"] if point < len(tokens) else []
    exp = next((i for i, (k, _) in enumerate(tokens) if k == "exp"), None)
    if exp is not None:
        decimals = [t for k, t in tokens[point + 1 : exp] if k == "digit"] if point < exp else []
    last_digit = max((i for i, (k, _) in enumerate(tokens[:exp]) if k == "digit"), default=-1)
    scale = sum(1 for i, (k, _) in enumerate(tokens[:exp]) if k == "comma" and i > last_digit)
    last_int_digit = max((i for i, t in integer if t in _DIGITS), default=-1)
    grouping = any(t == "," and i < last_int_digit for i, t in integer)
    min_int = sum(1 for i, t in integer if t == "0")
    return min_int, _fixed_decimals(decimals), len(decimals), grouping, scale


def _fixed_decimals(decimals: list[str]) -> int:
    """Decimals always shown: the placeholders up to the last ``0``."""
    return max((i + 1 for i, t in enumerate(decimals) if t == "0"), default=0)


def _number(magnitude: Decimal, tokens: list[tuple[str, str]]) -> str:
    """The digits of a non-negative number laid out by a section's placeholders (no sign, no literals)."""
    min_int, fixed, max_dec, grouping, scale = _layout(tokens)
    percent = sum(1 for k, _ in tokens if k == "percent")
    value = magnitude * (Decimal(100) ** percent) / (Decimal(1000) ** scale)
    exp_tok = next((t for k, t in tokens if k == "exp"), None)
    if exp_tok is not None:
        return _scientific(value, tokens, exp_tok, max_dec)
    rounded = value.quantize(Decimal(1).scaleb(-max_dec), rounding=ROUND_HALF_UP)
    whole, _, frac = f"{rounded:f}".partition(".")
    frac = frac.ljust(max_dec, "0")[:max_dec]
    while len(frac) > fixed and frac.endswith("0"):
        frac = frac[:-1]
    whole = whole.lstrip("0").rjust(min_int, "0")
    if grouping:
        whole = _group(whole)
    return whole + ("." + frac if frac else "")


def _group(digits: str) -> str:
    """``digits`` with a comma between each group of three from the right."""
    head = len(digits) % 3 or 3
    return ",".join([digits[:head]] + [digits[i : i + 3] for i in range(head, len(digits), 3)]) if digits else ""


def _scientific(value: Decimal, tokens: list[tuple[str, str]], exp_tok: str, decimals: int) -> str:
    """``value`` as ``mantissa E±exponent`` (``0.00E+00``: ``12345`` → ``"1.23E+04"``), rounded half away from
    zero."""
    digits = sum(1 for k, _ in tokens[tokens.index(("exp", exp_tok)) + 1 :] if k == "digit")
    exponent = value.adjusted() if value else 0
    step = Decimal(1).scaleb(-decimals)
    mantissa = value.scaleb(-exponent).quantize(step, rounding=ROUND_HALF_UP)
    if mantissa >= 10:
        exponent += 1
        mantissa = value.scaleb(-exponent).quantize(step, rounding=ROUND_HALF_UP)
    sign = "-" if exponent < 0 else ("+" if exp_tok[1] == "+" else "")
    return f"{mantissa:f}{exp_tok[0]}{sign}{abs(exponent):0{max(digits, 1)}d}"


def _render(magnitude: Decimal, tokens: list[tuple[str, str]]) -> str:
    """A section's literals around the number its placeholders lay out."""
    places = [i for i, (k, _) in enumerate(tokens) if k in ("digit", "point", "exp")]
    if not places:  # a section of literals only, such as "-" for zero
        return "".join(t for k, t in tokens if k in ("lit", "percent"))
    first, last = places[0], places[-1]
    before = "".join(t for k, t in tokens[:first] if k in ("lit", "percent"))
    inside = "".join(t for k, t in tokens[first:last] if k in ("lit", "percent"))
    after = "".join(t for k, t in tokens[last + 1 :] if k in ("lit", "percent"))
    return before + _number(magnitude, tokens) + inside + after


def general(value: float | int) -> str:
    """A number in Excel's General format, in its shortest exact form: ``568.0`` → ``"568"``, ``594.3`` →
    ``"594.3"``."""
    return str(int(value)) if float(value).is_integer() else f"{value:.15g}"


def format_number(value: float | int, number_format: str = "General") -> str:
    """``value`` shown as Excel shows it under ``number_format`` (see the module docstring for what is covered).

    Args:
        value: a finite number.
        number_format: the cell's format code (``"0.0%"``, ``"#,##0;(#,##0)"``, ``'#,##0,,"M"'``).

    Returns:
        The cell's text: ``0.1234``, ``"0.0%"`` → ``"12.3%"``; ``-1234.5``, ``"#,##0.00;(#,##0.00)"`` →
        ``"(1,234.50)"``; ``1234567890``, ``'#,##0,,"M"'`` → ``"1,235M"``; codes not covered → :func:`general`.
    """
    fmt = number_format or "General"
    sections = _sections(fmt)
    if value < 0 and len(sections) >= 2:
        section, signed = sections[1], False
    elif value == 0 and len(sections) >= 3:
        section, signed = sections[2], False
    else:
        section, signed = sections[0], value < 0
    if section.strip().lower() in ("general", ""):
        return general(value) if signed or value >= 0 or len(sections) < 2 else general(abs(value))
    tokens = _tokens(section)
    if tokens is None or not any(k in ("digit", "point") for k, _ in tokens) and signed:
        return general(value)
    text = _render(abs(Decimal(repr(float(value)))) if isinstance(value, float) else Decimal(abs(value)), tokens)
    if signed and any(ch in "123456789" for ch in text):
        return "-" + text
    return text


def format_cell(value: Any, number_format: str = "General") -> str:
    """A cell's value as text, formatted the way Excel shows it.

    Args:
        value: what openpyxl read (``None``, ``str``, ``int``, ``float``, ``bool``, ``datetime``/``date``/``time``).
        number_format: the cell's Excel number format (``"General"``, ``"0.0%"``, ``"#,##0.00"``, ``"yyyy-mm-dd"``).

    Returns:
        ``""`` for ``None``; ``"TRUE"``/``"FALSE"``; ISO dates (``"2024-12-31"``, with ``"HH:MM"`` when the time is
        not midnight); numbers by :func:`format_number`; text as is.
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, int | float):
        return format_number(value, number_format)
    return str(value)
