"""The CLI's logging: one line per record on stderr, never a traceback; the details of errors in a log file.

A traceback is for whoever debugs Prism, not for the analyst at the shell: the stderr handler prints every record on
one line (an exception as its type and message, with where the details are), and records at ERROR and above go
whole, tracebacks included, to ``PRISM_HOME/logs/cli.log`` (:data:`LOG_FILE`; the folder and file are made only
when such a record comes, so a command that logs no error leaves the home as it was).
"""

from __future__ import annotations

import logging
import sys
import tempfile
import threading
from pathlib import Path

__all__ = ["LOG_FILE", "NOISY_LOGGERS", "configure_logging", "log_path", "one_line", "record_unexpected"]

LOG_FILE = Path("logs") / "cli.log"
"""Where the CLI's error details go, relative to ``PRISM_HOME``."""
NOISY_LOGGERS: tuple[str, ...] = ("httpx", "chromadb", "sentence_transformers", "transformers", "urllib3")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
MAX_LINE = 300

logger = logging.getLogger("prism.cli")


def log_path() -> Path:
    """``PRISM_HOME/logs/cli.log``; under the temp folder when the settings themselves cannot be read."""
    try:
        from prism.config import get_settings

        return Path(get_settings().home) / LOG_FILE
    except Exception:  # bad settings are reported by the command itself; the log still needs a place
        return Path(tempfile.gettempdir()) / "prism-cli.log"


def one_line(exc: BaseException) -> str:
    """``"TypeName: first line of the message"``, at most :data:`MAX_LINE` characters."""
    text = " ".join(str(exc).split()) or "no message"
    line = f"{type(exc).__name__}: {text}"
    return line if len(line) <= MAX_LINE else line[: MAX_LINE - 1] + "…"


class OneLineFormatter(logging.Formatter):
    """A formatter that never prints a traceback or stack: an exception becomes ``(Type: message; details in
    <log file>)`` at the end of the record's one line."""

    def __init__(self, details: Path):
        super().__init__(FORMAT)
        self.details = details

    def format(self, record: logging.LogRecord) -> str:
        saved = record.exc_info, record.exc_text, record.stack_info
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        try:
            line = super().format(record)
        finally:
            record.exc_info, record.exc_text, record.stack_info = saved
        exc = saved[0][1] if saved[0] else None
        if exc is not None:
            line += f" ({one_line(exc)}; details in {self.details})"
        return " ".join(line.splitlines())


class _DetailsHandler(logging.FileHandler):
    """A file handler that makes its folder on the first record (``delay``: nothing is made before)."""

    def _open(self):  # logging.FileHandler's hook, called on the first record
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
        return super()._open()


def configure_logging(verbose: bool) -> None:
    """Log to stderr on one line per record (INFO with ``-v``, else WARNING) and errors in full to
    :func:`log_path`; quiet noisy libraries. Calling it again replaces the handlers it added before; like
    :func:`logging.basicConfig`, it leaves logging alone when someone else set it up (a test runner, a program that
    calls :func:`prism.cli.main.main`)."""
    for noisy in NOISY_LOGGERS:
        logging.getLogger(noisy).setLevel(logging.WARNING)
    root = logging.getLogger()
    ours = [h for h in root.handlers if getattr(h, "prism_cli", False)]
    if len(ours) != len(root.handlers):
        return
    for handler in ours:
        root.removeHandler(handler)
        handler.close()
    path = log_path()
    stderr = logging.StreamHandler(sys.stderr)
    stderr.setFormatter(OneLineFormatter(path))
    details = _DetailsHandler(path, encoding="utf-8", delay=True)
    details.setLevel(logging.ERROR)
    details.setFormatter(logging.Formatter(FORMAT))
    for handler in (stderr, details):
        handler.prism_cli = True  # type: ignore[union-attr]  # marks the handlers this module added
        root.addHandler(handler)
    root.setLevel(logging.INFO if verbose else logging.WARNING)
    threading.excepthook = _thread_failed


def _thread_failed(args: threading.ExceptHookArgs) -> None:
    """A worker thread's uncaught exception: logged (one line on stderr, the traceback in the log file)."""
    if args.exc_value is not None and not isinstance(args.exc_value, SystemExit):
        name = args.thread.name if args.thread is not None else "?"
        logger.error("thread %s failed", name, exc_info=(args.exc_type, args.exc_value, args.exc_traceback))


def record_unexpected(command: str, exc: BaseException) -> str:
    """Write the traceback of an exception no command expected to :func:`log_path` (only there: stderr gets the
    returned line) and return the one-line message for the analyst: what failed, the error's type and message,
    and where the details are."""
    path = log_path()
    record = logger.makeRecord(logger.name, logging.ERROR, __file__, 0, "command %r failed unexpectedly",
                               (command,), (type(exc), exc, exc.__traceback__))
    handlers = [h for h in logging.getLogger().handlers if isinstance(h, _DetailsHandler)]
    for handler in handlers:
        handler.handle(record)
    if not handlers:  # logging set up by someone else (or not yet): append to the file directly
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as fh:
                fh.write(logging.Formatter(FORMAT).format(record) + "\n")
        except OSError:
            logger.warning("could not write %s", path)
    return f"'{command}' failed unexpectedly ({one_line(exc)}). Details are in {path}."
