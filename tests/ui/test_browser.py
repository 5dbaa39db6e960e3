"""End to end in a real browser: `streamlit run app.py` on a free loopback port, driven by Debian's Chromium through
selenium; one server for the module. Upload an RBI PDF, see its briefing, ask a question, open a citation; create a
workspace and upload into it; hostile document text shown as written. Screenshots of
every step go to tests/artifacts/ (git-ignored).

Needs /usr/bin/chromium and /usr/bin/chromedriver (`.ci/run` installs Debian's chromium and chromium-driver); the
test is skipped with the reason when either is missing. Nothing is installed at test time.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.conftest import CASES, DATA, REPO, needs_data
from tests.ui.test_literal_text import HOSTILE

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ARTIFACTS = REPO / "tests" / "artifacts"
RBI_PDF = DATA / "rbi" / "pdfs" / "NT7871494C59CE3B455BBD0D18770BBB1408.pdf"
SAMPLE = REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf"
HANDBOOK_PDF = CASES / "33_a_three_pages.pdf"
"""Three short pages: quick to index, so the create → upload test waits on the app, not on parsing."""
CASE_46 = CASES / "46_earnings_call_tildes.txt"
PROBE = '<img src="x" onerror="window.prismInjected=1"> is an HTML probe.'
"""Would set ``window.prismInjected`` if any page drew document text as HTML."""
MARKUP = ("del, s, strike, blockquote, script, code, pre, b, i, em, table, hr, h2, h3, h4, h6, .katex, "
          "img[src='x'], img[src^='data:'], ol, li li, [data-testid='stMarkdownColoredText']")
"""Elements that hostile document text would make if it were drawn as Markdown or HTML (the pages' own markup uses
none of them but the snippets' quote blocks of "Also retrieved", counted apart)."""

selenium = pytest.importorskip("selenium", reason="selenium is not installed (pip install -r requirements-dev.txt)")
if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
    pytest.skip("Chromium or chromedriver is missing (/usr/bin/chromium, /usr/bin/chromedriver); install Debian's "
                "chromium and chromium-driver to run the browser test", allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import (  # noqa: E402
    ElementClickInterceptedException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

pytestmark = pytest.mark.slow


SERVER_DIRS: dict[str, Path] = {}
"""Each running server's address → its folder (``home/`` is its PRISM_HOME, ``eval/`` its PRISM_EVAL_DIR)."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def app_url(tmp_path_factory) -> Iterator[str]:
    """A headless Prism server on a free port, with its own PRISM_HOME and a one-document sample folder."""
    root = tmp_path_factory.mktemp("browser")
    sample_dir = root / "sample"
    sample_dir.mkdir()
    shutil.copy(SAMPLE, sample_dir / SAMPLE.name)
    env = {k: v for k, v in os.environ.items()
           if k not in ("GROQ_API_KEY", "TAVILY_API_KEY", "PRISM_GROQ_API_KEY", "PRISM_TAVILY_API_KEY",
                        "PRISM_ACCESS_CODE")}
    env.update(PRISM_HOME=str(root / "home"), PRISM_SAMPLE_DIR=str(sample_dir), PRISM_EVAL_DIR=str(root / "eval"),
               HF_HUB_OFFLINE="1",
               TRANSFORMERS_NO_ADVISORY_WARNINGS="1")
    port = _free_port()
    log = (root / "streamlit.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    SERVER_DIRS[url] = root
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
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        text = (root / "streamlit.log").read_text()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "streamlit.log").write_text(text)


@pytest.fixture(scope="module")
def driver(tmp_path_factory) -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}", "--window-size=1440,1500",
                "--force-device-scale-factor=1"):
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    d.set_page_load_timeout(60)
    try:
        yield d
    finally:
        d.quit()


# --- helpers ----------------------------------------------------------------------------------------------------
def _wait(d: WebDriver, condition, timeout: float, what: str):
    """Poll `condition(d)` until truthy. Streamlit re-renders elements on every rerun (the sidebar polls ingestion
    progress), so an element found a moment ago may be stale: that is retried, not a failure."""
    try:
        return WebDriverWait(d, timeout, poll_frequency=0.25,
                             ignored_exceptions=(StaleElementReferenceException,)).until(condition)
    except TimeoutException:
        _shot(d, f"failed-{what.replace(' ', '-')}")
        raise AssertionError(f"timed out after {timeout:.0f}s waiting for {what}") from None


def _text(d: WebDriver) -> str:
    return d.find_element(By.TAG_NAME, "body").text


def _wait_text(d: WebDriver, text: str, timeout: float = 30) -> None:
    _wait(d, lambda drv: text in _text(drv), timeout, f"text '{text}'")


def _idle(d: WebDriver, timeout: float = 60) -> None:
    """Wait until the script has finished running (no 'Running…' status widget)."""
    time.sleep(0.4)
    _wait(d, lambda drv: not drv.find_elements(By.CSS_SELECTOR, '[data-testid="stStatusWidget"]'), timeout,
          "the script to finish")


def _shot(d: WebDriver, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    d.save_screenshot(str(path))
    return path


def _no_exception(d: WebDriver) -> None:
    assert not d.find_elements(By.CSS_SELECTOR, '[data-testid="stException"]'), "an exception is shown on the page"
    body = _text(d)
    assert "Traceback" not in body


def _click(d: WebDriver, find, what: str, timeout: float = 20, scroll: bool = False) -> str:
    """Find an element with `find(d)` (None when absent) and click it, looking it up again when a rerun replaced
    it between the lookup and the click, or when another element still lay over it (an expander opening, a rerun
    laying the page out): a click that stays covered until `timeout` fails. Returns the clicked element's text."""
    def attempt(drv: WebDriver) -> str | bool:
        el: WebElement | None = find(drv)
        if el is None:
            return False
        text = el.text.strip()
        if scroll:
            drv.execute_script("arguments[0].scrollIntoView({block: 'center'});", el)
        try:
            el.click()
        except ElementClickInterceptedException:  # still moving (an expander opening, a rerun's layout): again
            return False
        return text or True
    result = _wait(d, attempt, timeout, what)
    return result if isinstance(result, str) else ""


def _first(elements) -> WebElement | None:
    return elements[0] if elements else None


def _click_button(d: WebDriver, label: str) -> str:
    return _click(d, lambda drv: _first([b for b in drv.find_elements(By.TAG_NAME, "button")
                                         if b.text.strip().endswith(label) or b.text.strip() == label]),
                  f"button '{label}'")


PAGE_PATHS = {"Chat": ("", "chat"), "Upload": ("upload",), "Upload documents": ("upload",),
              "Workspaces": ("workspaces",), "Evaluation": ("eval",), "Compare": ("compare",)}
"""The address path of the page each link opens (Chat is the default page, at /)."""


def _nav(d: WebDriver, label: str) -> None:
    """Click the link ``label`` until its page's address is open (a click during a rerun can be lost)."""
    paths = PAGE_PATHS[label]
    for attempt in range(3):
        _click(d, lambda drv: _first([a for a in drv.find_elements(By.CSS_SELECTOR, '[data-testid="stTopNavLink"], a')
                                      if a.is_displayed() and (a.text.strip().splitlines() or [""])[-1] == label]),
               f"navigation link '{label}'")
        try:
            _wait(d, lambda drv: urlparse(drv.current_url).path.strip("/") in paths, 10, f"the page of '{label}'")
            return
        except AssertionError:
            if attempt == 2:
                raise


def _sidebar(d: WebDriver) -> str:
    return _wait(d, lambda drv: drv.find_element(By.CSS_SELECTOR, '[data-testid="stSidebar"]').text or False, 20,
                 "the sidebar")


def _picked_workspace(d: WebDriver) -> str:
    """The workspace the sidebar's picker shows."""
    return d.find_element(By.CSS_SELECTOR, '[data-testid="stSidebar"] input[aria-label="Workspace"]').get_attribute(
        "value") or ""


def _open_app(d: WebDriver, url: str) -> None:
    """A new session on the Chat page of the sample workspace (the first start of the server builds it)."""
    d.get(url)
    _wait_text(d, "Ask anything about these documents", 120)
    _idle(d)
    _no_exception(d)


def _create_workspace(d: WebDriver, name: str) -> None:
    """Create ``name`` with the Workspaces page's form; the page then uses it."""
    _nav(d, "Workspaces")
    _wait_text(d, "All workspaces")
    _idle(d)
    box = _wait(d, lambda drv: _first([i for i in drv.find_elements(By.CSS_SELECTOR, 'input[aria-label="Name"]')
                                       if i.is_displayed()]), 20, "the new workspace's name field")
    box.send_keys(name)
    _click_button(d, "Create workspace")
    _wait_text(d, f"Workspace {name} created and selected", 30)
    _idle(d)
    _no_exception(d)


def _upload(d: WebDriver, files: list[Path], workspace: str) -> None:
    """On the Upload page (which must name ``workspace`` as the target): add ``files`` and wait for the batch."""
    _wait_text(d, f"Add files to {workspace}.")
    _idle(d)
    file_input = _wait(d, lambda drv: drv.find_element(By.CSS_SELECTOR, 'input[type="file"]'), 20, "the file input")
    file_input.send_keys("\n".join(str(f) for f in files))
    for f in files:
        _wait_text(d, f.name[-10:], 20)  # the picker shortens long names in the middle
    _click_button(d, f"Add to {workspace}")
    _wait_text(d, f"{len(files)} file{'s' if len(files) > 1 else ''} → {workspace}", 30)
    _wait(d, lambda drv: "added and searchable" in _text(drv) or "Failed" in _text(drv), 180, "the batch to finish")
    _wait_text(d, "Briefings", 60)
    _idle(d)
    _no_exception(d)
    assert f"{len(files)} document{'s' if len(files) > 1 else ''} added and searchable" in _text(d)


def _ask(d: WebDriver, question: str, answers: int = 1) -> WebElement:
    """Type ``question`` into the chat; returns the ``answers``-th answer (its chat message) once it shows its
    sources."""
    box = _wait(d, lambda drv: drv.find_element(By.CSS_SELECTOR, '[data-testid="stChatInputTextArea"]'), 20,
                "the chat input")
    box.send_keys(question)
    box.send_keys(Keys.ENTER)

    def answered(drv: WebDriver) -> WebElement | bool:
        messages = drv.find_elements(By.CSS_SELECTOR, '[data-testid="stChatMessage"]')
        return len(messages) >= 2 * answers and "Sources" in messages[2 * answers - 1].text and messages[
            2 * answers - 1]
    _wait(d, answered, 90, "the answer and its sources")
    _idle(d, 90)
    _no_exception(d)
    return _wait(d, answered, 10, "the answer")


def _citation_labels(d: WebDriver) -> list[str]:
    """The labels of the citation expanders on the page ("[1] file · page 2 — “…”")."""
    labels = [e.text.strip() for e in d.find_elements(By.CSS_SELECTOR, '[data-testid="stExpander"] summary')]
    return [label.removeprefix("format_quote").strip() for label in labels
            if label.removeprefix("format_quote").strip().startswith("[")]


# --- the journey -----------------------------------------------------------------------------------------------
@needs_data
def test_upload_brief_ask_and_open_citation(app_url, driver):
    d = driver
    t0 = time.monotonic()
    d.get(app_url)
    _wait_text(d, "Ask anything about these documents", 120)  # first start builds the sample workspace
    _idle(d)
    _no_exception(d)
    assert "Sample workspace" in _text(d)
    _shot(d, "01_first_start_chat")

    _nav(d, "Upload")
    _wait_text(d, "Upload documents")
    _idle(d)
    file_input = _wait(d, lambda drv: drv.find_element(By.CSS_SELECTOR, 'input[type="file"]'), 20, "the file input")
    file_input.send_keys(str(RBI_PDF))
    _wait_text(d, RBI_PDF.name[-10:], 20)
    _shot(d, "02_upload_selected")
    _click_button(d, "Add to Sample workspace")  # the button names the workspace in use
    # The batch names the workspace its files go to, then shows each file's progress (or, when quick, its result).
    _wait_text(d, "1 file → Sample workspace", 30)
    _shot(d, "03_upload_progress")
    # Leave the page while it runs: the sidebar of every page shows the progress (when it is still running).
    _nav(d, "Chat")
    _wait_text(d, "Ask anything about these documents", 30)
    sidebar_text = _wait(d, lambda drv: drv.find_element(By.CSS_SELECTOR, '[data-testid="stSidebar"]').text or " ",
                         10, "the sidebar")
    if "Adding 1 document" in sidebar_text:
        _shot(d, "03b_chat_while_indexing")
    _wait(d, lambda drv: "2 documents" in _text(drv), 120, "the new document to reach the chat page")
    _nav(d, "Upload")
    _wait_text(d, "Briefings", 120)
    _idle(d)
    _shot(d, "04_briefing")
    _no_exception(d)
    assert "added and searchable" in _text(d)

    # A suggested question from the briefing opens the chat with that question asked.
    question = _click(d, lambda drv: _first([b for b in drv.find_elements(By.TAG_NAME, "button")
                                             if b.text.strip().endswith("?")]),
                      "a question button on the briefing card", scroll=True)
    _wait_text(d, "Sources", 90)
    _idle(d)
    _no_exception(d)
    assert question.splitlines()[-1][:30] in _text(d)
    _shot(d, "05_briefing_question_answered")

    # Ask a typed question.
    box = _wait(d, lambda drv: drv.find_element(By.CSS_SELECTOR, '[data-testid="stChatInputTextArea"]'), 20,
                "the chat input")
    box.send_keys("Under which sections of the Foreign Exchange Management Act are these directions issued?")
    box.send_keys(Keys.ENTER)
    _wait(d, lambda drv: len(drv.find_elements(By.CSS_SELECTOR, '[data-testid="stChatMessage"]')) >= 4, 90,
          "the second answer")
    _idle(d, 90)
    _no_exception(d)
    _wait(d, lambda drv: drv.execute_script("arguments[0].scrollIntoView({block: 'start'}); return true;",
                                            drv.find_elements(By.CSS_SELECTOR, '[data-testid="stChatMessage"]')[-1]),
          10, "the last answer to scroll into view")
    _shot(d, "06_typed_question_answered")

    # Open the first citation of the last answer.
    def last_citation(drv: WebDriver) -> WebElement | None:
        expanders = drv.find_elements(By.CSS_SELECTOR, '[data-testid="stExpander"] summary')
        citations = [e for e in expanders if e.text.strip().startswith("format_quote")
                     or e.text.strip()[:3] == "[1]" or "[1]" in e.text[:20]]
        return citations[-1] if citations else None
    _click(d, last_citation, "a citation expander", scroll=True)
    _wait(d, lambda drv: drv.find_elements(By.CSS_SELECTOR, '[data-testid="stExpanderDetails"] img'), 30,
          "the page preview")
    time.sleep(1.0)  # let plotly draw
    body = _text(d)
    assert "Why this passage" in body
    d.execute_script("arguments[0].scrollIntoView({block: 'start'});",
                     d.find_element(By.CSS_SELECTOR, '[data-testid="stExpanderDetails"] img'))
    _no_exception(d)
    _shot(d, "07_citation_open")

    _nav(d, "Workspaces")
    _wait_text(d, "All workspaces")
    _idle(d)
    _no_exception(d)
    assert "2 documents" in _text(d)
    _shot(d, "08_workspaces")
    assert time.monotonic() - t0 < 240


def test_a_new_workspace_is_where_uploads_go(app_url, driver):
    """Create a workspace on the Workspaces page; the sidebar, the Upload page (through the page's own
    "Upload documents" link) and its button name it; the file lands in it, not in the sample workspace."""
    d = driver
    name = "Q3 policy review"
    _open_app(d, app_url)
    _nav(d, "Upload")
    _wait_text(d, "Add files to Sample workspace.")
    _wait_text(d, "Sample workspace holds ", 60)  # the summary line is drawn after the uploader (slow on busy cores)
    _idle(d)
    before = re.search(r"Sample workspace holds (\d+) documents?", _text(d))
    assert before, _text(d)

    _create_workspace(d, name)
    _wait_text(d, "No documents yet")
    assert _picked_workspace(d) == name  # the sidebar uses it on the same rerun
    _shot(d, "10_workspace_created")
    _nav(d, "Upload documents")  # the empty workspace's link to the Upload page
    assert "Add files to Sample workspace" not in _text(d)
    _upload(d, [HANDBOOK_PDF], name)
    d.refresh()  # the page header counts documents when the whole page runs (a refresh keeps ?ws=)
    _wait_text(d, f"{name} holds 1 document · 3 pages.", 90)
    _shot(d, "11_uploaded_to_new_workspace")

    _nav(d, "Chat")
    _wait_text(d, f"Answers from {name} · 1 document")
    _idle(d)
    assert _picked_workspace(d) == name
    assert _sidebar(d).count(HANDBOOK_PDF.name[:12]) == 1 and SAMPLE.name[:12] not in _sidebar(d)
    _ask(d, "How many days of leave does the Handbook A leave policy give?")
    _shot(d, "12_chat_in_new_workspace")
    labels = _citation_labels(d)
    assert labels and all(label.split(" · ")[0].split(" — ")[0].endswith(HANDBOOK_PDF.name) for label in labels), (
        labels, [e.text for e in d.find_elements(By.CSS_SELECTOR, '[data-testid="stExpander"] summary')])

    # The sample workspace kept its documents: the new file is not among them.
    _nav(d, "Workspaces")
    _wait_text(d, "All workspaces")
    _wait_text(d, f"Sample workspace · {before.group(1)} document")
    _idle(d)
    _no_exception(d)
    assert re.search(rf"{name}\s+1 document · in use", _text(d)), _text(d)


def _markup(d: WebDriver, root: WebElement) -> list[str]:
    """Elements of :data:`MARKUP` under ``root``, as ``"TAG: text"``."""
    return d.execute_script("return Array.from(arguments[0].querySelectorAll(arguments[1]))"
                            ".filter(e => !e.closest('[data-testid=\"stDataFrame\"]'))"  # a grid's own a11y table
                            ".map(e => e.tagName + ': ' + e.textContent.slice(0, 80));", root, MARKUP)


def _grid_rows(d: WebDriver) -> list[list[str]]:
    """The cells of the page's data grids (their accessible table), row by row."""
    return d.execute_script(
        "return Array.from(document.querySelectorAll('[data-testid=\"stDataFrame\"] table tr'))"
        ".map(r => Array.from(r.children).map(c => c.textContent));")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _open_details(d: WebDriver, wanted: dict[str, str]) -> WebElement:
    """Open the last answer's expanders whose labels start with the keys of ``wanted`` (a citation's details, the
    passages also retrieved, are built only when opened), each until the element its value selects (CSS) is drawn
    in the answer; returns the answer."""
    def last_answer(drv: WebDriver) -> WebElement:
        return drv.find_elements(By.CSS_SELECTOR, '[data-testid="stChatMessage"]')[-1]

    for label, drawn in wanted.items():
        def summary(drv: WebDriver, label: str = label) -> WebElement | None:
            found = [e for e in last_answer(drv).find_elements(By.CSS_SELECTOR, '[data-testid="stExpander"] summary')
                     if e.text.strip().split("\n")[-1].startswith(label)]
            return found[0] if found else None

        def opened(drv: WebDriver, css: str = drawn, summary=summary) -> bool:
            """The contents are drawn; else the expander is opened again when closed (a run of the whole page,
            e.g. the one listing a new chat in the sidebar, can redraw the answer with it closed)."""
            if last_answer(drv).find_elements(By.CSS_SELECTOR, css):
                return True
            el = summary(drv)
            if el is not None and el.find_element(By.XPATH, "..").get_attribute("open") is None:
                drv.execute_script("arguments[0].scrollIntoView({block: 'center'});", el)
                try:
                    el.click()
                except ElementClickInterceptedException:  # still moving: the next poll clicks again
                    pass
            return False
        _click(d, summary, f"the expander '{label}'", scroll=True)
        _wait(d, opened, 60, f"the contents of '{label}'")
        _idle(d)
    return last_answer(d)


def test_hostile_document_text_is_shown_as_written(app_url, driver, tmp_path):
    """Case 46 plus the hostile strings of test_literal_text (HTML, a script, a data
    URI, Markdown, LaTeX dollars, Streamlit directives) in a file and a workspace with hostile names: the briefing,
    the answer, its citation, the passage and the other retrieved passage show them as written, and no element,
    script or image is made from them."""
    d = driver
    workspace = "Calls 5~10 bps *draft*"
    order = [HOSTILE[9], PROBE, HOSTILE[10], HOSTILE[11], *HOSTILE[2:9], *HOSTILE[12:]]  # the HTML in chunk 1
    notes = tmp_path / "hostile_notes_*v2*.txt"
    notes.write_text(CASE_46.read_text(encoding="utf-8") + "\n" + "\n\n".join(order) + "\n", encoding="utf-8")
    written = _flat(notes.read_text(encoding="utf-8").replace(HOSTILE[10], "[image: floor plan]"))  # README

    _open_app(d, app_url)
    _create_workspace(d, workspace)
    _nav(d, "Upload")
    _upload(d, [notes], workspace)
    main = d.find_element(By.CSS_SELECTOR, '[data-testid="stMain"]')
    bullets = [_flat(li.get_attribute("textContent")) for li in main.find_elements(By.TAG_NAME, "li")]
    assert bullets and all(b in written for b in bullets), (bullets, written)
    assert any("~" in b for b in bullets) and any("<img" in b for b in bullets), bullets
    assert re.search(rf"description\s*{re.escape(notes.name)}\n", _text(d)), _text(d)  # the briefing card's title
    assert re.search(rf"Limit answers to\s+{re.escape(notes.name)}\n", _sidebar(d)), _sidebar(d)  # the chip
    assert _markup(d, main) == []
    assert [notes.name, "Added"] in [row[:2] for row in _grid_rows(d)], _grid_rows(d)  # the batch's table
    _shot(d, "13_hostile_briefing")

    _nav(d, "Chat")
    _wait_text(d, f"Answers from {workspace} · 1 document")
    answer = _ask(d, "What credit cost is guided for FY25 and FY26?")
    _shot(d, "14_hostile_answer")
    shown = _flat(answer.text)
    assert "Credit cost is guided at 5~10 bps in FY25 and 20~30 bps in FY26. [1]" in shown, shown
    label = re.escape(f"[1] {notes.name}") + r"( · [^—“]+)? — “Earnings call remarks For the full year we expect"
    assert re.search(label, shown), shown  # the citation, its profile (if any) and the start of its passage
    answer = _open_details(d, {"[1] ": ".prism-chunk", "Also retrieved, not cited": "blockquote"})  # built when opened
    # The cited passage (its paragraphs are blocks, so compare without white space).
    passages = ["".join(p.get_attribute("textContent").split())
                for p in answer.find_elements(By.CSS_SELECTOR, ".prism-chunk")]
    assert passages and all(p in "".join(written.split()) for p in passages), passages
    assert any(all("".join(t.split()) in p for t in ("5~10 bps", "> 90 days past due", HOSTILE[9], PROBE))
               for p in passages), passages
    also = re.search(r"Also retrieved, not cited \((\d+)\)", shown)
    quotes = [_flat(q.get_attribute("textContent")) for q in answer.find_elements(By.TAG_NAME, "blockquote")]
    assert also and len(quotes) == int(also.group(1)), (shown, quotes)  # the snippets' own quote blocks only
    assert all(q.removesuffix("…") in written for q in quotes), quotes
    assert any("[click here](https://evil.example) :red[alarm]" in q for q in quotes), quotes
    assert [m for m in _markup(d, answer) if not m.startswith("BLOCKQUOTE: ")] == []
    # Streamlit's GFM turns a bare address into a link after escapes are read; it still reads as written (its text
    # is its address). "[click here](…)" must never become a link named "click here".
    links = [(a.get_attribute("textContent"), a.get_attribute("href")) for a in answer.find_elements(By.TAG_NAME, "a")]
    assert all(href.rstrip("/") == text.rstrip("/") for text, href in links), links

    assert d.execute_script("return window.prismInjected === undefined")
    scripts = [e.get_attribute("textContent") or "" for e in d.find_elements(By.TAG_NAME, "script")]
    assert all("alert('x')" not in js for js in scripts)
    _no_exception(d)

    # The document table: the title (a text file has none, so its file name), the file name and the briefing's
    # first point, cell for cell.
    _nav(d, "Workspaces")
    _wait_text(d, "its briefing, profile")
    _idle(d)
    assert [notes.name, notes.name, "—", "earnings call"] in [r[:4] for r in _grid_rows(d)], str(_grid_rows(d))
    # The grid draws only the columns in view: scroll it to its last column, the briefing's first point.
    d.execute_script("document.querySelectorAll('[data-testid=\"stDataFrame\"] .dvn-scroller')"
                     ".forEach(e => { e.scrollLeft = e.scrollWidth; });")
    _wait(d, lambda drv: any(bullets[0] in r for r in _grid_rows(drv)), 10, "the briefing column")
    main = d.find_element(By.CSS_SELECTOR, '[data-testid="stMain"]')
    assert _markup(d, main) == [f"H3: {workspace}"]  # the page's own subheader: the workspace's name as written
    assert d.execute_script("return window.prismInjected === undefined")
    _shot(d, "15_hostile_document_table")
