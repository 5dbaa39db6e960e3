"""Multi-column PDF pages: where pypdf's layout text reads straight across prose columns.

Layout mode places every glyph at its position on a fixed-width character grid, so the lines of a two-column page
read straight across both columns and weld two sentences into one that never existed ("…kept the  Separately, the
cash reserve ratio of…"). In that grid a column gutter is a vertical river of blanks: character positions that are
blank on every line of a block of consecutive lines while text stands on both sides of them. This module finds those
rivers:

1. For every window of :data:`WINDOW_LINES` consecutive non-blank lines, the *gutters* are the runs of at least
   :data:`MIN_GUTTER` positions blank on all of the window's lines, with text to their left and to their right
   within the window.
2. The window is read in columns only when every one of its lines has text in two columns or more and every column
   holds prose — at least :data:`MIN_LETTER_SHARE` of its visible characters are letters, its non-empty pieces
   average :data:`MIN_WORDS` words or more, and at least one of them starts with a lower-case letter (a line that
   goes on with a sentence; the cells of a table each start afresh). Financial statements, whose columns hold
   figures, tables of phrases, the label/value blocks of a 10-K cover page and centred headings are not
   (``bench/tables.py`` checks that no table changes).
3. Overlapping windows read in columns form one block.

Step 3 is what :func:`column_blocks` counts. Measured on case 36, the three-column Federal Register filing and the
FinanceBench and RBI PDFs against poppler's ``pdftotext`` reading order (``bench/reading_order.py``), reading a
page whose layout text has column blocks in pypdf's *plain* mode (which follows the content stream, column by
column in these files) beat re-reading the layout text column by column on every set, so
:mod:`prism.ingestion.parsing.pdf.read` uses this module only to decide that.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

logger = logging.getLogger(__name__)

MIN_GUTTER = 3
"""Fewest blank character positions between two columns."""
WINDOW_LINES = 4
"""Consecutive non-blank lines a gutter must run through."""
MIN_LETTER_SHARE = 0.6
"""Share of letters among the visible characters of every column of a window (figures fail it)."""
MIN_WORDS = 3.0
"""Mean words per non-empty piece of every column of a window (short labels fail it)."""

Gutter = tuple[int, int]
"""``(start, end)`` character positions of a gutter, end exclusive."""
_WORD = re.compile(r"\S+")
_ZERO_RUN = re.compile(f"0{{{MIN_GUTTER},}}")


def _occupied(line: str) -> int:
    """Bit mask of the line's non-blank positions (bit ``x`` set when ``line[x]`` is not a space)."""
    mask = 0
    for m in _WORD.finditer(line):
        mask |= ((1 << (m.end() - m.start())) - 1) << m.start()
    return mask


def _gutters(mask: int) -> list[Gutter]:
    """Inner runs of at least :data:`MIN_GUTTER` zero bits of ``mask`` (between its lowest and highest set bits)."""
    bits = bin(mask)[2:][::-1]  # bits[x] is position x; the last character is the highest set bit
    return [(m.start(), m.end()) for m in _ZERO_RUN.finditer(bits) if m.start() > 0 and mask]


def _pieces(line: str, gutters: Sequence[Gutter]) -> list[str]:
    """``line`` cut in the middle of each gutter (the line is blank there), pieces stripped."""
    cuts = [(s + e) // 2 for s, e in gutters]
    bounds = [0, *cuts, max(len(line), cuts[-1] if cuts else 0)]
    return [line[a:b].strip() for a, b in zip(bounds, bounds[1:], strict=False)]


def _is_prose(lines: Sequence[str], gutters: Sequence[Gutter]) -> bool:
    """True when every line of ``lines`` cut at ``gutters`` has text in two columns or more and every column holds
    prose."""
    columns: list[list[str]] = [[] for _ in range(len(gutters) + 1)]
    spanning = 0
    for line in lines:
        pieces = _pieces(line, gutters)
        spanning += sum(1 for p in pieces if p) >= 2
        for column, piece in zip(columns, pieces, strict=True):
            if piece:
                column.append(piece)
    if spanning < len(lines):
        return False
    for column in columns:
        if not column:
            return False
        visible = "".join("".join(p.split()) for p in column)
        letters = sum(ch.isalpha() for ch in visible)
        words = sum(len(p.split()) for p in column)
        if letters < MIN_LETTER_SHARE * len(visible) or words < MIN_WORDS * len(column):
            return False
        if not any(p[0].islower() for p in column):  # no line goes on with a sentence: items of a table
            return False
    return True


def prose_windows(lines: Sequence[str]) -> list[tuple[list[int], list[Gutter]]]:
    """The windows of a page that are read in prose columns (steps 1–2 of the module docstring).

    Args:
        lines: the layout-mode text of one page split at ``"\\n"`` (spaces as placed, not collapsed).

    Returns:
        ``[(line indexes, gutters)]`` for every window of :data:`WINDOW_LINES` consecutive non-blank lines whose
        gutters make prose columns, in page order; each gutter ``(start, end)`` is blank on all the window's lines.
    """
    masks = [_occupied(line) for line in lines]
    filled = [i for i, m in enumerate(masks) if m]
    found: list[tuple[list[int], list[Gutter]]] = []
    for w in range(len(filled) - WINDOW_LINES + 1):
        window = filled[w : w + WINDOW_LINES]
        union = 0
        for i in window:
            union |= masks[i]
        gutters = _gutters(union)
        if gutters and _is_prose([lines[i] for i in window], gutters):
            found.append((window, gutters))
    return found


def column_blocks(layout: str) -> int:
    """How many blocks of text read in prose columns a page's layout-mode text has: runs of overlapping windows of
    :func:`prose_windows` (0 for a single-column page)."""
    blocks, last = 0, -1
    for window, _ in prose_windows(layout.split("\n")):
        blocks += window[0] > last
        last = window[-1]
    return blocks
