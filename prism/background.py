"""The one background runner of the process: callables run in submission order on a named worker thread.

Two queues use it, each with its own :class:`SerialRunner`: the Upload page's ingestion jobs
(:class:`prism.ingestion.jobs.IngestJobs`, one document at a time: two shared CPU cores, and writes to a workspace are
serialised by its lock anyway) and the LLM briefings written after an ingest
(:class:`prism.answering.briefing.jobs.BackgroundBriefings`, one at a time: the LLM's rate limit is per key). The
thread starts on first use, so a process that never uploads starts none. Ground floor: imports nothing from prism.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any

logger = logging.getLogger(__name__)

__all__ = ["SerialRunner"]


class SerialRunner:
    """A thread-safe queue of callables run by ``max_workers`` worker threads (1: strictly in submission order).

    Args:
        name: the worker threads' name prefix (``"prism-ingest"``), as ``threading`` and logs show it.
        max_workers: worker threads, at least 1.

    Raises:
        ValueError: ``max_workers`` is below 1.
    """

    def __init__(self, name: str, max_workers: int = 1):
        if max_workers < 1:
            raise ValueError(f"a runner needs at least one worker, not {max_workers}")
        self.name = name
        self._max_workers = max_workers
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._pending: set[Future[Any]] = set()

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """Queue ``fn(*args)``; returns its future. An exception ``fn`` raises is logged and kept on the future
        (the worker thread goes on with the next callable)."""
        with self._lock:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self._max_workers, thread_name_prefix=self.name)
            future = self._pool.submit(fn, *args)
            self._pending.add(future)
        future.add_done_callback(self._done)
        return future

    def _done(self, future: Future[Any]) -> None:
        with self._lock:
            self._pending.discard(future)
        if not future.cancelled() and (exc := future.exception()) is not None:
            logger.warning("%s: a background task failed: %s", self.name, type(exc).__name__)

    def pending(self) -> int:
        """Callables queued or running."""
        with self._lock:
            return len(self._pending)

    def wait(self, timeout_s: float | None = None) -> bool:
        """Wait until every callable queued so far has run (or ``timeout_s`` seconds pass); True when none is
        left."""
        with self._lock:
            futures = set(self._pending)
        _done, not_done = wait(futures, timeout=timeout_s)
        return not not_done

    def shutdown(self) -> None:
        """Drop what is still queued, wait for what is running, and stop the threads (a later submit starts new
        ones)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
