"""Answering: question (+ chat history) → standalone query → expansions → retrieval ‖ web → cited answer.

:class:`AnswerEngine` runs one question through the pipeline:

1. **Guards, no LLM call.** An empty workspace, or a question with nothing to search for (punctuation, emoji,
   only stop words), gets a clear message.
2. **Condense.** With history, the follow-up becomes a standalone query (small LLM, else a heuristic;
   :mod:`prism.answering.conversation`).
3. **Relevance gate, no LLM call.** A plain retrieval; when the best chunk's relevance (cosine to the standalone
   query + a query-term overlap term, :func:`prism.answering.extractive.relevance`) is below
   ``settings.answer_min_relevance`` the documents are taken not to answer and the
   analyst gets a message (unless web search is on and finds something: then the web blocks alone are the
   context).
4. **Expand** (LLM only): HyDE for the dense side, multi-query for both (:mod:`prism.retrieval.expansion`), then the
   expanded retrieval, reranked against the standalone query; web search (:mod:`prism.answering.websearch`) runs
   concurrently with it.
5. **Answer.** With an LLM: a streamed chat call with the history, the fenced numbered blocks and the original
   question. Without one (or when the LLM fails before its first token): an extractive answer
   (:mod:`prism.answering.extractive`).
6. **Check.** Citation markers are validated (:mod:`prism.answering.citations`), figures are looked up in the blocks
they
   cite (:mod:`prism.answering.figures`), and the :class:`~prism.types.Answer` is assembled.

``ask(..., stream=True)`` returns an :class:`AnswerStream`: iterate it for text pieces (``st.write_stream``), then
read :attr:`AnswerStream.answer`. The streamed text is the raw LLM output; the final ``Answer.answer`` has invalid
markers removed, so a UI should re-render it once the stream ends.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from llama_index.core.llms import ChatMessage, MessageRole

from prism.answering.citations import user_message, validate_citations
from prism.answering.conversation import History, condense, history_messages, history_turns
from prism.answering.extractive import EXTRACTIVE_LABEL, extractive_answer, relevance
from prism.answering.figures import unsupported_numbers
from prism.answering.llm import NO_LLMS, LLMs, system_message
from prism.answering.websearch import WebSearcher, WebSearchOutcome
from prism.config import RetrievalMode, Settings
from prism.errors import LLMAuthError, LLMError
from prism.index.bm25 import tokenize
from prism.index.embedder import PrismEmbedding
from prism.retrieval.expansion import expand
from prism.types import TIMING_STAGES, Answer, Citation, RetrievedChunk, WebResult

logger = logging.getLogger(__name__)

EMPTY_WORKSPACE = (
    "Workspace '{name}' is empty: add documents (the Upload page, or python -m prism ingest FILE) and ask again."
)
REPHRASE = (
    "Please rephrase the question: it has nothing that can be searched for (only punctuation, symbols or very "
    "common words such as 'the' or 'is')."
)
NOT_RELEVANT = (
    "The documents in this workspace don't answer that: nothing retrieved is close enough to the question. Try "
    "other words, check the document filter, or add the document that covers it."
)
LLM_FAILED_LABEL = "extractive answer (the LLM call failed)"


class Retriever(Protocol):
    """What the engine needs of a retriever (:class:`prism.retrieval.retriever.HybridRetriever`)."""

    def search(self, query: str, **kwargs: Any) -> Any: ...


@dataclass
class _Run:
    """The state of one question through the pipeline."""

    question: str
    t0: float
    condensed: str = ""
    chunks: list[RetrievedChunk] = field(default_factory=list)
    web: list[WebResult] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float | None] = field(default_factory=lambda: dict.fromkeys(TIMING_STAGES))
    mode: str = "extractive"
    messages: list[ChatMessage] = field(default_factory=list)

    def add_time(self, stage: str, ms: float | None) -> None:
        if ms is None:
            return
        self.timings[stage] = (self.timings[stage] or 0.0) + ms

    def mark_first_token(self) -> None:
        if self.timings["first_token"] is None:
            self.timings["first_token"] = (time.perf_counter() - self.t0) * 1000


class AnswerStream:
    """An answer being produced: an iterator of text pieces; :attr:`answer` is set once it is exhausted.

    Attributes available before streaming: :attr:`condensed_query`, :attr:`chunks` (the numbered blocks) and
    :attr:`web`.
    """

    def __init__(self, pieces: Iterator[str], finish: Callable[[str], Answer], run: _Run):
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
        """Consume the rest of the stream and return the final answer."""
        for _ in self:
            pass
        if self._answer is None:  # pragma: no cover - __next__ always sets it at exhaustion
            raise RuntimeError("the answer stream ended without an answer")
        return self._answer


class AnswerEngine:
    """Answers questions over one workspace.

    Args:
        retriever: the workspace's retriever (``search(query, *, mode, top_k, sources, dense_queries,
            sparse_queries, rerank, rerank_query)``); its ``workspace`` attribute, when present, is checked for
            emptiness.
        embedder: the real embedder (relevance gate, extractive answers).
        settings: thresholds, toggles' defaults, memory size.
        llms: the configured LLMs (default: none, i.e. extractive answers).
        web: the web searcher, or ``None`` when no Tavily key is configured.
    """

    def __init__(
        self,
        retriever: Retriever,
        embedder: PrismEmbedding,
        settings: Settings,
        llms: LLMs | None = None,
        web: WebSearcher | None = None,
    ):
        self.retriever = retriever
        self.embedder = embedder
        self.settings = settings
        self.llms = llms or NO_LLMS
        self.web = web

    # --- public ---------------------------------------------------------------------------------------------
    def ask(
        self,
        question: str,
        *,
        history: History | None = None,
        sources: Sequence[str] | None = None,
        mode: RetrievalMode | None = None,
        hyde: bool | None = None,
        multi_query: bool | None = None,
        web: bool | None = None,
        rerank: bool = True,
        stream: bool = False,
    ) -> Answer | AnswerStream:
        """Answer ``question``.

        Args:
            question: the analyst's question as typed.
            history: the chat's earlier turns (:class:`~prism.answering.conversation.Conversation` or list of turns);
            the
                last ``settings.memory_turns`` are used.
            sources: restrict retrieval to these document file names.
            mode: retrieval mode (default ``settings.retrieval_mode``).
            hyde, multi_query: expansion toggles (default from settings; without an LLM they are off).
            web: web search toggle (default ``settings.web_search_enabled``; needs a Tavily key).
            rerank: use the cross-encoder when available.
            stream: return an :class:`AnswerStream` instead of the finished answer.

        Raises:
            DocumentNotFoundError: a name in ``sources`` is not in the workspace.
            LLMAuthError: the LLM key was rejected (other LLM failures degrade with a note in ``message``).
        """
        run = _Run(question.strip(), time.perf_counter())
        run.mode = "llm" if self.llms.available else "extractive"
        workspace = getattr(self.retriever, "workspace", None)
        if workspace is not None and not workspace.documents():
            return self._early(run, EMPTY_WORKSPACE.format(name=workspace.name), stream)
        has_history = bool(history_turns(history, self.settings.memory_turns))
        if not run.question or (not tokenize(run.question) and not (has_history and re.search(r"[^\W\d_]{2}",
                                                                                               run.question))):
            return self._early(run, REPHRASE, stream)

        t = time.perf_counter()
        condensed = condense(run.question, history, self.llms.cheap, self.settings.memory_turns)
        run.condensed = condensed.query
        if condensed.method != "none":
            run.add_time("condense", (time.perf_counter() - t) * 1000)
        if condensed.warning:
            run.notes.append(condensed.warning)
        if not tokenize(run.condensed):
            return self._early(run, REPHRASE, stream)

        want_hyde = self.settings.hyde_enabled if hyde is None else hyde
        want_multi = self.settings.multi_query_enabled if multi_query is None else multi_query
        want_web = self.settings.web_search_enabled if web is None else web
        if want_web and self.web is None:
            run.notes.append("Web search is off: no Tavily API key is configured (set TAVILY_API_KEY).")
            want_web = False
        expanding = self.llms.available and (want_hyde or want_multi)
        if not self.llms.available and (hyde or multi_query):
            run.notes.append("HyDE and multi-query are off: no LLM is configured.")
        query = run.condensed

        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="prism-web") if want_web else None
        web_future = pool.submit(self.web.search, query) if pool is not None and self.web is not None else None
        try:
            first = self.retriever.search(query, mode=mode, sources=sources, rerank=rerank and not expanding)
            self._record_search(run, first)
            best = relevance(query, first.results, self.embedder, self.settings.extractive_lexical_weight)
            logger.info("relevance gate: best %.3f (threshold %.3f)", best,
                        self.settings.answer_min_relevance)
            if best < self.settings.answer_min_relevance:
                self._collect_web(run, web_future)
                if not run.web:
                    return self._early(run, NOT_RELEVANT, stream)
                run.notes.append("The documents don't cover this question; the answer uses web results only.")
                return self._generate(run, history, stream)
            result = first
            if expanding:
                t = time.perf_counter()
                expansion = expand(query, self.llms.cheap, hyde=want_hyde, multi=want_multi,
                                   n=self.settings.multi_query_count)
                run.add_time("expand", (time.perf_counter() - t) * 1000)
                run.notes.extend(expansion.warnings)
                result = self.retriever.search(
                    query, mode=mode, sources=sources, dense_queries=expansion.dense_queries,
                    sparse_queries=expansion.sparse_queries, rerank=rerank, rerank_query=query,
                )
                self._record_search(run, result)
            self._collect_web(run, web_future)
        finally:
            if pool is not None:
                pool.shutdown(wait=False)
        run.chunks = list(result.results)
        if result.message and not run.chunks:
            run.notes.append(result.message)
        return self._generate(run, history, stream)

    # --- steps ----------------------------------------------------------------------------------------------
    def _record_search(self, run: _Run, result: Any) -> None:
        timings = getattr(result, "timings_ms", {}) or {}
        rerank_ms = timings.get("rerank")
        total = timings.get("total")
        if total is not None:
            run.add_time("retrieve", total - (rerank_ms or 0.0))
        run.add_time("rerank", rerank_ms)

    def _collect_web(self, run: _Run, future: Future[WebSearchOutcome] | None) -> None:
        """Wait for the web search started alongside retrieval and record its results and warning."""
        if future is None:
            return
        outcome = future.result()  # WebSearcher.search never raises
        run.add_time("web", outcome.elapsed_ms)
        run.web = list(outcome.results)
        if outcome.warning:
            run.notes.append(outcome.warning)

    def _early(self, run: _Run, message: str, stream: bool) -> Answer | AnswerStream:
        """An answer that is only a message (no LLM call)."""

        def pieces() -> Iterator[str]:
            run.mark_first_token()
            yield message

        def finish(_text: str) -> Answer:
            run.timings["total"] = (time.perf_counter() - run.t0) * 1000
            return Answer(answer=message, mode=run.mode, condensed_query=run.condensed or run.question,  # type: ignore[arg-type]
                          timings_ms=dict(run.timings), message=" ".join([message, *run.notes]))

        s = AnswerStream(pieces(), finish, run)
        return s if stream else s.result()

    def _generate(self, run: _Run, history: History | None, stream: bool) -> Answer | AnswerStream:
        if self.llms.available:
            turns = history_turns(history, self.settings.memory_turns)
            run.messages = [
                system_message(),
                *history_messages(turns),
                ChatMessage(role=MessageRole.USER,
                            content=user_message(run.question, run.condensed, run.chunks, run.web)),
            ]
        s = AnswerStream(self._pieces(run), lambda text: self._finish(run, text), run)
        return s if stream else s.result()

    def _pieces(self, run: _Run) -> Iterator[str]:
        label = EXTRACTIVE_LABEL
        if self.llms.main is not None:
            produced = False
            try:
                for piece in self.llms.main.stream_chat(run.messages):
                    if piece:
                        run.mark_first_token()
                        produced = True
                        yield piece
                return
            except LLMAuthError:
                raise
            except LLMError as exc:
                logger.warning("answer call failed: %s", type(exc).__name__)
                if produced:
                    run.notes.append(f"The answer was cut off: {exc}")
                    return
                run.notes.append(f"{exc} Showing an extractive answer instead.")
                run.mode = "extractive"
                label = LLM_FAILED_LABEL
        text, _ = extractive_answer(
            run.condensed, run.chunks, self.embedder, max_sentences=self.settings.extractive_max_sentences,
            lexical_weight=self.settings.extractive_lexical_weight, label=label,
        )
        if not text:
            text = NOT_RELEVANT
        if label == EXTRACTIVE_LABEL:
            run.notes.insert(0, f"{EXTRACTIVE_LABEL}.")
        run.mark_first_token()
        yield text

    def _finish(self, run: _Run, text: str) -> Answer:
        check = validate_citations(text, len(run.chunks), len(run.web))
        if check.removed:
            run.notes.append(
                "Removed citation marker(s) pointing to no source: " + ", ".join(f"[{r}]" for r in check.removed) + "."
            )
        blocks = {str(i): c.text for i, c in enumerate(run.chunks, start=1)}
        blocks.update({f"W{w.n}": w.content for w in run.web})
        unsupported = unsupported_numbers(check.text, blocks)
        if unsupported:
            run.notes.append("Check these figures, not found in the sources they cite: " + ", ".join(unsupported) + ".")
        cited = set(check.cited)
        run.timings["total"] = (time.perf_counter() - run.t0) * 1000
        answer = Answer(
            answer=check.text.strip(),
            mode=run.mode,  # type: ignore[arg-type]
            citations=[Citation.from_chunk(n, run.chunks[n - 1]) for n in check.cited],
            retrieved=[Citation.from_chunk(i, c) for i, c in enumerate(run.chunks, start=1) if i not in cited],
            web=list(run.web),
            condensed_query=run.condensed,
            unsupported_numbers=unsupported,
            timings_ms=dict(run.timings),
            message=" ".join(run.notes) or None,
        )
        logger.info(
            "answer (%s): %d cited of %d blocks, %d web, %d unsupported figure(s), %.0f ms",
            answer.mode, len(answer.citations), len(run.chunks), len(run.web), len(unsupported),
            run.timings["total"] or 0.0,
        )
        return answer
