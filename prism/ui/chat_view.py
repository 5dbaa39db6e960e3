"""Drawing a chat: messages, the streamed answer, and under each answer its citations, web results and timings.

A rerun's work does not grow with the conversation: the turns saved before the page's last full run are drawn
cheaply (each answer's sources built only when opened, :mod:`prism.ui.sources_view`, in a fragment of their own so
opening one reruns that answer only), and the chat input with the turns asked since then is a fragment
(:func:`live_turns`): pressing Enter reruns it alone, never the earlier turns.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

import streamlit as st

from prism.errors import ConversationNotFoundError, PrismError
from prism.service import PrismService, find_retrieval_mode
from prism.types import Answer, ChatTurn, DocumentRecord, SavedConversation, WorkspaceInfo
from prism.ui import conversations_view, feedback_view, sources_view, state, widgets
from prism.ui.calculation_view import calculation_details
from prism.ui.explain import literal, timings_caption
from prism.ui.export import (  # noqa: F401  (SHOWN_ELSEWHERE: the chat's rule, kept here too)
    SHOWN_ELSEWHERE,
    conversation_markdown,
    shown_notes,
)
from prism.ui.sources_view import DocIds

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
        options: Mapping[str, Any], sources: list[str], ids: DocIds | None = None) -> SavedConversation | None:
    """Ask ``question`` in the workspace with the open conversation as memory, stream the answer into an assistant
    message, save the turn (a new chat is saved as a new conversation and opened), then draw its sources. The turn
    is saved before its sources and footer are drawn: a question typed as soon as the answer shows reruns the chat
    and stops this run where it is, which must not lose the answer.

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
        except PrismError as e:
            turn = replace(turn, error=str(e))
            st.error(literal(str(e)))
        saved = save_turn(service, info, conversation, turn)
        if turn.answer is not None:
            answer_details(service, info, turn, key=f"t{len(conversation.turns) if conversation else 0}", ids=ids)
    return saved


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
def history(service: PrismService, info: WorkspaceInfo, turns: Sequence[ChatTurn], ids: DocIds) -> None:
    """Draw the saved turns, oldest first, cheaply: each answer's sources are built only when opened, in a fragment
    of their own (opening a citation reruns that answer, not the page)."""
    for i, turn in enumerate(turns):
        turn_messages(service, info, turn, i, ids, isolate=True)


@st.fragment
def live_turns(service: PrismService, info: WorkspaceInfo, docs: Sequence[DocumentRecord], chosen: list[str],
               conversation_id: str | None, drawn: int) -> None:
    """The chat input, pinned under the page, and everything asked since the page's last full run, as one
    fragment: Enter reruns only this, so answering costs the same at turn 30 as at turn 1.

    Draws the suggested questions (a chat with no turn yet), the turns after the first ``drawn`` of the open
    conversation (asked in this fragment since the page last ran in full: the page drew the others), then asks the
    typed or queued question (:func:`ask`). A new conversation reruns the whole page once, so the sidebar lists it.

    Args:
        docs: the workspace's documents; ``chosen``: the file names the analyst filtered to (empty: all).
        conversation_id: the conversation the page drew (``None``: a new chat); ``drawn``: how many of its turns.
    """
    question, scoped = _question(st.bottom.chat_input(f"Ask about {info.name}…", key="chat.input"), info)
    try:
        conversation = open_conversation(service, info)
    except PrismError as e:
        st.error(literal(str(e)))
        return
    turns = conversation.turns if conversation else ()
    if not turns and not question:
        widgets.suggested_questions([d for d in docs if d.source in chosen] if chosen else list(docs), info)
    ids = sources_view.ids_of(docs)
    if conversation is not None and conversation.info.id == conversation_id:
        for i in range(drawn, len(turns)):
            turn_messages(service, info, turns[i], i, ids)
    if question:
        saved = ask(service, info, conversation, question, {**widgets.effective_options(), **scoped}, chosen, ids)
        if saved is not None and (conversation is None or conversation.info.id != conversation_id):
            st.rerun(scope="app")  # a new conversation: the sidebar lists it, the page draws it


def _question(typed: str | None, info: WorkspaceInfo) -> tuple[str, dict[str, Any]]:
    """The question to ask in this run: the one typed, else the one queued for the chat (a suggested question, a
    scope chip removed), with the queued scope options; ``""`` for none."""
    pending = None if typed else state.pop_pending_question(info.id)
    question = (typed or (pending or {}).get("question") or "").strip()
    return question, ({k: pending[k] for k in ("auto_scope", "scope_removed")} if pending else {})


def turn_messages(service: PrismService, info: WorkspaceInfo, turn: ChatTurn, index: int,
                  ids: DocIds | None = None, isolate: bool = False) -> None:
    """Draw one saved turn: the question, then the answer with its sources (or the error it got); ``isolate``
    draws the sources in a fragment of their own (:func:`answer_details`)."""
    with st.chat_message("user", avatar=":material/person:"):
        st.markdown(literal(turn.question))
    with st.chat_message("assistant", avatar=":material/auto_awesome:"):
        if turn.error or not turn.answer:
            st.error(literal(turn.error or "No answer was saved for this question."))
            return
        show_answer_text(turn.answer)
        answer_details(service, info, turn, key=f"t{index}", ids=ids, isolate=isolate)


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


def answer_details(service: PrismService, info: WorkspaceInfo, turn: ChatTurn, key: str, ids: DocIds | None = None,
                   isolate: bool = False) -> None:
    """Everything under an answer: flags, notes, the scope chips, the calculation, the standalone query, then its
    sources (:func:`sources`; in a fragment of their own with ``isolate``).

    Args:
        key: the turn's widget key stem (``"t3"``); ``ids``: :func:`prism.ui.sources_view.doc_ids`, read here when
            ``None``.
    """
    answer = turn.answer or {}
    flagged = answer.get("unsupported_numbers") or []
    if flagged:
        st.warning("Check these figures — they were not found in the passages the answer cites: "
                   + ", ".join(f"**{literal(x)}**" for x in flagged), icon=":material/report:")
    notes = _notes(answer)
    if notes:
        st.caption(notes)
    scope_chips(info, turn, key)  # outside the fragment: removing a chip asks again, a run of the whole page
    calculation_details(answer)
    condensed = (answer.get("condensed_query") or "").strip()
    if condensed and condensed.casefold() != turn.question.strip().casefold():
        st.caption(f"Searched for: *{literal(condensed)}*")
    if _is_message_only(answer):
        return
    ids = sources_view.doc_ids(service, info) if ids is None else ids
    (_isolated_sources if isolate else sources)(service, info, turn, key, ids)


def sources(service: PrismService, info: WorkspaceInfo, turn: ChatTurn, key: str, ids: DocIds) -> None:
    """An answer's cited passages, the other passages retrieved, web results, the timings line and the feedback."""
    answer = turn.answer or {}
    sides = find_retrieval_mode(turn.retrieval_mode or service.settings.retrieval_mode).sides
    query = (answer.get("condensed_query") or "").strip() or turn.question
    sources_view.citations(service, info, answer, query, sides, ids, key)
    sources_view.also_retrieved(answer, sides, ids, is_declined(answer), key)
    sources_view.web_results(answer)
    timings = timings_caption(answer.get("timings_ms") or {})
    st.caption(f":material/timer: {footer_label(answer)} · {timings}" if timings else footer_label(answer))
    feedback_view.answer_feedback(service, info, turn, key)


@st.fragment
def _isolated_sources(service: PrismService, info: WorkspaceInfo, turn: ChatTurn, key: str, ids: DocIds) -> None:
    sources(service, info, turn, key, ids)


def conversation_footer(service: PrismService, info: WorkspaceInfo, conversation: SavedConversation,
                        titles: Mapping[str, str], doc_ids: Mapping[str, str]) -> None:
    """Under the chat: "Export chat (Markdown)" (the file is written when clicked, with the turns asked since the
    page was drawn, so a rerun does not rebuild it) and "New chat"; ``titles``: display title by file name;
    ``doc_ids``: document id by file name (a cited source marked when it was deleted or replaced since)."""
    name = f"prism-chat-{info.id}-{conversation.info.id}.md"

    def export() -> str:  # runs on its own thread when clicked: no Streamlit calls
        try:
            saved = service.conversations(info.name).get(conversation.info.id)
        except PrismError:
            saved = conversation
        return conversation_markdown(info.name, saved.turns, saved.info.title, titles=titles, doc_ids=doc_ids)

    with st.container(horizontal=True):
        st.download_button("Export chat (Markdown)", export, file_name=name, mime="text/markdown",
                           icon=":material/download:", key="chat.export", on_click=state.record_export,
                           args=(service, info.name, "conversation", name),
                           help="What the chat shows: the questions, how each was searched, the answers with their "
                                "notes and their sources (marked when no longer in the workspace).")
        st.button("New chat", icon=":material/add_comment:", key="chat.clear", on_click=conversations_view.new_chat,
                  args=(info.id,))
    st.caption(conversations_view.SHARED_NOTE)


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
