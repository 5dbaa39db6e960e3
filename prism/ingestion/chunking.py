"""Split a parsed document into overlapping character chunks that fit the embedder's window.

The document text is the pages' texts joined with :data:`PAGE_SEPARATOR`. A chunk is a span ``[char_start,
char_end)`` of that text of about ``chunk_size`` characters; the next chunk starts about ``chunk_overlap``
characters before the previous one ended (at a word start). Each chunk ends at the best boundary of its window,
preferring a paragraph break (after at least 25% of ``chunk_size``), then a line break (40%), then a sentence end
(never an abbreviation's full stop such as "Rs.", :mod:`prism.index.sentences`), then a space (50%); a chunk that
ends at a paragraph break is not overlapped. Only a run of ``chunk_size`` characters with no space at all is cut
mid-word. A chunk whose word-piece count exceeds the embedder's window is split further at spaces until every piece
fits.
"""

from __future__ import annotations

import bisect
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from prism.index.sentences import ends_sentence
from prism.types import Chunk, ChunkTable, ParsedDocument

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


def chunk_document(
    doc: ParsedDocument,
    doc_id: str,
    *,
    chunk_size: int,
    chunk_overlap: int,
    count_tokens: TokenCounter | None = None,
    max_tokens: int | None = None,
) -> list[Chunk]:
    """Chunk a parsed document.

    Args:
        doc: parsed, normalised document.
        doc_id: the document's id (sha256 hex of its bytes).
        chunk_size: target chunk length, characters.
        chunk_overlap: overlap between neighbours, characters.
        count_tokens: word pieces of a text *including* special tokens, e.g.
            :meth:`prism.index.embedder.PrismEmbedding.count_tokens`; when given with ``max_tokens``, longer chunks are
            split further.
        max_tokens: the embedder's window (e.g. 256 for all-MiniLM-L6-v2).

    Returns:
        Chunks in document order with ``chunk_index`` 0..n-1 and ids ``"{doc_id[:16]}-{index:05d}"`` (unique even for
        repeated identical paragraphs; stable across re-ingest with the same settings). Paged documents get
        ``page_start``/``page_end`` (a chunk crossing a PDF page break spans both; slides and sheets are chunked
        one by one, so their chunks never cross one) with their labels and unit, and rows
        where the document's tables number them (:class:`SpanLocator`); unpaged ones get no page.
    """
    text, page_offsets = document_text(doc)
    if doc.page_unit in ("slide", "sheet"):  # a slide or a sheet is a unit of its own: chunks never cross one
        spans = [(s + off, e + off) for page, off in zip(doc.pages, page_offsets, strict=True)
                 for s, e in split_spans(page.text, chunk_size, chunk_overlap)]
    else:
        spans = split_spans(text, chunk_size, chunk_overlap)
    if count_tokens is not None and max_tokens is not None:
        fitted: list[tuple[int, int]] = []
        for span in spans:
            fitted += fit_window(text, span, count_tokens, max_tokens)
        if len(fitted) != len(spans):
            logger.info("split %d over-long chunks to fit %d word pieces", len(fitted) - len(spans), max_tokens)
        spans = fitted
    return build_chunks(doc, doc_id, text, page_offsets, [(s, e, None) for s, e in spans])


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


# --- title headers ----------------------------------------------------------------------------------------------
_NAME_SPLIT = re.compile(r"[\s_.\-]+")
_GENERIC_NAMES = frozenset({"document", "documents", "doc", "docs", "file", "upload", "untitled", "download", "scan",
                            "new", "copy", "img", "image"})


def title_from_name(name: str) -> str | None:
    """A document title from its file name, or ``None`` when the name says nothing a reader would search for.

    ``"3M_2022_10K.pdf"`` → ``"3M 2022 10K"``; ``"upi-refund-policy.txt"`` → ``"upi refund policy"``. Opaque names
    give ``None``: URLs, hashes and reference codes (any part of 12+ characters with a digit, e.g.
    ``"05MC010420252ED8A7….pdf"``), names with fewer than two letters (``"12345.txt"``, ``"Q3.csv"``), and
    generic names, numbered or not (``"document.pdf"``, ``"doc01.pdf"``, ``"scan_0003.pdf"``).
    """
    if "://" in name:
        return None
    stem = name.rsplit(".", 1)[0] if "." in name else name
    words = [w for w in _NAME_SPLIT.split(stem) if w]
    if not words or any(len(w) >= 12 and any(ch.isdigit() for ch in w) for w in words):
        return None
    letters = " ".join(re.sub(r"[^a-z]+", " ", " ".join(words).lower()).split())
    if sum(ch.isalpha() for w in words for ch in w) < 2 or letters in _GENERIC_NAMES:
        return None
    return " ".join(words)


def title_from_text(text: str, max_chars: int) -> str | None:
    """The first paragraph of ``text`` when it is a heading: at most ``max_chars`` characters and not the whole
    text (BEIR corpora are stored as ``title + "\\n\\n" + text``). ``None`` otherwise."""
    head, sep, rest = text.strip().partition("\n\n")
    head = " ".join(head.split())
    if not sep or not rest.strip() or not head or len(head) > max_chars:
        return None
    return head


def with_title(title: str | None, chunk_text: str) -> str:
    """The text to embed and index for a chunk: ``title + "\\n\\n" + chunk_text``, unless there is no title or the
    chunk already starts with it. A chunk's own words rarely name its document ("Net sales rose 5%" does not say
    3M or 2022); a header with the title does, for both the dense and the BM25 side (a title-only variant of
    contextual chunk headers; cf. Anthropic, "Introducing Contextual Retrieval", 2024, which writes the context
    with an LLM: :mod:`prism.answering.contextual`)."""
    if not title or chunk_text.startswith(title):
        return chunk_text
    return f"{title}\n\n{chunk_text}"
