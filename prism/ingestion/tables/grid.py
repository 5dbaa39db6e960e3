"""Column names of a table whose header has several rows (a spanned label over its sub-columns).

A two-level header — ``"Net profit (Rs. crore)"`` spanning ``FY2024 | FY2023`` — names each column by the labels
above it, top to bottom: ``"Net profit (Rs. crore) FY2023"``. The readers (XLSX merged ranges, HTML ``colspan`` /
``rowspan``) first carry a spanned label into every cell it covers; :func:`combine_headers` then joins each column's
labels, saying a label repeated down the column (a cell spanning several header rows) once.
"""

from __future__ import annotations

from collections.abc import Sequence


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
