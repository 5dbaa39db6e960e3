"""Choosing the ranker's penalty by cross-validation over the tuning half's documents.

The penalty (L2, pulling each weight to its prior) trades fitting the tuning half against generalising to new
documents; the frozen half may not choose it, so it is chosen on the tuning half alone: for each penalty of a grid,
the ranker is fitted without one fold of documents and scored on that fold (the share of its questions with a right
candidate whose best-ranked program is right, ranked as the answer engine ranks), and the penalty with the best mean
is kept (k-fold cross-validation: Stone, "Cross-validatory choice and assessment of statistical predictions", 1974;
a tie goes to the larger penalty, the simpler model).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import numpy as np

from prism.answering.programs.ranker import RERANK, Ranker
from prism.evaluation.training.fit import Choice, fit


class Prepared(Protocol):
    """What is read of a training example here (:class:`prism.evaluation.training.train.Prepared` has it): its
    candidates (each with ``features``) and the indices of the right ones."""

    found: Any
    right: Any


E = TypeVar("E", bound=Prepared)

__all__ = ["RANKER_L2_GRID", "choose_l2", "fit_ranker"]

RANKER_L2_GRID = (0.001, 0.003, 0.01, 0.03)
"""The ranker penalties cross-validation chooses among (0.001 was the fixed one before)."""


def fit_ranker(prepared: Sequence[E], l2: np.ndarray, render: int,
               choices: Callable[[Sequence[E], np.ndarray | None], list[Choice]]) -> Ranker:
    """Both stages of the ranker fitted on ``prepared`` with the per-feature penalty ``l2`` (the meaning feature at
    index ``render`` held at 0 in the first stage, as the engine ranks); the candidates' meaning cosines must
    already be set."""
    prior = Ranker()
    first = fit(choices(prepared, None), np.asarray(prior.first), l2)
    first[render] = 0.0
    second = fit(choices(prepared, first), np.asarray(prior.second), l2)
    return Ranker(first=list(first), second=list(second))


def _held_out(prepared: Sequence[Prepared], ranker: Ranker) -> tuple[int, int]:
    """``(right, questions)``: of ``prepared``'s questions with a right candidate, how many the ranker gets right."""
    first, second = np.asarray(ranker.first), np.asarray(ranker.second)
    hits = total = 0
    for p in prepared:
        if not p.right or not p.found:
            continue
        total += 1
        top = sorted(range(len(p.found)), key=lambda i: -float(p.found[i].features @ first))[:RERANK]
        best = max(top, key=lambda i: float(p.found[i].features @ second))
        hits += best in set(p.right)
    return hits, total


def choose_l2(prepared: Sequence[E], folds: list[list[int]], grid: Sequence[float],
              penalty: Callable[[float], np.ndarray], render: int,
              choices: Callable[[Sequence[E], np.ndarray | None], list[Choice]],
              say: Callable[[str], None] = lambda _m: None) -> tuple[float, dict[str, float]]:
    """The penalty of ``grid`` with the best cross-validated ranking accuracy, and each penalty's accuracy
    (``{"0.001": 0.81, …}``). ``penalty``: a penalty → its per-feature vector; ``folds``: indices of ``prepared``
    per fold (whole documents)."""
    scores: dict[str, float] = {}
    for l2 in grid:
        hits = total = 0
        for fold in folds:
            inside = set(fold)
            ranker = fit_ranker([p for i, p in enumerate(prepared) if i not in inside], penalty(l2), render, choices)
            h, t = _held_out([prepared[i] for i in fold], ranker)
            hits, total = hits + h, total + t
        scores[f"{l2:g}"] = round(hits / total, 4) if total else 0.0
        say(f"ranker penalty {l2:g}: cross-validated accuracy {scores[f'{l2:g}']}")
    best = max(grid, key=lambda x: (scores[f"{x:g}"], x))
    return best, scores
