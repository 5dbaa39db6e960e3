"""Which figure a question gets computed: one decision for the extractive answer, the LLM's answer and the grid.

:func:`computed_figure` chooses between a statement metric (:func:`~prism.answering.derived.answer.derived_answer`:
margins, ratios, growth over the line items of :data:`prism.index.statements.ITEMS`) and the arithmetic over the table
row the question names (:mod:`prism.answering.derived.operations`, or with an LLM its plan executed in code,
:mod:`prism.answering.derived.plan`). The extractive answer (:func:`figure_lines`), the LLM's answer call
(:func:`prism.answering.derived.llm.llm_derived`) and so every Chat answer, comparison-grid cell and per-company answer
asked through the engine go through it.

A plain change ("What was the change in revenue from 2018 to 2019?") is the difference of the two values, latest −
earliest, as TAT-QA's arithmetic answers read it (Zhu et al., ACL 2021), not the growth rate the metric reader reads
"change in <item>" as: the row operation goes first for it (:func:`plain_change`), and the metric stands when no row
gives the change. A question that says growth, percent, YoY, CAGR, rate or basis points keeps the metric.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from prism.answering.derived.answer import derived_answer, sub_search
from prism.answering.derived.calc import Plan
from prism.answering.derived.cells import RowsOf, cell_lines
from prism.answering.derived.entity_figures import entity_documents, entity_figure_lines
from prism.answering.derived.inputs import Search
from prism.answering.derived.operations import operation_answer, read_operation
from prism.answering.evidence import asks_reason
from prism.answering.seams import Retriever, WorkspaceReader
from prism.retrieval.understanding import Understanding
from prism.types import Derived, NoteKind, RetrievedChunk, SearchScope

__all__ = ["OperationStep", "block_numbered", "computed_figure", "figure_lines", "plain_change"]

_RATE_WORDS = re.compile(r"\bgrowth\b|\bcagr\b|percent|%|\byoy\b|year[- ]over[- ]year|\brate\b|basis\s+points|\bbps\b",
                         re.IGNORECASE)


def plain_change(question: str | Understanding) -> bool:
    """True for a question asking for a plain change across two or more years (the row operation ``change``,
    :func:`~prism.answering.derived.operations.read_operation`) in words that ask for no rate (growth, percent,
    YoY, CAGR, rate, basis points): "What was the change in revenue from 2018 to 2019?"."""
    understood = Understanding.of(question)
    op = read_operation(understood)
    return op is not None and op.kind == "change" and not _RATE_WORDS.search(understood.text)


OperationStep = Callable[[Understanding, Sequence[RetrievedChunk], RowsOf | None], Derived | None]
"""The row-operation step of :func:`computed_figure`: ``(question, chunks, rows_of)`` → the figure or ``None``
(:func:`~prism.answering.derived.operations.operation_answer`, or the LLM's plan executed in code,
:func:`prism.answering.derived.plan.llm_operation`)."""


def computed_figure(question: str | Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None,
                    search: Search | None, *, choose: Callable[[Plan, str | None], Plan] | None = None,
                    operation: OperationStep | None = None, renumber: bool = True) -> Derived | None:
    """The one place that decides which figure is computed for a question, offline and with an LLM.

    In order: a cause question (:func:`~prism.answering.evidence.asks_reason`) gets none; a plain change
    (:func:`plain_change`) the row operation when a row gives it; a statement metric
    (:func:`~prism.answering.derived.answer.derived_answer`) when the question asks for one and a table holds an
    input; else (no metric, or one whose inputs no table holds) the arithmetic over the table row the question names
    (:func:`~prism.answering.derived.operations.operation_answer`); else the metric's "cannot compute" answer, if any.
    The row-operation step runs at most once (with an LLM it makes the plan call).

    Args:
        question: the (standalone) question or its :class:`~prism.retrieval.understanding.Understanding`.
        chunks: the retrieved chunks, best first (block ``n`` = position + 1).
        rows_of: the workspace's ``read_chunks(doc_id)``; ``None`` computes nothing.
        search: the focused sub-retrieval for a metric's inputs
            (:func:`~prism.answering.derived.answer.sub_search`), or ``None``.
        choose: the optional step replacing the metric's plan (the LLM's formula), as in
            :func:`~prism.answering.derived.answer.derived_answer`.
        operation: the row-operation step (default :func:`~prism.answering.derived.operations.operation_answer`;
            with an LLM, its plan executed in code).
        renumber: ``True`` writes the work lines' inline markers as the extractive answer numbers its citations (by
            first use); ``False`` keeps block numbers everywhere (an LLM's context, :func:`block_numbered`).

    Returns:
        The :class:`~prism.types.Derived` figure, or ``None`` when the question asks for no computed figure.
    """
    question = Understanding.of(question)
    if asks_reason(question) or rows_of is None:
        return None
    step = operation or operation_answer

    def row_operation() -> Derived | None:
        computed = step(question, chunks, rows_of)
        return computed if computed is None or renumber else block_numbered(computed)

    first = plain_change(question)
    if first and (computed := row_operation()) is not None:
        return computed
    derived = derived_answer(question, chunks, rows_of, search, choose=choose, renumber=renumber)
    if not first and (derived is None or derived.raw is None):  # no metric, or one whose inputs no table holds
        return row_operation() or derived
    return derived


_TRAILING_MARKS = re.compile(r"(?:\s*\[\d+\])+$")


def block_numbered(derived: Derived) -> Derived:
    """``derived`` with its work lines' inline markers and its inputs' citations as block numbers.

    A computed figure's lines carry their own block number (``(text, n)``); the markers written inside a work line
    ("… = 16.36 % [1]") and :attr:`~prism.types.CalculationInput.citation` count the blocks by first use among the
    lines, as the extractive answer renumbers them. An LLM reads block numbers, so ``[i]`` becomes the ``i``-th block
    the lines use (an identity when the lines' blocks are 1, 2, … in order).
    """
    order = list(dict.fromkeys(n for _, n in derived.lines))

    def marks(m: re.Match[str]) -> str:
        return re.sub(r"\[(\d+)\]", lambda k: f"[{order[int(k.group(1)) - 1]}]"
                      if 0 < int(k.group(1)) <= len(order) else k.group(0), m.group(0))

    lines = [(_TRAILING_MARKS.sub(marks, text), n) for text, n in derived.lines]
    inputs = tuple(replace(i, citation=order[i.citation - 1]) if 0 < i.citation <= len(order) else i
                   for i in derived.calculation.inputs)
    return replace(derived, lines=lines, calculation=replace(derived.calculation, inputs=inputs))


def figure_lines(question: str | Understanding, chunks: Sequence[RetrievedChunk], workspace: WorkspaceReader | None,
                 retriever: Retriever | None, *,
                 scope: SearchScope | None = None, note: Callable[[NoteKind, str], None] | None = None
                 ) -> tuple[Derived | None, list[tuple[str, int]], list[RetrievedChunk]]:
    """The extractive answer's figure lines: ``(derived, lines, chunks to add)`` for a computed figure
    (:func:`computed_figure`, the one decision the LLM's answer uses too; sub-retrieval through ``retriever``);
    else, for a question whose ``scope`` names two or more companies, one figure per company
    (:mod:`prism.answering.derived.entity_figures`; ``note`` is told of a company none was found for);
    else ``(None, *cell_lines(...))`` (a figure read from one table cell; ``[]`` when none).
    A question that asks for a cause (:func:`~prism.answering.evidence.asks_reason`) gets ``(None, [], [])``: its
    answer is a sentence.
    ``workspace`` gives ``read_chunks(doc_id)`` and ``documents()``; ``None`` reads no tables."""
    rows_of = workspace.read_chunks if workspace is not None else None
    question = Understanding.of(question)
    if asks_reason(question):  # a cause is stated in a sentence, not in a cell
        return None, [], []
    search = sub_search(retriever, question) if retriever is not None else None
    derived = computed_figure(question, chunks, rows_of, search)
    if derived is not None:
        return derived, derived.lines, derived.extra
    entities = entity_documents(scope, workspace)
    if entities:
        lines, extra, missing = entity_figure_lines(question, chunks, rows_of, search, entities)
        if lines:
            if missing and note is not None:
                note("no_match", f"No table row in the documents of {' or '.join(missing)} gives this figure; "
                     "only the other companies' figures are shown.")
            return None, lines, extra
    return None, *cell_lines(question, chunks, rows_of)
