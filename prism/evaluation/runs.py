"""Versioned evaluation runs: one JSON file per run under ``<eval_dir>/runs/``, listed in ``<eval_dir>/index.json``.

A run file is named ``<prism version>_<UTC time YYYYMMDDTHHMMSSZ>[_<variant>].json`` (the variant suffix only for
the runs of an ablation group; ``-2``, ``-3`` … are appended if a name is taken) and holds :data:`RUN_KEYS`.
Run files are written atomically (temp file + ``os.replace``). ``index.json`` (``{"version": 1, "runs":
[entry, ...]}``, oldest first) is updated under a file lock (``<eval_dir>/.index.lock``) and written atomically, so
concurrent runs never lose each other's entries and a reader never sees half a file.

Nothing secret is ever written: :func:`settings_snapshot` drops every ``SecretStr`` field (API keys).
"""

from __future__ import annotations

import builtins
import json
import logging
import os
import platform
import subprocess
from collections.abc import Iterable
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from filelock import FileLock, Timeout
from pydantic import SecretStr

from prism.config import PROJECT_ROOT, Settings
from prism.errors import PrismError
from prism.evaluation.metrics import METRICS
from prism.fsutil import atomic_write_json

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1
RUN_KEYS: tuple[str, ...] = (
    "schema", "id", "group", "variant", "version", "tag", "created_at", "git_commit", "dataset", "workspace",
    "options", "config", "environment", "metrics", "metrics_by_type", "counts", "latency_ms", "skipped", "queries",
    "chunk_texts",
)
"""Top-level keys of every run file."""

INDEX_METRICS: tuple[str, ...] = tuple(m.name for m in METRICS)
"""Metrics copied into ``index.json`` entries (those a run has): every registered metric
(:data:`prism.evaluation.metrics.METRICS`)."""

PACKAGES: tuple[str, ...] = (
    "torch", "sentence-transformers", "transformers", "chromadb", "rank-bm25", "PyStemmer", "numpy", "scipy",
    "llama-index-core", "pypdf", "ranx", "rapidfuzz", "pydantic", "streamlit", "plotly", "pandas",
)


# --- provenance -------------------------------------------------------------------------------------------------
def git_commit(cwd: Path = PROJECT_ROOT) -> str:
    """``git rev-parse HEAD`` of the repository, with ``+dirty`` when tracked files are modified; ``"unknown"``
    when git or the repository is unavailable."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=cwd, capture_output=True, text=True, timeout=10)
        if head.returncode != 0:
            return "unknown"
        status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=cwd,
                                capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    commit = head.stdout.strip() or "unknown"
    return commit + ("+dirty" if status.returncode == 0 and status.stdout.strip() else "")


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def environment(packages: Iterable[str] = PACKAGES) -> dict[str, Any]:
    """Python, OS, CPU and the versions of the packages that shape results (``None`` when not installed)."""
    versions: dict[str, str | None] = {}
    for name in packages:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    affinity: int | None
    try:
        affinity = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        affinity = os.cpu_count()
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu": _cpu_model(),
        "cpu_count": os.cpu_count(),
        "cpus_usable": affinity,
        "packages": versions,
    }


def settings_snapshot(settings: Settings) -> dict[str, Any]:
    """Every setting as JSON values, without secrets: ``SecretStr`` fields (API keys) are left out entirely."""
    secret_fields = {name for name, value in settings if isinstance(value, SecretStr)}
    secret_fields |= {name for name in type(settings).model_fields if name.endswith("_api_key")}
    return settings.model_dump(mode="json", exclude=secret_fields)


def utc_stamp(moment: datetime) -> str:
    """``YYYYMMDDTHHMMSSZ`` of a UTC time."""
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


# --- the store --------------------------------------------------------------------------------------------------
def index_entry(run: dict[str, Any], file_name: str) -> dict[str, Any]:
    """The ``index.json`` row of a run: identity, dataset, variant and headline metrics."""
    metrics = run.get("metrics", {})
    dataset = run.get("dataset", {})
    return {
        "id": run["id"],
        "file": f"runs/{file_name}",
        "group": run.get("group"),
        "variant": run.get("variant"),
        "version": run.get("version"),
        "tag": run.get("tag"),
        "created_at": run.get("created_at"),
        "git_commit": run.get("git_commit"),
        "dataset": dataset.get("name"),
        "format": dataset.get("format"),
        "split": dataset.get("split", ""),
        "content_hash": dataset.get("content_hash"),
        "queries": run.get("counts", {}).get("queries"),
        "metrics": {k: metrics[k] for k in INDEX_METRICS if metrics.get(k) is not None},
    }


class RunStore:
    """Run files and their index under one folder (``Settings.eval_dir``).

    Args:
        directory: the evaluation folder; ``runs/`` and ``index.json`` live inside it.
        lock_timeout_s: longest wait for the index lock, seconds.
    """

    def __init__(self, directory: Path, lock_timeout_s: float = 60.0):
        self.dir = Path(directory)
        self.runs_dir = self.dir / "runs"
        self.index_path = self.dir / "index.json"
        self._lock_path = self.dir / ".index.lock"
        self._timeout = lock_timeout_s

    def _lock(self) -> FileLock:
        self.dir.mkdir(parents=True, exist_ok=True)
        return FileLock(str(self._lock_path), timeout=self._timeout)

    def new_id(self, version: str, moment: datetime, variant: str | None = None) -> str:
        """A run id (file stem) not yet taken: ``<version>_<UTC stamp>[_<variant>][-n]``."""
        base = f"{version}_{utc_stamp(moment)}" + (f"_{variant}" if variant else "")
        base = "".join(ch if ch.isalnum() or ch in "._+-" else "-" for ch in base)
        candidate, n = base, 1
        while (self.runs_dir / f"{candidate}.json").exists():
            n += 1
            candidate = f"{base}-{n}"
        return candidate

    def write(self, run: dict[str, Any]) -> Path:
        """Write one run file and add it to the index (atomically, under the lock).

        Raises:
            PrismError: the run lacks a key of :data:`RUN_KEYS`, or the index lock cannot be had.
        """
        missing = [k for k in RUN_KEYS if k not in run]
        if missing:
            raise PrismError(f"A run record lacks {', '.join(missing)}; it was not written.")
        try:
            with self._lock():
                path = self.runs_dir / f"{run['id']}.json"
                atomic_write_json(path, run, compact=True)
                entries = [e for e in self._read_index() if e.get("id") != run["id"]]
                entries.append(index_entry(run, path.name))
                atomic_write_json(self.index_path, {"version": SCHEMA_VERSION, "runs": entries})
        except Timeout as exc:
            raise PrismError(
                f"The evaluation index {self.index_path} is locked by another run; try again when it finishes."
            ) from exc
        logger.info("wrote evaluation run %s", path.name)
        return path

    def _read_index(self) -> list[dict[str, Any]]:
        if not self.index_path.exists():
            return []
        try:
            data = json.loads(self.index_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            logger.warning("evaluation index unreadable (%s); rebuilding it from the run files", exc)
            return self._scan()
        return list(data.get("runs", []))

    def _scan(self) -> list[dict[str, Any]]:
        entries = []
        for path in sorted(self.runs_dir.glob("*.json")):
            try:
                run = json.loads(path.read_text(encoding="utf-8"))
                entries.append(index_entry(run, path.name))
            except (OSError, json.JSONDecodeError, KeyError) as exc:
                logger.warning("skipping unreadable run file %s: %s", path.name, exc)
        return sorted(entries, key=lambda e: e.get("created_at") or "")

    def list(self) -> list[dict[str, Any]]:
        """Index entries, oldest first (``[]`` when there are no runs)."""
        return self._read_index()

    def rebuild_index(self) -> builtins.list[dict[str, Any]]:  # `list` here is the method above
        """Re-create ``index.json`` from the run files (e.g. after files were copied in by hand)."""
        with self._lock():
            entries = self._scan()
            atomic_write_json(self.index_path, {"version": SCHEMA_VERSION, "runs": entries})
        return entries

    def load(self, run_id: str) -> dict[str, Any]:
        """The full run record.

        Raises:
            PrismError: no such run, or its file is unreadable.
        """
        path = self.runs_dir / f"{run_id}.json"
        if not path.is_file() or path.parent != self.runs_dir:
            raise PrismError(f"There is no evaluation run '{run_id}' in {self.runs_dir}.")
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise PrismError(f"The run file {path.name} is unreadable: {exc}.") from exc
