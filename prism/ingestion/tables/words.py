"""Tables whose cells are words (a payee register, a list of transactions), read from the positions of the words on
a PDF page and located in the page's stored text.

Stored text keeps each row on one line but not where one word cell ends and the next begins, so such a table is read
from the page itself (pypdfium2's words, :mod:`prism.ingestion.tables.headers`), on pages where the text found no
other table and at least :data:`MIN_ROWS` lines end in an amount (a register's rows):

1. the page's lines and phrases (words closer than a text height); the header is the first line of at least
   :data:`MIN_HEADER_PHRASES` phrases without digits, with the lines below it that also hold only such phrases;
2. rows are the lines below the header with phrases in two or more places; a line with one phrase continues the row
   above (a wrapped description) and a vertical gap of :data:`MAX_ROW_GAP` line heights ends the table;
3. columns are the horizontal extents the rows' phrases share (overlapping extents merge; one filled in under
   :data:`MIN_COLUMN_SHARE` of the rows is a stray mark, no column); each phrase goes to the column it overlaps
   most;
4. the header phrases are spread over the columns as for tables of figures (a group header over the columns
   beneath it: ``"OBLIGATION/SERVICE DATES"`` over ``"START"`` and ``"END"``);
5. every cell is found in the stored text in reading order (its characters, whitespace ignored: the PDF's spacing
   and the text's need not agree), which gives the offsets; a row spans its lines and the lines that continue it.
   When a cell cannot be found the table is dropped (no table rather than wrong offsets).

The row label is the row's first non-empty cell; every column, the label's included, is a cell.
"""

from __future__ import annotations

import logging
import re
import statistics

from prism.ingestion.tables.headers import Word, anchor_columns, phrases_of, spread_columns, word_lines
from prism.types import Table, TableRow

logger = logging.getLogger(__name__)

MIN_ROWS = 3
"""A table of words needs at least this many rows (and as many lines of the page ending in an amount)."""
MIN_HEADER_PHRASES = 4
"""Phrases a header line needs."""
MAX_ROW_GAP = 4.0
"""A vertical gap of more than this many line heights between rows ends the table."""
MIN_COLUMN_SHARE = 0.25
"""A column needs a cell in at least this share of the rows."""
_AMOUNT_END = re.compile(r"(?:\d{1,3}(?:,\d{3})+|\d+)\.\d{2}$|\d{1,3}(?:,\d{3})+$", re.MULTILINE)


def likely_register(page_text: str) -> bool:
    """True when at least :data:`MIN_ROWS` lines of the page end in an amount (``920.68``, ``37,499.96``)."""
    return len(_AMOUNT_END.findall(page_text)) >= MIN_ROWS


def _headerish(phrase: Word) -> bool:
    return not any(ch.isdigit() for ch in phrase.text) and len(phrase.text.split()) <= 4


def _header(lines: list[list[Word]]) -> tuple[int, int] | None:
    """``(first, end)`` line indices of the header: its first line and the line after its last."""
    for i, line in enumerate(lines):
        phrases = phrases_of(line)
        if len(phrases) >= MIN_HEADER_PHRASES and all(_headerish(p) for p in phrases):
            end = i + 1
            while end < len(lines) and all(_headerish(p) for p in phrases_of(lines[end])):
                end += 1
            return i, end
    return None


def _rows(lines: list[list[Word]]) -> list[list[list[Word]]]:
    """The rows below the header: each a list of its lines' phrases, the first line with two or more."""
    rows: list[list[list[Word]]] = []
    last_bottom = None
    for line in lines:
        phrases = phrases_of(line)
        height = statistics.median(w.height for w in line)
        if last_bottom is not None and last_bottom - max(w.top for w in line) > MAX_ROW_GAP * height:
            break
        if len(phrases) >= 2:
            rows.append([phrases])
        elif rows:
            rows[-1].append(phrases)
        else:
            continue
        last_bottom = min(w.bottom for w in line)
    return rows


def _columns(rows: list[list[list[Word]]]) -> list[Word]:
    """Column extents: the first lines' phrase extents, overlapping ones merged, left to right; an extent filled in
    under :data:`MIN_COLUMN_SHARE` of the rows (stray marks in the margin) is no column."""
    spans = sorted((p.x0, p.x1) for row in rows for p in row[0])
    merged: list[list[float]] = []
    for x0, x1 in spans:
        if merged and x0 < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], x1)
        else:
            merged.append([x0, x1])
    need = max(2, MIN_COLUMN_SHARE * len(rows))
    kept = [(x0, x1) for x0, x1 in merged
            if sum(any(p.x0 < x1 and p.x1 > x0 for p in row[0]) for row in rows) >= need]
    return [Word(str(j), x0, x1, 0.0, 0.0) for j, (x0, x1) in enumerate(kept)]


def _column_of(phrase: Word, cols: list[Word]) -> int | None:
    """The column ``phrase`` overlaps most, or ``None`` when it overlaps none."""
    overlap = [min(phrase.x1, c.x1) - max(phrase.x0, c.x0) for c in cols]
    best = max(range(len(cols)), key=overlap.__getitem__)
    return best if overlap[best] > 0 else None


def _headers(header_lines: list[list[Word]], cols: list[Word]) -> tuple[str, ...]:
    parts: list[list[str]] = [[] for _ in cols]
    below: set[int] = set()
    for line in reversed(header_lines):
        phrases = phrases_of(line)
        anchors = {k: a for k, p in enumerate(phrases) if (a := anchor_columns(p, cols)) is not None}
        cover = spread_columns(anchors, below, len(cols))
        for k, columns in cover.items():
            for j in columns:
                parts[j].insert(0, phrases[k].text)
        below |= {j for columns in cover.values() for j in columns}
    return tuple(" ".join(" ".join(p).split()) for p in parts)


def _locate(page_text: str, text: str, start: int) -> tuple[int, int] | None:
    """The span of ``text``'s characters in ``page_text`` from ``start`` on, whitespace ignored."""
    pattern = r"\s*".join(re.escape(ch) for ch in text if not ch.isspace())
    match = re.compile(pattern).search(page_text, start) if pattern else None
    return (match.start(), match.end()) if match else None


def _line_end(page_text: str, pos: int) -> int:
    end = page_text.find("\n", pos)
    return len(page_text) if end < 0 else end


def _place(page_text: str, row: list[list[Word]], cols: list[Word], cursor: int) -> TableRow | None:
    """One row located in the stored text from ``cursor`` on, or ``None`` when a cell is not found."""
    cells: dict[int, Word] = {}
    for p in row[0]:
        j = _column_of(p, cols)
        if j is None:
            continue
        cells[j] = p if j not in cells else Word(f"{cells[j].text} {p.text}", cells[j].x0, p.x1, p.bottom, p.top)
    if not cells:
        return None
    spans: dict[int, tuple[int, int]] = {}
    pos = cursor
    for j in sorted(cells):
        found = _locate(page_text, cells[j].text, pos)
        if found is None or page_text.count("\n", cursor, found[0]) > 1 + 2 * len(row):
            return None
        spans[j] = found
        pos = found[1]
    first = min(spans.values())[0]
    start = page_text.rfind("\n", 0, first) + 1
    end = _line_end(page_text, pos)
    for line in row[1:]:  # continuation lines belong to the row
        for p in line:
            found = _locate(page_text, p.text, end)
            if found is not None and page_text.count("\n", end, found[0]) <= 1:
                end = _line_end(page_text, found[1])
    values = tuple(" ".join(page_text[a:b].split()) if (a, b) != (0, 0) else "" for a, b in
                   (spans.get(j, (0, 0)) for j in range(len(cols))))
    cell_spans = tuple(spans.get(j, (first, first)) for j in range(len(cols)))
    label = next(v for v in values if v)
    return TableRow(label, values, cell_spans, start, end)


def find_word_tables(page_text: str, page: int | None, words: list[Word], first_number: int = 1) -> list[Table]:
    """The table of words on one page, if any (see the module docstring).

    Args:
        page_text: the page's stored text (offsets index it).
        page: its 1-based number.
        words: the page's words in displayed coordinates (:meth:`PdfTableHeaders.words`).
        first_number: the number the table's id takes (``p{page}-t{first_number}``).

    Returns:
        ``[]`` or one table: column headers stitched from the header lines, rows with one cell per column (``""``
        with a zero-length span where empty), ``page_text[row.char_start:row.char_end]`` the row's lines.
    """
    lines = word_lines(words)
    header = _header(lines)
    if header is None:
        return []
    rows = _rows(lines[header[1]:])
    if len(rows) < MIN_ROWS:
        return []
    cols = _columns(rows)
    if len(cols) < 3:
        return []
    headers = _headers(lines[header[0]:header[1]], cols)
    first = _locate(page_text, phrases_of(lines[header[0]])[0].text, 0)
    cursor = first[1] if first else 0
    placed: list[TableRow] = []
    for row in rows:
        found = _place(page_text, row, cols, cursor)
        if found is None:
            logger.debug("page %s: a row of a table of words is not in the stored text; no table", page)
            return []
        placed.append(found)
        cursor = found.char_end
    start = page_text.rfind("\n", 0, first[0]) + 1 if first else placed[0].char_start
    table_id = f"p{page}-t{first_number}" if page is not None else f"t{first_number}"
    return [Table(table_id, page, None, headers, None, None, tuple(placed), start, placed[-1].char_end)]
