"""Background ingestion jobs for the Upload page (the registry is cached by ``prism/ui/resources.py``).

The Upload page never ingests on the script thread: it submits one job per file to :class:`IngestJobs`, a
process-wide registry run by one :class:`~prism.background.SerialRunner` (two shared CPU cores: one document at a
time keeps the answers of other sessions responsive, and writes to a workspace are serialised by its lock anyway).
Pages read job snapshots to draw progress; a session keeps only the job ids in ``st.session_state``.

A job is keyed by ``(workspace id, content hash)`` (a URL is keyed by itself): submitting the same bytes to the same
workspace while a job for them is queued or running returns that job instead of starting another, so Streamlit
reruns, double clicks and two analysts uploading the same circular never ingest it twice. A job names its workspace
by id, so a rename while it waits changes nothing and a delete makes it end with a message naming the workspace (it
never re-creates it). Each job has a :class:`~prism.types.CancelToken`: :meth:`IngestJobs.cancel` stops a queued
job before it starts and a running one at its next stage (documents already committed stay). The registry also
remembers each Upload page batch by its id (:meth:`IngestJobs.remember_batch`): a refresh starts a new session with an
empty ``st.session_state``, and the page's address (``?b=<batch ids>``) then finds its batches here again.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import re
import threading
import time
import uuid
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from prism.background import SerialRunner
from prism.errors import PrismError
from prism.types import CancelToken, IngestItem, IngestResult, ProgressCallback, WorkspaceInfo

logger = logging.getLogger(__name__)

JobStatus = Literal["queued", "running", "done"]
JobStep = Literal["indexing", "briefing"]
_CHUNKS = re.compile(r"embedding (\d+)/(\d+) chunks")
MAX_FINISHED_JOBS = 500
"""Finished jobs kept for display; older ones are dropped first."""
MAX_BATCHES = 500
"""Upload batches kept for a new session of the same analyst (a refresh); older ones are dropped first."""


class Ingests(Protocol):
    """What a job needs of the service (:meth:`prism.service.PrismService.ingest` and ``workspaces``)."""

    def ingest(self, items: list[IngestItem], workspace: str | None = None,
               progress: ProgressCallback | None = None, *, create: bool = True,
               cancel: CancelToken | None = None, actor: str | None = None,
               following: IngestItem | None = None) -> list[IngestResult]: ...

    def workspaces(self) -> list[WorkspaceInfo]: ...


def content_key(source: bytes | str) -> str:
    """The job key of a file's bytes (sha256 hex, the document id Prism will give it) or of a URL (itself)."""
    if isinstance(source, bytes):
        return hashlib.sha256(source).hexdigest()
    return source.strip()


@dataclass(frozen=True)
class JobView:
    """A snapshot of one job for drawing.

    Attributes:
        id: the job id.
        workspace_id: the target workspace's id.
        workspace: its name at submission.
        filename: display name (file name or URL).
        status: ``queued``, ``running`` or ``done``.
        fraction: indexing progress in [0, 1] (1 once the document is stored).
        stage: the latest progress message, without the file name prefix (``"parsing"``, ``"embedding 64/400
            chunks"``).
        result: the ingest result once done.
        submitted_at, finished_at: ``time.time()`` seconds.
        started_at: when the worker started it (``None`` while queued).
        step: ``indexing`` (parse, chunk, embed, store), then ``briefing`` (writing the briefing).
        chunks_done, chunks_total: chunks embedded so far and in all (``None`` before chunking).
        embed_started_at, embed_base: when the first "embedding N/M chunks" report came and its N (the chunks
            embedded while the file was still parsing), for the embedding rate of :meth:`eta_s`.
        cancel_requested: :meth:`IngestJobs.cancel` was called.
        actor: who submitted it, for the audit log (the Streamlit session id; ``""``: nobody named).
    """

    id: str
    workspace_id: str
    workspace: str
    filename: str
    key: str
    status: JobStatus
    fraction: float
    stage: str
    result: IngestResult | None
    submitted_at: float
    finished_at: float | None = None
    started_at: float | None = None
    step: JobStep = "indexing"
    chunks_done: int | None = None
    chunks_total: int | None = None
    embed_started_at: float | None = None
    embed_base: int = 0
    cancel_requested: bool = False
    actor: str = ""

    @property
    def done(self) -> bool:
        return self.status == "done"

    def eta_s(self, now: float | None = None) -> float | None:
        """Seconds of indexing left. While embedding: the chunks left at the rate since embedding began,
        ``(total − done) × spent / (done − base)`` (the chunks embedded while the file parsed count as done but not
        toward the rate: counting them once said "about 5 s left" with 13 s to go); before that, extrapolated from
        the fraction done, ``elapsed × (1 − f) / f``. ``None`` while queued, briefing, done, below 5 %, or before
        the first slice of the embedding is done (too early to tell)."""
        if self.status != "running" or self.step != "indexing" or self.started_at is None or self.fraction < 0.05:
            return None
        now = now or time.time()
        if self.embed_started_at is not None and self.chunks_done is not None and self.chunks_total:
            embedded, spent = self.chunks_done - self.embed_base, now - self.embed_started_at
            if embedded <= 0 or spent <= 0:
                return None
            return max(0.0, (self.chunks_total - self.chunks_done) * spent / embedded)
        elapsed = now - self.started_at
        return max(0.0, elapsed * (1.0 - self.fraction) / self.fraction)


class IngestJobs:
    """Thread-safe registry of ingestion jobs, run by a private worker thread.

    Args:
        max_workers: worker threads (1: documents are ingested one after another, in submission order).
    """

    def __init__(self, max_workers: int = 1):
        self._runner = SerialRunner("prism-ingest", max_workers=max_workers)
        self._lock = threading.Lock()
        self._jobs: dict[str, JobView] = {}
        self._items: dict[str, IngestItem] = {}
        self._tokens: dict[str, CancelToken] = {}
        self._active: dict[tuple[str, str], str] = {}
        self._batches: dict[str, dict[str, Any]] = {}

    # --- submit ---------------------------------------------------------------------------------------------
    def submit(self, service: Ingests, workspace: WorkspaceInfo, filename: str, source: bytes | str,
               actor: str = "") -> str:
        """Queue one file (bytes) or URL (str) for ingestion into ``workspace`` on behalf of ``actor`` (recorded in the
        audit log); returns the job id.

        If a job for the same workspace and content is still queued or running, its id is returned and nothing new
        is queued.
        """
        key = content_key(source)
        active_key = (workspace.id, key)
        with self._lock:
            existing = self._active.get(active_key)
            if existing is not None:
                return existing
            job_id = uuid.uuid4().hex[:12]
            self._jobs[job_id] = JobView(job_id, workspace.id, workspace.name, filename, key, "queued", 0.0,
                                         "waiting to start", None, time.time(), actor=actor)
            self._items[job_id] = IngestItem(source, filename if isinstance(source, bytes) else None)
            self._tokens[job_id] = CancelToken()
            self._active[active_key] = job_id
            self._prune()
        self._runner.submit(self._run, service, job_id, active_key)
        logger.info("queued ingest job %s (%s)", job_id, "url" if isinstance(source, str) else f"{len(source)} B")
        return job_id

    def cancel(self, job_ids: list[str]) -> int:
        """Cancel jobs: a queued one ends without starting, a running one stops at its next stage (nothing of its
        document is kept unless it was already stored). Returns how many were still to finish."""
        n = 0
        with self._lock:
            for job_id in job_ids:
                job, token = self._jobs.get(job_id), self._tokens.get(job_id)
                if job is None or token is None or job.done:
                    continue
                token.cancel()
                self._jobs[job_id] = replace(job, cancel_requested=True, stage="cancelling")
                n += 1
        logger.info("cancel requested for %d ingest job(s)", n)
        return n

    # --- batches ------------------------------------------------------------------------------------------
    def remember_batch(self, batch: dict[str, Any]) -> None:
        """Keep an Upload page batch (``{"id", "workspace_id", "workspace", "job_ids", "rejected", "created"}``) so
        that a new session — the same analyst after a refresh, whose address names the batch — can draw it again.
        At most :data:`MAX_BATCHES` are kept (the oldest are dropped); a copy is stored."""
        with self._lock:
            self._batches[str(batch["id"])] = copy.deepcopy(batch)
            for old in list(self._batches)[: max(0, len(self._batches) - MAX_BATCHES)]:
                del self._batches[old]

    def batch(self, batch_id: str) -> dict[str, Any] | None:
        """A copy of the batch remembered under ``batch_id``, or ``None`` (unknown, dropped, or another process)."""
        with self._lock:
            found = self._batches.get(batch_id)
            return copy.deepcopy(found) if found is not None else None

    # --- read -----------------------------------------------------------------------------------------------
    def get(self, job_id: str) -> JobView | None:
        """The job's current snapshot, or ``None`` when unknown (or pruned)."""
        with self._lock:
            return self._jobs.get(job_id)

    def views(self, job_ids: list[str]) -> list[JobView]:
        """Snapshots of the known jobs among ``job_ids``, in the given order."""
        with self._lock:
            return [self._jobs[j] for j in job_ids if j in self._jobs]

    def active(self, workspace_id: str | None = None) -> list[JobView]:
        """Queued and running jobs (of one workspace when given), oldest first."""
        with self._lock:
            jobs = [j for j in self._jobs.values() if not j.done]
        if workspace_id is not None:
            jobs = [j for j in jobs if j.workspace_id == workspace_id]
        return sorted(jobs, key=lambda j: j.submitted_at)

    def wait(self, job_ids: list[str], timeout: float) -> bool:
        """Block until every job in ``job_ids`` is done (tests, CLI); returns False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(v.done for v in self.views(job_ids)):
                return True
            time.sleep(0.05)
        return False

    # --- worker ---------------------------------------------------------------------------------------------
    def _update(self, job_id: str, **changes: object) -> None:
        with self._lock:
            job = self._jobs.get(job_id)
            if job is not None:
                self._jobs[job_id] = replace(job, **changes)  # type: ignore[arg-type]

    def _progress(self, job_id: str, filename: str) -> ProgressCallback:
        """The progress callback of one job: fraction, stage words, chunk counts and the briefing step."""

        def progress(fraction: float, message: str) -> None:
            stage = message.split(": ", 1)[1] if message.startswith(f"{filename}: ") else message
            changes: dict[str, object] = {}
            if stage == "briefing":
                changes = {"step": "briefing", "stage": "writing the briefing", "fraction": 1.0}
            else:
                if stage.startswith(("done:", "ingested:", "replaced:")):
                    stage = "indexed"
                changes = {"fraction": min(max(float(fraction), 0.0), 1.0), "stage": stage.replace("; ", " · ")}
                m = _CHUNKS.search(stage)
                if m:
                    changes.update(chunks_done=int(m.group(1)), chunks_total=int(m.group(2)))
                    with self._lock:
                        job = self._jobs.get(job_id)
                        if job is not None and job.embed_started_at is None:  # the rate counts from here
                            changes.update(embed_started_at=time.time(), embed_base=int(m.group(1)))
            self._update(job_id, **changes)

        return progress

    def _run(self, service: Ingests, job_id: str, active_key: tuple[str, str]) -> None:
        with self._lock:
            job = self._jobs[job_id]
            item = self._items.pop(job_id)
            token = self._tokens[job_id]
        self._update(job_id, status="running", stage="starting", started_at=time.time())
        try:
            result = self._ingest(service, job, item, token)
        except PrismError as exc:
            result = IngestResult(job.filename, "failed", error=str(exc))
        except Exception as exc:  # a worker thread must always finish its job with a message
            logger.exception("ingest job %s crashed", job_id)
            result = IngestResult(job.filename, "failed",
                                  error=f"{job.filename} could not be ingested ({type(exc).__name__}).")
        with self._lock:
            current = self._jobs.get(job_id)
            if current is not None:
                self._jobs[job_id] = replace(current, status="done", fraction=1.0, stage=result.status,
                                             result=result, finished_at=time.time())
            if self._active.get(active_key) == job_id:
                del self._active[active_key]
            self._tokens.pop(job_id, None)
        logger.info("ingest job %s finished: %s", job_id, result.status)

    def _ingest(self, service: Ingests, job: JobView, item: IngestItem, token: CancelToken) -> IngestResult:
        """Run one job's ingest into its workspace as named now (renamed meanwhile: the new name)."""
        if token.cancelled:
            return IngestResult(job.filename, "cancelled", error=f"{job.filename} was not added: the batch was "
                                                                 "cancelled before it started.")
        current = next((w for w in service.workspaces() if w.id == job.workspace_id), None)
        if current is None:
            return IngestResult(job.filename, "failed", error=(
                f"{job.filename} was not added: workspace '{job.workspace}' was deleted before it could be added."))
        results = service.ingest([item], current.name, self._progress(job.id, job.filename), create=False,
                                 cancel=token, actor=job.actor or None, following=self._next_item(job))
        return results[0] if results else IngestResult(job.filename, "failed", error="Nothing was ingested.")

    def _next_item(self, job: JobView) -> IngestItem | None:
        """The item of the job queued next for the same workspace (not cancelled), parsed while this one is embedded
        and briefed; ``None`` when there is none."""
        with self._lock:
            queued = sorted((j for j in self._jobs.values() if j.status == "queued" and not j.cancel_requested
                             and j.workspace_id == job.workspace_id and j.id in self._items),
                            key=lambda j: j.submitted_at)
            return self._items[queued[0].id] if queued else None

    def _prune(self) -> None:
        """Drop the oldest finished jobs beyond :data:`MAX_FINISHED_JOBS` (call under the lock)."""
        finished = sorted((j for j in self._jobs.values() if j.done), key=lambda j: j.finished_at or 0.0)
        for job in finished[: max(0, len(finished) - MAX_FINISHED_JOBS)]:
            del self._jobs[job.id]

    def shutdown(self) -> None:
        """Stop accepting jobs and wait for the running one (tests)."""
        self._runner.shutdown()
