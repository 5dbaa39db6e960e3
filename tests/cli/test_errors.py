"""The CLI never prints a traceback (prism/cli/main.py, prism/cli/logs.py): a workspace deleted from another shell
while ``ingest`` waits for its write lock is the clear deleted-workspace message (prism/index/workspace_locks.py),
and any unexpected exception is one line naming the command, its traceback in ``PRISM_HOME/logs/cli.log``."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import textwrap

import pytest

from prism.cli import documents
from prism.cli.common import EXIT_FAILED
from prism.cli.logs import LOG_FILE, OneLineFormatter
from prism.cli.main import main
from tests.conftest import REPO

DRIVER = textwrap.dedent('''
    """python -m prism, with the workspace 'race' deleted (as by 'workspaces delete race' from another shell) at the
    worst moment of one write lock: after filelock made sure the lock's folder exists, before it opens the lock
    file, i.e. what a writer waiting on the lock meets when the deleting process removes the folder and lets go."""
    import sys

    import filelock._core._acquire as acquire

    from prism.cli.main import main
    from prism.ingestion.pipeline import Ingestor
    from prism.service import PrismService

    STEP = sys.argv.pop(1)  # "recover" (the ingest opening the workspace) or "_commit" (storing the document)
    armed = []
    real_step, real_ensure = getattr(Ingestor, STEP), acquire.ensure_directory_exists

    def step(self, *args, **kwargs):
        armed.append(True)
        return real_step(self, *args, **kwargs)

    def ensure(path):
        real_ensure(path)
        if armed and str(path).endswith(".write.lock"):
            armed.clear()
            PrismService().delete_workspace("race")

    setattr(Ingestor, STEP, step)
    acquire.ensure_directory_exists = ensure
    sys.exit(main())
''')


def _long_text(tmp_path):
    path = tmp_path / "long.txt"
    path.write_text("\n\n".join(f"Section {i}. The settlement cut-off for batch {i} is {i % 12 + 1} p.m. and the "
                                f"limit is {1000 * i} rupees per transaction." for i in range(1, 120)))
    return path


@pytest.mark.parametrize(("step", "expected"), [
    ("_commit", "long.txt was not added: workspace 'race' was deleted while it was being added."),
    ("recover", "error: Workspace 'race' was deleted; nothing more is written to it."),
], ids=["storing-the-document", "opening-the-workspace"])
def test_a_workspace_deleted_under_the_ingest_write_lock_is_a_clear_message(prism_home, tmp_path, step, expected):
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    env = {**os.environ, "PRISM_HOME": str(prism_home), "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run([sys.executable, str(driver), step, "ingest", "--workspace", "race",
                           str(_long_text(tmp_path))], env=env, cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    output = proc.stdout + proc.stderr
    assert proc.returncode == EXIT_FAILED, output[-3000:]
    assert "Traceback" not in output and "FileNotFoundError" not in output, output[-3000:]
    assert expected in output, output[-3000:]
    listed = json.loads((prism_home / "workspaces.json").read_text())["workspaces"]
    assert [w["name"] for w in listed] == []  # deleted, and nothing brought back under its id
    assert list((prism_home / "workspaces").iterdir()) == []


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
