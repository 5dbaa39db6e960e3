"""Parse documents in a separate process, streaming their pages back as they are read.

pypdf is pure Python: a dense 10-K page takes 0.03-0.15 s of CPU and holds the GIL the whole time, so parsing in a
thread would stall the embedder. In a worker process the parser runs on another core while the ingest pipeline chunks
and embeds the pages that have already arrived (:class:`prism.ingestion.pipeline.Ingestor`). The final
:class:`~prism.types.ParsedDocument` still comes from one :func:`prism.ingestion.parsing.load` call in the worker, so
what is
stored never depends on the streaming. A parser crash (e.g. a segfault in a native library) kills only the worker and
is reported as a :class:`~prism.errors.CorruptDocumentError` naming the file.

Workers are fresh interpreters (``python -m prism.ingestion.parsing.worker``), not forks: a forked child of a process
that has
used onnxruntime (OCR) or OpenMP (torch) can crash or hang, and ``multiprocessing``'s "spawn" would re-run the
launching script, which under Streamlit is the page script. A worker serves one document at a time and is kept for
the next one of the batch (its imports and OCR models load once; :class:`prism.ingestion.pipeline.Ingestor` stops idle
workers
after each batch, since a worker keeps the memory of the largest PDF it parsed). Protocol: pickled
``(data, name, settings)`` requests on its stdin, pickled ``("page", Page)`` … ``("done", ParsedDocument)`` or
``("error", exception)`` frames on a private copy of its stdout (fd 1 itself is pointed at stderr, so a stray
``print`` cannot corrupt the stream).
"""

from __future__ import annotations

import atexit
import logging
import os
import pickle
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from prism.config import Settings
from prism.errors import CorruptDocumentError, PrismError
from prism.types import Page, ParsedDocument

logger = logging.getLogger(__name__)

_PACKAGE_ROOT = str(Path(__file__).resolve().parents[3])  # the folder holding the prism package
_IDLE_WORKERS = 1
"""Workers kept alive between documents (more start on demand when sessions parse at the same time)."""

_lock = threading.Lock()
_idle: list[_Worker] = []
_active = 0


def active_jobs() -> int:
    """How many documents this process is parsing in workers right now (all workspaces)."""
    return _active


class _Worker:
    """One ``python -m prism.ingestion.parsing.worker`` child and its pipes."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (_PACKAGE_ROOT, os.environ.get("PYTHONPATH"))
                                                            if p)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "prism.ingestion.parsing.worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            env=env, close_fds=True,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin: IO[bytes] = self.process.stdin
        self.stdout: IO[bytes] = self.process.stdout

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        if self.alive():
            self.process.kill()
        self.process.wait(timeout=10)
        for pipe in (self.stdin, self.stdout):
            try:
                pipe.close()
            except OSError:
                pass


def idle_workers() -> int:
    """Parser workers waiting for their next document."""
    return len(_idle)


def shutdown_workers() -> None:
    """Stop the idle workers (they also exit on their own when this process ends and their stdin closes)."""
    with _lock:
        workers = list(_idle)
        _idle.clear()
    for worker in workers:
        worker.kill()


atexit.register(shutdown_workers)


def _take_worker() -> _Worker:
    global _active
    with _lock:
        _active += 1
        while _idle:
            worker = _idle.pop()
            if worker.alive():
                return worker
            worker.kill()
    try:
        return _Worker()
    except BaseException:
        with _lock:
            _active -= 1
        raise


def _release_worker(worker: _Worker, healthy: bool) -> None:
    global _active
    with _lock:
        _active -= 1
        if healthy and worker.alive() and len(_idle) < _IDLE_WORKERS:
            _idle.append(worker)
            return
    worker.kill()


class ParseJob:
    """One document being parsed in a worker process.

    Usage::

        job = ParseJob(data, "10-K.pdf", settings)
        for page in job.pages():      # pages with a text layer, in page order, as the worker reads them
            ...
        doc = job.result()            # the ParsedDocument, or the parser's PrismError raised here

    Frames are drained by a thread as they come, so the worker never waits for the consumer.

    Args:
        data: the file's bytes (any format :func:`prism.ingestion.parsing.load` reads; pages stream for PDFs only).
        name: display name, as given to :func:`prism.ingestion.parsing.load`.
        settings: parser settings (page time budget, OCR, size limits).

    Raises:
        OSError: the worker process cannot be started.
    """

    def __init__(self, data: bytes, name: str, settings: Settings):
        self.name = name
        self._messages: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._result: tuple[str, Any] | None = None
        self._finished = threading.Event()
        self._worker = _take_worker()
        request = pickle.dumps((data, name, settings), protocol=pickle.HIGHEST_PROTOCOL)
        self._reader = threading.Thread(target=self._run, args=(request,), daemon=True, name="prism-parse-reader")
        self._reader.start()

    def _run(self, request: bytes) -> None:
        healthy = False
        try:
            try:
                self._worker.stdin.write(request)
                self._worker.stdin.flush()
                while True:
                    kind, payload = pickle.load(self._worker.stdout)
                    self._messages.put((kind, payload))
                    if kind != "page":
                        self._result = (kind, payload)
                        healthy = True
                        return
            except (EOFError, OSError, pickle.UnpicklingError):  # the worker died (or was cancelled) mid-document
                try:
                    code = self._worker.process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    code = None
                self._result = ("error", CorruptDocumentError(
                    f"{self.name} crashed the document parser (exit code {code}); the file is likely damaged."
                ))
                self._messages.put(self._result)
        finally:
            _release_worker(self._worker, healthy)
            self._finished.set()

    @property
    def finished(self) -> bool:
        """True once the worker has sent its result (or died); pages may still be waiting in :meth:`pages`."""
        return self._finished.is_set()

    def pages(self) -> Iterator[Page]:
        """Yield the pages with a text layer as they arrive; returns when the worker is done (or failed)."""
        while True:
            kind, payload = self._messages.get()
            if kind != "page":
                self._messages.put((kind, payload))  # leave the end marker for a later pages() call
                return
            yield payload

    def result(self) -> ParsedDocument:
        """Wait for the worker and return its :class:`ParsedDocument`.

        Raises:
            PrismError: whatever the parser raised (``EncryptedDocumentError``, ``NoExtractableTextError`` …), or
                ``CorruptDocumentError`` when the worker crashed.
            Exception: a parser bug, re-raised as it was in the worker.
        """
        self._finished.wait()
        assert self._result is not None
        kind, payload = self._result
        if kind == "error":
            raise payload
        return payload

    def cancel(self) -> None:
        """Stop the worker if it is still parsing (e.g. the ingest was interrupted); safe to call at any time."""
        if not self._finished.is_set():
            self._worker.kill()
        self._finished.wait(timeout=10)


def _serve(requests: IO[bytes], frames: IO[bytes]) -> None:
    """Worker loop: parse each request, streaming frames, until stdin closes."""
    from prism.ingestion import parsing

    def send(kind: str, payload: Any) -> None:
        pickle.dump((kind, payload), frames, protocol=pickle.HIGHEST_PROTOCOL)
        frames.flush()

    while True:
        try:
            data, name, settings = pickle.load(requests)
        except EOFError:
            return
        try:
            doc = parsing.load(data, name, settings, on_page=lambda page: send("page", page))
        except Exception as exc:  # every failure goes back to the parent, which owns the messages
            try:
                pickle.dumps(exc)
            except Exception:  # an exception that cannot cross the process boundary: keep its text
                exc = PrismError(f"{name} could not be parsed ({type(exc).__name__}: {exc}).")
            send("error", exc)
        else:
            send("done", doc)


def main() -> None:
    """Entry point of ``python -m prism.ingestion.parsing.worker`` (started by :class:`ParseJob`, not by people)."""
    frames = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # print() in a library now goes to stderr, never into the frame stream
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s prism.parse-worker %(name)s: %(message)s")
    try:
        _serve(sys.stdin.buffer, frames)
    except (BrokenPipeError, KeyboardInterrupt):  # the parent went away
        pass


if __name__ == "__main__":
    main()
