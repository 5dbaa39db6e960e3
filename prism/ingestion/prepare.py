"""From a parsed document to what is indexed: its profile (read before running lines are removed), running lines
removed, the title header, chunks fitted to the embedder's window (tables at row boundaries), the texts to embed and
tokenise (a contextual-retrieval hook may supply them), and the chunk rows the workspace keeps."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from prism.config import Settings
from prism.errors import NoExtractableTextError, PrismError
from prism.index.embedder import PrismEmbedding
from prism.index.injection import find_injections
from prism.index.sections import assign_sections, section_tokens
from prism.index.tokenizer import TOKENIZER_VERSION
from prism.index.workspaces import now_iso
from prism.ingestion.chunking import chunk_document, document_text
from prism.ingestion.parsing.running import RunningLines, strip_running_lines
from prism.ingestion.profiles.read import extract_profile
from prism.ingestion.tables.pdf_words import PdfTableHeaders
from prism.ingestion.titles import display_title, title_from_name, with_title
from prism.types import (
    Chunk,
    DocumentProfile,
    DocumentRecord,
    IngestItem,
    ParsedDocument,
    ProgressCallback,
    count_phrase,
    page_label,
)

logger = logging.getLogger(__name__)

ContextualizeHook = Callable[[list[Chunk], str], "list[str] | None"]
"""``contextualize(chunks, document_text) -> index_texts | None``: one text per chunk to embed and BM25-index instead
of the chunk's own text (e.g. :class:`prism.answering.contextual.Contextualizer`); ``None`` means "index the plain
text"."""

STAGE_SHARE = {"parse": 0.25, "chunk": 0.05, "embed": 0.6, "store": 0.1}
"""Share of one document's progress given to each stage (for the progress callback only)."""


def read_profile(parsed: ParsedDocument, corrections: Mapping[str, str | None] | None = None,
                 ) -> tuple[DocumentProfile, DocumentProfile]:
    """The document's profile as extracted from its pages (call before running lines are removed:
    :func:`prism.ingestion.profiles.read.extract_profile`) and with the analyst's ``corrections`` applied.

    Returns:
        ``(extracted, effective)``.

    Raises:
        PrismError: a correction names an unknown field or a value outside its vocabulary.
    """
    extracted = extract_profile([(p.number, p.text) for p in parsed.pages], file_name=parsed.source)
    return extracted, extracted.corrected(**corrections) if corrections else extracted


def profile_title(profile: DocumentProfile | None) -> str | None:
    """The title a profile gives: entity, document type, period and reference (``"Netflix, Inc. 10-K FY2015"``,
    ``"Reserve Bank of India, Department of Regulation RBI master direction 2025-04-01 RBI/2025-26/13"``), or
    ``None`` without an entity or a reference (a type and period alone name no document)."""
    if profile is None or not (profile.entity or profile.reference):
        return None
    line = profile.line(" ")
    if profile.reference and profile.reference not in line:
        line = f"{line} {profile.reference}".strip()
    return line or None


def document_title(record: DocumentRecord) -> str:
    """The name a document is shown by everywhere (pages, CLI, exports): its profile's title, falling back to the
    file name (:func:`prism.ingestion.titles.display_title`; a title that is only a hash or number is no title)."""
    profile = record.effective_profile()
    return display_title(record.source, profile.title if profile else None, profile_title(profile))


def title_for(name: str, settings: Settings, profile: DocumentProfile | None = None) -> str | None:
    """The title header of a document named ``name`` with ``profile``, by ``settings.title_source``: the file
    name's (:func:`~prism.ingestion.chunking.title_from_name`), the profile's (:func:`profile_title`), both joined
    with ``" | "``, or (``"auto"``) the file name's when it is informative, else the profile's; ``None`` when
    headers are off, neither is informative, or the title is over ``settings.title_max_chars``."""
    if not settings.title_headers:
        return None
    source = settings.title_source
    if source == "auto":  # an informative file name, else the profile
        source = "file_name" if title_from_name(name) else "profile"
    parts = []
    if source in ("profile", "both"):
        parts.append(profile_title(profile))
    if source in ("file_name", "both"):
        parts.append(title_from_name(name))
    title = " | ".join(p for p in parts if p)
    return title if title and len(title) <= settings.title_max_chars else None


def strip_running(parsed: ParsedDocument, settings: Settings) -> tuple[ParsedDocument, RunningLines]:
    """``parsed`` without its running headers and footers (:mod:`prism.ingestion.parsing.running`), when
    ``settings.running_lines_strip`` is on, and what was removed."""
    if not settings.running_lines_strip:
        return parsed, RunningLines()
    return strip_running_lines(
        parsed,
        zone=settings.running_lines_zone,
        min_share=settings.running_lines_min_share,
        min_pages=settings.running_lines_min_pages,
        max_chars=settings.running_lines_max_chars,
    )


def compose_index_text(title: str | None, table_header: str | None, text: str) -> str:
    """``title + "\n\n" + table_header + "\n" + text``, the parts that are given; a part the text already starts
    with is not repeated (:func:`~prism.ingestion.chunking.with_title` for the title)."""
    body = f"{table_header}\n{text}" if table_header and not text.startswith(table_header) else text
    return with_title(title, body)


def index_text(title: str | None, chunk: Chunk) -> str:
    """What is embedded and BM25-indexed for a chunk: the document title header, then a table chunk's index header
    (``"CONSOLIDATED STATEMENTS OF OPERATIONS | 2015 | 2014 | 2013 | in thousands"``), then its text
    (:func:`compose_index_text`). The stored text is the chunk's own."""
    return compose_index_text(title, chunk.table.index_header if chunk.table else None, chunk.text)


def chunk(parsed: ParsedDocument, doc_id: str, title: str | None, embedder: PrismEmbedding, settings: Settings,
          attributes: Mapping[str, str] | None = None, pdf: bytes | None = None) -> list[Chunk]:
    """Chunk ``parsed`` (:func:`~prism.ingestion.chunking.chunk_document`: tables at row boundaries when
    ``settings.tables_enabled``, with column headers read from the ``pdf`` bytes where the text gives none:
    :class:`~prism.ingestion.tables.pdf_words.PdfTableHeaders`); with a ``title``, chunks leave room for it in the
    embedder's window. Every chunk carries ``attributes`` (the profile's flat metadata) and, in a filing, its
    ``section`` and the ``exhibit_entity`` of another entity's exhibit (:func:`prism.index.sections.assign_sections`).

    Raises:
        NoExtractableTextError: no chunk came out.
    """
    reserved = embedder.count_tokens(with_title(title, "x")) - embedder.count_tokens("x") if title else 0
    if not settings.tables_enabled and parsed.tables:
        parsed = ParsedDocument(parsed.source, parsed.kind, parsed.pages, parsed.total_pages, parsed.skipped_pages,
                                parsed.warnings)
    headers = PdfTableHeaders(pdf) if pdf is not None else None
    try:
        chunks = chunk_document(
            parsed,
            doc_id,
            chunk_size=settings.chunk_size,
            chunk_overlap=settings.chunk_overlap,
            count_tokens=embedder.count_tokens,
            max_tokens=embedder.max_tokens - reserved,
            attributes=attributes,
            find=settings.tables_enabled,
            pdf=headers,
        )
    finally:
        if headers is not None:
            headers.close()
    if not chunks:
        raise NoExtractableTextError(f"{parsed.source} has no indexable text.")
    text, page_offsets = document_text(parsed)
    tags = assign_sections(text, page_offsets, [(c.char_start, c.char_end) for c in chunks],
                           (attributes or {}).get("entity"))
    return [replace(c, attributes={**c.attributes, **tag.metadata()}) if tag.metadata() else c
            for c, tag in zip(chunks, tags, strict=True)]


def index_texts(
    chunks: list[Chunk],
    parsed: ParsedDocument,
    contextualize: ContextualizeHook | None,
    progress: ProgressCallback,
    title: str | None = None,
) -> tuple[list[str], str | None]:
    """The texts to embed and tokenise (:func:`index_text`: the chunks' own under the document ``title`` and a table
    chunk's header, unless a hook supplies others) and a note for the analyst when the hook degraded (some or all
    chunks kept their plain text)."""
    plain = [index_text(title, c) for c in chunks]
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
    tokenizer change re-tokenises), the chunk's flat metadata (pages, offsets, profile and table keys), a table
    chunk's ``table`` (:meth:`~prism.types.ChunkTable.to_dict`: rows with cell offsets into the chunk's text), and
    the indexed text when it differs from the chunk's own (title or table header, or contextual text). The tokens
    of a chunk in a filing's section end with its section token (:func:`prism.index.sections.section_tokens`)."""
    return [{"chunk_id": c.chunk_id, "text": c.text, "tokens": toks + section_tokens(c.attributes),
             "tokenizer": TOKENIZER_VERSION, **c.metadata(),
             **({"table": c.table.to_dict()} if c.table else {}),
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


def injection_flags(parsed: ParsedDocument) -> tuple[list[dict[str, object]], str | None]:
    """The sentences of ``parsed`` addressed to an AI assistant (prompt injection, OWASP LLM01:2025:
    :func:`prism.index.injection.find_injections`), ``[{"page", "text"}]`` in page order, and the warning that names
    them for the analyst (``None`` when there is none)."""
    found: list[dict[str, object]] = [{"page": p.number, "text": s} for p in parsed.pages
                                      for s in find_injections(p.text)]
    if not found:
        return [], None
    first = found[0]
    where = page_label(first["page"], page_unit=parsed.page_unit)  # type: ignore[arg-type]  # an int, typed object
    quote = str(first["text"])
    quote = quote if len(quote) <= 120 else quote[:119].rstrip() + "…"
    return found, (f"{parsed.source}: {count_phrase(len(found), 'sentence')} addressed to an AI assistant "
                   f"(possible prompt injection{', ' + where if where else ''}: “{quote}”). Prism treats it as "
                   "document text only: it is never a briefing point and never followed as an instruction.")


def document_record(parsed: ParsedDocument, doc_id: str, n_chunks: int, size: int, note: str | None,
                    embed_model: str) -> DocumentRecord:
    """The registry record of a parsed document about to be committed (added now, by ``embed_model``), with the
    sentences addressed to an AI assistant it contains (:func:`injection_flags`) and their warning."""
    injections, flag = injection_flags(parsed)
    return DocumentRecord(
        doc_id=doc_id, source=parsed.source, kind=parsed.kind, pages=parsed.total_pages or None, chunks=n_chunks,
        skipped_pages=[{"page": s.number, "reason": s.reason} for s in parsed.skipped_pages],
        ocr_pages=parsed.ocr_pages, warnings=list(parsed.warnings) + [w for w in (flag, note) if w],
        ingested_at=now_iso(), size_bytes=size, original=doc_id, embed_model=embed_model, injections=injections,
    )
