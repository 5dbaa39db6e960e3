"""Which operation a question asks for, by meaning: a conditional logit over the program registry's operations.

Every operation of :data:`prism.answering.programs.registry.OPERATIONS`, and ``text`` (a fact stated in a sentence,
no program), is an alternative. Each gets

* **shared features**, one weight each for all alternatives: the cosine of the question's *frame* (its mentions
  written ``X``, its periods ``P``) with the alternative's nearest canonical phrasing, and of the question itself,
  with the packaged paraphrase embedder (semantic parsing via paraphrasing: Berant & Liang, "Semantic Parsing via
  Paraphrasing", ACL 2014); whether the question holds one of its cue words, how many, and how long the longest
  (a cue inside a longer cue of another alternative does not count: :func:`cue_hits`);
* **question features** weighted per alternative: how many periods it names, a threshold, a yes/no lead, the
  rule-based readings of :mod:`prism.answering.reading.kinds` (reason, description, expected unit, answer type)
  and whether "minimum"/"maximum" name a rule's bound ("the maximum liability") — proposals the model weighs,
  never decisions on their own.

The score of an alternative is the weighted sum; the probabilities are its softmax over the alternatives
(McFadden's conditional logit, "Conditional logit analysis of qualitative choice behavior", 1973). An operation the
trained weights do not know still gets the shared features' weights: adding one to the registry works before the
model is trained again (``python -m prism reader train``). The weights live in ``model.json`` beside this module.
"""

from __future__ import annotations

import json
import logging
import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from prism.answering.programs.registry import OPERATIONS
from prism.answering.reading.words import phrase_spans

if TYPE_CHECKING:
    from prism.index.embedder import PrismEmbedding

__all__ = ["ALTERNATIVES", "MODEL_FILE", "PRIOR_SHARED", "QUESTION_FEATURES", "SHARED_FEATURES", "OperationModel",
           "Signals", "TEXT_CUES", "TEXT_PHRASINGS", "cue_hits", "own_names", "prior_per"]

logger = logging.getLogger(__name__)

MODEL_FILE = Path(__file__).with_name("model.json")
"""The trained weights (written by :mod:`prism.answering.reading.training`)."""

TEXT_PHRASINGS = ("why did X change", "what does X mean", "describe X", "how is X calculated", "what is X",
                  "what are the terms of X", "who is X", "what happened to X", "what is the policy on X",
                  "explain X", "what is the company paid on X")
"""How an analyst asks for a fact stated in a sentence, not a figure computed."""
TEXT_CUES = ("why", "reason", "reasons", "describe", "explain", "mean", "meaning", "definition", "policy", "who",
             "how is", "how are", "how does", "how do", "what does", "where", "primarily", "due to", "consist",
             "include", "includes")
"""Words that propose a sentence answer."""

ALTERNATIVES: tuple[str, ...] = (*OPERATIONS, "text")
"""The operations and ``text``, in a fixed order."""

SHARED_FEATURES = ("frame_cosine", "question_cosine", "cue", "cues", "cue_length")
"""The features every alternative shares one weight for."""

QUESTION_FEATURES = ("bias", "no_period", "one_period", "periods", "threshold", "polar", "reason", "description",
                     "table_subject", "target_count", "target_quantity", "target_person", "which_or_when",
                     "how_many", "two_mentions", "unit_percent", "unit_count", "unit_period", "unit_ratio",
                     "unit_points", "polarity", "each", "direction", "conjoined", "bare_periods", "bound",
                     "own_frame_cosine", "own_cue")
"""The question's features, weighted per alternative; the last two are the alternative's own frame cosine and cue
(its weight on them beside the shared one: a cue reliable for one operation counts more for it)."""


@dataclass(frozen=True)
class Signals:
    """What the model reads of one question.

    Attributes:
        words: the normalised question's lower-case words (:func:`~prism.answering.reading.words.words_of`).
        question: the question's embedding or ``None``; frame: its frame's embedding or ``None``.
        flags: the question features that hold (names of :data:`QUESTION_FEATURES`).
    """

    words: tuple[str, ...]
    question: Any = None
    frame: Any = None
    flags: frozenset[str] = frozenset()


def cue_hits(words: Sequence[str]) -> dict[str, set[str]]:
    """Each alternative's cues that ``words`` hold, longest match first: a cue whose every occurrence overlaps a
    longer cue of another alternative does not count ("growth rate" inside "compound annual growth rate" is the
    CAGR's, "change" inside "percentage change" the percentage change's), as a tokenizer takes the longest token
    (maximal munch). Cues of the same length that overlap all count."""
    found = [(alt, cue, span) for alt in ALTERNATIVES for cue in _cues(alt) for span in phrase_spans(cue, words)]
    out: dict[str, set[str]] = {alt: set() for alt in ALTERNATIVES}
    for alt, cue, (start, end) in found:
        if not any(other != alt and e - s > end - start and start < e and s < end
                   for other, _, (s, e) in found):
            out[alt].add(cue)
    return out


def _cues(name: str) -> tuple[str, ...]:
    return TEXT_CUES if name == "text" else OPERATIONS[name].cues


def _phrasings(name: str) -> tuple[str, ...]:
    return TEXT_PHRASINGS if name == "text" else OPERATIONS[name].phrasings


_PRIORS: dict[str, dict[str, float]] = {
    "lookup": {"bias": 1.0, "one_period": 0.5, "target_quantity": 0.5, "bound": 1.0},
    "list": {"each": 1.0, "respectively": 1.0, "bare_periods": 2.0},
    "count": {"bias": -1.0, "how_many": 3.0, "target_count": 2.0, "unit_count": 1.5},
    "sum": {"bias": -0.5},
    "change": {"unit_points": 1.5},
    "percent_change": {"unit_percent": 1.5},
    "ratio": {"unit_ratio": 2.0},
    "share": {"unit_percent": 1.0},
    "cagr": {"bias": -1.0},
    "margin": {"bias": -0.5},
    "per_share": {"bias": -1.0},
    "max": {"bias": -1.0, "polarity": 2.0, "which_or_when": 1.0, "bound": -2.0},
    "min": {"bias": -1.0, "polarity": 2.0, "which_or_when": 1.0, "bound": -2.0},
    "yes_no": {"bias": -3.0, "polar": 5.0, "threshold": 1.0, "direction": 2.0},
    "text": {"reason": 4.0, "description": 4.0, "table_subject": 4.0, "target_person": 2.0},
}
"""What the model assumes before it sees data: the rule-based readings as soft evidence (a yes/no lead suggests
``yes_no``, the more so when it asks for a direction, "did … increase"; "how many" ``count``; a cause ``text``).
Training pulls the weights from here, so an operation with few examples keeps these."""
PRIOR_SHARED = (4.0, 1.0, 1.5, 0.5, 0.5)
"""The shared features' weights before training."""


def own_names(alternative: str) -> tuple[str, ...]:
    """The names of an alternative's own features: the question features, then one per cue of its own
    (``"cue:percentage change"``): a cue reliable for one operation counts more for it."""
    return (*QUESTION_FEATURES, *(f"cue:{c}" for c in _cues(alternative)))


def prior_per() -> dict[str, dict[str, float]]:
    """Each alternative's own weights before training (:data:`_PRIORS`; 0 for the rest)."""
    return {alt: {name: _PRIORS.get(alt, {}).get(name, 0.0) for name in own_names(alt)} for alt in ALTERNATIVES}


@dataclass
class OperationModel:
    """The weights of the conditional logit, and the phrasings' embeddings per embedder.

    Attributes:
        shared: one weight per :data:`SHARED_FEATURES` entry.
        per: per alternative, its own weights by name (:func:`own_names`; a name not listed weighs 0).
    """

    shared: list[float] = field(default_factory=lambda: list(PRIOR_SHARED))
    per: dict[str, dict[str, float]] = field(default_factory=prior_per)
    _vectors: dict[int, tuple[Any, dict[str, np.ndarray]]] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def load(cls, path: Path = MODEL_FILE) -> OperationModel:
        """The weights in ``path`` over the priors; the untrained priors when it is missing or unreadable
        (logged)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            per = prior_per()
            for alt, weights in data["per"].items():
                if alt in per:
                    per[alt].update({k: float(v) for k, v in weights.items() if k in per[alt]})
            return cls(shared=[float(data["shared"][f]) for f in SHARED_FEATURES], per=per)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            logger.warning("reader model %s not used (%s): untrained weights", Path(path).name, type(exc).__name__)
            return cls()

    def to_json(self, report: dict[str, Any] | None = None) -> dict[str, Any]:
        """``{"shared": {feature: weight}, "per": {alternative: {feature: weight}}, "report"}`` for ``model.json``."""
        return {"shared": dict(zip(SHARED_FEATURES, self.shared, strict=True)), "per": self.per,
                "report": report or {}}

    def phrasing_vectors(self, embedder: PrismEmbedding) -> dict[str, np.ndarray]:
        """Each alternative's phrasings embedded (``(n_phrasings, dimension)``), once per embedder."""
        with self._lock:
            hit = self._vectors.get(id(embedder))
            if hit is not None and hit[0] is embedder:
                return hit[1]
            texts = [(alt, p) for alt in ALTERNATIVES for p in _phrasings(alt)]
            vectors = embedder.embed([p for _, p in texts])
            out: dict[str, np.ndarray] = {}
            for alt in ALTERNATIVES:
                rows = [i for i, (a, _) in enumerate(texts) if a == alt]
                out[alt] = np.asarray(vectors)[rows]
            self._vectors[id(embedder)] = (embedder, out)
            return out

    def features(self, signals: Signals, vectors: dict[str, np.ndarray] | None
                 ) -> tuple[np.ndarray, list[np.ndarray]]:
        """``(shared, own)``: the shared features, shape ``(len(ALTERNATIVES), len(SHARED_FEATURES))``, and each
        alternative's own features in :func:`own_names` order."""
        flags = [1.0 if f == "bias" or f in signals.flags else 0.0 for f in QUESTION_FEATURES[:-2]]
        shared, own = [], []
        held = cue_hits(signals.words)
        for alt in ALTERNATIVES:
            frame_cos = question_cos = 0.0
            if vectors is not None and signals.frame is not None:
                frame_cos = float(np.max(vectors[alt] @ signals.frame))
                question_cos = float(np.max(vectors[alt] @ signals.question))
            cues = [1.0 if c in held[alt] else 0.0 for c in _cues(alt)]
            hits = [c for c, on in zip(_cues(alt), cues, strict=True) if on]
            longest = max((len(c.split()) for c in hits), default=0)
            cue = 1.0 if hits else 0.0
            shared.append([frame_cos, question_cos, cue, min(len(hits), 3) / 3, min(longest, 3) / 3])
            own.append(np.array([*flags, frame_cos, cue, *cues]))
        return np.array(shared), own

    def scores(self, shared: np.ndarray, own: Sequence[np.ndarray]) -> np.ndarray:
        """Each alternative's score (``(len(ALTERNATIVES),)``): shared weights · shared features + its own weights ·
        its own features."""
        base = shared @ np.asarray(self.shared)
        mine = [float(x @ np.array([self.per.get(alt, {}).get(n, 0.0) for n in own_names(alt)]))
                for alt, x in zip(ALTERNATIVES, own, strict=True)]
        return base + np.array(mine)

    def probabilities(self, signals: Signals, embedder: PrismEmbedding | None) -> tuple[tuple[str, float], ...]:
        """``((alternative, probability), …)``, best first (ties in :data:`ALTERNATIVES` order)."""
        vectors = self.phrasing_vectors(embedder) if embedder is not None and signals.frame is not None else None
        scores = self.scores(*self.features(signals, vectors))
        top = float(np.max(scores))
        exp = [math.exp(float(x) - top) for x in scores]
        total = sum(exp)
        ranked = sorted(zip(ALTERNATIVES, (e / total for e in exp), strict=True), key=lambda t: -t[1])
        return tuple((name, round(p, 6)) for name, p in ranked)


def flags_of(names: Sequence[str]) -> frozenset[str]:
    """The question features among ``names`` (unknown names dropped)."""
    return frozenset(n for n in names if n in QUESTION_FEATURES)
