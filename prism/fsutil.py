"""Atomic file writes: the one place Prism replaces a file so readers never see it half written."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any


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
