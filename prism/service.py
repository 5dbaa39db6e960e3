"""The facade that pages and the CLI call. Components never import this module.

One :class:`PrismService` per process holds the embedder (loaded once, lazily), the Chroma client and one
:class:`WorkspaceHandle` per open workspace. It is thread-safe and shared by all Streamlit sessions.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from prism.config import Settings, get_settings
from prism.embeddings import PrismEmbedding
from prism.errors import WorkspaceNotFoundError
from prism.ingest import IngestItem, Ingestor, ProgressCallback
from prism.types import DocumentRecord, IngestResult
from prism.vector_store import VectorStore, make_client
from prism.workspaces import Workspace, WorkspaceCatalog, WorkspaceInfo

logger = logging.getLogger(__name__)


@dataclass
class WorkspaceHandle:
    """An open workspace: its files, its vector store and its ingestor."""

    workspace: Workspace
    store: VectorStore
    ingestor: Ingestor

    @property
    def info(self) -> WorkspaceInfo:
        return self.workspace.info


class PrismService:
    """Everything Prism does, by workspace name.

    Args:
        settings: defaults to :func:`prism.config.get_settings`.
        embedder: an already loaded embedder to share (tests, the Streamlit resource cache); loaded lazily otherwise.
    """

    def __init__(self, settings: Settings | None = None, embedder: PrismEmbedding | None = None):
        self.settings = settings or get_settings()
        self._embedder = embedder
        self._client: Any = None
        self._handles: dict[str, WorkspaceHandle] = {}
        self._lock = threading.RLock()
        self.catalog = WorkspaceCatalog(self.settings.home, self.settings.lock_timeout_s)

    # --- shared resources -----------------------------------------------------------------------------------
    @property
    def embedder(self) -> PrismEmbedding:
        """The embedder (loaded on first use)."""
        with self._lock:
            if self._embedder is None:
                self._embedder = PrismEmbedding.from_settings(self.settings)
            return self._embedder

    @property
    def client(self) -> Any:
        """The Chroma client (opened on first use)."""
        with self._lock:
            if self._client is None:
                self._client = make_client(self.settings)
            return self._client

    # --- workspaces -----------------------------------------------------------------------------------------
    def workspaces(self) -> list[WorkspaceInfo]:
        """All workspaces."""
        return self.catalog.list()

    def create_workspace(self, name: str) -> WorkspaceInfo:
        """Create a workspace (raises ``WorkspaceExistsError`` if the name is taken)."""
        return self.catalog.create(name)

    def rename_workspace(self, old: str, new: str) -> WorkspaceInfo:
        """Rename a workspace."""
        info = self.catalog.rename(old, new)
        with self._lock:
            handle = self._handles.get(info.id)
            if handle is not None:
                handle.workspace.info = info
        return info

    def delete_workspace(self, name: str) -> WorkspaceInfo:
        """Delete a workspace with its collection, files and indexes."""

        def drop(info: WorkspaceInfo) -> None:
            with self._lock:
                self._handles.pop(info.id, None)
            try:
                self.client.delete_collection(info.collection)
            except Exception as exc:  # a missing collection (never opened) is fine
                logger.info("collection %s not dropped: %s", info.collection, exc)

        return self.catalog.remove(name, drop)

    def open(self, name: str | None = None, create: bool = False) -> WorkspaceHandle:
        """Open a workspace (recovering interrupted writes on first open in this process).

        Raises:
            WorkspaceNotFoundError: it does not exist and ``create`` is false.
            EmbeddingModelMismatchError: it was indexed with another embedding model.
        """
        name = name or self.settings.default_workspace
        info = self.catalog.create(name, exist_ok=True) if create else self.catalog.find(name)
        if info is None:
            raise WorkspaceNotFoundError(
                f"There is no workspace named '{name}'. Create it first (python -m prism workspaces create NAME)."
            )
        with self._lock:
            handle = self._handles.get(info.id)
            if handle is not None:
                return handle
            embedder = self.embedder
            store = VectorStore(self.client, info.collection, embedder.model_name, embedder.dimension, info.name)
            workspace = Workspace(self.settings.home, info, self.settings.lock_timeout_s)
            ingestor = Ingestor(workspace, store, embedder, self.settings)
            ingestor.recover()
            handle = WorkspaceHandle(workspace, store, ingestor)
            self._handles[info.id] = handle
            return handle

    def ensure_sample_workspace(self, progress: ProgressCallback | None = None) -> list[IngestResult]:
        """On first start (no workspace at all), create the sample workspace from ``settings.sample_dir/*.pdf``.

        Returns:
            The ingest results, or ``[]`` when workspaces already exist (nothing is done then).
        """
        if self.catalog.list():
            return []
        files = sorted(self.settings.sample_dir.glob("*.pdf"))
        if not files:
            logger.warning("no sample documents in %s", self.settings.sample_dir)
            return []
        logger.info("first start: building the sample workspace from %d documents", len(files))
        return self.ingest([IngestItem(f) for f in files], self.settings.sample_workspace, progress)

    # --- documents ------------------------------------------------------------------------------------------
    def ingest(
        self,
        items: Sequence[IngestItem],
        workspace: str | None = None,
        progress: ProgressCallback | None = None,
    ) -> list[IngestResult]:
        """Ingest files/bytes/URLs into a workspace (created if missing). One result per item; never raises for a
        bad file."""
        handle = self.open(workspace, create=True)
        return handle.ingestor.ingest(items, progress)

    def documents(self, workspace: str | None = None) -> list[DocumentRecord]:
        """The workspace's committed documents."""
        info = self.catalog.get(workspace or self.settings.default_workspace)
        return Workspace(self.settings.home, info, self.settings.lock_timeout_s).documents()

    def delete_document(self, source: str, workspace: str | None = None) -> DocumentRecord:
        """Delete one document by file name (raises ``DocumentNotFoundError``)."""
        return self.open(workspace).ingestor.delete(source)

    def reindex(self, workspace: str | None = None, progress: ProgressCallback | None = None) -> list[IngestResult]:
        """Drop the workspace's vectors and rebuild them with the configured chunking and embedder."""
        name = workspace or self.settings.default_workspace
        info = self.catalog.get(name)
        with self._lock:
            self._handles.pop(info.id, None)
            try:
                self.client.delete_collection(info.collection)
            except Exception as exc:
                logger.info("collection %s not dropped: %s", info.collection, exc)
        handle = self.open(name)
        return handle.ingestor.reindex(progress)
