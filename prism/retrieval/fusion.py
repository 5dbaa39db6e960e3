"""Rank fusion, and the one home of the retrieval vocabulary: the registry of retrieval modes (:data:`MODES`) and
of fusion methods (:data:`FUSION_METHODS`).

:func:`weighted_rrf` (across retrieval sides) and :func:`pool_best_rank` (within one side) are pure: they never
mutate their inputs and return new lists. Identity is the chunk id string; text is never compared. Ranks are
1-based.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping, Sequence

from prism.config import Settings
from prism.errors import PrismError
from prism.types import RetrievalMode

logger = logging.getLogger(__name__)

__all__ = ["FUSION_METHODS", "MODES", "combine", "fusion_method", "pool_best_rank", "retrieval_mode", "weighted_rrf"]


def weighted_rrf(
    rankings: Mapping[str, Sequence[str]], weights: Mapping[str, float], k: int = 60
) -> list[tuple[str, float]]:
    """Fuse ranked id lists with weighted Reciprocal Rank Fusion.

    ``rrf_score(d) = Σ_lists w_list / (k + rank_list(d))`` over the lists that contain ``d``, with ``rank`` 1-based
    (Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion outperforms Condorcet and individual Rank Learning
    Methods", SIGIR 2009; the per-list weight generalises their unweighted sum). The sum is computed with
    :func:`math.fsum`, so it does not depend on the order of the lists and equal rank patterns give exactly equal
    scores. Example: ranked 1st by dense (w = 1) and 3rd by BM25 (w = 0.3) with k = 60 scores
    ``1/61 + 0.3/63``.

    Args:
        rankings: list name (e.g. ``"dense"``, ``"bm25"``) → chunk ids, best first. An empty list contributes
            nothing.
        weights: list name → weight ≥ 0, one for every name in ``rankings`` (extra names are ignored). A list
            with weight 0 is switched off: it adds no ids and no score.
        k: the RRF constant (``Settings.rrf_k``), ≥ 1; larger k flattens the difference between ranks.

    Returns:
        ``(chunk_id, rrf_score)`` for every id in a list with weight > 0, sorted by score descending, then by the
        id's best (smallest) rank in any such list, then by id ascending. Scores are in
        ``(0, Σ w / (k + 1)]``. ``[]`` when no list has ids.

    Raises:
        TypeError: a list is a bare ``str`` or holds a non-str id.
        ValueError: ``k < 1``; a weight is missing, negative or not finite; a list names the same id twice (pool
            several rankings of one retriever with :func:`pool_best_rank` first).
    """
    if isinstance(k, bool) or not isinstance(k, int | float) or not k >= 1:
        raise ValueError(f"RRF constant k must be >= 1, got {k!r}")
    contributions: dict[str, list[float]] = {}
    best_rank: dict[str, int] = {}
    for name, ids in rankings.items():
        if name not in weights:
            raise ValueError(f"no RRF weight given for the {name!r} ranking")
        weight = weights[name]
        if isinstance(weight, bool) or not isinstance(weight, int | float) or not math.isfinite(weight) or weight < 0:
            raise ValueError(f"RRF weight of {name!r} must be a finite number >= 0, got {weight!r}")
        if isinstance(ids, str | bytes):
            raise TypeError(f"the {name!r} ranking must be a sequence of chunk ids, not a single string")
        seen: set[str] = set()
        for rank, chunk_id in enumerate(ids, start=1):
            if not isinstance(chunk_id, str):
                raise TypeError(f"the {name!r} ranking holds a {type(chunk_id).__name__}, expected str chunk ids")
            if chunk_id in seen:
                raise ValueError(f"the {name!r} ranking names chunk {chunk_id!r} twice")
            seen.add(chunk_id)
            if weight == 0:
                continue
            contributions.setdefault(chunk_id, []).append(weight / (k + rank))
            best_rank[chunk_id] = min(rank, best_rank.get(chunk_id, rank))
    fused = [(chunk_id, math.fsum(parts)) for chunk_id, parts in contributions.items()]
    fused.sort(key=lambda item: (-item[1], best_rank[item[0]], item[0]))
    logger.debug("RRF: fused %d lists into %d chunks", len(rankings), len(fused))
    return fused


def pool_best_rank(rankings: Sequence[Sequence[tuple[str, float]]]) -> list[tuple[str, float]]:
    """Pool several rankings of ONE retriever (e.g. one per query phrasing) into one ranking by best rank.

    Each id keeps its best (smallest) 1-based rank over all rankings and the score it had at that rank; when it
    has that same best rank in several rankings, the highest of those scores is kept. A repeated id inside one
    ranking keeps its first (better) position.

    Args:
        rankings: rankings of ``(chunk_id, score)`` pairs, each best first. Scores are the retriever's own
            (e.g. ``bm25_score``, ``dense_score``) and are only used to order ids of equal best rank.

    Returns:
        One ``(chunk_id, score)`` per distinct id, ordered by best rank ascending, then score descending, then
        first appearance (reading ``rankings[0]`` top to bottom, then ``rankings[1]``, ...). ``[]`` for no
        rankings or only empty ones. Example: ``[[("a", 9.0), ("b", 5.0)], [("b", 7.0), ("c", 6.0)]]`` →
        ``[("a", 9.0), ("b", 7.0), ("c", 6.0)]``.

    Raises:
        TypeError: a ranking is a bare ``str``, or an item is not a ``(str, number)`` pair.
        ValueError: a score is NaN.
    """
    best: dict[str, tuple[int, float]] = {}
    first_seen: dict[str, int] = {}
    for ranking in rankings:
        if isinstance(ranking, str | bytes):
            raise TypeError("each ranking must be a sequence of (chunk_id, score) pairs, not a string")
        for rank, item in enumerate(ranking, start=1):
            if not isinstance(item, tuple | list) or len(item) != 2 or not isinstance(item[0], str):
                raise TypeError(f"ranking items must be (chunk_id: str, score: float) pairs, got {item!r}")
            chunk_id, score = item
            if isinstance(score, bool) or not isinstance(score, int | float):
                raise TypeError(f"the score of chunk {chunk_id!r} must be a number, got {score!r}")
            if math.isnan(score):
                raise ValueError(f"the score of chunk {chunk_id!r} is NaN")
            first_seen.setdefault(chunk_id, len(first_seen))
            held = best.get(chunk_id)
            if held is None or rank < held[0] or (rank == held[0] and score > held[1]):
                best[chunk_id] = (rank, float(score))
    order = sorted(best, key=lambda chunk_id: (best[chunk_id][0], -best[chunk_id][1], first_seen[chunk_id]))
    return [(chunk_id, best[chunk_id][1]) for chunk_id in order]


# --- the registries -------------------------------------------------------------------------------------------------
Ranking = Sequence[tuple[str, float]]
"""``(chunk_id, score)`` pairs, best first."""

FusionMethod = Callable[[Mapping[str, Ranking], Settings], list[tuple[str, float]]]
"""``fuse(rankings, settings) -> [(chunk_id, fused score), ...]`` best first: combines the rankings of several
retrieval sides (``{"dense": [...], "bm25": [...]}``) into one, with its knobs read from the settings."""


EXTRA_RANKINGS = frozenset({"statement", "section"})
"""Rankings a fused mode adds to its sides' when the retriever made them (the statement and section rankings)."""


def side_weights(settings: Settings) -> dict[str, float]:
    """The fusion weight of each ranking: ``{"dense": dense_weight, "bm25": bm25_weight, "statement":
    statement_weight, "section": section_weight}``."""
    return {"dense": settings.dense_weight, "bm25": settings.bm25_weight, "statement": settings.statement_weight,
            "section": settings.section_weight}


def rrf(rankings: Mapping[str, Ranking], settings: Settings) -> list[tuple[str, float]]:
    """Weighted RRF (:func:`weighted_rrf`) with the sides' weights (:func:`side_weights`) and ``settings.rrf_k``."""
    return weighted_rrf({side: [c for c, _ in ranking] for side, ranking in rankings.items()},
                        side_weights(settings), k=settings.rrf_k)


FUSION_METHODS: dict[str, FusionMethod] = {
    "rrf": rrf,
}
"""Fusion methods by name (``Settings.fusion_method``). Add a method: write a :data:`FusionMethod` and a line here."""

MODES: dict[str, RetrievalMode] = {m.name: m for m in (
    RetrievalMode("hybrid", "Hybrid", ("dense", "bm25"),
                  "fuses meaning (dense) and keyword (BM25) rankings with the configured fusion method"),
    RetrievalMode("dense", "Dense", ("dense",), "meaning: cosine similarity of the embeddings"),
    RetrievalMode("bm25", "BM25", ("bm25",), "keywords: BM25 over the index tokens"),
)}
"""Retrieval modes by name (``search --mode``, the sidebar, ``Settings.retrieval_mode``): which sides run; a mode with
several sides fuses them with ``FUSION_METHODS[settings.fusion_method]``."""


def retrieval_mode(name: str) -> RetrievalMode:
    """The mode called ``name``.

    Raises:
        PrismError: no such mode (the message lists the modes).
    """
    found = MODES.get(name)
    if found is None:
        raise PrismError(f"Unknown retrieval mode '{name}'; use one of {', '.join(MODES)}.")
    return found


def fusion_method(name: str) -> FusionMethod:
    """The fusion method called ``name``.

    Raises:
        PrismError: no such method (the message lists the methods and the setting to change).
    """
    found = FUSION_METHODS.get(name)
    if found is None:
        raise PrismError(f"Unknown fusion method '{name}' (PRISM_FUSION_METHOD); use one of "
                         f"{', '.join(FUSION_METHODS)}.")
    return found


def combine(mode: RetrievalMode, rankings: Mapping[str, Ranking], settings: Settings) -> list[tuple[str, float]]:
    """The mode's final ranking: its one side's ranking as is, or its sides fused with the configured method.

    Raises:
        PrismError: ``settings.fusion_method`` is unknown.
    """
    if not mode.fused:
        return list(rankings.get(mode.sides[0], []))
    lists = {side: rankings.get(side, []) for side in mode.sides}
    lists.update({name: ranking for name, ranking in rankings.items() if name in EXTRA_RANKINGS})
    return fusion_method(settings.fusion_method)(lists, settings)
