"""Value types of saved conversations: one asked question with its answer (:class:`ChatTurn`), a conversation's
summary (:class:`ConversationInfo`) and a whole conversation (:class:`SavedConversation`).

Stored by :mod:`prism.answering.conversation_store` as JSON under the workspace's folder; the ``to_dict`` forms are
that JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from prism.types.answers import Turn


@dataclass(frozen=True)
class ChatTurn:
    """One question of a conversation and what came back.

    Attributes:
        question: the question as the analyst typed it.
        answer: :meth:`prism.types.Answer.to_dict` of the answer (its ``condensed_query`` is the rewritten
            follow-up), or ``None`` when asking failed.
        error: the message shown instead of an answer, or ``None``.
        retrieval_mode: the retrieval mode the question ran with (``hybrid``, ``dense``, ``bm25``).
        sources: the document filter active for the question (file names; empty: the whole workspace).
        asked_at: ISO-8601 UTC time the turn was saved.
    """

    question: str
    answer: dict[str, Any] | None = None
    error: str | None = None
    retrieval_mode: str = "hybrid"
    sources: tuple[str, ...] = ()
    asked_at: str = ""

    @property
    def condensed_query(self) -> str:
        """The standalone query the question was searched with ("" without an answer)."""
        return str((self.answer or {}).get("condensed_query") or "")

    def memory(self) -> Turn | None:
        """The turn as conversation memory for the next question (``None`` for a failed turn)."""
        if self.error or not self.answer:
            return None
        return Turn(self.question, str(self.answer.get("answer", "")), self.condensed_query or None)

    def to_dict(self) -> dict[str, Any]:
        """``{"question", "answer", "error", "retrieval_mode", "sources", "asked_at"}``."""
        return {"question": self.question, "answer": self.answer, "error": self.error,
                "retrieval_mode": self.retrieval_mode, "sources": list(self.sources), "asked_at": self.asked_at}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChatTurn:
        """The turn from its :meth:`to_dict` form (unknown keys ignored)."""
        return cls(str(data.get("question", "")), data.get("answer"), data.get("error"),
                   str(data.get("retrieval_mode") or "hybrid"), tuple(data.get("sources") or ()),
                   str(data.get("asked_at", "")))


@dataclass(frozen=True)
class ConversationInfo:
    """A saved conversation's summary, as the sidebar lists it.

    Attributes:
        id: the conversation id (``c-`` + 12 hex digits; the file name and the ``?c=`` query parameter).
        title: the title (the first question unless renamed).
        created_at, updated_at: ISO-8601 UTC times (``updated_at``: the last turn or rename).
        turns: questions asked so far.
    """

    id: str
    title: str
    created_at: str
    updated_at: str
    turns: int = 0


@dataclass(frozen=True)
class SavedConversation:
    """A conversation with its turns, oldest first."""

    info: ConversationInfo
    turns: tuple[ChatTurn, ...] = field(default_factory=tuple)

    def memory(self) -> list[Turn]:
        """The answered turns as conversation memory for :meth:`prism.service.PrismService.ask`."""
        return [t for t in (turn.memory() for turn in self.turns) if t is not None]
