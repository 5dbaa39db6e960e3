"""One workspace's files: its document registry, originals, chunk rows, write locks and recovery (the list of
workspaces is :mod:`prism.index.catalog`).

On-disk layout under ``PRISM_HOME``::

    workspaces.json                 {"version": 1, "workspaces": [{"id", "name", "collection", "created_at"}]}
    workspaces/<id>/registry.json   {"version": 1, "revision": int, "documents": {doc_id: DocumentRecord}}
    workspaces/<id>/originals/<doc_id>      the uploaded bytes, content-addressed
    workspaces/<id>/chunks/<doc_id>.jsonl   chunk ids and texts (the BM25 index's input)
    workspaces/<id>/pending/<doc_id>.json   write-ahead markers of documents being added or removed
    workspaces/<id>/conversations/<id>.json saved chats (:mod:`prism.answering.conversation_store`)
    chroma/                         the Chroma files (local mode)

A document is visible only once its record is in ``registry.json`` (written atomically with ``os.replace``).
Writes to one workspace are serialised by a file lock, so two sessions or processes may ingest at once. A process
killed mid-document leaves a pending marker; :meth:`Workspace.recover` (run whenever a workspace is opened for
writing) purges what the marker names from Chroma and the files, so the registry and Chroma agree again. Deleting a
workspace waits for its locks, so it never removes files under a write; a writer that finds its workspace deleted
stops with ``WorkspaceDeletedError`` and leaves nothing behind (:mod:`prism.index.workspace_locks`).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock

from prism.errors import DocumentNotFoundError, StoreError
from prism.fsutil import atomic_write, atomic_write_json
from prism.index.workspace_locks import check_alive, guarded
from prism.types import DocumentRecord, WorkspaceInfo

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1

CHUNK_ROWS_CACHE_BYTES = 48 * 1024 * 1024
"""How many bytes of chunk-row files (JSON lines) one workspace keeps parsed for :meth:`Workspace.chunk_rows`, the
least recently read dropped first: 48 MiB of JSON is about ten of FinanceBench's largest 10-Ks (4.5 MB of rows each)
and some 190 MB parsed (a file's rows take 3.9 times its size in memory)."""


def _file_state(path: Path) -> tuple[int, int, int] | None:
    """A file's (inode, mtime in ns, size), which every atomic replace changes; ``None`` when it is missing."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def now_iso() -> str:
    """Current UTC time, ISO-8601 with seconds."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class Workspace:
    """One workspace's files: document registry, originals, chunk texts, pending markers and its write lock.

    Readers call :meth:`documents` (a consistent snapshot: the registry file is replaced atomically). Writers hold
    :meth:`write_lock` around every change.
    """

    def __init__(self, home: Path, info: WorkspaceInfo, lock_timeout_s: float = 600.0):
        self.info = info
        self.home = Path(home)
        self.dir = self.home / "workspaces" / info.id
        if self.dir.is_dir():  # never re-create the folder of a workspace deleted meanwhile
            for sub in ("originals", "chunks", "pending"):
                (self.dir / sub).mkdir(exist_ok=True)
        self._registry_path = self.dir / "registry.json"
        self._lock = FileLock(str(self.dir / ".write.lock"), timeout=lock_timeout_s)
        self._conversation_lock = FileLock(str(self.dir / "conversations" / ".lock"), timeout=lock_timeout_s)
        self._cache: tuple[tuple[int, int, int], dict[str, Any]] | None = None
        self._docs_cache: tuple[dict[str, Any], tuple[DocumentRecord, ...]] | None = None
        self._rows_cache: OrderedDict[str, tuple[tuple[int, int, int], tuple[Mapping[str, Any], ...]]] = OrderedDict()
        self._rows_lock = threading.Lock()

    @property
    def name(self) -> str:
        return self.info.name

    @contextmanager
    def write_lock(self) -> Iterator[None]:
        """Hold the workspace's write lock (blocks other threads and processes).

        Raises:
            WorkspaceDeletedError: the workspace was deleted (before or while waiting).
            StoreError: not acquired within the timeout.
        """
        with guarded(self._lock, self.home, self.info, self.dir,
                     f"Workspace '{self.name}' is busy with another write; try again shortly."):
            yield

    @contextmanager
    def conversation_lock(self) -> Iterator[None]:
        """Hold the lock of the workspace's saved conversations (other threads and processes wait).

        Raises:
            WorkspaceDeletedError: the workspace was deleted (before or while waiting).
            StoreError: not acquired within the timeout.
        """
        with guarded(self._conversation_lock, self.home, self.info, self.dir,
                     f"The conversations of workspace '{self.name}' are busy; try again shortly."):
            yield

    @property
    def conversations_dir(self) -> Path:
        """The folder of the workspace's saved conversations."""
        return self.dir / "conversations"

    def check_alive(self) -> None:
        """Raise ``WorkspaceDeletedError`` when the workspace has been deleted (by any session or process)."""
        check_alive(self.home, self.info)

    # --- registry -------------------------------------------------------------------------------------------
    def _read_registry(self, fresh: bool = False) -> dict[str, Any]:
        """The registry as a dict. Cached by the file's (inode, mtime, size): every commit replaces the file, so a
        reader sees each committed state once; ``fresh=True`` (writers, who mutate the result) bypasses the cache."""
        key = _file_state(self._registry_path)
        if key is None:
            return {"version": FORMAT_VERSION, "revision": 0, "documents": {}}
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
        return list(self.snapshot())

    def snapshot(self) -> tuple[DocumentRecord, ...]:
        """Committed documents, in ingestion order, as one tuple per committed state: the same object until the
        registry changes (any commit or record update), so callers may cache what they derive from it by identity."""
        reg = self._read_registry()
        cached = self._docs_cache
        if cached is None or cached[0] is not reg:  # one tuple per committed state, shared by readers
            cached = (reg, tuple(DocumentRecord(**d) for d in reg["documents"].values()))
            self._docs_cache = cached
        return cached[1]

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

    def chunk_rows(self, doc_id: str) -> tuple[Mapping[str, Any], ...]:
        """The chunk rows of ``doc_id`` as :meth:`read_chunks` gives them, shared between readers: treat them as
        read-only (answering reads a document's tables from them for every question, and parsing a 10-K's rows
        costs ~50 ms). Cached by the file's (inode, mtime, size), as the registry is (:meth:`write_chunks` replaces
        the file, so a reader sees each written state), at most :data:`CHUNK_ROWS_CACHE_BYTES` of files per
        workspace, least recently read dropped first; empty when the file is missing."""
        key = _file_state(self.chunks_path(doc_id))
        if key is None:
            return ()
        with self._rows_lock:
            hit = self._rows_cache.get(doc_id)
            if hit is not None and hit[0] == key:
                self._rows_cache.move_to_end(doc_id)
                return hit[1]
        rows = tuple(self.read_chunks(doc_id))
        with self._rows_lock:
            self._rows_cache[doc_id] = (key, rows)
            self._rows_cache.move_to_end(doc_id)
            total = sum(k[2] for k, _ in self._rows_cache.values())
            while total > CHUNK_ROWS_CACHE_BYTES and len(self._rows_cache) > 1:
                _, (old, _rows) = self._rows_cache.popitem(last=False)
                total -= old[2]
        return rows

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
