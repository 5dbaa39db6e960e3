"""The BM25 side of one workspace: its :class:`~prism.index.bm25.BM25Index`, persisted under ``<workspace>/bm25`` and
kept in step with the workspace's committed state."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Collection

from prism.config import Settings
from prism.index.bm25 import BM25Index
from prism.index.sections import section_tokens
from prism.index.tokenizer import TOKENIZER_VERSION, tokenize
from prism.index.workspaces import Workspace

logger = logging.getLogger(__name__)


class SparseSide:
    """The workspace's BM25 index, persisted under ``<workspace>/bm25`` and kept in step with its fingerprint.

    Chunk rows carry their tokens (written at ingest), so a rebuild after a change never re-tokenises; opening an
    unchanged workspace loads the saved index. Rows whose tokens were made by another tokenizer version
    (:data:`~prism.index.tokenizer.TOKENIZER_VERSION`) are re-tokenised, and the version is part of the index's
    fingerprint, so an index saved before a tokenizer change is rebuilt.
    """

    def __init__(self, workspace: Workspace, settings: Settings):
        self.workspace = workspace
        self.settings = settings
        self._dir = workspace.dir / "bm25"
        self._index: BM25Index | None = None
        self._lock = threading.Lock()
        self._by_document: tuple[BM25Index, dict[str, frozenset[str]]] | None = None

    def fingerprint(self) -> str:
        """The state an up-to-date index reflects: the workspace's committed state and the tokenizer version."""
        return f"{self.workspace.fingerprint()}/tokenizer-{TOKENIZER_VERSION}"

    def index(self) -> BM25Index:
        """The index for the workspace's current committed state (load or rebuild when stale)."""
        fingerprint = self.fingerprint()
        current = self._index
        if current is not None and current.fingerprint == fingerprint:
            return current
        with self._lock:
            current = self._index
            if current is not None and current.fingerprint == fingerprint:
                return current
            loaded = BM25Index.load(
                self._dir, fingerprint=fingerprint, k1=self.settings.bm25_k1, b=self.settings.bm25_b
            )
            if loaded is not None:
                self._index = loaded
                return loaded
            self._index = self._build(fingerprint)
            return self._index

    def doc_prefixes_with(self, token: str) -> set[str]:
        """The 16-character id prefixes of the documents whose chunks hold BM25 ``token`` (chunk ids start with
        them)."""
        index = self.index()
        hits = index.get_scores([token]) > 0
        return {index.chunk_ids[i].split("-", 1)[0] for i in hits.nonzero()[0]}

    def chunk_ids_of(self, doc_ids: Collection[str] | None) -> set[str] | None:
        """The index's chunk ids of the documents ``doc_ids`` (``None``: no restriction, ``None`` back)."""
        if doc_ids is None:
            return None
        by_document = self._chunk_ids_by_prefix()
        return {c for prefix in {d[:16] for d in doc_ids} for c in by_document.get(prefix, ())}

    def _chunk_ids_by_prefix(self) -> dict[str, frozenset[str]]:
        """The current index's chunk ids grouped by their document's 16-character id prefix, made once per index
        (scoping a question to its documents used to split all of a workspace's chunk ids each time)."""
        index = self.index()
        kept = self._by_document
        if kept is not None and kept[0] is index:
            return kept[1]
        groups: dict[str, set[str]] = {}
        for chunk_id in index.chunk_ids:
            groups.setdefault(chunk_id.split("-", 1)[0], set()).add(chunk_id)
        by_document = {prefix: frozenset(ids) for prefix, ids in groups.items()}
        self._by_document = (index, by_document)
        return by_document

    def _build(self, fingerprint: str) -> BM25Index:
        t0 = time.perf_counter()
        ids: list[str] = []
        tokens: list[list[str]] = []
        for doc in self.workspace.documents():
            for row in self.workspace.read_chunks(doc.doc_id):
                ids.append(row["chunk_id"])
                toks = row.get("tokens") if row.get("tokenizer", 1) == TOKENIZER_VERSION else None
                tokens.append(toks if toks is not None
                              else tokenize(row.get("index_text") or row["text"]) + section_tokens(row))
        index = BM25Index(ids, tokens=tokens, fingerprint=fingerprint, k1=self.settings.bm25_k1, b=self.settings.bm25_b)
        try:
            if self.workspace.dir.is_dir():  # a workspace deleted meanwhile gets no folder back
                index.save(self._dir)
        except OSError as exc:  # a read-only disk still gets an in-memory index
            logger.warning("could not save BM25 index for %s: %s", self.workspace.info.id, exc)
        logger.info("built BM25 index over %d chunks in %.2fs", len(ids), time.perf_counter() - t0)
        return index
