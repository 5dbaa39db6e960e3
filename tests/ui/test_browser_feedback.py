"""In a real browser (the server and Chromium of :mod:`tests.ui.test_browser`): ask, mark a passage relevant, add
it to the workspace's ground truth, run that ground truth (``eval run workspace``), add a second pair, run again,
and see the new pair in the Eval page's per-question diff of the two runs. Screenshots go to tests/artifacts/
(git-ignored)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from tests.conftest import REPO
from tests.ui.test_browser import (  # noqa: F401  (app_url and driver are the module's fixtures)
    SERVER_DIRS,
    _ask,
    _click,
    _click_button,
    _first,
    _idle,
    _nav,
    _no_exception,
    _open_app,
    _shot,
    _wait,
    _wait_text,
    app_url,
    driver,
)

QUESTIONS = ("What is the P2P collect request limit?",
             "What is the cooling period after registering UPI on a new device?")


def _feedback_buttons(d: WebDriver) -> list:
    """The answers' "Mark passages" expanders (their summaries: an expander in the message covers nothing)."""
    return [b for b in d.find_elements(By.CSS_SELECTOR, "button, summary")
            if "Mark passages" in b.text and b.is_displayed()]


def _newest_expander(d: WebDriver) -> WebElement | None:
    """The newest answer's "Mark passages" expander (the older answers' stay open after a rerun, so the buttons
    are looked up inside this one)."""
    return _first([e for e in d.find_elements(By.CSS_SELECTOR, '[data-testid="stExpander"]')
                   if "Mark passages" in e.text][-1:])


def _in_newest(d: WebDriver, wanted) -> WebElement | None:
    """The first displayed button of the newest expander whose text passes ``wanted``."""
    box = _newest_expander(d)
    return None if box is None else _first([b for b in box.find_elements(By.TAG_NAME, "button")
                                            if wanted(b.text.strip()) and b.is_displayed()])


def _mark_first_passage_and_add(d: WebDriver, pair: str, answers: int) -> None:
    """Open the newest answer's feedback expander (once all ``answers`` show theirs), mark its first passage
    relevant, press Add to ground truth."""
    _wait(d, lambda drv: len(_feedback_buttons(drv)) >= answers, 60, f"{answers} answers' feedback")
    _idle(d)
    if _in_newest(d, lambda t: t == "Relevant") is None:
        _click(d, lambda drv: (_feedback_buttons(drv) or [None])[-1], "the feedback expander", scroll=True)
    _click(d, lambda drv: _in_newest(drv, lambda t: t == "Relevant"), "a Relevant mark", scroll=True)
    _idle(d)
    if _in_newest(d, lambda t: "Add to ground truth" in t) is None:  # a rerun closed it: open it again
        _click(d, lambda drv: (_feedback_buttons(drv) or [None])[-1], "the feedback expander again", scroll=True)
    _click(d, lambda drv: _in_newest(drv, lambda t: "Add to ground truth" in t), "Add to ground truth",
           scroll=True)
    _wait_text(d, f"Ground truth added as {pair}", 30)
    _no_exception(d)
    _idle(d)


def _run_workspace_truth(url: str) -> str:
    """``python -m prism eval run workspace`` on the server's home and runs folder (what the Eval page's Run now
    does; run from the CLI here because the first evaluation in a server compiles ranx's numba code, which takes
    minutes on this shared machine). Returns the new run's id."""
    root = SERVER_DIRS[url]
    env = {**os.environ, "PRISM_HOME": str(root / "home"), "PRISM_EVAL_DIR": str(root / "eval"),
           "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-m", "prism", "eval", "run", "workspace", "--workspace",
                           "Sample workspace", "--no-answers", "--json"], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    return str(json.loads(done.stdout)["runs"][0]["id"])


def test_ask_mark_relevant_add_to_ground_truth_run_and_see_it_in_the_diff(app_url, driver):  # noqa: F811
    d = driver
    _open_app(d, app_url)
    _ask(d, QUESTIONS[0])
    _mark_first_passage_and_add(d, "w001", 1)
    _shot(d, "fb_01_added_to_ground_truth")
    first = _run_workspace_truth(app_url)

    _ask(d, QUESTIONS[1], answers=2)
    _mark_first_passage_and_add(d, "w002", 2)
    second = _run_workspace_truth(app_url)

    _nav(d, "Evaluation")
    _wait_text(d, "Runs", 60)
    _idle(d)
    assert first != second
    _click(d, lambda drv: _first([t for t in drv.find_elements(By.CSS_SELECTOR, '[role="tab"]')
                                  if t.text.strip() == "Compare runs"]), "the Compare runs tab")
    _wait_text(d, "1 new", 30)  # w002 is in the newer run only
    _shot(d, "fb_02_new_pair_in_the_diff")
    _no_exception(d)
    _wait_text(d, "Export per-question diff (CSV)", 20)
    _wait_text(d, "Retrieved chunks of question", 20)
