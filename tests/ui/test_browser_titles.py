"""In a real browser (the server and Chromium of :mod:`tests.ui.test_browser`): a hash-named
PDF shows its title in the sidebar and in its citation (the file name one click away); chosen files are named as
"not added yet" beside the Add button until it is pressed; at 1440×900 nothing covers the chat input, with the
feedback controls open (``document.elementFromPoint`` at the input's centre is the input). Screenshots go to
tests/artifacts/ (git-ignored)."""

from __future__ import annotations

from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from prism.ui.explain import shorten
from tests.builders import HASH_NAME, PENSION_DISPLAY, hash_named_circular
from tests.ui.test_browser import (  # noqa: F401  (app_url and driver are the module's fixtures)
    _ask,
    _citation_labels,
    _click,
    _click_button,
    _idle,
    _nav,
    _no_exception,
    _open_app,
    _shot,
    _sidebar,
    _text,
    _wait,
    _wait_text,
    app_url,
    driver,
)

COVERED_JS = """
const box = document.querySelector('[data-testid="stChatInputTextArea"]');
const r = box.getBoundingClientRect();
const x = r.left + r.width / 2, y = r.top + r.height / 2;
const el = document.elementFromPoint(x, y);
const input = box.closest('[data-testid="stChatInput"]') || box;
return {inside: !!el && input.contains(el), what: el ? (el.getAttribute('data-testid') || el.tagName) : 'nothing',
        x: x, y: y, height: window.innerHeight};
"""
"""What is drawn at the chat input's centre: ``inside`` is True when it is the input (or part of it)."""


def _not_covered(d: WebDriver, step: str) -> None:
    seen = d.execute_script(COVERED_JS)
    _shot(d, f"titles_{step}")
    assert seen["inside"], f"{step}: the chat input is covered by {seen['what']} at ({seen['x']}, {seen['y']})"
    assert 0 < seen["y"] < seen["height"], seen  # the input's centre is in the window


def test_titles_staged_files_and_an_uncovered_chat_input(app_url, driver, tmp_path):  # noqa: F811
    d = driver
    pdf = hash_named_circular(tmp_path)
    note = tmp_path / "pension_note.txt"
    note.write_text("Pension arrears are credited within 30 days of the revision order.\n", encoding="utf-8")
    _open_app(d, app_url)

    # chosen files are named as not added yet, beside the button, until it is pressed
    _nav(d, "Upload")
    _wait_text(d, "Add files to Sample workspace.")
    _idle(d)
    file_input = _wait(d, lambda drv: drv.find_element(By.CSS_SELECTOR, 'input[type="file"]'), 20, "the file input")
    file_input.send_keys("\n".join(str(p) for p in (pdf, note)))
    _wait_text(d, "2 files chosen — not added yet", 30)
    _shot(d, "titles_01_chosen_not_added")
    _click_button(d, "Add to Sample workspace")
    _wait(d, lambda drv: "added and searchable" in _text(drv) or "Failed" in _text(drv), 180, "the batch")
    _wait_text(d, "Briefings", 60)
    _idle(d)
    _no_exception(d)
    assert "2 documents added and searchable" in _text(d)
    assert "not added yet" not in _text(d)
    _wait_text(d, PENSION_DISPLAY, 60)  # the briefing card is headed by the title (drawn after the batch's summary)
    _shot(d, "titles_02_added")

    # the sidebar shows the title; the file name is one click away
    _nav(d, "Chat")
    _wait_text(d, "Ask anything about these documents", 60)
    _idle(d)
    sidebar = _sidebar(d)
    assert shorten(PENSION_DISPLAY, 30) in sidebar and HASH_NAME not in sidebar, sidebar
    _click(d, lambda drv: next((s for s in drv.find_elements(By.CSS_SELECTOR, '[data-testid="stSidebar"] summary')
                                if "File names" in s.text), None), "the sidebar's File names expander")
    _wait(d, lambda drv: HASH_NAME in _sidebar(drv), 10, "the file name in the sidebar")

    # the citation is labelled by the title
    d.set_window_size(1440, 900)
    _not_covered(d, "03_before_asking")
    answer = _ask(d, "What compensation do agency banks pay for delayed pension?")
    labels = _citation_labels(d)
    assert any(label.startswith("[1] " + PENSION_DISPLAY) for label in labels), labels
    assert not any(HASH_NAME in label for label in labels), labels
    _shot(d, "titles_04_cited_by_title")

    # with the feedback controls open, nothing covers the chat input
    d.execute_script("window.scrollTo(0, document.body.scrollHeight);")
    _click(d, lambda drv: ([s for s in answer.find_elements(By.CSS_SELECTOR, "summary")
                            if "Mark passages" in s.text and s.is_displayed()] or [None])[-1],
           "the feedback expander", scroll=True)
    _wait(d, lambda drv: [b for b in drv.find_elements(By.TAG_NAME, "button")
                          if "Add to ground truth" in b.text and b.is_displayed()], 20, "the feedback controls")
    _idle(d)
    _not_covered(d, "05_feedback_open")
    for box in d.find_elements(By.CSS_SELECTOR, '[data-testid="stChatMessage"]'):
        d.execute_script("arguments[0].scrollIntoView({block: 'end'});", box)
        _not_covered(d, "06_scrolled")
    _no_exception(d)
    assert Path(pdf).name == HASH_NAME
