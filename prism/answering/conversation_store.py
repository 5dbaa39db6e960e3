"""Saved conversations: the chats of one workspace, kept on disk so they outlast a browser refresh and a restart.

One JSON file per conversation, ``workspaces/<workspace id>/conversations/<conversation id>.json``::

    {"version": 1, "id", "title", "created_at", "updated_at", "turns": [ChatTurn.to_dict(), ...]}

It lives in the answering layer because what it keeps is conversation memory — the turns the next question is
condensed against (:meth:`prism.types.SavedConversation.memory`) — with each turn's answer, rewritten follow-up and
document filter; it is not searched (so not :mod:`prism.index`) and the CLI could use it as well as the UI (so not
:mod:`prism.ui`). The folder is inside the workspace's, so deleting the workspace deletes its conversations and no
conversation is ever visible from another workspace.

Every change holds the workspace's conversation lock (:meth:`prism.index.workspaces.Workspace.conversation_lock`,
a file lock: threads and processes alike), re-reads the file and replaces it atomically
(:func:`prism.fsutil.atomic_write_json`): two browser tabs appending to one conversation never lose a turn, and a
reader never sees a half-written file. The app has no user accounts, so a workspace's conversations are shared by
everyone who opens it.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from prism.errors import ConversationNotFoundError, StoreError
from prism.fsutil import atomic_write_json
from prism.index.workspaces import Workspace
from prism.types import ChatTurn, ConversationInfo, SavedConversation

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1
TITLE_CHARS = 80
"""Longest title kept (a first question longer than this is cut at a word boundary with "…")."""
_ID = re.compile(r"c-[0-9a-f]{12}")


def title_from(question: str) -> str:
    """A conversation title from its first question: one line of at most :data:`TITLE_CHARS` characters."""
    flat = " ".join(question.split())
    if len(flat) <= TITLE_CHARS:
        return flat or "Untitled conversation"
    return flat[: TITLE_CHARS - 1].rsplit(" ", 1)[0] + "…"


class ConversationStore:
    """The saved conversations of one workspace.

    Args:
        workspace: the workspace's files (its folder and conversation lock).
    """

    def __init__(self, workspace: Workspace):
        self.workspace = workspace

    # --- reading --------------------------------------------------------------------------------------------
    def list(self) -> list[ConversationInfo]:
        """Every conversation, most recently updated first (ties: newest created first, then id)."""
        infos = []
        folder = self.workspace.conversations_dir
        for path in folder.glob("c-*.json") if folder.is_dir() else []:
            data = self._load(path)
            if data is not None:
                infos.append(_info(data))
        infos.sort(key=lambda i: i.id)
        infos.sort(key=lambda i: (i.updated_at, i.created_at), reverse=True)
        return infos

    def get(self, conversation_id: str) -> SavedConversation:
        """The conversation with its turns, oldest first.

        Raises:
            ConversationNotFoundError: no such conversation in this workspace.
        """
        data = self._load(self._path(conversation_id))
        if data is None:
            raise self._missing(conversation_id)
        return SavedConversation(_info(data), tuple(ChatTurn.from_dict(t) for t in data.get("turns", [])))

    # --- writing --------------------------------------------------------------------------------------------
    def create(self, title: str = "") -> ConversationInfo:
        """Start an empty conversation (``title`` "" takes the first question's).

        Raises:
            WorkspaceDeletedError: the workspace was deleted.
        """
        now = _now()
        data: dict[str, Any] = {"version": FORMAT_VERSION, "id": f"c-{secrets.token_hex(6)}",
                                "title": " ".join(title.split()), "created_at": now, "updated_at": now, "turns": []}
        with self.workspace.conversation_lock():
            atomic_write_json(self._path(data["id"]), data)
        logger.info("workspace %s: conversation %s started", self.workspace.info.id, data["id"])
        return _info(data)

    def append(self, conversation_id: str, turn: ChatTurn) -> SavedConversation:
        """Add a turn at the end of the conversation as it is on disk now (turns other tabs or processes added
        meanwhile are kept). An untitled conversation takes the turn's question as its title.

        Raises:
            ConversationNotFoundError: the conversation was deleted.
            WorkspaceDeletedError: the workspace was deleted.
        """
        stamped = turn if turn.asked_at else replace(turn, asked_at=_now())
        with self.workspace.conversation_lock():
            data = self._load(self._path(conversation_id))
            if data is None:
                raise self._missing(conversation_id)
            data["turns"].append(stamped.to_dict())
            data["title"] = data.get("title") or title_from(turn.question)
            data["updated_at"] = stamped.asked_at
            atomic_write_json(self._path(conversation_id), data)
        return SavedConversation(_info(data), tuple(ChatTurn.from_dict(t) for t in data["turns"]))

    def rename(self, conversation_id: str, title: str) -> ConversationInfo:
        """Give the conversation a new title (white space folded; empty is refused).

        Raises:
            ConversationNotFoundError, WorkspaceDeletedError, ValueError: an empty title.
        """
        clean = " ".join(title.split())[:TITLE_CHARS * 2]
        if not clean:
            raise ValueError("A conversation title cannot be empty.")
        with self.workspace.conversation_lock():
            data = self._load(self._path(conversation_id))
            if data is None:
                raise self._missing(conversation_id)
            data["title"] = clean
            data["updated_at"] = _now()
            atomic_write_json(self._path(conversation_id), data)
        return _info(data)

    def delete(self, conversation_id: str) -> None:
        """Delete the conversation (nothing happens when it is already gone).

        Raises:
            WorkspaceDeletedError: the workspace was deleted.
        """
        with self.workspace.conversation_lock():
            self._path(conversation_id).unlink(missing_ok=True)
        logger.info("workspace %s: conversation %s deleted", self.workspace.info.id, conversation_id)

    # --- files ----------------------------------------------------------------------------------------------
    def _path(self, conversation_id: str) -> Path:
        if not _ID.fullmatch(conversation_id or ""):
            raise self._missing(conversation_id)
        return self.workspace.conversations_dir / f"{conversation_id}.json"

    def _load(self, path: Path) -> dict[str, Any] | None:
        """The file's JSON, ``None`` when it does not exist; ``StoreError`` when it is unreadable."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, json.JSONDecodeError) as exc:
            raise StoreError(f"A saved conversation of workspace '{self.workspace.name}' is unreadable "
                             f"({path.name}: {exc}); delete it to go on.") from exc
        data.setdefault("turns", [])
        return data

    def _missing(self, conversation_id: str) -> ConversationNotFoundError:
        return ConversationNotFoundError(
            f"There is no saved conversation '{conversation_id}' in workspace '{self.workspace.name}' (it may have "
            "been deleted in another tab); start a new chat.")


def _info(data: dict[str, Any]) -> ConversationInfo:
    return ConversationInfo(str(data["id"]), str(data.get("title") or "Untitled conversation"),
                            str(data.get("created_at", "")), str(data.get("updated_at", "")),
                            len(data.get("turns", [])))


def _now() -> str:
    """Current UTC time, ISO-8601 with microseconds (orders conversations changed within one second)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")
