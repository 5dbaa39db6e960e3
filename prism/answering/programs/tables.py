"""The rest of a retrieved table: a statement is cut into chunks at row boundaries, and the row a program needs may
sit in a chunk that was not retrieved. :func:`table_parts` gives a retrieved table chunk's own part and the other
chunks of its table on the same page; :func:`sibling_chunk` makes such a chunk citable beside the retrieved one
(its ``read_beside`` is that chunk's rank). The chunk rows come in through ``rows_of`` (the workspace's
``read_chunks``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from prism.types import ChunkTable, RetrievedChunk

__all__ = ["RowsOf", "sibling_chunk", "table_parts"]

RowsOf = Callable[[str], Sequence[Mapping[str, Any]]]
"""``rows_of(doc_id)`` → the document's stored chunk rows (``chunk_id``, ``table`` …)."""

_ROW_ONLY = frozenset({"chunk_id", "doc_id", "source", "text", "tokens", "tokenizer", "index_text", "chunk_index",
                       "page_start", "page_end", "table"})


def _rows_by_id(doc_id: str, rows_of: RowsOf, cache: dict[str, dict[str, Mapping[str, Any]]]
                ) -> dict[str, Mapping[str, Any]]:
    """The document's stored chunk rows by ``chunk_id``, in chunk order (read once per document)."""
    if doc_id not in cache:
        rows = sorted(rows_of(doc_id), key=lambda r: r.get("chunk_index") or 0)
        cache[doc_id] = {str(r.get("chunk_id")): r for r in rows}
    return cache[doc_id]


def _table(row: Mapping[str, Any] | None) -> ChunkTable | None:
    """The chunk row's table, its cells read with the number convention stored at ingestion ("1.234,5" in a
    decimal-comma table is 1,234.5: :meth:`~prism.types.ChunkTable.with_decimal_point`)."""
    data = row.get("table") if row else None
    return ChunkTable.from_dict(data).with_decimal_point() if isinstance(data, dict) else None


def sibling_chunk(chunk: RetrievedChunk, row: Mapping[str, Any]) -> RetrievedChunk:
    """Another chunk of ``chunk``'s document (``row``: its stored row) as a retrieved chunk with no scores (it was
    not retrieved), citable beside ``chunk``: its ``read_beside`` is ``chunk``'s rank."""
    meta = {k: v for k, v in row.items() if k not in _ROW_ONLY and isinstance(v, str | int | float | bool)}
    return RetrievedChunk(str(row["chunk_id"]), chunk.doc_id, chunk.source, str(row["text"]),
                          int(row.get("chunk_index") or 0), row.get("page_start"), row.get("page_end"),
                          metadata=meta, read_beside=chunk.read_beside or chunk.rank or None)


def table_parts(chunk: RetrievedChunk, rows_of: RowsOf, cache: dict[str, dict[str, Mapping[str, Any]]]
                ) -> list[tuple[ChunkTable, RetrievedChunk | None]]:
    """The retrieved chunk's table part first (``None``: the chunk itself), then its table's other chunks on the
    same page, each with the chunk that holds it; ``cache`` keeps each document's rows between calls; ``[]`` for a
    chunk that is no table's."""
    table_id = chunk.metadata.get("table_id")
    if not table_id:
        return []
    rows = _rows_by_id(chunk.doc_id, rows_of, cache)
    own = _table(rows.get(chunk.chunk_id))
    out: list[tuple[ChunkTable, RetrievedChunk | None]] = [(own, None)] if own is not None else []
    for chunk_id, row in rows.items():
        other = _table(row) if chunk_id != chunk.chunk_id and row.get("table_id") == table_id else None
        if other is not None and row.get("page_start") == chunk.page_start:
            out.append((other, sibling_chunk(chunk, row)))
    return out
