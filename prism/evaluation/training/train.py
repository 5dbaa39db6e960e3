"""Training the reader's operation model and the program ranker, cross-fitted, from :class:`~.examples.Example` s.

1. **Candidates once.** Every example's candidate programs are made and executed once; each is right or not by
   the gold (:func:`prism.evaluation.tatqa.match.line_matches` on its result).
2. **The operation model** (:mod:`prism.answering.reading.model`) is fitted on the examples' operation labels
   (:func:`~.examples.operation_of`, else the operations of the right candidates, else ``text``), and on the
   registry's own phrasings read as questions (:mod:`~.phrasings`), which every fold keeps; its penalty is the one
   of :data:`READER_L2_GRID` whose models, fitted without each fold of documents, give that fold's operations the
   highest log-likelihood (:func:`_out_of_fold`).
3. **Cross-fitting.** The ranker's first feature is the reader's probability of the candidate's operation; fitted on
   the reader's own training examples it would be over-confident. So the examples are split into ``folds`` by
   document, a reader is fitted without each fold, and each fold's candidates get that reader's probabilities
   (stacking: Wolpert, "Stacked generalization", 1992).
4. **The ranker** is fitted in two stages, as it ranks: on all candidates without the meaning feature, then on each
   example's best :data:`~prism.answering.programs.ranker.RERANK` with it (the cosine of the program written as a
   question with the question); its penalty is chosen by cross-validation over the same folds
   (:mod:`~.selection`).
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from prism.answering.programs.answer import Choice as ProgramChoice
from prism.answering.programs.evidence import gather
from prism.answering.programs.ranker import (
    ACCEPT_FEATURES,
    FEATURES,
    RERANK,
    Candidate,
    Ranker,
    candidates,
)
from prism.answering.programs.registry import OPERATIONS
from prism.answering.programs.row_names import operation_log_probability
from prism.answering.programs.tables import RowsOf
from prism.answering.reading.model import (
    ALTERNATIVES,
    PRIOR_SHARED,
    SHARED_FEATURES,
    OperationModel,
    Signals,
    own_names,
    prior_per,
)
from prism.answering.reading.reader import intent_of
from prism.evaluation.tatqa.match import line_matches
from prism.evaluation.training.examples import Example, operation_of
from prism.evaluation.training.fit import Choice, fit
from prism.evaluation.training.phrasings import Phrased, without
from prism.evaluation.training.selection import RANKER_L2_GRID, choose_l2, fit_ranker
from prism.index.embedder import PrismEmbedding

__all__ = ["Prepared", "Trained", "prepare", "train"]

logger = logging.getLogger(__name__)
_OP = FEATURES.index("op_log_probability")
_RENDER = FEATURES.index("render_cosine")
INDICATOR_L2 = 50.0
"""How much harder the ranker's per-operation indicators (``op_lookup`` …) are held at their prior than the other
weights: which operation is asked is the reader's (``op_log_probability``); an indicator learnt from a few examples
of a rare operation (a "lowest" question) would otherwise outweigh it, and one learnt from a frequent operation only
keeps what many examples support (ridge regression's shrinkage, per feature)."""


def _ranker_l2(l2: float) -> np.ndarray:
    """The ranker's penalty per feature: ``l2``, times :data:`INDICATOR_L2` for the operation indicators."""
    return np.array([l2 * INDICATOR_L2 if f.startswith("op_") and f != "op_log_probability" else l2
                     for f in FEATURES])


@dataclass
class Prepared:
    """One example with its reader signals, candidates, right candidates and operation labels."""

    example: Example
    signals: Signals
    found: list[Candidate]
    right: list[int]
    labels: tuple[str, ...]


@dataclass
class Trained:
    """The fitted models and what was measured on the way (``report``: counts and accuracies)."""

    model: OperationModel
    ranker: Ranker
    report: dict[str, Any]


def prepare(examples: Sequence[Example], signals: Sequence[Signals], rows_of: RowsOf) -> list[Prepared]:
    """Candidates, right candidates and operation labels for each example (step 1); a computation whose operation
    the gold does not tell gets no label (the operation model leaves it out)."""
    out = []
    for example, signal in zip(examples, signals, strict=True):
        if example.reading is None:
            continue
        found = candidates(example.reading, gather(example.chunks, rows_of))
        right = [i for i, c in enumerate(found) if line_matches(c.result.text, example.answer, example.scale)]
        gold = operation_of(example)
        if gold is not None:
            labels: tuple[str, ...] = (gold,)
        elif right:
            labels = tuple(dict.fromkeys(found[i].program.operation for i in right))
        elif example.answer_type in ("arithmetic", "count"):
            labels = ()  # a computation the registry does not write (a difference of averages): no label
        else:
            labels = ("text",)
        out.append(Prepared(example, signal, found, right, labels))
    return out


def _reader_choice(model: OperationModel, p: Prepared | Phrased, vectors: dict[str, np.ndarray] | None) -> Choice:
    """The example as a choice among the alternatives: shared features, then one block of own features per
    alternative (only its own block non-zero). A phrasing's features leave that phrasing out."""
    if isinstance(p, Phrased):
        vectors = without(vectors, p.labels[0], p.index)
    shared, own = model.features(p.signals, vectors)
    sizes = [len(x) for x in own]
    offsets = np.concatenate([[0], np.cumsum(sizes)]) + shared.shape[1]
    expanded = np.zeros((len(ALTERNATIVES), int(offsets[-1])))
    expanded[:, :shared.shape[1]] = shared
    for i, x in enumerate(own):
        expanded[i, offsets[i]:offsets[i + 1]] = x
    right = tuple(ALTERNATIVES.index(label) for label in p.labels if label in ALTERNATIVES)
    return Choice(expanded, right)


def _fit_reader(prepared: Sequence[Prepared | Phrased], vectors: dict[str, np.ndarray] | None, l2: float
                ) -> OperationModel:
    """The operation model fitted on ``prepared`` and the phrasings among them (step 2)."""
    per = prior_per()
    prior = list(PRIOR_SHARED) + [w for alt in ALTERNATIVES for w in (per[alt][n] for n in own_names(alt))]
    choices = [c for c in (_reader_choice(OperationModel(), p, vectors) for p in prepared) if c.right]
    w = fit(choices, prior, l2)
    n = len(SHARED_FEATURES)
    fitted: dict[str, dict[str, float]] = {}
    at = n
    for alt in ALTERNATIVES:
        names = own_names(alt)
        fitted[alt] = {name: float(w[at + k]) for k, name in enumerate(names)}
        at += len(names)
    return OperationModel(shared=list(w[:n]), per=fitted)


READER_L2_GRID = (0.001, 0.01, 0.03, 0.1)
"""The operation model's penalties cross-validation chooses among (0.001 was the fixed one before)."""


def _out_of_fold(prepared: Sequence[Prepared], phrased: Sequence[Phrased], vectors: dict[str, np.ndarray] | None,
                 split: list[list[int]], l2: float) -> float:
    """The mean log-likelihood of the examples' operations (the probability of any of their labels) under operation
    models fitted with penalty ``l2`` without each example's fold of documents (k-fold cross-validation: Stone,
    "Cross-validatory choice and assessment of statistical predictions", 1974); the registry's phrasings are in
    every fold's training set and scored in none."""
    total = count = 0.0
    for fold in split:
        inside = set(fold)
        model = _fit_reader([*(p for i, p in enumerate(prepared) if i not in inside), *phrased], vectors, l2)
        for i in fold:
            p = prepared[i]
            if not p.labels:
                continue
            operations = (model.probabilities(p.signals, None) if vectors is None
                          else _probabilities(model, p, vectors))
            total += math.log(max(sum(q for name, q in operations if name in p.labels), 1e-9))
            count += 1
    return total / count if count else 0.0


def _folds(prepared: Sequence[Prepared], k: int, seed: int) -> list[list[int]]:
    """Indices of ``prepared`` in ``k`` folds, whole documents per fold."""
    groups = sorted({p.example.group for p in prepared})
    random.Random(seed).shuffle(groups)
    fold_of = {g: i % k for i, g in enumerate(groups)}
    return [[i for i, p in enumerate(prepared) if fold_of[p.example.group] == f] for f in range(k)]


def _set_probabilities(p: Prepared, model: OperationModel, vectors: dict[str, np.ndarray] | None) -> None:
    """The example's reading and candidates with ``model``'s operation probabilities."""
    operations = model.probabilities(p.signals, None) if vectors is None else _probabilities(model, p, vectors)
    reading = p.example.reading
    if reading is not None:
        p.example.reading = replace(reading, operations=operations,
                                    intent=intent_of(operations[0][0], reading.flags))
    probability = dict(operations)
    for c in p.found:
        c.features[_OP] = operation_log_probability(probability, c.program.operation, c.named_by_row, c.stated)


def _probabilities(model: OperationModel, p: Prepared, vectors: dict[str, np.ndarray]) -> tuple[tuple[str, float], ...]:
    scores = model.scores(*model.features(p.signals, vectors))
    exp = np.exp(scores - scores.max())
    probs = exp / exp.sum()
    return tuple(sorted(zip(ALTERNATIVES, (float(x) for x in probs), strict=True), key=lambda t: -t[1]))


def _render_cosines(prepared: Sequence[Prepared], first: np.ndarray, embedder: PrismEmbedding) -> None:
    """Each example's best :data:`RERANK` candidates by ``first`` get their meaning feature."""
    for p in prepared:
        reading = p.example.reading
        if reading is None or reading.vector is None or not p.found:
            continue
        for c in p.found:
            c.score = float(c.features @ first)
        top = sorted(range(len(p.found)), key=lambda i: -p.found[i].score)[:RERANK]
        texts = [OPERATIONS[p.found[i].program.operation].render(p.found[i].program) for i in top]
        for i, v in zip(top, embedder.embed(texts), strict=True):
            p.found[i].features[_RENDER] = float(np.asarray(v) @ reading.vector)


def _ranker_choices(prepared: Sequence[Prepared], first: np.ndarray | None) -> list[Choice]:
    """All candidates (``first`` None), or the best :data:`RERANK` by ``first``, of examples with a right one."""
    out = []
    for p in prepared:
        if not p.right:
            continue
        index = list(range(len(p.found)))
        if first is not None:
            index = sorted(index, key=lambda i: -float(p.found[i].features @ first))[:RERANK]
        right = tuple(j for j, i in enumerate(index) if i in set(p.right))
        if right:
            out.append(Choice(np.vstack([p.found[i].features for i in index]), right))
    return out


def _accuracy(prepared: Sequence[Prepared], ranker: Ranker) -> float:
    """The share of examples (with a right candidate) whose best-ranked candidate is right (no meaning rerank)."""
    hits = total = 0
    for p in prepared:
        if not p.right or not p.found:
            continue
        total += 1
        w = np.asarray(ranker.second)
        best = max(range(len(p.found)), key=lambda i: float(p.found[i].features @ w))
        hits += best in set(p.right)
    return hits / total if total else 0.0


def _ranked(p: Prepared, ranker: Ranker) -> list[Candidate]:
    """The example's candidates ranked as :meth:`Ranker.rank` ranks them (the cosines already set)."""
    first, second = np.asarray(ranker.first), np.asarray(ranker.second)
    for c in p.found:
        c.score = float(c.features @ first)
    ranked = sorted(p.found, key=lambda c: -c.score)
    top = ranked[:RERANK]
    for c in top:
        c.score = float(c.features @ second)
    return sorted(top, key=lambda c: -c.score) + ranked[RERANK:]


def _fit_accept(prepared: Sequence[Prepared], ranker: Ranker, l2: float) -> list[float]:
    """The accept model: whether the best program's result is right, from :data:`ACCEPT_FEATURES` (a logistic
    regression, as a choice between accepting, with the features, and declining, with none)."""
    choices = []
    for p in prepared:
        reading = p.example.reading
        if reading is None or not p.found:
            continue
        ranked = _ranked(p, ranker)
        choice = ProgramChoice(ranked, chunks=p.example.chunks)
        best = choice.best
        if best is None or reading.intent in ("reason", "description", "table_subject"):
            continue
        right = any(best is p.found[i] for i in p.right)
        x = choice.accept_features(reading)
        choices.append(Choice(np.vstack([x, np.zeros_like(x)]), (0,) if right else (1,)))
    return list(fit(choices, [0.0] * len(ACCEPT_FEATURES), l2)) if choices else []


def train(prepared: list[Prepared], embedder: PrismEmbedding, *, phrased: Sequence[Phrased] = (), folds: int = 5,
          seed: int = 20261204, l2: float = 0.001, ranker_grid: Sequence[float] = RANKER_L2_GRID,
          reader_grid: Sequence[float] = READER_L2_GRID,
          progress: Callable[[str], None] | None = None) -> Trained:
    """Fit both models on ``prepared`` (module docstring) and report counts and in-sample accuracies.
    ``phrased``: the registry's phrasings read as questions, added to the operation model's examples in every fold
    (:func:`~.phrasings.phrased_examples`); ``l2``: the accept model's penalty (and the others' when their grids
    hold one value or none); ``reader_grid``: the operation model's penalties, one chosen by the out-of-fold
    log-likelihood of the examples' operations (:func:`_out_of_fold`); ``ranker_grid``: the ranker's penalties,
    one chosen by cross-validation over the folds (:func:`~.selection.choose_l2`; one value: that one)."""
    say = progress or (lambda _m: None)
    vectors = OperationModel().phrasing_vectors(embedder)
    split = _folds(prepared, folds, seed)
    reader_l2, reader_cv = l2, dict[str, float]()
    if len(reader_grid) > 1:
        say("choosing the operation model's penalty by cross-validation over the folds")
        scored = {value: _out_of_fold(prepared, phrased, vectors, split, value) for value in reader_grid}
        reader_cv = {f"{value:g}": round(ll, 4) for value, ll in scored.items()}
        reader_l2 = max(sorted(scored, reverse=True), key=lambda value: round(scored[value], 4))  # ties: larger
        say(f"operation model penalty {reader_l2:g} (out-of-fold log-likelihood per penalty: {reader_cv})")
    say("fitting the operation model per fold")
    for fold in split:
        inside = set(fold)
        model = _fit_reader([*(p for i, p in enumerate(prepared) if i not in inside), *phrased], vectors, reader_l2)
        for i in fold:
            _set_probabilities(prepared[i], model, vectors)
    say("fitting the operation model on every example")
    final_model = _fit_reader([*prepared, *phrased], vectors, reader_l2)
    prior = Ranker()
    say("fitting the ranker, first stage")
    first = fit(_ranker_choices(prepared, None), np.asarray(prior.first), _ranker_l2(l2))
    first[_RENDER] = 0.0
    say("embedding the best candidates of each example as questions")
    _render_cosines(prepared, first, embedder)
    ranker_l2, cross_validated = l2, dict[str, float]()
    if len(ranker_grid) > 1:
        say("choosing the ranker's penalty by cross-validation over the folds")
        ranker_l2, cross_validated = choose_l2(prepared, _folds(prepared, folds, seed), ranker_grid, _ranker_l2,
                                               _RENDER, _ranker_choices, say)
    say(f"fitting the ranker (penalty {ranker_l2:g})")
    ranker = fit_ranker(prepared, _ranker_l2(ranker_l2), _RENDER, _ranker_choices)
    if ranker_l2 != l2:  # the meaning cosines of the best candidates by the first stage the engine will use
        _render_cosines(prepared, np.asarray(ranker.first), embedder)
        ranker = fit_ranker(prepared, _ranker_l2(ranker_l2), _RENDER, _ranker_choices)
    say("fitting the accept model")
    ranker.accept = _fit_accept(prepared, ranker, l2) or None
    op_right = sum(1 for p in prepared if p.example.reading is not None
                   and p.example.reading.operation in p.labels)
    report = {"examples": len(prepared), "with_right_candidate": sum(bool(p.right) for p in prepared),
              "operation_accuracy_out_of_fold": round(op_right / max(len(prepared), 1), 4),
              "ranker_accuracy_in_sample": round(_accuracy(prepared, ranker), 4), "folds": folds, "l2": l2,
              "reader_l2": reader_l2, "reader_l2_cross_validated": reader_cv,
              "ranker_l2": ranker_l2, "ranker_l2_cross_validated": cross_validated, "phrasings": len(phrased)}
    return Trained(final_model, ranker, report)
