"""The bulk path of the ingestion pipeline: many already-extracted texts (a BEIR corpus) as unpaged documents,
embedded together and committed in groups (:class:`BulkTexts`, mixed into :class:`prism.ingestion.pipeline.Ingestor`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from prism.config import Settings
from prism.errors import PrismError
from prism.index.embedder import PrismEmbedding
from prism.index.tokenizer import tokenize
from prism.index.workspaces import Workspace, now_iso
from prism.ingestion import parsing
from prism.ingestion.commit import CommitOutcome, PreparedDocument, duplicate_result
from prism.ingestion.prepare import chunk, chunk_rows, index_text, title_for
from prism.ingestion.titles import title_from_text
from prism.types import DocumentRecord, IngestResult, IngestStatus, ParsedDocument, ProgressCallback


def _noop(_fraction: float, _message: str) -> None:
    pass


class BulkTexts:
    """``ingest_texts`` for an ingestor with ``workspace``, ``embedder``, ``settings`` and ``_commit``."""

    workspace: Workspace
    embedder: PrismEmbedding
    settings: Settings

    def _commit(self, docs: Sequence[PreparedDocument], embeddings: np.ndarray) -> CommitOutcome:
        raise NotImplementedError

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

    def _prepare_text(self, name: str, text: str, seen: set[str]) -> tuple[PreparedDocument, list[str]] | IngestResult:
        """One corpus text ready to commit with its index texts, or its result when it is a duplicate (in the
        workspace or earlier in the batch) or has nothing to index."""
        data = text.encode("utf-8")
        doc_id = hashlib.sha256(data).hexdigest()
        existing = self.workspace.find(doc_id)
        if existing is not None:
            return duplicate_result(name, existing)
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
                results[i] = duplicate_result(p.record.source, outcome.existing[doc_id])
            else:
                status: IngestStatus = "replaced" if outcome.replaced.get(doc_id) is not None else "ingested"
                results[i] = IngestResult(file=p.record.source, status=status, doc_id=doc_id, chunks=len(p.chunks))
        group.clear()
