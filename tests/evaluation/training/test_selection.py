"""The ranker's penalty is chosen by cross-validation: on candidates whose right one is marked by a feature the
prior does not weigh, a small penalty learns it and a huge one stays at the prior, and the small one is chosen."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from prism.answering.programs.ranker import FEATURES, Ranker
from prism.evaluation.training.selection import choose_l2
from prism.evaluation.training.train import _ranker_choices, _ranker_l2

RENDER = FEATURES.index("render_cosine")


def _examples(n: int, seed: int = 7) -> list[SimpleNamespace]:
    prior = Ranker()
    marker = next(i for i in range(len(FEATURES)) if i != RENDER and prior.first[i] == 0 and prior.second[i] == 0
                  and not FEATURES[i].startswith("op_"))
    misleading = int(np.argmax(np.abs(prior.first)))
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        found = []
        right = int(rng.integers(0, 5))
        for j in range(5):
            x = np.zeros(len(FEATURES))
            x[misleading] = rng.normal()  # what the prior ranks by: noise here
            x[marker] = 1.0 if j == right else 0.0  # what marks the right candidate
            found.append(SimpleNamespace(features=x))
        out.append(SimpleNamespace(found=found, right=[right]))
    return out


def test_cross_validation_prefers_the_penalty_that_learns_what_the_prior_misses():
    examples = _examples(60)
    folds = [list(range(i, 60, 3)) for i in range(3)]
    best, scores = choose_l2(examples, folds, (0.001, 1000.0), _ranker_l2, RENDER, _ranker_choices)
    assert best == 0.001
    assert scores["0.001"] > 0.9 > scores["1000"]
