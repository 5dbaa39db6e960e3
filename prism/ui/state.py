"""Per-session state: one place that names every ``st.session_state`` key the app uses.

Workspaces are tracked by id (a rename keeps the selection and the chats). Chats are plain lists of dicts
(``{"role": "user", "content"}`` / ``{"role": "assistant", "question", "answer": Answer.to_dict(), "retrieval_mode",
"error"}``), so nothing here holds a live object shared with other sessions.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from prism.types import Turn

WORKSPACE = "prism.workspace_id"
CHATS = "prism.chats"
BATCHES = "prism.batches"
PENDING_QUESTION = "prism.pending_question"
AUTHENTICATED = "prism.authenticated"
ENTERED = "prism.entered"
ACCESS_ATTEMPTS = "prism.access_attempts"
CONFIRM = "prism.confirm"
FLASH = "prism.flash"

# Widget keys (drawn in the sidebar on every page, so their values survive page switches).
PICKER = "prism.picker"
MODE = "prism.opt.mode"
HYDE = "prism.opt.hyde"
MULTI = "prism.opt.multi_query"
WEB = "prism.opt.web"
RERANK = "prism.opt.rerank"


def filter_key(workspace_id: str) -> str:
    """Widget key of a workspace's document filter (one per workspace, so filters never leak between them)."""
    return f"prism.filter.{workspace_id}"


def workspace_id() -> str | None:
    """The selected workspace's id, or ``None``."""
    return st.session_state.get(WORKSPACE)


def select_workspace(ws_id: str | None) -> None:
    """Select a workspace by id (the sidebar picker follows on the next run)."""
    st.session_state[WORKSPACE] = ws_id
    st.session_state.pop(PICKER, None)


def chat(ws_id: str) -> list[dict[str, Any]]:
    """The chat of a workspace in this session (created empty)."""
    chats: dict[str, list[dict[str, Any]]] = st.session_state.setdefault(CHATS, {})
    return chats.setdefault(ws_id, [])


def clear_chat(ws_id: str) -> None:
    """Forget a workspace's chat in this session."""
    st.session_state.setdefault(CHATS, {})[ws_id] = []


def history(ws_id: str) -> list[Turn]:
    """The chat's answered turns as conversation memory for :meth:`prism.service.PrismService.ask`."""
    turns = []
    for msg in chat(ws_id):
        if msg["role"] == "assistant" and msg.get("answer") and not msg.get("error"):
            answer = msg["answer"]
            turns.append(Turn(msg["question"], answer.get("answer", ""), answer.get("condensed_query") or None))
    return turns


def options() -> dict[str, Any]:
    """The retrieval settings chosen in the sidebar: ``{"mode", "hyde", "multi_query", "web", "rerank"}`` (``mode``
    ``None``: the settings' default)."""
    return {
        "mode": st.session_state.get(MODE) or None,
        "hyde": bool(st.session_state.get(HYDE, False)),
        "multi_query": bool(st.session_state.get(MULTI, False)),
        "web": bool(st.session_state.get(WEB, False)),
        "rerank": bool(st.session_state.get(RERANK, True)),
    }


def doc_filter(ws_id: str) -> list[str]:
    """The documents the chat is limited to (empty: all)."""
    return list(st.session_state.get(filter_key(ws_id)) or [])


def batches() -> list[dict[str, Any]]:
    """Upload batches of this session, newest last: ``{"id", "workspace_id", "workspace", "job_ids", "rejected",
    "created"}``."""
    return st.session_state.setdefault(BATCHES, [])


def ask_in_chat(ws_id: str, question: str) -> None:
    """Queue a question for the Chat page (briefing buttons)."""
    st.session_state[PENDING_QUESTION] = {"workspace_id": ws_id, "question": question}


def pop_pending_question(ws_id: str) -> str | None:
    """The queued question for this workspace, removed from the queue."""
    pending = st.session_state.get(PENDING_QUESTION)
    if pending and pending.get("workspace_id") == ws_id:
        del st.session_state[PENDING_QUESTION]
        return str(pending["question"])
    return None


def flash(message: str, kind: str = "success") -> None:
    """A message to show once on the next run (after an action that reruns the app)."""
    st.session_state[FLASH] = (kind, message)


def pop_flash() -> tuple[str, str] | None:
    """The pending one-time message, removed."""
    return st.session_state.pop(FLASH, None)
