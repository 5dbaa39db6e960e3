"""Drawing a chat: messages, the streamed answer, and under each answer its citations, web results and timings."""

from __future__ import annotations

import html
import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

import streamlit as st

from prism.errors import ConversationNotFoundError, PrismError
from prism.service import PrismService, document_title, find_retrieval_mode, query_terms
from prism.types import Answer, ChatTurn, SavedConversation, WorkspaceInfo, count_phrase, locator_of
from prism.ui import feedback_view, state
from prism.ui.calculation_view import calculation_details
from prism.ui.charts import score_figure
from prism.ui.explain import (
    highlight_html,
    literal,
    score_rows,
    snippet,
    stage_ranges,
    timings_caption,
    why_cited,
)
from prism.ui.export import SHOWN_ELSEWHERE, shown_notes  # noqa: F401  (SHOWN_ELSEWHERE: the chat's rule, kept here too)
from prism.ui.preview import passage_html
from prism.ui.resources import page_preview

logger = logging.getLogger(__name__)

THINKING = "Searching the documents…"


# --- asking ---------------------------------------------------------------------------------------------------
def _escaped(pieces: Iterator[str]) -> Iterator[str]:
    """Stream pieces shown as written (:func:`~prism.ui.explain.literal`: a ``$`` amount must not start LaTeX, a
    ``~`` strikethrough, mid-stream)."""
    for piece in pieces:
        yield literal(piece)


def open_conversation(service: PrismService, info: WorkspaceInfo) -> SavedConversation | None:
    """The conversation open in the workspace (``None``: a new chat). One deleted meanwhile (another tab) is closed,
    with a message.

    Raises:
        PrismError: the workspace or the conversation file cannot be read.
    """
    conversation_id = state.conversation_id(info.id)
    if conversation_id is None:
        return None
    try:
        return service.conversations(info.name).get(conversation_id)
    except ConversationNotFoundError:
        state.open_conversation(info.id, None)
        state.flash("That conversation is no longer saved in this workspace (it was deleted); this is a new chat.",
                    "info")
        return None


def ask(service: PrismService, info: WorkspaceInfo, conversation: SavedConversation | None, question: str,
        options: Mapping[str, Any], sources: list[str]) -> SavedConversation | None:
    """Ask ``question`` in the workspace with the open conversation as memory, stream the answer into an assistant
    message, draw its sources and save the turn (a new chat is saved as a new conversation and opened).

    Returns:
        The conversation as saved with the new turn, or ``None`` when it could not be saved (an error is shown).
    """
    with st.chat_message("user", avatar=":material/person:"):
        st.markdown(literal(question))
    turn = ChatTurn(question, retrieval_mode=options.get("mode") or service.settings.retrieval_mode,
                    sources=tuple(sources))
    with st.chat_message("assistant", avatar=":material/auto_awesome:"):
        try:
            with st.spinner(THINKING):
                stream: Any = service.ask(
                    question, info.name, history=conversation.memory() if conversation else [],
                    sources=sources or None, mode=options.get("mode"), hyde=options.get("hyde"),
                    multi_query=options.get("multi_query"), web=options.get("web"),
                    rerank=bool(options.get("rerank", True)), stream=True,
                    auto_scope=bool(options.get("auto_scope", True)), scope_removed=options.get("scope_removed", ()),
                )
            placeholder = st.empty()
            with placeholder.container():
                st.write_stream(_escaped(iter(stream)))
            answer: Answer | None = getattr(stream, "answer", None)
            if answer is None:
                answer = stream.result() if hasattr(stream, "result") else stream
            turn = replace(turn, answer=answer.to_dict())
            with placeholder.container():
                show_answer_text(turn.answer)
            answer_details(service, info, turn, key=f"t{len(conversation.turns) if conversation else 0}")
        except PrismError as e:
            turn = replace(turn, error=str(e))
            st.error(literal(str(e)))
    return save_turn(service, info, conversation, turn)


def save_turn(service: PrismService, info: WorkspaceInfo, conversation: SavedConversation | None,
              turn: ChatTurn) -> SavedConversation | None:
    """Append ``turn`` to the open conversation on disk (turns other tabs added meanwhile are kept), or start a new
    conversation with it; the conversation deleted meanwhile in another tab is started anew (and the analyst told)."""
    try:
        store = service.conversations(info.name)
        if conversation is not None:
            try:
                return store.append(conversation.info.id, turn)
            except ConversationNotFoundError:
                st.info("This conversation was deleted in another tab; this question starts a new one.")
        created = store.create()
        saved = store.append(created.id, turn)
    except PrismError as e:
        st.error(literal(f"The answer could not be saved: {e}"))
        return None
    state.open_conversation(info.id, created.id)
    return saved


# --- drawing --------------------------------------------------------------------------------------------------
def turn_messages(service: PrismService, info: WorkspaceInfo, turn: ChatTurn, index: int) -> None:
    """Draw one saved turn: the question, then the answer with its sources (or the error it got)."""
    with st.chat_message("user", avatar=":material/person:"):
        st.markdown(literal(turn.question))
    with st.chat_message("assistant", avatar=":material/auto_awesome:"):
        if turn.error or not turn.answer:
            st.error(literal(turn.error or "No answer was saved for this question."))
            return
        show_answer_text(turn.answer)
        answer_details(service, info, turn, key=f"t{index}")


def is_declined(answer: Mapping[str, Any]) -> bool:
    """True for a decline: ``declined`` set, or (answers saved before that field) a ``declined`` note."""
    return bool(answer.get("declined")) or any(n.get("kind") == "declined" for n in answer.get("notes") or [])


def show_answer_text(answer: Mapping[str, Any] | None) -> None:
    """The answer's text: a decline in an info box (it is no cited answer), anything else as Markdown."""
    text = literal(str((answer or {}).get("answer", "")), block=True)
    if answer and is_declined(answer):
        st.info(text, icon=":material/search_off:")
    else:
        st.markdown(text)


def _is_message_only(answer: Mapping[str, Any]) -> bool:
    """True for an answer that is only a message (empty workspace, nothing relevant, rephrase)."""
    return not answer.get("citations") and not answer.get("retrieved") and not answer.get("web")


def answer_details(service: PrismService, info: WorkspaceInfo, turn: ChatTurn, key: str) -> None:
    """Everything under an answer: flags, the standalone query, citations, other passages, web results, timings."""
    answer = turn.answer or {}
    question = turn.question
    sides = find_retrieval_mode(turn.retrieval_mode or service.settings.retrieval_mode).sides
    flagged = answer.get("unsupported_numbers") or []
    if flagged:
        st.warning("Check these figures — they were not found in the passages the answer cites: "
                   + ", ".join(f"**{literal(x)}**" for x in flagged), icon=":material/report:")
    notes = _notes(answer)
    if notes:
        st.caption(notes)
    scope_chips(info, turn, key)
    calculation_details(answer)
    condensed = (answer.get("condensed_query") or "").strip()
    if condensed and condensed.casefold() != question.strip().casefold():
        st.caption(f"Searched for: *{literal(condensed)}*")
    if _is_message_only(answer):
        return

    citations = answer.get("citations") or []
    retrieved = answer.get("retrieved") or []
    ranges = stage_ranges([c.get("scores") or {} for c in [*citations, *retrieved]])
    doc_ids = _doc_ids(service, info)
    query = condensed or question
    if citations:
        st.markdown(f"**Sources** · {count_phrase(len(citations), 'cited passage')}")
        for c in citations:
            _citation(service, info, c, query, sides, ranges, doc_ids, f"{key}-c{c['n']}")
    if retrieved:
        label = (f"Closest passages, which do not answer the question ({len(retrieved)})" if is_declined(answer)
                 else f"Also retrieved, not cited ({len(retrieved)})")
        with st.expander(label, icon=":material/manage_search:", expanded=is_declined(answer)):
            for c in retrieved:
                pages = locator_of(c)
                st.markdown(f"**[{c['n']}] {literal(_title(c, doc_ids))}**" + (f" · {pages}" if pages else "")
                            + (f" · {literal(c['profile'])}" if c.get("profile") else ""))
                st.caption(why_cited(c, sides))
                st.markdown(f"> {literal(snippet(c.get('text', ''), 240))}")
    web = answer.get("web") or []
    if web:
        st.markdown("**From the web** · cited as [W1], [W2]…")
        for w in web:
            with st.container(border=True):
                st.markdown(f"**[W{w['n']}] [{literal(w.get('title') or w['url'])}]({w['url']})**")
                st.caption(literal(snippet(w.get("content", ""), 300)))
    timings = timings_caption(answer.get("timings_ms") or {})
    st.caption(f":material/timer: {footer_label(answer)} · {timings}" if timings else footer_label(answer))
    feedback_view.answer_feedback(service, info, turn, key)


AUTO_CHIP = "auto"
"""The chip that stands for auto-scope itself: removing it asks again over the whole workspace."""


def scope_chips(info: WorkspaceInfo, turn: ChatTurn, key: str) -> None:
    """The scope an answer was searched in, as removable chips ("Meridian Bank Ltd · Q3 FY2024 · auto"): one per
    entity and period the question named, and :data:`AUTO_CHIP`. Removing a chip asks the question again without it;
    removing "auto" switches auto-scope off (all parts removed). Parts removed earlier are listed under the chips.
    Nothing is drawn for a search without auto-scope (the analyst's document filter wins)."""
    scope = (turn.answer or {}).get("scope") or {}
    removed = [str(r) for r in scope.get("removed") or []]
    parts = [str(p) for p in [*scope.get("entities", []), *scope.get("periods", [])]]
    if scope.get("auto") and parts:
        options = [*parts, AUTO_CHIP]
        chips = f"{key}-scope"
        st.pills("Scope", options, selection_mode="multi", default=options, key=chips, on_change=_rescope,
                 args=(info.id, turn.question, options, removed, chips), label_visibility="collapsed",
                 format_func=lambda o: ":material/auto_awesome: auto" if o == AUTO_CHIP else literal(o),
                 help="Searched only in the documents of the companies and periods this question names. Remove a "
                      "chip to ask again without it; remove auto to search the whole workspace.")
    if removed:
        st.caption("Asked again without " + ", ".join(literal(r) for r in removed) + " in the scope.")


def _rescope(ws_id: str, question: str, options: Sequence[str], removed: Sequence[str], chips: str) -> None:
    """A chip was removed: queue the question again without it (the chips themselves start full again)."""
    gone = [o for o in options if o not in (st.session_state.get(chips) or [])]
    st.session_state.pop(chips, None)
    if AUTO_CHIP in gone:
        state.ask_in_chat(ws_id, question, auto_scope=False,
                          scope_removed=[*removed, *(o for o in options if o != AUTO_CHIP)])
    elif gone:
        state.ask_in_chat(ws_id, question, scope_removed=[*removed, *gone])


def footer_label(answer: Mapping[str, Any]) -> str:
    """What kind of answer it is, for the line under it: a decline ("the documents don't answer that") is never
    called an extractive answer, whose sentences are quoted from the documents."""
    if is_declined(answer):
        return "No answer in the documents"
    return "LLM answer" if answer.get("mode") == "llm" else "Extractive answer"


def _notes(answer: Mapping[str, Any]) -> str:
    """The answer's notes that are not shown elsewhere (:func:`prism.ui.export.shown_notes`: the export writes the
    same ones), as one escaped line."""
    return literal(" ".join(shown_notes(answer)))


def _doc_ids(service: PrismService, info: WorkspaceInfo) -> dict[str, tuple[str | None, str]]:
    """``{file name: (doc_id of a PDF or None, display title)}`` (:func:`prism.service.document_title`)."""
    try:
        return {d.source: (d.doc_id if d.kind == "pdf" else None, document_title(d))
                for d in service.documents(info.name)}
    except PrismError:
        return {}


def _title(c: Mapping[str, Any], doc_ids: Mapping[str, tuple[str | None, str]]) -> str:
    """The display title of a citation's document (its file name when the document is gone)."""
    return doc_ids.get(c["source"], (None, c["source"]))[1]


def _citation(service: PrismService, info: WorkspaceInfo, c: Mapping[str, Any], query: str, sides: Sequence[str],
              ranges: Mapping[str, tuple[float, float]], doc_ids: Mapping[str, tuple[str | None, str]],
              key: str) -> None:
    pages = locator_of(c)
    profile = f" · {literal(c['profile'])}" if c.get("profile") else ""
    title = _title(c, doc_ids)
    label = f"[{c['n']}] {literal(title)}" + (f" · {pages}" if pages else "") + profile
    label += f" — “{literal(snippet(c.get('text', ''), 70))}”"
    scores = c.get("scores") or {}
    with st.expander(label, icon=":material/format_quote:"):
        if title != c["source"]:
            st.caption(f":material/description: File: {literal(c['source'])}")
        rank = f" (retrieved #{c['rank']})" if c.get("rank") and c.get("rank") != c["n"] else ""
        st.markdown(f'<div class="prism-why">Why this passage{html.escape(rank)}: '
                    f'{html.escape(why_cited(c, sides))}</div>', unsafe_allow_html=True)
        st.html(f'<div class="prism-chunk">{highlight_html(c.get("text", ""), query, query_terms)}</div>')
        _page_preview(service, info, c, doc_ids)
        if c.get("read_beside"):
            return  # not retrieved: no scores to show
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
                  doc_ids: Mapping[str, tuple[str | None, str]]) -> None:
    page = c.get("page_start")
    doc_id = doc_ids.get(c["source"], (None, ""))[0]
    if page is None or doc_id is None:  # no page image: the passage in the text of its slide, sheet or document
        _passage_preview(service, info, c)
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
    where = locator_of(c) or f"page {page}"
    if preview.crop:
        st.image(preview.crop, caption=f"{_title(c, doc_ids)}, {where}: the passage, highlighted", width="content")
        with st.popover(f"Whole page ({where})", icon=":material/description:"):
            st.image(preview.image, width="stretch")
    else:
        with st.popover(f"Page ({where})", icon=":material/description:"):
            st.image(preview.image, width="stretch")
        if preview.message:
            st.caption(preview.message)


def _passage_preview(service: PrismService, info: WorkspaceInfo, c: Mapping[str, Any]) -> None:
    try:
        view = service.passage(c["source"], c.get("chunk_id", ""), info.name)
    except PrismError:
        view = None
    if view is None:
        st.caption("No preview: the document is no longer in the workspace.")
        return
    with st.popover(f"In context ({view.locator})" if view.locator else "In context", icon=":material/description:"):
        st.html(passage_html(view))
