"""Text shown as written: the one escaping helper, :func:`prism.ui.explain.literal`, on a list of hostile
strings, and the app's answers, citations, other passages, briefings, question buttons and file names drawn from a
document made of them (case 46 included).

Streamlit renders Markdown with remark (GFM, single-tilde strikethrough, KaTeX for ``$…$``) and its own ``:color[…]``
directives. The tests render the Markdown the app drew with markdown-it-py (CommonMark with GFM tables and
strikethrough, raw HTML on) and check that no element comes from the text and that the visible text is the original;
for the two constructs markdown-it does not know (single ``~`` and ``$``), that each one is escaped.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from markdown_it import MarkdownIt

from prism.config import Settings
from prism.service import PrismService
from prism.types import IngestItem
from prism.ui.explain import literal
from tests.conftest import CASES
from tests.fakes_llm import ScriptedLLM
from tests.ui.apptest_helpers import app as _app
from tests.ui.apptest_helpers import click as _click
from tests.ui.apptest_helpers import no_exception as _no_exception
from tests.ui.apptest_helpers import open_sources, run_until

HOSTILE = [
    "Credit cost is guided at 5~10 bps in FY25 and 20~30 bps in FY26.",
    "> 90 days past due loans are reported to the board every month.",
    "EBITDA margin (~18%) and PAT margin (~9%) hold steady.",
    "Revenue grew from $5 million to $6 million in the year.",
    "# 1 priority is liquidity",
    "* starred * and **double starred** items",
    "_underscored_ and __double underscored__ names",
    "| col a | col b |",
    "Use `code` and ```fenced``` quotes",
    "<script>alert('x')</script> and <b>bold</b> &amp; &lt;tags&gt;",
    "![floor plan](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgG"
    "AWjR9awAAAABJRU5ErkJggg==)",
    "[click here](https://evil.example) :red[alarm] :smile: \\(escaped\\)",
    "1. not a numbered list",
    "- not a bullet",
    "***",
    "Title line",
    "===",
    "+ plus item",
]
FORBIDDEN = re.compile(r"<(?!/?(p|ul|ol|li)>)[a-z]", re.IGNORECASE)
"""Any element but paragraphs and the answer's own list items."""
_MD = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])


def _visible(md: str) -> tuple[str, str]:
    """``(html, visible text)`` of Markdown, the text with white space folded."""
    rendered = _MD.render(md)
    text = html.unescape(re.sub(r"<[^>]+>", " ", rendered))
    return rendered, " ".join(text.split())


def assert_literal(md: str, original: str) -> None:
    """``md`` shows ``original`` as written: no element made from it, the same visible text, no live ``~`` / ``$``."""
    rendered, text = _visible(md)
    assert not FORBIDDEN.search(rendered), rendered
    assert " ".join(original.split()) in text, (text, original)
    assert not re.search(r"(?<!\\)[~$]", md), md


@pytest.mark.parametrize("text", HOSTILE)
def test_the_escaping_helper_shows_every_hostile_string_as_written(text):
    assert_literal(literal(text), text)
    marker = re.match(r"([-*+]|\d\.) ", text)
    if marker and marker.group(1) != "+":  # block mode keeps a leading list marker as the list item it is
        rendered, visible = _visible(literal(text, block=True))
        assert "<li>" in rendered and visible == " ".join(text[marker.end():].split())
    else:
        assert_literal(literal(text, block=True), text)
    assert_literal(literal(f"- {text}\n- next", block=True), text)  # as a point of an answer or a briefing
    assert "".join(literal(piece) for piece in (text[:7], text[7:19], text[19:])) == literal(text)  # streamed


def _hostile_llm() -> ScriptedLLM:
    """Briefings made of the hostile strings; answers that quote them and cite [1]."""

    def respond(prompt: str) -> str:
        low = prompt.lower()
        if "briefing" in low and "json" in low:
            return json.dumps({"bullets": HOSTILE[:5], "questions": [HOSTILE[0], HOSTILE[3], HOSTILE[9]]})
        if "standalone" in low:
            return "What is the credit cost guidance?"
        return " ".join(HOSTILE[:4]) + " [1]\n\n- " + HOSTILE[9] + " [1]\n- " + HOSTILE[10] + " [1]"

    return ScriptedLLM(respond=respond)


@pytest.fixture
def hostile_doc(with_sample, embedder, tmp_path):
    """The sample workspace plus 'hostile_notes.txt' made of the hostile strings."""
    path = tmp_path / "hostile_notes_*v2*.txt"
    path.write_text("\n\n".join(HOSTILE), encoding="utf-8")
    svc = PrismService(Settings(home=with_sample), embedder=embedder)
    [result] = svc.ingest([IngestItem(path)], "Sample workspace", briefing=False)
    assert result.status == "ingested"
    return path


def test_answers_citations_and_passages_show_document_text_as_written(hostile_doc, service_factory):
    service_factory(_hostile_llm())
    at = _app().run()
    at.chat_input[0].set_value("What is the credit cost guidance for FY25?").run()
    _no_exception(at)
    answer_md = at.chat_message[1].markdown[0].value
    for text in HOSTILE[:4] + HOSTILE[9:11]:
        assert_literal(answer_md, text)
    cited = [e.label for e in at.expander if e.label.startswith("[1] ")]
    assert cited and cited[0].startswith(f"[1] {literal(hostile_doc.name)}")
    assert_literal(cited[0], hostile_doc.name)
    open_sources(at)
    _no_exception(at)
    for m in [*at.main.markdown, *at.main.caption, *at.main.info, *at.main.warning]:  # passages included
        _no_document_markup(m.value)
    chunk_html = [h.value for h in at.get("html") if "prism-chunk" in h.value and "alert" in h.value]
    assert chunk_html and all("<script>" not in h and "&lt;script&gt;" in h for h in chunk_html)


def _no_document_markup(md: str) -> None:
    """No element in ``md`` that document text could have made (one quote block is ours: "Also retrieved")."""
    rendered, _ = _visible(md)
    assert not re.search(r"<(del|s|script|img|h[1-6]|table|code|a)\b", rendered), md
    assert rendered.count("<blockquote>") == (1 if md.startswith("> ") else 0), md
    assert not re.search(r"(?<!\\)[~$]", md), md


def test_case_46_and_briefings_render_literally_on_the_upload_page(with_sample, service_factory):
    service_factory(_hostile_llm())
    at = _app().run().switch_page("pages/upload_page.py").run()
    case = CASES / "46_earnings_call_tildes.txt"
    at.file_uploader[0].upload(case.name, case.read_bytes(), "text/plain")
    at = run_until(_click(at, "Add to Sample workspace"),
                   lambda a: any(m.value == "##### Briefings" for m in a.markdown) or bool(a.exception), 120)
    _no_exception(at)

    def llm_briefing_shown(a) -> bool:  # the LLM briefing replaces the offline one in the background
        return bool(a.exception) or any(m.value.startswith("- ") and "5~10 bps" in _visible(m.value)[1]
                                        for m in a.markdown)

    at = run_until(at, llm_briefing_shown, 120, 0.5)
    _no_exception(at)
    bullets = next(m.value for m in at.markdown if m.value.startswith("- ") and "5~10 bps" in _visible(m.value)[1])
    for text in HOSTILE[:5]:
        assert_literal(bullets, text)
    # The LLM's "questions" are no questions (HOSTILE[0], [3], [9]): the offline ones, built to be answered, replace
    # them, and render as written.
    [record] = [d for d in PrismService(Settings(home=with_sample)).documents("Sample workspace")
                if d.source == case.name]
    questions = [b.label for b in at.button if b.key and b.key.startswith("brief.")]
    assert [_visible(q)[1] for q in questions] == record.briefing["questions"] and len(questions) == 3
    assert all(q.endswith("?") and not FORBIDDEN.search(_visible(q)[0]) for q in questions)

    # The document table is a data grid: its cells are the text itself.
    at.switch_page("pages/workspaces_page.py").run()
    table = at.dataframe[0].value
    assert table.loc[table["File"] == case.name, "Briefing"].iloc[0] == HOSTILE[0]


def test_case_46_extractive_answer_shows_the_tildes(with_sample, service_factory):
    at = _app().run().switch_page("pages/upload_page.py").run()
    case = CASES / "46_earnings_call_tildes.txt"
    at.file_uploader[0].upload(case.name, case.read_bytes(), "text/plain")
    at = run_until(_click(at, "Add to Sample workspace"), lambda a: bool(a.dataframe) or bool(a.exception), 120)
    at.switch_page("pages/chat_page.py").run()
    at.chat_input[0].set_value("What credit cost is guided for FY25 and FY26?").run()
    _no_exception(at)
    answer_md = at.chat_message[1].markdown[0].value
    assert_literal(answer_md, "Credit cost is guided at 5~10 bps in FY25 and 20~30 bps in FY26.")
    for m in [*at.main.markdown, *at.main.caption]:
        _no_document_markup(m.value)
