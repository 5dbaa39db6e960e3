"""Per-session state: one place that names every ``st.session_state`` key and query parameter the app uses.

The workspace in use has one source of truth: ``st.session_state[WORKSPACE]`` (its id), mirrored into the page
address as ``?ws=<id>`` (and the open conversation as ``&c=<id>``), so a refresh or a shared link opens the same
workspace and conversation. Every action that changes them (create, rename, switch, delete, open or start a
conversation) runs as a widget callback, i.e. before the script draws anything, so the sidebar and the page drawn in
that run agree. The sidebar's workspace picker is set from this state on every run, never the other way round except
through its own ``on_change``.

Conversations themselves are saved on disk (:meth:`prism.service.PrismService.conversations`); the session only
remembers which one is open in each workspace. The Upload page's batches are named in the address too (``?b=<batch
ids>``): a refresh during an upload starts a new session, which draws the same batches, progress and briefings again
from the process-wide job registry (:meth:`prism.ingestion.jobs.IngestJobs.batch`).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from typing import Any

import streamlit as st

from prism.errors import PrismError

WORKSPACE = "prism.workspace_id"
CONVERSATIONS = "prism.conversation_ids"
BATCHES = "prism.batches"
PENDING_QUESTION = "prism.pending_question"
AUTHENTICATED = "prism.authenticated"
ENTERED = "prism.entered"
CONFIRM = "prism.confirm"
FLASH = "prism.flash"
UPLOADER = "prism.uploader_round"

QUERY_WORKSPACE = "ws"
QUERY_CONVERSATION = "c"
QUERY_BATCHES = "b"
BATCHES_RESTORED = "prism.batches_restored"
BATCH_ID = re.compile(r"[0-9a-f]{16}")
"""A batch id (:func:`new_batch_id`): 16 hex digits, 64 random bits, so an address cannot be guessed into another
analyst's batch."""

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


# --- the workspace in use -------------------------------------------------------------------------------------
def workspace_id() -> str | None:
    """The workspace in use (its id): this session's choice, else — a new session after a refresh or from a
    shared link — the ``?ws=`` of the address. ``None`` when neither names one (the caller picks a default)."""
    if WORKSPACE not in st.session_state:
        st.session_state[WORKSPACE] = st.query_params.get(QUERY_WORKSPACE)
    return st.session_state[WORKSPACE]


def select_workspace(ws_id: str | None) -> None:
    """Use the workspace ``ws_id`` (``None``: let the next run pick the default) on every page from now on."""
    st.session_state[WORKSPACE] = ws_id
    sync_address()


def sync_address() -> None:
    """Write the workspace in use and its open conversation into the address (``?ws=…&c=…``)."""
    ws_id = st.session_state.get(WORKSPACE)
    wanted = {QUERY_WORKSPACE: ws_id, QUERY_CONVERSATION: conversation_id(ws_id) if ws_id else None}
    for key, value in wanted.items():
        if value and st.query_params.get(key) != value:
            st.query_params[key] = value
        elif not value and key in st.query_params:
            del st.query_params[key]


# --- the open conversation ------------------------------------------------------------------------------------
def conversation_id(ws_id: str) -> str | None:
    """The conversation open in workspace ``ws_id`` in this session (a new session takes the address's ``?c=``
    when ``?ws=`` names this workspace); ``None``: a new chat, saved with its first question."""
    opened: dict[str, str | None] = st.session_state.setdefault(CONVERSATIONS, {})
    if ws_id not in opened and st.query_params.get(QUERY_WORKSPACE) == ws_id:
        opened[ws_id] = st.query_params.get(QUERY_CONVERSATION)
    return opened.get(ws_id)


def open_conversation(ws_id: str, conversation: str | None) -> None:
    """Open a saved conversation in a workspace (``None``: start a new chat)."""
    st.session_state.setdefault(CONVERSATIONS, {})[ws_id] = conversation
    if st.session_state.get(WORKSPACE) == ws_id:
        sync_address()


def forget_workspace(ws_id: str) -> None:
    """Drop what this session remembers of a deleted workspace (its open conversation and document filter)."""
    st.session_state.setdefault(CONVERSATIONS, {}).pop(ws_id, None)
    st.session_state.pop(filter_key(ws_id), None)


# --- options, filters, batches --------------------------------------------------------------------------------
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


def new_batch_id() -> str:
    """A fresh upload batch id (:data:`BATCH_ID`)."""
    return secrets.token_hex(8)


def address_batch_ids(limit: int) -> list[str]:
    """The batch ids a new session's address names (``?b=id,id``), at most the last ``limit``; anything that is not
    a batch id is ignored. Empty after the first call of the session, so batches are restored once."""
    if st.session_state.get(BATCHES_RESTORED):
        return []
    st.session_state[BATCHES_RESTORED] = True
    ids = [i for i in str(st.query_params.get(QUERY_BATCHES) or "").split(",") if BATCH_ID.fullmatch(i)]
    return ids[-limit:] if limit > 0 else []


def show_batches_in_address(ids: Sequence[str]) -> None:
    """Name the batches the Upload page draws in its address (``?b=``), so a refresh draws them again."""
    value = ",".join(ids)
    if value and st.query_params.get(QUERY_BATCHES) != value:
        st.query_params[QUERY_BATCHES] = value


def uploader_round() -> int:
    """Bumped after every submitted batch: the Upload page's file picker and address field are new widgets then, so
    no file of a finished batch (a failed one included) is ever submitted again."""
    return int(st.session_state.get(UPLOADER, 0))


def next_uploader_round() -> None:
    """Start a fresh file picker on the next run (see :func:`uploader_round`)."""
    st.session_state[UPLOADER] = uploader_round() + 1


def ask_in_chat(ws_id: str, question: str, *, auto_scope: bool = True, scope_removed: Sequence[str] = ()) -> None:
    """Queue a question for the Chat page (briefing buttons; a scope chip removed asks again with ``auto_scope`` off
    or without the ``scope_removed`` entities and periods)."""
    st.session_state[PENDING_QUESTION] = {"workspace_id": ws_id, "question": question, "auto_scope": auto_scope,
                                          "scope_removed": list(scope_removed)}


def pop_pending_question(ws_id: str) -> dict[str, Any] | None:
    """The queued question for this workspace, removed from the queue: ``{"question", "auto_scope",
    "scope_removed"}``, or ``None``."""
    pending = st.session_state.get(PENDING_QUESTION)
    if pending and pending.get("workspace_id") == ws_id:
        del st.session_state[PENDING_QUESTION]
        return {"question": str(pending["question"]), "auto_scope": bool(pending.get("auto_scope", True)),
                "scope_removed": list(pending.get("scope_removed") or [])}
    return None


def actor() -> str:
    """Who this session is in the audit log (:mod:`prism.index.audit`): its Streamlit session id, read from the
    script run context (``"session:unknown"`` outside a Streamlit run)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    return str(ctx.session_id) if ctx is not None and ctx.session_id else "session:unknown"


def record_export(service: Any, workspace: str | None, what: str, target: str) -> None:
    """A download button's ``on_click``: record in the audit log that this session exported ``what`` as the file
    ``target`` (:meth:`prism.service.PrismService.record_export`); a failure to record is shown, never raised."""
    try:
        service.record_export(workspace, what, target, actor())
    except PrismError as e:
        flash(f"The export was not recorded in the audit log: {e}", "warning")


def flash(message: str, kind: str = "success") -> None:
    """A message to show once at the top of the page (after an action)."""
    st.session_state[FLASH] = (kind, message)


def pop_flash() -> tuple[str, str] | None:
    """The pending one-time message, removed."""
    return st.session_state.pop(FLASH, None)
