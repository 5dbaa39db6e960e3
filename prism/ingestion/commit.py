"""The one commit protocol: how documents become visible in a workspace, all or nothing per document.

Under the workspace's write lock, after interrupted writes are recovered:

1. a write-ahead marker names the documents being added and those they replace (same display name);
2. the originals are kept;
3. the vectors are added to the vector store;
4. the chunk rows (text, BM25 tokens, offsets) are written;
5. one registry write commits the new records and removes the replaced ones — the moment readers see the change;
6. the replaced documents are purged (vectors, original, chunk rows);
7. the marker is removed.

A process killed before step 5 leaves only writes the next :meth:`~prism.index.workspaces.Workspace.recover`
purges; killed after it, recovery finishes the purge. Nothing half-written is ever visible.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from prism.index.vector_store import VectorIndex
from prism.index.workspaces import Workspace
from prism.types import Chunk, DocumentRecord, IngestResult

logger = logging.getLogger(__name__)


@dataclass
class PreparedDocument:
    """A document ready to commit: its registry record, original bytes, chunks and chunk rows (one per chunk)."""

    record: DocumentRecord
    data: bytes
    chunks: list[Chunk]
    rows: list[dict]


@dataclass
class CommitOutcome:
    """What a commit did: ``replaced`` maps each committed doc id to the record it replaced (or ``None``);
    ``existing`` holds the records of documents that were already committed (by another session meanwhile) and so
    were not written again."""

    replaced: dict[str, DocumentRecord | None] = field(default_factory=dict)
    existing: dict[str, DocumentRecord] = field(default_factory=dict)


def commit_documents(workspace: Workspace, store: VectorIndex, docs: Sequence[PreparedDocument],
                     embeddings: np.ndarray) -> CommitOutcome:
    """Commit ``docs`` with the protocol of this module (steps 1–7). Call under ``workspace.write_lock()``, after
    ``workspace.recover(store.delete_document)``.

    Args:
        workspace: the workspace's files and registry.
        store: its vector store.
        docs: the documents, each with a distinct doc id.
        embeddings: one row per chunk of ``docs``, in order (``(n_chunks, dimension)`` float32).

    Returns:
        The :class:`CommitOutcome`.

    Raises:
        ValueError: ``embeddings`` has another number of rows than ``docs`` have chunks.
        StoreError: the vector store or the workspace's files failed (the marker makes it recoverable).
    """
    if len(embeddings) != sum(len(d.chunks) for d in docs):
        raise ValueError(f"{len(embeddings)} embeddings for {sum(len(d.chunks) for d in docs)} chunks")
    outcome = CommitOutcome()
    keep: list[PreparedDocument] = []
    rows: list[np.ndarray] = []
    start = 0
    for d in docs:
        end = start + len(d.chunks)
        found = workspace.find(d.record.doc_id)
        if found is not None:
            outcome.existing[d.record.doc_id] = found
        else:
            keep.append(d)
            rows.append(embeddings[start:end])
        start = end
    if not keep:
        return outcome
    by_source = {r.source: r for r in workspace.documents()}
    outcome.replaced = {d.record.doc_id: by_source.get(d.record.source) for d in keep}
    old_ids = [old.doc_id for old in outcome.replaced.values() if old is not None]
    marker = workspace.mark_pending([d.record.doc_id for d in keep], replaces=old_ids)
    for d in keep:
        workspace.original_path(d.record.doc_id).write_bytes(d.data)
    store.add([c for d in keep for c in d.chunks], np.concatenate(rows))
    for d in keep:
        workspace.write_chunks(d.record.doc_id, d.rows)
    workspace.commit(add=[d.record for d in keep], remove=old_ids)
    for doc_id in old_ids:
        store.delete_document(doc_id)
        workspace.purge_files(doc_id)
    marker.unlink(missing_ok=True)
    logger.info("committed %d document(s) to workspace %s, replacing %d", len(keep), workspace.info.id, len(old_ids))
    return outcome


def duplicate_result(name: str, existing: DocumentRecord) -> IngestResult:
    """The result of a file whose bytes are already committed as ``existing``; its warning names that document
    ("same content as 13_original.txt, already indexed; not added again"; the CLI's summary line shows it)."""
    same = "" if existing.source == name else f"same content as {existing.source}, "
    note = [f"{same}already indexed; not added again"]
    return IngestResult(file=name, status="duplicate", doc_id=existing.doc_id, pages=existing.pages,
                        chunks=existing.chunks, skipped_pages=existing.skipped_pages,
                        ocr_pages=existing.ocr_pages, warnings=note)
