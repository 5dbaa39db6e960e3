"""In a real browser (Debian's Chromium through selenium, the helpers and driver of :mod:`tests.ui.test_browser`),
issue 41 B / case 68: the access code's lockout holds across a page reload and a restart of the server. Its own
`streamlit run app.py` on a free loopback port with ``PRISM_ACCESS_CODE`` set and two tries per client; the page is
opened on 127.0.0.1 (no client address: the one shared count). Screenshots go to tests/artifacts/ (git-ignored)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from prism.index.access import ACCESS_FILE
from tests.conftest import REPO
from tests.ui.test_browser import (  # noqa: F401  (driver is the module's fixture)
    _free_port,
    _no_exception,
    _shot,
    _text,
    _wait,
    _wait_text,
    driver,
)

pytestmark = pytest.mark.slow

RIGHT = "correct horse battery staple"
LOCKED = "Too many wrong codes from your address. Try again in"


def _start(root: Path, port: int) -> subprocess.Popen:
    """``streamlit run app.py`` on 127.0.0.1:``port`` with the access code set, PRISM_HOME ``root/home``; waits
    until it answers its health check."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRISM_", "GROQ", "TAVILY"))}
    env.update(PRISM_HOME=str(root / "home"), PRISM_SAMPLE_DIR=str(root / "no-samples"), PRISM_ACCESS_CODE=RIGHT,
               PRISM_ACCESS_MAX_ATTEMPTS="2", HF_HUB_OFFLINE="1", TRANSFORMERS_NO_ADVISORY_WARNINGS="1",
               PRISM_MODELS_DIR=os.environ.get("PRISM_MODELS_DIR", str(root / "models")))
    log = (root / "streamlit.log").open("a")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.status == 200:
                    return proc
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            _stop(proc)
            pytest.fail("streamlit did not start:\n" + (root / "streamlit.log").read_text()[-3000:])
        time.sleep(0.3)


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=15)


@pytest.fixture
def server(tmp_path) -> Iterator[tuple[Path, int, list[subprocess.Popen]]]:
    (tmp_path / "no-samples").mkdir()
    port = _free_port()
    procs = [_start(tmp_path, port)]
    try:
        yield tmp_path, port, procs
    finally:
        for p in procs:
            if p.poll() is None:
                _stop(p)


def _code_box(d: WebDriver):
    return [i for i in d.find_elements(By.CSS_SELECTOR, 'input[type="password"]') if i.is_displayed()]


def _enter(d: WebDriver, code: str, then: str) -> None:
    box = _wait(d, lambda drv: (_code_box(drv) or [False])[0], 30, "the access code field")
    box.send_keys(code, Keys.ENTER)
    _wait_text(d, then, 30)


def test_the_lockout_holds_across_a_reload_and_a_restart(server, driver):  # noqa: F811
    root, port, procs = server
    d = driver
    url = f"http://127.0.0.1:{port}/"
    d.get(url)
    _wait_text(d, "Enter your access code", 60)
    _enter(d, "guess one", "That code is not right. 1 try left.")
    _enter(d, "guess two", LOCKED)
    _wait(d, lambda drv: not _code_box(drv), 20, "the form to go")
    _shot(d, "access_locked")

    d.refresh()  # a reload is a new session: the wait holds, no form
    _wait_text(d, LOCKED, 60)
    assert not _code_box(d)
    _no_exception(d)
    _shot(d, "access_locked_after_reload")

    _stop(procs[0])  # a restart: a new process over the same PRISM_HOME
    procs.append(_start(root, port))
    d.get(url)
    _wait_text(d, LOCKED, 60)
    assert not _code_box(d)
    assert "Ask anything" not in _text(d)
    _no_exception(d)
    assert (root / "home" / ACCESS_FILE).is_file()
