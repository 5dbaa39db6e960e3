"""In a real browser (the server and Chromium of :mod:`tests.ui.test_browser`): ask, mark a passage relevant, add
it to the workspace's ground truth, run that ground truth on the Eval page, add a second pair, run again, and see
the new pair in the per-question diff of the two runs. Screenshots go to tests/artifacts/ (git-ignored)."""

from __future__ import annotations

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from .test_browser import (  # noqa: F401  (app_url and driver are the module's fixtures)
    _ask,
    _click,
    _click_button,
    _first,
    _idle,
    _nav,
    _no_exception,
    _open_app,
    _shot,
    _text,
    _wait_text,
    app_url,
    driver,
)

QUESTIONS = ("What is the P2P collect request limit?",
             "What is the cooling period after registering UPI on a new device?")


def _mark_first_passage_and_add(d: WebDriver, pair: str) -> None:
    """Open the newest answer's feedback popover, mark its first passage relevant, press Add to ground truth."""
    _click(d, lambda drv: ([b for b in drv.find_elements(By.TAG_NAME, "button")
                            if "Mark passages" in b.text and b.is_displayed()] or [None])[-1],
           "the feedback popover")
    _click(d, lambda drv: _first([b for b in drv.find_elements(By.TAG_NAME, "button")
                                  if b.text.strip() == "Relevant" and b.is_displayed()]), "a Relevant mark")
    _idle(d)
    if not [b for b in d.find_elements(By.TAG_NAME, "button") if "Add to ground truth" in b.text
            and b.is_displayed()]:  # the rerun closed the popover: open it again (the mark is kept)
        _click(d, lambda drv: ([b for b in drv.find_elements(By.TAG_NAME, "button")
                                if "Mark passages" in b.text and b.is_displayed()] or [None])[-1],
               "the feedback popover again")
    _click(d, lambda drv: _first([b for b in drv.find_elements(By.TAG_NAME, "button")
                                  if "Add to ground truth" in b.text and b.is_displayed()]),
           "Add to ground truth")
    _wait_text(d, f"Ground truth added as {pair}", 30)
    _no_exception(d)
    ActionChains(d).send_keys(Keys.ESCAPE).perform()  # close the popover
    _idle(d)


def _run_workspace_truth(d: WebDriver, n_runs: int) -> None:
    """On the Eval page: choose the workspace's ground truth as the dataset and Run now; wait for the new run."""
    _nav(d, "Evaluation")
    _wait_text(d, "Run now", 30)
    _idle(d)
    _click(d, lambda drv: _first([e for e in drv.find_elements(By.CSS_SELECTOR, '[data-testid="stSelectbox"]')
                                  if e.text.startswith("Dataset")]), "the dataset picker")
    _click(d, lambda drv: _first([o for o in drv.find_elements(By.CSS_SELECTOR, '[role="option"]')
                                  if "Ground truth of workspace" in o.text]), "the workspace's ground truth")
    _idle(d)
    _click_button(d, "Run now")
    _wait_text(d, "added.", 600)  # "New run <id> added." (the first run compiles ranx's numba code: minutes here)
    _idle(d)
    _no_exception(d)


def test_ask_mark_relevant_add_to_ground_truth_run_and_see_it_in_the_diff(app_url, driver):  # noqa: F811
    d = driver
    _open_app(d, app_url)
    _ask(d, QUESTIONS[0])
    _mark_first_passage_and_add(d, "w001")
    _shot(d, "fb_01_added_to_ground_truth")
    _run_workspace_truth(d, 1)
    assert "w001" in _text(d) or "Workspace ground truth" in _text(d)

    _nav(d, "Chat")
    _wait_text(d, QUESTIONS[0], 30)
    _idle(d)
    _ask(d, QUESTIONS[1], answers=2)
    _mark_first_passage_and_add(d, "w002")
    _run_workspace_truth(d, 2)
    _click(d, lambda drv: _first([t for t in drv.find_elements(By.CSS_SELECTOR, '[role="tab"]')
                                  if t.text.strip() == "Compare runs"]), "the Compare runs tab")
    _wait_text(d, "1 new", 30)
    _shot(d, "fb_02_new_pair_in_the_diff")
    _no_exception(d)
    assert "Export per-question diff (CSV)" in _text(d)
