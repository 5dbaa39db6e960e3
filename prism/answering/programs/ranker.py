"""Choosing a program by meaning: every candidate scored against the question, best first.

Candidates are the operations × the operands the evidence gives × the periods asked
(:func:`candidates`: each operation's :meth:`~.operation.Operation.bindings`). Each is described by features
(:mod:`~.features`) that say how well it fits the question — the reader's probability of its operation, how much of
each operand's label the question names and how much of the question the labels cover, whether its periods are those
asked and in the order asked, whether its result's unit is the one expected, where its figures were retrieved — and,
for the best few, the cosine between the question and the program written as a canonical question
(:meth:`~.operation.Operation.render`; semantic parsing via paraphrasing, Berant & Liang, ACL 2014). A linear model
scores them (a conditional logit over one question's candidates, McFadden 1973), trained on Prism's own question sets
(:mod:`prism.evaluation.training`); its weights live in ``ranker.json`` beside this module.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from prism.answering.programs.evidence import Evidence
from prism.answering.programs.features import FEATURES, describe
from prism.answering.programs.operation import Program, Result, one_unit
from prism.answering.programs.registry import OPERATIONS
from prism.answering.programs.row_names import (
    STATED,
    column_states,
    label_cued,
    named_by_row,
    operation_log_probability,
)
from prism.answering.reading.words import words_of
from prism.index.tokenizer import tokenize
from prism.types.reading import Reading
from prism.vocabulary import question_words

if TYPE_CHECKING:
    from prism.index.embedder import PrismEmbedding

__all__ = ["FEATURES", "RANKER_FILE", "Candidate", "Ranker", "candidates"]

logger = logging.getLogger(__name__)

RANKER_FILE = Path(__file__).with_name("ranker.json")
"""The trained weights (written by :mod:`prism.answering.programs.training`)."""

ACCEPT_FEATURES = ("bias", "op_log_probability", "text_probability", "label_share", "label_least", "label_phrase",
                   "label_named", "column_named", "period_cover", "unit_match", "unit_clash", "render_cosine",
                   "margin", "lookup", "sentence", "unasked_total", "coverage", "question_cover", "label_clash")
"""What decides whether the best program answers, or the sentences do
(:meth:`prism.answering.programs.answer.Choice.accept_features`): a logistic model over these, trained on whether
the best program's result was right (:mod:`prism.evaluation.training`)."""

RERANK = 8
"""How many of the best candidates (by the other features) are also compared with the question by meaning."""

@dataclass
class Candidate:
    """A candidate program with its result, features and score."""

    program: Program
    result: Result
    features: np.ndarray
    score: float = 0.0
    named_by_row: bool = False  # asked only by the name of every row it reads (row_names.label_cued)
    stated: frozenset[str] = frozenset()  # the operations its column states the result of (row_names.column_states)


def candidates(reading: Reading, evidence: Evidence, limit: int = 4000) -> list[Candidate]:
    """Every program the evidence allows, executed, with its features (``render_cosine`` not yet set); programs whose
    result is undefined (a division by zero), computations over a figure whose number convention is unsettled, and
    results of a kind that cannot answer the question (:func:`_unit_refused`) are dropped; at most ``limit`` (logged
    when cut)."""
    rows = {r.key: r for r in evidence.rows}
    words = words_of(reading.text)
    cued = label_cued(evidence, words)
    named_anywhere = frozenset().union(*cued.values())  # "net change in cash balance" names a row, asks no change
    probabilities = dict(reading.operations)
    out: list[Candidate] = []
    seen: set[tuple[str, tuple[tuple[str, int, int], ...], tuple[tuple[str, object], ...]]] = set()
    for name, op in OPERATIONS.items():
        for program in op.bindings(reading, evidence):
            key = (name, tuple((o.table, o.row, o.col) for o in program.operands), program.options)
            if key in seen or (name != "lookup" and any(o.ambiguous for o in program.operands)) \
                    or (op.same_unit and not one_unit(program.operands)):
                continue  # never computed from a figure whose number convention is unsettled, nor across units
            seen.add(key)
            named, stated = named_by_row(name, program, cued), column_states(name, program) - named_anywhere
            program_log_p = operation_log_probability(probabilities, name, named, stated)
            for variant in (program, _magnitude(program)):
                if variant is None:
                    continue
                try:
                    result = op.run(variant, reading)
                except (ArithmeticError, ValueError):
                    continue
                if _unit_refused(reading, variant, result):
                    continue
                features = describe(variant, result, reading, rows, words, program_log_p)
                if reading.operation in stated and reading.operation in STATED:  # the column states the asked
                    # operation's result over the row's periods, as computing it would read them
                    features = features.copy()
                    features[_OVER_PERIODS] = 1.0
                out.append(Candidate(variant, result, features, named_by_row=named, stated=stated))
            if len(out) >= limit:
                logger.info("candidates cut at %d", limit)
                return _outmatched(out)
    return _outmatched(out)


_MATCH, _CLASH, _OUTMATCHED = (FEATURES.index(f) for f in ("unit_match", "unit_clash", "unit_outmatched"))
_OVER_PERIODS = [FEATURES.index(f) for f in ("chronological", "distinct_periods", "latest")]
"""The features a program over a row's periods in time order has: a column stating such a program's result
("Change (%)") has them too."""


def _outmatched(found: list[Candidate]) -> list[Candidate]:
    """``found`` with ``unit_outmatched`` set on each candidate whose unit clashes with the one the question asks
    for while another candidate's result is in that unit ("net income per share" with a per-share result at hand:
    the bare net income is outmatched, not merely in another unit)."""
    if any(c.features[_MATCH] for c in found):
        for c in found:
            c.features[_OUTMATCHED] = c.features[_CLASH]
    return found


_MAGNITUDE_OPERATIONS = frozenset({"change", "percent_change", "average", "sum", "ratio", "share", "cagr"})


def _unit_refused(reading: Reading, program: Program, result: Result) -> bool:
    """Whether ``result``'s kind cannot answer what the question asks, whatever its other features: a sum of money
    for how many things (:func:`_money_for_a_count`); a figure for which item ("Which loan segment grew fastest?":
    an item, or a period, names the answer)."""
    return _money_for_a_count(reading, program, result) \
        or (reading.expected_unit == "label" and result.kind not in ("label", "period"))


def _money_for_a_count(reading: Reading, program: Program, result: Result) -> bool:
    """Whether ``result`` is a sum of money answering a question that asks how many things: a count carries no
    currency ("How many UPI transactions in FY2025?" is not answered by the ₹21.7 crore of a sentence beside the
    count). A question asking how many years, months or days asks a duration, and one whose "number of" qualifies a
    figure ("the total dividend based on the number of shares") asks no count, and one that names a value besides
    what it counts ("How many complaints …, and for what value?"; "How many shares …" counts shares) asks for money
    as well: none of them is concerned."""
    target = reading.target
    if target is None or target.answer_type != "count" or target.head.lower() in question_words.DURATION_NOUNS:
        return False
    counted = {t for w in target.focus for t in tokenize(w)}  # "how many shares": a share counted, no value asked
    return not (_VALUE_NOUNS & reading.tokens) - counted and result.kind in ("amount", "per_unit") \
        and any(o.currency for o in program.operands)


_VALUE_NOUNS = frozenset(tokenize(question_words.VALUE_NOUNS))
"""The index tokens of the nouns that name a value ("value", "amount", "fee"): a question naming one asks for money."""



def _magnitude(program: Program) -> Program | None:
    """The program over the operands' magnitudes when every operand is printed as a negative figure (a cost in
    accounting parentheses, "(5,860)"): reports often compute with the magnitude of such a row. ``None`` otherwise;
    the ranker weighs the variant by its ``magnitude`` feature."""
    if program.operation not in _MAGNITUDE_OPERATIONS or not all(o.value < 0 for o in program.operands):
        return None
    return replace(program, options=(*program.options, ("magnitude", True)), operands=tuple(
        replace(o, value=-o.value, printed=re.sub(r"[()\-−–]", "", o.printed).strip()) for o in program.operands))


_DEFAULT = (1.0, 2.0, 1.5, 1.0, 0.5, 0.5, -1.0, 0.5, 2.0, -2.0, 0.5, 0.5, 0.3, 0.3, 0.3, 0.2, 0.0, -0.3, 0.5, -0.2, 0.5,
            -1.0, -0.5, 1.0, 0.5, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, -1.0, -1.0, 0.0, 0.0, *([0.0] * len(OPERATIONS)))
"""Hand-set weights before training, one per feature but the meaning one."""


@dataclass
class Ranker:
    """The candidate scorer in two stages: ``first`` weights rank every candidate (its meaning weight is 0, the
    cosine not yet computed); ``second`` weights rank the best :data:`RERANK` again with their cosine. ``accept``
    weighs whether the best answers at all (:data:`ACCEPT_FEATURES`), ``None``
    untrained."""

    first: list[float] = field(default_factory=lambda: [*_DEFAULT, 0.0])
    second: list[float] = field(default_factory=lambda: [*_DEFAULT, 2.0])
    accept: list[float] | None = None

    @classmethod
    def load(cls, path: Path = RANKER_FILE) -> Ranker:
        """The weights in ``path``; the hand-set defaults when it is missing or unreadable (logged)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
            accept = data.get("accept")
            # a feature added since the weights were trained weighs nothing until they are trained again
            return cls(first=[float(data["first"].get(f, 0.0)) for f in FEATURES],
                       second=[float(data["second"].get(f, 0.0)) for f in FEATURES],
                       accept=[float(accept.get(f, 0.0)) for f in ACCEPT_FEATURES] if isinstance(accept, dict)
                       else None)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            logger.warning("program ranker %s not used (%s): default weights", Path(path).name, type(exc).__name__)
            return cls()

    def to_json(self, report: dict[str, object] | None = None) -> dict[str, object]:
        """``{"features", "first": {feature: weight}, "second": {…}, "report"}``, for ``ranker.json``."""

        accept = dict(zip(ACCEPT_FEATURES, self.accept, strict=True)) if self.accept is not None else None
        return {"features": list(FEATURES), "first": dict(zip(FEATURES, self.first, strict=True)),
                "second": dict(zip(FEATURES, self.second, strict=True)), "accept": accept, "report": report or {}}

    def rank(self, reading: Reading, found: list[Candidate], embedder: PrismEmbedding | None = None,
             rerank: int = RERANK) -> list[Candidate]:
        """``found`` sorted best first: all by the first stage (ties: generation order), then the best ``rerank``
        by the second, with their cosine to the question when an embedder and the question's vector are given."""
        first = np.asarray(self.first)
        for c in found:
            c.score = float(c.features @ first)
        found.sort(key=lambda c: -c.score)
        top = found[:rerank]
        if embedder is not None and reading.vector is not None and top:
            vectors = embedder.embed([OPERATIONS[c.program.operation].render(c.program) for c in top])
            for c, v in zip(top, vectors, strict=True):
                c.features[-1] = float(np.asarray(v) @ reading.vector)
        second = np.asarray(self.second)
        for c in top:
            c.score = float(c.features @ second)
        top.sort(key=lambda c: -c.score)
        return top + found[rerank:]


def label_tokens(text: str) -> frozenset[str]:
    """Index tokens of a label (for tests and training)."""
    return frozenset(tokenize(text))
