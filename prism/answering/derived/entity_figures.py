"""One figure per company for a question that names several ("Compare Adobe's and Netflix's net income in FY2015").

The extractive answer reads a figure from the single best-matching table row of the retrieved chunks
(:func:`prism.answering.derived.cells.quote_cells`); for a question naming two companies that row belongs to one of
them and the other company's figure is silently missing. Here each named entity (``SearchScope.entities``, as auto-scope
matched them to document profiles) gets its own focused search within its documents and its own row, and every line
names its company: ``"Netflix: Net income, 2015: $122,641 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS)"``.
A company whose documents give no matching row is reported, not left out silently.
"""

from __future__ import annotations

from collections.abc import Sequence

from prism.answering.briefing.topics import short_entity
from prism.answering.derived.cells import RowsOf, format_quote, quote_cells
from prism.answering.derived.inputs import Search
from prism.answering.seams import WorkspaceReader
from prism.retrieval.understanding import Understanding
from prism.types import RetrievedChunk, SearchScope


def entity_documents(scope: SearchScope | None, workspace: WorkspaceReader | None) -> list[tuple[str, list[str]]]:
    """``[(entity, its documents' file names)]`` for a search scoped to two or more entities, in the order the scope
    names them; ``[]`` for fewer (then one best row answers), or without a workspace.

    Args:
        scope: the scope the search ran in (``SearchResult.scope``).
        workspace: the workspace (``documents()`` → records with ``source`` and ``effective_profile()``).
    """
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


def entity_figure_lines(question: str | Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None,
                        search: Search | None, entities: Sequence[tuple[str, Sequence[str]]]
                        ) -> tuple[list[tuple[str, int]], list[RetrievedChunk], list[str]]:
    """The figure lines of each entity, each naming its company, and the chunks they cite.

    Args:
        question: the (standalone) question (or its :class:`~prism.retrieval.understanding.Understanding`).
        chunks: the retrieved chunks, best first (chunk ``i`` is block ``i + 1``).
        rows_of: the workspace's ``read_chunks(doc_id)``.
        search: a focused search within given documents (:func:`prism.answering.derived.answer.sub_search`), or
            ``None`` (then only the retrieved chunks are read).
        entities: ``[(entity, its documents)]`` (:func:`entity_documents`).

    Returns:
        ``(lines, extra, missing)``: lines ``[(text, block number)]`` in entity order; the chunks to append to
        ``chunks`` as blocks ``len(chunks) + 1`` … so that every line cites the chunk holding its figure; and the
        entities no row was found for.
    """
    lines: list[tuple[str, int]] = []
    extra: list[RetrievedChunk] = []
    missing: list[str] = []
    text = question.text if isinstance(question, Understanding) else question
    for name, sources in entities:
        own = [c for c in chunks if c.source in sources]
        seen = {c.chunk_id for c in own}
        found = [c for c in (search(text, sources) if search is not None else []) if c.chunk_id not in seen]
        pool = own + found
        quotes = quote_cells(question, pool, rows_of)
        if not quotes:
            missing.append(name)
            continue
        for quote in quotes:
            chunk = quote.chunk or pool[quote.n - 1]
            ids = [c.chunk_id for c in (*chunks, *extra)]
            if chunk.chunk_id not in ids:
                extra.append(chunk)
                ids.append(chunk.chunk_id)
            lines.append((f"{short_entity(name)}: {format_quote(quote)}", ids.index(chunk.chunk_id) + 1))
    return lines, extra, missing
