"""The ingestion pipeline: bytes → parse → chunk → embed → commit, all or nothing per document.

Per document: the content hash (sha256) is its id. The same bytes again are a *duplicate* (nothing added); the same
display name with new bytes *replaces* the old version, which is purged everywhere after the new one commits
(:mod:`prism.ingestion.commit`, the one commit protocol). A failure in one file is reported in its
:class:`~prism.types.IngestResult` and the batch goes on.

PDFs are parsed in a child process while this process chunks and embeds the pages already read
(:mod:`prism.ingestion.ahead`); the texts to index are prepared by :mod:`prism.ingestion.prepare`.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from prism.config import Settings
from prism.errors import PrismError
from prism.index.embedder import PrismEmbedding
from prism.index.tokenizer import tokenize
from prism.index.vector_store import VectorIndex
from prism.index.workspaces import Workspace, now_iso
from prism.ingestion import parsing
from prism.ingestion.ahead import Ahead, EmbedAhead, StageTimings
from prism.ingestion.chunking import title_from_text
from prism.ingestion.commit import CommitOutcome, PreparedDocument, commit_documents
from prism.ingestion.parsing.worker import shutdown_workers
from prism.ingestion.prepare import (
    STAGE_SHARE,
    ContextualizeHook,
    chunk,
    chunk_rows,
    index_text,
    index_texts,
    read_profile,
    strip_running,
    title_for,
)
from prism.ingestion.retag import apply_corrections, corrected_record
from prism.types import DocumentRecord, IngestItem, IngestResult, ParsedDocument, ProgressCallback

__all__ = ["ContextualizeHook", "Ingestor", "StageTimings"]

logger = logging.getLogger(__name__)


def _noop(_fraction: float, _message: str) -> None:
    return None


class Ingestor:
    """Ingests documents into one workspace.

    Args:
        workspace: the workspace's files and registry.
        store: the workspace's vector store.
        embedder: the embedder the store was built with.
        settings: chunking and parsing settings.
        on_change: called after every committed change (e.g. to invalidate retriever caches).
        contextualize: optional default :data:`~prism.ingestion.prepare.ContextualizeHook` (per batch: the
            ``contextualize`` argument of :meth:`ingest`). Its texts are embedded and tokenised for BM25 (stored as
            the row's ``index_text``); the store's document text and the row's ``text`` stay the original chunk. A
            hook that raises, or returns the wrong number of texts, leaves the plain texts (with a warning on the
            result).
        before_write: called under the write lock before any store is touched (e.g. to re-sync with changes other
            processes made).
    """

    def __init__(
        self,
        workspace: Workspace,
        store: VectorIndex,
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
        self._ahead = EmbedAhead(embedder, settings, self.timings)

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
        corrections: Mapping[str, str | None] | None = None,
    ) -> IngestResult:
        """Ingest one document; failures are returned as ``status="failed"`` with an analyst-readable error.
        ``corrections``: an analyst's profile corrections to keep (and apply) on the new record (re-indexing)."""
        progress = progress or _noop
        name = item.display_name
        try:
            return self._ingest(item, name, progress, contextualize or self.contextualize, dict(corrections or {}))
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
        """Delete a document by display name from the vector store, chunk rows, original and registry.

        Raises:
            DocumentNotFoundError: no document has that name.
        """
        with self.workspace.write_lock():
            self.before_write()
            record = self.workspace.get_by_source(source)
            marker = self.workspace.mark_pending(record.doc_id, action="remove")
            self.workspace.commit(remove=record.doc_id)
            self.store.delete_document(record.doc_id)
            self.workspace.purge_files(record.doc_id)
            marker.unlink(missing_ok=True)
        self.on_change()
        logger.info("deleted document %s from workspace %s", record.doc_id[:12], self.workspace.info.id)
        return record

    def tag(self, source: str, corrections: Mapping[str, str | None], reset: bool = False) -> DocumentRecord:
        """Correct the profile of the document named ``source`` and return its updated record
        (:mod:`prism.ingestion.retag`): ``corrections`` (field → value; ``None`` clears a field) are merged into the
        analyst's earlier ones (replacing them all with ``reset``), kept apart from the extracted profile, and
        applied to the chunks' metadata (and title headers). Raises ``DocumentNotFoundError`` (no document has that
        name) or ``PrismError`` (a field is unknown or a value is outside its vocabulary)."""
        with self.workspace.write_lock():
            self.before_write()
            self.workspace.recover(self.store.delete_document)
            old = self.workspace.get_by_source(source)
            new = corrected_record(old, corrections, reset)
            apply_corrections(self.workspace, self.store, self.embedder, self.settings, old, new)
        self.on_change()
        return new

    def reindex(self, progress: ProgressCallback | None = None) -> list[IngestResult]:
        """Re-chunk and re-embed every document from its kept original (call with a fresh, empty store); the
        analyst's profile corrections are kept and applied again.

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
            results.append(self.ingest_one(IngestItem(source, record.source), None,
                                           corrections=record.profile_corrections))
        shutdown_workers()
        progress(1.0, "re-index done")
        return results

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
        group: list[tuple[int, PreparedDocument, list[str]]] = []
        seen: set[str] = set()
        pending = 0
        for i, (name, text) in enumerate(docs):
            prepared = self._prepare_text(name, text, seen)
            if isinstance(prepared, IngestResult):
                results[i] = prepared
                continue
            group.append((i, *prepared))
            pending += len(prepared[0].chunks)
            if pending >= group_chunks:
                self._commit_group(group, results)
                pending = 0
                progress((i + 1) / max(1, len(docs)), f"{i + 1}/{len(docs)} documents")
        self._commit_group(group, results)
        progress(1.0, f"done: {len(docs)} documents")
        return [r for r in results if r is not None]

    # --- one document ---------------------------------------------------------------------------------------
    def _ingest(self, item: IngestItem, name: str, progress: ProgressCallback,
                contextualize: ContextualizeHook | None, corrections: dict[str, str | None]) -> IngestResult:
        loaded = self._load(item, name, progress, contextualize is None, corrections)
        if isinstance(loaded, IngestResult):
            return loaded
        parsed, data, doc_id, ahead = loaded
        t2 = time.perf_counter()
        extracted, profile = read_profile(parsed, corrections)
        parsed, running = strip_running(parsed, self.settings)
        title = title_for(parsed.source, self.settings, profile)
        pdf = data if parsed.kind == "pdf" else None  # column headers the text lacks are read from the PDF
        chunks = chunk(parsed, doc_id, title, self.embedder, self.settings, profile.metadata(), pdf)
        t3 = time.perf_counter()
        self.timings.chunk += t3 - t2
        progress(STAGE_SHARE["parse"] + STAGE_SHARE["chunk"], f"{len(chunks)} chunks; embedding")
        texts, note = index_texts(chunks, parsed, contextualize, progress, title)
        rows = chunk_rows(chunks, texts, [tokenize(t) for t in texts])  # tokens kept: BM25 rebuilds never re-tokenise
        embeddings = self._ahead.embed(texts, ahead)
        t4 = time.perf_counter()
        self.timings.embed += t4 - t3
        self.timings.chunks += len(chunks)
        progress(0.9, "storing")
        record = self._record(parsed, doc_id, len(chunks), len(data), note)
        record.profile, record.profile_corrections = extracted.to_dict(), corrections
        record.running_lines = [line.to_dict() for line in running.removed]
        record.tables = len({c.table.table_id for c in chunks if c.table})
        outcome = self._commit([PreparedDocument(record, data, chunks, rows)], embeddings)
        self.timings.store += time.perf_counter() - t4
        if doc_id in outcome.existing:  # another session added it meanwhile
            return self._duplicate(name, outcome.existing[doc_id])
        status = "replaced" if outcome.replaced.get(doc_id) is not None else "ingested"
        progress(1.0, f"{status}: {len(chunks)} chunks")
        logger.info("%s document %s: %d pages, %d chunks", status, doc_id[:12], parsed.total_pages, len(chunks))
        return IngestResult(file=parsed.source, status=status, doc_id=doc_id, pages=record.pages, chunks=len(chunks),
                            skipped_pages=record.skipped_pages, ocr_pages=record.ocr_pages, warnings=record.warnings)

    def _load(self, item: IngestItem, name: str, progress: ProgressCallback, embed_ahead: bool,
              corrections: dict[str, str | None]) -> tuple[ParsedDocument, bytes, str, Ahead] | IngestResult:
        """Read and parse one item: ``(document, bytes, doc id, vectors embedded ahead)``, or the duplicate result
        when its bytes are already in the workspace (checked before parsing, or after fetching a URL)."""
        t0 = time.perf_counter()
        progress(0.0, "reading")
        data = self._read(item, name)
        t1 = time.perf_counter()
        self.timings.read += t1 - t0
        if data is None:
            progress(0.02, "fetching")
            parsed, data = parsing.load_url_with_bytes(str(item.source), self.settings)
            ahead = Ahead()
        doc_id = hashlib.sha256(data).hexdigest()
        existing = self.workspace.find(doc_id)
        if existing is not None:
            progress(1.0, "duplicate")
            return self._duplicate(name, existing)
        if not item.is_url:
            progress(0.02, "parsing")
            parsed, ahead = self._ahead.parse(data, name, doc_id, progress, embed_ahead,
                                              lambda doc: self._title(doc, name, corrections))
        self.timings.parse += time.perf_counter() - t1 - ahead.seconds
        self.timings.pages += max(parsed.total_pages, 1)
        progress(STAGE_SHARE["parse"], f"parsed {parsed.total_pages or 1} page(s)")
        return parsed, data, doc_id, ahead

    def _title(self, parsed: ParsedDocument, name: str, corrections: dict[str, str | None]) -> str | None:
        """The title header of a document (read before its running lines are removed) named ``name``."""
        return title_for(name, self.settings, read_profile(parsed, corrections)[1])

    def _read(self, item: IngestItem, name: str) -> bytes | None:
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

    def _record(self, parsed: ParsedDocument, doc_id: str, n_chunks: int, size: int,
                note: str | None) -> DocumentRecord:
        return DocumentRecord(
            doc_id=doc_id, source=parsed.source, kind=parsed.kind, pages=parsed.total_pages or None, chunks=n_chunks,
            skipped_pages=[{"page": s.number, "reason": s.reason} for s in parsed.skipped_pages],
            ocr_pages=parsed.ocr_pages, warnings=list(parsed.warnings) + ([note] if note else []),
            ingested_at=now_iso(), size_bytes=size, original=doc_id, embed_model=self.embedder.model_name,
        )

    def _commit(self, docs: Sequence[PreparedDocument], embeddings: np.ndarray) -> CommitOutcome:
        """Commit under the write lock after syncing and recovering (:func:`prism.ingestion.commit.commit_documents`);
        ``on_change`` runs when anything was written."""
        with self.workspace.write_lock():
            self.before_write()
            self.workspace.recover(self.store.delete_document)
            outcome = commit_documents(self.workspace, self.store, docs, embeddings)
        if outcome.replaced:
            self.on_change()
        return outcome

    def _duplicate(self, name: str, existing: DocumentRecord) -> IngestResult:
        note = [] if existing.source == name else [f"same content as '{existing.source}' already in the workspace"]
        return IngestResult(file=name, status="duplicate", doc_id=existing.doc_id, pages=existing.pages,
                            chunks=existing.chunks, skipped_pages=existing.skipped_pages,
                            ocr_pages=existing.ocr_pages, warnings=note)

    # --- many texts -----------------------------------------------------------------------------------------
    def _prepare_text(self, name: str, text: str, seen: set[str]) -> tuple[PreparedDocument, list[str]] | IngestResult:
        """One corpus text ready to commit with its index texts, or its result when it is a duplicate (in the
        workspace or earlier in the batch) or has nothing to index."""
        data = text.encode("utf-8")
        doc_id = hashlib.sha256(data).hexdigest()
        existing = self.workspace.find(doc_id)
        if existing is not None:
            return self._duplicate(name, existing)
        if doc_id in seen:
            return IngestResult(file=name, status="duplicate", doc_id=doc_id, warnings=["repeated in this batch"])
        try:
            parsed = parsing.load(data, name if name.lower().endswith(".txt") else f"{name}.txt", self.settings)
            parsed = ParsedDocument(name, "txt", parsed.pages, 0, parsed.skipped_pages, parsed.warnings)
            title = None
            if self.settings.title_headers:
                title = title_from_text(text, self.settings.title_max_chars) or title_for(name, self.settings)
            chunks = chunk(parsed, doc_id, title, self.embedder, self.settings)
        except PrismError as exc:
            return IngestResult(file=name, status="failed", error=str(exc))
        seen.add(doc_id)
        texts = [index_text(title, c) for c in chunks]
        record = DocumentRecord(doc_id=doc_id, source=parsed.source, kind=parsed.kind, pages=None, chunks=len(chunks),
                                ingested_at=now_iso(), size_bytes=len(data), original=doc_id,
                                embed_model=self.embedder.model_name)
        return PreparedDocument(record, data, chunks, chunk_rows(chunks, texts, [tokenize(t) for t in texts])), texts

    def _commit_group(self, group: list[tuple[int, PreparedDocument, list[str]]],
                      results: list[IngestResult | None]) -> None:
        """Embed a group of prepared texts together, commit them, fill their results and empty the group."""
        if not group:
            return
        embeddings = self.embedder.embed([t for *_, texts in group for t in texts])
        outcome = self._commit([p for _, p, _ in group], embeddings)
        for i, p, _ in group:
            doc_id = p.record.doc_id
            if doc_id in outcome.existing:
                results[i] = self._duplicate(p.record.source, outcome.existing[doc_id])
            else:
                status = "replaced" if outcome.replaced.get(doc_id) is not None else "ingested"
                results[i] = IngestResult(file=p.record.source, status=status, doc_id=doc_id, chunks=len(p.chunks))
        group.clear()
