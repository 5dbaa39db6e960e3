"""One answer per company for a question whose scope names several ("Compare Adobe's and Netflix's net income in
FY2015"): the best program over one company's chunks answers for that company alone.

For each entity the scope names (:func:`entity_documents`), in its order, the pool is the retrieved chunks of its
documents plus a focused search in them; the program choice runs over the pool (:func:`~.answer.choose`) and its
figure step (:func:`~.step.figure_lines`, a statement metric first when the question names one). The companies'
answers join into one: each line names its company ("Acme Widgets: Net income, 2023: $64,875 thousand …"); a
computed figure's heading states every company's result; block numbers count the retrieved chunks, then every chunk
an answer added. A company whose documents give no figure is reported, not left out silently. When the question
names one line item or none besides the companies ("Compare Acme's and Bolt's net income in 2023"), the companies
are what it compares: a change between two of one company's rows is not asked (:func:`compares_companies`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from prism.answering.briefing.topics import short_entity
from prism.answering.programs.answer import Choice
from prism.answering.programs.step import figure_lines
from prism.answering.programs.tables import RowsOf
from prism.answering.seams import WorkspaceReader
from prism.index.tokenizer import tokenize
from prism.types import Derived, Heading, RetrievedChunk, SearchScope
from prism.types.reading import Reading

__all__ = ["EntityFigures", "compares_companies", "entity_documents", "entity_figures", "join_figures",
           "missing_note"]

ChooseOver = Callable[[Sequence[RetrievedChunk]], Choice]
"""The program choice over a pool of chunks (the engine's, with its reader, ranker and table search)."""
MetricOver = Callable[[Sequence[RetrievedChunk]], Derived | None]
"""The statement metric over a pool of chunks, or ``None`` when the question names none."""
Search = Callable[[Sequence[str]], Sequence[RetrievedChunk]]
"""The focused search for the question within the given documents (file names)."""


def entity_documents(scope: SearchScope | None, workspace: WorkspaceReader | None) -> list[tuple[str, list[str]]]:
    """``[(entity, its documents' file names)]`` for a search scoped to two or more entities, in the order the scope
    names them; ``[]`` for fewer, or without a workspace."""
    if scope is None or len(scope.entities) < 2 or workspace is None:
        return []
    allowed = set(scope.documents)
    records = list(workspace.documents())
    out = []
    for name in scope.entities:
        sources = [r.source for r in records if (p := r.effective_profile()) is not None and p.entity == name
                   and (not allowed or r.source in allowed)]
        if sources:
            out.append((name, sources))
    return out if len(out) >= 2 else []


def compares_companies(reading: Reading, names: Sequence[str]) -> bool:
    """Whether the companies ``names`` are all the question compares: it names one line item or none, both among
    its mentions (:attr:`~prism.types.reading.Reading.mentions`) that name no company and among the statement line
    items it names (:attr:`~prism.types.reading.Reading.items`: "operating income and net income" is one mention,
    two items)."""
    company = set().union(*(tokenize(n) for n in names)) if names else set()
    return max(len(reading.items), sum(1 for m in reading.mentions if not set(m.tokens) <= company)) <= 1


_BETWEEN_ROWS = frozenset({"change", "percent_change"})
"""The operations that compare two figures, which across two of one company's rows compare line items."""


def _own_figure(choice: Choice) -> Choice:
    """``choice`` without its changes between two rows (one company's answer to a question comparing companies)."""
    ranked = [c for c in choice.ranked if c.program.operation not in _BETWEEN_ROWS
              or len({o.series for o in c.program.operands}) == 1]
    return replace(choice, ranked=ranked)


def missing_note(missing: Sequence[str]) -> str:
    """The ``no_match`` note for the companies no figure was found or computed for."""
    return (f"No table row in the documents of {' or '.join(missing)} gives this figure; only the other companies' "
            "figures are shown.")


@dataclass
class EntityFigures:
    """The companies' answers joined: ``derived`` (computed figures) or ``lines`` (looked-up figures), the chunks to
    append to the retrieved ones, and the companies none was found for."""

    derived: Derived | None
    lines: list[tuple[str, int]]
    extra: list[RetrievedChunk]
    missing: list[str]


def _renumber(text: str, mapping: dict[int, int]) -> str:
    """A work line's markers ``[k]`` (first-use numbers among its answer's lines) as global block numbers."""
    out = text
    for k in sorted(mapping, reverse=True):
        out = out.replace(f"[{k}]", f"[@{mapping[k]}]")
    return out.replace("[@", "[")


def join_figures(parts: Sequence[tuple[str, Derived | None, list[tuple[str, int]], list[RetrievedChunk]]],
                 chunks: Sequence[RetrievedChunk], *, renumber: bool = True
                 ) -> tuple[Derived | None, list[tuple[str, int]], list[RetrievedChunk]]:
    """The companies' figures as one answer (module docstring).

    Args:
        parts: per company, ``(entity, its computed figure or None, its lines, its pool)``: the lines as
            ``(text, block)``, block ``k`` being ``pool[k - 1]`` (the pool ends with the chunks its answer added).
        chunks: the retrieved chunks (global block ``n`` = position + 1, then the chunks returned to append).
        renumber: ``True`` when each company's inline markers count its blocks by first use (an extractive answer):
            the joined markers and inputs' citations count the answer's blocks by first use; ``False`` when they are
            pool block numbers (an LLM's context): they become global block numbers.

    Returns:
        ``(derived, lines, extra)``: the joined computed figure (``None`` when no company computed one; its
        calculation is the first company's, its metric named after it), the lines with block numbers, the chunks to
        append to ``chunks``.
    """
    ids = [c.chunk_id for c in chunks]
    extra: list[RetrievedChunk] = []
    lines: list[tuple[str, int]] = []
    results: list[str] = []
    cites: list[dict[int, int]] = []
    for name, derived, own_lines, pool in parts:
        for chunk in pool:
            if chunk.chunk_id not in ids:
                ids.append(chunk.chunk_id)
                extra.append(chunk)
        to_global = {k: ids.index(c.chunk_id) + 1 for k, c in enumerate(pool, start=1)}
        if renumber:
            order = list(dict.fromkeys(to_global[n] for _, n in own_lines))
            markers = {i: n for i, n in enumerate(order, start=1)}
        else:
            markers = to_global
        cites.append(markers)
        short = short_entity(name)
        lines += [(f"{short}: {_renumber(text, markers)}", to_global[n]) for text, n in own_lines]
        if derived is not None:
            results.append(f"{short}: {derived.heading.result}" + (f" {derived.heading.aside}"
                                                                    if derived.heading.aside else ""))
    numbers = {n: n for _, n in lines}
    if renumber:
        numbers = {n: i for i, n in enumerate(dict.fromkeys(n for _, n in lines), start=1)}
        lines = [(_renumber(text, numbers), n) for text, n in lines]  # inline markers as the answer numbers its blocks
    first_at = next((i for i, (_, d, _, _) in enumerate(parts) if d is not None), None)
    if first_at is None:
        return None, lines, extra
    first = parts[first_at][1]
    assert first is not None
    heading = Heading(first.heading.subject, "; ".join(results), lead=first.heading.lead)
    values = tuple(d.raw for _, d, _, _ in parts if d is not None and d.raw is not None)
    per_period = values + tuple(v for _, d, _, _ in parts if d is not None for v in d.per_period)
    name = short_entity(parts[first_at][0])
    cite = cites[first_at]
    inputs = tuple(replace(i, citation=numbers.get(cite[i.citation], cite[i.citation])) if i.citation in cite else i
                   for i in first.calculation.inputs)
    calc = replace(first.calculation, metric=f"{name}: {first.calculation.metric}", inputs=inputs)
    joined = Derived(heading, lines, extra, calc, per_period, first.raw, first.kind,
                     tuple(p for _, d, _, _ in parts if d is not None for p in d.percents))
    return joined, lines, extra


def entity_figures(reading: Reading, chunks: Sequence[RetrievedChunk], entities: Sequence[tuple[str, Sequence[str]]],
                   rows_of: RowsOf | None, choose_over: ChooseOver, search: Search | None,
                   metric_over: MetricOver | None = None) -> EntityFigures | None:
    """Each company's answer, joined (module docstring); ``None`` when no company's documents give a figure."""
    parts = []
    missing: list[str] = []
    between_companies = compares_companies(reading, [name for name, _ in entities])
    for name, sources in entities:
        own = [c for c in chunks if c.source in sources]
        seen = {c.chunk_id for c in own}
        pool = own + [c for c in (search(sources) if search is not None else []) if c.chunk_id not in seen]
        if not pool:
            missing.append(name)
            continue
        metric = metric_over(pool) if metric_over is not None else None
        choice = choose_over(pool)
        derived, lines, extra = figure_lines(reading, _own_figure(choice) if between_companies else choice, rows_of,
                                             metric)
        if not lines or (derived is not None and derived.raw is None):
            missing.append(name)
            continue
        parts.append((name, derived, lines, [*pool, *extra]))
    if not parts:
        return None
    derived, lines, extra = join_figures(parts, chunks)
    return EntityFigures(derived, lines, extra, missing)
