"""From a parsed document to what is indexed: running lines removed, the title header, chunks fitted to the
embedder's window, the texts to embed and tokenise (a contextual-retrieval hook may supply them), and the chunk
rows the workspace keeps."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

from prism.config import Settings
from prism.errors import NoExtractableTextError, PrismError
from prism.index.embedder import PrismEmbedding
from prism.index.tokenizer import TOKENIZER_VERSION
from prism.index.workspaces import now_iso
from prism.ingestion.chunking import chunk_document, document_text, title_from_name, with_title
from prism.ingestion.parsing.running import strip_running_lines
from prism.types import Chunk, DocumentRecord, IngestItem, ParsedDocument, ProgressCallback

logger = logging.getLogger(__name__)

ContextualizeHook = Callable[[list[Chunk], str], "list[str] | None"]
"""``contextualize(chunks, document_text) -> index_texts | None``: one text per chunk to embed and BM25-index instead
of the chunk's own text (e.g. :class:`prism.answering.contextual.Contextualizer`); ``None`` means "index the plain
text"."""

STAGE_SHARE = {"parse": 0.25, "chunk": 0.05, "embed": 0.6, "store": 0.1}
"""Share of one document's progress given to each stage (for the progress callback only)."""


def title_for(name: str, settings: Settings) -> str | None:
    """The title header for a document named ``name`` (:func:`~prism.ingestion.chunking.title_from_name`), or
    ``None`` when headers are off, the name is uninformative, or the title is over ``settings.title_max_chars``."""
    if not settings.title_headers:
        return None
    title = title_from_name(name)
    return title if title and len(title) <= settings.title_max_chars else None


def strip_running(parsed: ParsedDocument, settings: Settings) -> ParsedDocument:
    """``parsed`` without its running headers and footers (:mod:`prism.ingestion.parsing.running`), when
    ``settings.running_lines_strip`` is on."""
    if not settings.running_lines_strip:
        return parsed
    stripped, _ = strip_running_lines(
        parsed,
        zone=settings.running_lines_zone,
        min_share=settings.running_lines_min_share,
        min_pages=settings.running_lines_min_pages,
        max_chars=settings.running_lines_max_chars,
    )
    return stripped


def chunk(parsed: ParsedDocument, doc_id: str, title: str | None, embedder: PrismEmbedding,
          settings: Settings) -> list[Chunk]:
    """Chunk ``parsed`` (:func:`~prism.ingestion.chunking.chunk_document`); with a ``title``, chunks leave room for
    it in the embedder's window.

    Raises:
        NoExtractableTextError: no chunk came out.
    """
    reserved = embedder.count_tokens(with_title(title, "x")) - embedder.count_tokens("x") if title else 0
    chunks = chunk_document(
        parsed,
        doc_id,
        chunk_size=settings.chunk_size,
        chunk_overlap=settings.chunk_overlap,
        count_tokens=embedder.count_tokens,
        max_tokens=embedder.max_tokens - reserved,
    )
    if not chunks:
        raise NoExtractableTextError(f"{parsed.source} has no indexable text.")
    return chunks


def index_texts(
    chunks: list[Chunk],
    parsed: ParsedDocument,
    contextualize: ContextualizeHook | None,
    progress: ProgressCallback,
    title: str | None = None,
) -> tuple[list[str], str | None]:
    """The texts to embed and tokenise (the chunks' own, under the document ``title`` when there is one, unless a
    hook supplies others) and a note for the analyst when the hook degraded (some or all chunks kept their plain
    text)."""
    plain = [with_title(title, c.text) for c in chunks]
    if contextualize is None:
        return plain, None
    progress(STAGE_SHARE["parse"] + STAGE_SHARE["chunk"], f"contextualising {len(chunks)} chunks")
    try:
        texts = contextualize(chunks, document_text(parsed)[0])
    except PrismError as exc:
        logger.warning("contextual retrieval failed for %s: %s", parsed.source, type(exc).__name__)
        return plain, f"Contextual retrieval was skipped ({exc}); chunks are indexed with their plain text."
    if texts is None:
        return plain, None
    if len(texts) != len(chunks):
        logger.warning("contextualize hook returned %d texts for %d chunks", len(texts), len(chunks))
        return plain, "Contextual retrieval was skipped (wrong number of contexts); plain text is indexed."
    merged = [t if isinstance(t, str) and t.strip() else p for t, p in zip(texts, plain, strict=True)]
    done = sum(t != p for t, p in zip(merged, plain, strict=True))
    logger.info("contextual retrieval for %s: %d of %d chunks", parsed.source, done, len(chunks))
    if done == len(chunks):
        return merged, None
    return merged, (f"Contextual retrieval: {done} of {len(chunks)} chunks got a situating context; "
                    f"{len(chunks) - done} are indexed with their plain text.")


def chunk_rows(chunks: Sequence[Chunk], texts: Sequence[str], tokens: Sequence[list[str]]) -> list[dict]:
    """The workspace's chunk rows: id, stored text, BM25 tokens (with the tokenizer version that made them, so a
    tokenizer change re-tokenises), page/offset metadata, and the indexed text when it differs from the chunk's own
    (title header or contextual text)."""
    return [{"chunk_id": c.chunk_id, "text": c.text, "tokens": toks, "tokenizer": TOKENIZER_VERSION, **c.metadata(),
             **({"index_text": it} if it != c.text else {})}
            for c, it, toks in zip(chunks, texts, tokens, strict=True)]


def read_item(item: IngestItem, name: str) -> bytes | None:
    """The item's bytes, or ``None`` for a URL (fetched by the parser).

    Raises:
        PrismError: the file cannot be read.
    """
    if isinstance(item.source, bytes):
        return item.source
    if item.is_url:
        return None
    try:
        return Path(item.source).read_bytes()
    except OSError as exc:
        raise PrismError(f"{name} could not be read: {exc.strerror or exc}") from exc


def document_record(parsed: ParsedDocument, doc_id: str, n_chunks: int, size: int, note: str | None,
                    embed_model: str) -> DocumentRecord:
    """The registry record of a parsed document about to be committed (added now, by ``embed_model``)."""
    return DocumentRecord(
        doc_id=doc_id, source=parsed.source, kind=parsed.kind, pages=parsed.total_pages or None, chunks=n_chunks,
        skipped_pages=[{"page": s.number, "reason": s.reason} for s in parsed.skipped_pages],
        ocr_pages=parsed.ocr_pages, warnings=list(parsed.warnings) + ([note] if note else []),
        ingested_at=now_iso(), size_bytes=size, original=doc_id, embed_model=embed_model,
    )
