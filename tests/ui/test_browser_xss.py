"""Case c63 in a real browser (the server and Chromium of :mod:`tests.ui.test_browser`; skipped with the reason when
Chromium is absent): HTML and script in a document's text (c63_xss_circular.txt) and in an Excel sheet's name
(c63_sheetname.xlsx) are shown as literal text on the Upload page's briefings, in the chat's answer, citation label
and passage, and on the Workspaces page; no script runs (no alert, the page title and body untouched) and no element
is made from them. Screenshots go to tests/artifacts/ (git-ignored)."""

from __future__ import annotations

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.conftest import CASES
from tests.ui.test_browser import (  # noqa: F401  (app_url and driver are the module's fixtures)
    _ask,
    _create_workspace,
    _flat,
    _idle,
    _nav,
    _no_exception,
    _open_app,
    _open_details,
    _shot,
    _text,
    _upload,
    _wait_text,
    app_url,
    driver,
)

CIRCULAR = CASES / "c63_xss_circular.txt"
SHEET_BOOK = CASES / "c63_sheetname.xlsx"
SHEET = "<img src=x onerror=alert(7)>"
SCRIPT = "<script>document.title='XSS-SCRIPT'</script>"
INJECTED = "img[src='x'], img[onerror], a[href^='javascript:'], [data-xss]"
"""What the documents would make if drawn as HTML: their image, their javascript: link, the attribute they set."""


def _untouched(d: WebDriver) -> None:
    """No alert is open, the documents' scripts did not run, and none of their elements exists."""
    try:
        text = d.switch_to.alert.text
    except NoAlertPresentException:
        text = None
    assert text is None, f"an alert opened: {text!r}"
    assert not d.title.startswith("XSS"), d.title
    assert d.execute_script("return document.body.getAttribute('data-xss')") is None
    made = d.execute_script("return Array.from(document.body.querySelectorAll(arguments[0])).map(e => e.outerHTML)",
                            INJECTED)
    scripts = d.execute_script("return Array.from(document.body.querySelectorAll('script'))"
                               ".filter(e => (e.textContent || '').includes('XSS')).length")
    assert made == [] and scripts == 0, made


def test_html_and_script_in_a_document_and_a_sheet_name_are_shown_as_text(app_url, driver):  # noqa: F811
    d = driver
    workspace = "c63 wallets"
    _open_app(d, app_url)
    _create_workspace(d, workspace)
    _nav(d, "Upload")
    _upload(d, [CIRCULAR, SHEET_BOOK], workspace)
    _shot(d, "c63_01_briefings")
    _untouched(d)

    _nav(d, "Chat")
    _wait_text(d, f"Answers from {workspace} · 2 documents")
    answer = _ask(d, "When may wallet holders close the wallet and how is the balance refunded?")
    _shot(d, "c63_02_script_answer")
    _untouched(d)
    answer = _open_details(d, {"[1] ": ".prism-chunk"})  # a citation's passage is built when it is opened
    _untouched(d)
    passages = [_flat(p.get_attribute("textContent")) for p in answer.find_elements(By.CSS_SELECTOR, ".prism-chunk")]
    assert any(SCRIPT in p for p in passages), passages  # the passage shows the script as written
    assert any('<img src=x onerror="document.title=' in p for p in passages), passages

    answer = _ask(d, "What is the monthly load limit for a Full-KYC PPI wallet type?", answers=2)
    _shot(d, "c63_03_sheet_answer")
    _untouched(d)
    shown = _flat(answer.text)
    assert f"Sheet '{SHEET}'" in shown, shown  # the citation's locator names the sheet as written
    assert "2,00,000" in shown, shown

    _nav(d, "Workspaces")
    _wait_text(d, "its briefing, profile")
    _idle(d)
    _no_exception(d)
    _untouched(d)
    assert CIRCULAR.name in _text(d) and SHEET_BOOK.name in _text(d)
    _shot(d, "c63_04_workspaces")
