"""Page ranking: the fused chunks grouped by the page they are on, so that the first results are different pages.

An analyst is shown a page; several chunks of one page (a statement cut at row boundaries, a long paragraph of
MD&A) would otherwise fill the top of the list and push the page the question needs to 6th place or lower. A page's
score aggregates the fused scores of its chunks with a geometric decay, best chunk first::

    page_score(p) = Σ_i decay^(i-1) · s_i      (s_1 ≥ s_2 ≥ … the fused scores of p's chunks)

``decay = 0`` is MaxP, the page scored by its best chunk; ``decay = 1`` is the plain sum, CombSUM (Dai & Callan,
"Deeper Text Understanding for IR with Contextual Neural Language Modeling", SIGIR 2019 for MaxP / SumP over
passages; Fox & Shaw, "Combination of Multiple Searches", TREC-2 1994 for CombSUM). Between them, a page with
several good chunks beats a page with one equally good chunk, but never by more than its extra chunks' share.

The chunk stays the cited unit: each page is represented by its best chunk, pages in page-score order; the other
chunks of the pages follow, in fused order, so a question about one short document still gets ``top_k`` chunks.
The caller says what a page is (:class:`~prism.retrieval.retriever.HybridRetriever` groups by document and page
and leaves a chunk without a page on its own).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

__all__ = ["PageRanked", "rank_pages"]


@dataclass(frozen=True)
class PageRanked:
    """One chunk in page order: its fused ``score``, its page's aggregated ``page_score`` (same units as the fused
    score: an RRF score, summed with decay) and the page's 1-based ``page_rank``; ``lead`` is True for the page's
    best chunk (the one that stands for the page in the first part of the list)."""

    chunk_id: str
    score: float
    page_score: float
    page_rank: int
    lead: bool


def rank_pages(
    candidates: Sequence[tuple[str, float]], page_of: Callable[[str], Hashable], decay: float, keep: int = 0
) -> list[PageRanked]:
    """Order fused chunks by page: the best chunk of every page, pages by aggregated score, then the other chunks.

    Args:
        candidates: ``(chunk_id, fused_score)`` best first (:func:`prism.retrieval.fusion.combine`), ids unique.
        page_of: the page key of a chunk id (e.g. ``(doc_id, page_start)``; ``(doc_id, None)`` for an unpaged
            document). Chunks with equal keys are on one page.
        decay: weight ratio of each further chunk of a page, in [0, 1] (see the module docstring).
        keep: a further chunk among the first ``keep`` candidates stays right after its page's best chunk (two of the
            three best chunks on one page say the page is the answer, and the second often continues the first: a
            table cut at a row boundary). 0: every page's further chunks wait.

    Returns:
        Every candidate once: first one chunk per page (with its kept chunks), by ``page_score`` descending (ties: the
        page whose best chunk came first in ``candidates``), then the remaining chunks in their order in
        ``candidates``. ``lead`` is True for the chunks of the first part. ``[]`` for no
        candidates.

    Raises:
        ValueError: ``decay`` is outside [0, 1] or not finite.
    """
    if not (math.isfinite(decay) and 0.0 <= decay <= 1.0):
        raise ValueError(f"page decay must be in [0, 1], got {decay!r}")
    pages: dict[Hashable, list[tuple[int, str, float]]] = {}
    for pos, (cid, score) in enumerate(candidates):
        pages.setdefault(page_of(cid), []).append((pos, cid, score))
    scored = []
    for members in pages.values():
        ordered = sorted(members, key=lambda m: (-m[2], m[0]))
        total = math.fsum(s * decay**i for i, (_, _, s) in enumerate(ordered))
        scored.append((total, ordered))
    scored.sort(key=lambda p: (-p[0], p[1][0][0]))
    leads: list[PageRanked] = []
    rest: list[tuple[int, PageRanked]] = []
    for page_rank, (total, ordered) in enumerate(scored, start=1):
        for i, (pos, cid, score) in enumerate(ordered):
            first = i == 0 or pos < keep
            item = PageRanked(cid, score, total, page_rank, first)
            if first:
                leads.append(item)
            else:
                rest.append((pos, item))
    return leads + [item for _, item in sorted(rest, key=lambda r: r[0])]
