"""The figure step of an answer: what the program choice gives the extractive answer, the LLM's context and the
Compare grid alike.

:func:`figure_lines` returns ``(derived, lines, extra)``: a computed figure (a program other than a lookup) as a
:class:`~prism.types.Derived` with its heading, quoted cells and work; a looked-up figure as one quoted line
("Net income, 2015: $122,641 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS)"); for a question about what a table
shows, the sentence introducing it (:mod:`~prism.answering.programs.captions`); ``(None, [], [])`` when no program
fits the question (the sentences answer).
"""

from __future__ import annotations

from collections.abc import Sequence

from prism.answering.programs.answer import Choice, program_answer
from prism.answering.programs.captions import caption_lines
from prism.answering.programs.ranker import FEATURES
from prism.answering.programs.tables import RowsOf
from prism.answering.programs.writing import blocks_of, quote
from prism.index.tokenizer import tokenize
from prism.types import Derived, RetrievedChunk
from prism.types.reading import Reading
from prism.vocabulary.number_formats import NOT_COMPUTED_NOTE

__all__ = ["figure_lines"]


_LABEL_PHRASE = FEATURES.index("label_phrase")
_LEAST = FEATURES.index("label_least")


def metric_first(metric: Derived | None, choice: Choice) -> bool:
    """Whether a computed statement metric answers before the programs: unless a table row names the metric itself
    whole (a "Gross margin" row is read, not recomputed from revenue and cost). A row naming one of its inputs
    ("Depreciation and amortization", which an EBITDA question spells out) does not stand for the metric."""
    if metric is None or metric.raw is None:
        return False
    best = choice.best
    if best is None or best.program.operation != "lookup" or not best.program.operands:
        return True
    names_metric = set(tokenize(metric.calculation.metric)) <= set(tokenize(best.program.operands[0].label))
    return not (names_metric and best.features[_LABEL_PHRASE] >= 1.0 and best.features[_LEAST] >= 1.0)


def figure_lines(reading: Reading, choice: Choice, rows_of: RowsOf | None, metric: Derived | None = None
                 ) -> tuple[Derived | None, list[tuple[str, int]], list[RetrievedChunk]]:
    """``(derived, lines, extra)`` for the question (module docstring); ``choice`` ranks the programs over the
    chunks the answer cites; ``metric`` is the statement metric the question names, worked out over the retrieved
    chunks (:func:`prism.answering.metrics.answer.metric_answer`), or ``None``: it answers first when computed
    (:func:`metric_first`), and says what is missing when no program answers either. ``extra`` is what to append to
    the retrieved chunks, in block order: the tables the choice added, then the other chunks of a table that hold a
    figure read."""
    chunks: Sequence[RetrievedChunk] = choice.chunks
    if metric is not None and metric_first(metric, choice):
        return metric, metric.lines, metric.extra
    if reading.intent == "table_subject":
        retrieved = chunks[:len(chunks) - len(choice.added)]
        lines, extra = caption_lines(retrieved, rows_of)
        return None, lines, extra
    derived = program_answer(reading, choice)
    best = choice.best
    if derived is None or best is None:
        if metric is not None:
            return metric, metric.lines, metric.extra
        lines, extra = unsettled_lines(reading, choice)
        return None, lines, [*choice.added, *extra] if lines else []
    if best.program.operation == "lookup":
        blocks, extra = blocks_of(best.program.operands, chunks)
        lines = [(quote(o), n) for o, n in zip(best.program.operands, blocks, strict=True)]
        if derived.understood:
            lines.append((derived.understood, blocks[0]))
        return None, lines, [*choice.added, *extra]
    return derived, derived.lines, [*choice.added, *derived.extra]


_COMPUTED_ELSEWHERE = frozenset({"lookup", "list", "text"})


def unsettled_lines(reading: Reading, choice: Choice) -> tuple[list[tuple[str, int]], list[RetrievedChunk]]:
    """For a question asking for a computation over figures whose table's number convention is unsettled ("1.246":
    1,246 or 1.246; :data:`~prism.vocabulary.number_formats.AMBIGUOUS_NOTE`), which no program computes from
    (:func:`~prism.answering.programs.ranker.candidates`): the figures of the row the question names, in time order,
    each quoted with the note, then :data:`~prism.vocabulary.number_formats.NOT_COMPUTED_NOTE`. ``([], [])`` for any
    other question, or when the best candidate's row shares no word with the question.

    Returns:
        ``(lines, chunks to append)``: lines of ``(text, block number)``.
    """
    best = choice.best
    if (best is None or reading.operation in _COMPUTED_ELSEWHERE or best.program.operation != "lookup"
            or not best.program.operands[0].ambiguous or best.features[_LEAST] <= 0.0):
        return [], []
    series = best.program.operands[0].series
    seen: set[tuple[str, int, int]] = set()
    figures = []
    for candidate in choice.ranked:
        operand = candidate.program.operands[0]
        key = (operand.table, operand.row, operand.col)
        if candidate.program.operation == "lookup" and operand.series == series and key not in seen:
            seen.add(key)
            figures.append(operand)
    figures.sort(key=lambda o: o.when)
    blocks, extra = blocks_of(figures, choice.chunks)
    lines = [(quote(o), n) for o, n in zip(figures, blocks, strict=True)]
    return [*lines, (NOT_COMPUTED_NOTE, blocks[0])], extra
