"""Rebuilding a workspace's vectors from what it keeps on disk, so that repairing the index never loses a document.

A workspace keeps, per document, its registry record, its original and its chunk rows
(``workspaces/<id>/chunks/<doc_id>.jsonl``: each chunk's id, stored text, indexed text when it differs, BM25 tokens
and the flat metadata the vector store holds). Those rows are enough to write the vector store again: each chunk's
vector is its indexed text embedded by the configured embedder, its stored text and metadata are the row's.

- :func:`rebuild_vectors` (``python -m prism reindex --from-chunks``, the Reindex button of a damaged workspace):
  every document's vectors from its rows; nothing is parsed or re-chunked, and the registry, originals and rows are
  not touched, so nothing can be lost.
- :func:`restore_document`: a document whose re-index from its original failed (the original missing, a parser
  that now rejects it) is put back as it was, from its rows.
- :class:`ReindexFacade`: the service's ``reindex`` (either way) and the index checks the Workspaces page shows.
  While a rebuild runs, the workspace's folder holds :data:`~prism.index.index_health.REBUILD_MARKER`; a rebuild
  that stops part-way leaves it, and the workspace is reported unfinished until a rebuild completes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from prism.config import Settings
from prism.errors import EmbeddingModelMismatchError, IndexDamagedError
from prism.fsutil import atomic_write_json
from prism.index.catalog import WorkspaceCatalog
from prism.index.embedder import PrismEmbedding
from prism.index.index_health import REBUILD_MARKER, remove_orphan, segment_folder
from prism.index.open_workspaces import OpenWorkspaces
from prism.index.vector_store import VectorIndex, VectorStores
from prism.index.workspaces import Workspace, now_iso
from prism.types import DocumentRecord, IngestResult, ProgressCallback

logger = logging.getLogger(__name__)

ROW_ONLY = frozenset({"chunk_id", "text", "index_text", "tokens", "tokenizer", "table"})
"""Keys of a chunk row that are not the chunk's vector-store metadata (:func:`prism.ingestion.prepare.chunk_rows`)."""


def row_metadata(row: dict[str, Any]) -> dict[str, Any]:
    """The flat vector-store metadata of a chunk row: every key but :data:`ROW_ONLY`, scalars only."""
    return {k: v for k, v in row.items() if k not in ROW_ONLY and isinstance(v, str | int | float | bool)}


def store_rows(store: VectorIndex, embedder: PrismEmbedding, rows: Sequence[dict[str, Any]]) -> None:
    """Write chunk rows into the vector store: the indexed text's vector (``(n, dim)`` float32 from ``embedder``),
    the stored text and the metadata of each row (an id already stored is overwritten).

    Raises:
        StoreError: the vector store failed.
    """
    if not rows:
        return
    vectors = embedder.embed([str(r.get("index_text", r["text"])) for r in rows])
    store.add_records([r["chunk_id"] for r in rows], np.asarray(vectors, dtype=np.float32),
                      [r["text"] for r in rows], [row_metadata(r) for r in rows])


def rebuild_vectors(workspace: Workspace, store: VectorIndex, embedder: PrismEmbedding,
                    progress: ProgressCallback | None = None) -> list[IngestResult]:
    """Write every committed document's vectors from its chunk rows (into an empty or partial store), under the
    workspace's write lock.

    Returns:
        One result per document: ``ingested`` with its chunk count, or ``failed`` when it has no chunk rows (its
        record and original stay; ``python -m prism reindex`` without ``--from-chunks`` re-reads the original).

    Raises:
        StoreError: the vector store failed (a new rebuild finishes the work: see the module docstring).
    """
    results: list[IngestResult] = []
    with workspace.write_lock():
        docs = workspace.documents()
        for i, record in enumerate(docs):
            if progress is not None:
                progress(i / max(1, len(docs)), f"rebuilding the vectors of {record.source}")
            rows = workspace.read_chunks(record.doc_id)
            if not rows:
                results.append(IngestResult(file=record.source, status="failed", doc_id=record.doc_id,
                                            error=f"{record.source} has no stored chunks to rebuild from."))
                continue
            store_rows(store, embedder, rows)
            results.append(IngestResult(file=record.source, status="ingested", doc_id=record.doc_id,
                                        pages=record.pages, chunks=len(rows)))
    if progress is not None:
        progress(1.0, "rebuild done")
    logger.info("workspace %s: vectors rebuilt from stored chunks for %d document(s)", workspace.info.id,
                len(results))
    return results


def restore_document(workspace: Workspace, store: VectorIndex, embedder: PrismEmbedding, record: DocumentRecord,
                     rows: list[dict[str, Any]], data: bytes | None, why: str | None) -> IngestResult:
    """Put a document back as it was before a failed re-index: its original (when ``data`` is known), chunk rows,
    vectors and record, under the write lock after recovering the failed attempt's leftovers.

    Returns:
        An ``ingested`` result whose warning says the stored chunks were kept and ``why`` re-reading failed.

    Raises:
        StoreError: the vector store or the files failed.
    """
    with workspace.write_lock():
        workspace.recover(store.delete_document)  # may purge what the failed attempt wrote under this id
        if data is not None:
            workspace.original_path(record.doc_id).write_bytes(data)
        workspace.write_chunks(record.doc_id, rows)
        store_rows(store, embedder, rows)
        workspace.commit(add=record)
    logger.warning("document %s: re-index failed (%s); restored from its stored chunks", record.doc_id[:12], why)
    return IngestResult(file=record.source, status="ingested", doc_id=record.doc_id, pages=record.pages,
                        chunks=len(rows), warnings=[f"re-reading it failed ({why}); its stored chunks were kept"])


class ReindexFacade:
    """Re-indexing and the index checks, for a class with ``settings``, ``catalog``, its open workspaces ``_open``,
    vector ``stores``, an ``embedder`` and ``open(name, create=False, verify=True)`` returning a handle with
    ``workspace``, ``store`` and ``ingestor`` (mixed into :class:`prism.service.PrismService`)."""

    settings: Settings
    catalog: WorkspaceCatalog
    _open: OpenWorkspaces[Any]
    stores: VectorStores
    open: Callable[..., Any]

    @property
    def embedder(self) -> PrismEmbedding:
        """The service's embedder (a read-only property there)."""
        raise NotImplementedError

    def index_mismatch(self, workspace: str | None = None) -> str | None:
        """Why the workspace cannot be searched (built by another embedding model or backend, or its index damaged:
        :meth:`reindex` fixes either), or ``None`` when it opens. Raises ``WorkspaceNotFoundError``."""
        try:
            self.open(workspace)
        except (EmbeddingModelMismatchError, IndexDamagedError) as exc:
            return str(exc)
        return None

    def index_damage(self, workspace: str | None = None) -> str | None:
        """Why the workspace's vector index cannot be used (:class:`~prism.errors.IndexDamagedError`: damaged on
        disk, or its rebuild stopped), or ``None``. Raises ``WorkspaceNotFoundError``."""
        try:
            self.open(workspace)
        except IndexDamagedError as exc:
            return str(exc)
        except EmbeddingModelMismatchError:
            return None
        return None

    def reindex(self, workspace: str | None = None, progress: ProgressCallback | None = None, *,
                from_chunks: bool = False) -> list[IngestResult]:
        """Drop the workspace's vectors and rebuild them: re-chunk and re-embed every document from its kept
        original with the configured chunking and embedder (a document that fails is restored from its stored
        chunks: :func:`restore_document`), or with ``from_chunks`` re-embed the stored chunks only
        (:func:`rebuild_vectors`: the repair of a damaged index). Raises ``WorkspaceNotFoundError``,
        ``StoreError``."""
        info = self.catalog.get(workspace or self.settings.default_workspace)
        marker = self.catalog.folder(info) / REBUILD_MARKER
        atomic_write_json(marker, {"started": now_iso(), "from": "chunks" if from_chunks else "originals"})
        self._open.close(info.id)
        chroma = self.settings.home / "chroma"
        old = None if self.settings.chroma_host else segment_folder(chroma, info.collection)
        self.stores.drop(info.collection)
        remove_orphan(chroma, old)
        handle = self.open(info.name, verify=False)
        if from_chunks:
            results = rebuild_vectors(handle.workspace, handle.store, self.embedder, progress)
        else:
            results = handle.ingestor.reindex(progress)
        marker.unlink(missing_ok=True)
        return results
