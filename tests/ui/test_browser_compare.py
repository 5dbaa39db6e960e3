"""In a real browser (headless Chromium through selenium, the fixture style of :mod:`tests.ui.test_browser`): the
Compare page on a small workspace of two generated 10-Ks fills a grid from the "filings" template, a cell shows the
operating margin the programs compute from its document's statement of operations, the row reads its placeholder in
words, and the CSV export (downloaded by the browser) holds the same figure and no template placeholder.

The two 10-Ks (:func:`tests.builders.rd_10k_pdf`) have revenues $6,779,511 thousand and operating income $305,826
thousand for 2015: 305,826 / 6,779,511 = 4.51 %, shown to one decimal as "4.5 %". Screenshots go to tests/artifacts/
(git-ignored)."""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver

from prism.answering.compare.templates import unfilled
from tests.builders import rd_10k_pdf
from tests.conftest import REPO
from tests.ui.test_browser import (  # the server, browser and helpers of the browser tests
    CHROMEDRIVER,
    CHROMIUM,
    Service,
    _click,
    _click_button,
    _first,
    _free_port,
    _idle,
    _nav,
    _no_exception,
    _shot,
    _text,
    _wait,
    _wait_text,
    webdriver,
)

pytestmark = pytest.mark.slow

DEFINITION = "Research and development expenses consist primarily of payroll costs of our engineers."
FILINGS = {"netflix_2015_10k.pdf": ("NETFLIX, INC.", "Technology and development", ("650,788", "472,321")),
           "adobe_2015_10k.pdf": ("ADOBE SYSTEMS INCORPORATED", "Research and development", ("862,730", "844,353"))}
MARGIN = "4.5 %"
"""305,826 / 6,779,511 = 4.51 %, the operating margin of both 10-Ks for 2015."""
ROW = "What was the operating margin in each document's fiscal period?"


@pytest.fixture(scope="module")
def compare_app(tmp_path_factory) -> Iterator[tuple[str, Path]]:
    """A headless Prism server whose sample workspace is the two 10-Ks; returns its address and the browser's
    download folder."""
    root = tmp_path_factory.mktemp("browser_compare")
    sample_dir = root / "sample"
    sample_dir.mkdir()
    for name, (entity, label, values) in FILINGS.items():
        rd_10k_pdf(sample_dir / name, entity, label, values, DEFINITION)
    env = {k: v for k, v in os.environ.items()
           if k not in ("GROQ_API_KEY", "TAVILY_API_KEY", "PRISM_GROQ_API_KEY", "PRISM_TAVILY_API_KEY",
                        "PRISM_ACCESS_CODE")}
    env.update(PRISM_HOME=str(root / "home"), PRISM_SAMPLE_DIR=str(sample_dir), PRISM_EVAL_DIR=str(root / "eval"),
               HF_HUB_OFFLINE="1", TRANSFORMERS_NO_ADVISORY_WARNINGS="1")
    port = _free_port()
    log = (root / "streamlit.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail("streamlit did not start:\n" + (root / "streamlit.log").read_text()[-3000:])
            time.sleep(0.3)
        downloads = root / "downloads"
        downloads.mkdir()
        yield url, downloads
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def driver(tmp_path_factory, compare_app) -> Iterator[WebDriver]:
    """Headless Chromium that saves downloads into the server's download folder."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}", "--window-size=1440,1500",
                "--force-device-scale-factor=1"):
        options.add_argument(arg)
    options.add_experimental_option("prefs", {"download.default_directory": str(compare_app[1]),
                                              "download.prompt_for_download": False})
    d = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    d.execute_cdp_cmd("Page.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(compare_app[1])})
    d.set_page_load_timeout(60)
    try:
        yield d
    finally:
        d.quit()


def _choose(d: WebDriver, label: str, option: str | None = None) -> None:
    """Open the select box or multiselect labelled ``label`` and click ``option`` (the first one when ``None``)."""
    def box(drv: WebDriver):  # the combobox's box (its input and button may have no size)
        return _first([g for g in drv.find_elements(
            By.XPATH, f'//input[starts-with(@aria-label, "{label}")]/ancestor::div[@role="group"][1]')
            if g.size["width"] > 0 and g.size["height"] > 0])
    _click(d, box, f"the '{label}' box", scroll=True)

    def pick(drv: WebDriver) -> bool:  # an option may have no size of its own: a script click, as a screen reader's
        found = _first([o for o in drv.find_elements(By.CSS_SELECTOR, '[role="option"]')
                        if option is None or o.text.strip() == option or o.get_attribute("textContent") == option])
        if found is None:
            return False
        drv.execute_script("arguments[0].click();", found)
        return True
    _wait(d, pick, 20, f"option {option or 'first'} of '{label}'")
    _idle(d)


def test_compare_page_fills_the_grid_and_exports_it_without_placeholders(compare_app, driver):
    url, downloads = compare_app
    d = driver
    d.get(url)
    _wait_text(d, "Ask anything about these documents", 180)  # the first start indexes the two 10-Ks
    _idle(d)
    _nav(d, "Compare")
    _wait_text(d, "Run grid", 60)
    _idle(d)
    _no_exception(d)

    for _ in FILINGS:  # each pick removes the option: the first one left, twice
        _choose(d, "Documents")
    ActionChains(d).send_keys(Keys.ESCAPE).perform()  # close the documents' list, which stays open
    _wait(d, lambda drv: not [o for o in drv.find_elements(By.CSS_SELECTOR, '[role="listbox"]') if o.is_displayed()],
          10, "the documents' list to close")
    _choose(d, "Template", "filings")
    _click_button(d, "Add template questions")
    # under load the rerun the click starts may begin after _idle's first look: wait for the questions to show
    _wait(d, lambda drv: "What was the operating margin{period}?" in (drv.find_element(
        By.CSS_SELECTOR, 'textarea[aria-label^="Questions"]').get_attribute("value") or ""), 60,
          "the template's questions in the box")
    _idle(d)
    title = d.find_element(By.CSS_SELECTOR, 'input[aria-label="Grid title"]')
    title.send_keys("Margins", Keys.TAB)
    _idle(d)
    _shot(d, "compare_01_ready")
    _click_button(d, "Run grid")
    _wait(d, lambda drv: "Grid 'Margins' saved: 10 cells." in _text(drv), 240, "the grid to fill")
    _idle(d)
    _no_exception(d)
    _shot(d, "compare_02_filled")
    body = _text(d)
    assert ROW in body and "{period}" not in body.split("Grid title")[-1]
    assert body.count(f"operating margin FY2015: {MARGIN}") == 2, body

    _click_button(d, "Export CSV")
    # Chromium writes a download as <name>.crdownload and renames it when complete: a .csv with no partial file left
    path = _wait(d, lambda drv: not list(downloads.glob("*.crdownload"))
                 and _first([p for p in downloads.glob("*.csv") if p.stat().st_size > 0]), 30, "the CSV download")
    text = path.read_text(encoding="utf-8-sig")
    assert unfilled(text) == [], unfilled(text)
    rows = {row[0]: row[1:] for row in csv.reader(io.StringIO(text))}
    assert len(rows[ROW]) == 2 and all(f"operating margin FY2015: {MARGIN}" in cell for cell in rows[ROW]), rows[ROW]
    assert all(cell.startswith("[What was the operating margin in FY2015?] ") for cell in rows[ROW])
    shutil.copy(path, path.with_name("compare-export-checked.csv"))
