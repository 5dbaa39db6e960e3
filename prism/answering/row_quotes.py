"""A table row quoted from a page, written with its columns' headers.

A PDF's table chunk stores its rows as the page prints them ("P2M – general merchants ₹1,00,000 ₹2,00,000 9.1"): the
extractive answer quotes such a row with the headers of its table (the chunk's ``table_columns``), so the analyst
reads which figure is which ("P2M – general merchants — Per transaction: ₹1,00,000; Per day (aggregate): ₹2,00,000;
…"), never a run of bare figures.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

__all__ = ["columns_of_chunk", "with_columns"]

_FIGURE = re.compile(r"[-−]?(?:₹|\$|Rs\.?)?\(?\d+(?:,\d{2,3})*(?:\.\d+)?\)?%?")
"""One figure cell: "₹1,00,000", "(1,837)", "9.2", "12.5%"."""
_SIGN_ONLY = re.compile(r"₹|\$|Rs\.?")
_NOTE_WORDS = re.compile(r"\([A-Za-z][A-Za-z .'/-]{2,30}\)")
"""A note in words after a figure ("(spends)"): part of its cell."""


def columns_of_chunk(chunk: Any) -> list[str]:
    """The column headers of a table chunk's table (its ``table_columns`` metadata), ``[]`` for any other chunk."""
    meta = getattr(chunk, "metadata", None)
    meta = meta if isinstance(meta, dict) else {}
    return str(meta.get("table_columns") or "").split(" | ") if meta.get("table_id") else []


def _row_cells(tokens: list[str]) -> tuple[int, list[str]] | None:
    """``(where the label ends, the cells)`` of a table row as a page prints it, read from its end: figures (a lone
    currency sign joins the figure after it, a note in words after a figure stays with it: "₹4,000 (spends)")."""
    cells: list[str] = []
    k = len(tokens)
    while k > 0:
        note = next((i for i in range(k - 1, max(k - 5, 0) - 1, -1) if tokens[i].startswith("(")), None)
        if note is not None and note > 0 and _NOTE_WORDS.fullmatch(" ".join(tokens[note:k])) \
                and _FIGURE.fullmatch(tokens[note - 1]):
            cells.insert(0, " ".join(tokens[note - 1:k]))
            k = note - 1
        elif _FIGURE.fullmatch(tokens[k - 1]):
            cells.insert(0, tokens[k - 1])
            k -= 1
        elif _SIGN_ONLY.fullmatch(tokens[k - 1]) and cells:
            cells[0] = f"{tokens[k - 1]}{cells[0]}"
            k -= 1
        else:
            break
    return (k, cells) if cells else None


def with_columns(sentence: str, headers: Sequence[str]) -> str:
    """``sentence``, when it is one row of its chunk's table as the page prints it (a label, then one figure per
    column header), written with the headers: "Small-value wallet ₹500 ₹4,000 (spends) 9.2" under "Per transaction |
    Per day (aggregate) | Rule para" → "Small-value wallet — Per transaction: ₹500; Per day (aggregate): ₹4,000
    (spends); Rule para: 9.2". Any other sentence is returned as it is: prose, a row Prism rendered with its headers
    already ("Name: value; …"), a row whose figures do not match the headers one for one, or rows run together (a
    label holding two figures or more)."""
    headers = [h.strip() for h in headers if h.strip()]
    if len(headers) < 2 or ":" in sentence:
        return sentence
    tokens = sentence.split()
    found = _row_cells(tokens)
    if found is None or len(found[1]) != len(headers):
        return sentence
    label = tokens[:found[0]]
    if not re.search(r"[A-Za-z]{2}", " ".join(label)) or sum(bool(_FIGURE.fullmatch(t)) for t in label) >= 2:
        return sentence
    return f"{' '.join(label)} — " + "; ".join(f"{h}: {c}" for h, c in zip(headers, found[1], strict=True))
