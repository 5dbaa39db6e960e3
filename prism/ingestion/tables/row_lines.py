"""A page's lines as stored text gives them, each with its trailing value tokens: the raw material of
:mod:`prism.ingestion.tables.stored_text`'s rows.

A **row** is a line ending in value tokens (``122,641``, ``(1,837)``, ``—``, ``...``, ``0.29``, ``12.5%``, a decimal
comma's ``1.234,5``, a page range ``71-72``; a currency sign before a value is part of it, and a note in words after
a figure, ``"₹4,000 (spends)"``, is part of its cell); its label is the text before them. A bold label pypdf sets one
word per line is joined back to its row (:func:`_join_split_labels`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from prism.vocabulary import currencies

__all__ = ["MAX_ROW_LABEL_CHARS", "Line", "page_lines"]

MAX_ROW_LABEL_CHARS = 200
"""A line whose text before its values is longer than this is prose, not a row."""
_VALUE = re.compile(
    r"^(?:[$₹€£]|Rs\.?)?(?:\(\s*-?(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d(?:[\d,]*\d)?(?:\.\d+)?)%?\s*\)"
    r"|[-−–]?(?:\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d(?:[\d,]*\d)?(?:\.\d+)?)%?)$|^(?:[—–−-]+|\.{2,}|…|nil|n/?a)$"
    r"|^\d{1,3}[-–]\d{1,3}$",  # a page range ("71-72"): a budget's "Page No." column
    re.IGNORECASE,
)
_CELL_NOTE = re.compile(r"^\((?P<words>[A-Za-z]{3}[A-Za-z .'/-]{0,28})\)$")
"""A note in words printed after a cell's figure ("₹4,000 (spends)", "9.2 (aggregate)"): part of that cell, not the
end of the row's label."""
_NOTED_FIGURE = re.compile(rf"[,.%]|\d{{3}}|^(?:{currencies.SYMBOL_CLASS}|Rs)")
"""A figure a note may follow: an amount, a rate or a number of three digits or more, not a label's small number
("Tier 1 (core)")."""
_BARE_YEAR = re.compile(r"^(?:19|20)\d{2}$")
"""A line whose values are all bare years is a column-header line, not a row."""
_CURRENCY_TOKEN = re.compile(rf"^(?:{currencies.SYMBOL_CLASS}|Rs\.?|US\$)$")
_SIGN = re.compile(rf"^(?:{currencies.SYMBOL_CLASS}|Rs\.?)")


@dataclass(frozen=True)
class Line:
    """One line of a page: its offsets in the page text, its text, its label (the text before its values), its
    values (signs dropped, notes kept) and each value's offsets."""

    start: int
    end: int
    text: str
    label: str
    cells: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]


def page_lines(page_text: str) -> list[Line]:
    """Every line of the page (empty ones too) with its offsets and its trailing value tokens."""
    out: list[Line] = []
    pos = 0
    for raw in page_text.split("\n"):
        start, end = pos, pos + len(raw)
        pos = end + 1
        tokens = [(m.start() + start, m.end() + start, m.group()) for m in re.finditer(r"\S+", raw)]
        cells: list[tuple[str, int, int]] = []
        i = len(tokens)
        while i > 0:
            s, e, tok = tokens[i - 1]
            if (note := _note_before(tokens, i)) is not None:
                s0, e0, value = tokens[note - 1]
                cells.insert(0, (f"{_SIGN.sub('', value)} {raw[tokens[note][0] - start:e - start]}", s0, e))
                i = note - 1
                continue
            if _VALUE.match(tok):
                cells.insert(0, (_SIGN.sub("", tok), s, e))
            elif _CURRENCY_TOKEN.match(tok) and cells:
                first, _s, e0 = cells[0]
                cells[0] = (first, s, e0)  # the sign belongs to the cell after it
            else:
                break
            i -= 1
        label_end = tokens[i - 1][1] if i > 0 else start
        label = page_text[start:label_end]
        if len(label) > MAX_ROW_LABEL_CHARS or cells and all(_BARE_YEAR.match(c.split(" (")[0]) for c, _s, _e in cells):
            cells = []
            label = raw
        out.append(Line(start, end, raw, label, tuple(c for c, _s, _e in cells), tuple((s, e) for _c, s, e in cells)))
    return _join_split_labels(out, page_text)


def _note_before(tokens: list[tuple[int, int, str]], i: int) -> int | None:
    """When ``tokens[:i]`` ends with a note in words after a figure ("₹4,000 (spends)"), the index of the note's
    first token (the figure is the token before it); else ``None``."""
    if not tokens[i - 1][2].endswith(")"):
        return None
    for first in range(i - 1, max(i - 5, 0), -1):
        if tokens[first][2].startswith("("):
            note = " ".join(t for _s, _e, t in tokens[first:i])
            figure = tokens[first - 1][2] if first > 0 else ""
            if _CELL_NOTE.match(note) and _VALUE.match(figure) and _NOTED_FIGURE.search(figure):
                return first
            return None
    return None


_CONNECTORS = frozenset({"to", "of", "and", "for", "in", "on", "from", "by", "with", "the", "a", "an", "or", "at"})
"""Words a row label does not end with: a label split one word per line goes on after them."""


def _open_label(label: str) -> bool:
    """True when a label split over lines cannot end here: its last connector word is followed only by capitalised
    words (``"Net income attributable to MGM"`` goes on with ``"Resorts"``) or ends it."""
    words = label.split()
    last = max((i for i, w in enumerate(words) if w in _CONNECTORS), default=None)
    return last is not None and last > 0 and all(w[:1].isupper() for w in words[last + 1 :])


def _join_split_labels(lines: list[Line], page_text: str) -> list[Line]:
    """Join a line that ends in a one-word line to the next line when that one starts in lower case, or when the
    label so far cannot end (:func:`_open_label`).

    pypdf's layout mode sets some bold labels one word per line (``"Net\nincome 583,894 ..."``, ``"Net\nincome\n
    attributable\nto\nMGM\nResorts\nInternational $ 466,772"``); the joined line spans those lines of the page
    text and its label reads ``"Net income"``, ``"Net income attributable to MGM Resorts International"``.
    """
    out: list[Line] = []
    for line in lines:
        prev = out[-1] if out else None
        first = line.text.lstrip("(")[:1]
        one_word = prev is not None and not prev.cells and len(prev.text.rsplit("\n", 1)[-1].split()) == 1
        if prev and one_word and (first.islower() or "\n" in prev.text and _open_label(prev.label)):
            label = f"{' '.join(prev.label.split())} {line.label}".strip()
            text = page_text[prev.start : line.end]
            out[-1] = Line(prev.start, line.end, text, label, line.cells, line.spans)
        else:
            out.append(line)
    return out
