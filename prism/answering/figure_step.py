"""The figure step of the answer engine: the programs and statement metrics over a question's chunks.

:class:`FigureStep` makes the program choice once per set of chunks (:func:`prism.answering.programs.answer.choose`,
with a focused search for tables when the chunks hold none), tells the gate whether a program or a statement metric
computed whole answers the question (its words, "ratio", "margin", "FY2015", are the question's, not the table's),
and gives the extractive answer its figure: one per company for a scope naming several
(:mod:`prism.answering.programs.entities`), else the best program or the statement metric the question names
(:func:`prism.answering.programs.step.figure_lines`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from prism.answering.metrics.answer import metric_answer, sub_search
from prism.answering.programs.answer import Choice, choose
from prism.answering.programs.entities import entity_documents, entity_figures, missing_note
from prism.answering.programs.ranker import FEATURES, Ranker
from prism.answering.programs.step import figure_lines
from prism.answering.seams import Retriever, WorkspaceReader
from prism.answering.stream import AnswerRun
from prism.types import Derived, RetrievedChunk
from prism.types.reading import Reading

if TYPE_CHECKING:
    from prism.index.embedder import PrismEmbedding

__all__ = ["FigureStep"]

SENTENCE_INTENTS = frozenset({"reason", "description", "table_subject"})
"""Intents whose answer is a sentence, never a figure."""


_PERIOD_COVER = FEATURES.index("period_cover")


class FigureStep:
    """The programs of one engine.

    Args:
        retriever: the workspace's retriever (focused searches; its ``workspace`` reads the table rows).
        embedder: the embedder (each program written as a question, compared with the question).
        ranker: the program ranker.
    """

    def __init__(self, retriever: Retriever, embedder: PrismEmbedding, ranker: Ranker):
        self.retriever = retriever
        self.embedder = embedder
        self.ranker = ranker

    @property
    def _workspace(self) -> WorkspaceReader:
        return self.retriever.workspace

    def choose(self, run: AnswerRun, chunks: Sequence[RetrievedChunk]) -> Choice:
        """The ranked programs over ``chunks``, made once per set of chunks (kept on the run)."""
        key = tuple(c.chunk_id for c in chunks)
        if run.choice is not None and run.choice_key == key:
            return run.choice
        t = time.perf_counter()

        def tables() -> Sequence[RetrievedChunk]:
            # the workspace's tables within the analyst's filter (never widened) and the entities the question
            # names, but not its periods: the table holding a quarter's figure is often in another document than the
            # call whose file name names the quarter, and ranks below the call's sentences (hence three windows deep)
            removed = (*run.scope_removed, *(run.scope.periods if run.scope is not None else ()))
            return self.retriever.search(run.condensed, sources=run.sources, reading=run.reading,
                                         top_k=3 * self.retriever.settings.fusion_top_k, rerank=False,
                                         auto_scope=run.auto_scope, scope_removed=removed).results

        run.choice = choose(run.reading, chunks, self._workspace.chunk_rows, embedder=self.embedder,
                            ranker=self.ranker, tables=tables)
        run.choice_key = key
        run.add_time("program", (time.perf_counter() - t) * 1000)
        return run.choice

    def choose_pool(self, reading: Reading, pool: Sequence[RetrievedChunk]) -> Choice:
        """The ranked programs over one company's pool of chunks (not kept on the run)."""
        return choose(reading, pool, self._workspace.chunk_rows, embedder=self.embedder, ranker=self.ranker)

    def entities(self, run: AnswerRun) -> list[tuple[str, list[str]]]:
        """``[(entity, its documents' file names)]`` to compute one figure each for: the companies a scope naming
        two or more names (:func:`prism.answering.programs.entities.entity_documents`); ``[]`` for fewer, or for a
        question a sentence answers."""
        if run.reading.intent in SENTENCE_INTENTS:
            return []
        return entity_documents(run.scope, self._workspace)

    def reads_period(self, run: AnswerRun, chunks: Sequence[RetrievedChunk]) -> bool:
        """Whether the best program over ``chunks`` reads a figure of a period the question asks ("31.03.2025" is
        FY2025 though no passage writes "2025" as a word)."""
        best = self.choose(run, chunks).best
        return best is not None and best.features[_PERIOD_COVER] > 0.0

    def answers(self, run: AnswerRun, chunks: Sequence[RetrievedChunk]) -> bool:
        """Whether a program over ``chunks`` answers the question, the statement metric it names ("operating
        margin") is computed whole from their tables (every input found) or has some of its inputs found there (the
        answer then names the inputs missing and gives no number: "inventory turnover: cannot be computed: no FY2020
        inventory found in a table of …"), or the question asks what a table shows."""
        if run.reading.intent == "table_subject" or self.choose(run, chunks).fits(run.reading):
            return True
        if not run.reading.plans:
            return False
        metric = metric_answer(run.reading, chunks, self._workspace.chunk_rows,
                               sub_search(self.retriever, run.reading))
        if metric is None:
            return False
        calculation = metric.calculation
        return (calculation.value is not None and not calculation.missing) or bool(calculation.missing
                                                                                   and calculation.inputs)

    def figures(self, run: AnswerRun) -> tuple[Derived | None, list[tuple[str, int]], list[RetrievedChunk]]:
        """The figure of an extractive answer: ``(derived, lines, chunks to append)`` (module docstring)."""
        rows_of = self._workspace.chunk_rows
        search = sub_search(self.retriever, run.reading)
        reading = run.reading
        metric_over = (lambda pool: metric_answer(reading, pool, rows_of, search)) if reading.plans else None
        entities = self.entities(run)
        if entities:
            joined = entity_figures(
                reading, run.chunks, entities, rows_of, lambda pool: self.choose_pool(reading, pool),
                lambda sources: search(run.condensed, sources), metric_over)
            if joined is not None:
                run.note("no_match", missing_note(joined.missing) if joined.missing else None)
                return joined.derived, joined.lines, joined.extra
        metric = metric_over(run.chunks) if metric_over is not None else None
        return figure_lines(reading, self.choose(run, run.chunks), rows_of, metric)
