"""The cells a table row ends with, as a page prints it: read from the row's end, token by token.

One scan serves both sides of the index: ingestion reads a page's lines into rows with it
(:mod:`prism.ingestion.tables.row_lines`), and the extractive answer finds the same cells again when it quotes a
stored row under its headers (:mod:`prism.answering.row_quotes`). A **value** is a figure (``122,641``, ``(1,837)``,
``0.29``, ``12.5%``, a decimal comma's ``1.234,5``, ``₹4,000``), a dash or ``nil``/``n/a`` for an empty cell, a
page range (``71-72``: a budget's "Page No." column), or a fee or limit a schedule states in a word ("Free",
"Unlimited", "Waived"). A currency sign printed apart (``"$ 466,772"``) joins the value
after it; a note in words after a figure (``"₹4,000 (spends)"``, :func:`prism.vocabulary.number_formats.is_cell_note`)
stays in that figure's cell.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from prism.vocabulary import currencies, number_formats

__all__ = ["CellSpan", "SIGN", "is_figure", "is_value", "trailing_cells"]

_VALUE = re.compile(
    r"^(?:[$₹€£]|Rs\.?)?(?:\(\s*-?(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d(?:[\d,]*\d)?(?:\.\d+)?)%?\s*\)"
    r"|[-−–]?(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d(?:[\d,]*\d)?(?:\.\d+)?)%?)$|^(?:[—–−-]+|\.{2,}|…|nil|n/?a)$"
    r"|^\d{1,3}[-–]\d{1,3}$"
    r"|^(?-i:Free|FREE|Unlimited|UNLIMITED|Waived|WAIVED)$",
    re.IGNORECASE,
)
"""A figure, an empty cell, a page range, or a cell a fee or limit table states in a word (capitalised: "Free",
"Unlimited", "Waived"; a sentence's "free" ends no row)."""
_CURRENCY_TOKEN = re.compile(rf"^(?:{currencies.SYMBOL_CLASS}|Rs\.?|US\$)$")
SIGN = re.compile(rf"^(?:{currencies.SYMBOL_CLASS}|Rs\.?)")
"""A currency sign at the start of a value token (``"₹4,000"``): callers that store bare figures drop it."""
_MAX_NOTE_TOKENS = 4


@dataclass(frozen=True)
class CellSpan:
    """Where one cell lies in a row's tokens.

    Attributes:
        first: index of the cell's first token (a currency sign printed apart, when there is one).
        figure: index of the value token.
        stop: one past the cell's last token (past its note, when it has one).
    """

    first: int
    figure: int
    stop: int


def is_value(token: str) -> bool:
    """True when one whitespace-free token is a table value (a figure, a dash, ``nil``, ``n/a``, a page range, "Free",
    "Unlimited", "Waived")."""
    return _VALUE.match(token) is not None


def is_figure(token: str) -> bool:
    """True when one token is a value that states a number (a dash or ``n/a`` does not)."""
    return is_value(token) and any(ch.isdigit() for ch in token)


def _note_start(tokens: Sequence[str], stop: int) -> int | None:
    """When ``tokens[:stop]`` ends with a figure and a note in words after it, the index of the note's first token."""
    if not tokens[stop - 1].endswith(")"):
        return None
    for first in range(stop - 1, max(stop - 1 - _MAX_NOTE_TOKENS, 0), -1):
        if tokens[first].startswith("("):
            figure = tokens[first - 1]
            if number_formats.is_cell_note(" ".join(tokens[first:stop])) and is_value(figure) \
                    and number_formats.takes_cell_note(figure):
                return first
            return None
    return None


def trailing_cells(tokens: Sequence[str]) -> tuple[int, list[CellSpan]]:
    """``(label_end, cells)`` of a row given as its whitespace-separated tokens: the cells it ends with, left to
    right, and the index of the first token after its label (``len(tokens)`` when it ends in no value).

    ``["Small-value", "wallet", "₹500", "₹4,000", "(spends)", "9.2"]`` → ``(2, [CellSpan(2, 2, 3), CellSpan(3, 3, 5),
    CellSpan(5, 5, 6)])``.
    """
    cells: list[CellSpan] = []
    i = len(tokens)
    while i > 0:
        note = _note_start(tokens, i)
        if note is not None:
            cells.insert(0, CellSpan(note - 1, note - 1, i))
            i = note - 1
            continue
        if is_value(tokens[i - 1]):
            cells.insert(0, CellSpan(i - 1, i - 1, i))
        elif _CURRENCY_TOKEN.match(tokens[i - 1]) and cells:
            cells[0] = CellSpan(i - 1, cells[0].figure, cells[0].stop)
        else:
            break
        i -= 1
    return i, cells
