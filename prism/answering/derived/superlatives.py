"""Questions answered by the row of a table that ranks first: "Which country had the highest total external revenue
in 2019?", "Which contractual obligation has the highest total value?", "Which department has the second highest
amount of goodwill?".

An analyst wants the row's name first, then the figure that makes it so. :func:`superlative_lines` reads the first
retrieved table (its own rows and those of its other chunks on the page), picks the column the question names (a
year it names, else the header sharing most words with the question, else the first column of numbers), ranks the
rows by that column — total and subtotal rows left out — and writes one line: ``"United States: Years ended
December 31, 2019 $: 1,155,463 (highest of 4 rows; Revenue by country)"``. Pure functions; the chunk rows come in
through ``rows_of`` (the workspace's ``read_chunks``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from typing import Any

from prism.answering.derived.cells import RowsOf, table_parts
from prism.answering.derived.years import cell_value
from prism.answering.units import printed_label
from prism.index.tokenizer import tokenize
from prism.retrieval.understanding import Understanding
from prism.types import ChunkTable, RetrievedChunk, TableRow

logger = logging.getLogger(__name__)

__all__ = ["superlative_lines"]

_SUPERLATIVE = re.compile(
    r"^\s*(?:which|what)\s+(?!years?\b)[\w\s,'’-]{1,60}?\s+(?:has|had|have|is|was|were|are)\s+(?:the\s+)?"
    r"(?:(?P<second>second|2nd)\s+)?(?P<word>highest|largest|greatest|biggest|most|lowest|smallest|least)\b",
    re.IGNORECASE)
_HIGH = frozenset({"highest", "largest", "greatest", "biggest", "most"})
_TOTAL = re.compile(r"^\s*(?:total|sub-?total|net)\b|\btotal\s*$", re.IGNORECASE)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")


def _column(table: ChunkTable, question: str, q_tokens: set[str]) -> int | None:
    """The column the question asks about: one whose header holds a year the question names (most question words
    among them), else the header with most question words, else the first; ``None`` for a table without headers."""
    headers = table.column_headers
    if not headers:
        return None
    years = set(_YEAR.findall(question))
    dated = [j for j, h in enumerate(headers) if years & set(_YEAR.findall(h))] if years else []
    pool = dated or list(range(len(headers)))
    return max(pool, key=lambda j: (len(q_tokens & set(tokenize(headers[j]))), -j))


def _rows(chunk: RetrievedChunk, rows_of: RowsOf
          ) -> tuple[ChunkTable, list[tuple[TableRow, RetrievedChunk | None]]] | None:
    """The retrieved chunk's table (its own part) and every row of it on the page, in order, without repeats, each
    with the other chunk that holds it (``None``: the retrieved chunk itself)."""
    cache: dict[str, dict[str, Mapping[str, Any]]] = {}
    parts = table_parts(chunk, rows_of, cache)
    if not parts or parts[0][1] is not None:
        return None
    seen: set[tuple[str, tuple[str, ...]]] = set()
    rows = []
    for table, holder in parts:
        if table.column_headers != parts[0][0].column_headers:
            continue
        for row in table.rows:
            key = (row.label, tuple(row.cells))
            if row.cells and key not in seen:
                seen.add(key)
                rows.append((row, holder))
    return parts[0][0], rows


def superlative_lines(question: str | Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None
                      ) -> tuple[list[tuple[str, int]], list[RetrievedChunk]]:
    """The answer line of a "which X has the highest / second highest / lowest Y" question and the chunk to add.

    Returns ``([(line, n)], extra)``: block ``n`` is cited, the retrieved table chunk, or, when the row sits in
    another chunk of its table, that chunk, appended as block ``len(chunks) + 1`` (``extra == [it]``);
    ``([], [])`` when the question asks no superlative or no table ranks two rows.

    The first retrieved chunk that is part of a table (block ``n``, cited) gives the table; rows labelled as totals
    ("Total", "Subtotal", "Net …", "… total") and rows without a number in the column are left out; at least two
    rows must be ranked. Ties keep table order.
    """
    understood = Understanding.of(question)
    asked = _SUPERLATIVE.match(understood.text)
    if rows_of is None or asked is None:
        return [], []
    q_tokens = set(tokenize(understood.text))
    for n, chunk in enumerate(chunks, start=1):
        found = _rows(chunk, rows_of) if chunk.metadata.get("table_id") else None
        if found is None:
            continue
        table, rows = found
        j = _column(table, understood.text, q_tokens)
        if j is None:
            return [], []
        ranked = [(v, row, holder) for row, holder in rows if row.label.strip() and not _TOTAL.search(row.label)
                  and j < len(row.cells) and (v := cell_value(row.cells[j])) is not None]
        rank = 1 if asked.group("second") else 0
        if len(ranked) < rank + 2:
            return [], []
        high = asked.group("word").lower() in _HIGH
        ranked.sort(key=lambda vr: vr[0], reverse=high)  # stable: ties keep table order
        _, row, holder = ranked[rank]
        word = f"{'second ' if rank else ''}{asked.group('word').lower()}"
        about = f"; {table.title}" if table.title else ""
        logger.info("superlative answer: row %r of block %d", row.label, n)
        line = (f"{printed_label(row.label)}: {table.column_headers[j]}: {row.cells[j].strip()} "
                f"({word} of {len(ranked)} rows{about})")
        return ([(line, n)], []) if holder is None else ([(line, len(chunks) + 1)], [holder])
    return [], []
