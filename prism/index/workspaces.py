"""Workspaces: display names ↔ collection names, per-workspace document registries, write locks and recovery.

On-disk layout under ``PRISM_HOME``::

    workspaces.json                 {"version": 1, "workspaces": [{"id", "name", "collection", "created_at"}]}
    workspaces/<id>/registry.json   {"version": 1, "revision": int, "documents": {doc_id: DocumentRecord}}
    workspaces/<id>/originals/<doc_id>      the uploaded bytes, content-addressed
    workspaces/<id>/chunks/<doc_id>.jsonl   chunk ids and texts (the BM25 index's input)
    workspaces/<id>/pending/<doc_id>.json   write-ahead markers of documents being added or removed
    chroma/                         the Chroma files (local mode)

A document is visible only once its record is in ``registry.json`` (written atomically with ``os.replace``).
Writes to one workspace are serialised by a file lock, so two sessions or processes may ingest at once. A process
killed mid-document leaves a pending marker; :meth:`Workspace.recover` (run whenever a workspace is opened for
writing) purges what the marker names from Chroma and the files, so the registry and Chroma agree again.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import shutil
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout

from prism.errors import (
    DocumentNotFoundError,
    InvalidWorkspaceNameError,
    StoreError,
    WorkspaceExistsError,
    WorkspaceNotFoundError,
)
from prism.fsutil import atomic_write, atomic_write_json
from prism.types import DocumentRecord, WorkspaceInfo

logger = logging.getLogger(__name__)

MAX_WORKSPACE_NAME = 1000
_FORMAT_VERSION = 1


def now_iso() -> str:
    """Current UTC time, ISO-8601 with seconds."""
    return datetime.now(UTC).isoformat(timespec="seconds")


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
        self._path = self.home / "workspaces.json"
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
        atomic_write_json(self._path, {"version": _FORMAT_VERSION, "workspaces": [w.to_dict() for w in items]})

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

        Raises:
            WorkspaceNotFoundError: there is none.
        """
        with self._lock:
            items = self._read()
            info = next((w for w in items if w.name.casefold() == clean_workspace_name(name).casefold()), None)
            if info is None:
                raise WorkspaceNotFoundError(f"There is no workspace named '{name}'.")
            drop_collection(info)
            self._write([w for w in items if w.id != info.id])
            shutil.rmtree(self.folder(info), ignore_errors=True)
        logger.info("deleted workspace %s", info.id)
        return info


class Workspace:
    """One workspace's files: document registry, originals, chunk texts, pending markers and its write lock.

    Readers call :meth:`documents` (a consistent snapshot: the registry file is replaced atomically). Writers hold
    :meth:`write_lock` around every change.
    """

    def __init__(self, home: Path, info: WorkspaceInfo, lock_timeout_s: float = 600.0):
        self.info = info
        self.dir = Path(home) / "workspaces" / info.id
        for sub in ("originals", "chunks", "pending"):
            (self.dir / sub).mkdir(parents=True, exist_ok=True)
        self._registry_path = self.dir / "registry.json"
        self._lock = FileLock(str(self.dir / ".write.lock"), timeout=lock_timeout_s)
        self._cache: tuple[tuple[int, int, int], dict[str, Any]] | None = None
        self._docs_cache: tuple[dict[str, Any], tuple[DocumentRecord, ...]] | None = None

    @property
    def name(self) -> str:
        return self.info.name

    @contextmanager
    def write_lock(self) -> Iterator[None]:
        """Hold the workspace's write lock (blocks other threads and processes).

        Raises:
            StoreError: not acquired within the timeout.
        """
        try:
            with self._lock:
                yield
        except Timeout as exc:
            raise StoreError(f"Workspace '{self.name}' is busy with another write; try again shortly.") from exc

    # --- registry -------------------------------------------------------------------------------------------
    def _read_registry(self, fresh: bool = False) -> dict[str, Any]:
        """The registry as a dict. Cached by the file's (inode, mtime, size): every commit replaces the file, so a
        reader sees each committed state once; ``fresh=True`` (writers, who mutate the result) bypasses the cache."""
        try:
            st = self._registry_path.stat()
        except FileNotFoundError:
            return {"version": _FORMAT_VERSION, "revision": 0, "documents": {}}
        key = (st.st_ino, st.st_mtime_ns, st.st_size)
        cached = self._cache
        if not fresh and cached is not None and cached[0] == key:
            return cached[1]
        try:
            data = json.loads(self._registry_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise StoreError(f"The document registry of workspace '{self.name}' is unreadable: {exc}") from exc
        if not fresh:
            self._cache = (key, data)
        return data

    def documents(self) -> list[DocumentRecord]:
        """Committed documents, in ingestion order. The records are shared between readers of the same committed
        state: treat them as read-only (writers go through :meth:`commit` / :meth:`update_record`)."""
        reg = self._read_registry()
        cached = self._docs_cache
        if cached is None or cached[0] is not reg:  # one list per committed state, shared by readers
            cached = (reg, tuple(DocumentRecord(**d) for d in reg["documents"].values()))
            self._docs_cache = cached
        return list(cached[1])

    def revision(self) -> int:
        """A counter bumped by every committed change (for cache invalidation)."""
        return int(self._read_registry().get("revision", 0))

    def fingerprint(self) -> str:
        """Identifies the committed set of chunks: ``"<revision>:<n_documents>"``. Every add, replace or delete bumps
        the revision (under the write lock, from the file itself), so equal fingerprints mean equal chunk sets."""
        reg = self._read_registry()
        return f"{int(reg.get('revision', 0))}:{len(reg['documents'])}"

    def find(self, doc_id: str) -> DocumentRecord | None:
        """The committed document with this id, or ``None``."""
        d = self._read_registry()["documents"].get(doc_id)
        return DocumentRecord(**d) if d else None

    def find_by_source(self, source: str) -> DocumentRecord | None:
        """The committed document with this display file name, or ``None``."""
        return next((d for d in self.documents() if d.source == source), None)

    def get_by_source(self, source: str) -> DocumentRecord:
        """The committed document with this display file name; ``DocumentNotFoundError`` when there is none."""
        record = self.find_by_source(source)
        if record is not None:
            return record
        raise DocumentNotFoundError(f"There is no document named '{source}' in workspace '{self.name}'.")

    def commit(
        self,
        add: DocumentRecord | Sequence[DocumentRecord] | None = None,
        remove: str | Sequence[str] | None = None,
    ) -> None:
        """Atomically add records and/or remove doc ids in one registry write (call under :meth:`write_lock`)."""
        adds = [add] if isinstance(add, DocumentRecord) else list(add or [])
        removes = [remove] if isinstance(remove, str) else list(remove or [])
        reg = self._read_registry(fresh=True)
        for doc_id in removes:
            reg["documents"].pop(doc_id, None)
        for record in adds:
            reg["documents"][record.doc_id] = record.to_dict()
        reg["revision"] = int(reg.get("revision", 0)) + 1
        atomic_write_json(self._registry_path, reg)

    def update_record(self, doc_id: str, **fields: Any) -> None:
        """Change fields of a committed record (e.g. its briefing) under the write lock.

        Raises:
            DocumentNotFoundError: no such document.
        """
        with self.write_lock():
            reg = self._read_registry(fresh=True)
            if doc_id not in reg["documents"]:
                raise DocumentNotFoundError(f"Document {doc_id[:12]} is not in workspace '{self.name}'.")
            reg["documents"][doc_id].update(fields)
            atomic_write_json(self._registry_path, reg)

    # --- files ----------------------------------------------------------------------------------------------
    def original_path(self, doc_id: str) -> Path:
        """Where the original bytes of ``doc_id`` are kept (the name is the hash, never the file name)."""
        if not re.fullmatch(r"[0-9a-f]{64}", doc_id):
            raise ValueError(f"not a document id: {doc_id!r}")
        return self.dir / "originals" / doc_id

    def chunks_path(self, doc_id: str) -> Path:
        """Where the chunk texts of ``doc_id`` are kept (JSON lines ``{"chunk_id", "text", "index_text"}``)."""
        return self.dir / "chunks" / f"{self.original_path(doc_id).name}.jsonl"

    def write_chunks(self, doc_id: str, rows: list[dict[str, Any]]) -> None:
        """Write a document's chunk rows atomically."""
        payload = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows).encode("utf-8")
        atomic_write(self.chunks_path(doc_id), lambda fh: fh.write(payload))

    def read_chunks(self, doc_id: str) -> list[dict[str, Any]]:
        """The chunk rows of ``doc_id`` (empty when missing)."""
        path = self.chunks_path(doc_id)
        if not path.exists():
            return []
        with path.open(encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]

    def purge_files(self, doc_id: str) -> None:
        """Remove the original and chunk rows of ``doc_id``."""
        self.original_path(doc_id).unlink(missing_ok=True)
        self.chunks_path(doc_id).unlink(missing_ok=True)

    # --- write-ahead markers --------------------------------------------------------------------------------
    def mark_pending(
        self, doc_ids: str | Sequence[str], replaces: Sequence[str] = (), action: str = "add"
    ) -> Path:
        """Record, before touching any store, that ``doc_ids`` are being added (``action="add"``, replacing the
        documents ``replaces``) or removed (``"remove"``). Returns the marker path; unlink it when done."""
        ids = [doc_ids] if isinstance(doc_ids, str) else list(doc_ids)
        name = self.original_path(ids[0]).name if len(ids) == 1 else f"batch-{secrets.token_hex(8)}"
        path = self.dir / "pending" / f"{name}.json"
        atomic_write_json(
            path, {"action": action, "doc_ids": ids, "replaces": list(replaces), "at": now_iso()}
        )
        return path

    def pending(self) -> list[dict[str, Any]]:
        """Markers left by interrupted writes."""
        out = []
        for path in sorted((self.dir / "pending").glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                data = {"action": "add", "doc_ids": [], "replaces": []}  # torn marker: nothing was written yet
            data["_path"] = str(path)
            out.append(data)
        return out

    def recover(self, delete_vectors: Callable[[str], None]) -> int:
        """Finish or undo interrupted writes so registry, files and vectors agree.

        For each pending marker: every named document that is not committed is purged (vectors via
        ``delete_vectors``, files) — an ``add`` that never committed, or a ``remove`` that did; every replaced
        document that is no longer committed is purged too. Call under :meth:`write_lock`.

        Returns:
            The number of markers resolved.
        """
        markers = self.pending()
        for m in markers:
            ids = m.get("doc_ids") or ([m["doc_id"]] if m.get("doc_id") else [])
            for doc_id in [*ids, *(m.get("replaces") or [])]:
                if self.find(doc_id) is None:
                    delete_vectors(doc_id)
                    self.purge_files(doc_id)
            Path(m["_path"]).unlink(missing_ok=True)
        if markers:
            logger.warning("workspace %s: recovered %d interrupted write(s)", self.info.id, len(markers))
        return len(markers)
