"""The fused candidates made into a search's results: the preferred documents' chunks first (:func:`prefer`),
another entity's exhibits last and pages ranked (:func:`arrange`), then each candidate with its text, metadata and
every side's score and rank (:func:`hydrate`); the step of :meth:`prism.retrieval.retriever.HybridRetriever.search`
between fusion and the cross-encoder."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from prism.config import Settings
from prism.index.vector_store import VectorIndex
from prism.retrieval.fusion import Ranking
from prism.retrieval.pages import rank_pages
from prism.retrieval.scope import split_foreign_exhibits
from prism.retrieval.search_state import SearchRun
from prism.types import RetrievalMode, RetrievedChunk, locator_of

__all__ = ["arrange", "hydrate", "prefer", "ranked"]


def prefer(candidates: list[tuple[str, float]], preferred: frozenset[str]) -> list[tuple[str, float]]:
    """``candidates`` with the chunks of the ``preferred`` documents first, each group in its fused order (a
    stable partition; nothing dropped). Chunk ids start with their document id's first 16 characters."""
    if not preferred:
        return candidates
    prefixes = {d[:16] for d in preferred}
    return sorted(candidates, key=lambda c: c[0].split("-", 1)[0] not in prefixes)


def arrange(fused: list[tuple[str, float]], run: SearchRun, store: VectorIndex, settings: Settings,
            pages_in_scope: int = 0) -> list[tuple[str, float]]:
    """Another entity's exhibit set apart and last (:func:`prism.retrieval.scope.split_foreign_exhibits`), the best
    ``page_window`` of the other fused chunks in page order (:func:`prism.retrieval.pages.rank_pages`,
    ``page_decay``; when ``page_ranking`` is on and the scope's documents hold ``page_ranking_min_pages`` pages:
    the best chunk of each page first, by page score; score and rank kept for :func:`hydrate`; below the window,
    fused order).
    Metadata the dense side did not return is read from the store. A chunk without pages (a Word or HTML file, a
    BEIR abstract) is a unit of its own: a whole document is no page, and summing its chunks would favour long
    documents. A scope of a few short documents keeps fused order: there the top page's neighbours are context."""
    if not fused:
        return fused
    t = time.perf_counter()
    missing = [c for c, _ in fused if c not in run.texts]
    if missing:
        run.texts.update(store.get(missing))

    def meta(cid: str) -> dict[str, Any]:
        return run.texts[cid][1] if cid in run.texts else {}

    ours, theirs = split_foreign_exhibits(fused, lambda c: meta(c).get("exhibit_entity"),
                                          run.reading.facts.exhibits)
    if settings.page_ranking and pages_in_scope >= settings.page_ranking_min_pages:
        window = settings.page_window
        ranked = rank_pages(ours[:window], lambda c: (c.split("-", 1)[0], meta(c).get("page_start", c)),
                            settings.page_decay, settings.page_keep)
        run.pages = {p.chunk_id: (p.page_score, p.page_rank) for p in ranked}
        ours = [(p.chunk_id, p.score) for p in ranked] + ours[window:]
    run.timed("pages", t)
    return ours + theirs

def hydrate(spec: RetrievalMode, candidates: Sequence[tuple[str, float]], rankings: dict[str, Ranking],
            run: SearchRun, store: VectorIndex) -> list[RetrievedChunk]:
    """The candidates as :class:`~prism.types.RetrievedChunk` with their text, metadata and every side's score
    and 1-based rank (the fused score and rank only for a fused mode). Texts the dense side did not return are
    read from the store; a chunk purged since the snapshot is dropped."""
    missing = [c for c, _ in candidates if c not in run.texts]
    if missing:
        run.texts.update(store.get(missing))
    positions = {side: {cid: (score, i) for i, (cid, score) in enumerate(ranking, start=1)}
                 for side, ranking in rankings.items()}
    results: list[RetrievedChunk] = []
    for pos, (cid, score) in enumerate(candidates, start=1):
        if cid not in run.texts:
            continue
        text, meta = run.texts[cid]
        d = positions.get("dense", {}).get(cid)
        s = positions.get("bm25", {}).get(cid)
        st = positions.get("statement", {}).get(cid)
        se = positions.get("section", {}).get(cid)
        results.append(RetrievedChunk(
            chunk_id=cid, doc_id=str(meta.get("doc_id", "")), source=str(meta.get("source", "")), text=text,
            chunk_index=int(meta.get("chunk_index", 0)), page_start=meta.get("page_start"),
            page_end=meta.get("page_end"), locator=locator_of(meta),
            dense_score=d[0] if d else None, dense_rank=d[1] if d else None,
            bm25_score=s[0] if s else None, bm25_rank=s[1] if s else None,
            rrf_score=score if spec.fused else None, rrf_rank=pos if spec.fused else None, metadata=dict(meta),
            statement_score=st[0] if st else None, statement_rank=st[1] if st else None,
            section_score=se[0] if se else None, section_rank=se[1] if se else None,
            page_score=run.pages[cid][0] if cid in run.pages else None,
            page_rank=run.pages[cid][1] if cid in run.pages else None,
        ))
    return results



def ranked(results: list[RetrievedChunk]) -> list[RetrievedChunk]:
    """``results`` with ``rank`` set to 1..n in their order (the same list, returned)."""
    for i, r in enumerate(results, start=1):
        r.rank = i
    return results
