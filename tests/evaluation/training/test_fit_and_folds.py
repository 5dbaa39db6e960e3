"""The conditional-logit fit the reader and the ranker are trained with, and the cross-validation folds that keep a
document's questions together."""

from __future__ import annotations

import numpy as np
import pytest

from prism.answering.reading.model import Signals
from prism.evaluation.training.examples import Example
from prism.evaluation.training.fit import Choice, fit, log_likelihood
from prism.evaluation.training.train import Prepared, _folds


def _choices(n: int = 40, alternatives: int = 4, seed: int = 7) -> list[Choice]:
    """Choices where feature 0 marks the right alternative (1.0 on it, 0.0 elsewhere) and feature 1 is noise."""
    rng = np.random.default_rng(seed)
    choices = []
    for _ in range(n):
        right = int(rng.integers(alternatives))
        x = np.zeros((alternatives, 2))
        x[right, 0] = 1.0
        x[:, 1] = rng.normal(size=alternatives)
        choices.append(Choice(x, (right,)))
    return choices


def test_fit_learns_the_feature_that_marks_the_right_alternative():
    choices = _choices()
    w = fit(choices, prior=[0.0, 0.0])
    assert w[0] > 1.0
    assert abs(w[1]) < w[0] / 2
    for c in choices:
        assert int(np.argmax(c.features @ w)) == c.right[0]
    assert log_likelihood(w, choices) > log_likelihood(np.zeros(2), choices)
    assert log_likelihood(np.zeros(2), choices) == pytest.approx(np.log(1 / 4))


def test_the_penalty_pulls_towards_the_prior():
    choices = _choices()
    loose = fit(choices, prior=[0.0, 0.0], l2=0.001)
    tight = fit(choices, prior=[0.0, 0.0], l2=10.0)
    assert 0.0 < tight[0] < loose[0]


def test_fit_refuses_examples_without_a_right_alternative():
    with pytest.raises(ValueError):
        fit([], prior=[0.0])
    with pytest.raises(ValueError):
        fit([Choice(np.zeros((2, 1)), ())], prior=[0.0])


def _prepared(group: str, i: int) -> Prepared:
    example = Example(id=f"{group}-{i}", group=group, question=f"What was revenue in {2000 + i}?", answer="1",
                      scale="", derivation="", answer_type="span", answer_from="table")
    return Prepared(example=example, signals=Signals(words=("what", "was", "revenue")), found=[], right=[],
                    labels=("lookup",))


def test_folds_keep_each_document_in_one_fold():
    prepared = [_prepared(f"doc{g}", i) for g in range(7) for i in range(g + 1)]
    folds = _folds(prepared, k=3, seed=1)
    assert len(folds) == 3
    assert sorted(i for fold in folds for i in fold) == list(range(len(prepared)))
    for fold in folds:
        assert fold
    fold_of_group: dict[str, set[int]] = {}
    for f, fold in enumerate(folds):
        for i in fold:
            fold_of_group.setdefault(prepared[i].example.group, set()).add(f)
    assert all(len(fs) == 1 for fs in fold_of_group.values())
    assert _folds(prepared, k=3, seed=1) == folds


def _flagged(group: str, i: int, label: str) -> Prepared:
    example = Example(id=f"{group}-{i}", group=group, question="q", answer="1", scale="", derivation="",
                      answer_type="arithmetic", answer_from="table")
    flags = frozenset({"two_mentions", "one_period"} if label == "ratio" else {"one_period"})
    return Prepared(example=example, signals=Signals(words=("what", "was", "it"), flags=flags), found=[], right=[],
                    labels=(label,))


def test_the_operation_models_penalty_is_scored_on_documents_it_was_not_fitted_on():
    """A cue the priors do not know (two items named → a ratio) is learnt with a small penalty and held at the prior
    with a large one: the out-of-fold log-likelihood prefers the small one, and scores each example once."""
    from prism.evaluation.training.train import _out_of_fold

    prepared = [_flagged(f"doc{g}", i, "ratio" if i % 2 else "lookup") for g in range(10) for i in range(6)]
    split = _folds(prepared, k=5, seed=3)
    loose, tight = (_out_of_fold(prepared, (), None, split, l2) for l2 in (0.001, 100.0))
    assert loose > tight
    assert loose > np.log(0.5)  # better than guessing between the two operations
