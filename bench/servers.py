"""Starting and stopping the servers a bench measures (Streamlit, ``chroma run``): wait until one answers on its
address, stop one politely and then for sure. Imported by the bench scripts of this folder (run as scripts, this
folder is first on ``sys.path``)."""

from __future__ import annotations

import contextlib
import subprocess
import time
import urllib.request


def wait_until_up(url: str, proc: subprocess.Popen, timeout_s: float, what: str, poll_s: float = 0.05) -> None:
    """Return once ``url`` answers (any HTTP status below 400); ``SystemExit`` naming ``what`` when ``proc`` exits
    first or ``timeout_s`` seconds pass."""
    deadline = time.monotonic() + timeout_s
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except OSError:
            time.sleep(poll_s)
    raise SystemExit(f"{what} did not start (exit code {proc.poll()})")


def stop(proc: subprocess.Popen, timeout_s: float = 30) -> None:
    """Terminate ``proc``; kill it when it has not exited after ``timeout_s`` seconds."""
    proc.terminate()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=timeout_s)
    if proc.poll() is None:
        proc.kill()
