"""File helpers every layer needs: atomic writes (the one place Prism replaces a file, so readers never see it half
written), a file's sha256, and safe, distinct display names for uploaded files.

A ground-floor module: it imports nothing from Prism."""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

MAX_NAME_CHARS = 255
_BIDI_CONTROLS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c")


def atomic_write(path: Path, write: Callable[[IO[bytes]], Any]) -> None:
    """Call ``write(binary_file)`` on a temp file beside ``path``, fsync it, then ``os.replace`` it onto ``path``.

    The folder is created when missing; the file gets mode 0644 (``mkstemp`` would leave 0600). On any error the
    temp file is removed and ``path`` is untouched.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, 0o644)
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_json(path: Path, data: Any, compact: bool = False) -> None:
    """Write ``data`` as UTF-8 JSON atomically (:func:`atomic_write`); ``compact`` drops indentation (large files)."""
    text = json.dumps(data, ensure_ascii=False, **({"separators": (",", ":")} if compact else {"indent": 1}))
    atomic_write(path, lambda fh: fh.write((text + "\n").encode("utf-8")))


def read_json_lines(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The JSON objects of a JSON Lines file (https://jsonlines.org), in file order, and how many non-blank lines
    were not a JSON object (a crash mid-write leaves a torn last line; such lines are skipped, the caller logs them).
    Undecodable bytes are replaced, so one bad byte costs one line, not the file.

    Returns:
        ``(objects, skipped)``; ``([], 0)`` when the file does not exist.

    Raises:
        OSError: the file exists but cannot be read.
    """
    try:
        raw = path.read_bytes().decode("utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return [], 0
    out: list[dict[str, Any]] = []
    skipped = 0
    for line in raw:
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            data = None
        if isinstance(data, dict):
            out.append(data)
        elif line.strip():
            skipped += 1
    return out, skipped


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes, read in 1 MiB blocks (memory stays flat for any size).

    Raises:
        OSError: the file cannot be read.
    """
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def sanitize_filename(name: str) -> str:
    """A safe display name for an uploaded file. Never used as a path by itself.

    Steps: drop control, surrogate and bidi-control characters (NUL included); take the last path component
    (split on both ``/`` and ``\\``); Unicode NFC; strip whitespace, leading dots and trailing dots; collapse runs of
    dots to one; cap at 255 characters keeping the extension (≤ 16 chars); ``"document"`` if nothing is left.

    Args:
        name: the name as uploaded, possibly hostile: ``"../../etc/passwd"``, ``"a\\x00b.pdf"``,
            ``"C:\\\\x\\\\y.txt"``.

    Returns:
        A non-empty name of at most 255 characters without path separators, control characters or ``..``,
        e.g. ``"passwd"``, ``"ab.pdf"``, ``"y.txt"``.
    """
    cleaned = "".join(
        ch for ch in str(name) if unicodedata.category(ch) not in ("Cc", "Cs") and ch not in _BIDI_CONTROLS
    )
    cleaned = re.split(r"[/\\]", cleaned)[-1]
    cleaned = unicodedata.normalize("NFC", cleaned).strip().lstrip(".").strip()
    cleaned = re.sub(r"\.{2,}", ".", cleaned).rstrip(". ")
    if len(cleaned) > MAX_NAME_CHARS:
        stem, dot, ext = cleaned.rpartition(".")
        if dot and stem and 0 < len(ext) <= 16:
            cleaned = stem[: MAX_NAME_CHARS - len(ext) - 1].rstrip() + "." + ext
        else:
            cleaned = cleaned[:MAX_NAME_CHARS].rstrip()
    return cleaned or "document"


def distinct_names(names: Sequence[str]) -> list[str]:
    """The names of one batch of uploads, made distinct: a name met again gets `` (2)``, `` (3)``, … before its
    extension (``annual_report.txt``, ``annual_report (2).txt``), skipping names the batch already holds; names are
    compared case-insensitively. Order and length are kept; already distinct names come back unchanged."""
    taken = {n.casefold() for n in names}
    seen: set[str] = set()
    out = []
    for name in names:
        if name.casefold() not in seen:
            seen.add(name.casefold())
            out.append(name)
            continue
        stem, dot, ext = name.rpartition(".")
        stem, ext = (stem, f".{ext}") if dot and stem and 0 < len(ext) <= 16 else (name, "")
        k = 2
        while (candidate := f"{stem} ({k}){ext}").casefold() in taken | seen:
            k += 1
        seen.add(candidate.casefold())
        out.append(candidate)
    return out
