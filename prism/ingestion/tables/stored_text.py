"""Tables on a page of stored text: rows with their label, cells, column headers (the periods) and unit.

Prism stores each PDF page as pypdf's layout text with runs of spaces collapsed
(:mod:`prism.ingestion.parsing.pdf.read`,
:mod:`prism.ingestion.parsing.normalize`), so a statement row reads ``"Net income $ 122,641 $ 266,799 $ 112,403"``: the
column alignment is gone, but every row is still one line and its figures are the tokens at the end of that line. This
module reads tables from that text alone, at no parsing cost (``bench/tables.py`` compares it with pdfplumber):

* a **row** is a line ending in value tokens (``122,641``, ``(1,837)``, ``—``, ``...``, ``0.29``, ``12.5%``, a
  decimal comma's ``1.234,5`` and ``(612,8)``, a page range ``71-72``; a currency sign before a value is skipped);
  its label is the text before them; a statement's "Note" column of references is dropped from the values;
* a **table** is a run of at least :data:`MIN_ROWS` rows with two or more values, where non-value lines (section
  labels such as ``"Current assets:"``) are short and at most :data:`MAX_GAP_LINES` in a row; its column count is the
  commonest value count of its rows, a longer row gives its leftmost extra values back to the label
  (``"2.50% Notes due 2025 500 500"`` → label ``"2.50% Notes due 2025"``), a shorter row is filled from the left;
* its **column headers** are the last periods (``2015``, ``December 31, 2018``, ``31 March 2025``, ``31.03.2025``,
  ``Q3 FY24``, ``2014-15``) in the lines above the first row, one per column (:mod:`prism.ingestion.tables.periods`);
  a line of such headers inside a run of rows starts the next table;
* its **unit** and **currency** come from a unit line above it (``"(in thousands, except per share data)"``,
  ``"(In crores of Rupees)"``, ``"₹ lakh"``) or from the currency signs of its cells; its **title** is the nearest
  statement heading above it (``"CONSOLIDATED STATEMENTS OF OPERATIONS"``) or a ``"Table 3: …"`` caption;
* its **number convention** (decimal point or comma, :func:`prism.vocabulary.number_formats.decide`) is read from
  its cells once, and is ambiguous when they do not settle it.

Tables whose columns hold words (a list of documents, a payee register) are not found from this text: without the
alignment nothing tells where one text cell ends. Offsets index the page text, so ``page_text[row.char_start:
row.char_end]`` is the row's line exactly. Chunking a table at row boundaries is :mod:`prism.ingestion.tables.chunks`.
"""

from __future__ import annotations

import logging
import re
from collections import Counter

from prism.ingestion.tables.periods import PERIOD, column_headers
from prism.ingestion.tables.row_lines import Line, page_lines
from prism.types import Table, TableRow
from prism.vocabulary import currencies, number_formats, statements, units

logger = logging.getLogger(__name__)

MIN_ROWS = 3
"""A table needs at least this many rows holding two or more values."""
MAX_GAP_LINES = 3
"""Consecutive non-empty lines without values (section labels) a table may contain."""
MAX_LABEL_LINE_CHARS = 100
"""A line without values longer than this is prose: it ends a table."""
HEADER_ZONE_LINES = 14
"""How many lines above a table's first row are searched for its title, unit and column headers."""


# --- vocabulary ----------------------------------------------------------------------------------------------------

_NOTE_HEADER = re.compile(r"\b(?:notes?(?:\s+no\.?)?|sch(?:edule)?\.?(?:\s+no\.?)?)(?=\s|$)", re.IGNORECASE)
"""The header of an Indian statement's reference column ("Note", "Note No.", "Schedule"), which holds no figure."""
_NOTE_REF = re.compile(r"^\d{1,2}(?:\s?\(?[a-z]\)?)?$", re.IGNORECASE)
"""A note reference in that column: "22", "5(a)", "5A"."""
_UNIT_WORDS = re.compile(
    rf"(?<!\d)(?<!\d\s)\b({units.WORD_RE}|{units.abbreviations_re(column_notes=True)})\b"
    rf"|₹\s*(?:in\s+)?({units.words_re(units.INDIAN_UNITS, spoken_only=True)})",
    re.IGNORECASE,
)
_UNIT_LINE = re.compile(
    r"^\(?\s*(?:(?:amounts?|dollars|figures|rupees|all\s+amounts|us\s*\$|\$|₹|rs\.?|inr|usd)\s*)?(?:in\s+)?"
    rf"(?:₹|rs\.?|inr|usd|us\$|\$)?\s*(?:in\s+)?({units.WORD_RE})\b",
    re.IGNORECASE,
)
_STATEMENT = re.compile(statements.HEADING_RE, re.IGNORECASE)
_CAPTION = re.compile(r"^(?:table|schedule|statement|annex(?:ure)?)\s+[\w.-]+\s*[:.–-]", re.IGNORECASE)


def is_unit_line(line: str) -> bool:
    """True when ``line`` says what a table's numbers mean, so running-line removal must keep it.

    Matches short lines (at most 80 characters) that start with a unit phrase marked as one (in parentheses, after
    "in", with a currency sign, or the unit word alone): ``"(in millions)"``, ``"(In
    thousands, except per share data)"``, ``"(Dollars in millions, except per share data)"``, ``"(Millions, except
    per share amounts)"``, ``"Rs. in crore"``, ``"(In crores of Rupees)"``, ``"₹ lakh"``, ``"(₹ in lakh)"``; not
    ``"Millions of customers"``.
    """
    text = " ".join(line.split())
    match = _UNIT_LINE.match(text) if len(text) <= 80 else None
    if match is None:
        return False
    marked = text.startswith("(") or re.search(r"\bin\b|₹|\brs\b|\$", text[: match.end()], re.IGNORECASE)
    return bool(marked) or match.end() == len(text)


def is_statement_heading(line: str) -> bool:
    """True when ``line`` is a financial statement's name, which running-line removal must keep.

    Matches lines of at most 80 characters that are a statement name, optionally after the entity's name:
    ``"CONSOLIDATED BALANCE SHEETS"``, ``"Consolidated Statements of Cash Flows"``, ``"Statement of Profit and
    Loss"``, ``"NIKE, Inc. Consolidated Statements of Income"``; a sentence that mentions one is not matched.
    """
    text = " ".join(line.split())
    match = _STATEMENT.search(text)
    return 0 < len(text) <= 80 and match is not None and match.end() >= len(text.rstrip(" .:()-–—"))


def unit_of(text: str) -> str | None:
    """The first unit named in ``text`` (``thousands``, ``millions``, ``billions``, ``lakh``, ``crore``) or None.

    A unit written after a figure is that figure's ("balances up to ₹10 lakh", "$2.5 billion" in a sentence above the
    table), never the table's: it is skipped."""
    match = _UNIT_WORDS.search(text)
    if not match:
        return None
    return units.CANONICAL.get((match.group(1) or match.group(2)).lower())


def currency_of(text: str) -> str | None:
    """ISO 4217 code of the first currency sign or name in ``text`` (``$``/dollars → USD, ₹/Rs./rupees → INR)."""
    match = re.search(currencies.MARK_RE, text, re.I)
    return currencies.code_of(match.group(0)) if match else None


# --- lines and rows ------------------------------------------------------------------------------------------------


def _blocks(lines: list[Line]) -> list[tuple[int, int]]:
    """``(first, last)`` line indices of each run of rows that makes a table (see the module docstring)."""
    blocks: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        if len(lines[i].cells) < 2:
            i += 1
            continue
        first = last = i
        gap = 0
        j = i + 1
        while j < len(lines):
            line = lines[j]
            if _CAPTION.match(line.text.strip()):  # "Table 11 – Deposits by type": the next table's caption
                break
            if line.cells and (line.label.strip() or len(line.cells) > 1):  # a lone number is a page number
                last, gap = j, 0
            elif line.text.strip():
                gap += 1
                if gap > MAX_GAP_LINES or len(line.text) > MAX_LABEL_LINE_CHARS or _heads_columns(line):
                    break
            j += 1
        body = lines[first : last + 1]
        wide = sum(1 for line in body if len(line.cells) >= 2)
        filled = sum(1 for line in body if line.text.strip())
        if wide >= MIN_ROWS and wide * 2 >= filled:
            blocks.append((first, last))
        i = last + 1
    return blocks


def _heads_columns(line: Line) -> bool:
    """True for a line of column headers inside a run of rows ("Particulars 2024-25 2023-24"): two periods or more
    and no values; the table above ends there and the next one starts below it with its own header."""
    return not line.cells and len(PERIOD.findall(line.text)) >= 2


def _note_column(zone: str, lines: list[Line], n_cols: int) -> bool:
    """True when the first of ``n_cols`` value columns holds note references, not figures: the header zone names a
    "Note" (or "Schedule") column, every row with all ``n_cols`` values opens with a one- or two-digit reference
    ("22", "5(a)"), and some other value of those rows is no such number (Indian statements of profit and loss:
    "Interest income 22 4,812.36 3,905.14", totals without a note)."""
    if n_cols < 3 or not _NOTE_HEADER.search(zone):
        return False
    full = [line for line in lines if len(line.cells) == n_cols]
    return bool(full) and all(_NOTE_REF.match(line.cells[0]) for line in full) and any(
        not _NOTE_REF.match(c) for line in full for c in line.cells[1:])


def _without_notes(rows: tuple[TableRow, ...], n_cols: int) -> tuple[TableRow, ...]:
    """The rows with their note reference (the first of ``n_cols`` values) dropped: the row's label ends before it
    and its cells are the figures."""
    return tuple(TableRow(r.label, r.cells[1:], r.cell_spans[1:], r.char_start, r.char_end, r.source_row)
                 if len(r.cells) == n_cols else r for r in rows)


def _rows(lines: list[Line], n_cols: int) -> tuple[TableRow, ...]:
    """The block's lines as rows of exactly ``n_cols`` cells (section labels: none); blank lines dropped."""
    rows: list[TableRow] = []
    for line in lines:
        if not line.text.strip():
            continue
        cells, spans = line.cells, line.spans
        label_end = spans[0][0] if spans else line.end
        if len(cells) > n_cols:
            extra = len(cells) - n_cols
            label_end = spans[extra - 1][1]
            cells, spans = cells[extra:], spans[extra:]
        label = " ".join(line.text[: label_end - line.start].split())
        rows.append(TableRow(label, cells, spans, line.start, line.end))
    return tuple(rows)


# --- what is above the rows: title, unit, column headers -----------------------------------------------------------


def _zone(lines: list[Line], first: int, floor: int) -> int:
    """Index of the first line of the header zone above line ``first`` (never above ``floor``)."""
    k = first
    seen = 0
    while k > floor and seen < HEADER_ZONE_LINES:
        line = lines[k - 1]
        if len(line.text) > MAX_LABEL_LINE_CHARS or len(line.cells) >= 2 and not PERIOD.search(line.text):
            break
        k -= 1
        seen += bool(line.text.strip())
    return k


def _title(zone_lines: list[Line]) -> tuple[str | None, int | None]:
    """The statement heading (or else the caption nearest the rows) in the zone, which may run over several lines,
    and its first line."""
    text, starts = "", []
    for line in zone_lines:
        if line.text.strip():
            starts.append((len(text), line.start))
            text += line.text.strip() + " "
    match = _STATEMENT.search(text)
    if match:
        where = max(s for s in starts if s[0] <= match.start())
        return " ".join(match.group().split()), where[1]
    for line in reversed(zone_lines):  # the caption nearest the rows: one above it heads a table of words
        if _CAPTION.match(line.text.strip()):
            return " ".join(line.text.split()), line.start
    return None, None


def find_tables(page_text: str, page: int | None = None) -> list[Table]:
    """Find the tables of figures on one page of stored text.

    Args:
        page_text: the page's text as Prism stores it (normalised; lines kept, runs of spaces collapsed).
        page: its 1-based page number, or ``None`` for an unpaged text.

    Returns:
        The tables in page order (possibly none). Every row satisfies ``page_text[row.char_start:row.char_end] ==``
        its line, every cell span lies inside its row, and rows of one table have ``len(column_headers)`` cells
        when headers were found (section labels have none).
    """
    lines = page_lines(page_text)
    tables: list[Table] = []
    floor = 0
    for first, last in _blocks(lines):
        counts = Counter(len(line.cells) for line in lines[first : last + 1] if len(line.cells) >= 2)
        n_cols = max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0]
        top = _zone(lines, first, floor)
        zone_lines = lines[top:first]
        zone = " ".join(line.text for line in zone_lines)
        rows = _rows(lines[first : last + 1], n_cols)
        if _note_column(zone, lines[first : last + 1], n_cols):
            rows, n_cols = _without_notes(rows, n_cols), n_cols - 1
        headers = column_headers(zone, n_cols)
        title, title_start = _title(zone_lines)
        unit_line = next((line for line in zone_lines if is_unit_line(line.text)), None)
        unit = unit_of(unit_line.text if unit_line else zone)
        body = " ".join(page_text[s:e] for row in rows for s, e in row.cell_spans)
        currency = currency_of(zone) or currency_of(body)
        starts = [rows[0].char_start]
        if title_start is not None:
            starts.append(title_start)
        starts += [line.start for line in zone_lines if line is unit_line or (headers and PERIOD.search(line.text))]
        number = len(tables) + 1
        table_id = f"p{page}-t{number}" if page is not None else f"t{number}"
        numbers = number_formats.decide(c for row in rows for c in row.cells)
        tables.append(Table(table_id, page, title, headers, unit, currency, rows, min(starts), rows[-1].char_end,
                            numbers.decimal, numbers.ambiguous))
        floor = last + 1
    logger.debug("page %s: %d tables", page, len(tables))
    return tables


MAX_FOOT_CHARS = 30
"""A line this short below a page's last rows is page furniture ("Page 1 of 5", "(continued)"), not text."""


def find_tail_rows(page_text: str, page: int | None, n_cols: int, number: int, after: int = 0) -> Table | None:
    """The rows that end a page, too few to be found as a table (1 to ``MIN_ROWS`` − 1 lines of exactly ``n_cols``
    values, each with a label, below ``after`` and below a line that is no row, with at most :data:`MAX_GAP_LINES`
    lines of page furniture under them), as table ``number`` of the page with no title or headers; ``None`` when
    the page does not end so. The head of a table that a page break cut: call it only when the next page opens with
    the rest (:func:`prism.ingestion.tables.finders.document_tables`), which gives it its title and headers."""
    lines = [line for line in page_lines(page_text) if line.text.strip()]
    end = len(lines)
    while end and len(lines[end - 1].cells) < 2 and len(lines[end - 1].text.strip()) <= MAX_FOOT_CHARS \
            and len(lines) - end < MAX_GAP_LINES:
        end -= 1
    first = end
    while first and len(lines[first - 1].cells) == n_cols and lines[first - 1].label.strip():
        first -= 1
    if not 0 < end - first < MIN_ROWS or lines[first].start < after or first and len(lines[first - 1].cells) >= 2:
        return None
    rows = _rows(lines[first:end], n_cols)
    body = " ".join(page_text[s:e] for row in rows for s, e in row.cell_spans)
    numbers = number_formats.decide(c for row in rows for c in row.cells)
    table_id = f"p{page}-t{number}" if page is not None else f"t{number}"
    return Table(table_id, page, None, (), None, currency_of(body), rows, rows[0].char_start, rows[-1].char_end,
                 numbers.decimal, numbers.ambiguous)
