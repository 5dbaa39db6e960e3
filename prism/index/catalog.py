"""The list of workspaces under ``PRISM_HOME`` (``workspaces.json``): display names ↔ ids and Chroma collection
names, create, rename and delete. Each workspace's own files are :class:`prism.index.workspaces.Workspace`.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import shutil
import unicodedata
from collections.abc import Callable
from pathlib import Path

from filelock import FileLock

from prism.errors import InvalidWorkspaceNameError, StoreError, WorkspaceExistsError, WorkspaceNotFoundError
from prism.fsutil import atomic_write_json
from prism.index.workspace_locks import CATALOG_FILE
from prism.index.workspaces import FORMAT_VERSION, Workspace, now_iso
from prism.types import WorkspaceInfo

logger = logging.getLogger(__name__)

MAX_WORKSPACE_NAME = 1000


def clean_workspace_name(name: str) -> str:
    """The display name as stored: NFC, white space folded to single spaces, other control characters removed.

    Raises:
        InvalidWorkspaceNameError: empty after cleaning, or longer than 1000 characters.
    """
    text = unicodedata.normalize("NFC", str(name))
    text = "".join(" " if ch.isspace() else ch for ch in text if ch.isspace() or unicodedata.category(ch)[0] != "C")
    text = " ".join(text.split())
    if not text:
        raise InvalidWorkspaceNameError("A workspace name cannot be empty.")
    if len(text) > MAX_WORKSPACE_NAME:
        raise InvalidWorkspaceNameError(
            f"A workspace name can have at most {MAX_WORKSPACE_NAME} characters (this one has {len(text)})."
        )
    return text


def collection_name_for(name: str, unique: str) -> str:
    """A valid Chroma collection name for a display name.

    Chroma requires 3–512 characters of ``[a-zA-Z0-9._-]``, starting and ending alphanumeric, no ``..``, not an IPv4
    address. The result is ``ws-<ascii slug, ≤ 40>-<unique>`` with ``unique`` lower-case hex, so it always satisfies
    those rules (it contains letters and no dots) and is unique whatever the display name (spaces, ₹, 600
    characters, ``a..b``, ``10.0.0.1``).
    """
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name).strip("-")[:40].strip("-")
    return f"ws-{slug}-{unique}" if slug else f"ws-{unique}"


class WorkspaceCatalog:
    """The list of workspaces under ``home`` (``workspaces.json``), guarded by a file lock."""

    def __init__(self, home: Path, lock_timeout_s: float = 600.0):
        self.home = Path(home)
        self.home.mkdir(parents=True, exist_ok=True)
        self._path = self.home / CATALOG_FILE
        self._lock = FileLock(str(self.home / ".workspaces.lock"), timeout=lock_timeout_s)

    def _read(self) -> list[WorkspaceInfo]:
        if not self._path.exists():
            return []
        try:
            data = json.loads(self._path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise StoreError(f"The workspace list {self._path} is unreadable: {exc}") from exc
        return [WorkspaceInfo(**w) for w in data.get("workspaces", [])]

    def _write(self, items: list[WorkspaceInfo]) -> None:
        atomic_write_json(self._path, {"version": FORMAT_VERSION, "workspaces": [w.to_dict() for w in items]})

    def folder(self, info: WorkspaceInfo) -> Path:
        """The folder of a workspace's files (its :attr:`Workspace.dir`)."""
        return self.home / "workspaces" / info.id

    def list(self) -> list[WorkspaceInfo]:
        """All workspaces, in creation order."""
        return self._read()

    def find(self, name: str) -> WorkspaceInfo | None:
        """The workspace with this display name (case-insensitive), or ``None``."""
        key = clean_workspace_name(name).casefold()
        return next((w for w in self._read() if w.name.casefold() == key), None)

    def get(self, name: str) -> WorkspaceInfo:
        """The workspace with this display name.

        Raises:
            WorkspaceNotFoundError: there is none.
        """
        info = self.find(name)
        if info is None:
            raise WorkspaceNotFoundError(f"There is no workspace named '{name}'.")
        return info

    def create(self, name: str, exist_ok: bool = False) -> WorkspaceInfo:
        """Create a workspace.

        Raises:
            WorkspaceExistsError: the name is taken (unless ``exist_ok``).
            InvalidWorkspaceNameError: the name is unusable.
        """
        clean = clean_workspace_name(name)
        with self._lock:
            items = self._read()
            existing = next((w for w in items if w.name.casefold() == clean.casefold()), None)
            if existing is not None:
                if exist_ok:
                    return existing
                raise WorkspaceExistsError(f"A workspace named '{clean}' already exists.")
            taken = {w.collection for w in items} | {w.id for w in items}
            while True:
                unique = secrets.token_hex(4)
                info = WorkspaceInfo(unique, clean, collection_name_for(clean, unique), now_iso())
                if info.collection not in taken and info.id not in taken:
                    break
            self.folder(info).mkdir(parents=True, exist_ok=True)
            self._write([*items, info])
        logger.info("created workspace %s (collection %s)", info.id, info.collection)
        return info

    def rename(self, old: str, new: str) -> WorkspaceInfo:
        """Rename a workspace (its collection and files keep their names).

        Raises:
            WorkspaceNotFoundError, WorkspaceExistsError, InvalidWorkspaceNameError.
        """
        clean = clean_workspace_name(new)
        with self._lock:
            items = self._read()
            info = next((w for w in items if w.name.casefold() == clean_workspace_name(old).casefold()), None)
            if info is None:
                raise WorkspaceNotFoundError(f"There is no workspace named '{old}'.")
            if any(w.name.casefold() == clean.casefold() and w.id != info.id for w in items):
                raise WorkspaceExistsError(f"A workspace named '{clean}' already exists.")
            renamed = WorkspaceInfo(info.id, clean, info.collection, info.created_at)
            self._write([renamed if w.id == info.id else w for w in items])
        return renamed

    def remove(self, name: str, drop_collection: Callable[[WorkspaceInfo], None]) -> WorkspaceInfo:
        """Delete a workspace: its collection (through ``drop_collection``), its files and its entry.

        Waits for the workspace's write lock (a document being committed, in any process) and its conversation lock;
        writers that come after find the workspace deleted (:mod:`prism.index.workspace_locks`).

        Raises:
            WorkspaceNotFoundError: there is none.
            StoreError: a write kept the workspace busy for longer than the lock timeout.
        """
        with self._lock:
            items = self._read()
            info = next((w for w in items if w.name.casefold() == clean_workspace_name(name).casefold()), None)
            if info is None:
                raise WorkspaceNotFoundError(f"There is no workspace named '{name}'.")
            workspace = Workspace(self.home, info, self._lock.timeout)
            with workspace.write_lock(), workspace.conversation_lock():
                drop_collection(info)
                self._write([w for w in items if w.id != info.id])
                shutil.rmtree(self.folder(info), ignore_errors=True)
        logger.info("deleted workspace %s", info.id)
        return info
