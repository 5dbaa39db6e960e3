"""The Streamlit app through ``streamlit.testing.v1.AppTest`` (every page, real components, a scripted fake LLM), plus
the UI's pure helpers (why-this-chunk sentences, highlighting, score rows, page previews, export, the job registry).

Every test runs on its own PRISM_HOME; the workspaces with documents are copies of one sample home built once per
session from two of the sample PDFs, so no test waits for the first-start build except the one that tests it.
"""

from __future__ import annotations

import re
import shutil
import threading
import time
import tomllib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

from prism.config import Settings
from prism.ingestion.jobs import IngestJobs, content_key
from prism.ingestion.sample import read_state
from prism.service import PrismService, query_terms
from prism.types import IngestItem, IngestResult, WorkspaceInfo
from prism.ui import state as ui_state
from prism.ui.explain import (
    highlight_html,
    literal,
    score_rows,
    shorten,
    stage_ranges,
    timings_caption,
    why_this_chunk,
)
from prism.ui.export import conversation_markdown
from prism.ui.preview import locate, render_page_preview
from tests.conftest import DATA, REPO
from tests.fakes_llm import ScriptedLLM
from tests.ui.apptest_helpers import MASTER, MASTER_TITLE, UPI, UPI_TITLE, run_until
from tests.ui.apptest_helpers import app as _app
from tests.ui.apptest_helpers import click as _click
from tests.ui.apptest_helpers import no_exception as _no_exception
from tests.ui.apptest_helpers import texts as _texts

RBI_PDF = DATA / "rbi" / "pdfs" / "NT7871494C59CE3B455BBD0D18770BBB1408.pdf"


def _answer_reply(text: str) -> str:
    """The fake LLM: JSON for briefings, a passage for HyDE, phrasings for multi-query, else a cited answer with one
    figure that is not in the sources (₹9,999) and one that is (₹2,000)."""
    low = text.lower()
    if "rephrasings" in low:
        return "P2P collect request cap\nmaximum amount of a UPI collect request\nUPI pull transaction limit"
    if "short passage" in low:
        return "A P2P collect request may not exceed ₹2,000 per request under the UPI circular."
    if "briefing" in low and "json" in low:
        return ('{"bullets": ["Point one.", "Point two.", "Point three.", "Point four.", "Point five."], '
                '"questions": ["What is the P2P limit?", "What is the MDR?", "Who approves exceptions?"]}')
    if "standalone" in low:
        return "What is the P2M collect request limit?"
    return "A P2P collect request may not exceed ₹2,000 [1]. Some say ₹9,999 [1]."


def _run_until(at: AppTest, predicate: Callable[[AppTest], bool], timeout: float = 60) -> AppTest:
    return run_until(at, predicate, timeout, 0.3)


# --- first start, chat ------------------------------------------------------------------------------------------
def test_first_start_builds_the_sample_workspace(tmp_path, monkeypatch, service_factory):
    samples = tmp_path / "samples"
    samples.mkdir()
    shutil.copy(UPI, samples / UPI.name)
    monkeypatch.setenv("PRISM_SAMPLE_DIR", str(samples))
    at = _app().run()
    _no_exception(at)
    assert [s.label for s in at.get("status")] == ["Sample workspace ready"]
    assert at.title[0].value == "Chat"
    assert "Answers from **Sample workspace** · 1 document" in _texts(at)
    assert at.selectbox(key=ui_state.PICKER).format_func(at.selectbox(key=ui_state.PICKER).value) == \
        "Sample workspace"
    suggestions = [b for b in at.button if b.key and b.key.startswith("suggest.")]
    assert 1 <= len(suggestions) <= 3
    at.run()  # a rerun does not build again
    _no_exception(at)
    assert not at.get("status")


def test_the_first_start_build_outlives_the_tab_that_started_it(prism_home, tmp_path, monkeypatch, service_factory,
                                                                embedder):
    samples = tmp_path / "samples"
    samples.mkdir()
    for pdf in (UPI, MASTER):
        shutil.copy(pdf, samples / pdf.name)
    monkeypatch.setenv("PRISM_SAMPLE_DIR", str(samples))
    try:  # the tab closes while "Setting up Prism for the first time… Starting" shows: its script is stopped
        _app().run(timeout=0.5)
    except RuntimeError as e:
        assert "timed out" in str(e)
    deadline = time.monotonic() + 240
    while read_state(prism_home) != "complete" and time.monotonic() < deadline:
        time.sleep(0.5)
    svc = PrismService(Settings(home=prism_home, sample_dir=samples), embedder=embedder)
    assert sorted(d.source for d in svc.documents("Sample workspace")) == sorted([UPI.name, MASTER.name])
    at = _app().run()  # a later visit: ready, nothing built again
    _no_exception(at)
    assert not at.get("status")
    assert "Answers from **Sample workspace** · 2 documents" in _texts(at)


def test_chat_extractive_answer_with_citations_scores_and_preview(with_sample, service_factory, embedder):
    at = _app().run()
    _no_exception(at)
    assert ":gray[●] Extractive answers — no LLM configured" in [c.value for c in at.sidebar.caption]
    assert at.toggle(key=ui_state.HYDE).disabled and at.toggle(key=ui_state.WEB).disabled
    assert not any(at.toggle(key=k).value for k in (ui_state.HYDE, ui_state.MULTI, ui_state.WEB, ui_state.RERANK))
    at.chat_input[0].set_value("What is the P2P collect request limit?").run()
    _no_exception(at)
    text = _texts(at)
    assert "₹2,000" in text
    labels = [e.label for e in at.expander]
    cited = [lb for lb in labels if re.match(r"\[\d+\] ", lb)]
    assert cited, labels
    assert any(f"{literal(UPI_TITLE)} · page 2" in lb for lb in cited)  # by title
    assert [lb.split("]", 1)[0] for lb in cited] == [f"[{n}" for n in range(1, len(cited) + 1)]  # first use order
    assert all(" · Meridian Bank Ltd · " in lb for lb in cited if literal(UPI_TITLE) in lb), cited
    # A citation's details are built only when it is opened: closed, none; opened, its own.
    assert "Why this passage: " not in text and not at.get("plotly_chart") and not at.dataframe
    for n in range(1, len(cited) + 1):
        at.session_state[f"t0-c{n}"] = True  # the analyst opens every citation
    at.run()
    _no_exception(at)
    text = _texts(at)
    assert "Why this passage: " in text and re.search(r"BM25 #\d+, dense #\d+, fused #\d+|Dense #\d+, BM25 #\d+", text)
    table = at.dataframe[0].value
    assert list(table["Stage"]) == ["Dense", "BM25", "RRF", "Rerank"]
    assert table["Rank"].iloc[2].startswith("#") and table["Score"].iloc[3] == "—"  # no reranker here
    assert len(at.get("plotly_chart")) == len(cited)
    assert at.get("image"), "no page preview image"
    html = [h.value for h in at.get("html") if "prism-chunk" in h.value and "<div" in h.value]
    assert any("<mark>P2P</mark>" in h and "<mark>collect</mark>" in h for h in html)
    assert any(c.value.startswith(":material/timer: Extractive answer · retrieve ") for c in at.caption)

    # A follow-up is condensed and the standalone query is shown; the conversation is saved and survives reruns.
    at.chat_input[0].set_value("What about P2M?").run()
    _no_exception(at)
    assert any(c.value.startswith("Searched for:") for c in at.caption)
    assert len(at.chat_message) == 4
    at.run()
    assert len(at.chat_message) == 4

    # Export: the Markdown has both questions, the rewritten follow-up and the numbered sources.
    assert at.get("download_button")
    svc = PrismService(Settings(home=with_sample), embedder=embedder)
    [saved] = svc.conversations("Sample workspace").list()
    conversation = svc.conversations("Sample workspace").get(saved.id)
    md = conversation_markdown("Sample workspace", conversation.turns, saved.title)
    assert "## 1. What is the P2P collect request limit?" in md and "## 2. What about P2M?" in md
    assert f"_Searched for: {conversation.turns[1].condensed_query} · Documents: all in the workspace" in md
    assert re.search(r"- \[\d+\] meridian_bank_upi_operating_circular\.pdf, pages? \d", md)


def test_chat_shows_a_decline_with_the_closest_passages(with_sample, service_factory):
    at = _app().run()
    _no_exception(at)
    at.chat_input[0].set_value("What is the SWIFT charge for an outward foreign remittance at Meridian Bank?").run()
    _no_exception(at)
    [info] = [i.value for i in at.chat_message[1].info]
    assert info.startswith("The documents in this workspace don") and "SWIFT" in info
    assert not at.chat_message[1].markdown or all("SWIFT" not in m.value for m in at.chat_message[1].markdown)
    labels = [e.label for e in at.expander]
    assert any(lb.startswith("Closest passages, which do not answer the question (") for lb in labels)
    assert not any(re.match(r"\[\d+\] ", lb) for lb in labels)  # nothing is shown as a cited source
    assert any(c.value.startswith(":material/timer: No answer in the documents") for c in at.caption)


def test_chat_with_fake_llm_streams_flags_figures_and_uses_expansion(with_sample, service_factory):
    llm = ScriptedLLM(respond=_answer_reply, model_name="scripted-fake")
    service_factory(llm)
    at = _app().run()
    _no_exception(at)
    assert ":green[●] LLM answers · `scripted-fake`" in [c.value for c in at.sidebar.caption]
    assert not at.toggle(key=ui_state.HYDE).disabled and at.toggle(key=ui_state.HYDE).value
    at.chat_input[0].set_value("What is the P2P collect request limit?").run()
    _no_exception(at)
    answer_md = [m.value for m in at.chat_message[1].markdown]
    assert literal("A P2P collect request may not exceed ₹2,000 [1]. Some say ₹9,999 [1].", block=True) in answer_md
    assert any("₹9,999" in w.value and "not found" in w.value for w in at.warning)
    assert any(e.label.startswith("[1] ") for e in at.expander)
    assert any(c.value.startswith(":material/timer: LLM answer · ") and "expand" in c.value for c in at.caption)
    kinds = [c["kind"] for c in llm.calls]
    assert "stream_chat" in kinds and kinds.count("complete") >= 2  # HyDE + multi-query, then the streamed answer

    # A follow-up is condensed by the LLM.
    llm.calls.clear()
    at.chat_input[0].set_value("And for P2M?").run()
    _no_exception(at)
    assert any(c.value == f"Searched for: *{literal('What is the P2M collect request limit?')}*" for c in at.caption)

    # In a new session with HyDE and multi-query switched off, only the answer call is made.
    llm.calls.clear()
    at = _app()
    at.session_state[ui_state.HYDE] = False
    at.session_state[ui_state.MULTI] = False
    at.run()
    assert at.toggle(key=ui_state.HYDE).value is False
    at.chat_input[0].set_value("What is the MDR for RuPay credit cards on UPI?").run()
    _no_exception(at)
    assert [c["kind"] for c in llm.calls] == ["stream_chat"]


def test_web_results_are_listed_separately(with_sample, service_factory):
    from ..answering.test_websearch import FakeTavily, searcher

    body = {"results": [{"title": "RBI raises UPI limits", "url": "https://example.org/upi-limits",
                         "content": "The RBI raised the UPI collect limit for some categories."}]}
    service_factory(web=searcher(FakeTavily(body=body)))
    at = _app()
    at.session_state[ui_state.WEB] = True
    at.run()
    assert not at.toggle(key=ui_state.WEB).disabled
    at.chat_input[0].set_value("What is the P2P collect request limit?").run()
    _no_exception(at)
    text = _texts(at)
    assert "**From the web** · cited as [W1], [W2]…" in text
    assert "**[W1] [RBI raises UPI limits](https://example.org/upi-limits)**" in text
    assert any(c.value.startswith(":material/timer:") and "web " in c.value for c in at.caption)


def test_document_filter_limits_citations(with_sample, service_factory):
    at = _app().run()
    ws_id = at.session_state[ui_state.WORKSPACE]
    assert at.pills(key=ui_state.filter_key(ws_id)).options == [literal(shorten(UPI_TITLE, 30)),  # chips are Markdown
                                                                 literal(shorten(MASTER_TITLE, 30))]
    at = _app()
    at.session_state[ui_state.WORKSPACE] = ws_id
    at.session_state[ui_state.filter_key(ws_id)] = [MASTER.name]
    at.run()
    # the empty chat suggests questions of the chosen document only
    svc = PrismService(Settings(home=with_sample))
    record = next(d for d in svc.documents("Sample workspace") if d.source == MASTER.name)
    suggested = [b.label for b in at.button if b.key and b.key.startswith("suggest.")]
    assert suggested and all(literal(q) in suggested for q in record.briefing["questions"][:len(suggested)])
    at.chat_input[0].set_value("What is the P2P collect request limit?").run()
    _no_exception(at)
    cited = [e.label for e in at.expander if re.match(r"\[\d+\] ", e.label)]
    assert cited and all(lb.split(" ", 1)[1].startswith(literal("Master Circular – Digital Payment")) for lb in cited)
    assert "1 of 2 documents" in _texts(at)


def test_empty_workspace_points_to_upload_and_sample(with_sample, service_factory):
    at = _app().run().switch_page("pages/workspaces_page.py").run()
    at.text_input(key="ws.create.name").set_value("Empty one")
    at = _click(at, "Create workspace")
    at.switch_page("pages/chat_page.py").run()
    _no_exception(at)
    [empty] = [i.value for i in at.info if "**Empty one** has no documents yet" in i.value]
    assert "PDF, DOCX, XLSX, PPTX, HTML, TXT, MD or CSV files" in empty  # the one upload-type registry
    assert [p.label for p in at.get("page_link")] == ["Upload documents"]
    at = _click(at, "Open Sample workspace")
    _no_exception(at)
    assert "Answers from **Sample workspace**" in _texts(at)


# --- guards and config ---------------------------------------------------------------------------------------
def test_every_page_starts_with_the_page_guard():
    """Right after a restart Streamlit may run a pages/ script without app.py; the guard sends it through app.py
    (access code, sidebar) first, so every page must call it before drawing anything: directly, or through
    ``widgets.workspace_page`` (whose first statement is the guard)."""
    import ast
    import inspect

    from prism.ui import widgets

    opening = inspect.getsource(widgets.workspace_page).split('"""')[2].strip().splitlines()[0]
    assert opening == "page_guard()"
    for page in sorted((REPO / "pages").glob("*.py")):
        body = ast.parse(page.read_text(encoding="utf-8")).body
        code = [n for n in body if not isinstance(n, ast.Import | ast.ImportFrom)
                and not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
        first = ast.unparse(code[0]) if code else ""
        opens = r"service, info = widgets\.workspace_page\(.*\)"
        guarded = first == "widgets.page_guard()" or re.fullmatch(opens, first)
        assert guarded, f"{page.name} does not start with the guard"


def test_upload_limit_in_streamlit_config_matches_settings():
    config = tomllib.loads((REPO / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["server"]["maxUploadSize"] == Settings().max_upload_mb == 50
    assert config["client"]["showErrorDetails"] == "none"


# --- workspaces -------------------------------------------------------------------------------------------------
def test_delete_a_document_with_confirmation(with_sample, service_factory):
    at = _app().run().switch_page("pages/workspaces_page.py").run()
    ws_id = at.session_state[ui_state.WORKSPACE]
    at.selectbox(key=f"doc.pick.{ws_id}").set_value(MASTER.name).run()
    at = _click(at, "Delete…")
    at = _click(at, "Yes, delete it")
    _no_exception(at)
    assert any(f"Deleted **{literal(MASTER.name)}**." in s.value for s in at.success)
    assert at.dataframe[0].value["File"].tolist() == [UPI.name]
    assert at.dataframe[0].value["Document"].tolist() == [UPI_TITLE]  # by title, the file name beside it


def test_workspaces_page_shows_profiles_and_saves_a_correction(with_sample, service_factory):
    at = _app().run().switch_page("pages/workspaces_page.py").run()
    _no_exception(at)
    table = at.dataframe[0].value
    assert table["Entity"].tolist()[1] == "Reserve Bank of India, Department of Payment and Settlement Systems"
    assert table["Doc type"].tolist()[1] == "RBI master circular" and table["Period"].tolist()[1] == "2025-04-01"
    ws_id = at.session_state[ui_state.WORKSPACE]
    at.selectbox(key=f"doc.detail.{ws_id}").set_value(MASTER.name).run()
    _no_exception(at)
    # the document's briefing can be read again here after the upload: its points with their pages, its questions
    questions = [b for b in at.button if b.key and b.key.startswith("brief.details.")]
    assert len(questions) == 3 and all(b.label.endswith("?") for b in questions), [b.label for b in questions]
    assert re.search(r"^- .+ \(pp?\. \d+", _texts(at), re.M)
    fields = at.dataframe[1].value
    assert fields["Field"].tolist()[:4] == ["Entity", "Ticker", "Document type", "Period"]
    assert fields["Read from"].tolist()[0].startswith("page 1: ")
    assert "**Running headers and footers removed**" in _texts(at)
    assert re.search(r"^- “.+”: the (?:header|footer) of \d+ pages?$", _texts(at), re.M)
    [entity] = [t for t in at.text_input if t.key and t.key.startswith("tag.") and t.key.endswith(".entity")]
    assert entity.value == "Reserve Bank of India, Department of Payment and Settlement Systems"
    entity.set_value("Reserve Bank of India")
    at = _click(at, "Save corrections")
    _no_exception(at)
    assert any("Profile of **rbi\\_style" in s.value and "Reserve Bank of India · RBI master circular" in s.value
               for s in at.success), [s.value for s in at.success]
    assert at.dataframe[0].value["Entity"].tolist()[1] == "Reserve Bank of India"
    at.selectbox(key=f"doc.detail.{ws_id}").set_value(MASTER.name).run()
    assert at.dataframe[1].value["Read from"].tolist()[0] == "corrected by analyst"
    at = _click(at, "Undo my corrections")
    _no_exception(at)
    assert at.dataframe[0].value["Entity"].tolist()[1].endswith("Department of Payment and Settlement Systems")


def test_no_workspace_at_all_offers_the_sample(with_sample, service_factory, monkeypatch, tmp_path):
    one = tmp_path / "one_sample"
    one.mkdir()
    shutil.copy(UPI, one / UPI.name)
    monkeypatch.setenv("PRISM_SAMPLE_DIR", str(one))
    at = _app().run().switch_page("pages/workspaces_page.py").run()
    at = _click(at, "Delete workspace…")
    at = _click(at, "Yes, delete it")
    _no_exception(at)
    at.switch_page("pages/chat_page.py").run()
    _no_exception(at)
    assert any("There is no workspace yet" in i.value for i in at.info)
    # The button builds the sample workspace from the configured folder and selects it.
    at = _click(at, "Create the sample workspace")
    _no_exception(at)
    assert any("Sample workspace ready with 1 document." in s.value for s in at.success)
    assert "Answers from **Sample workspace** · 1 document" in _texts(at)


def test_an_empty_sample_workspace_can_be_rebuilt_on_the_workspaces_page(prism_home, service_factory, monkeypatch,
                                                                         tmp_path, embedder):
    one = tmp_path / "one_sample"
    one.mkdir()
    shutil.copy(UPI, one / UPI.name)
    monkeypatch.setenv("PRISM_SAMPLE_DIR", str(one))
    svc = PrismService(Settings(home=prism_home, sample_dir=one), embedder=embedder)
    svc.restore_sample_workspace()
    svc.delete_document(UPI.name, "Sample workspace")  # a completed build, emptied: not seeded again at start
    at = _app().run().switch_page("pages/workspaces_page.py").run()
    _no_exception(at)
    assert not at.get("status")
    assert any(i.value.startswith("No documents yet") for i in at.info)
    at = _click(at, "Rebuild the sample workspace")
    _no_exception(at)
    assert any("Sample workspace ready with 1 document." in s.value for s in at.success)
    assert [d.source for d in svc.documents("Sample workspace")] == [UPI.name]


# --- access code ------------------------------------------------------------------------------------------------
def test_access_code_gate(with_sample, service_factory):
    # A page requested directly (Streamlit's legacy pages/ routing right after a restart) goes through the gate too.
    at = _app()
    at.secrets["PRISM_ACCESS_CODE"] = "open sesame"
    at.switch_page("pages/workspaces_page.py").run()
    _no_exception(at)
    assert [s.value for s in at.subheader] == ["Enter your access code"]
    assert not at.title and not at.dataframe

    at = _app()
    at.secrets["PRISM_ACCESS_CODE"] = "open sesame"
    at.run()
    _no_exception(at)
    assert [s.value for s in at.subheader] == ["Enter your access code"]
    assert not at.title and not at.sidebar.selectbox and not at.chat_input  # nothing else is drawn
    at.text_input(key="prism.access_input").set_value("wrong")
    at = _click(at, "Continue")
    assert any("4 tries left" in e.value for e in at.error)
    assert not at.title
    at.text_input(key="prism.access_input").set_value("open sesame")
    at = _click(at, "Continue")
    _no_exception(at)
    assert at.title[0].value == "Chat"


def test_access_code_locks_after_five_wrong_tries(with_sample, service_factory):
    at = _app()
    at.secrets["PRISM_ACCESS_CODE"] = "right"
    at.run()
    for _ in range(5):
        at.text_input(key="prism.access_input").set_value("nope")
        at = _click(at, "Continue")
    assert any("Too many wrong codes" in e.value for e in at.error)
    assert not [b for b in at.button if b.label == "Continue"]


# --- pure helpers -----------------------------------------------------------------------------------------------
def test_why_this_chunk_sentences():
    s = {"dense": 0.4, "dense_rank": 7, "bm25": 12.0, "bm25_rank": 1, "rrf": 0.03, "rrf_rank": 2, "rerank": 5.0,
         "rerank_rank": 1}
    assert why_this_chunk(s) == "BM25 #1, dense #7, fused #2, rerank moved it up to #1 — mainly a keyword match."
    assert why_this_chunk({**s, "rerank_rank": 4}) == \
        "BM25 #1, dense #7, fused #2, rerank moved it down to #4 — mainly a keyword match."
    assert why_this_chunk({**s, "rerank": None, "rerank_rank": None, "bm25": None, "bm25_rank": None}) == \
        "Dense #7, not in the BM25 top list, fused #2 — found by meaning only (no query word in common)."
    both = {**s, "dense_rank": 2, "rerank_rank": 2}
    assert why_this_chunk(both) == "BM25 #1, dense #2, fused #2, rerank kept it at #2 — strong on both keywords and " \
                                   "meaning."
    meaning = {**s, "dense_rank": 1, "bm25_rank": 9, "rerank_rank": None}
    assert why_this_chunk(meaning) == "Dense #1, BM25 #9, fused #2 — mainly a meaning match."
    assert why_this_chunk({"dense_rank": 3, "rerank_rank": 1}, ("dense",)) == "Dense #3, rerank moved it up to #1."
    assert why_this_chunk({"bm25_rank": 2}, ("bm25",)) == "BM25 #2."


def test_score_rows_and_ranges():
    s = {"dense": 0.71234, "dense_rank": 3, "bm25": None, "bm25_rank": None, "rrf": 0.016393, "rrf_rank": 1,
         "rerank": -2.5, "rerank_rank": 4}
    rows = score_rows(s)
    assert [(r["Stage"], r["Score"], r["Rank"]) for r in rows] == [
        ("Dense", "0.712", "#3"), ("BM25", "—", "—"), ("RRF", "0.0164", "#1"), ("Rerank", "-2.500", "#4")]
    ranges = stage_ranges([s, {"bm25": 8.0, "rerank": 3.0}])
    assert ranges == {"dense": (0.0, 1.0), "bm25": (0.0, 8.0), "rrf": (0.0, 0.016393), "rerank": (-2.5, 3.0)}
    assert stage_ranges([]) == {k: (0.0, 1.0) for k in ("dense", "bm25", "rrf", "rerank")}


def test_highlight_matches_index_tokens_and_escapes_html():
    terms = query_terms  # the index tokenizer, as the chat view passes it
    out = highlight_html("Collect requests <b>above</b>\n₹2,000 are declined.\n\nP2P only.", "p2p collect request 2000",
                         terms)
    assert out == ("<mark>Collect</mark> <mark>requests</mark> &lt;b&gt;above&lt;/b&gt; <mark>₹2,000</mark> are "
                   "declined.<br><br><mark>P2P</mark> only.")
    assert highlight_html("nothing here", "", terms) == "nothing here"


def test_small_formatters():
    assert timings_caption({"condense": 0.1, "retrieve": 85.2, "rerank": None, "first_token": 1530.0,
                            "total": 2100.0}) == "retrieve 85 ms · first token 1.5 s · total 2.1 s"
    assert literal("2.  Upon issue, $5 apply") == "2\\.  Upon issue, \\$5 apply"
    assert literal("- 2. Upon issue\n* > 90 days\n\n1) $5", block=True) == (
        "- 2\\. Upon issue\n- \\> 90 days\n\n1. \\$5")
    assert shorten("NT7871494C59CE3B455BBD0D18770BBB1408.pdf", 20) == "NT7871494…BB1408.pdf"
    assert shorten("short.pdf") == "short.pdf"


def test_conversation_markdown_export_records_how_each_turn_was_searched():
    from datetime import datetime

    from prism.types import ChatTurn

    answer = {"answer": "₹2,000 [1].", "mode": "llm", "unsupported_numbers": ["₹9,999"],
              "condensed_query": "What is the P2P collect limit?",
              "citations": [{"n": 1, "source": "a.pdf", "page_start": 2, "page_end": 3,
                             "text": "The limit is ₹2,000."}],
              "web": [{"n": 1, "title": "RBI", "url": "https://rbi.org.in", "content": "x"}]}
    declined = {"answer": "The documents in this workspace don't answer that.", "mode": "extractive",
                "notes": [{"kind": "declined", "text": "The documents in this workspace don't answer that."}],
                "condensed_query": "Who won the cup?"}
    turns = [ChatTurn("Limit?", answer, retrieval_mode="hybrid", sources=("a.pdf", "b.pdf")),
             ChatTurn("Other?", None, error="Workspace is busy."),
             ChatTurn("Who won the cup?", declined, retrieval_mode="bm25")]
    md = conversation_markdown("WS", turns, "Limits", now=datetime(2026, 1, 2, 3, 4))
    assert md.splitlines()[:5] == ["# Prism conversation — WS", "", "**Limits**", "", "_Exported 2026-01-02 03:04_"]
    assert ("## 1. Limit?\n\n_Searched for: What is the P2P collect limit? · Documents: a.pdf, b.pdf · "
            "Retrieval: hybrid_") in md
    assert "- [1] a.pdf, pages 2–3 — “The limit is ₹2,000.”" in md
    assert "- [W1] RBI — https://rbi.org.in" in md
    assert "_Check these figures (not found in the cited sources): ₹9,999_" in md
    assert ("## 2. Other?\n\n_Documents: all in the workspace · Retrieval: hybrid_\n\n"
            "_No answer: Workspace is busy._") in md
    third = md.split("## 3. ")[1]
    assert "_Documents: all in the workspace · Retrieval: bm25_" in third  # not rewritten: no "Searched for"
    assert "sentences quoted from the documents" not in third  # a decline is not footed as an extractive answer
    assert conversation_markdown("WS", []).endswith("_No questions asked yet._\n")


def test_page_preview_locates_the_chunk_on_the_real_page():
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(UPI))
    page_text = pdf[1].get_textpage().get_text_range()
    pdf.close()
    chunk = " ".join(page_text[300:900].split())  # normalised as at ingest: line breaks folded
    spans, share = locate(page_text, chunk)
    assert share > 0.9 and spans
    assert " ".join(page_text[spans[0][0]:spans[-1][1]].split()).startswith(chunk.split(" ", 1)[1][:20]) or share > 0.9
    preview = render_page_preview(UPI, 2, chunk)
    assert preview.image[:3] == b"\xff\xd8\xff" and preview.crop and preview.message is None
    assert preview.located == share
    missing = render_page_preview(UPI, 2, "words that appear nowhere on this page at all zebra")
    assert missing.crop is None and missing.located == 0.0 and "could not be located" in (missing.message or "")
    assert render_page_preview(UPI, 99, chunk).message == "Page 99 is not in the original file."
    assert render_page_preview(Path("/nonexistent.pdf"), 1, chunk).image == b""


class _SlowService:
    """Ingests nothing, slowly, counting calls (to test the job registry without the real pipeline)."""

    def __init__(self) -> None:
        self.calls = 0
        self.following: list[str | None] = []
        self.release = threading.Event()
        self.infos = [WorkspaceInfo("w1", "WS", "c1", ""), WorkspaceInfo("w2", "Other WS", "c2", "")]

    def workspaces(self) -> list[WorkspaceInfo]:
        return list(self.infos)

    def ingest(self, items: list[IngestItem], workspace: str | None = None, progress: Any = None, *,
               create: bool = True, cancel: Any = None, actor: str | None = None,
               following: IngestItem | None = None) -> list[IngestResult]:
        self.calls += 1
        self.following.append(following.display_name if following else None)
        if progress is not None:
            progress(0.5, f"{items[0].display_name}: embedding 32/64 chunks")
        self.release.wait(10)
        if cancel is not None and cancel.cancelled:
            return [IngestResult(items[0].display_name, "cancelled")]
        return [IngestResult(items[0].display_name, "ingested", doc_id="d", pages=1, chunks=3)]


def test_job_registry_dedupes_by_content_and_reports_progress():
    jobs = IngestJobs()
    svc = _SlowService()
    ws, other_ws = svc.infos
    try:
        ids = [jobs.submit(svc, ws, "a.pdf", b"same bytes") for _ in range(3)]
        assert len(set(ids)) == 1
        other = jobs.submit(svc, other_ws, "a.pdf", b"same bytes")
        assert other != ids[0]
        deadline = time.monotonic() + 5
        while jobs.get(ids[0]).chunks_done is None and time.monotonic() < deadline:
            time.sleep(0.02)
        view = jobs.get(ids[0])
        assert (view.status, view.fraction, view.chunks_done, view.chunks_total) == ("running", 0.5, 32, 64)
        assert view.stage == "embedding 32/64 chunks" and view.step == "indexing"
        # the first embedding report: its 32 chunks were embedded while the file parsed, so no rate is known yet
        assert view.embed_base == 32 and view.embed_started_at >= view.started_at
        assert view.eta_s(view.started_at + 10) is None
        assert replace(view, chunks_done=48).eta_s(view.embed_started_at + 4) == 4.0  # 16 in 4 s, 16 left
        assert [v.id for v in jobs.active("w1")] == [ids[0]]
        assert jobs.get(other).status == "queued" and jobs.get(other).eta_s() is None
        assert jobs.cancel([other]) == 1  # queued: it ends without starting
        svc.release.set()
        assert jobs.wait([ids[0], other], 10)
        assert svc.calls == 1 and svc.following == [None]  # nothing else was queued for "WS"
        view = jobs.get(ids[0])
        assert view.done and view.result.status == "ingested" and view.fraction == 1.0
        assert jobs.get(other).result.status == "cancelled" and "cancelled before it started" in \
            jobs.get(other).result.error
        svc.infos = [other_ws]  # "WS" deleted: a job for it ends with a message, never re-creating it
        gone = jobs.submit(svc, ws, "b.pdf", b"other bytes")
        assert jobs.wait([gone], 10)
        assert jobs.get(gone).result.status == "failed" and "workspace 'WS' was deleted" in jobs.get(gone).result.error
        assert svc.calls == 1
    finally:
        jobs.shutdown()
    assert content_key(b"abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert content_key(" https://x.org/a ") == "https://x.org/a"


def test_each_job_names_the_file_queued_next_for_its_workspace():
    """So its parse starts while this one is embedded (:meth:`prism.ingestion.pipeline.Ingestor.ingest`)."""
    jobs = IngestJobs()
    svc = _SlowService()
    ws, other_ws = svc.infos
    try:
        ids = [jobs.submit(svc, other_ws, "x.pdf", b"x")]  # runs first, holding the worker until released
        deadline = time.monotonic() + 5
        while svc.calls == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        ids += [jobs.submit(svc, ws, "a.pdf", b"a"), jobs.submit(svc, ws, "b.pdf", b"b"),
                jobs.submit(svc, ws, "c.pdf", b"c")]
        jobs.cancel([ids[2]])  # b is cancelled: c comes next for "WS"
        svc.release.set()
        assert jobs.wait(ids, 10)
        assert svc.following == [None, "c.pdf", None]  # x: none queued then; a → c; c is the last
    finally:
        jobs.shutdown()


def test_the_footer_never_calls_a_decline_an_extractive_answer():
    from prism.ui.chat_view import footer_label

    declined = {"mode": "extractive", "notes": [{"kind": "declined", "text": "The documents ... don't answer that."}]}
    assert footer_label(declined) == "No answer in the documents"
    assert footer_label({"mode": "extractive", "notes": [{"kind": "extractive", "text": "x"}]}) == "Extractive answer"
    assert footer_label({"mode": "llm", "notes": []}) == "LLM answer"
    assert footer_label({"mode": "llm", "declined": True, "notes": []}) == "No answer in the documents"
