"""The sample workspace: built from ``settings.sample_dir/*.pdf`` on the first start, and finished on a later start
when a build stopped part-way.

A build records its state in ``PRISM_HOME/sample-workspace.json`` (:data:`STATE_FILE`): ``{"state": "building"}``
before it creates or adds anything, ``{"state": "complete"}`` only once every sample document is in the workspace.
At start (:meth:`SampleFacade.sample_build_needed`):

- ``complete``: nothing, ever again by itself: a sample document, or the whole workspace, that the analyst deleted
  stays deleted (the empty states and the Workspaces page offer to rebuild it: :meth:`SampleFacade.
  restore_sample_workspace`);
- ``building``: an earlier build stopped (its browser tab closed, its process killed): it is finished now; the
  documents already there are duplicates, recognised by their bytes before anything is parsed;
- no state, no workspace at all: the first start: build;
- no state but workspaces (a home from before this file existed): only a sample workspace without any document whose
  audit log records no deleted document is finished (what the first-start build of earlier versions left when its
  tab closed); anything else is left alone.

:class:`SampleBuild` runs a build on a thread of its own, so the build never depends on the session that started it.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from prism.config import Settings
from prism.errors import PrismError
from prism.fsutil import atomic_write_json
from prism.index.audit import AUDIT_FILE, AuditLog
from prism.index.catalog import WorkspaceCatalog
from prism.index.workspaces import Workspace
from prism.types import IngestItem, IngestResult, ProgressCallback

__all__ = ["STATE_FILE", "SampleBuild", "SampleFacade", "read_state"]

logger = logging.getLogger(__name__)

STATE_FILE = "sample-workspace.json"
"""The sample workspace's build state, under ``PRISM_HOME``."""
SampleState = Literal["building", "complete"]
PRESENT = frozenset({"ingested", "replaced", "duplicate"})
"""Result statuses that leave the document in the workspace."""


def read_state(home: Path) -> SampleState | None:
    """The recorded build state of ``home``'s sample workspace; ``None`` when none is recorded (or unreadable)."""
    try:
        state = json.loads((Path(home) / STATE_FILE).read_text(encoding="utf-8")).get("state")
    except (OSError, ValueError, AttributeError):
        return None
    return state if state in ("building", "complete") else None


def _write_state(home: Path, state: SampleState) -> None:
    atomic_write_json(Path(home) / STATE_FILE, {"state": state})


class SampleFacade:
    """Building the sample workspace, for a class with ``settings``, ``catalog`` and an ``ingest`` method (mixed
    into :class:`prism.service.PrismService`)."""

    settings: Settings
    catalog: WorkspaceCatalog
    ingest: Callable[..., list[IngestResult]]

    def sample_files(self) -> list[Path]:
        """The sample documents, ``settings.sample_dir/*.pdf`` in name order (``[]`` when there is none)."""
        return sorted(Path(self.settings.sample_dir).glob("*.pdf"))

    def sample_build_needed(self) -> bool:
        """True when the sample workspace is to be built or finished at start (the rules of the module docstring);
        False without sample documents. Reads files only; never raises (an unreadable log counts as "leave it")."""
        if not self.sample_files():
            return False
        state = read_state(self.settings.home)
        if state is not None:
            return state == "building"
        if not self.catalog.list():
            return True
        info = self.catalog.find(self.settings.sample_workspace)
        if info is None:
            return False
        try:
            if Workspace(self.settings.home, info, self.settings.lock_timeout_s).documents():
                return False
            entries = AuditLog(self.catalog.folder(info) / AUDIT_FILE).entries()
        except PrismError as exc:
            logger.warning("sample workspace not checked: %s", exc)
            return False
        return not any(e.action == "document.delete" for e in entries)

    def ensure_sample_workspace(self, progress: ProgressCallback | None = None) -> list[IngestResult]:
        """At start: :meth:`restore_sample_workspace` when :meth:`sample_build_needed`, else ``[]``."""
        return self.restore_sample_workspace(progress) if self.sample_build_needed() else []

    def restore_sample_workspace(self, progress: ProgressCallback | None = None) -> list[IngestResult]:
        """Ingest every sample document into ``settings.sample_workspace`` (created if missing; documents already
        there are duplicates) and record the build as complete once all of them are there (until then it is
        ``building``, and the next start finishes it).

        Returns:
            One result per sample document; ``[]`` (logged) when there is none.

        Raises:
            PrismError: the workspace could not be created or opened, or the state file not written.
        """
        files = self.sample_files()
        if not files:
            logger.warning("no sample documents in %s", self.settings.sample_dir)
            return []
        home = Path(self.settings.home)
        try:
            _write_state(home, "building")
        except OSError as exc:
            raise PrismError(f"Could not write {home / STATE_FILE} ({exc.strerror or exc}); check that PRISM_HOME "
                             "is writable.") from exc
        results = self.ingest([IngestItem(f) for f in files], self.settings.sample_workspace, progress)
        if all(r.status in PRESENT for r in results):
            try:
                _write_state(home, "complete")
            except OSError as exc:  # the next start finds it "building" and sees every document there
                logger.warning("sample workspace built, but its state was not recorded: %s", exc)
            logger.info("sample workspace complete: %d documents", len(results))
        else:
            logger.warning("sample workspace incomplete (%s); the next start finishes it",
                           ", ".join(f"{r.file}: {r.status}" for r in results if r.status not in PRESENT))
        return results


class SampleBuild:
    """One build of the sample workspace on a thread of its own, so that it finishes whatever happens to the
    browser session that started it; sessions read its progress to draw it.

    Args:
        build: the build, called with a progress callback (e.g. :meth:`SampleFacade.ensure_sample_workspace`).
    """

    def __init__(self, build: Callable[[ProgressCallback], list[IngestResult]]):
        self._build = build
        self._lock = threading.Lock()
        self._progress: tuple[float, str] = (0.0, "Starting")
        self._done = threading.Event()
        self.results: list[IngestResult] = []
        self.error: str | None = None
        self._thread = threading.Thread(target=self._run, name="prism-sample-build", daemon=True)

    def start(self) -> SampleBuild:
        """Start the thread; returns ``self``."""
        self._thread.start()
        return self

    def _report(self, fraction: float, message: str) -> None:
        with self._lock:
            self._progress = (min(max(fraction, 0.0), 1.0), message)

    def _run(self) -> None:
        try:
            self.results = self._build(self._report)
        except PrismError as exc:
            self.error = str(exc)
        except Exception as exc:  # the thread must end with a message, never silently
            logger.exception("the sample workspace build failed")
            self.error = f"The sample workspace could not be built ({type(exc).__name__}); see the server log."
        finally:
            self._done.set()

    def progress(self) -> tuple[float, str]:
        """The latest ``(fraction in [0, 1], message)``."""
        with self._lock:
            return self._progress

    @property
    def finished(self) -> bool:
        """True once the build has ended (successfully or with :attr:`error`)."""
        return self._done.is_set()

    def wait(self, timeout_s: float | None = None) -> bool:
        """Wait up to ``timeout_s`` seconds (``None``: until it ends); True when it has ended."""
        return self._done.wait(timeout_s)
