"""The CLI never prints a traceback (prism/cli/main.py, prism/cli/logs.py): any unexpected exception is one line
naming the command, its traceback in ``PRISM_HOME/logs/cli.log``."""

from __future__ import annotations

import json
import logging
import sys

from prism.cli import documents
from prism.cli.common import EXIT_FAILED
from prism.cli.logs import LOG_FILE, OneLineFormatter
from prism.cli.main import main


def test_an_unexpected_error_is_one_line_and_its_traceback_goes_to_the_log(prism_home, monkeypatch, capsys):
    def broken(_args):
        raise RuntimeError("registry went\nsideways")

    monkeypatch.setattr(documents, "cmd_docs", broken)
    assert main(["docs"]) == EXIT_FAILED
    out, err = capsys.readouterr()
    log = prism_home / LOG_FILE
    assert out == ""
    assert err == (f"error: 'docs' failed unexpectedly (RuntimeError: registry went sideways). Details are in "
                   f"{log}.\n")
    assert "Traceback (most recent call last)" in log.read_text() and "sideways" in log.read_text()

    assert main(["docs", "--json"]) == EXIT_FAILED
    out, err = capsys.readouterr()
    assert json.loads(out) == {"error": f"'docs' failed unexpectedly (RuntimeError: registry went sideways). "
                                        f"Details are in {log}."}
    assert "Traceback" not in err


def test_log_records_on_stderr_are_one_line_without_traceback(tmp_path):
    formatter = OneLineFormatter(tmp_path / "cli.log")
    try:
        raise FileNotFoundError(2, "No such file or directory", "/x/.write.lock")
    except FileNotFoundError:
        record = logging.LogRecord("prism.ingestion", logging.ERROR, __file__, 1, "unexpected error ingesting %s",
                                   ("a.txt",), sys.exc_info())
    line = formatter.format(record)
    assert "\n" not in line and "Traceback" not in line
    assert line.endswith("unexpected error ingesting a.txt (FileNotFoundError: [Errno 2] No such file or directory: "
                         f"'/x/.write.lock'; details in {tmp_path / 'cli.log'})")
    assert record.exc_info is not None  # left for the log file's handler
    assert "Traceback" in logging.Formatter().format(record)
