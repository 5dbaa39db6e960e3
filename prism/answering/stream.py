"""The state of one question on its way through the answer engine, and the stream a UI iterates."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from llama_index.core.llms import ChatMessage

from prism.answering.units import Block
from prism.types import TIMING_STAGES, Answer, Derived, Note, NoteKind, RetrievedChunk, SearchScope, WebResult
from prism.types.reading import Reading


@dataclass(frozen=True)
class Wanted:
    """The optional stages one question runs: expansions (only with an LLM) and web search (only with a key)."""

    hyde: bool
    multi_query: bool
    web: bool

    @property
    def expanding(self) -> bool:
        """HyDE or multi-query is on."""
        return self.hyde or self.multi_query


@dataclass
class AnswerRun:
    """One question through the pipeline: the standalone query, the blocks, the notes and the stage timings.

    Attributes:
        question: the question as asked (stripped).
        t0: ``time.perf_counter()`` at the start.
        condensed: the standalone query ("" until condensed).
        chunks: the document blocks ``[1]..[k]``.
        web: the web blocks ``[W1]..``.
        notes: what the analyst should know besides the answer.
        timings: milliseconds per stage, keys :data:`~prism.types.TIMING_STAGES`.
        mode: ``llm`` or ``extractive``.
        messages: the chat messages of the answer call (LLM mode).
        blocks: the :class:`~prism.answering.units.Block` of each document block (its unit and currency).
        sources: the document filter (file names), ``None`` for all documents.
        lines: an extractive answer's ``(sentence, block n)`` pairs, its citations by construction; ``None`` for an
            LLM answer (whose markers are parsed from its text).
        beside: for a line of ``lines`` whose sentence its chunk cut, the blocks of the neighbouring chunks it was
            completed from (:func:`prism.answering.continuation.complete_cut`), cited after its own block.
        auto_scope: whether retrieval scopes by what the question names.
        scope_removed: the entities and periods the scope must not use (the analyst removed them).
        scope: the scope the retrieval ran in (``SearchResult.scope``), once retrieved.
        derived: the figure a program computed for the answer (:mod:`prism.answering.programs`), or ``None``.
        reading: the standalone query read once (:class:`~prism.types.reading.Reading`), which search, the
            answerability gate, the program choice and the extractive answer all read; set with ``condensed``.
        choice: the programs ranked over the chunks (made once per set of chunks, by the gate or the answer), or
            ``None``; choice_key: the ids of the chunks it was made over.
    """

    question: str
    t0: float
    condensed: str = ""
    chunks: list[RetrievedChunk] = field(default_factory=list)
    web: list[WebResult] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    timings: dict[str, float | None] = field(default_factory=lambda: dict.fromkeys(TIMING_STAGES))
    mode: str = "extractive"
    messages: list[ChatMessage] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)
    sources: list[str] | None = None
    lines: list[tuple[str, int]] | None = None
    beside: dict[int, tuple[int, ...]] = field(default_factory=dict)
    auto_scope: bool = True
    scope_removed: tuple[str, ...] = ()
    scope: SearchScope | None = None
    derived: Derived | None = None
    reading: Reading = field(default_factory=lambda: Reading(question="", text="", tokens=frozenset()))
    choice: Any = None
    choice_key: tuple[str, ...] = ()

    def understood(self) -> dict[str, Any] | None:
        """What the reader understood of the question (:meth:`prism.types.reading.Reading.to_dict`), or ``None``
        when it was not read."""
        return self.reading.to_dict() if self.reading.question else None

    def scope_options(self) -> dict[str, Any]:
        """The retriever's scope keywords for this run: ``{"auto_scope", "scope_removed"}``."""
        return {"auto_scope": self.auto_scope, "scope_removed": self.scope_removed}

    def note(self, kind: NoteKind, text: str | None) -> None:
        """Add a note (nothing for an empty text)."""
        if text:
            self.notes.append(Note(kind, text))

    def add_time(self, stage: str, ms: float | None) -> None:
        """Add ``ms`` to a stage's time (nothing for ``None``)."""
        if ms is None:
            return
        self.timings[stage] = (self.timings[stage] or 0.0) + ms

    def mark_first_token(self) -> None:
        """Record the time to the first piece of the answer (once)."""
        if self.timings["first_token"] is None:
            self.timings["first_token"] = (time.perf_counter() - self.t0) * 1000


class AnswerStream:
    """An answer being produced: an iterator of text pieces; :attr:`answer` is set once it is exhausted.

    Attributes available before streaming: :attr:`condensed_query`, :attr:`chunks` (the numbered blocks) and
    :attr:`web`.
    """

    def __init__(self, pieces: Iterator[str], finish: Callable[[str], Answer], run: AnswerRun):
        self._pieces = pieces
        self._finish = finish
        self._run = run
        self._parts: list[str] = []
        self._answer: Answer | None = None

    def __iter__(self) -> AnswerStream:
        return self

    def __next__(self) -> str:
        if self._answer is not None:
            raise StopIteration
        try:
            piece = next(self._pieces)
        except StopIteration:
            self._answer = self._finish("".join(self._parts))
            raise
        self._parts.append(piece)
        return piece

    @property
    def condensed_query(self) -> str:
        """The standalone query used for retrieval."""
        return self._run.condensed

    @property
    def chunks(self) -> list[RetrievedChunk]:
        """The document blocks ``[1]..[k]`` the answer is written from."""
        return list(self._run.chunks)

    @property
    def web(self) -> list[WebResult]:
        """The web blocks ``[W1]..``."""
        return list(self._run.web)

    @property
    def answer(self) -> Answer | None:
        """The final :class:`~prism.types.Answer`, or ``None`` until the stream is exhausted."""
        return self._answer

    def result(self) -> Answer:
        """Consume the rest of the stream and return the final answer.

        Raises:
            RuntimeError: the stream ended without producing an answer (a bug).
        """
        for _ in self:
            pass
        if self._answer is None:  # pragma: no cover - __next__ always sets it at exhaustion
            raise RuntimeError("the answer stream ended without an answer")
        return self._answer
