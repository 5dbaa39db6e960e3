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

from prism.index import row_cells

__all__ = ["MAX_ROW_LABEL_CHARS", "Line", "page_lines"]

MAX_ROW_LABEL_CHARS = 200
"""A line whose text before its values is longer than this is prose, not a row."""
_BARE_YEAR = re.compile(r"^(?:19|20)\d{2}$")
"""A line whose values are all bare years is a column-header line, not a row."""


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
        found = list(re.finditer(r"\S+", raw))
        label_at, spans = row_cells.trailing_cells([m.group() for m in found])
        cells = [(_cell_text(raw, found, c), found[c.first].start() + start, found[c.stop - 1].end() + start)
                 for c in spans]
        label_end = found[label_at - 1].end() + start if label_at > 0 else start
        label = page_text[start:label_end]
        if len(label) > MAX_ROW_LABEL_CHARS or cells and all(_BARE_YEAR.match(c.split(" (")[0]) for c, _s, _e in cells):
            cells = []
            label = raw
        out.append(Line(start, end, raw, label, tuple(c for c, _s, _e in cells), tuple((s, e) for _c, s, e in cells)))
    return _join_split_labels(out, page_text)


def _cell_text(raw: str, found: list[re.Match[str]], cell: row_cells.CellSpan) -> str:
    """A cell's stored text: its figure without a currency sign, then its note as the line prints it."""
    figure = row_cells.SIGN.sub("", found[cell.figure].group())
    if cell.stop == cell.figure + 1:
        return figure
    return f"{figure} {raw[found[cell.figure + 1].start():found[cell.stop - 1].end()]}"


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
