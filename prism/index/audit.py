"""The audit trail: who (which Streamlit session, which CLI user) added, replaced or deleted a document, renamed or
deleted a workspace, gave feedback or exported something.

Two append-only JSON Lines logs under ``PRISM_HOME``, one :class:`~prism.types.AuditEntry` per line::

    workspaces/<id>/audit.jsonl     a workspace's own events (kept across renames: the id does not change)
    audit.jsonl                     workspace-level events of every workspace (created, renamed, deleted) and
                                    exports that belong to no workspace; it survives a workspace's deletion

A line is appended under a file lock (threads and processes) with one ``write`` on a descriptor opened with
``O_APPEND`` (POSIX appends each write at the end of the file, so no line is ever overwritten or interleaved;
https://pubs.opengroup.org/onlinepubs/9699919799/functions/open.html); nothing ever rewrites the file. A line that
is not JSON (a crash mid-write) is skipped when reading. A workspace's log never brings a deleted workspace back
(:func:`prism.index.workspace_locks.guarded`).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from prism.config import Settings
from prism.errors import PrismError, StoreError, WorkspaceDeletedError
from prism.fsutil import read_json_lines
from prism.index.catalog import WorkspaceCatalog
from prism.index.open_workspaces import OpenWorkspaces
from prism.index.vector_store import VectorStores
from prism.index.workspace_locks import guarded
from prism.index.workspaces import now_iso
from prism.types import AUDIT_ACTIONS, AuditEntry, IngestResult, WorkspaceInfo

__all__ = ["AUDIT_FILE", "AuditFacade", "AuditLog", "SYSTEM_ACTOR"]

logger = logging.getLogger(__name__)

AUDIT_FILE = "audit.jsonl"
"""The log's file name, in a workspace's folder and in ``PRISM_HOME``."""
SYSTEM_ACTOR = "system"
"""The actor of what the app does by itself (the sample workspace on first start, a caller that names nobody)."""


class AuditLog:
    """One append-only audit log.

    Args:
        path: the JSON Lines file.
        lock_timeout_s: how long an append waits for another.
        workspace: the workspace whose folder holds the log (``None`` for the home log), with ``home``: then an
            append to a deleted workspace raises ``WorkspaceDeletedError`` instead of re-creating its folder.
        home: ``PRISM_HOME``.
    """

    def __init__(self, path: Path, lock_timeout_s: float = 60.0, workspace: WorkspaceInfo | None = None,
                 home: Path | None = None):
        self.path = Path(path)
        self.workspace = workspace
        self.home = home
        self._lock = FileLock(str(self.path.parent / f".{self.path.name}.lock"), timeout=lock_timeout_s)

    def _locked(self) -> AbstractContextManager[Any]:
        busy = f"The audit log {self.path.name} stayed locked too long; try again."
        if self.workspace is not None and self.home is not None:
            return guarded(self._lock, self.home, self.workspace, self.path.parent, busy)
        return _plain(self._lock, busy)

    def append(self, entry: AuditEntry) -> AuditEntry:
        """Append ``entry`` as one JSON line and return it.

        Raises:
            WorkspaceDeletedError: the log's workspace was deleted.
            StoreError: the lock timed out or the file cannot be written.
        """
        if entry.action not in AUDIT_ACTIONS:
            raise PrismError(f"'{entry.action}' is not an audited action ({', '.join(AUDIT_ACTIONS)}).")
        line = (json.dumps(entry.to_dict(), ensure_ascii=False) + "\n").encode("utf-8")
        with self._locked():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            try:
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
                try:
                    os.write(fd, line)
                finally:
                    os.close(fd)
            except OSError as exc:
                raise StoreError(f"The audit log {self.path} could not be written ({exc.strerror or exc}).") from exc
        return entry

    def entries(self) -> list[AuditEntry]:
        """Every entry, oldest first (file order); a line that is not a JSON object is skipped (logged).

        Raises:
            StoreError: the file exists but cannot be read.
        """
        try:
            lines, skipped = read_json_lines(self.path)
        except OSError as exc:
            raise StoreError(f"The audit log {self.path} is unreadable ({exc.strerror or exc}).") from exc
        if skipped:
            logger.warning("audit log %s: %d line(s) not a JSON object; skipped", self.path.name, skipped)
        return [AuditEntry.from_dict(data) for data in lines]


def _plain(lock: FileLock, busy: str) -> AbstractContextManager[Any]:
    """``lock`` as a context manager whose timeout is a :class:`StoreError` saying ``busy``."""

    @contextmanager
    def held() -> Iterator[None]:
        try:
            with lock:
                yield
        except Timeout as exc:
            raise StoreError(busy) from exc

    return held()


class AuditFacade:
    """The audit trail, and the workspace changes it records, for a class that has ``settings``, ``catalog``, its
    open workspaces ``_open`` and vector ``stores`` (mixed into :class:`prism.service.PrismService`). Every
    recording method takes the ``actor`` from its caller (the UI passes the Streamlit session id, the CLI
    ``"cli:<user>"``); ``None`` is :data:`SYSTEM_ACTOR`."""

    settings: Settings
    catalog: WorkspaceCatalog
    _open: OpenWorkspaces[Any]
    stores: VectorStores

    # --- workspaces (audited) -------------------------------------------------------------------------------
    def create_workspace(self, name: str, *, actor: str | None = None) -> WorkspaceInfo:
        """Create a workspace (raises ``WorkspaceExistsError`` if the name is taken, ``InvalidWorkspaceNameError``);
        recorded in its log and the home log."""
        info = self.catalog.create(name)
        self.record(info, actor, "workspace.create", info.name, home=True)
        return info

    def rename_workspace(self, old: str, new: str, *, actor: str | None = None) -> WorkspaceInfo:
        """Rename a workspace (its id, documents, conversations and audit log stay); recorded in its log and the
        home log. Raises ``WorkspaceNotFoundError``, ``WorkspaceExistsError``, ``InvalidWorkspaceNameError``."""
        before = self.catalog.get(old)
        info = self.catalog.rename(old, new)
        self._open.renamed(info)
        self.record(info, actor, "workspace.rename", info.name, {"from": before.name, "to": info.name}, home=True)
        return info

    def delete_workspace(self, name: str, *, actor: str | None = None) -> WorkspaceInfo:
        """Delete a workspace with its collection, files, indexes, conversations and log; waits for a document being
        committed to it (an ingest still running then stops with a message naming the workspace). The deletion is
        recorded in the home log, which survives it. Raises ``WorkspaceNotFoundError``, ``StoreError``."""
        def purge(i: WorkspaceInfo) -> None:
            self._open.close(i.id)
            self.stores.drop(i.collection)

        info = self.catalog.remove(name, purge)
        self.record(None, actor, "workspace.delete", info.name, {"workspace_id": info.id}, home=True)
        return info

    def _home_log(self) -> AuditLog:
        return AuditLog(self.settings.home / AUDIT_FILE, self.settings.lock_timeout_s)

    def _workspace_log(self, info: WorkspaceInfo) -> AuditLog:
        return AuditLog(self.catalog.folder(info) / AUDIT_FILE, self.settings.lock_timeout_s, info,
                        self.settings.home)

    def audit(self, workspace: str | None = None) -> list[AuditEntry]:
        """The audit log of ``workspace`` (a name), or with ``None`` the process-wide log (workspaces created,
        renamed and deleted, exports of no workspace); oldest first. Raises ``WorkspaceNotFoundError``."""
        if workspace is None:
            return self._home_log().entries()
        return self._workspace_log(self.catalog.get(workspace)).entries()

    def record(self, info: WorkspaceInfo | None, actor: str | None, action: str, target: str,
               details: dict[str, Any] | None = None, *, home: bool = False) -> AuditEntry:
        """Append one entry to ``info``'s log (and to the home log too with ``home``; only there without ``info``).
        A workspace deleted meanwhile gets its entry in the home log instead. Raises ``StoreError``."""
        entry = AuditEntry(now_iso(), actor or SYSTEM_ACTOR, action, target, info.name if info else "",
                           info.id if info else str((details or {}).get("workspace_id", "")), dict(details or {}))
        logs = ([self._workspace_log(info)] if info is not None else []) + ([self._home_log()] if home else [])
        for log in logs or [self._home_log()]:
            try:
                log.append(entry)
            except WorkspaceDeletedError:
                self._home_log().append(entry)
        return entry

    def record_export(self, workspace: str | None, what: str, target: str, actor: str | None = None,
                      **details: Any) -> AuditEntry:
        """Record that ``actor`` exported ``what`` (``"grid"``, ``"conversation"``, ``"briefing"``, ``"eval
        table"``) as the file ``target``, in ``workspace``'s log (the home log for ``None``). Call it where the
        export is handed over (a download button's ``on_click``, the CLI writing the file). Raises
        ``WorkspaceNotFoundError``, ``StoreError``."""
        info = self.catalog.get(workspace) if workspace is not None else None
        return self.record(info, actor, "export", target, {"what": what, **details})

    def record_ingest(self, info: WorkspaceInfo, results: Iterable[IngestResult], actor: str | None) -> None:
        """One ``document.add`` / ``document.replace`` entry per document a batch stored (duplicates, failures and
        cancelled files change nothing and are not recorded)."""
        for r in results:
            if r.status in ("ingested", "replaced"):
                self.record(info, actor, "document.add" if r.status == "ingested" else "document.replace", r.file,
                            {"doc_id": r.doc_id, "chunks": r.chunks, "pages": r.pages,
                             "injections": len(r.injections)})

