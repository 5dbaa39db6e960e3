"""Column names of a table whose header has several rows (a spanned label over its sub-columns).

A two-level header — ``"Net profit (Rs. crore)"`` spanning ``FY2024 | FY2023`` — names each column by the labels
above it, top to bottom: ``"Net profit (Rs. crore) FY2023"``. The readers (XLSX merged ranges, HTML ``colspan`` /
``rowspan``) first carry a spanned label into every cell it covers; :func:`combine_headers` then joins each column's
labels, saying a label repeated down the column (a cell spanning several header rows) once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prism.ingestion.tables.stored_text import is_unit_line
from prism.vocabulary import months


def combine_headers(header_rows: Sequence[Sequence[str]]) -> list[str]:
    """One name per column from the header rows above it.

    Args:
        header_rows: the header rows, top first, each one string per column (``""`` for an empty cell), spanned
            labels already carried into the cells they cover; rows may differ in length.

    Returns:
        ``len(longest row)`` names: each column's distinct non-empty labels joined with a space, top to bottom
        (``[["Segment", "Revenue", "Revenue"], ["Segment", "FY2024", "FY2023"]]`` → ``["Segment", "Revenue FY2024",
        "Revenue FY2023"]``); ``""`` for a column with no label.
    """
    width = max((len(r) for r in header_rows), default=0)
    names = []
    for col in range(width):
        parts: list[str] = []
        for row in header_rows:
            label = " ".join(row[col].split()) if col < len(row) and row[col] else ""
            if label and label not in parts:
                parts.append(label)
        names.append(" ".join(parts))
    return names


MAX_HEADER_ROWS = 4
"""Most leading rows :func:`split_header` reads as header rows."""

_PERIOD_WORDS = re.compile(
    rf"\b(?:(?:{months.ANY_RE})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?\b,?|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{months.ANY_RE})\b\.?"
    r"|(?:fy|q[1-4]|h[12])\s*'?\d{2,4}\b|(?:19|20)\d{2}(?:\s*[-–/]\s*\d{2,4})?\b|\d{1,2}\s+(?:weeks?|months?)\b"
    r")|\(\s*\d{1,2}\s*\)|[$₹€£]?\s*['’]000\b", re.IGNORECASE)
"""What a header cell may hold with digits: a date ("January 3, 2020", "31 March"), a year ("2019", "2018-19"), a
fiscal period ("FY24", "Q3 2024"), a duration ("13 weeks", "six months" has no digit), a footnote mark "(1)" or
the thousands unit "$'000"."""


def is_header_cell(cell: str) -> bool:
    """True when ``cell`` holds no figure: empty, words, a unit or sign (``"(in millions)"``, ``"$"``, ``"%"``),
    periods and dates only (:data:`_PERIOD_WORDS`), or words that name a number inside them ("Quoted Prices in Active
    Markets (Level 1)", "Tier 2 capital"); ``"1,234"``, ``"(114)"``, ``"9.4%"``, ``"$ 2,010"`` are figures (a cell
    that starts with its number)."""
    text = _PERIOD_WORDS.sub(" ", cell)
    if not any(ch.isdigit() for ch in text):
        return True
    return re.search(r"[A-Za-z]{3,}", text) is not None and re.match(r"\s*[$€£¥₹(−–+-]*\s*\d", text) is None


def split_header(rows: Sequence[Sequence[str]], declared: int = 0) -> int:
    """How many leading ``rows`` are the table's header: the ``declared`` ones (``<th>`` rows, ``<thead>``) and
    then each next row whose value cells (all but the first, the row label) hold no figure
    (:func:`is_header_cell`) and that is not empty past its label: ``["", "January 3, 2020", "December 28, 2018"]``,
    ``["", "", "(in millions)", ""]``, ``["At December 31:", "2019", "2018"]``, ``["", "Men", "Women"]``; a unit
    note alone in the label cell (``["($ in millions)", "", ""]``) too. A row like ``["Revenue:", "", ""]`` (a
    section label) ends the header, and so does the first row with a figure.

    At most :data:`MAX_HEADER_ROWS` rows are header rows, and never all of them: a table with no row holding a
    figure (a table of words) keeps only its ``declared`` header rows, or its first row when none is declared.

    Returns:
        The header row count, ``declared`` ≤ n < ``len(rows)`` (or ``len(rows)`` when every row is declared).
    """
    n = declared
    while n < min(len(rows), MAX_HEADER_ROWS):
        row = [" ".join(c.split()) for c in rows[n]]
        values = row[1:]
        unit_note = bool(row) and is_unit_line(row[0]) and not any(values)
        if not unit_note and not (any(values) and all(is_header_cell(c) for c in values)):
            break
        n += 1
    if n == len(rows) or not any(not is_header_cell(c) for r in rows[n:] for c in r[1:]):
        return declared if declared else min(1, len(rows))
    return n


def spread_group_labels(header_rows: Sequence[Sequence[str]]) -> list[list[str]]:
    """Header rows with a group label carried into the empty cells it stands over, for tables whose spans were
    lost (a PDF or a dataset's grid wrote ``["", "2019", "", "2018", ""]`` over ``["", "Men", "Women", "Men",
    "Women"]``).

    In every row but the last, a value cell (not the first, the label column) that is empty while a lower row
    names its column takes the nearest label to its left in the same row; a row with one label only (``["", "",
    "For the Year Ended", ""]``) covers every value column that a lower row names. A unit note alone in a row
    (``["", "", "(in millions)", ""]``) covers every value column, in any row; otherwise the last row is never
    changed.

    Returns:
        New rows, the same lengths as given.
    """
    rows = [list(r) for r in header_rows]
    for i, row in enumerate(rows):
        labels = [c for c in row[1:] if c.strip()]
        if len(labels) == 1 and is_unit_line(labels[0]):
            rows[i] = [row[0], *(c if c.strip() else labels[0] for c in row[1:])]
    for i, row in enumerate(rows[:-1]):
        below = [any(j < len(r) and r[j].strip() for r in rows[i + 1:]) for j in range(len(row))]
        labels = [c for c in row[1:] if c.strip()]
        if len(labels) == 1:
            for j in range(1, len(row)):
                if below[j] and not row[j].strip():
                    row[j] = labels[0]
            continue
        last = ""
        for j in range(1, len(row)):
            if row[j].strip():
                last = row[j]
            elif below[j] and last:
                row[j] = last
    return rows
