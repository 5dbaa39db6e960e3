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

from prism.index import row_cells
from prism.vocabulary import units

__all__ = ["columns_of_chunk", "with_columns"]


def columns_of_chunk(chunk: Any) -> list[str]:
    """The column headers of a table chunk's table (its ``table_columns`` metadata), ``[]`` for any other chunk."""
    meta = getattr(chunk, "metadata", None)
    meta = meta if isinstance(meta, dict) else {}
    return str(meta.get("table_columns") or "").split(" | ") if meta.get("table_id") else []


def with_columns(sentence: str, headers: Sequence[str], unit: str | None = None) -> str:
    """``sentence``, when it is one row of its chunk's table as the page prints it (a label, then one figure per
    column header), written with the headers: "Small-value wallet ₹500 ₹4,000 (spends) 9.2" under "Per transaction |
    Per day (aggregate) | Rule para" → "Small-value wallet — Per transaction: ₹500; Per day (aggregate): ₹4,000
    (spends); Rule para: 9.2". Any other sentence is returned as it is: prose, a row Prism rendered with its headers
    already ("Name: value; …"), a row whose figures do not match the headers one for one, or rows run together (a
    label holding two figures or more). A table with a ``unit`` (a house word: ``"crore"``, ``"millions"``) is written
    with its headers only when one of them states it as the units reader reads a header ("Outstanding (₹ crore)",
    "2019 $'000" for ``"thousands"``; :func:`prism.vocabulary.units.column_unit`), so no figure loses its unit; else
    its rows are the caller's to quote with the unit."""
    headers = [h.strip() for h in headers if h.strip()]
    if len(headers) < 2 or ":" in sentence or unit and not any(_states(h, unit) for h in headers):
        return sentence
    tokens = sentence.split()
    label_end, cells = row_cells.trailing_cells(tokens)
    if len(cells) != len(headers) or not any(row_cells.is_figure(tokens[c.figure]) for c in cells):
        return sentence
    label = tokens[:label_end]
    if not re.search(r"[A-Za-z]{2}", " ".join(label)) or sum(map(row_cells.is_figure, label)) >= 2:
        return sentence
    written = [" ".join(["".join(tokens[c.first:c.figure + 1]), *tokens[c.figure + 1:c.stop]]) for c in cells]
    return f"{' '.join(label)} — " + "; ".join(f"{h}: {c}" for h, c in zip(headers, written, strict=True))


def _states(header: str, unit: str) -> bool:
    """Whether a column header states ``unit`` (a house word) as the units reader reads it ("(₹ crore)" crore, "2019
    $'000" thousands, "(₹ lakh crore)" lakh crore)."""
    lakh_crore = re.search(units.LAKH_CRORE_RE, header, re.IGNORECASE) is not None
    return lakh_crore if unit == units.LAKH_CRORE else not lakh_crore and units.column_unit(header) == unit
