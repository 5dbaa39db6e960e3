"""Fitting a conditional logit: each example is a choice among alternatives described by feature vectors, some of
them right; the weights maximise the log of the probability mass on the right ones, with an L2 penalty pulling
each weight towards its prior (McFadden, "Conditional logit analysis of qualitative choice behavior", 1973; a
Gaussian prior as in ridge regression). Optimised with L-BFGS (:func:`scipy.optimize.minimize`), the examples
stacked into one matrix (segment sums over each example's alternatives)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize

__all__ = ["Choice", "fit", "log_likelihood"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Choice:
    """One example: ``features`` ``(n_alternatives, n_features)`` and the indices of the right alternatives."""

    features: np.ndarray
    right: tuple[int, ...]


@dataclass(frozen=True)
class _Stacked:
    x: np.ndarray
    right: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray


def _stack(choices: Sequence[Choice]) -> _Stacked:
    lengths = np.array([len(c.features) for c in choices])
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    right = np.zeros(int(lengths.sum()))
    for start, c in zip(starts, choices, strict=True):
        right[start + np.asarray(c.right, dtype=int)] = 1.0
    return _Stacked(np.vstack([c.features for c in choices]), right, starts, lengths)


def _objective(w: np.ndarray, data: _Stacked, prior: np.ndarray, l2: float | np.ndarray
               ) -> tuple[float, np.ndarray]:
    """Negative penalised mean log-likelihood and its gradient."""
    n = len(data.starts)
    s = data.x @ w
    top = np.maximum.reduceat(s, data.starts)
    e = np.exp(s - np.repeat(top, data.lengths))
    total = np.add.reduceat(e, data.starts)
    mass = np.add.reduceat(e * data.right, data.starts)
    loss = -float(np.sum(np.log(np.maximum(mass, 1e-300)) - np.log(total))) / n
    p = e / np.repeat(total, data.lengths)
    q = e * data.right / np.repeat(np.maximum(mass, 1e-300), data.lengths)
    grad = -(data.x.T @ (q - p)) / n
    return loss + float(np.sum(l2 * (w - prior) ** 2)), grad + 2 * l2 * (w - prior)


def fit(choices: Sequence[Choice], prior: Sequence[float] | np.ndarray, l2: float | Sequence[float] | np.ndarray = 0.01,
        max_iter: int = 1000) -> np.ndarray:
    """The weights maximising the penalised log-likelihood of ``choices`` (module docstring).

    Args:
        choices: the examples (each with at least one right alternative).
        prior: the weights the penalty pulls towards (also the starting point), one per feature.
        l2: the penalty's strength, one for every weight or one per feature (a feature few examples inform can be
            held nearer its prior).

    Raises:
        ValueError: no examples, or an example without a right alternative.
    """
    if not choices:
        raise ValueError("no examples to fit")
    if any(not c.right for c in choices):
        raise ValueError("an example has no right alternative")
    start = np.asarray(prior, dtype=float)
    data = _stack(choices)
    strength = np.broadcast_to(np.asarray(l2, dtype=float), start.shape)
    result = minimize(_objective, start, args=(data, start, strength), jac=True, method="L-BFGS-B",
                      options={"maxiter": max_iter})
    logger.info("conditional logit: %d examples, loss %.4f, %s", len(choices), result.fun, result.message)
    return np.asarray(result.x)


def log_likelihood(w: np.ndarray, choices: Sequence[Choice]) -> float:
    """The mean log-likelihood of ``choices`` under ``w`` (no penalty)."""
    loss, _ = _objective(np.asarray(w, dtype=float), _stack(choices), np.asarray(w, dtype=float), 0.0)
    return -loss
