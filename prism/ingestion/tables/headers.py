"""Column headers of a PDF table from the positions of its words, for tables whose headers the stored text cannot
give: two-level headers (``"Plan"`` over ``"Revenue Capital Total"``), headers that are words rather than periods,
headers the text extraction scrambled.

:func:`prism.ingestion.tables.stored_text.find_tables` reads a table's rows and their values from the stored text; when
it finds no column headers there, :class:`~prism.ingestion.tables.pdf_words.PdfTableHeaders` looks at the page
itself (pypdfium2's character boxes):

1. the page's characters are grouped into words, the words into lines (by vertical overlap) and each line's words
   into phrases (a gap under :data:`PHRASE_GAP` × the text height joins two words); a header cell wrapped onto a
   second line (``"Total Plan &"`` over ``"Non-Plan"``, closer than the header's line spacing) is one phrase;
2. each column stands where its values do (:func:`_columns`): at the median centre of its values among the page's
   words;
3. the header lines are the lines just above the highest placed row (at most :data:`MAX_HEADER_LINES`; none
   after a gap of :data:`MAX_LINE_GAP` text heights below the lowest or :data:`MAX_HEADER_GAP` above a header line,
   a sentence, the table's title or a line noting the unit, ``"(In crores of Rupees)"``); a phrase left of the
   first column belongs to the label column and is left out;
4. each phrase is anchored at the columns its extent overlaps (the nearest one within half a pitch when it overlaps
   none), then widened one column on each side at a time (one side at the table's edge) while the columns are
   still free in its line and have headers in a line below (and, for a line set level between two header lines
   closer than a text height, no phrase in the line above: :func:`_level_beside`) — so a group header centred over
   three columns (``"Plan"``) covers all three, one over a single column covers only it, a line's only phrase
   covers all, and a one-line cell set between a wrapped cell's two lines ("Per transaction" beside "Per day" over
   "(aggregate)") stays over its own column;
5. a column's header is the phrases over it, top line first (``"Plan Revenue"``, ``"Total Plan & Non-Plan"``).

This is the usual approach of "stream" table readers (columns from the alignment of words, headers spanning the
columns beneath them), reduced to headers: rows and values still come from the stored text, so their offsets hold.
"""

from __future__ import annotations

import re
import statistics
import unicodedata
from dataclasses import dataclass

from prism.ingestion.tables.stored_text import is_unit_line, unit_of
from prism.types import Table, TableRow

_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_UNIT_NOTE = re.compile(r"\(\s*(?:[₹$]|rs\.?|us\$)?\s*in\s", re.IGNORECASE)

JOIN_GAP = 1.0
"""Characters with no space between them (pdfium inserts spaces at word gaps) are one word when closer than this
many text heights (narrow glyphs such as "1" leave wide gaps between their boxes)."""
TALL = 2.5
"""A word this many times taller than the page's median word is set across the lines (turned text): in no line."""
PHRASE_GAP = 0.9
"""Two words of a line closer than this many text heights are one phrase (a header cell)."""
MAX_HEADER_LINES = 6
"""Most lines above a table's first row read as its header."""
WRAP_GAP = 0.75
"""A phrase less than this many text heights below a phrase it lies under continues that header cell."""
MAX_HEADER_WORDS = 12
"""A phrase above the table with this many words, or four or more ending in ".", is prose: the header ends below."""
MAX_LINE_GAP = 8.0
"""A wider gap (text heights) between the table and the lowest line above it: no header."""
MAX_HEADER_GAP = 2.0
"""A wider gap (text heights) above a header line ends the header: its lines are close, a running head is not."""


@dataclass(frozen=True)
class Word:
    """A word on a PDF page: its text and box in PDF points (origin bottom left, ``top > bottom``)."""

    text: str
    x0: float
    x1: float
    bottom: float
    top: float

    @property
    def center(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def height(self) -> float:
        return self.top - self.bottom


def _upright(box: tuple[float, float, float, float], rotation: int) -> tuple[float, float, float, float]:
    """A character box ``(left, bottom, right, top)`` in the coordinates of the page as displayed (``/Rotate`` 90,
    180 or 270 turns the page; text read along x, lines stacked along y), up to a shift."""
    left, bottom, right, top = box
    if rotation == 90:
        return bottom, -right, top, -left
    if rotation == 180:
        return -right, -top, -left, -bottom
    if rotation == 270:
        return -top, left, -bottom, right
    return left, bottom, right, top


def page_words(textpage: object, rotation: int = 0) -> list[Word]:
    """The words of a pypdfium2 text page (its page turned by ``rotation`` degrees, the page's ``/Rotate``), in the
    page's character order (whitespace and line breaks split), in displayed coordinates."""
    words: list[Word] = []
    chars: list[str] = []
    box: list[float] = []
    for i in range(textpage.count_chars()):  # type: ignore[attr-defined]
        ch = textpage.get_text_range(i, 1)  # type: ignore[attr-defined]
        left, bottom, right, top = _upright(textpage.get_charbox(i), rotation)  # type: ignore[attr-defined]
        height = max(top - bottom, box[3] - box[2] if chars else 0.0, 0.1)
        joins = chars and not ch.isspace() and abs(bottom - box[2]) < height * 0.5 and \
            -height < left - box[1] < height * JOIN_GAP
        if chars and not joins:
            words.append(Word(unicodedata.normalize("NFKC", "".join(chars)), *box))
            chars, box = [], []
        if ch.isspace() or not ch:
            continue
        if not chars:
            box = [left, right, bottom, top]
        else:
            box = [min(box[0], left), max(box[1], right), min(box[2], bottom), max(box[3], top)]
        chars.append(ch)
    if chars:
        words.append(Word(unicodedata.normalize("NFKC", "".join(chars)), *box))
    return words


def word_lines(words: list[Word]) -> list[list[Word]]:
    """Words grouped into lines (vertical overlap of at least half the smaller height), top line first, each line
    left to right. Words more than :data:`TALL` times the median height (text set across the lines, such as a
    margin label turned on its side) belong to no line."""
    if not words:
        return []
    usual = statistics.median(w.height for w in words)
    lines: list[list[Word]] = []
    for word in sorted((w for w in words if w.height <= TALL * usual), key=lambda w: -w.top):
        for line in lines:
            ref = line[0]
            overlap = min(ref.top, word.top) - max(ref.bottom, word.bottom)
            if overlap >= 0.5 * min(ref.height, word.height):
                line.append(word)
                break
        else:
            lines.append([word])
    return [sorted(line, key=lambda w: w.x0) for line in lines]


def phrases_of(line: list[Word]) -> list[Word]:
    """A line's words joined into phrases where the gap between them is small."""
    out: list[Word] = []
    for w in line:
        prev = out[-1] if out else None
        if prev and w.x0 - prev.x1 < PHRASE_GAP * max(prev.height, w.height):
            out[-1] = Word(f"{prev.text} {w.text}", prev.x0, max(prev.x1, w.x1), min(prev.bottom, w.bottom),
                           max(prev.top, w.top))
        else:
            out.append(w)
    return out


def _row_words(row: TableRow, lines: list[list[Word]]) -> list[Word] | None:
    """The words printing ``row``'s cells, from the one line printing them side by side after its label's last word
    (a value on several rows, "₹5,00,000", is placed by its own row), or ``None`` when no line or several do."""
    tail = row.label.split()[-1:]
    n = len(row.cells)
    found = []
    for line in lines:
        texts = [w.text.lstrip("$₹€£") for w in line]
        for s in range(len(texts) - n + 1):
            if tuple(texts[s:s + n]) == row.cells and (not tail or tail[0] in texts[:s]):
                found.append(line[s:s + n])
    return found[0] if len(found) == 1 else None


def _columns(table: Table, words: list[Word]) -> tuple[list[Word], float] | None:
    """Each column's box (median of the boxes of its values in the table's full rows) and the top of the highest
    value of any row, or ``None`` when a column has no value placed: a value printed once on the page is placed by
    its text, else (the same figures in many rows) by the line printing its row (:func:`_row_words`)."""
    return _placed(table, words, None) or _placed(table, words, word_lines(words))


def _placed(table: Table, words: list[Word], lines: list[list[Word]] | None) -> tuple[list[Word], float] | None:
    by_text: dict[str, list[Word]] = {}
    for w in words:
        by_text.setdefault(w.text.lstrip("$₹€£"), []).append(w)
    n = len(max((r.cells for r in table.rows), key=len, default=()))
    placed: list[list[Word]] = [[] for _ in range(n)]
    top = None
    for row in table.rows:
        own = _row_words(row, lines) if lines is not None and row.cells else None
        for j, cell in enumerate(row.cells):
            found = [own[j]] if own else by_text.get(cell, [])
            if len(found) != 1 or not any(ch.isdigit() for ch in cell):
                continue
            top = max(top or found[0].top, found[0].top)
            if len(row.cells) == n:
                placed[j].append(found[0])
    if n < 2 or top is None or any(not p for p in placed):
        return None
    cols = [Word(str(j), statistics.median(w.x0 for w in p), statistics.median(w.x1 for w in p),
                 min(w.bottom for w in p), max(w.top for w in p)) for j, p in enumerate(placed)]
    if any(a.center >= b.center for a, b in zip(cols, cols[1:], strict=False)):
        return None
    return cols, top


def column_centres(table: Table, words: list[Word]) -> list[float] | None:
    """Where each column of ``table`` stands: the centre of its values (PDF points), left to right, or ``None``."""
    placed = _columns(table, words)
    return [c.center for c in placed[0]] if placed is not None else None


def _headerword_lines(words: list[Word], top: float, table: Table) -> list[list[Word]]:
    """The lines above ``top`` that make the header, top line first."""
    above = [line for line in word_lines([w for w in words if w.bottom > top]) if line]
    above.sort(key=lambda line: min(w.bottom for w in line))  # nearest first
    chosen: list[list[Word]] = []
    edge = top
    for line in above:
        height = statistics.median(w.height for w in line)
        gap = min(w.bottom for w in line) - edge
        text = " ".join(w.text for w in line)
        if len(chosen) >= MAX_HEADER_LINES or gap > (MAX_HEADER_GAP if chosen else MAX_LINE_GAP) * height:
            break
        if any(len(p.text.split()) >= MAX_HEADER_WORDS or len(p.text.split()) > 3 and p.text.endswith(".")
               for p in phrases_of(line)):  # a sentence: prose above the table
            break
        if table.title and " ".join(table.title.split()) in " ".join(text.split()):
            break
        if _UNIT_NOTE.search(text) and unit_of(text):  # "(In crores of Rupees)": the caption above the header
            break
        chosen.append(line)
        edge = max(w.top for w in line)
    return list(reversed(chosen))


def anchor_columns(phrase: Word, cols: list[Word]) -> tuple[int, int] | None:
    """The columns a phrase stands over: those its extent overlaps by a tenth of the narrower (values are
    right-aligned, headers centred, so extents are compared, not centres), else the two columns whose gap holds its
    centre, else the nearest column within half a column pitch; ``(first, last)``, or ``None`` outside the
    columns."""
    def overlap(c: Word) -> float:
        return min(phrase.x1, c.x1) - max(phrase.x0, c.x0)

    over = [j for j, c in enumerate(cols) if overlap(c) > 0.1 * min(phrase.x1 - phrase.x0, c.x1 - c.x0)]
    if over:
        return over[0], over[-1]
    if phrase.x1 < cols[0].x0 or phrase.x0 > cols[-1].x1:  # the label column's header, or beyond the table
        return None
    between = [j for j in range(len(cols) - 1) if cols[j].x1 <= phrase.center <= cols[j + 1].x0]
    if between:
        return between[0], between[0] + 1
    pitch = (cols[-1].center - cols[0].center) / (len(cols) - 1)
    dist = [max(c.x0 - phrase.x1, phrase.x0 - c.x1) for c in cols]
    j = min(range(len(cols)), key=dist.__getitem__)
    return (j, j) if dist[j] <= pitch / 2 else None


def _wrapped(lines: list[list[Word]]) -> tuple[list[list[Word]], set[tuple[int, int]]]:
    """Header cells that wrap onto a second line joined into one phrase: the first phrase below a phrase that overlaps
    its extent (in the next line, or a later one when the lines between hold nothing under it: a one-line header
    cell set beside a wrapped one is a line of its own between the two halves, "Outstanding (₹" over "crore)" with
    "Share of book" level between them), lying within its extent and closer below it than :data:`WRAP_GAP` text
    heights (tighter than the header's line spacing; one text height across a line between), is its second line.
    Returns the lines of phrases and the ``(line, phrase)`` indices of the joined cells, which are column headers
    in their own right and never spread over several columns."""
    phrased = [phrases_of(line) for line in lines]
    leaves: set[tuple[int, int]] = set()
    for i in range(len(phrased) - 1):
        for k, p in enumerate(phrased[i]):
            pad = p.height / 2
            j, under = next(((j, u) for j in range(i + 1, len(phrased))
                             if (u := [q for q in phrased[j] if min(p.x1, q.x1) - max(p.x0, q.x0) > 0])), (0, []))
            if len(under) != 1 or under[0].x0 < p.x0 - pad or under[0].x1 > p.x1 + pad:
                continue
            q = under[0]
            # across a line set level between the two halves, within a text height: boxes of glyphs without
            # ascenders or descenders ("Share of" over "deposits") leave a wider gap than the line pitch says
            limit = WRAP_GAP * p.height if j == i + 1 else max(p.height, q.height)
            if p.bottom - q.top < limit:
                phrased[i][k] = Word(f"{p.text} {q.text}", min(p.x0, q.x0), max(p.x1, q.x1), q.bottom, p.top)
                phrased[j].remove(q)
                leaves.add((i, k))
    return phrased, leaves


def spread_columns(anchors: dict[int, tuple[int, int]], below: set[int], n: int,
            leaves: set[int] = frozenset()) -> dict[int, set[int]]:  # type: ignore[assignment]
    """Each phrase's columns: its anchor widened by one column on each side (on the one side left at the table's
    edge) while the new columns are free in this line, wanted by no other phrase at the same step, and have headers
    in a lower line (``below``); ``leaves`` (wrapped cells) are not widened."""
    cover = {k: set(range(lo, hi + 1)) for k, (lo, hi) in anchors.items()}
    taken = {j for c in cover.values() for j in c}
    growing = set(cover) - set(leaves)
    while growing:
        wants = {k: {j for j in (min(cover[k]) - 1, max(cover[k]) + 1) if 0 <= j < n} for k in growing}
        claimed = [j for want in wants.values() for j in want]
        for k, want in wants.items():
            if want and want.isdisjoint(taken) and want <= below and all(claimed.count(j) == 1 for j in want):
                cover[k] |= want
                taken |= want
            else:
                growing.discard(k)
    return cover


def _level_beside(lines: list[tuple[list[Word], dict[int, tuple[int, int]], set[int]]], phrased: list[list[Word]],
                  i: int) -> set[int]:
    """The columns of line ``i - 1`` when line ``i`` sits between two lines closer than a text height (wrapped cells,
    "Per day" over "(aggregate)"): its phrases ("Per transaction") are cells beside them, not groups over them."""
    if not 0 < i < len(lines) - 1 or not (phrased[i - 1] and phrased[i] and phrased[i + 1]):
        return set()
    height = statistics.median(w.height for w in phrased[i])
    if min(w.bottom for w in phrased[i - 1]) - max(w.top for w in phrased[i + 1]) >= height:
        return set()
    return {j for lo, hi in lines[i - 1][1].values() for j in range(lo, hi + 1)}


def stitch_headers(words: list[Word], table: Table) -> tuple[str, ...] | None:
    """The table's column headers from the page's words (see the module docstring), or ``None`` when the columns
    cannot be placed or fewer than half of them get a header; columns placed by their rows' lines (the same figures
    in many rows) must also get distinct headers, none naming two years."""
    placed = _placed(table, words, None)
    by_rows = placed is None
    placed = placed or _placed(table, words, word_lines(words))  # as _columns, the first placement read once
    if placed is None:
        return None
    cols, top = placed
    n = len(cols)
    lines = []
    phrased, leaves = _wrapped(_headerword_lines(words, top, table))
    for i, phrases in enumerate(phrased):
        anchors = {k: a for k, p in enumerate(phrases)
                   if not is_unit_line(p.text) and (a := anchor_columns(p, cols)) is not None}
        lines.append((phrases, anchors, {k for line, k in leaves if line == i}))
    headers: list[list[str]] = [[] for _ in range(n)]
    below: set[int] = set()
    for i in reversed(range(len(lines))):  # bottom line first: what a group header may spread over
        phrases, anchors, wrapped = lines[i]
        over = _level_beside(lines, phrased, i)
        cover = spread_columns(anchors, below - over, n, wrapped)
        for k, columns in cover.items():
            for j in columns:
                headers[j].insert(0, phrases[k].text)
        below |= {j for columns in cover.values() for j in columns}
    result = tuple(" ".join(" ".join(parts).split()) for parts in headers)
    if sum(bool(h) for h in result) * 2 < n or by_rows and (
            len(set(result)) < n or any(len(_YEAR.findall(h)) > 1 for h in result)):
        return None
    return result
