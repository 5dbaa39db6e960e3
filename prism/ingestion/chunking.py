"""Split a parsed document into chunks that fit the embedder's window: its tables cut only between rows, the prose
around them into overlapping character chunks. The one chunker of every file type (:func:`chunk_document`).

The document text is the pages' texts joined with :data:`PAGE_SEPARATOR`. A prose chunk is a span ``[char_start,
char_end)`` of that text of about ``chunk_size`` characters; the next chunk starts about ``chunk_overlap``
characters before the previous one ended (at a word start). Each chunk ends at the best boundary of its window,
preferring a paragraph break (after at least 25% of ``chunk_size``), then a line break (40%), then a sentence end
(never an abbreviation's full stop such as "Rs.", :mod:`prism.index.sentences`), then a space (50%); a chunk that
ends at a paragraph break is not overlapped. Only a run of ``chunk_size`` characters with no space at all is cut
mid-word. A chunk whose word-piece count exceeds the embedder's window is split further at spaces until every piece
fits. A slide or a sheet is a unit of its own: prose chunks never cross one (PDF pages flow into each other).

Tables (:func:`prism.ingestion.tables.finders.document_tables`) become the spans of
:func:`prism.ingestion.tables.chunks.table_chunks` (whole rows; a row cut between its cells only when it does not fit
the window with the table's header), and the prose between tables is chunked as above. Every chunk, table or prose,
satisfies ``document_text[chunk.char_start:chunk.char_end] == chunk.text``, and chunks never overlap a table's span.
A table chunk carries a :class:`~prism.types.ChunkTable`: the table's id, title, the headers of the columns it holds,
unit, currency, the index header that is embedded and BM25-indexed in front of its text, and its rows with offsets
relative to the chunk's text.
"""
from __future__ import annotations

import bisect
import itertools
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from prism.index.sentences import ends_sentence
from prism.ingestion.tables.chunks import TableChunkSpan, table_chunks
from prism.ingestion.tables.finders import document_tables
from prism.ingestion.tables.pdf_words import PdfTableHeaders
from prism.types import Chunk, ChunkTable, ParsedDocument, Table, TableRow

logger = logging.getLogger(__name__)

PAGE_SEPARATOR = "\n\n"
"""Joins page texts into the document text; a page break is a paragraph break for the chunker."""

# Boundary patterns, best first, each with the least share of ``chunk_size`` a chunk must reach before it may end
# there (a paragraph break a quarter of the way in beats a sentence end at the limit).
_BOUNDARIES: tuple[tuple[re.Pattern[str], float], ...] = (
    (re.compile(r"\n\s*\n"), 0.25),  # paragraph
    (re.compile(r"\n"), 0.4),  # line
    (re.compile(r"[.!?;:।](?:[\"')\]]*)\s"), 0.5),  # sentence (incl. Devanagari danda)
    (re.compile(r"\s"), 0.5),  # word
)
_SENTENCE_KIND = 2

TokenCounter = Callable[[str], int]


def document_text(doc: ParsedDocument) -> tuple[str, list[int]]:
    """Join a document's pages into one text.

    Returns:
        ``(text, page_offsets)``: ``page_offsets[i]`` is the char offset where ``doc.pages[i]`` starts in ``text``.
    """
    offsets: list[int] = []
    parts: list[str] = []
    pos = 0
    for i, page in enumerate(doc.pages):
        if i:
            parts.append(PAGE_SEPARATOR)
            pos += len(PAGE_SEPARATOR)
        offsets.append(pos)
        parts.append(page.text)
        pos += len(page.text)
    return "".join(parts), offsets


def _best_end(text: str, start: int, size: int) -> tuple[int, int]:
    """End offset (exclusive) of a chunk starting at ``start``: the last boundary of the best kind found after the
    kind's minimum share of ``size`` and no later than ``start + size``; else ``start + size``.

    Returns:
        ``(end, kind)``: kind is the index in ``_BOUNDARIES`` (0 = paragraph), or ``len(_BOUNDARIES)`` for the end of
        the text or a hard cut.
    """
    hard_end = start + size
    if hard_end >= len(text):
        return len(text), len(_BOUNDARIES)
    for kind, (pattern, min_share) in enumerate(_BOUNDARIES):
        lo = start + max(1, int(size * min_share))
        last = None
        for m in pattern.finditer(text, lo, hard_end):
            if kind == _SENTENCE_KIND and not ends_sentence(text, m.start()):
                continue  # "Rs. 5,000": an abbreviation's full stop is no sentence end
            last = m
        if last is not None:
            return last.end(), kind
    return hard_end, len(_BOUNDARIES)


def split_spans(text: str, chunk_size: int, chunk_overlap: int) -> list[tuple[int, int]]:
    """Character spans of overlapping chunks over ``text``, whitespace trimmed, empty spans dropped.

    Args:
        text: the document text.
        chunk_size: longest span, characters (> 0).
        chunk_overlap: characters the next span reaches back, ``0 <= chunk_overlap < chunk_size``.

    Returns:
        ``[(char_start, char_end)]`` in text order; every span is non-empty, starts and ends on non-whitespace, and is
        at most ``chunk_size`` long.

    Raises:
        ValueError: sizes out of range.
    """
    if chunk_size <= 0 or not 0 <= chunk_overlap < chunk_size:
        raise ValueError(f"need 0 <= chunk_overlap ({chunk_overlap}) < chunk_size ({chunk_size})")
    spans: list[tuple[int, int]] = []
    n = len(text)
    start = 0
    while start < n:
        while start < n and text[start].isspace():
            start += 1
        if start >= n:
            break
        end, kind = _best_end(text, start, chunk_size)
        s, e = start, end
        while e > s and text[e - 1].isspace():
            e -= 1
        if e > s:
            spans.append((s, e))
        if end >= n:
            break
        if kind == 0:  # ended at a paragraph break: the next paragraph starts clean, no overlap
            start = end
            continue
        nxt = max(end - chunk_overlap, start + 1)
        # begin the overlap at a word start, but never beyond the previous end
        if nxt < end and not text[nxt - 1].isspace():
            m = re.compile(r"\s").search(text, nxt, end)
            nxt = m.end() if m else end
        start = nxt
    return spans


def fit_window(text: str, span: tuple[int, int], count_tokens: TokenCounter, max_tokens: int) -> list[tuple[int, int]]:
    """Split ``span`` at spaces (recursively, near the middle) until each piece has ``<= max_tokens`` tokens."""
    s, e = span
    if count_tokens(text[s:e]) <= max_tokens:
        return [span]
    mid = (s + e) // 2
    cut = text.rfind(" ", s + 1, mid + 1)
    if cut <= s:
        cut = text.find(" ", mid, e - 1)
    if cut <= s or cut >= e:
        cut = mid  # no space at all: cut mid-word
    left_end = cut
    while left_end > s and text[left_end - 1].isspace():
        left_end -= 1
    right_start = cut
    while right_start < e and text[right_start].isspace():
        right_start += 1
    pieces: list[tuple[int, int]] = []
    if left_end > s:
        pieces += fit_window(text, (s, left_end), count_tokens, max_tokens)
    if e > right_start:
        pieces += fit_window(text, (right_start, e), count_tokens, max_tokens)
    return pieces


def _page_of(offset: int, page_offsets: Sequence[int]) -> int:
    return bisect.bisect_right(page_offsets, offset) - 1


def build_chunks(doc: ParsedDocument, doc_id: str, text: str, page_offsets: Sequence[int],
                 pieces: Sequence[tuple[int, int, ChunkTable | None]],
                 attributes: Mapping[str, str] | None = None) -> list[Chunk]:
    """Number ``pieces`` (``(char_start, char_end, table or None)`` over ``text``, in order) as the document's chunks.

    Returns:
        Chunks with ``chunk_index`` 0..n-1, ids ``"{doc_id[:16]}-{index:05d}"``, ``text[char_start:char_end]`` as
        their text, their locator fields (paged documents only: :class:`SpanLocator`) and ``attributes`` as every
        chunk's extra metadata.
    """
    attrs = dict(attributes or {})
    locate = SpanLocator(doc, page_offsets)
    return [
        Chunk(chunk_id=f"{doc_id[:16]}-{index:05d}", doc_id=doc_id, source=doc.source, chunk_index=index,
              text=text[s:e], char_start=s, char_end=e, table=table, attributes=attrs, **locate(s, e))
        for index, (s, e, table) in enumerate(pieces)
    ]


class SpanLocator:
    """The locator fields of a span of a document's text (:class:`~prism.types.Chunk`'s ``page_start`` …
    ``page_unit``): its first and last page, their printed labels or sheet names, and the spreadsheet rows of the
    document's tables (:attr:`~prism.types.TableRow.source_row`) that the span overlaps.

    Args:
        doc: the parsed document.
        page_offsets: where each page starts in the document text (:func:`document_text`).
    """

    def __init__(self, doc: ParsedDocument, page_offsets: Sequence[int]):
        self.doc = doc
        self.page_offsets = page_offsets
        self.rows: dict[int | None, list[tuple[int, int, int]]] = {}
        for table in doc.tables:
            self.rows.setdefault(table.page, []).extend(
                (r.char_start, r.char_end, r.source_row) for r in table.rows if r.source_row is not None
            )

    def __call__(self, start: int, end: int) -> dict[str, Any]:
        """Keyword arguments for :class:`~prism.types.Chunk` of the span ``[start, end)`` (empty for an unpaged
        document without spreadsheet rows)."""
        if not self.doc.paged:
            return {}
        first = _page_of(start, self.page_offsets)
        last = _page_of(end - 1, self.page_offsets)
        pages = self.doc.pages
        fields: dict[str, Any] = {
            "page_start": pages[first].number, "page_end": pages[last].number,
            "label_start": pages[first].label, "label_end": pages[last].label,
            "page_unit": self.doc.page_unit if self.doc.page_unit != "page" else None,
        }
        if first == last and self.rows.get(pages[first].number):
            base = self.page_offsets[first]
            numbers = [n for s, e, n in self.rows[pages[first].number] if s < end - base and e > start - base]
            if numbers:
                fields.update(row_start=min(numbers), row_end=max(numbers))
        return fields


MIN_TEXT_TOKENS = 16
"""Word pieces a table chunk's own text may always use, however long its index header (a header that leaves less is
cut short instead)."""

Piece = tuple[int, int, "ChunkTable | None"]
"""A chunk before it is numbered: ``(char_start, char_end, table or None)`` in document offsets."""


def _prose(text: str, lo: int, hi: int, chunk_size: int, chunk_overlap: int, count_tokens: TokenCounter | None,
           max_tokens: int | None) -> list[Piece]:
    """Prose chunks of ``text[lo:hi]`` (:func:`split_spans`, each fitted to the window), in document offsets."""
    part = text[lo:hi]
    spans = split_spans(part, chunk_size, chunk_overlap)
    if count_tokens is not None and max_tokens is not None:
        spans = [piece for span in spans for piece in fit_window(part, span, count_tokens, max_tokens)]
    return [(lo + s, lo + e, None) for s, e in spans]


def _rows_in(table: Table, start: int, end: int) -> tuple[TableRow, ...]:
    """The table's rows overlapping page offsets ``[start, end)``, relative to ``start``: cells whose spans lie
    inside only, row bounds clipped to the span."""
    rows = []
    for row in table.rows:
        if row.char_end <= start or row.char_start >= end:
            continue
        kept = [(c, (a - start, b - start)) for c, (a, b) in zip(row.cells, row.cell_spans, strict=True)
                if a >= start and b <= end]
        rows.append(TableRow(row.label, tuple(c for c, _ in kept), tuple(s for _, s in kept),
                             max(row.char_start, start) - start, min(row.char_end, end) - start, row.source_row))
    return tuple(rows)


def _table_pieces(table: Table, page_text: str, base: int, chunk_size: int, count_tokens: TokenCounter | None,
                  max_tokens: int | None) -> list[Piece]:
    """The table's chunks (:func:`~prism.ingestion.tables.chunks.table_chunks`) in document offsets. A span still over
    the window with its header (one cell longer than the window) is cut at spaces like prose, keeping its table."""
    if count_tokens is None or max_tokens is None:
        spans = table_chunks(table, page_text, lambda _t: 0, 1, chunk_size)
    else:
        spans = table_chunks(table, page_text, count_tokens, max_tokens, chunk_size)
    pieces: list[Piece] = []
    for span in spans:
        ranges = [(span.char_start, span.char_end)]
        header = span.index_header
        if count_tokens is not None and max_tokens is not None and count_tokens(span.index_text) > max_tokens:
            room = max_tokens - count_tokens(header) + 1
            if room < MIN_TEXT_TOKENS:
                header, room = _shorten(header, count_tokens, max_tokens - MIN_TEXT_TOKENS), MIN_TEXT_TOKENS
            ranges = fit_window(page_text, ranges[0], count_tokens, room)
        for s, e in ranges:
            info = _chunk_table(table, span, header, s, e)
            pieces.append((base + s, base + e, info))
    return pieces


def _shorten(header: str, count_tokens: TokenCounter, budget: int) -> str:
    """``header`` cut at its last ``" | "`` separators until it has at most ``budget`` word pieces (its first part
    alone, cut at spaces, when even that is too long)."""
    parts = header.split(" | ")
    while len(parts) > 1 and count_tokens(" | ".join(parts)) > budget:
        parts.pop()
    text = " | ".join(parts)
    while text and count_tokens(text) > budget:
        text = text.rsplit(" ", 1)[0] if " " in text else ""
    return text


def _chunk_table(table: Table, span: TableChunkSpan, header: str, start: int, end: int) -> ChunkTable:
    return ChunkTable(table.table_id, header, table.title, span.column_headers, table.unit, table.currency,
                      span.row_label, _rows_in(table, start, end), table.decimal, table.ambiguous_numbers)


def chunk_document(
    doc: ParsedDocument,
    doc_id: str,
    *,
    chunk_size: int,
    chunk_overlap: int,
    count_tokens: TokenCounter | None = None,
    max_tokens: int | None = None,
    attributes: Mapping[str, str] | None = None,
    find: bool = True,
    pdf: PdfTableHeaders | None = None,
) -> list[Chunk]:
    """Chunk a parsed document: its tables at row boundaries, the prose around them as the module docstring says.

    Args:
        doc: parsed, normalised document, running lines already removed (table offsets index its page texts).
        doc_id: the document's id (sha256 hex of its bytes).
        chunk_size: target chunk length, characters (table spans hold whole rows up to this length).
        chunk_overlap: overlap between neighbouring prose chunks, characters (table chunks do not overlap).
        count_tokens: word pieces of a text including special tokens (the embedder's counter); with ``max_tokens``
            every chunk's index text (table header included) fits the window.
        max_tokens: the window left for a chunk's index text (the embedder's, less a title header's share).
        attributes: flat metadata every chunk carries (the document profile's, :meth:`DocumentProfile.metadata`).
        find: look for tables in the page texts (off: only a loader's tables are chunked as tables).
        pdf: the PDF's words, for column headers the text lacks and tables of words (:func:`page_tables`).

    Returns:
        Chunks in document order with ``chunk_index`` 0..n-1 and ids ``"{doc_id[:16]}-{index:05d}"`` (unique even
        for repeated identical paragraphs; stable across re-ingest with the same settings). Paged documents get
        ``page_start``/``page_end`` (a chunk crossing a PDF page break spans both; slides and sheets are chunked
        one by one, so their chunks never cross one) with their labels and unit, and rows where the document's
        tables number them (:class:`SpanLocator`); unpaged ones get no page. Table chunks have ``table`` set.
    """
    text, offsets = document_text(doc)
    # a slide or a sheet is a unit of its own: prose chunks never cross one (PDF pages do flow into each other)
    breaks = list(offsets[1:]) if doc.page_unit in ("slide", "sheet") else []

    def prose(lo: int, hi: int) -> list[Piece]:
        cuts = [lo] + [b for b in breaks if lo < b < hi] + [hi]
        return [p for a, b in itertools.pairwise(cuts)
                for p in _prose(text, a, b, chunk_size, chunk_overlap, count_tokens, max_tokens)]

    pieces: list[Piece] = []
    pos = 0
    for i, table in document_tables(doc, find, pdf):
        start = offsets[i] + table.char_start
        if start < pos or not table.rows:
            continue
        pieces += prose(pos, start)
        pieces += _table_pieces(table, doc.pages[i].text, offsets[i], chunk_size, count_tokens, max_tokens)
        pos = offsets[i] + table.char_end
    pieces += prose(pos, len(text))
    chunks = build_chunks(doc, doc_id, text, offsets, pieces, attributes)
    n_tables = sum(1 for _, _, info in pieces if info is not None)
    logger.debug("%s: %d chunks, %d of them table chunks", doc.source, len(chunks), n_tables)
    return chunks
