"""One analyst's browser for ``bench/load.py``: headless Debian Chromium driven by selenium, asking questions in the
Chat page and uploading a file on the Upload page, with the times read from the page itself.

Times come from the browser's own clock (``performance.now()``, milliseconds): a ``MutationObserver`` installed just
before a question is sent stamps the first answer text drawn in the new assistant message (the first token) and the
answer's footer (":material/timer: Extractive answer · …", "LLM answer" or "No answer in the documents", drawn by
``prism/ui/chat_view.answer_details`` only after the whole answer has streamed and its sources are drawn) — or an
error box or a traceback, which end the answer as an error. Python polls those stamps twice a second, so polling
never adds to a measured time.

Every wait is bounded in time; every browser is quit by its owner (:func:`browser` is a context manager).
"""

from __future__ import annotations

import contextlib
import re
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROME_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,1000")
READY = "Ask anything about these documents"
"""The empty Chat page's prompt: the sample workspace is built and the page is drawn."""

OBSERVE = r"""
const n = arguments[0];
if (window.__plObs) { window.__plObs.disconnect(); }
const s = {t0: performance.now(), first: null, done: null, kind: null, text: '', n: n};
window.__pl = s;
const check = () => {
  if (s.done !== null) return;
  const msgs = document.querySelectorAll('[data-testid="stChatMessage"]');
  if (msgs.length < n + 2) return;
  const a = msgs[n + 1];
  let text = '';
  a.querySelectorAll('[data-testid="stMarkdownContainer"]').forEach(m => {
    if (!m.closest('[data-testid="stSpinner"]') && !m.closest('[data-testid="stCaptionContainer"]')) {
      text += m.textContent;
    }
  });
  if (s.first === null && text.trim().length > 0) s.first = performance.now();
  const captions = Array.from(a.querySelectorAll('[data-testid="stCaptionContainer"]')).map(c => c.textContent);
  const footer = captions.find(c => /Extractive answer|LLM answer|No answer in the documents/.test(c));
  const error = a.querySelector('[data-testid="stAlertContentError"]')
    || document.querySelector('[data-testid="stException"]')
    || (document.body.innerText.indexOf('Traceback') >= 0 ? document.body : null);
  if (footer || error) {
    s.done = performance.now();
    s.kind = error ? 'error' : (/No answer in the documents/.test(footer) ? 'declined' : 'answered');
    s.text = (error ? error.textContent : text).slice(0, 300);
    if (s.first === null) s.first = s.done;
  }
};
window.__plObs = new MutationObserver(check);
window.__plObs.observe(document.body, {subtree: true, childList: true, characterData: true});
check();
"""


@dataclass
class Asked:
    """One question's outcome. ``first_s`` / ``full_s``: seconds from sending it to the first answer text and to the
    finished answer (``None`` when it never came); ``kind``: ``answered``, ``declined``, ``error``, ``incomplete``
    (no finished answer within the time limit) or ``closed`` (the browser was closed on purpose)."""

    session: str
    question: str
    kind: str
    first_s: float | None = None
    full_s: float | None = None
    detail: str = ""


def _driver(profile: Path) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (*CHROME_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(arg)
    d = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    d.set_page_load_timeout(120)
    d.set_script_timeout(30)
    return d


@contextlib.contextmanager
def browser() -> Iterator[Any]:
    """A fresh headless Chromium (its own profile folder), quit on exit whatever happened."""
    with tempfile.TemporaryDirectory(prefix="prism-load-chromium-") as profile:
        d = _driver(Path(profile))
        try:
            yield d
        finally:
            with contextlib.suppress(Exception):
                d.quit()


def wait_for(d: Any, condition: Callable[[Any], Any], timeout_s: float, what: str, poll_s: float = 0.5) -> Any:
    """Poll ``condition(d)`` until it is truthy (exceptions count as not yet); ``TimeoutError`` naming ``what``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            value = condition(d)
        except Exception:  # noqa: BLE001 - a stale element during a rerun: look again
            value = None
        if value:
            return value
        time.sleep(poll_s)
    raise TimeoutError(f"timed out after {timeout_s:.0f} s waiting for {what}")


def body_text(d: Any) -> str:
    from selenium.webdriver.common.by import By

    return str(d.find_element(By.TAG_NAME, "body").text)


def page_errors(d: Any) -> list[str]:
    """Exceptions and tracebacks shown on the page (Streamlit's exception box, or "Traceback" in the text)."""
    found = d.execute_script(
        "return Array.from(document.querySelectorAll('[data-testid=\"stException\"]'))"
        ".map(e => e.textContent.slice(0, 200));") or []
    if "Traceback" in body_text(d):
        found.append("'Traceback' in the page text")
    return [str(f) for f in found]


def idle(d: Any, timeout_s: float = 60) -> bool:
    """Wait until no script run is in progress (no status widget); False when it is still running at the limit."""
    time.sleep(0.5)
    try:
        wait_for(d, lambda drv: not drv.find_elements("css selector", '[data-testid="stStatusWidget"]'), timeout_s,
                 "the script to finish")
        return True
    except TimeoutError:
        return False


def open_chat(d: Any, url: str, timeout_s: float = 300) -> None:
    """A new session on the Chat page of the sample workspace (the server's first start builds it)."""
    d.get(url)
    wait_for(d, lambda drv: READY in body_text(drv), timeout_s, "the Chat page")
    idle(d)


def ask(d: Any, session: str, question: str, timeout_s: float, close_after_s: float | None = None) -> Asked:
    """Send ``question`` in the open chat and wait for its answer (at most ``timeout_s`` seconds); with
    ``close_after_s`` the browser is quit that many seconds after sending, mid-answer (kind ``closed``)."""
    box = wait_for(d, lambda drv: drv.find_element("css selector", '[data-testid="stChatInputTextArea"]'), 60,
                   "the chat input")
    n = len(d.find_elements("css selector", '[data-testid="stChatMessage"]'))
    d.execute_script(OBSERVE, n)
    box.send_keys(question + "\n")
    if close_after_s is not None:
        time.sleep(close_after_s)
        d.quit()
        return Asked(session, question, "closed")
    deadline = time.monotonic() + timeout_s
    state: dict[str, Any] = {}
    while time.monotonic() < deadline:
        state = d.execute_script("return window.__pl") or {}
        if state.get("done") is not None:
            break
        time.sleep(0.5)
    t0 = state.get("t0") or 0.0
    first = (state["first"] - t0) / 1000 if state.get("first") is not None else None
    if state.get("done") is None:
        return Asked(session, question, "incomplete", first, None, "no finished answer in time")
    kind = str(state.get("kind"))
    if kind == "answered" and not str(state.get("text", "")).strip():
        kind = "incomplete"
    result = Asked(session, question, kind, first, (state["done"] - t0) / 1000, str(state.get("text", "")))
    if not idle(d, 60):
        result.detail += " (script still running 60 s after the answer)"
    return result


# --- the upload session ---------------------------------------------------------------------------------------
HOLDS = re.compile(r"Sample workspace holds (\d+) documents?")


def _batch_text(d: Any) -> str:
    """The batch's part of the Upload page: from "1 file → …" to the workspace summary line."""
    text = body_text(d)
    start = text.find("1 file → ")
    end = text.find("Sample workspace holds", start)
    return text[start:end].strip() if start >= 0 else ""


def _click_add(d: Any) -> None:
    def click(drv: Any) -> bool:
        for b in drv.find_elements("css selector", "button"):
            if b.text.strip().endswith("Add to Sample workspace"):
                b.click()
                return True
        return False
    wait_for(d, click, 30, "the Add button")


def _pick(d: Any, url: str, pdf: Path) -> int:
    """Open the Upload page, choose ``pdf`` and press Add; returns the documents the workspace held before."""
    d.get(f"{url}/upload")
    wait_for(d, lambda drv: HOLDS.search(body_text(drv)), 120, "the Upload page")
    idle(d)
    before = int(HOLDS.search(body_text(d)).group(1))  # type: ignore[union-attr]
    wait_for(d, lambda drv: drv.find_element("css selector", 'input[type="file"]'), 30, "the file input").send_keys(
        str(pdf))
    wait_for(d, lambda drv: pdf.name[-10:] in body_text(drv), 30, "the chosen file")
    _click_add(d)
    wait_for(d, lambda drv: "1 file → Sample workspace" in body_text(drv), 60, "the batch")
    return before


def _refresh_shows(d: Any, what: str, timeout_s: float = 120) -> bool:
    d.refresh()
    try:
        wait_for(d, lambda drv: HOLDS.search(body_text(drv)), timeout_s, "the Upload page after the refresh")
        wait_for(d, lambda drv: what in body_text(drv), 15, f"'{what}' after the refresh")
        return True
    except TimeoutError:
        return False


def upload(url: str, pdf: Path, timeout_s: float, out: dict[str, Any]) -> None:
    """Upload ``pdf`` into the sample workspace, refreshing during the upload and after its briefing; the checks go
    into ``out`` (``refresh during upload``, ``briefing after refresh``, ``upload s``, ``errors``)."""
    try:
        with browser() as d:
            before = _pick(d, url, pdf)
            start = time.monotonic()
            wait_for(d, lambda drv: "indexing" in body_text(drv) or "waiting for the previous" in body_text(drv)
                     or "added and searchable" in body_text(drv), 120, "the progress bar")
            out["refresh during upload"] = ("batch shown again" if _refresh_shows(d, "1 file → Sample workspace")
                                            else "batch LOST")
            finished = lambda drv: ("added and searchable" in body_text(drv) or "Failed" in body_text(drv)  # noqa: E731
                                    or (HOLDS.search(body_text(drv)) and
                                        int(HOLDS.search(body_text(drv)).group(1)) > before))
            wait_for(d, finished, timeout_s, "the upload to finish", poll_s=2)
            out["upload s"] = round(time.monotonic() - start, 1)
            if "Briefings" not in body_text(d):
                with contextlib.suppress(TimeoutError):
                    wait_for(d, lambda drv: "Briefings" in body_text(drv), 120, "the briefing")
            idle(d)
            shown = _batch_text(d)
            out["result"] = "added" if "added and searchable" in shown else (shown[:120] or "batch not shown")
            kept = _refresh_shows(d, "Briefings") and idle(d) and _batch_text(d) == shown
            out["briefing after refresh"] = "batch and briefing as before" if kept else "NOT as before"
            out["page errors"] = len(page_errors(d))
    except Exception as exc:  # noqa: BLE001 - the upload's failure is reported, the bench goes on
        out["error"] = f"{type(exc).__name__}: {exc}"[:300]
