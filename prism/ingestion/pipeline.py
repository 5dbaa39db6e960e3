"""The ingestion pipeline: bytes → parse → chunk → embed → Chroma + chunk rows + registry, all or nothing per document.

Per document: the content hash (sha256) is its id. The same bytes again are a *duplicate* (nothing added); the same
display name with new bytes *replaces* the old version, which is purged everywhere after the new one commits. A
failure in one file is reported in its :class:`~prism.types.IngestResult` and the batch goes on.

PDFs are parsed in a child process (:class:`~prism.ingestion.parsing.worker.ParseJob`) while this process chunks and
embeds the
pages already read ("embedding ahead", on one core fewer, leaving one to the parser). The stored chunks always come
from the complete parse; a vector made ahead is used only for a final chunk with exactly the same text.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from prism.config import Settings
from prism.errors import DocumentNotFoundError, NoExtractableTextError, PrismError
from prism.index.embedder import PrismEmbedding
from prism.index.tokenizer import TOKENIZER_VERSION, tokenize
from prism.index.vector_store import VectorStore
from prism.index.workspaces import Workspace, now_iso
from prism.ingestion import parsing
from prism.ingestion.chunking import chunk_document, document_text, title_from_name, title_from_text, with_title
from prism.ingestion.parsing.pdf import looks_like_pdf
from prism.ingestion.parsing.running import strip_running_lines
from prism.ingestion.parsing.worker import ParseJob, shutdown_workers
from prism.types import Chunk, DocumentRecord, IngestItem, IngestResult, Page, ParsedDocument, ProgressCallback

logger = logging.getLogger(__name__)

ContextualizeHook = Callable[[list[Chunk], str], "list[str] | None"]
"""``contextualize(chunks, document_text) -> index_texts | None``: one text per chunk to embed and BM25-index instead
of the chunk's own text (e.g. :class:`prism.answering.contextual.Contextualizer`); ``None`` means "index the plain
text"."""

# Share of one document's progress given to each stage (for the progress callback only).
_STAGE_SHARE = {"parse": 0.25, "chunk": 0.05, "embed": 0.6, "store": 0.1}


@dataclass
class StageTimings:
    """Seconds spent per stage over a batch (for benchmarks).

    ``parse`` is the time spent waiting for the parser (not overlapped with anything); ``embed_ahead`` is the part
    of ``embed`` done while the parser was still running; ``chunk`` includes re-chunking the partial document for
    embedding ahead; ``chunks_ahead`` counts vectors made ahead that the final chunks used.
    """

    read: float = 0.0
    parse: float = 0.0
    chunk: float = 0.0
    embed: float = 0.0
    embed_ahead: float = 0.0
    store: float = 0.0
    pages: int = 0
    chunks: int = 0
    chunks_ahead: int = 0
    extra: dict[str, float] = field(default_factory=dict)


@dataclass
class _Ahead:
    """Vectors embedded while a document was still parsing: chunk text → vector, and the seconds it took."""

    vectors: dict[str, np.ndarray] = field(default_factory=dict)
    seconds: float = 0.0


def _noop(_fraction: float, _message: str) -> None:
    return None


def _chunk_rows(chunks: Sequence[Chunk], index_texts: Sequence[str], tokens: Sequence[list[str]]) -> list[dict]:
    """The workspace's chunk rows: id, stored text, BM25 tokens (with the tokenizer version that made them, so a
    tokenizer change re-tokenises), page/offset metadata, and the indexed text when it differs from the chunk's own
    (title header or contextual text)."""
    return [{"chunk_id": c.chunk_id, "text": c.text, "tokens": toks, "tokenizer": TOKENIZER_VERSION, **c.metadata(),
             **({"index_text": it} if it != c.text else {})}
            for c, it, toks in zip(chunks, index_texts, tokens, strict=True)]


class Ingestor:
    """Ingests documents into one workspace.

    Args:
        workspace: the workspace's files and registry.
        store: the workspace's vector store.
        embedder: the embedder the store was built with.
        settings: chunking and parsing settings.
        on_change: called after every committed change (e.g. to invalidate retriever caches).
        before_write: called under the write lock before any store is touched (e.g. to re-sync with changes other
            processes made).
        contextualize: optional default :data:`ContextualizeHook` (per batch: the ``contextualize`` argument of
            :meth:`ingest`). Its texts are embedded and tokenised for BM25 (stored as the row's ``index_text``);
            Chroma's document text and the row's ``text`` stay the original chunk. A hook that raises, or returns
            the wrong number of texts, leaves the plain texts (with a warning on the result).
    """

    def __init__(
        self,
        workspace: Workspace,
        store: VectorStore,
        embedder: PrismEmbedding,
        settings: Settings,
        on_change: Callable[[], None] | None = None,
        contextualize: ContextualizeHook | None = None,
        before_write: Callable[[], None] | None = None,
    ):
        self.workspace = workspace
        self.store = store
        self.embedder = embedder
        self.settings = settings
        self.on_change = on_change or (lambda: None)
        self.before_write = before_write or (lambda: None)
        self.contextualize = contextualize
        self.timings = StageTimings()

    def recover(self) -> int:
        """Undo or finish interrupted writes (see :meth:`prism.index.workspaces.Workspace.recover`)."""
        with self.workspace.write_lock():
            n = self.workspace.recover(self.store.delete_document)
        if n:
            self.on_change()
        return n

    # --- public ---------------------------------------------------------------------------------------------
    def ingest(
        self,
        items: Sequence[IngestItem],
        progress: ProgressCallback | None = None,
        contextualize: ContextualizeHook | None = None,
    ) -> list[IngestResult]:
        """Ingest a batch; one result per item, in order. Never raises for a bad file. ``contextualize`` overrides
        the ingestor's default hook for this batch."""
        progress = progress or _noop
        results: list[IngestResult] = []
        n = max(1, len(items))
        try:
            for i, item in enumerate(items):

                def sub(fraction: float, message: str, _i: int = i, _name: str = item.display_name) -> None:
                    progress((_i + min(max(fraction, 0.0), 1.0)) / n, f"{_name}: {message}")

                results.append(self.ingest_one(item, sub, contextualize))
        finally:
            shutdown_workers()  # an idle parser keeps the memory of its largest PDF; batches start a fresh one
        progress(1.0, f"done: {len(items)} file(s)")
        return results

    def ingest_one(
        self,
        item: IngestItem,
        progress: ProgressCallback | None = None,
        contextualize: ContextualizeHook | None = None,
    ) -> IngestResult:
        """Ingest one document; failures are returned as ``status="failed"`` with an analyst-readable error."""
        progress = progress or _noop
        name = item.display_name
        try:
            return self._ingest(item, name, progress, contextualize or self.contextualize)
        except PrismError as exc:
            logger.warning("ingest failed for %s: %s", name, type(exc).__name__)
            progress(1.0, f"failed: {exc}")
            return IngestResult(file=name, status="failed", error=str(exc))
        except Exception as exc:  # a parser bug must not take the batch down; the analyst still gets a message
            logger.exception("unexpected error ingesting %s", name)
            progress(1.0, "failed")
            return IngestResult(
                file=name, status="failed", error=f"{name} could not be ingested ({type(exc).__name__}: {exc})."
            )

    def delete(self, source: str) -> DocumentRecord:
        """Delete a document by display name from Chroma, chunk rows, original and registry.

        Raises:
            DocumentNotFoundError: no document has that name.
        """
        with self.workspace.write_lock():
            self.before_write()
            record = self.workspace.find_by_source(source)
            if record is None:
                raise DocumentNotFoundError(
                    f"There is no document named '{source}' in workspace '{self.workspace.name}'."
                )
            marker = self.workspace.mark_pending(record.doc_id, action="remove")
            self.workspace.commit(remove=record.doc_id)
            self.store.delete_document(record.doc_id)
            self.workspace.purge_files(record.doc_id)
            marker.unlink(missing_ok=True)
        self.on_change()
        logger.info("deleted document %s from workspace %s", record.doc_id[:12], self.workspace.info.id)
        return record

    # --- pipeline -------------------------------------------------------------------------------------------
    def _read(self, item: IngestItem, name: str) -> bytes | None:
        """The item's bytes, or ``None`` for a URL (fetched by the parser)."""
        if isinstance(item.source, bytes):
            return item.source
        if item.is_url:
            return None
        try:
            return Path(item.source).read_bytes()
        except OSError as exc:
            raise PrismError(f"{name} could not be read: {exc.strerror or exc}") from exc

    def _ingest(
        self, item: IngestItem, name: str, progress: ProgressCallback, contextualize: ContextualizeHook | None = None
    ) -> IngestResult:
        t0 = time.perf_counter()
        progress(0.0, "reading")
        data = self._read(item, name)
        t1 = time.perf_counter()
        self.timings.read += t1 - t0
        if data is not None:
            doc_id = hashlib.sha256(data).hexdigest()
            existing = self.workspace.find(doc_id)
            if existing is not None:
                progress(1.0, "duplicate")
                return self._duplicate(name, existing)
            progress(0.02, "parsing")
            parsed, ahead = self._parse(data, name, doc_id, progress, embed_ahead=contextualize is None,
                                        title=self._title(name))
        else:
            ahead = _Ahead()
            progress(0.02, "fetching")
            parsed, data = parsing.load_url_with_bytes(str(item.source), self.settings)
            doc_id = hashlib.sha256(data).hexdigest()
            existing = self.workspace.find(doc_id)
            if existing is not None:
                progress(1.0, "duplicate")
                return self._duplicate(name, existing)
        t2 = time.perf_counter()
        self.timings.parse += t2 - t1 - ahead.seconds
        self.timings.pages += max(parsed.total_pages, 1)
        progress(_STAGE_SHARE["parse"], f"parsed {parsed.total_pages or 1} page(s)")

        parsed = self._strip_running(parsed)
        title = self._title(parsed.source)
        chunks = self._chunk(parsed, doc_id, title)
        t3 = time.perf_counter()
        self.timings.chunk += t3 - t2
        progress(_STAGE_SHARE["parse"] + _STAGE_SHARE["chunk"], f"{len(chunks)} chunks; embedding")

        index_texts, index_note = self._index_texts(chunks, parsed, contextualize, progress, title)
        chunk_tokens = [tokenize(t) for t in index_texts]  # kept with the chunk rows: BM25 rebuilds never re-tokenise
        embeddings = self._embed(index_texts, ahead)
        t4 = time.perf_counter()
        self.timings.embed += t4 - t3
        self.timings.chunks += len(chunks)
        progress(0.9, "storing")

        with self.workspace.write_lock():
            self.before_write()
            self.workspace.recover(self.store.delete_document)
            existing = self.workspace.find(doc_id)  # another session may have added it meanwhile
            if existing is not None:
                return self._duplicate(name, existing)
            old = self.workspace.find_by_source(parsed.source)
            marker = self.workspace.mark_pending(doc_id, replaces=[old.doc_id] if old else [])
            original = self.workspace.original_path(doc_id)
            original.write_bytes(data)
            self.store.add(chunks, embeddings)
            self.workspace.write_chunks(doc_id, _chunk_rows(chunks, index_texts, chunk_tokens))
            record = DocumentRecord(
                doc_id=doc_id,
                source=parsed.source,
                kind=parsed.kind,
                pages=parsed.total_pages or None,
                chunks=len(chunks),
                skipped_pages=[{"page": s.number, "reason": s.reason} for s in parsed.skipped_pages],
                ocr_pages=parsed.ocr_pages,
                warnings=list(parsed.warnings) + ([index_note] if index_note else []),
                ingested_at=now_iso(),
                size_bytes=len(data),
                original=original.name,
                embed_model=self.embedder.model_name,
            )
            self.workspace.commit(add=record, remove=old.doc_id if old else None)
            if old is not None:
                self.store.delete_document(old.doc_id)
                self.workspace.purge_files(old.doc_id)
            marker.unlink(missing_ok=True)
        self.timings.store += time.perf_counter() - t4
        self.on_change()
        status = "replaced" if old is not None else "ingested"
        progress(1.0, f"{status}: {len(chunks)} chunks")
        logger.info("%s document %s: %d pages, %d chunks", status, doc_id[:12], parsed.total_pages, len(chunks))
        return IngestResult(
            file=parsed.source,
            status=status,
            doc_id=doc_id,
            pages=record.pages,
            chunks=len(chunks),
            skipped_pages=record.skipped_pages,
            ocr_pages=record.ocr_pages,
            warnings=record.warnings,
        )

    def ingest_texts(
        self,
        docs: Sequence[tuple[str, str]],
        progress: ProgressCallback | None = None,
        group_chunks: int = 2048,
    ) -> list[IngestResult]:
        """Bulk-ingest many already-extracted texts (e.g. a BEIR corpus) as unpaged documents.

        Same semantics as :meth:`ingest` per document (content-hash ids, duplicates, replace by name, all or nothing),
        but chunks of many documents are embedded together and committed in groups of about ``group_chunks`` chunks
        with one registry write and one write-ahead marker per group.

        Args:
            docs: ``(display name, text)`` pairs.
            progress: ``callback(fraction, message)``.
            group_chunks: chunks per embedding/commit group.

        Returns:
            One result per input pair, in order.
        """
        progress = progress or _noop
        results: list[IngestResult | None] = [None] * len(docs)
        group: list[tuple[int, ParsedDocument, bytes, str, list[Chunk], list[str]]] = []
        seen: set[str] = set()

        def flush() -> None:
            if not group:
                return
            chunks = [c for *_, cs, _ in group for c in cs]
            embeddings = self.embedder.embed([t for *_, texts in group for t in texts])
            with self.workspace.write_lock():
                self.before_write()
                self.workspace.recover(self.store.delete_document)
                by_source = {d.source: d for d in self.workspace.documents()}
                olds = {i: by_source.get(parsed.source) for i, parsed, *_ in group}
                replaced = [o.doc_id for o in olds.values() if o is not None]
                marker = self.workspace.mark_pending([doc_id for _, _, _, doc_id, _, _ in group], replaces=replaced)
                self.store.add(chunks, embeddings)
                records = []
                for i, parsed, data, doc_id, cs, texts in group:
                    self.workspace.original_path(doc_id).write_bytes(data)
                    self.workspace.write_chunks(doc_id, _chunk_rows(cs, texts, [tokenize(t) for t in texts]))
                    records.append(DocumentRecord(
                        doc_id=doc_id, source=parsed.source, kind=parsed.kind, pages=None, chunks=len(cs),
                        ingested_at=now_iso(), size_bytes=len(data), original=doc_id,
                        embed_model=self.embedder.model_name,
                    ))
                    status = "replaced" if olds[i] is not None else "ingested"
                    results[i] = IngestResult(file=parsed.source, status=status, doc_id=doc_id, chunks=len(cs))
                self.workspace.commit(add=records, remove=replaced)
                for doc_id in replaced:
                    self.store.delete_document(doc_id)
                    self.workspace.purge_files(doc_id)
                marker.unlink(missing_ok=True)
            self.on_change()
            group.clear()

        pending_chunks = 0
        for i, (name, text) in enumerate(docs):
            data = text.encode("utf-8")
            doc_id = hashlib.sha256(data).hexdigest()
            existing = self.workspace.find(doc_id)
            if existing is not None or doc_id in seen:
                results[i] = self._duplicate(name, existing) if existing else IngestResult(
                    file=name, status="duplicate", doc_id=doc_id, warnings=["repeated in this batch"])
                continue
            try:
                parsed = parsing.load(data, name if name.lower().endswith(".txt") else f"{name}.txt", self.settings)
                parsed = ParsedDocument(name, "txt", parsed.pages, 0, parsed.skipped_pages, parsed.warnings)
                title = None
                if self.settings.title_headers:
                    title = title_from_text(text, self.settings.title_max_chars) or self._title(name)
                chunks = self._chunk(parsed, doc_id, title)
            except PrismError as exc:
                results[i] = IngestResult(file=name, status="failed", error=str(exc))
                continue
            seen.add(doc_id)
            group.append((i, parsed, data, doc_id, chunks, [with_title(title, c.text) for c in chunks]))
            pending_chunks += len(chunks)
            if pending_chunks >= group_chunks:
                flush()
                pending_chunks = 0
                progress((i + 1) / max(1, len(docs)), f"{i + 1}/{len(docs)} documents")
        flush()
        progress(1.0, f"done: {len(docs)} documents")
        return [r for r in results if r is not None]

    def _index_texts(
        self,
        chunks: list[Chunk],
        parsed: ParsedDocument,
        contextualize: ContextualizeHook | None,
        progress: ProgressCallback,
        title: str | None = None,
    ) -> tuple[list[str], str | None]:
        """The texts to embed and tokenise (the chunks' own, under the document ``title`` when there is one, unless
        a hook supplies others) and a note for the analyst when the hook degraded (some or all chunks kept their
        plain text)."""
        plain = [with_title(title, c.text) for c in chunks]
        if contextualize is None:
            return plain, None
        progress(_STAGE_SHARE["parse"] + _STAGE_SHARE["chunk"], f"contextualising {len(chunks)} chunks")
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

    def _parse(
        self, data: bytes, name: str, doc_id: str, progress: ProgressCallback, embed_ahead: bool,
        title: str | None = None,
    ) -> tuple[ParsedDocument, _Ahead]:
        """Parse ``data``; PDFs in a child process while the pages read so far are chunked and embedded.

        Returns:
            ``(document, ahead)``: the vectors embedded while parsing (none when nothing was embedded ahead).

        Raises:
            PrismError: from the parser.
        """
        if not (self.settings.parse_in_subprocess and looks_like_pdf(data)):
            return parsing.load(data, name, self.settings), _Ahead()
        try:
            job = ParseJob(data, name, self.settings)
        except OSError as exc:  # no fork possible (process or memory limits): parse here
            logger.warning("parsing %s in-process: cannot start a parser process (%s)", name, exc)
            return parsing.load(data, name, self.settings), _Ahead()
        ahead = _Ahead()
        try:
            if embed_ahead:
                self._embed_ahead(job, doc_id, ahead, progress, title)
            return job.result(), ahead
        finally:
            job.cancel()

    def _embed_ahead(
        self, job: ParseJob, doc_id: str, ahead: _Ahead, progress: ProgressCallback, title: str | None
    ) -> None:
        """While ``job`` runs, chunk the pages read so far and embed the chunks that can no longer change.

        The partial document is re-chunked after ``max(stream_rechunk_pages, pages / 4)`` new pages (so re-chunking
        costs a few passes over the document, not one per page); its last two chunks are left out because more text
        may extend them. Embedding runs on one core fewer than configured and stops as soon as the parser is done
        (the rest is embedded at full speed with the final chunks).
        """
        pages: list[Page] = []
        chunked_at = 0
        threads = max(1, self.embedder.threads - 1)
        step = self.settings.stream_rechunk_pages
        for page in job.pages():
            pages.append(page)
            if job.finished:
                return
            if len(pages) - chunked_at < max(step, chunked_at // 4):
                continue
            chunked_at = len(pages)
            t0 = time.perf_counter()
            partial = ParsedDocument(source=job.name, kind="pdf", pages=tuple(pages), total_pages=page.number or 0)
            partial = self._strip_running(partial)
            try:
                chunks = self._chunk(partial, doc_id, title)
            except NoExtractableTextError:
                continue
            self.timings.chunk += time.perf_counter() - t0
            texts = (with_title(title, c.text) for c in chunks[:-2])
            todo = list(dict.fromkeys(t for t in texts if t not in ahead.vectors))
            slice_size = self.settings.stream_embed_slice
            for i in range(0, len(todo), slice_size):
                if job.finished:
                    return
                part = todo[i : i + slice_size]
                t1 = time.perf_counter()
                ahead.vectors.update(zip(part, self.embedder.embed(part, threads=threads), strict=True))
                spent = time.perf_counter() - t1
                ahead.seconds += spent
                self.timings.embed_ahead += spent
                self.timings.embed += spent
            progress(0.02, f"parsing; page {page.number} read, {len(ahead.vectors)} chunks embedded ahead")

    def _embed(self, texts: list[str], ahead: _Ahead) -> np.ndarray:
        """Vectors for ``texts`` (shape ``(len(texts), dimension)``), reusing those embedded ahead."""
        if not ahead.vectors:
            return self.embedder.embed(texts)
        self.timings.chunks_ahead += sum(t in ahead.vectors for t in texts)
        missing = list(dict.fromkeys(t for t in texts if t not in ahead.vectors))
        vectors = dict(ahead.vectors)
        if missing:
            vectors.update(zip(missing, self.embedder.embed(missing), strict=True))
        return np.stack([vectors[t] for t in texts]).astype(np.float32, copy=False)

    def _title(self, name: str) -> str | None:
        """The title header for a document named ``name`` (see :func:`~prism.ingestion.chunking.title_from_name`)."""
        if not self.settings.title_headers:
            return None
        title = title_from_name(name)
        return title if title and len(title) <= self.settings.title_max_chars else None

    def _strip_running(self, parsed: ParsedDocument) -> ParsedDocument:
        """``parsed`` without its running headers and footers (see :mod:`prism.ingestion.parsing.running`), when
        enabled."""
        if not self.settings.running_lines_strip:
            return parsed
        stripped, _ = strip_running_lines(
            parsed,
            zone=self.settings.running_lines_zone,
            min_share=self.settings.running_lines_min_share,
            min_pages=self.settings.running_lines_min_pages,
            max_chars=self.settings.running_lines_max_chars,
        )
        return stripped

    def _chunk(self, parsed: ParsedDocument, doc_id: str, title: str | None = None) -> list[Chunk]:
        """Chunk ``parsed``; with a ``title``, chunks leave room for it in the embedder's window."""
        reserved = self.embedder.count_tokens(with_title(title, "x")) - self.embedder.count_tokens("x") if title else 0
        chunks = chunk_document(
            parsed,
            doc_id,
            chunk_size=self.settings.chunk_size,
            chunk_overlap=self.settings.chunk_overlap,
            count_tokens=self.embedder.count_tokens,
            max_tokens=self.embedder.max_tokens - reserved,
        )
        if not chunks:
            raise NoExtractableTextError(f"{parsed.source} has no indexable text.")
        return chunks

    def _duplicate(self, name: str, existing: DocumentRecord) -> IngestResult:
        note = [] if existing.source == name else [f"same content as '{existing.source}' already in the workspace"]
        return IngestResult(
            file=name,
            status="duplicate",
            doc_id=existing.doc_id,
            pages=existing.pages,
            chunks=existing.chunks,
            skipped_pages=existing.skipped_pages,
            ocr_pages=existing.ocr_pages,
            warnings=note,
        )

    def reindex(self, progress: ProgressCallback | None = None) -> list[IngestResult]:
        """Re-chunk and re-embed every document from its kept original (call with a fresh, empty store).

        Returns:
            One result per document; ``status`` is ``ingested`` or ``failed``.
        """
        progress = progress or _noop
        docs = self.workspace.documents()
        results = []
        for i, record in enumerate(docs):
            progress(i / max(1, len(docs)), f"re-indexing {record.source}")
            path = self.workspace.original_path(record.doc_id)
            with self.workspace.write_lock():
                self.workspace.commit(remove=record.doc_id)
            source: bytes | str = path.read_bytes() if path.exists() else b""
            if record.kind == "url" and not path.exists():
                source = record.source
            results.append(self.ingest_one(IngestItem(source, record.source), None))
        shutdown_workers()
        progress(1.0, "re-index done")
        return results
