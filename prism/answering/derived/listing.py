"""The items a table lists: "What are the components of deferred tax assets?", "How many categories are there
under total stock-based compensation expense?", "What financial items are listed in the table?".

The answer is a set of row labels, not a figure: the rows under a section heading ("Deferred tax assets:" and the
rows below it up to the next heading or total), the rows a total adds up (those above "Total deferred tax
assets", back to the previous heading or total), or, when the question names no item, every labelled row of the
table but its totals. :func:`listing_lines` reads them from the retrieved table chunks (the whole table: every
chunk it was cut into) and states them in one line, counted for a "how many" question, citing the chunk that holds
them.

The item is matched to a row label by the share of their index tokens in common (Jaccard, at least one half:
:func:`prism.index.tokenizer.tokenize`, so "deferred tax asset" names "Deferred tax assets:").
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from prism.answering.derived.cells import RowsOf, sibling_chunk
from prism.answering.units import printed_label
from prism.index.tokenizer import tokenize
from prism.retrieval.understanding import Understanding
from prism.types import ChunkTable, RetrievedChunk, TableRow

_ITEMS = (r"(?:(?:financial|major|main|key|line)\s+)?(?:items?|components?|elements?|categories|category|types?|"
          r"constituents?|sub-?items?|parts?)")
_OF = r"(?:of|under|in|within|making\s+up|that\s+make\s+up|included\s+in|comprising)"
_ASKS = [
    re.compile(rf"^\s*what\s+{_ITEMS}\s+(?:does|do|did)\s+(?P<x>.+?)\s+(?:consist\s+of|comprise|include)\b",
               re.IGNORECASE),
    re.compile(rf"^\s*(?:what|which)\s+(?:are|were)\s+the\s+{_ITEMS}\s+{_OF}\s+(?P<x>.+)$", re.IGNORECASE),
    re.compile(rf"^\s*what\s+(?:were\s+)?(?:are\s+)?the\s+{_ITEMS}\s+{_OF}\s+(?P<x>.+)$", re.IGNORECASE),
    re.compile(rf"^\s*what\s+{_ITEMS}\s+of\s+(?P<x>.+?)\s+(?:are|were)\s+there\b", re.IGNORECASE),
    re.compile(rf"^\s*(?:what|which)\s+(?:are\s+the\s+)?{_ITEMS}\s+(?:are\s+|were\s+)?(?:listed|shown|presented|"
               rf"included|given)\s+in\s+the\s+table\b", re.IGNORECASE),
    re.compile(rf"^\s*how\s+many\s+{_ITEMS}\s+(?:are\s+there\s+|were\s+there\s+)?{_OF}\s+(?P<x>.+)$",
               re.IGNORECASE),
    re.compile(rf"^\s*how\s+many\s+{_ITEMS}\s+of\s+(?P<x>.+?)\s+(?:are|were)\s+there\b", re.IGNORECASE),
    re.compile(rf"^\s*how\s+many\s+{_ITEMS}\s+(?:are\s+|were\s+)?(?:listed|shown|presented|included|given)\s+in\s+"
               rf"the\s+table\b", re.IGNORECASE),
]
_TABLE_WORDS = re.compile(r"\s*(?:(?:which\s+are\s+)?(?:listed\s+|shown\s+)?in\s+the\s+table|respectively)\s*$",
                          re.IGNORECASE)
_TOTAL = re.compile(r"^\s*(?:total|subtotal|sub-total)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Listing:
    """A list question read: ``item`` the rows are asked of (``""``: the whole table); ``count`` for "how many"."""

    item: str
    count: bool


def read_listing(question: str | Understanding) -> Listing | None:
    """The item whose rows the question asks to list or count, or ``None`` when it asks for no list. A question
    naming a figure (a year, an amount: "How many components exceeded $50,000 in 2019?") is not a list question."""
    text = Understanding.of(question).text.strip().rstrip("?").strip()
    if re.search(r"\d", text) or re.search(r"\b(?:exceed|above|below|more|less|greater|higher|lower)\b", text, re.I):
        return None
    for pattern in _ASKS:
        m = pattern.match(text)
        if m is not None:
            item = _TABLE_WORDS.sub("", m.groupdict().get("x") or "").strip(" ,")
            item = re.sub(r"\s+(?:are|were)\s+there$", "", item, flags=re.IGNORECASE)
            item = re.sub(r"^(?:the|a|an)\s+", "", item, flags=re.IGNORECASE)
            return Listing(item, text.lower().startswith("how many"))
    return None


def _whole_table(chunk: RetrievedChunk, rows_of: RowsOf) -> list[tuple[TableRow, Mapping[str, Any]]]:
    """Every row of ``chunk``'s table, in reading order, each with the stored chunk row holding it."""
    table_id = chunk.metadata.get("table_id")
    out: list[tuple[TableRow, Mapping[str, Any]]] = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for stored in sorted(rows_of(chunk.doc_id), key=lambda r: r.get("chunk_index") or 0):
        data = stored.get("table") if stored.get("table_id") == table_id else None
        if not isinstance(data, dict):
            continue
        for row in ChunkTable.from_dict(data).rows:
            if (row.label, row.cells) not in seen:
                seen.add((row.label, row.cells))
                out.append((row, stored))
    return out


def _similarity(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _heading(row: TableRow) -> bool:
    """A row that heads a section: a label without a value in any column ("Deferred tax assets:")."""
    return not any(cell.strip() for cell in row.cells)


def _label(row: TableRow) -> str:
    """The row label as listed: printed (:func:`~prism.answering.units.printed_label`) without a footnote mark
    glued to its last word or bracketed after it ("Incentive schemes1", "Capital leases (1)" → without)."""
    label = printed_label(row.label)
    return re.sub(r"(?<=[A-Za-z]{3})\d$|\s*\(\d{1,2}\)$", "", label).strip()


def _closes(row: TableRow, section: set[str]) -> bool:
    """Whether ``row`` ends a list: a heading, an unlabelled row, a "Total …" row, or a row naming the section it
    sums ("Gross deferred tax assets" under "Deferred tax assets")."""
    tokens = set(tokenize(row.label))
    return _heading(row) or not _label(row) or _TOTAL.match(row.label) is not None or bool(
        section and section <= tokens)


def _items(rows: list[tuple[TableRow, Mapping[str, Any]]], item: str) -> list[tuple[TableRow, Mapping[str, Any]]]:
    """The rows listed under ``item`` (see the module docstring); ``[]`` when no label names it."""
    if not item:
        return [r for r in rows if not _heading(r[0]) and _label(r[0]) and not _TOTAL.match(r[0].label)]
    wanted = set(tokenize(item))
    scored = [(_similarity(wanted, set(tokenize(row.label))), -i) for i, (row, _) in enumerate(rows)]
    best, at = max(scored, default=(0.0, 0))
    at = -at
    if best < 0.5:
        return []
    head = rows[at][0]
    found: list[tuple[TableRow, Mapping[str, Any]]] = []
    if _heading(head):  # a section heading: the rows below it, up to the next heading or total
        section = set(tokenize(head.label))
        for row, stored in rows[at + 1:]:
            if _closes(row, section):
                break
            found.append((row, stored))
        return found
    for row, stored in reversed(rows[:at]):  # a total: the rows above it, back to the previous heading or total
        if _closes(row, set()):
            break
        found.insert(0, (row, stored))
    return found


def listing_lines(question: str | Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None
                  ) -> tuple[list[tuple[str, int]], list[RetrievedChunk]]:
    """The rows a list question asks for, as one extractive answer line.

    Args:
        question: the (standalone) question.
        chunks: the retrieved chunks, best first (chunk ``i`` is block ``i + 1``).
        rows_of: the workspace's ``read_chunks(doc_id)``.

    Returns:
        ``([(line, n)], extra)``: "4 items under deferred tax assets: Net operating losses; Accruals; …" (the
        count first for "how many", else "Under deferred tax assets, the table lists: …"), citing the chunk
        holding the first listed row (``extra`` holds it when it was not retrieved); ``([], [])`` for another
        question or when no retrieved table lists the item.
    """
    asked = read_listing(question)
    if asked is None or rows_of is None:
        return [], []
    for n, chunk in enumerate(chunks, start=1):
        if not chunk.metadata.get("table_id"):
            continue
        found = _items(_whole_table(chunk, rows_of), asked.item)
        if len(found) < 1:
            continue
        labels = [_label(row) for row, _ in found]
        if asked.count:
            text = f"{len(labels)} items under {asked.item or 'the table'}: "
        else:
            text = f"Under {asked.item}, the table lists: " if asked.item else "The table lists: "
        text += "; ".join(labels)
        holder = found[0][1]
        if str(holder.get("chunk_id")) == chunk.chunk_id:
            return [(text, n)], []
        ids = [c.chunk_id for c in chunks]
        if str(holder.get("chunk_id")) in ids:
            return [(text, ids.index(str(holder.get("chunk_id"))) + 1)], []
        return [(text, len(chunks) + 1)], [sibling_chunk(chunk, holder)]
    return [], []
