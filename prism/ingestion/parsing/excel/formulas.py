"""Simple Excel formulas computed the way Excel computes them, for cells a program wrote without a cached value.

A workbook written by a program (openpyxl, xlsxwriter, a report generator) that never opened it in Excel stores
formulas without the value Excel would have cached; reading only cached values leaves those figures empty. This module
computes the simple ones exactly and says which it cannot:

- numbers, references to cells of the same sheet (``B3``, ``$B$3``), ranges (``B3:B5``) as function arguments;
- ``+ - * /`` with the usual precedence, unary minus, parentheses, a trailing ``%`` (divides by 100);
- ``SUM``, ``AVERAGE``, ``MIN``, ``MAX`` over ranges and values (text and empty cells ignored, as Excel does) and
  ``ROUND(x, n)`` (half away from zero, as Excel rounds);
- an empty cell in arithmetic counts as 0 (Excel's rule); a cell holding another formula is computed first.

Anything else — other functions, other sheets, names, text operands, division by zero, a circular reference — is not
computed (:class:`FormulaUnsupported`); the loader counts and names those cells in a warning. Rules: Microsoft,
"Calculation operators and precedence in Excel"
(https://support.microsoft.com/office/48be406d-4975-4d31-b2b8-7af9e0e2878a). Formulas are parsed, never ``eval``'d.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import ROUND_HALF_UP, Decimal

from openpyxl.utils.cell import column_index_from_string

_TOKEN = re.compile(r"\s*(?:(?P<range>\$?[A-Z]{1,3}\$?\d+:\$?[A-Z]{1,3}\$?\d+)|(?P<ref>\$?[A-Z]{1,3}\$?\d+)(?![\w(])"
                    r"|(?P<func>[A-Z][A-Z0-9.]*)\s*\(|(?P<num>\d+(?:\.\d*)?(?:[Ee][+-]?\d+)?|\.\d+)"
                    r"|(?P<op>[-+*/(),%]))")
_REF = re.compile(r"\$?([A-Z]{1,3})\$?(\d+)")
MAX_DEPTH = 50
"""Formula cells followed through references before giving up (a chain this deep is not a simple formula)."""


class FormulaUnsupported(ValueError):
    """A formula this module does not compute (its reason is the message)."""


def _cell(ref: str) -> tuple[int, int]:
    col, row = _REF.fullmatch(ref).groups()  # type: ignore[union-attr]  # the tokenizer matched the same pattern
    return int(row), column_index_from_string(col)


def _tokens(formula: str) -> list[tuple[str, str]]:
    text = formula.lstrip("=").upper()
    out, pos = [], 0
    while pos < len(text):
        if text[pos:].isspace():
            break
        match = _TOKEN.match(text, pos)
        if not match:
            raise FormulaUnsupported(f"cannot read {text[pos:pos + 12]!r}")
        kind = match.lastgroup or ""
        out.append((kind, match.group(kind)))
        pos = match.end()
    return out


def _aggregate(name: str, values: list[float]) -> float:
    if name == "SUM":
        return sum(values)
    if not values:
        raise FormulaUnsupported(f"{name} of no numbers")
    if name == "AVERAGE":
        return sum(values) / len(values)
    return min(values) if name == "MIN" else max(values)


class _Parser:
    """Recursive descent over one formula's tokens; ``lookup(row, col)`` gives a cell's number or ``None``."""

    def __init__(self, tokens: list[tuple[str, str]], lookup: Callable[[int, int], float | None],
                 numbers_in: Callable[[str], list[float]]):
        self.tokens, self.pos, self.lookup, self.numbers_in = tokens, 0, lookup, numbers_in

    def peek(self) -> tuple[str, str]:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("end", "")

    def take(self) -> tuple[str, str]:
        token = self.peek()
        self.pos += 1
        return token

    def expect(self, op: str) -> None:
        if self.take() != ("op", op):
            raise FormulaUnsupported(f"expected {op!r}")

    def expr(self) -> float:
        value = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            value = value + self.term() if self.take()[1] == "+" else value - self.term()
        return value

    def term(self) -> float:
        value = self.factor()
        while self.peek() in (("op", "*"), ("op", "/")):
            if self.take()[1] == "*":
                value *= self.factor()
            else:
                divisor = self.factor()
                if divisor == 0:
                    raise FormulaUnsupported("division by zero (#DIV/0!)")
                value /= divisor
        return value

    def factor(self) -> float:
        if self.peek() in (("op", "-"), ("op", "+")):
            return -self.factor() if self.take()[1] == "-" else self.factor()
        value = self.primary()
        while self.peek() == ("op", "%"):
            self.take()
            value /= 100
        return value

    def primary(self) -> float:
        kind, text = self.take()
        if kind == "num":
            return float(text)
        if kind == "ref":
            value = self.lookup(*_cell(text))
            return 0.0 if value is None else value
        if kind == "op" and text == "(":
            value = self.expr()
            self.expect(")")
            return value
        if kind == "func":
            return self.call(text)
        raise FormulaUnsupported(f"unexpected {text or 'end'!r}")

    def call(self, name: str) -> float:
        if name not in ("SUM", "AVERAGE", "MIN", "MAX", "ROUND"):
            raise FormulaUnsupported(f"function {name} is not computed")
        args: list[list[float]] = []
        while True:
            if self.peek()[0] == "range":
                args.append(self.numbers_in(self.take()[1]))
            else:
                args.append([self.expr()])
            if self.take() != ("op", ","):
                self.pos -= 1
                self.expect(")")
                break
        if name == "ROUND":
            if len(args) != 2 or len(args[0]) != 1 or len(args[1]) != 1:
                raise FormulaUnsupported("ROUND takes a number and a count of digits")
            places = Decimal(1).scaleb(-int(args[1][0]))
            return float(Decimal(repr(args[0][0])).quantize(places, rounding=ROUND_HALF_UP))
        return _aggregate(name, [v for values in args for v in values])


class FormulaEvaluator:
    """Computes the formula cells of one sheet from its stored values.

    Args:
        values: ``{(row, column): value}`` of the sheet's cells that hold a value (1-based, as openpyxl numbers them).
        formulas: ``{(row, column): formula text}`` of the cells that hold a formula and no cached value
            (``"=SUM(B3:B5)"``).
    """

    def __init__(self, values: Mapping[tuple[int, int], object], formulas: Mapping[tuple[int, int], str]):
        self.values, self.formulas = values, formulas
        self._done: dict[tuple[int, int], float] = {}
        self._active: set[tuple[int, int]] = set()

    def _number(self, row: int, col: int) -> float | None:
        if (row, col) in self.formulas:
            return self.compute(row, col)
        value = self.values.get((row, col))
        if value is None or value == "":
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise FormulaUnsupported(f"a text operand ({value!r})")
        return float(value)

    def _range(self, text: str) -> list[float]:
        (r1, c1), (r2, c2) = (_cell(part) for part in text.split(":"))
        out = []
        for row in range(min(r1, r2), max(r1, r2) + 1):
            for col in range(min(c1, c2), max(c1, c2) + 1):
                if (row, col) in self.formulas:
                    out.append(self.compute(row, col))
                elif isinstance(v := self.values.get((row, col)), int | float) and not isinstance(v, bool):
                    out.append(float(v))
        return out

    def compute(self, row: int, col: int) -> float:
        """The value of the formula at ``(row, col)``.

        Raises:
            FormulaUnsupported: the formula, or one it depends on, is not a simple formula (the message says why).
        """
        key = (row, col)
        if key in self._done:
            return self._done[key]
        if key in self._active or len(self._active) >= MAX_DEPTH:
            raise FormulaUnsupported("a circular or too deep reference")
        self._active.add(key)
        try:
            parser = _Parser(_tokens(self.formulas[key]), self._number, self._range)
            value = parser.expr()
            if parser.peek()[0] != "end":
                raise FormulaUnsupported(f"unexpected {parser.peek()[1]!r}")
        finally:
            self._active.discard(key)
        self._done[key] = value
        return value
