"""Numbered tables of text: a header line ``"No. Item"`` over rows that start with consecutive numbers.

Tables whose cells are words cannot be read from stored text in general (:mod:`prism.ingestion.tables.stored_text`
reads rows
of figures), but one common kind can: a register of items, each row a sequence number and a text, under a header
whose first word names the number column (``No.``, ``S. No.``, ``Sl. No.``, ``Sr. No.``, ``#``) — "Table 1 :
Document to be submitted", a circular's list of annexures. Such a table is read as one column of text cells
labelled by their numbers:

* the header line is ``<number header> <column header>`` (``"No. Item"``, ``"S.No. Particulars"``);
* rows follow it, each a line ``"<n> <text>"`` with ``n`` counting up from 1 by one (no full stop after the number,
  so a numbered paragraph ``"1. Introduction"`` is not a row); a line that does not start with the next number
  continues the row above (a wrapped item, starting in lower case) or is a section line inside the table (a row
  without cells), at most :data:`MAX_GAP_LINES` in a row; the table ends at the first line that breaks the count
  or after such a gap;
* at least :data:`MIN_ROWS` rows; a caption (``"Table 1 : …"``) within two lines above the header is its title.

Offsets index the page text like every table's: a row spans its first line and its continuation lines, its one
cell the text after the number.
"""

from __future__ import annotations

import re

from prism.types import Table, TableRow

MIN_ROWS = 3
"""A numbered table needs at least this many rows."""
MAX_GAP_LINES = 3
"""Lines in a row that do not start the next row (wrapped text, section lines)."""

_HEADER = re.compile(
    r"^(?P<label>(?:s\.?\s?no|sl\.?\s?no|sr\.?\s?no|no|item\s+no)\.?|#)\s+(?P<column>\S.{0,60})$", re.IGNORECASE
)
_ROW = re.compile(r"^(?P<n>\d{1,3})\s+(?P<text>[^\s.)].*)$")
_CAPTION = re.compile(r"^(?:table|schedule|annex(?:ure)?)\s+[\w.-]+\s*[:.–-]", re.IGNORECASE)


def _lines(page_text: str) -> list[tuple[int, int, str]]:
    out, pos = [], 0
    for raw in page_text.split("\n"):
        out.append((pos, pos + len(raw), raw))
        pos += len(raw) + 1
    return out


def _rows(lines: list[tuple[int, int, str]], first: int) -> list[TableRow]:
    """The rows from line ``first`` on: numbered rows with their wrapped lines, and section lines between them as
    rows without cells (so no text inside the table is left out of its chunks)."""
    rows: list[TableRow] = []
    count = gap = 0
    for start, end, raw in lines[first:]:
        text = raw.strip()
        match = _ROW.match(text)
        if match and int(match.group("n")) == count + 1:
            offset = start + len(raw) - len(raw.lstrip()) + match.start("text")
            rows.append(TableRow(match.group("n"), (match.group("text").strip(),), ((offset, end),), start, end))
            count, gap = count + 1, 0
        elif not text:
            continue
        elif count and gap < MAX_GAP_LINES and not match:
            gap += 1
            last = rows[-1]
            if last.cells and text[:1].islower() and gap == 1:  # a wrapped item: the row and its cell grow
                cell = " ".join(f"{last.cells[0]} {text}".split())
                rows[-1] = TableRow(last.label, (cell,), ((last.cell_spans[0][0], end),), last.char_start, end)
                gap = 0
            else:
                rows.append(TableRow(" ".join(text.split()), (), (), start + len(raw) - len(raw.lstrip()), end))
        else:
            break
    while rows and not rows[-1].cells:  # lines after the last numbered row are not the table's
        rows.pop()
    return rows if count >= MIN_ROWS else []


def find_numbered_tables(page_text: str, page: int | None = None, first_number: int = 1) -> list[Table]:
    """The numbered text tables on one page (see the module docstring).

    Args:
        page_text: the page's stored text.
        page: its 1-based number, or ``None`` for unpaged text.
        first_number: the number the tables' ids start from (``p{page}-t{first_number}``), after the page's tables
            of figures.

    Returns:
        Tables in page order: one column (``column_headers == (header,)``), rows labelled by their numbers, each
        with one cell (its text, continuation lines joined by spaces) whose span runs from the text's first
        character to the end of the row's last line, and section lines as rows without cells;
        ``page_text[row.char_start:row.char_end]`` is the row.
    """
    lines = _lines(page_text)
    tables: list[Table] = []
    i = 0
    while i < len(lines):
        header = _HEADER.match(lines[i][2].strip())
        rows = _rows(lines, i + 1) if header else []
        if not rows:
            i += 1
            continue
        title, start = None, lines[i][0]
        for k in range(max(0, i - 2), i):
            if _CAPTION.match(lines[k][2].strip()):
                title, start = " ".join(lines[k][2].split()), lines[k][0]
        table_id = f"p{page}-t{first_number + len(tables)}" if page is not None else f"t{first_number + len(tables)}"
        column = " ".join(header.group("column").split())  # type: ignore[union-attr]
        tables.append(Table(table_id, page, title, (column,), None, None, tuple(rows), start, rows[-1].char_end))
        end = rows[-1].char_end
        i = next((k for k, line in enumerate(lines) if line[0] > end), len(lines))
    return tables
