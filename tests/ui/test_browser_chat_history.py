"""In a real browser (the server and Chromium of :mod:`tests.ui.test_browser`): a 30-turn conversation still shows
every earlier turn, and a citation's details (why it was picked, the passage, the page image) are built when it is
opened, in an early turn as in the newest, before and after a refresh. How fast the page stays is measured by
``bench/chat_redraw.py``, not here. Screenshots go to tests/artifacts/ (git-ignored)."""

from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

from tests.ui.test_browser import (  # noqa: F401  (app_url and driver are the module's fixtures)
    _click,
    _idle,
    _no_exception,
    _open_app,
    _shot,
    _text,
    _wait,
    app_url,
    driver,
)

TURNS = 30
QUESTIONS = (
    "What is the P2P collect request limit?",
    "How many P2P transactions may a customer make in 24 hours?",
    "What is the limit for a new device during the cooling period?",
    "What is the UPI Lite wallet limit?",
    "Which reason code is used when a collect request is declined?",
)
"""Questions on the sample UPI circular, asked in turn (the same question again is a new turn like any other)."""
FOOTER = ("Extractive answer", "LLM answer", "No answer in the documents")


def _messages(d: WebDriver) -> list[WebElement]:
    return d.find_elements(By.CSS_SELECTOR, '[data-testid="stChatMessage"]')


def _finished(message: WebElement) -> bool:
    """True when an assistant message shows its footer (drawn after the answer and its sources)."""
    return any(f in message.text for f in FOOTER)


def _ask(d: WebDriver, question: str, turn: int) -> None:
    # the turns so far, each once: right after a new chat's first answer the page reruns in full and shows that
    # turn twice for a moment, which would make the count below read the wrong message
    _wait(d, lambda drv: len(_messages(drv)) == 2 * (turn - 1), 30, f"the {turn - 1} turns before turn {turn}")
    _idle(d)  # typed while the page still reruns, the chat input is drawn anew and the keys are lost
    box = _wait(d, lambda drv: drv.find_element(By.CSS_SELECTOR, '[data-testid="stChatInputTextArea"]'), 30,
                "the chat input")
    box.send_keys(question)
    box.send_keys(Keys.ENTER)
    _wait(d, lambda drv: len(m := _messages(drv)) >= 2 * turn - 1 and m[2 * turn - 2].text.strip().endswith(question),
          60, f"the question of turn {turn} in the chat")
    _wait(d, lambda drv: len(m := _messages(drv)) >= 2 * turn and _finished(m[2 * turn - 1]), 120,
          f"the answer of turn {turn}")


def _open_first_citation(d: WebDriver, turn: int) -> WebElement:
    """Click citation [1] of answer ``turn`` (1-based); returns that answer's message once the citation shows why
    it was picked."""
    def summary(drv: WebDriver) -> WebElement | None:
        answer = _messages(drv)[2 * turn - 1]
        found = [s for s in answer.find_elements(By.CSS_SELECTOR, '[data-testid="stExpander"] summary')
                 if "[1] " in s.text]
        return found[0] if found else None
    _click(d, summary, f"citation [1] of turn {turn}", timeout=30, scroll=True)
    _wait(d, lambda drv: "Why this passage" in _messages(drv)[2 * turn - 1].text, 60,
          f"the opened citation of turn {turn}")
    _idle(d)
    # the page image comes last (the page is rendered and highlighted first): wait for it or for its caption
    _wait(d, lambda drv: _messages(drv)[2 * turn - 1].find_elements(
        By.CSS_SELECTOR, '[data-testid="stExpanderDetails"] img') or "No page preview" in _messages(drv)[
        2 * turn - 1].text, 60, f"the page image of turn {turn}'s citation")
    return _messages(d)[2 * turn - 1]


def _every_turn_shown(d: WebDriver, asked: list[str]) -> None:
    messages = _messages(d)
    assert len(messages) == 2 * len(asked), f"{len(messages)} messages for {len(asked)} turns"
    for i, question in enumerate(asked):
        assert messages[2 * i].text.strip().endswith(question), (i + 1, messages[2 * i].text)
        assert _finished(messages[2 * i + 1]), f"turn {i + 1} shows no finished answer: {messages[2 * i + 1].text}"
        assert "Sources" in messages[2 * i + 1].text, f"turn {i + 1} lists no sources"


def test_a_thirty_turn_conversation_keeps_every_turn_and_opens_citations_on_demand(app_url, driver):  # noqa: F811
    d = driver
    _open_app(d, app_url)  # a new session: a new chat
    asked = [QUESTIONS[i % len(QUESTIONS)] for i in range(TURNS)]
    for turn, question in enumerate(asked, 1):
        _ask(d, question, turn)
    _idle(d, 90)
    _no_exception(d)
    _every_turn_shown(d, asked)
    # Closed citations carry no details: nothing of "why", no page image, until one is opened.
    assert "Why this passage" not in _text(d)
    assert not d.find_elements(By.CSS_SELECTOR, '[data-testid="stExpanderDetails"] img')
    _shot(d, "chat30_01_thirty_turns")

    first = _open_first_citation(d, 1)  # drawn by the page's last full run
    assert first.find_elements(By.CSS_SELECTOR, '[data-testid="stExpanderDetails"] img'), "no page image in turn 1"
    assert _text(d).count("Why this passage") == 1  # only the opened citation was built
    newest = _open_first_citation(d, TURNS)  # asked since: drawn by the chat's fragment
    assert newest.find_elements(By.CSS_SELECTOR, '[data-testid="stExpanderDetails"] img'), "no page image in turn 30"
    _no_exception(d)
    _every_turn_shown(d, asked)  # opening citations reran part of the page; every turn is still there
    _shot(d, "chat30_02_citations_open")

    d.refresh()  # a full run draws all thirty from the saved conversation
    _wait(d, lambda drv: len(m := _messages(drv)) == 2 * TURNS and _finished(m[-1]), 120, "the reloaded chat")
    _idle(d)
    _every_turn_shown(d, asked)
    middle = _open_first_citation(d, TURNS // 2)
    assert middle.find_elements(By.CSS_SELECTOR, '[data-testid="stExpanderDetails"] img')
    _no_exception(d)
    _shot(d, "chat30_03_after_refresh")
