"""Drawing a chat: messages, the streamed answer, and under each answer its citations, web results and timings."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import streamlit as st

from prism.errors import PrismError
from prism.service import PrismService, find_retrieval_mode, query_terms
from prism.types import Answer, WorkspaceInfo, page_label
from prism.ui import state
from prism.ui.charts import score_figure
from prism.ui.explain import (
    answer_markdown,
    escape_markdown,
    highlight_html,
    score_rows,
    snippet,
    stage_ranges,
    timings_caption,
    why_this_chunk,
)
from prism.ui.resources import page_preview

logger = logging.getLogger(__name__)

THINKING = "Searching the documents…"


# --- asking ---------------------------------------------------------------------------------------------------
def _escaped(pieces: Iterator[str]) -> Iterator[str]:
    """Stream pieces with ``$`` escaped (an amount must not start LaTeX mid-stream)."""
    for piece in pieces:
        yield answer_markdown(piece)


def ask(service: PrismService, info: WorkspaceInfo, question: str, options: Mapping[str, Any],
        sources: list[str]) -> None:
    """Ask ``question`` in the workspace, stream the answer into an assistant message, draw its sources and append
    both messages to the session's chat."""
    messages = state.chat(info.id)
    history = state.history(info.id)
    with st.chat_message("user", avatar=":material/person:"):
        st.markdown(escape_markdown(question))
    messages.append({"role": "user", "content": question})
    record: dict[str, Any] = {"role": "assistant", "question": question, "answer": None,
                              "retrieval_mode": options.get("mode") or service.settings.retrieval_mode,
                              "sources_filter": list(sources),
                              "error": None}
    with st.chat_message("assistant", avatar=":material/auto_awesome:"):
        try:
            with st.spinner(THINKING):
                stream = service.ask(
                    question, info.name, history=history, sources=sources or None, mode=options.get("mode"),
                    hyde=options.get("hyde"), multi_query=options.get("multi_query"), web=options.get("web"),
                    rerank=bool(options.get("rerank", True)), stream=True,
                )
            placeholder = st.empty()
            with placeholder.container():
                st.write_stream(_escaped(iter(stream)))
            answer: Answer | None = getattr(stream, "answer", None)
            if answer is None:
                answer = stream.result() if hasattr(stream, "result") else stream  # type: ignore[assignment]
            data = answer.to_dict()
            record["answer"] = data
            with placeholder.container():
                st.markdown(answer_markdown(data["answer"]))
            answer_details(service, info, record, key=f"m{len(messages)}")
        except PrismError as e:
            record["error"] = str(e)
            st.error(str(e))
    messages.append(record)


# --- drawing --------------------------------------------------------------------------------------------------
def message(service: PrismService, info: WorkspaceInfo, msg: Mapping[str, Any], index: int) -> None:
    """Draw one stored chat message."""
    if msg["role"] == "user":
        with st.chat_message("user", avatar=":material/person:"):
            st.markdown(escape_markdown(msg["content"]))
        return
    with st.chat_message("assistant", avatar=":material/auto_awesome:"):
        if msg.get("error"):
            st.error(msg["error"])
            return
        st.markdown(answer_markdown(msg["answer"]["answer"]))
        answer_details(service, info, msg, key=f"m{index}")


def _is_message_only(answer: Mapping[str, Any]) -> bool:
    """True for an answer that is only a message (empty workspace, nothing relevant, rephrase)."""
    return not answer.get("citations") and not answer.get("retrieved") and not answer.get("web")


def answer_details(service: PrismService, info: WorkspaceInfo, msg: Mapping[str, Any], key: str) -> None:
    """Everything under an answer: flags, the standalone query, citations, other passages, web results, timings."""
    answer = msg["answer"]
    question = msg.get("question", "")
    sides = find_retrieval_mode(msg.get("retrieval_mode") or service.settings.retrieval_mode).sides
    flagged = answer.get("unsupported_numbers") or []
    if flagged:
        st.warning("Check these figures — they were not found in the passages the answer cites: "
                   + ", ".join(f"**{escape_markdown(x)}**" for x in flagged), icon=":material/report:")
    notes = _notes(answer)
    if notes:
        st.caption(notes)
    condensed = (answer.get("condensed_query") or "").strip()
    if condensed and condensed.casefold() != question.strip().casefold():
        st.caption(f"Searched for: *{escape_markdown(condensed)}*")
    if _is_message_only(answer):
        return

    citations = answer.get("citations") or []
    retrieved = answer.get("retrieved") or []
    ranges = stage_ranges([c.get("scores") or {} for c in [*citations, *retrieved]])
    doc_ids = _doc_ids(service, info)
    query = condensed or question
    if citations:
        st.markdown(f"**Sources** · {len(citations)} cited passage{'s' if len(citations) != 1 else ''}")
        for c in citations:
            _citation(service, info, c, query, sides, ranges, doc_ids, f"{key}-c{c['n']}")
    if retrieved:
        with st.expander(f"Also retrieved, not cited ({len(retrieved)})", icon=":material/manage_search:"):
            for c in retrieved:
                pages = page_label(c.get("page_start"), c.get("page_end"))
                st.markdown(f"**[{c['n']}] {escape_markdown(c['source'])}**" + (f" · {pages}" if pages else "")
                            + (f" · {escape_markdown(c['profile'])}" if c.get("profile") else ""))
                st.caption(why_this_chunk(c.get("scores") or {}, sides))
                st.markdown(f"> {escape_markdown(snippet(c.get('text', ''), 240))}")
    web = answer.get("web") or []
    if web:
        st.markdown("**From the web** · cited as [W1], [W2]…")
        for w in web:
            with st.container(border=True):
                st.markdown(f"**[W{w['n']}] [{escape_markdown(w.get('title') or w['url'])}]({w['url']})**")
                st.caption(escape_markdown(snippet(w.get("content", ""), 300)))
    timings = timings_caption(answer.get("timings_ms") or {})
    label = "LLM answer" if answer.get("mode") == "llm" else "Extractive answer"
    st.caption(f":material/timer: {label} · {timings}" if timings else label)


SHOWN_ELSEWHERE = frozenset({"declined", "extractive", "unsupported_figures"})
"""Note kinds the view does not repeat under the answer: the declined message is the answer itself, the extractive
label is in the footer, flagged figures have their own warning."""


def _notes(answer: Mapping[str, Any]) -> str:
    """The answer's notes that are not shown elsewhere (:data:`SHOWN_ELSEWHERE`), as one escaped line."""
    notes = [n["text"] for n in answer.get("notes") or [] if n.get("kind") not in SHOWN_ELSEWHERE]
    return escape_markdown(" ".join(notes))


def _doc_ids(service: PrismService, info: WorkspaceInfo) -> dict[str, str]:
    try:
        return {d.source: d.doc_id for d in service.documents(info.name) if d.kind == "pdf"}
    except PrismError:
        return {}


def _citation(service: PrismService, info: WorkspaceInfo, c: Mapping[str, Any], query: str, sides: Sequence[str],
              ranges: Mapping[str, tuple[float, float]], doc_ids: Mapping[str, str], key: str) -> None:
    pages = page_label(c.get("page_start"), c.get("page_end"))
    profile = f" · {escape_markdown(c['profile'])}" if c.get("profile") else ""
    label = f"[{c['n']}] {escape_markdown(c['source'])}" + (f" · {pages}" if pages else "") + profile
    label += f" — “{escape_markdown(snippet(c.get('text', ''), 70))}”"
    scores = c.get("scores") or {}
    with st.expander(label, icon=":material/format_quote:"):
        st.markdown(f'<div class="prism-why">Why this passage: {why_this_chunk(scores, sides)}</div>',
                    unsafe_allow_html=True)
        st.html(f'<div class="prism-chunk">{highlight_html(c.get("text", ""), query, query_terms)}</div>')
        _page_preview(service, info, c, doc_ids)
        left, right = st.columns([1, 1], gap="medium")
        with left:
            st.dataframe(score_rows(scores), hide_index=True, width="stretch",
                         column_config={"Stage": st.column_config.TextColumn(width="small"),
                                        "Score": st.column_config.TextColumn(width="small"),
                                        "Rank": st.column_config.TextColumn(width="small"),
                                        "Meaning": st.column_config.TextColumn(width="medium")})
        with right:
            st.plotly_chart(score_figure(scores, ranges), key=f"{key}-chart", config={"displayModeBar": False})


def _page_preview(service: PrismService, info: WorkspaceInfo, c: Mapping[str, Any],
                  doc_ids: Mapping[str, str]) -> None:
    page = c.get("page_start")
    doc_id = doc_ids.get(c["source"])
    if page is None or doc_id is None:
        st.caption("No page preview: this source has no pages (text, CSV or web page) or is no longer in the "
                   "workspace.")
        return
    try:
        path = service.original_path(info.name, c["source"])
        mtime = path.stat().st_mtime_ns
    except (PrismError, OSError, ValueError):
        st.caption("No page preview: the original file is not available.")
        return
    preview = page_preview(str(path), int(page), c.get("text", ""), mtime)
    if not preview.image:
        st.caption(preview.message or "No page preview.")
        return
    if preview.crop:
        st.image(preview.crop, caption=f"Page {page} of {c['source']}: the passage, highlighted", width="content")
        with st.popover(f"Whole page {page}", icon=":material/description:"):
            st.image(preview.image, width="stretch")
    else:
        with st.popover(f"Page {page}", icon=":material/description:"):
            st.image(preview.image, width="stretch")
        if preview.message:
            st.caption(preview.message)
