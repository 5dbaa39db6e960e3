"""The registry's own phrasings as examples for the operation model.

Each operation declares canonical phrasings (:attr:`prism.answering.programs.operation.Operation.phrasings`, written
with ``X``/``Y`` for the figures, ``P`` for the periods and ``N`` for a threshold), and ``text`` has
:data:`~prism.answering.reading.model.TEXT_PHRASINGS`. TAT-QA's tuning half holds few questions of the rarer
operations (a compound growth rate, a per-share figure, a lowest period, a yes/no), so the cue weights of those are
left at their priors. Reading each phrasing as a question (its placeholders filled with a line item and years) and
labelling it with its own operation gives every operation examples of its own wording: data augmentation from the
grammar the registry already states (as Berant & Liang, "Semantic Parsing via Paraphrasing", ACL 2014, generate
canonical utterances from a grammar), never from the paraphrase benchmark's families.

A phrasing without a period (``P``) is also read asked of one year ("add X and Y" → "add revenue and operating
expenses in 2024"): an analyst most often names the year, and without that variant the model would learn that a
question of one year is a lookup from the real questions alone (most of TAT-QA's one-year questions are), whatever
its other words ask.

A phrasing's embedding is its operation's own phrasing, so its cosine with that operation is 1 by construction; its
features are computed with that one phrasing left out (:func:`without`), as a new question's would be.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from prism.answering.programs.registry import OPERATIONS
from prism.answering.reading.model import ALTERNATIVES, TEXT_PHRASINGS, Signals
from prism.answering.reading.reader import Reader

__all__ = ["FILLS", "Phrased", "phrased_examples", "variants", "without"]

FILLS: tuple[tuple[str, str, tuple[str, ...], str], ...] = (
    ("revenue", "operating expenses", ("2022", "2023", "2024"), "$100 million"),
    ("net income", "total assets", ("2023", "2024", "2024"), "5%"),
    ("operating income", "revenue", ("2021", "2022", "2022"), "$2 billion"),
    ("cash and cash equivalents", "total liabilities", ("2018", "2019", "2019"), "10,000"),
)
"""``(X, Y, periods in order, N)``: what a phrasing's placeholders are filled with; phrasing *i* takes fill
*i* mod 4, so every operation is read with several line items and years."""

_SLOT = re.compile(r"\b[XYPN]\b")


@dataclass(frozen=True)
class Phrased:
    """One phrasing read as a question.

    Attributes:
        question: the phrasing with its placeholders filled; signals: what the operation model reads of it.
        labels: its alternative (one of :data:`~prism.answering.reading.model.ALTERNATIVES`), as a 1-tuple.
        index: the phrasing's position among its alternative's phrasings (left out of its own features).
    """

    question: str
    signals: Signals
    labels: tuple[str, ...]
    index: int


def fill(phrasing: str, x: str, y: str, periods: Sequence[str], n: str) -> str:
    """``phrasing`` with ``X``, ``Y``, ``N`` and each ``P`` in turn replaced ("X CAGR P to P" → "revenue CAGR 2022
    to 2023")."""
    years = iter(periods)

    def put(m: re.Match[str]) -> str:
        slot = m.group(0)
        return x if slot == "X" else y if slot == "Y" else n if slot == "N" else next(years, periods[-1])
    return _SLOT.sub(put, phrasing)


def variants(phrasing: str) -> tuple[str, ...]:
    """``phrasing``, and when it names no period, the same asked of one year (``"add X and Y"`` → ``("add X and
    Y", "add X and Y in P")``)."""
    return (phrasing,) if "P" in _SLOT.findall(phrasing) else (phrasing, f"{phrasing} in P")


def _phrasings(alternative: str) -> tuple[str, ...]:
    return TEXT_PHRASINGS if alternative == "text" else OPERATIONS[alternative].phrasings


def phrased_examples(reader: Reader) -> list[Phrased]:
    """Every alternative's phrasings in their :func:`variants`, filled (:data:`FILLS`) and read by ``reader`` (its
    embedder gives the cosines), each labelled with its alternative."""
    out = []
    for alternative in ALTERNATIVES:
        for i, phrasing in enumerate(_phrasings(alternative)):
            x, y, periods, n = FILLS[i % len(FILLS)]
            for variant in variants(phrasing):
                question = fill(variant, x, y, periods[-1:] if variant != phrasing else periods, n)
                _, signals = reader.read_with_signals(question)
                out.append(Phrased(question, signals, (alternative,), i))
    return out


def without(vectors: dict[str, np.ndarray] | None, alternative: str, index: int) -> dict[str, np.ndarray] | None:
    """``vectors`` (each alternative's phrasings embedded) less ``alternative``'s phrasing ``index``."""
    if vectors is None:
        return None
    return {**vectors, alternative: np.delete(vectors[alternative], index, axis=0)}
