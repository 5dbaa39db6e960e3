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

from prism.answering.briefing.topics import short_entity
from prism.answering.derived.answer import derived_answer, sub_search
from prism.answering.derived.calc import Plan
from prism.answering.derived.captions import asks_table_subject, caption_lines
from prism.answering.derived.cells import RowsOf, cell_lines
from prism.answering.derived.entity_figures import entity_documents, entity_figure_lines
from prism.answering.derived.formulas import plan_of
from prism.answering.derived.inputs import Search
from prism.answering.derived.listing import listing_lines
from prism.answering.derived.operations import operation_answer, read_operation
from prism.answering.derived.pairs import pair_answer, read_pair
from prism.answering.derived.superlatives import superlative_lines
from prism.answering.derived.which import which_answer
from prism.answering.derived.years import year_lines
from prism.answering.evidence import asks_description, asks_reason
from prism.answering.seams import Retriever, WorkspaceReader
from prism.retrieval.understanding import Understanding
from prism.types import Derived, NoteKind, RetrievedChunk, SearchScope

__all__ = ["OperationStep", "block_numbered", "computed_figure", "entity_computed", "figure_lines", "missing_note",
           "plain_change", "scoped_figure"]

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

    In order: a cause or description question (:func:`~prism.answering.evidence.asks_reason`,
    :func:`~prism.answering.evidence.asks_description`) gets none; a period comparison
    (:func:`~prism.answering.derived.which.which_answer`: "In which year was X highest?") the periods it picks; two
    items of one table (:func:`~prism.answering.derived.pairs.pair_answer`: ratio, share, difference); a
    plain change
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
    if asks_reason(question) or asks_description(question) or rows_of is None:
        return None
    compared = which_answer(question, chunks, rows_of)  # "In which year was X highest?": periods, not a figure
    if operation is None:  # "the ratio of A to B": two items of one table (an LLM's plan reads them itself)
        compared = compared or pair_answer(question, chunks, rows_of)
    if compared is not None:
        return compared if renumber else block_numbered(compared)
    step = operation or operation_answer

    def row_operation() -> Derived | None:
        computed = step(question, chunks, rows_of)
        return computed if computed is None or renumber else block_numbered(computed)

    first = plain_change(question)
    if first and (computed := row_operation()) is not None:
        return computed
    derived = derived_answer(question, chunks, rows_of, search, choose=choose, renumber=renumber)
    if not first and (derived is None or derived.raw is None):  # no metric, or one whose inputs no table holds
        derived = row_operation() or derived
    if derived is None and operation is not None and (pair := pair_answer(question, chunks, rows_of)) is not None:
        return pair if renumber else block_numbered(pair)  # the LLM's plan gave none: two items read from the question
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


def _renumber_marks(text: str, mapping: Callable[[int], int]) -> str:
    """``text`` with the markers at its end (``"… = 700 [1] [2]"``) mapped by ``mapping``."""
    return _TRAILING_MARKS.sub(lambda m: re.sub(r"\[(\d+)\]", lambda k: f"[{mapping(int(k.group(1)))}]", m.group(0)),
                               text)


def entity_computed(question: Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None,
                    search: Search | None, entities: Sequence[tuple[str, Sequence[str]]], *,
                    choose: Callable[[Plan, str | None], Plan] | None = None, operation: OperationStep | None = None,
                    renumber: bool = True) -> tuple[Derived | None, list[str]]:
    """One computed figure per company, through :func:`computed_figure` over each company's own chunks.

    Each entity's pool is its retrieved chunks plus a focused search within its documents (as
    :func:`~prism.answering.derived.entity_figures.entity_figure_lines` reads a lookup). The figures are joined into
    one :class:`~prism.types.Derived`: the heading states each company's result ("Acme Widgets: change in Net income,
    2022 to 2023 = $12,574 thousand; Bolt Gears: …"), every line names its company, block numbers count ``chunks``
    then the chunks added (``extra``); the number check accepts each company's result (``raw`` is the first's,
    ``per_period`` holds the others' results and every period's value); :attr:`Derived.calculation` is the first
    company's, its metric prefixed with the company.

    Returns:
        ``(derived, missing)``: ``None`` when no company's documents give a computed figure (then the lookups of
        :mod:`~prism.answering.derived.entity_figures` answer), and the companies none was computed for.
    """
    parts: list[tuple[str, Derived, list[RetrievedChunk]]] = []
    missing: list[str] = []
    for name, sources in entities:
        own = [c for c in chunks if c.source in sources]
        seen = {c.chunk_id for c in own}
        pool = own + [c for c in (search(question.text, sources) if search is not None else [])
                      if c.chunk_id not in seen]
        derived = computed_figure(question, pool, rows_of, search, choose=choose, operation=operation,
                                  renumber=False) if pool else None
        if derived is None or derived.raw is None:
            missing.append(name)
        else:
            parts.append((name, derived, pool))
    return (_joined(parts, chunks, renumber) if parts else None), missing


def _joined(parts: Sequence[tuple[str, Derived, list[RetrievedChunk]]], chunks: Sequence[RetrievedChunk],
            renumber: bool) -> Derived:
    """The companies' figures as one :class:`~prism.types.Derived` (see :func:`entity_computed`)."""
    ids = [c.chunk_id for c in chunks]
    extra: list[RetrievedChunk] = []
    lines: list[tuple[str, int]] = []
    facts: list[str] = []
    for name, derived, pool in parts:
        local = [*pool, *derived.extra]
        for chunk in local:
            if chunk.chunk_id not in ids:
                ids.append(chunk.chunk_id)
                extra.append(chunk)
        to_global = {k: ids.index(c.chunk_id) + 1 for k, c in enumerate(local, start=1)}
        short = short_entity(name)
        lines += [(f"{short}: {_renumber_marks(text, lambda k: to_global.get(k, k))}", to_global[n])  # noqa: B023 (used at once)
                  for text, n in derived.lines]
        facts.append(f"{short}: {derived.heading.split(': ', 1)[-1]}")
    name, first, pool = parts[0]
    local = [*pool, *first.extra]
    inputs = tuple(replace(i, citation=ids.index(local[i.citation - 1].chunk_id) + 1)
                   for i in first.calculation.inputs)
    calc = replace(first.calculation, metric=f"{short_entity(name)}: {first.calculation.metric}", inputs=inputs)
    others = tuple(v for _, d, _ in parts[1:] for v in (d.raw,) if v is not None)
    joined = Derived(f"{first.heading.split(': ', 1)[0]}: {'; '.join(facts)}", lines, extra, calc,
                     others + tuple(v for _, d, _ in parts for v in d.per_period), first.raw, first.kind,
                     tuple(p for _, d, _ in parts for p in d.percents))
    if not renumber:
        return joined
    order = list(dict.fromkeys(n for _, n in lines))  # the extractive answer numbers blocks by first use
    first_use = {n: i for i, n in enumerate(order, start=1)}
    return replace(joined, lines=[(_renumber_marks(t, lambda k: first_use.get(k, k)), n) for t, n in lines],
                   calculation=replace(calc, inputs=tuple(replace(i, citation=first_use[i.citation]) for i in inputs)))


def scoped_figure(question: str | Understanding, chunks: Sequence[RetrievedChunk], workspace: WorkspaceReader | None,
                  search: Search | None, scope: SearchScope | None, *,
                  choose: Callable[[Plan, str | None], Plan] | None = None, operation: OperationStep | None = None,
                  renumber: bool = True) -> tuple[Derived | None, list[str]]:
    """The computed figure of a question in its search scope, the one entry point of the extractive answer
    (:func:`figure_lines`) and the LLM's (:func:`prism.answering.derived.llm.llm_derived`): one per company for a
    scope naming two or more (:func:`entity_computed`), else :func:`computed_figure` over the chunks. When no
    retrieved table gives the row operation or the two items asked (the top passages are a call's sentences about
    the quarter; or auto-scope kept the file whose name carries the period, "Q2 FY25"), the tables among the
    sub-retrieval's results for the question without its periods, over the whole workspace, are tried once more
    (``search`` with no sources; an analyst's own document filter is never widened) and added as sources.

    A figure read from a table whose number convention is ambiguous is not computed
    (:func:`reads_ambiguous_numbers`): the cells are quoted with the flag instead.

    Returns:
        ``(derived, missing)``: the figure (``None``: none computed) and the companies none was computed for.
    """
    question = Understanding.of(question)
    rows_of = workspace.read_chunks if workspace is not None else None
    if asks_reason(question) or asks_description(question) or rows_of is None:
        return None, []
    entities = entity_documents(scope, workspace)
    if entities and plan_of(question) is None and read_operation(question) is None:
        return None, []  # a lookup per company (entity_figures), nothing to compute
    if entities:
        return entity_computed(question, chunks, rows_of, search, entities, choose=choose, operation=operation,
                               renumber=renumber)
    derived = computed_figure(question, chunks, rows_of, search, choose=choose, operation=operation,
                              renumber=renumber)
    if derived is None and search is not None and (scope is None or scope.auto or not scope.documents) and (
            read_operation(question) is not None or read_pair(question) is not None):
        bare = question.text
        for period in question.periods:  # the row's words only: the periods rank a file naming them first
            bare = bare.replace(period.text, " ")
        more = [c for c in search(bare, ()) if c.metadata.get("table_id")
                and c.chunk_id not in {k.chunk_id for k in chunks}]
        found = computed_figure(question, [*chunks, *more], rows_of, search, choose=choose, operation=operation,
                                renumber=renumber) if more else None
        if found is not None and found.raw is not None:  # the rows are in a table of a document auto-scope left out
            derived = replace(found, extra=[*more, *found.extra])
    if derived is not None and reads_ambiguous_numbers(derived, chunks):
        return None, []  # never computed from a figure that may be misread: its cells are quoted, flagged
    return derived, []


def reads_ambiguous_numbers(derived: Derived, chunks: Sequence[RetrievedChunk]) -> bool:
    """Whether a figure the work cites comes from a table whose number convention its cells did not settle
    (``table_numbers`` ``"ambiguous"``, decided at ingestion: "1.246" may be 1,246 or 1.246)."""
    blocks = [*chunks, *derived.extra]
    cited = [blocks[n - 1] for _, n in derived.lines if 0 < n <= len(blocks)]
    return any(c.metadata.get("table_numbers") == "ambiguous" for c in cited)


def missing_note(missing: Sequence[str]) -> str:
    """The ``no_match`` note for the companies a figure was not found or computed for."""
    return (f"No table row in the documents of {' or '.join(missing)} gives this figure; only the other companies' "
            "figures are shown.")


def figure_lines(question: str | Understanding, chunks: Sequence[RetrievedChunk], workspace: WorkspaceReader | None,
                 retriever: Retriever | None, *,
                 scope: SearchScope | None = None, note: Callable[[NoteKind, str], None] | None = None
                 ) -> tuple[Derived | None, list[tuple[str, int]], list[RetrievedChunk]]:
    """The extractive answer's figure lines: ``(derived, lines, chunks to add)`` for a computed figure
    (:func:`scoped_figure`, the one decision the LLM's answer uses too, one figure per company for a ``scope``
    naming two or more; sub-retrieval through ``retriever``); else, for a scope naming two or more companies, one
    looked-up figure per company (:mod:`prism.answering.derived.entity_figures`); else, for a "which year(s)"
    question the comparison in code did not take, ``(None, year_lines(...), [])``
    (:mod:`prism.answering.derived.years`); else, for a "which X has the highest Y" question, the top row
    (:mod:`prism.answering.derived.superlatives`); else ``(None, *cell_lines(...))`` (a figure read from one table
    cell; ``[]`` when none). ``note`` is told of a company none was found for.
    A question that asks what a table shows gets the sentence introducing it (:mod:`~prism.answering.derived.
    captions`); one that asks for the items a table lists, the rows (:mod:`~prism.answering.derived.listing`).
    A question that asks for a cause or a description (:func:`~prism.answering.evidence.asks_reason`,
    :func:`~prism.answering.evidence.asks_description`) gets ``(None, [], [])``: its answer is a sentence.
    ``workspace`` gives ``read_chunks(doc_id)`` and ``documents()``; ``None`` reads no tables."""
    rows_of = workspace.read_chunks if workspace is not None else None
    question = Understanding.of(question)
    if asks_table_subject(question):
        return None, *caption_lines(question, chunks, rows_of)
    listed, extra = listing_lines(question, chunks, rows_of)
    if listed:
        return None, listed, extra
    if asks_reason(question) or asks_description(question):  # a cause or a description is a sentence, not a cell
        return None, [], []
    search = sub_search(retriever, question) if retriever is not None else None
    derived, missing = scoped_figure(question, chunks, workspace, search, scope)
    if derived is not None:
        if missing and note is not None:
            note("no_match", missing_note(missing))
        return derived, derived.lines, derived.extra
    entities = entity_documents(scope, workspace)
    if entities:
        lines, extra, missing = entity_figure_lines(question, chunks, rows_of, search, entities)
        if lines:
            if missing and note is not None:
                note("no_match", missing_note(missing))
            return None, lines, extra
    years = year_lines(question, chunks, rows_of)
    if years:
        return None, years, []
    ranked, extra = superlative_lines(question, chunks, rows_of)
    if ranked:
        return None, ranked, extra
    return None, *cell_lines(question, chunks, rows_of)
