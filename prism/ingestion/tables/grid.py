"""Column names of a table whose header has several rows (a spanned label over its sub-columns).

A two-level header — ``"Net profit (Rs. crore)"`` spanning ``FY2024 | FY2023`` — names each column by the labels
above it, top to bottom: ``"Net profit (Rs. crore) FY2023"``. The readers (XLSX merged ranges, HTML ``colspan`` /
``rowspan``) first carry a spanned label into every cell it covers; :func:`combine_headers` then joins each column's
labels, saying a label repeated down the column (a cell spanning several header rows) once.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prism.ingestion.tables.periods import PERIOD
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
    r"|(?:fy|q[1-4]|h[12])\s*'?\d{2,4}\b|(?:19|20)\d{2}(?:\s*[-–/]\s*\d{2,4})?\b"
    r"|(?:\d{1,3}\s*(?:[-–]|to)\s*)?\d{1,3}\+?\s+(?:weeks?|months?|years?|days?)\b"
    r")|\(\s*\d{1,2}\s*\)|[$₹€£]?\s*['’]000\b", re.IGNORECASE)
"""What a header cell may hold with digits: a date ("January 3, 2020", "31 March"), a year ("2019", "2018-19"), a
fiscal period ("FY24", "Q3 2024"), a duration or a band of them ("13 weeks", "1-3 Years", "Less than 1 Year",
"31 to 60 days past due"; "six months" has no digit), a footnote mark "(1)" or
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
    while n < min(len(rows), MAX_HEADER_ROWS) and _header_like(rows[n]):
        n += 1
    if n == len(rows) or not any(not is_header_cell(c) for r in rows[n:] for c in r[1:]):
        return declared if declared else min(1, len(rows))
    return n


def _header_like(cells: Sequence[str]) -> bool:
    """Whether a row reads as a header row (:func:`split_header`): value cells holding no figure, not all empty, or
    a unit note alone in its label cell."""
    row = [" ".join(c.split()) for c in cells]
    values = row[1:]
    unit_note = bool(row) and is_unit_line(row[0]) and not any(values)
    return unit_note or (any(values) and all(is_header_cell(c) for c in values))


def _has_figure(rows: Sequence[Sequence[str]]) -> bool:
    return any(not is_header_cell(c) for r in rows for c in r[1:])


def stacked_tables(rows: Sequence[Sequence[str]], declared: int = 0) -> list[tuple[list[str], list[Sequence[str]]]]:
    """The tables stacked in one grid, each ``(column names, data rows)``: the header (:func:`split_header`) and the
    rows under it, then, for every later block of header rows with an empty label cell that names a period and
    stands between rows holding figures (a statement repeating its header for the year before: "As of December 31,
    2018" over "Amortized Cost | Fair Value"; "Fiscal 2018" over its quarters), that block's names and the rows
    under it. A row naming no period ("Liabilities and Stockholders' Equity", "€m") is a section or a unit, not a
    header. Column names are :func:`combine_headers` of :func:`spread_group_labels`.

    Returns:
        One entry per stacked table, top first; one entry when the grid repeats no header.
    """
    n = split_header(rows, declared)
    head: Sequence[Sequence[str]] = rows[:n]
    out: list[tuple[list[str], list[Sequence[str]]]] = []
    start = i = n
    while i < len(rows):
        m = 0
        while i + m < len(rows) and m < MAX_HEADER_ROWS and not " ".join(rows[i + m][:1]).strip() \
                and _header_like(rows[i + m]):
            m += 1
        block = rows[i:i + m]
        if m and _has_figure(rows[start:i]) and _has_figure(rows[i + m:i + m + 1]) \
                and any(_kind(c) == "period" for r in block for c in r[1:]):
            out.append((combine_headers(spread_group_labels(head)), list(rows[start:i])))
            head, start = block, i + m
        i += max(m, 1)
    out.append((combine_headers(spread_group_labels(head)), list(rows[start:])))
    return out


_DANGLING = re.compile(r"\b(?:of|and|&|for|to|in|at|on|from|the|by|per|with)\s*$", re.IGNORECASE)
"""A header cell ending in one of these words continues in the cell below it (``"Balance at Beginning of"`` over
``"Period (1/1/19)"``): a wrapped cell, never a group label over other columns."""


_PERIOD_GROUP = re.compile(
    rf"\b(?:{months.ANY_RE}|years?|ended|ending|quarters?|months|weeks|fiscal|fy|as\s+(?:of|at))\b", re.IGNORECASE)
"""A group label naming a time frame (``"Year Ended June 30,"``, ``"December 31,"``): it stands over the period
columns of its row even when other columns come between them."""


def _kind(label: str) -> str | None:
    """What a header cell names, for where a group label above it ends: ``"period"`` (a year, a date or a time
    frame such as ``"December 31,"`` is in it),
    ``"words"``, or ``None`` for an empty cell or a unit (``"(in millions)"``, ``"$'000"``, ``"£m"``, ``"%"``),
    which fits under any group."""
    text = " ".join(label.split())
    if not text or is_unit_line(text):
        return None
    if PERIOD.search(text) or _PERIOD_GROUP.search(text):
        return "period"
    return "words" if re.search(r"[^\W\d_]{3,}", text) else None


def _runs(kinds: Sequence[str | None]) -> list[list[int]]:
    """The value columns (index ≥ 1) in runs of one kind; a column of no kind joins the run it stands in."""
    runs: list[list[int]] = []
    current: str | None = None
    for j in range(1, len(kinds)):
        kind = kinds[j]
        if runs and (kind is None or current is None or kind == current):
            runs[-1].append(j)
            current = current or kind
        else:
            runs.append([j])
            current = kind
    return runs


def spread_group_labels(header_rows: Sequence[Sequence[str]]) -> list[list[str]]:
    """Header rows with a group label carried into the empty cells it stands over, for tables whose spans were
    lost (a PDF or a dataset's grid wrote ``["", "2019", "", "2018", ""]`` over ``["", "Men", "Women", "Men",
    "Women"]``).

    Rows are read from the bottom up, so a row's group labels see the columns the rows below name. In every row
    but the last, the value columns (not the first, the label column) that a lower row names are cut into runs of
    one kind by the nearest lower label (:func:`_kind`: periods, words; a unit fits any run): ``"Percent Change"``
    over ``"2019 | Actual | Constant | 2018"`` covers ``Actual`` and ``Constant`` only, ``"Fiscal year"`` over
    ``"2019 | 2018 | Actual | Comp."`` the two years. A row's only label naming a time frame (``"Year Ended June
    30,"``, :data:`_PERIOD_GROUP`) covers every column not named in words below it, wherever they stand (``"2019 |
    Change | 2018 | Change | 2017"``), when some column below it is a period. Otherwise a run's only label covers
    the whole run (``"For the Year Ended"`` over three dates, wherever it stands); with several labels each covers
    the empty cells to its right up to the next one. A label ending in a connective (``"Balance at Beginning
    of"``, :data:`_DANGLING`) is a wrapped cell and covers only its own column. A unit note alone in a row (``["",
    "", "(in millions)", ""]``) covers every value column, in any row; otherwise the last row is never changed.

    Returns:
        New rows, the same lengths as given.
    """
    rows = [list(r) for r in header_rows]
    for i, row in enumerate(rows):
        labels = [c for c in row[1:] if c.strip()]
        if len(labels) == 1 and is_unit_line(labels[0]):
            rows[i] = [row[0], *(c if c.strip() else labels[0] for c in row[1:])]
    for i in range(len(rows) - 2, -1, -1):
        row = rows[i]
        below = [any(j < len(r) and r[j].strip() for r in rows[i + 1:]) for j in range(len(row))]
        kinds = [next((k for r in rows[i + 1:] if j < len(r) and (k := _kind(r[j])) is not None), None)
                 for j in range(len(row))]
        named = [j for j in range(1, len(row)) if row[j].strip()]
        if len(named) == 1 and _PERIOD_GROUP.search(row[named[0]]) and not _DANGLING.search(row[named[0]]) \
                and "period" in kinds:
            for j in range(1, len(row)):
                if below[j] and not row[j].strip() and kinds[j] != "words":
                    row[j] = row[named[0]]
            continue
        for run in _runs(kinds):
            labelled = [j for j in run if row[j].strip()]
            if len(labelled) == 1 and not _DANGLING.search(row[labelled[0]]):
                for j in run:
                    if below[j] and not row[j].strip():
                        row[j] = row[labelled[0]]
                continue
            last = ""
            for j in run:
                if row[j].strip():
                    last = "" if _DANGLING.search(row[j]) else row[j]
                elif below[j] and last:
                    row[j] = last
    return rows
