"""Multi-part questions: "X, and who is Y?" is split and each part answered by the answer engine.

A thin layer over :meth:`prism.answering.engine.AnswerEngine.ask`: the reader's
:func:`~prism.answering.reading.parts.split_question` cuts a
question at ", and" / " and" / ";" / "?" where both halves are questions (the second opens with a question word or
an auxiliary verb: "who", "what", "is", "does" …); a part's pronoun that refers to the previous part's company
("who is its CEO?" after "What was Netflix's …") gets that name
(:func:`~prism.answering.reading.parts.resolve_part`). :func:`ask_parts` asks each
part with the same options and history and joins the answers (:func:`join_answers`): one answer with a section per
part, each section citing its own passages (renumbered so that every number names one passage), streamed part
after part.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from prism.answering.reading.parts import resolve_part, split_question
from prism.answering.stream import AnswerStream
from prism.types import Answer, Citation, RetrievedChunk, WebResult

__all__ = ["MultiPartStream", "ask_parts", "join_answers", "part_heading"]

Ask = Callable[..., Any]
"""``AnswerEngine.ask``: ``(question, *, history, stream, **options) -> Answer | AnswerStream``."""


_MARKER = re.compile(r"\[(W?)(\d+)\]")


def _renumber(text: str, numbers: dict[int, int], web_numbers: dict[int, int]) -> str:
    """``text`` with its markers ``[n]`` / ``[Wn]`` renumbered through ``numbers`` / ``web_numbers`` (a marker
    without an entry is left as written)."""
    def renumbered(m: re.Match[str]) -> str:
        web, n = m.group(1) == "W", int(m.group(2))
        return f"[{'W' if web else ''}{(web_numbers if web else numbers).get(n, n)}]"
    return _MARKER.sub(renumbered, text)


def _number_once(items: Sequence[Any], key: Callable[[Any], str], number_of: dict[str, int],
                 numbered: list[Any]) -> dict[int, int]:
    """Give each of one part's ``items`` (citations or web results) the number its ``key`` got first, appending a
    new one to ``numbered`` with the next number. Returns the part's old number → joined number."""
    numbers: dict[int, int] = {}
    for item in items:
        if key(item) not in number_of:
            number_of[key(item)] = len(numbered) + 1
            numbered.append(replace(item, n=len(numbered) + 1))
        numbers[item.n] = number_of[key(item)]
    return numbers


def part_heading(i: int, n: int, part: str) -> str:
    """The line opening part ``i`` (1-based) of ``n``: "Part 1 of 2: <part>", plain text (the chat shows an answer
    as written, so no Markdown)."""
    return f"Part {i} of {n}: {part}"


def join_answers(parts: Sequence[str], answers: Sequence[Answer]) -> Answer:
    """One answer with a section per part: its :func:`part_heading` then that part's answer, its markers and citations
    renumbered after the previous parts' (cited ones first, then the uncited retrieved ones, both in part order).

    A chunk cited by several parts keeps the number it got first (so does a web result, by URL), and a retrieved
    chunk is listed once, and not at all when a part cites it: every number names one passage, and every passage
    has one number. The joined answer is declined only when every part is; its notes are each part's, in order,
    prefixed with the part's number when there are several; ``condensed_query`` joins the parts' queries with
    " | "; ``timings_ms`` sums each stage (``None`` when no part timed it); ``scope`` and ``calculation`` are the
    first part's that has one.
    """
    sections: list[str] = []
    cited: list[Citation] = []
    web: list[WebResult] = []
    number_of: dict[str, int] = {}
    web_number_of: dict[str, int] = {}
    notes = []
    for i, (part, answer) in enumerate(zip(parts, answers, strict=True), start=1):
        numbers = _number_once(answer.citations, lambda c: c.chunk_id, number_of, cited)
        web_numbers = _number_once(answer.web, lambda w: w.url, web_number_of, web)
        sections.append(f"{part_heading(i, len(parts), part)}\n\n{_renumber(answer.answer, numbers, web_numbers)}")
        notes += [replace(n, text=f"Part {i}: {n.text}") for n in answer.notes]
    retrieved: list[Citation] = []
    for c in (c for answer in answers for c in answer.retrieved):
        if c.chunk_id not in number_of:
            number_of[c.chunk_id] = len(cited) + len(retrieved) + 1
            retrieved.append(replace(c, n=number_of[c.chunk_id]))
    timings: dict[str, float | None] = {}
    for answer in answers:
        for stage, ms in answer.timings_ms.items():
            timings[stage] = ms if timings.get(stage) is None else (timings[stage] or 0.0) + (ms or 0.0)
    first = answers[0]
    return Answer(answer="\n\n".join(sections), mode=first.mode, citations=cited, retrieved=retrieved, web=web,
                  condensed_query=" | ".join(a.condensed_query for a in answers),
                  unsupported_numbers=[u for a in answers for u in a.unsupported_numbers], timings_ms=timings,
                  notes=notes, declined=all(a.declined for a in answers),
                  scope=next((a.scope for a in answers if a.scope is not None), None),
                  calculation=next((a.calculation for a in answers if a.calculation is not None), None))


class MultiPartStream:
    """The answers of a multi-part question streamed one part after the other, like an
    :class:`~prism.answering.stream.AnswerStream`: iterate it for text pieces (each part's heading, then its
    pieces), then read :attr:`answer` (:func:`join_answers`). A part is asked only when the stream reaches it."""

    def __init__(self, parts: Sequence[str], ask_one: Callable[[str], AnswerStream]):
        self.parts = list(parts)
        self._ask_one = ask_one
        self._done: list[Answer] = []
        self._current: AnswerStream | None = None
        self._answer: Answer | None = None
        self._pieces = self._run()

    def _run(self) -> Iterator[str]:
        for i, part in enumerate(self.parts):
            yield f"{'' if i == 0 else chr(10) * 2}{part_heading(i + 1, len(self.parts), part)}\n\n"
            self._current = self._ask_one(part)
            yield from self._current
            self._done.append(self._current.result())
        self._answer = join_answers(self.parts, self._done)

    def __iter__(self) -> MultiPartStream:
        return self

    def __next__(self) -> str:
        return next(self._pieces)

    @property
    def condensed_query(self) -> str:
        """The standalone queries of the parts answered so far, joined with " | "."""
        queries = [a.condensed_query for a in self._done]
        if self._current is not None and len(self._done) < len(self.parts) and self._answer is None:
            queries.append(self._current.condensed_query)
        return " | ".join(queries)

    @property
    def chunks(self) -> list[RetrievedChunk]:
        """The blocks of the part being answered (an empty list before the first part is asked)."""
        return self._current.chunks if self._current is not None else []

    @property
    def web(self) -> list[WebResult]:
        """The web blocks of the part being answered."""
        return self._current.web if self._current is not None else []

    @property
    def answer(self) -> Answer | None:
        """The joined :class:`~prism.types.Answer`, or ``None`` until every part is answered."""
        return self._answer

    def result(self) -> Answer:
        """Consume the rest of the stream and return the joined answer.

        Raises:
            RuntimeError: the stream ended without an answer (a bug).
        """
        for _ in self:
            pass
        if self._answer is None:  # pragma: no cover - _run always sets it at exhaustion
            raise RuntimeError("the multi-part answer stream ended without an answer")
        return self._answer


def ask_parts(ask: Ask, question: str, *, history: Any = None, stream: bool = False,
              **options: Any) -> Answer | AnswerStream | MultiPartStream:
    """Answer ``question`` through ``ask`` (``AnswerEngine.ask``), part by part when it has several.

    Args:
        ask: the engine's ``ask``.
        question: the analyst's question as typed.
        history: the conversation, given to every part (a part that names its own subject is not condensed with
            it: :func:`prism.answering.conversation.is_followup`).
        stream: return a stream (:class:`MultiPartStream` for several parts) instead of the answer.
        options: the other keywords of ``AnswerEngine.ask``, the same for every part.

    Returns:
        ``ask``'s own result for a one-part question; else the joined answer (:func:`join_answers`) or its stream.

    Raises:
        Whatever ``ask`` raises (``DocumentNotFoundError``, ``LLMAuthError``).
    """
    raw = split_question(question)
    if len(raw) == 1:
        return ask(question, history=history, stream=stream, **options)
    parts = [resolve_part(p, raw[:i]) for i, p in enumerate(raw)]
    multi = MultiPartStream(parts, lambda part: ask(part, history=history, stream=True, **options))
    return multi if stream else multi.result()
