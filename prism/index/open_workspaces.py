"""The workspaces one process has open: each one's files and vector store, opened once and shared by every
session, and kept in step with writes other processes make.

Chroma's local client keeps each collection's vector index in memory per process and does not see vectors another
process (e.g. ``python -m prism ingest`` while the app runs) added. Each open workspace remembers the fingerprints
(:meth:`~prism.index.workspaces.Workspace.fingerprint`) its vector index reflects; :meth:`OpenWorkspaces.sync` sees
an unknown one and re-opens the store through a fresh client (:meth:`~prism.index.vector_store.VectorStores.reset`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from prism.config import Settings
from prism.index.index_health import check_vector_index
from prism.index.vector_store import VectorStore, VectorStores
from prism.index.workspaces import Workspace
from prism.types import WorkspaceInfo

logger = logging.getLogger(__name__)


@dataclass
class OpenWorkspace:
    """One open workspace: its files, its vector store, and the fingerprints its vector index reflects (written or
    synced by this process)."""

    workspace: Workspace
    store: VectorStore
    known_states: set[str]

    @property
    def info(self) -> WorkspaceInfo:
        """The workspace's identity."""
        return self.workspace.info

    def mark_current(self) -> None:
        """Record the workspace's current fingerprint as one this process's vector index reflects."""
        self.known_states.add(self.workspace.fingerprint())


H = TypeVar("H", bound=OpenWorkspace)


class OpenWorkspaces(Generic[H]):
    """The open workspaces of one process, by id (thread-safe).

    Args:
        settings: ``home`` and ``lock_timeout_s``.
        stores: the process's vector-store backend.
    """

    def __init__(self, settings: Settings, stores: VectorStores):
        self.settings = settings
        self.stores = stores
        self._open: dict[str, H] = {}
        self._lock = threading.RLock()
        self._opening: dict[str, threading.Lock] = {}

    def get(self, workspace_id: str) -> H | None:
        """The open workspace with this id, or ``None``."""
        return self._open.get(workspace_id)

    def open(self, info: WorkspaceInfo, embed_model: str, dimension: int,
             build: Callable[[Workspace, VectorStore], H], embed_backend: str = "torch", verify: bool = True) -> H:
        """The open workspace for ``info``, opening it on first use with ``build(workspace, store)``: under a lock
        of this workspace's own, so no other thread sees it before ``build`` returns (e.g. before interrupted writes
        are recovered), while other workspaces open and answer meanwhile — a Chroma server that hangs on this one's
        collection holds no other (each of its calls ends within ``chroma_timeout_s``). With ``verify`` (not while
        its vectors are being rebuilt), local files are first checked for damage (:mod:`prism.index.index_health`).

        Raises:
            IndexDamagedError: the vector index on disk is damaged, or its rebuild stopped part-way.
            EmbeddingModelMismatchError: the collection was built with another embedding model.
            StoreError: the vector store failed, or its server did not answer in time.
        """
        handle = self._open.get(info.id)
        if handle is not None:
            return handle
        with self._lock:
            opening = self._opening.setdefault(info.id, threading.Lock())
        with opening:
            handle = self._open.get(info.id)
            if handle is not None:
                return handle
            workspace = Workspace(self.settings.home, info, self.settings.lock_timeout_s)
            if verify and not self.settings.chroma_host:
                check_vector_index(self.settings.home / "chroma", workspace.dir, info.collection, info.name)
            store = self.stores.open(info.collection, embed_model, dimension, info.name, embed_backend)
            handle = build(workspace, store)
            handle.mark_current()
            with self._lock:
                self._open[info.id] = handle
            return handle

    def renamed(self, info: WorkspaceInfo) -> None:
        """Give an open workspace its new identity after a rename."""
        with self._lock:
            handle = self._open.get(info.id)
            if handle is not None:
                handle.workspace.info = info

    def close(self, workspace_id: str) -> None:
        """Forget an open workspace (it is deleted, or its collection is about to be dropped)."""
        with self._lock:
            self._open.pop(workspace_id, None)

    def sync(self, workspace_id: str) -> None:
        """Re-open the vector store when another process changed this workspace: when its fingerprint is one no
        open workspace of this process wrote or synced to, every open store reconnects through a fresh client."""
        handle = self._open.get(workspace_id)
        if handle is None:
            return
        fingerprint = handle.workspace.fingerprint()
        if fingerprint in handle.known_states:
            return
        if not self.settings.chroma_host:
            with self._lock:
                logger.info("workspace %s changed in another process; re-opening the vector store", workspace_id)
                handles = list(self._open.values())
                self.stores.reset(h.store for h in handles)
                for h in handles:
                    h.mark_current()
        handle.known_states.add(fingerprint)
