"""Value types of answers: citations, web results, notes, chat turns and the :class:`Answer` itself."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from prism.types.calculations import Calculation
from prism.types.documents import page_label
from prism.types.questions import SearchScope
from prism.types.retrieval import RetrievedChunk


@dataclass
class Citation:
    """A numbered source of an answer: one retrieved chunk with every retrieval score.

    Attributes:
        n: the number ``[n]`` in the answer text: cited chunks are 1, 2, 3 … in the order the answer first cites
            them, the chunks it does not cite follow in retrieval order.
        page_start: first physical page (what a preview opens), ``None`` for an unpaged source.
        scores: :meth:`RetrievedChunk.scores` of the chunk.
        rank: the chunk's rank in the retrieval results the answer was written from (1-based; the block number
            the LLM saw), ``None`` when unknown.
        locator: where the chunk is, as shown (:attr:`RetrievedChunk.locator`; when not given, the pages'
            :func:`~prism.types.page_label`).
        profile: its document's profile as one line, ``"Netflix, Inc. · 10-K · FY2015"`` (``""`` when none).
        read_beside: for a chunk that was not retrieved but read for a calculation beside a retrieved one (the rest
            of its table), that chunk's retrieval rank (:attr:`RetrievedChunk.read_beside`); then ``scores`` are all
            ``None`` and ``rank`` is ``None``.
    """

    n: int
    chunk_id: str
    source: str
    page_start: int | None
    page_end: int | None
    text: str
    scores: dict[str, float | int | None] = field(default_factory=dict)
    rank: int | None = None
    locator: str = ""
    profile: str = ""
    read_beside: int | None = None

    def __post_init__(self) -> None:
        if not self.locator:
            self.locator = page_label(self.page_start, self.page_end)

    @classmethod
    def from_chunk(cls, n: int, chunk: RetrievedChunk, rank: int | None = None) -> Citation:
        """Source ``n`` for a retrieved chunk at retrieval rank ``rank`` (no rank for a chunk read beside one)."""
        beside = chunk.read_beside
        return cls(n, chunk.chunk_id, chunk.source, chunk.page_start, chunk.page_end, chunk.text, chunk.scores(),
                   None if beside is not None else rank, chunk.locator, chunk.profile_line, beside)

    def to_dict(self) -> dict[str, Any]:
        """``{"n", "chunk_id", "source", "page_start", "page_end", "text", "scores", "rank", "locator",
        "profile", "read_beside"}``."""
        return asdict(self)


@dataclass(frozen=True)
class PassageView:
    """A cited passage shown in its place, for sources without a page image (slides, sheets, Word, HTML, text).

    Attributes:
        source: the document's file name.
        locator: where the passage is (:attr:`Citation.locator`; ``""`` for an unpaged source).
        text: the text of the passage's page, slide or sheet (rows), or of its surroundings in an unpaged
            document, cut to at most the passage and ``context_chars`` characters on each side.
        start: offset of the passage in ``text``.
        end: offset just past it; ``text[start:end]`` is the passage.
        clipped: True when ``text`` was cut at the context limit (the page or document goes on).
    """

    source: str
    locator: str
    text: str
    start: int
    end: int
    clipped: bool = False


@dataclass
class WebResult:
    """A web search result shown to the LLM as block ``[W<n>]``; never mixed into document citations."""

    n: int
    title: str
    url: str
    content: str

    def to_dict(self) -> dict[str, Any]:
        """``{"n", "title", "url", "content"}``."""
        return asdict(self)


@dataclass(frozen=True)
class Turn:
    """One exchange of a chat: the analyst's question, the answer text, and the standalone query used for it."""

    question: str
    answer: str
    condensed_query: str | None = None

    @property
    def standalone(self) -> str:
        """The standalone form of the question (the condensed query, else the question)."""
        return self.condensed_query or self.question


NoteKind = Literal["declined", "extractive", "degraded", "web", "no_match", "citations_removed", "unsupported_figures"]
"""What an :class:`Answer` note is about:

- ``declined``: there is no answer, and why (empty workspace, nothing to search for, the documents do not answer:
  what was searched, the terms not found; :attr:`Answer.declined` is True);
- ``extractive``: the answer is extractive because no LLM is configured;
- ``degraded``: a feature was off or failed and the answer went on without it (LLM, condensing, HyDE, multi-query,
  web search);
- ``web``: the documents do not cover the question and the answer uses web results only;
- ``no_match``: the retriever's message when it found nothing (e.g. no lexical match), or the companies a question
  names whose documents give no figure for it;
- ``citations_removed``: citation markers that pointed at no block were removed;
- ``unsupported_figures``: figures in the answer were not found in the blocks they cite
  (:attr:`Answer.unsupported_numbers` lists them).
"""


@dataclass(frozen=True)
class Note:
    """Something the analyst should know about an answer besides its text: its ``kind`` and a sentence."""

    kind: NoteKind
    text: str

    def to_dict(self) -> dict[str, str]:
        """``{"kind", "text"}``."""
        return {"kind": self.kind, "text": self.text}


AnswerMode = Literal["llm", "extractive"]
TIMING_STAGES: tuple[str, ...] = ("condense", "read", "expand", "retrieve", "rerank", "program", "web", "first_token",
                                  "total")
"""Keys of :attr:`Answer.timings_ms`, always all present (``None`` for a stage that did not run)."""


@dataclass
class Answer:
    """The response to one question; :meth:`to_dict` is the stable JSON of ``python -m prism ask --json``.

    Attributes:
        answer: the answer text with validated ``[n]`` / ``[Wn]`` markers (or the message when there is none).
        mode: ``llm`` or ``extractive`` (no LLM configured, or the LLM failed).
        citations: the chunks the answer cites, numbered 1, 2, 3 … in order of first use in ``answer``.
        retrieved: the retrieved chunks the answer does not cite, numbered after the cited ones in retrieval order.
        web: web results shown to the LLM, by ``n``.
        condensed_query: the standalone query used for retrieval (the question itself without history).
        unsupported_numbers: figures in the answer (as written) not found in the blocks they cite.
        timings_ms: milliseconds per stage, keys :data:`TIMING_STAGES`.
        notes: what the analyst should know besides the answer, as :class:`Note` s in the order they arose.
        declined: True when there is no answer: the documents do not answer the question (the answerability gate, or
            an LLM reply that says so), the workspace is empty, or the question has nothing to search for. The text
            then says why and what was searched; ``retrieved`` holds the closest passages, ``citations`` is empty;
            the first note is of kind ``declined``.
        message: the notes' texts joined by spaces (``None`` without notes); kept for the ``ask --json`` shape of
            earlier versions.
        scope: the scope retrieval ran in (entities, periods, documents, auto), or ``None`` when nothing was
            retrieved (an empty workspace, a question with nothing to search for).
        calculation: the figure computed from cited table cells (metric, formula, inputs, result), or ``None`` when
            none was computed (:mod:`prism.answering.programs`, :mod:`prism.answering.metrics`).
        understood: what the question reader understood (:meth:`prism.types.reading.Reading.to_dict`: intent,
            operation and its probability, the runner-up, mentions, periods, expected unit …), or ``None`` when the
            question was not read (an empty workspace).
    """

    answer: str
    mode: AnswerMode
    citations: list[Citation] = field(default_factory=list)
    retrieved: list[Citation] = field(default_factory=list)
    web: list[WebResult] = field(default_factory=list)
    condensed_query: str = ""
    unsupported_numbers: list[str] = field(default_factory=list)
    timings_ms: dict[str, float | None] = field(default_factory=lambda: dict.fromkeys(TIMING_STAGES))
    notes: list[Note] = field(default_factory=list)
    declined: bool = False
    scope: SearchScope | None = None
    calculation: Calculation | None = None
    understood: dict[str, Any] | None = None

    @property
    def message(self) -> str | None:
        """The notes' texts joined by spaces, or ``None`` without notes."""
        return " ".join(n.text for n in self.notes) or None

    def to_dict(self) -> dict[str, Any]:
        """``{"answer", "mode", "declined", "citations", "retrieved", "web", "condensed_query", "unsupported_numbers",
        "timings_ms", "notes", "message", "scope", "calculation", "understood"}`` (timings rounded to 0.01 ms;
        ``notes`` as ``{"kind", "text"}``; ``scope`` as ``{"entities", "periods", "documents", "auto"}`` or ``None``;
        ``calculation`` as :meth:`Calculation.to_dict` or ``None``)."""
        return {
            "answer": self.answer,
            "mode": self.mode,
            "declined": self.declined,
            "citations": [c.to_dict() for c in self.citations],
            "retrieved": [c.to_dict() for c in self.retrieved],
            "web": [w.to_dict() for w in self.web],
            "condensed_query": self.condensed_query,
            "unsupported_numbers": list(self.unsupported_numbers),
            "timings_ms": {k: (round(v, 2) if v is not None else None) for k, v in self.timings_ms.items()},
            "notes": [n.to_dict() for n in self.notes],
            "message": self.message,
            "scope": self.scope.to_dict() if self.scope is not None else None,
            "calculation": self.calculation.to_dict() if self.calculation is not None else None,
            "understood": self.understood,
        }
