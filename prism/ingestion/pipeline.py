"""The ingestion pipeline: bytes → parse → chunk → embed → commit, all or nothing per document.

Per document: the content hash (sha256) is its id. The same bytes again are a *duplicate* (nothing added); the same
display name with new bytes in a later batch *replaces* the old version, which is purged everywhere after the new one
commits (:mod:`prism.ingestion.commit`, the one commit protocol). Within one batch, files that share a display name
(``a/annual_report.txt`` and ``b/annual_report.txt``) are all kept: the later ones are named ``annual_report
(2).txt``, … (:func:`prism.fsutil.distinct_names`). A failure in one file is reported in its
:class:`~prism.types.IngestResult` and the batch goes on.

A batch stops early, keeping what it committed, when its :class:`~prism.types.CancelToken` is cancelled or its
workspace is deleted: both are checked between documents and between stages (after parsing, after chunking, between
embedding slices and under the write lock before anything is written), so nothing of the document in progress is
written (results ``cancelled``, or ``failed`` naming the deleted workspace).

PDFs are parsed in a child process while this process chunks and embeds the pages already read
(:mod:`prism.ingestion.ahead`); the texts to index are prepared by :mod:`prism.ingestion.prepare`.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from prism.config import Settings
from prism.errors import IngestCancelledError, PrismError, WorkspaceDeletedError
from prism.fsutil import distinct_names
from prism.index.embedder import PrismEmbedding
from prism.index.tokenizer import tokenize
from prism.index.vector_store import VectorIndex
from prism.index.workspaces import Workspace
from prism.ingestion import parsing
from prism.ingestion.ahead import Ahead, EmbedAhead, StageTimings
from prism.ingestion.bulk import BulkTexts
from prism.ingestion.commit import CommitOutcome, PreparedDocument, commit_documents, duplicate_result
from prism.ingestion.parsing.worker import shutdown_workers
from prism.ingestion.prefetch import NextParse
from prism.ingestion.prepare import (
    STAGE_SHARE,
    ContextualizeHook,
    chunk,
    chunk_rows,
    document_record,
    index_texts,
    read_item,
    read_profile,
    strip_running,
    title_for,
)
from prism.ingestion.rebuild import restore_document
from prism.ingestion.retag import apply_corrections, corrected_record
from prism.types import (
    CancelToken,
    DocumentRecord,
    IngestItem,
    IngestResult,
    IngestStatus,
    ParsedDocument,
    ProgressCallback,
)

__all__ = ["ContextualizeHook", "Ingestor", "StageTimings"]

logger = logging.getLogger(__name__)


def _noop(_fraction: float, _message: str) -> None:
    return None


class Ingestor(BulkTexts):
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
        self._carry: NextParse | None = None  # a parse started for the file the next call brings (``following``)

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
        cancel: CancelToken | None = None,
        following: IngestItem | None = None,
    ) -> list[IngestResult]:
        """Ingest a batch; one result per item, in order. Never raises for a bad file. ``contextualize`` overrides
        the ingestor's default hook for this batch; ``cancel`` stops the batch (see the module docstring). Items
        that share a display name get distinct ones (``name (2).ext``; a warning on their results says so).
        ``following``: the file the next call will bring (the Upload page's next queued file): its parse starts once
        the last item is parsed, and the next call takes it (:mod:`prism.ingestion.prefetch`)."""
        progress = progress or _noop
        results: list[IngestResult] = []
        n = max(1, len(items))
        names = distinct_names([item.display_name for item in items])
        renamed_items = [item if name == item.display_name else IngestItem(item.source, name)
                         for item, name in zip(items, names, strict=True)]
        next_parse, self._carry = self._carry or NextParse(self.workspace, self.settings), None
        try:
            for i, (item, name) in enumerate(zip(renamed_items, names, strict=True)):
                renamed = name != items[i].display_name

                def sub(fraction: float, message: str, _i: int = i, _name: str = name) -> None:
                    progress((_i + min(max(fraction, 0.0), 1.0)) / n, f"{_name}: {message}")

                after = renamed_items[i + 1] if i + 1 < len(items) else following
                result = self.ingest_one(item, sub, contextualize, cancel, next_parse=(next_parse, after))
                if renamed:
                    result.warnings.insert(0, f"Another file in this batch is also named '{items[i].display_name}'; "
                                              f"this one is kept as '{name}'.")
                results.append(result)
        finally:
            if following is not None and next_parse.pending and not (cancel and cancel.cancelled):
                self._carry = next_parse  # the next call takes it; its parser keeps running
            else:
                next_parse.cancel()
                shutdown_workers()  # an idle parser keeps the memory of its largest PDF; batches start a fresh one
        progress(1.0, f"done: {len(items)} file(s)")
        return results

    def ingest_one(
        self,
        item: IngestItem,
        progress: ProgressCallback | None = None,
        contextualize: ContextualizeHook | None = None,
        cancel: CancelToken | None = None,
        corrections: Mapping[str, str | None] | None = None,
        next_parse: tuple[NextParse, IngestItem | None] | None = None,
    ) -> IngestResult:
        """Ingest one document; failures are returned as ``status="failed"`` with an analyst-readable error, a
        cancelled document as ``status="cancelled"``. ``corrections``: an analyst's profile corrections to keep (and
        apply) on the new record (re-indexing). ``next_parse``: the batch's :class:`NextParse` and the item after
        this one, whose parse starts once this one is parsed (overlap across documents)."""
        progress = progress or _noop
        name = item.display_name
        try:
            self._checkpoint(name, cancel)
            return self._ingest(item, name, progress, contextualize or self.contextualize, cancel,
                                dict(corrections or {}), next_parse)
        except IngestCancelledError as exc:
            progress(1.0, "cancelled")
            return IngestResult(file=name, status="cancelled", error=str(exc))
        except WorkspaceDeletedError:
            logger.warning("ingest stopped: workspace %s was deleted", self.workspace.info.id)
            progress(1.0, "failed: workspace deleted")
            return IngestResult(file=name, status="failed", error=(
                f"{name} was not added: workspace '{self.workspace.name}' was deleted while it was being added. "
                "Nothing of it was kept; create the workspace again to add it."))
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

    def reindex(self, progress: ProgressCallback | None = None) -> list[IngestResult]:
        """Re-chunk and re-embed every document from its kept original (call with a fresh, empty store); the
        analyst's profile corrections are kept and applied again. A document that cannot be read again (its
        original missing, a parser that now fails on it) is restored from its stored chunks
        (:func:`prism.ingestion.rebuild.restore_document`), so a re-index never loses one.

        Returns:
            One result per document; ``status`` is ``ingested`` (with a warning when restored) or ``failed`` (read
            again in vain and no stored chunks to restore it from).
        """
        progress = progress or _noop
        docs = self.workspace.documents()
        results = []
        for i, record in enumerate(docs):
            progress(i / max(1, len(docs)), f"re-indexing {record.source}")
            path = self.workspace.original_path(record.doc_id)
            rows = self.workspace.read_chunks(record.doc_id)
            data = path.read_bytes() if path.exists() else None
            if data is None and record.kind != "url" and rows:
                results.append(restore_document(self.workspace, self.store, self.embedder, record, rows, None,
                                                "its kept original is missing"))
                continue
            with self.workspace.write_lock():
                self.workspace.commit(remove=record.doc_id)
            source: bytes | str = record.source if record.kind == "url" and data is None else (data or b"")
            result = self.ingest_one(IngestItem(source, record.source), None, corrections=record.profile_corrections)
            if result.status == "failed" and rows:
                result = restore_document(self.workspace, self.store, self.embedder, record, rows, data, result.error)
            results.append(result)
        shutdown_workers()
        progress(1.0, "re-index done")
        return results

    # --- one document ---------------------------------------------------------------------------------------
    def _ingest(self, item: IngestItem, name: str, progress: ProgressCallback,
                contextualize: ContextualizeHook | None, cancel: CancelToken | None,
                corrections: dict[str, str | None],
                next_parse: tuple[NextParse, IngestItem | None] | None = None) -> IngestResult:
        stages: dict[str, float] = {}  # where this document's time goes (IngestResult.stage_seconds)
        loaded = self._load(item, name, progress, contextualize is None, corrections,
                            next_parse[0] if next_parse else None, stages)
        if next_parse is not None and next_parse[1] is not None:
            next_parse[0].start(next_parse[1], next_parse[1].display_name)
        if isinstance(loaded, IngestResult):
            return loaded
        parsed, data, doc_id, ahead = loaded
        self._checkpoint(name, cancel)
        t2 = time.perf_counter()
        extracted, profile = read_profile(parsed, corrections)
        parsed, running = strip_running(parsed, self.settings)
        title = title_for(parsed.source, self.settings, profile)
        stages["profile"] = time.perf_counter() - t2
        pdf = data if parsed.kind == "pdf" else None  # column headers the text lacks are read from the PDF
        chunks = chunk(parsed, doc_id, title, self.embedder, self.settings, profile.metadata(), pdf)
        t3 = time.perf_counter()
        self.timings.chunk += t3 - t2
        progress(STAGE_SHARE["parse"] + STAGE_SHARE["chunk"], f"{len(chunks)} chunks; embedding")
        texts, note = index_texts(chunks, parsed, contextualize, progress, title)
        rows = chunk_rows(chunks, texts, [tokenize(t) for t in texts])  # tokens kept: BM25 rebuilds never re-tokenise
        stages["chunk"] = time.perf_counter() - t2 - stages["profile"]

        def embedded(done: int, total: int) -> None:
            self._checkpoint(name, cancel)
            share = STAGE_SHARE["parse"] + STAGE_SHARE["chunk"] + STAGE_SHARE["embed"] * done / max(1, total)
            progress(share, f"embedding {done}/{total} chunks")

        t_embed = time.perf_counter()
        embeddings = self._ahead.embed(texts, ahead, embedded)
        t4 = time.perf_counter()
        self.timings.embed += t4 - t3
        stages["embed"] = ahead.seconds + t4 - t_embed  # the part embedded while it was parsing included
        self.timings.chunks += len(chunks)
        progress(0.9, "storing")
        record = document_record(parsed, doc_id, len(chunks), len(data), note, self.embedder.model_name)
        record.profile, record.profile_corrections = extracted.to_dict(), corrections
        record.running_lines = [line.to_dict() for line in running.removed]
        record.tables = len({c.table.table_id for c in chunks if c.table})
        record.exhibit_entities = list(dict.fromkeys(c.attributes["exhibit_entity"] for c in chunks
                                                     if c.attributes.get("exhibit_entity")))
        outcome = self._commit([PreparedDocument(record, data, chunks, rows)], embeddings, name, cancel)
        self.timings.store += time.perf_counter() - t4
        stages["store"] = time.perf_counter() - t4
        if doc_id in outcome.existing:  # another session added it meanwhile
            return duplicate_result(name, outcome.existing[doc_id])
        old = outcome.replaced.get(doc_id)
        status: IngestStatus = "replaced" if old is not None else "ingested"
        progress(1.0, f"{status}: {len(chunks)} chunks")
        logger.info("%s document %s: %d pages, %d chunks", status, doc_id[:12], parsed.total_pages, len(chunks))
        return IngestResult(file=parsed.source, status=status, doc_id=doc_id, pages=record.pages, chunks=len(chunks),
                            skipped_pages=record.skipped_pages, ocr_pages=record.ocr_pages, warnings=record.warnings,
                            replaced_added_at=old.ingested_at if old is not None else None,
                            injections=record.injections, stage_seconds={k: round(v, 3) for k, v in stages.items()})

    def _checkpoint(self, name: str, cancel: CancelToken | None) -> None:
        """Stop here when the batch was cancelled or the workspace deleted (nothing of ``name`` is written yet).

        Raises:
            IngestCancelledError: ``cancel`` was cancelled.
            WorkspaceDeletedError: the workspace was deleted.
        """
        if cancel is not None and cancel.cancelled:
            raise IngestCancelledError(f"{name} was not added: the batch was cancelled before it was stored.")
        self.workspace.check_alive()

    def _load(self, item: IngestItem, name: str, progress: ProgressCallback, embed_ahead: bool,
              corrections: dict[str, str | None], next_parse: NextParse | None = None,
              stages: dict[str, float] | None = None) -> tuple[ParsedDocument, bytes, str, Ahead] | IngestResult:
        """Read and parse one item: ``(document, bytes, doc id, vectors embedded ahead)``, or the duplicate result
        when its bytes are already in the workspace (checked before parsing, or after fetching a URL). ``stages``
        gets the seconds spent waiting for the text layers (``parse``) and reading scans (``ocr``)."""
        t0 = time.perf_counter()
        progress(0.0, "reading")
        data = read_item(item, name)
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
            return duplicate_result(name, existing)
        if not item.is_url:
            progress(0.02, "parsing")
            job = next_parse.take(doc_id, name) if next_parse is not None else None
            self.timings.docs_parsed_ahead += job is not None
            parsed, ahead = self._ahead.parse(data, name, doc_id, progress, embed_ahead,
                                              lambda doc: self._title(doc, name, corrections), job)
        waited = time.perf_counter() - t1 - ahead.seconds
        self.timings.parse += waited
        if stages is not None:  # OCR ran in the parser: while this waited, or earlier when it was parsed ahead
            stages.update(parse=max(0.0, waited - parsed.ocr_seconds), **({"ocr": parsed.ocr_seconds}
                                                                         if parsed.ocr_seconds else {}))
        self.timings.pages += max(parsed.total_pages, 1)
        progress(STAGE_SHARE["parse"], f"parsed {parsed.total_pages or 1} page(s)")
        return parsed, data, doc_id, ahead

    def _title(self, parsed: ParsedDocument, name: str, corrections: dict[str, str | None]) -> str | None:
        """The title header of a document (read before its running lines are removed) named ``name``."""
        return title_for(name, self.settings, read_profile(parsed, corrections)[1])

    def _commit(self, docs: Sequence[PreparedDocument], embeddings: np.ndarray, name: str = "",
                cancel: CancelToken | None = None) -> CommitOutcome:
        """Commit under the write lock after syncing and recovering (:func:`prism.ingestion.commit.commit_documents`);
        ``on_change`` runs when anything was written. A cancelled batch or a deleted workspace stops it before
        anything is written (see :meth:`_checkpoint`)."""
        with self.workspace.write_lock():
            self._checkpoint(name, cancel)
            self.before_write()
            self.workspace.recover(self.store.delete_document)
            outcome = commit_documents(self.workspace, self.store, docs, embeddings)
        if outcome.replaced:
            self.on_change()
        return outcome
