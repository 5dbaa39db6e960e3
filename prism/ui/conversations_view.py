"""The sidebar's list of a workspace's saved conversations: open, rename, delete, and "New chat".

Conversations are saved on disk per workspace (:meth:`prism.service.PrismService.conversations`) and shared by
everyone who opens the workspace (the app has no accounts); this session only remembers which one is open
(:mod:`prism.ui.state`). Every action is a widget callback, so the chat drawn in the same run already shows it.
"""

from __future__ import annotations

import logging
from datetime import datetime

import streamlit as st

from prism.errors import PrismError
from prism.service import PrismService
from prism.types import ConversationInfo, WorkspaceInfo, count_phrase
from prism.ui import state
from prism.ui.explain import literal, shorten

logger = logging.getLogger(__name__)

SHOWN = 15
"""Conversations listed in the sidebar, most recent first."""
SHARED_NOTE = ("Conversations are saved in the workspace and shared by everyone who opens it (there are no user "
               "accounts).")


def _when(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%d %b, %H:%M")
    except ValueError:
        return ""


def new_chat(ws_id: str) -> None:
    """Callback: start a new chat in the workspace (saved with its first question)."""
    state.open_conversation(ws_id, None)


def _rename(service: PrismService, info: WorkspaceInfo, conversation_id: str, key: str) -> None:
    try:
        renamed = service.conversations(info.name).rename(conversation_id, str(st.session_state.get(key) or ""))
    except (PrismError, ValueError) as e:
        state.flash(literal(str(e)), "error")
        return
    state.flash(f"Conversation renamed to **{literal(renamed.title)}**.")


def _delete(service: PrismService, info: WorkspaceInfo, conversation: ConversationInfo) -> None:
    try:
        service.conversations(info.name).delete(conversation.id)
    except PrismError as e:
        state.flash(literal(str(e)), "error")
        return
    if state.conversation_id(info.id) == conversation.id:
        state.open_conversation(info.id, None)
    state.flash(f"Conversation **{literal(conversation.title)}** deleted.")


def sidebar_list(service: PrismService, info: WorkspaceInfo) -> None:
    """The workspace's conversations, most recent first: click one to reopen it; its ⋯ menu renames or deletes it."""
    try:
        conversations = service.conversations(info.name).list()
    except PrismError as e:
        st.error(literal(str(e)))
        return
    current = state.conversation_id(info.id)
    with st.expander("Conversations", expanded=True, icon=":material/forum:"):
        st.button("New chat", key="conv.new", icon=":material/add_comment:", on_click=new_chat, args=(info.id,),
                  width="stretch", type="primary" if current is None else "secondary")
        if not conversations:
            st.caption("No saved conversations yet. " + SHARED_NOTE)
            return
        for conv in conversations[:SHOWN]:
            _row(service, info, conv, conv.id == current)
        if len(conversations) > SHOWN:
            st.caption(f"{count_phrase(len(conversations) - SHOWN, 'older conversation')} not shown.")
        st.caption(SHARED_NOTE)


def _row(service: PrismService, info: WorkspaceInfo, conv: ConversationInfo, is_open: bool) -> None:
    left, right = st.columns([5, 1], vertical_alignment="center", gap="small")
    label = literal(shorten(conv.title, 38))
    with left:
        st.button(f"**{label}**" if is_open else label, key=f"conv.open.{conv.id}", type="tertiary",
                  icon=":material/chat:" if is_open else ":material/chat_bubble_outline:",
                  help=f"{count_phrase(conv.turns, 'question')} · {_when(conv.updated_at)}",
                  on_click=state.open_conversation, args=(info.id, conv.id))
    with right, st.popover("", icon=":material/more_vert:", help="Rename or delete this conversation"):
        key = f"conv.title.{conv.id}"
        st.text_input("Title", value=conv.title, key=key, max_chars=160)
        st.button("Rename", key=f"conv.rename.{conv.id}", icon=":material/edit:",
                  on_click=_rename, args=(service, info, conv.id, key))
        st.button("Delete conversation", key=f"conv.delete.{conv.id}", icon=":material/delete:",
                  on_click=_delete, args=(service, info, conv))
