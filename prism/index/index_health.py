"""Is a workspace's vector index on disk whole? Checked when the workspace is opened (local Chroma files only), so a
damaged index is reported by name with its repair instead of failing inside Chroma ("Error loading hnsw index") or,
worse, silently returning other passages (a data file cut short).

chromadb 1.5.9 keeps, under ``PRISM_HOME/chroma``, one sqlite database (``chroma.sqlite3``: the collections with
their vector width, their segments, and ``max_seq_id``: how far each segment has been written) and one folder per
collection's vector segment, named by the segment's id, holding an hnswlib index (Malkov & Yashunin, 2018) as
chromadb's fork saves it: ``header.bin`` (100 bytes: a format version, then hnswlib's header fields),
``data_level0.bin`` (one record of ``size_data_per_element`` bytes per vector: links, the vector, its label),
``length.bin`` (4 bytes per vector), ``link_lists.bin`` and, once vectors are flushed, ``index_metadata.pickle``
(never unpickled here). A collection of fewer vectors than its ``sync_threshold`` (1,000) keeps them in the sqlite
log until the next flush.

The checks (:func:`damage`), against the header and what sqlite says: the format version is 1; the header's own
sizes agree (``size_data_per_element = offsetData + 4 × width + 8``, ``offsetData = 4 + 4 × maxM0``, ``maxM0 = 2M``)
and match the collection's width; no more vectors than capacity, nor than were ever written; each file holds at
least the header's count of records and at most its capacity; the files are there. A finding is checked again twice
(0.3 s apart) before it counts, in case another process was flushing the index at that moment. A workspace whose
rebuild (:mod:`prism.ingestion.rebuild`) stopped part-way keeps its marker file and is reported too.
"""

from __future__ import annotations

import logging
import re
import shutil
import sqlite3
import struct
from pathlib import Path
from urllib.parse import quote

from tenacity import RetryCallState, Retrying, retry_if_result, stop_after_attempt, wait_fixed

from prism.errors import IndexDamagedError

logger = logging.getLogger(__name__)

HEADER = struct.Struct("<iQQQQQQiIQQQdQ")
"""``header.bin``: persistence version (int32), offsetLevel0, max_elements, cur_element_count,
size_data_per_element, label_offset, offsetData (size_t), maxlevel (int32), enterpoint_node (uint32), maxM, maxM0,
M (size_t), mult (double), ef_construction (size_t) — 100 bytes, little-endian."""
REBUILD_MARKER = "rebuild.json"
"""In a workspace's folder while its vectors are being rebuilt; left behind by a rebuild that stopped."""
_SEGMENT_ID = re.compile(r"[0-9a-fA-F-]{36}")


def vector_segment(chroma_dir: Path, collection: str) -> tuple[str, int | None, int | None] | None:
    """``(segment id, vector width, sequence number written so far)`` of ``collection``'s vector segment, read from
    ``chroma.sqlite3`` (read-only), or ``None`` when there is no such collection (a new workspace) or no database.
    Width and sequence are ``None`` while nothing is recorded.

    Raises:
        sqlite3.Error: the database cannot be read.
    """
    db = chroma_dir / "chroma.sqlite3"
    if not db.is_file():
        return None
    con = sqlite3.connect(f"file:{quote(str(db))}?mode=ro", uri=True, timeout=5)
    try:
        row = con.execute("SELECT s.id, c.dimension FROM collections c JOIN segments s ON s.collection = c.id "
                          "WHERE c.name = ? AND s.scope = 'VECTOR'", (collection,)).fetchone()
        if row is None:
            return None
        seq = con.execute("SELECT seq_id FROM max_seq_id WHERE segment_id = ?", (row[0],)).fetchone()
    finally:
        con.close()
    written = seq[0] if seq else None
    if isinstance(written, bytes):  # older databases keep it as big-endian bytes
        written = int.from_bytes(written, "big")
    return str(row[0]), (int(row[1]) if row[1] is not None else None), (int(written) if written is not None else None)


def damage(chroma_dir: Path, collection: str) -> str | None:
    """What is wrong with ``collection``'s persisted vector index, in words (``"data_level0.bin holds 1000 of the
    2000 vectors its header counts (the file was cut short)"``), or ``None`` when it is whole or not on disk yet.
    See the module docstring for the checks; a database that cannot be read is left to Chroma (``None``, logged)."""
    try:
        segment = vector_segment(chroma_dir, collection)
    except sqlite3.Error as exc:
        logger.warning("collection %s: Chroma's database could not be read to check its index (%s)", collection, exc)
        return None
    if segment is None or not _SEGMENT_ID.fullmatch(segment[0]):
        return None
    segment_id, width, written = segment
    folder = chroma_dir / segment_id
    if not (folder / "header.bin").is_file():
        return f"its index folder {folder.name} or its header.bin is missing" if written else None
    raw = (folder / "header.bin").read_bytes()
    if len(raw) != HEADER.size:
        return f"header.bin holds {len(raw)} bytes instead of {HEADER.size}"
    version, _, capacity, count, record, label_at, data_at, level, entry, max_m, max_m0, m, _, _ = HEADER.unpack(raw)
    if version != 1:
        return f"header.bin is unreadable (format version {version}; zeroed or overwritten)"
    if m <= 0 or max_m != m or max_m0 != 2 * m or data_at != 4 + 4 * max_m0 or label_at != record - 8:
        return "header.bin is inconsistent (its sizes do not agree with each other)"
    if width is not None and record != data_at + 4 * width + 8:
        return f"header.bin describes vectors of another width than the collection's {width}"
    if count > capacity or (count and not (0 <= level < 64 and entry < count)):
        return f"header.bin counts {count} vectors in a capacity of {capacity}, or points at no vector"
    if written is not None and count > written:
        return f"header.bin counts {count} vectors but only {written} were ever written"
    return _files(folder, count, capacity, record)


def _files(folder: Path, count: int, capacity: int, record: int) -> str | None:
    """What is wrong with the index's files given the header's count, capacity and record size, or ``None``."""
    for name, size in (("data_level0.bin", record), ("length.bin", 4)):
        path = folder / name
        if not path.is_file():
            return f"{name} is missing"
        have = path.stat().st_size
        if have < count * size:
            return f"{name} holds {have // size} of the {count} vectors its header counts (the file was cut short)"
        if have > max(capacity, count) * size or have % size:
            return f"{name} has {have} bytes, which no index of {count} vectors has"
    if not (folder / "link_lists.bin").is_file():
        return "link_lists.bin is missing"
    if count and not (folder / "index_metadata.pickle").is_file():
        return "index_metadata.pickle (which vector is which chunk) is missing"
    return None



def _last_finding(state: RetryCallState) -> str | None:
    """The damage the last of the repeated checks found (tenacity's callback after the last attempt)."""
    return state.outcome.result() if state.outcome is not None else None

def check_vector_index(chroma_dir: Path, workspace_dir: Path, collection: str, workspace: str) -> None:
    """Raise when the workspace's vector index is damaged (:func:`damage`, confirmed twice) or its rebuild stopped
    part-way (:data:`REBUILD_MARKER`).

    Raises:
        IndexDamagedError: naming the workspace, what is wrong, that its documents are safe, and the command that
            rebuilds the index from the stored chunks.
    """
    if (workspace_dir / REBUILD_MARKER).exists():
        found: str | None = "a rebuild of its vectors is running or stopped before it finished"
    else:
        found = Retrying(stop=stop_after_attempt(3), wait=wait_fixed(0.3), retry=retry_if_result(bool),
                         retry_error_callback=_last_finding)(damage, chroma_dir, collection)
    if found:
        logger.error("workspace %s: vector index damaged: %s", workspace, found)
        raise IndexDamagedError(damaged_message(workspace, found))


def damaged_message(workspace: str, what: str) -> str:
    """The message of a damaged index: which workspace, what, that nothing is lost, and how to rebuild it."""
    return (f"The vector index of workspace '{workspace}' is damaged: {what}. Its documents and their chunks are "
            f"safe, but searching the index would fail or return the wrong passages, so it is not used. Rebuild it "
            f"from the stored chunks: python -m prism reindex --from-chunks --workspace '{workspace}' (or the "
            f"Reindex button on the Workspaces page).")


def segment_folder(chroma_dir: Path, collection: str) -> Path | None:
    """The folder of ``collection``'s vector segment (it may not exist yet), or ``None`` when there is no such
    collection or the database cannot be read."""
    try:
        segment = vector_segment(chroma_dir, collection)
    except sqlite3.Error:
        return None
    return chroma_dir / segment[0] if segment is not None and _SEGMENT_ID.fullmatch(segment[0]) else None


def remove_orphan(chroma_dir: Path, folder: Path | None) -> None:
    """Remove a dropped collection's segment folder that chromadb left behind (it does, when its index was
    damaged), once ``chroma.sqlite3`` no longer names the segment."""
    if folder is None or not folder.is_dir():
        return
    try:
        con = sqlite3.connect(f"file:{quote(str(chroma_dir / 'chroma.sqlite3'))}?mode=ro", uri=True, timeout=5)
        try:
            named = con.execute("SELECT 1 FROM segments WHERE id = ?", (folder.name,)).fetchone() is not None
        finally:
            con.close()
    except sqlite3.Error as exc:
        logger.warning("segment folder %s kept: Chroma's database could not be read (%s)", folder.name, exc)
        return
    if not named:
        shutil.rmtree(folder, ignore_errors=True)
        logger.info("removed the folder of dropped segment %s", folder.name)
