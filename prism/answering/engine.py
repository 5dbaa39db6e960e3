"""Answering: question (+ chat history) → standalone query → Reading → retrieval ‖ web → cited answer.

:class:`AnswerEngine` runs one question through the pipeline:

1. **Guards**: an empty workspace, or nothing to search for: a message, no model call.
2. **Condense and read.** A follow-up becomes a standalone query (:mod:`prism.answering.conversation`); the reader
   reads it once (:class:`prism.answering.reading.Reader`) against the workspace's documents.
3. **Answerability gate**, on a plain retrieval (:func:`prism.answering.answerability.assess`: relevance, the
   salient words no top passage has, the evidence of the type asked); a question whose figures a program reads
   passes (:class:`~prism.answering.figure_step.FigureStep`). A declined question gets
   :func:`~prism.answering.answerability.decline_message` with the closest passages (web results alone when web
   search finds some); an LLM reply starting "NOT FOUND" is a decline too.
4. **Expand** (LLM only): HyDE, multi-query, the expanded retrieval (:func:`prism.retrieval.expansion.
   expanded_search`), web search alongside (:mod:`prism.answering.websearch`).
5. **Answer.** With an LLM: a streamed call with the history, the fenced blocks, the question and a computed
   figure's work as a checked fact. Without one (or when it fails before its first token): the computed or looked-up
   figure of the best program (:mod:`prism.answering.programs`), else sentences (:mod:`prism.answering.extractive`).
6. **Check.** Citation markers validated (:mod:`prism.answering.citations`), figures looked up in the blocks they
   cite (:mod:`prism.answering.figures`), blocks numbered by first use, the :class:`~prism.types.Answer` assembled.

``ask(..., stream=True)`` returns an :class:`AnswerStream` to iterate (``st.write_stream``), then read
:attr:`AnswerStream.answer`; the final ``Answer.answer`` has its markers validated and renumbered.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace

from llama_index.core.llms import ChatMessage, MessageRole

from prism.answering.answerability import (
    NOT_FOUND,
    Answerability,
    assess,
    decline_message,
    unknown_acronyms,
    unnamed_decline,
)
from prism.answering.citations import MARKER_RE, system_message, user_message
from prism.answering.continuation import cite_answer, complete_cut
from prism.answering.conversation import History, condense, history_messages, history_turns
from prism.answering.extractive import EXTRACTIVE_LABEL, extractive_lines, format_extractive, relevance
from prism.answering.figure_step import FigureStep
from prism.answering.llm import NO_LLMS, LLMs
from prism.answering.metrics.answer import sub_search
from prism.answering.numbercheck import accept_derived
from prism.answering.programs.llm import cited_calculation, llm_derived, surface_computed, unsupported_bare
from prism.answering.programs.ranker import Ranker
from prism.answering.programs.writing import COMPUTED_LABEL, derived_text
from prism.answering.reading.reader import Reader
from prism.answering.seams import Retriever, WorkspaceReader
from prism.answering.stream import AnswerRun, AnswerStream, Wanted
from prism.answering.units import blocks_of_chunks
from prism.answering.websearch import WebSearcher, WebSearchOutcome
from prism.config import Settings
from prism.errors import LLMAuthError, LLMError
from prism.index.embedder import PrismEmbedding
from prism.index.tokenizer import tokenize
from prism.retrieval.expansion import expanded_search
from prism.retrieval.retriever import SearchResult
from prism.retrieval.scope import catalog_of
from prism.types import Answer, Citation, Note, RetrievedChunk

__all__ = ["EMPTY_WORKSPACE", "NOT_RELEVANT", "REPHRASE", "AnswerEngine", "AnswerStream"]

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


class AnswerEngine:
    """Answers questions over one workspace.

    Args:
        retriever: the workspace's retriever (:class:`~prism.answering.seams.Retriever`: ``search``, ``idf``, its
            ``workspace`` and ``settings``).
        embedder: the real embedder (relevance gate, extractive answers).
        settings: thresholds, toggles' defaults, memory size.
        llms: the configured LLMs (default: none, i.e. extractive answers).
        web: the web searcher, or ``None`` when no Tavily key is configured.
        reader: the question reader (default: one over ``embedder``, with the trained weights).
        ranker: the program ranker (default: the trained weights).
    """

    def __init__(self, retriever: Retriever, embedder: PrismEmbedding, settings: Settings, llms: LLMs | None = None,
                 web: WebSearcher | None = None, reader: Reader | None = None, ranker: Ranker | None = None):
        self.retriever = retriever
        self.embedder = embedder
        self.settings = settings
        self.llms = llms or NO_LLMS
        self.web = web
        self.reader = reader or Reader(embedder, threads=settings.query_threads)
        self.figure_step = FigureStep(retriever, embedder, ranker or Ranker.load())

    # --- public ---------------------------------------------------------------------------------------------
    def ask(
        self,
        question: str,
        *,
        history: History | None = None,
        sources: Sequence[str] | None = None,
        mode: str | None = None,
        hyde: bool | None = None,
        multi_query: bool | None = None,
        web: bool | None = None,
        rerank: bool = True,
        stream: bool = False,
        auto_scope: bool = True,
        scope_removed: Sequence[str] = (),
    ) -> Answer | AnswerStream:
        """Answer ``question``.

        Args:
            question: the analyst's question as typed.
            history: the chat's earlier turns (:class:`~prism.answering.conversation.Conversation` or list of
                turns); the last ``settings.memory_turns`` are used.
            sources: restrict retrieval to these document file names.
            mode: retrieval mode (default ``settings.retrieval_mode``).
            hyde, multi_query: expansion toggles (default from settings; without an LLM they are off).
            web: web search toggle (default ``settings.web_search_enabled``; needs a Tavily key).
            rerank: use the cross-encoder when available.
            stream: return an :class:`AnswerStream` instead of the finished answer.
            auto_scope: scope retrieval by the entities and periods the question names
                (:mod:`prism.retrieval.scope`); a question about a company the workspace does not hold is declined.
            scope_removed: entities and periods the question names that the scope must not use (Chat's chips).

        Raises:
            DocumentNotFoundError: a name in ``sources`` is not in the workspace.
            LLMAuthError: the LLM key was rejected (other LLM failures degrade with a note in ``notes``).
        """
        run = AnswerRun(question.strip(), time.perf_counter(), auto_scope=auto_scope, scope_removed=(*scope_removed,))
        run.mode = "llm" if self.llms.available else "extractive"
        run.sources = list(sources) if sources else None
        declined = self._guard(run, history)
        if declined is None:
            self._condense(run, history)
            declined = None if tokenize(run.condensed) else REPHRASE
        if declined is None:
            declined = self._retrieve(run, self._wanted(run, hyde, multi_query, web), mode, sources, rerank)
        if declined is not None:
            return self._early(run, declined, stream)
        return self._generate(run, history, stream)

    # --- steps ----------------------------------------------------------------------------------------------
    @property
    def _workspace(self) -> WorkspaceReader:
        """The retriever's workspace (``documents()``, ``chunk_rows(doc_id)``, ``name``)."""
        return self.retriever.workspace

    def _guard(self, run: AnswerRun, history: History | None) -> str | None:
        """Why there is nothing to answer before any model runs (an empty workspace, a question with nothing to
        search for), or ``None``."""
        if not self._workspace.documents():
            return EMPTY_WORKSPACE.format(name=self._workspace.name)
        has_history = bool(history_turns(history, self.settings.memory_turns))
        if not run.question:
            return REPHRASE
        if not tokenize(run.question) and not (has_history and sum(ch.isalpha() for ch in run.question) >= 2):
            return REPHRASE
        return None

    def _condense(self, run: AnswerRun, history: History | None) -> None:
        """Rewrite a follow-up into the standalone query (:func:`prism.answering.conversation.condense`)."""
        t = time.perf_counter()
        condensed = condense(run.question, history, self.llms.cheap, self.settings.memory_turns)
        run.condensed = condensed.query
        t_read = time.perf_counter()
        run.reading = self.reader.read(run.condensed, catalog_of(self._workspace.snapshot(), self._workspace.name))
        run.add_time("read", (time.perf_counter() - t_read) * 1000)
        if condensed.method != "none":
            run.add_time("condense", (time.perf_counter() - t) * 1000)
        run.note("degraded", condensed.warning)

    def _wanted(self, run: AnswerRun, hyde: bool | None, multi_query: bool | None, web: bool | None) -> Wanted:
        """The optional stages asked for (defaults from the settings), minus those that cannot run (noted)."""
        want_hyde = self.settings.hyde_enabled if hyde is None else hyde
        want_multi = self.settings.multi_query_enabled if multi_query is None else multi_query
        want_web = self.settings.web_search_enabled if web is None else web
        if want_web and self.web is None:
            run.note("degraded", "Web search is off: no Tavily API key is configured (set TAVILY_API_KEY).")
            want_web = False
        if not self.llms.available and (hyde or multi_query):
            run.note("degraded", "HyDE and multi-query are off: no LLM is configured.")
        available = self.llms.available
        return Wanted(available and want_hyde, available and want_multi, want_web)

    def _retrieve(self, run: AnswerRun, wanted: Wanted, mode: str | None, sources: Sequence[str] | None,
                  rerank: bool) -> str | None:
        """Retrieve the blocks (with web search alongside): a plain search for the relevance gate, then the
        expanded one. Returns why there is no answer (nothing relevant, no web result either), or ``None``."""
        query = run.condensed
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="prism-web") if wanted.web else None
        web_future = pool.submit(self.web.search, query) if pool is not None and self.web is not None else None
        try:
            first = self.retriever.search(query, mode=mode, sources=sources, rerank=rerank and not wanted.expanding,
                                          reading=run.reading, **run.scope_options())
            self._record_search(run, first)
            run.scope = first.scope
            if first.decline:  # a company the workspace does not hold: no passages to show
                return first.decline
            verdict = self._assess(run, first.results)
            if not verdict.answerable:
                self._collect_web(run, web_future)
                if not run.web:
                    run.chunks = list(first.results)  # the closest passages, shown so the analyst can judge
                    return decline_message(query, run.sources, verdict.missing, verdict.reason, run.scope)
                run.note("web", "The documents don't cover this question; the answer uses web results only.")
                return None
            result = first
            if wanted.expanding:
                searched = expanded_search(self.retriever, query, self.llms.cheap, hyde=wanted.hyde,
                                           multi_query=wanted.multi_query, n=self.settings.multi_query_count,
                                           mode=mode, sources=sources, rerank=rerank, reading=run.reading,
                                           **run.scope_options())
                run.add_time("expand", searched.expand_ms)
                for warning in searched.expansion.warnings if searched.expansion else []:
                    run.note("degraded", warning)
                result = searched.result
                self._record_search(run, result)
            self._collect_web(run, web_future)
        finally:
            if pool is not None:
                pool.shutdown(wait=False)
        run.chunks = list(result.results)
        if result.message and not run.chunks:
            run.note("no_match", result.message)
        return None

    def _assess(self, run: AnswerRun, chunks: Sequence[RetrievedChunk]) -> Answerability:
        """The answerability gate on the first retrieval (:mod:`prism.answering.answerability`). A question whose
        figures a program reads passes it, its words ("ratio", "highest") being the question's, not the table's; when
        no top passage writes its period as asked, only if the program's figures are of that period ("31.03.2025");
        never with :func:`unknown_acronyms` ("SBI"). The choice is kept when its chunks are the answer's."""
        best = relevance(run.reading, chunks, self.embedder, self.settings.extractive_lexical_weight,
                         stored=self.retriever.vectors([c.chunk_id for c in chunks]))
        verdict = assess(run.reading, chunks, best, self.retriever.idf,
                         min_relevance=self.settings.answer_min_relevance,
                         min_salient_idf=self.settings.gate_min_salient_idf)
        if verdict.answerable or not chunks or unknown_acronyms(run.reading, verdict):
            return verdict
        asked = {w.lower() for w, why in run.reading.salient if why == "period"}
        unnamed = asked & {m.lower() for m in verdict.missing}
        if self.figure_step.answers(run, chunks) and (not unnamed or self.figure_step.reads_period(run, chunks)):
            return replace(verdict, answerable=True)
        return verdict

    def _record_search(self, run: AnswerRun, result: SearchResult) -> None:
        rerank_ms, total = (result.timings_ms.get(k) for k in ("rerank", "total"))
        run.add_time("retrieve", None if total is None else total - (rerank_ms or 0.0))
        run.add_time("rerank", rerank_ms)

    def _collect_web(self, run: AnswerRun, future: Future[WebSearchOutcome] | None) -> None:
        """Wait for the web search started alongside retrieval and record its results and warning."""
        if future is None:
            return
        outcome = future.result()  # WebSearcher.search never raises
        run.add_time("web", outcome.elapsed_ms)
        run.web = list(outcome.results)
        run.note("degraded", outcome.warning)

    def _early(self, run: AnswerRun, message: str, stream: bool) -> Answer | AnswerStream:
        """An answer that is only a message (no LLM call); the message is its first note (``declined``)."""

        def pieces() -> Iterator[str]:
            run.mark_first_token()
            yield message

        def finish(_text: str) -> Answer:
            run.notes.insert(0, Note("declined", message))
            return self._early_answer(run, message)

        s = AnswerStream(pieces(), finish, run)
        return s if stream else s.result()

    def _early_answer(self, run: AnswerRun, message: str) -> Answer:
        """A declined :class:`Answer`: the message, no citations, the closest passages as ``retrieved``."""
        run.timings["total"] = (time.perf_counter() - run.t0) * 1000
        closest = [Citation.from_chunk(n, c, n) for n, c in enumerate(run.chunks, start=1)]
        return Answer(answer=message, mode=run.mode, retrieved=closest, web=list(run.web),  # type: ignore[arg-type]
                      condensed_query=run.condensed or run.question, timings_ms=dict(run.timings),
                      notes=list(run.notes), declined=True, scope=run.scope, understood=run.understood())

    def _generate(self, run: AnswerRun, history: History | None, stream: bool) -> Answer | AnswerStream:
        run.blocks = blocks_of_chunks(run.chunks, self._workspace.chunk_rows)
        if self.llms.available:
            work = llm_derived(run, self.llms.cheap, self.figure_step.choose(run, run.chunks), self._workspace,
                               sub_search(self.retriever, run.reading), self.figure_step.entities(run),
                               lambda pool: self.figure_step.choose_pool(run.reading, pool))
            run.messages = [system_message(), *history_messages(history_turns(history, self.settings.memory_turns)),
                            ChatMessage(role=MessageRole.USER,
                                        content=user_message(run.question, run.condensed, run.chunks, run.web) + work)]
        s = AnswerStream(self._pieces(run), lambda text: self._finish(run, text), run)
        return s if stream else s.result()

    def _pieces(self, run: AnswerRun) -> Iterator[str]:
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
                    run.note("degraded", f"The answer was cut off: {exc}")
                    return
                run.note("degraded", f"{exc} Showing an extractive answer instead.")
                run.mode = "extractive"
                label = LLM_FAILED_LABEL
        run.derived, cells, extra = self.figure_step.figures(run)
        run.chunks, run.blocks = run.chunks + extra, run.blocks + blocks_of_chunks(extra)
        run.lines = cells if run.derived else cells or extractive_lines(
            run.reading, run.chunks, self.embedder, max_sentences=self.settings.extractive_max_sentences,
            lexical_weight=self.settings.extractive_lexical_weight, blocks=run.blocks)
        if not run.derived and not cells and run.lines:  # a sentence the chunk cut, read whole from its neighbour
            run.lines, added, run.beside = complete_cut(run.lines, run.chunks, self._workspace.chunk_rows,
                                                          overlap=self.settings.chunk_overlap)
            run.chunks, run.blocks = run.chunks + added, run.blocks + blocks_of_chunks(added)
        text = derived_text(run.derived) if run.derived else format_extractive(run.lines, label)
        if not text:  # no sentence answers: a decline, not "sentences quoted from the documents"
            text = unnamed_decline(run.reading) or NOT_RELEVANT
            run.notes.insert(0, Note("declined", text))
        elif run.derived is not None and label == EXTRACTIVE_LABEL:
            run.notes.insert(0, Note("extractive", f"{COMPUTED_LABEL}."))
        elif label == EXTRACTIVE_LABEL:
            run.notes.insert(0, Note("extractive", f"{EXTRACTIVE_LABEL}."))
        run.mark_first_token()
        yield text

    def _finish(self, run: AnswerRun, text: str) -> Answer:
        if run.lines is None and text.strip().upper().startswith(NOT_FOUND):  # the LLM says the blocks don't answer
            reason = MARKER_RE.sub("", text.strip()[len(NOT_FOUND):]).strip(" :.-—\n")
            message = decline_message(run.condensed, run.sources, reason=reason + "." if reason else "",
                                      scope=run.scope)
            run.notes.insert(0, Note("declined", message))
            return self._early_answer(run, message)
        text = surface_computed(run, text)  # an LLM answer leads with the computed figure when it does not state it
        text, order, unsupported = cite_answer(run, text)
        unsupported = accept_derived(run.derived, unsupported) + unsupported_bare(run, text)
        if unsupported:
            run.note("unsupported_figures", "Check these figures, not found in the sources they cite: "
                     + ", ".join(unsupported) + ".")
        uncited = [rank for rank in range(1, len(run.chunks) + 1) if rank not in order]
        run.timings["total"] = (time.perf_counter() - run.t0) * 1000
        answer = Answer(
            answer=text.strip(),
            mode=run.mode,  # type: ignore[arg-type]
            citations=[Citation.from_chunk(n, run.chunks[rank - 1], rank) for n, rank in enumerate(order, start=1)],
            retrieved=[Citation.from_chunk(n, run.chunks[rank - 1], rank)
                       for n, rank in enumerate(uncited, start=len(order) + 1)],
            web=list(run.web),
            condensed_query=run.condensed,
            unsupported_numbers=unsupported,
            timings_ms=dict(run.timings),
            notes=list(run.notes),
            declined=any(n.kind == "declined" for n in run.notes),
            scope=run.scope, calculation=cited_calculation(run, order), understood=run.understood(),
        )
        logger.info(
            "answer (%s): %d cited of %d blocks, %d web, %d unsupported figure(s), %.0f ms",
            answer.mode, len(answer.citations), len(run.chunks), len(run.web), len(unsupported),
            run.timings["total"] or 0.0,
        )
        return answer
