"""Choosing a program by meaning: every candidate scored against the question, best first.

Candidates are the operations × the operands the evidence gives × the periods asked
(:func:`candidates`: each operation's :meth:`~.operation.Operation.bindings`). Each is described by features that
say how well it fits the question — the reader's probability of its operation, how much of each operand's label
the question names and how much of the question the labels cover, whether its periods are those asked and in the
order asked, whether its result's unit is the one expected, where its figures were retrieved — and, for the best
few, the cosine between the question and the program written as a canonical question (:meth:`~.operation.Operation.
render`; semantic parsing via paraphrasing, Berant & Liang, ACL 2014). A linear model scores them (a conditional
logit over one question's candidates, McFadden 1973), trained on Prism's own question sets
(:mod:`prism.answering.programs.training`); its weights live in ``ranker.json`` beside this module.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from prism.answering.metrics.inputs import normalise_label
from prism.answering.programs.columns import header_tokens
from prism.answering.programs.evidence import Evidence, Row
from prism.answering.programs.groups import GROUP_OF_TABLE, NAMED_GROUP, named_share
from prism.answering.programs.operation import Operand, Program, Result
from prism.answering.programs.registry import OPERATIONS
from prism.answering.programs.row_names import label_cued, named_by_row, operation_log_probability
from prism.answering.reading.words import phrase_in, words_of
from prism.index.statements import ITEMS
from prism.index.tokenizer import tokenize
from prism.types.reading import Reading

if TYPE_CHECKING:
    from prism.index.embedder import PrismEmbedding

__all__ = ["FEATURES", "RANKER_FILE", "Candidate", "Ranker", "candidates"]

logger = logging.getLogger(__name__)

RANKER_FILE = Path(__file__).with_name("ranker.json")
"""The trained weights (written by :mod:`prism.answering.programs.training`)."""

FEATURES = ("op_log_probability", "label_share", "label_least", "coverage", "label_phrase", "context_share",
            "unasked_total", "asked_total", "period_cover", "period_extra", "periods_match", "latest", "chronological",
            "question_order", "item_order", "same_row", "operands", "sentence", "retrieval", "beside", "unit_match",
            "unit_clash", "mixed_kinds", "label_named", "column_named", "magnitude", "percent_difference",
            "percent_relative", "year_before", "distinct_periods", "figure_words", "unit_outmatched",
            *(f"op_{name}" for name in OPERATIONS), "render_cosine")
"""The candidate features, in the weights' order."""

ACCEPT_FEATURES = ("bias", "op_log_probability", "text_probability", "label_share", "label_least", "label_phrase",
                   "label_named", "column_named", "period_cover", "unit_match", "unit_clash", "render_cosine",
                   "margin", "lookup", "sentence", "unasked_total", "coverage")
"""What decides whether the best program answers, or the sentences do
(:meth:`prism.answering.programs.answer.Choice.accept_features`): a logistic model over these, trained on whether
the best program's result was right (:mod:`prism.evaluation.training`)."""

RERANK = 8
"""How many of the best candidates (by the other features) are also compared with the question by meaning."""

_COMPATIBLE = {"percent": {"percent"}, "points": {"points", "bps"}, "bps": {"bps", "points"},
               "count": {"count", "number"},  # "How many employees": a plain number row ("Employees 3,412") counts
               "ratio": {"ratio"}, "period": {"period"}, "label": {"label"}, "per_share": {"per_unit"}}


@dataclass
class Candidate:
    """A candidate program with its result, features and score."""

    program: Program
    result: Result
    features: np.ndarray
    score: float = 0.0
    named_by_row: bool = False  # asked only by the name of every row it reads (row_names.label_cued)


_PERIOD_TOKEN = re.compile(r"(?:fy|cy|q[1-4]|h[12]|[1-4]q|q[1-4]fy|h[12]fy)?\d{2,4}|(?:fy|q[1-4]|h[12])")
"""An index token naming a period ("fy2023", "2019", "q1fy2024", "q3"): it names when, not what."""


@functools.cache
def _item_tokens(label: str, items: tuple[str, ...], said: tuple[str, ...]) -> frozenset[str] | None:
    """The index tokens of the name of the line item among ``items`` (the question's,
    :attr:`~prism.types.reading.Reading.items`) a row label holds under one of its labels
    (:attr:`~prism.vocabulary.statements.LineItem.labels`: "Technology and development" is Netflix's "research and
    development"), and of the words ``said`` the question names it by ("net earnings" for a "Net profit (PAT)" row;
    :attr:`~prism.types.reading.Reading.item_words`), or ``None`` when it holds none of them."""
    name = normalise_label(label)
    for key, words in zip(items, said or ("",) * len(items), strict=True):
        if name in ITEMS[key].labels:
            return frozenset(tokenize(ITEMS[key].name)) | frozenset(tokenize(words))
    return None


def _row_tokens(row: Row, reading: Reading) -> frozenset[str]:
    """The tokens by which the question can name a row: its label's, and, for a row holding a line item the
    question names under the company's own name (:attr:`~prism.types.reading.Reading.items`), that item's name
    in place of the label's words the question does not write."""
    if not reading.items:
        return row.tokens
    item = _item_tokens(row.label, reading.items, reading.item_words)
    return row.tokens if item is None else item | (row.tokens & reading.tokens)


def _label_share(tokens: frozenset[str], label: str, reading: Reading, words: Sequence[str]) -> float:
    """The share of a label's tokens, less those naming a period, the question names (as written or through an
    abbreviation: :func:`~prism.answering.programs.binding.equivalent_tokens`); a label of generic words only
    ("Other", "Total") counts when the question writes it whole; a label that names only a period ("FY2023") names no
    figure and counts 0."""
    named = frozenset(t for t in tokens if not _PERIOD_TOKEN.fullmatch(t))
    if named:
        from prism.answering.programs.binding import equivalent_tokens

        return len(named & (reading.tokens | equivalent_tokens(label, reading))) / len(named)
    return 1.0 if not tokens and label and phrase_in(label.lower(), words) else 0.0  # a period names no figure


_NEXT_FIGURE = re.compile(r"[;,.(]\s|\d")


def _figure_words(operand: Operand, reading: Reading) -> float:
    """For a figure stated in a sentence, the share of the words naming it that the question names: which of a
    sentence's figures is asked. The words naming it follow it when they start with "of" ("61% of volume but 34% of
    value": "of volume but", "of value"), else they precede it back to the last figure or punctuation mark ("return
    on assets was 1.52% and return on equity 15.1%": "and return on equity" names 15.1%). 0.0 for a table cell."""
    if operand.source != "sentence":
        return 0.0
    figure = operand.printed.strip()
    at = operand.label.find(figure)
    if at < 0:
        return 0.0
    after = operand.label[at + len(figure):]
    stop = _NEXT_FIGURE.search(after)
    after = after[:stop.start()] if stop else after
    if not after.lstrip().lower().startswith("of "):  # "return on equity 15.1%": the name comes before the figure
        before = operand.label[:at]
        last = max((m.end() for m in _NEXT_FIGURE.finditer(before)), default=0)
        after = before[last:]
    tokens = frozenset(tokenize(after))
    return len(tokens & reading.tokens) / len(tokens) if tokens else 0.0


def _mean(values: Sequence[float]) -> float:
    """The mean of a few numbers (``numpy.mean`` costs more than the sum for the handful a candidate has)."""
    return float(sum(values) / len(values))


def _position(tokens: frozenset[str], reading: Reading) -> int:
    """Which of the question's mentions names a row of ``tokens`` best (its mention order), or a large number when
    none shares a token: the mention whose tokens and the row's overlap most (Jaccard), the first of equals.
    "current deferred revenue to non-current deferred revenue": the row "Deferred revenue (non-current)" shares
    words with both mentions but is the second one whole."""
    best, at = 0.0, 99
    for i, mention in enumerate(reading.mentions):
        named = set(mention.tokens)
        shared = len(tokens & named)
        if shared and shared / len(tokens | named) > best:
            best, at = shared / len(tokens | named), i
    return at


def _period_position(program: Program, reading: Reading) -> list[int]:
    """For each operand, the position of the asked period it is in (-1 when in none)."""
    from prism.answering.programs.periods import asked_periods, matches_period

    periods = asked_periods(reading)
    return [next((i for i, p in enumerate(periods) if matches_period(p, o)), -1) for o in program.operands]


def _chronology(whens: list[tuple[int, int]]) -> float:
    """For two operands of different, known periods: 1.0 when the first is the earlier, -1.0 when the later, else
    0.0."""
    if len(whens) == 2 and whens[0] != whens[1] and (0, 0) not in whens:
        return 1.0 if whens[0] < whens[1] else -1.0
    return 0.0


def _period_order(in_asked: list[int], n_operands: int) -> float:
    """For two operands in two different asked periods (``in_asked``: their positions among the asked periods): 1.0
    when they are in the order the question names the periods, -1.0 when reversed; else 0.0."""
    if len(in_asked) == 2 and n_operands == 2 and in_asked[0] != in_asked[1]:
        return 1.0 if in_asked[0] < in_asked[1] else -1.0
    return 0.0


def _item_order(members: list[Row], reading: Reading, operation: str) -> float:
    """For two line items both named by the question at different positions: 1.0 when in the order the question
    names them, -1.0 when reversed; else 0.0. A multiple ("how many times B was A", the reading's ``multiple``
    flag) names its divisor first, and a difference "A minus B" (``minuend_first``) the figure subtracted from, so
    their order is the reverse (a change runs from its first operand to its second)."""
    if len(members) != 2:
        return 0.0
    a, b = (_position(m.tokens, reading) for m in members)
    order = 0.0 if a == b or 99 in (a, b) else 1.0 if a < b else -1.0
    reverse = "multiple" in reading.flags or operation == "change" and "minuend_first" in reading.flags
    return -order if reverse else order


def _members(program: Program, reading: Reading, members: list[Row]) -> list[Row]:
    """The rows a program's labels are matched with: its operands' rows, or for the items under a heading or a
    total that the question names ("components of deferred tax assets", "which country had the highest total
    external revenue"), one row named by the group, since the question names the group, not each item."""
    group = program.option("group")
    if members and "items" in (program.option("of"), program.option("over")) and group and group != GROUP_OF_TABLE \
            and named_share(group, reading) >= NAMED_GROUP:
        first = members[0]
        return [Row(first.key, group, frozenset(tokenize(group)), first.figures, first.heading, first.title, False,
                    frozenset().union(*(r.context for r in members)))]
    return members


def describe(program: Program, result: Result, reading: Reading, rows: dict[tuple[str, int], Row],
             words: Sequence[str], log_probability: float) -> np.ndarray:
    """The features of one candidate (:data:`FEATURES`, the last, ``render_cosine``, left 0)."""
    from prism.answering.programs.periods import asked_periods

    operands = program.operands
    series = list(dict.fromkeys(o.series for o in operands))
    members = _members(program, reading, [rows[s] for s in series if s in rows])
    naming = [_row_tokens(r, reading) for r in members]
    shares = [_label_share(tokens, r.label, reading, words) for tokens, r in zip(naming, members, strict=True)] or [0.0]
    labels = set().union(*naming) if members else set()
    context = set().union(*(r.context for r in members)) if members else set()
    mention_tokens = reading.mention_tokens
    coverage = len(mention_tokens & (labels | context)) / len(mention_tokens) if mention_tokens else 0.0
    asked = asked_periods(reading)
    positions = _period_position(program, reading)
    in_asked = [p for p in positions if p >= 0]
    chrono = _chronology([o.when for o in operands]) if OPERATIONS[program.operation].in_time_order else 0.0
    order = _period_order(in_asked, len(operands))
    item_order = _item_order(members, reading, program.operation)
    latest = 0.0
    if not asked and members:
        newest = max((f.when for r in members for f in r.figures), default=(0, 0))
        latest = 1.0 if any(o.when == newest for o in operands) else 0.0
    expected = reading.expected_unit
    match = clash = 0.0
    if expected is not None and result.kind != "yes_no":
        ok = result.kind in _COMPATIBLE.get(expected, {expected})
        match, clash = (1.0, 0.0) if ok else (0.0, 1.0)
    total_asked = reading.names_total
    percents = all(o.kind == "percent" for o in operands)
    named = len(mention_tokens & labels) / len(mention_tokens) if mention_tokens else 0.0
    headers = [header_tokens(o.column) for o in operands if o.source == "cell"]
    column_named = sum(1 for h in headers if h and h & reading.tokens) / len(headers) if headers else 0.0
    return np.array([
        log_probability, _mean(shares), float(min(shares)), coverage,
        1.0 if any(r.label and phrase_in(r.label.lower(), words) for r in members) else 0.0,
        len(context & reading.tokens) / max(len(reading.tokens), 1),
        1.0 if any(o.total for o in operands) and not total_asked else 0.0,
        1.0 if any(o.total for o in operands) and total_asked else 0.0,
        len(set(in_asked)) / len(asked) if asked else 0.0,
        sum(1 for p in positions if p < 0) / len(operands) if asked else 0.0,
        1.0 if asked and len({o.when for o in operands}) == len(asked) else 0.0,
        latest, chrono, order, item_order, 1.0 if len(series) == 1 else 0.0, math.log(len(operands)),
        1.0 if any(o.source == "sentence" for o in operands) else 0.0,
        _mean([1.0 / max(o.rank, 1) for o in operands]),
        1.0 if any(o.chunk is not None for o in operands) else 0.0,
        match, clash, 1.0 if len({o.kind for o in operands}) > 1 else 0.0, named, column_named,
        1.0 if program.option("magnitude") else 0.0,
        1.0 if percents and program.operation == "change" else 0.0,
        1.0 if percents and program.operation in ("percent_change", "ratio", "share") else 0.0,
        1.0 if len(asked) == 1 and len(operands) == 2 and len(series) == 1
        and sorted(o.when[0] for o in operands) == [asked[0].year - 1, asked[0].year] else 0.0,
        1.0 if len({o.when for o in operands}) == len(operands) else 0.0,
        _mean([_figure_words(o, reading) for o in operands]), 0.0,
        *(1.0 if program.operation == name else 0.0 for name in OPERATIONS), 0.0,
    ])


def candidates(reading: Reading, evidence: Evidence, limit: int = 4000) -> list[Candidate]:
    """Every program the evidence allows, executed, with its features (``render_cosine`` not yet set); programs whose
    result is undefined (a division by zero), and computations over a figure whose number convention is unsettled,
    are dropped; at most ``limit`` (logged when cut)."""
    rows = {r.key: r for r in evidence.rows}
    words = words_of(reading.text)
    cued = label_cued(evidence, words)
    probabilities = dict(reading.operations)
    out: list[Candidate] = []
    seen: set[tuple[str, tuple[tuple[str, int, int], ...], tuple[tuple[str, object], ...]]] = set()
    for name, op in OPERATIONS.items():
        for program in op.bindings(reading, evidence):
            key = (name, tuple((o.table, o.row, o.col) for o in program.operands), program.options)
            if key in seen or (name != "lookup" and any(o.ambiguous for o in program.operands)):
                continue  # never computed from a figure whose number convention is unsettled
            seen.add(key)
            named = named_by_row(name, program, cued)
            program_log_p = operation_log_probability(probabilities, name, named)
            for variant in (program, _magnitude(program)):
                if variant is None:
                    continue
                try:
                    result = op.run(variant, reading)
                except (ArithmeticError, ValueError):
                    continue
                out.append(Candidate(variant, result, describe(variant, result, reading, rows, words,
                                                               program_log_p), named_by_row=named))
            if len(out) >= limit:
                logger.info("candidates cut at %d", limit)
                return _outmatched(out)
    return _outmatched(out)


_MATCH, _CLASH, _OUTMATCHED = (FEATURES.index(f) for f in ("unit_match", "unit_clash", "unit_outmatched"))


def _outmatched(found: list[Candidate]) -> list[Candidate]:
    """``found`` with ``unit_outmatched`` set on each candidate whose unit clashes with the one the question asks
    for while another candidate's result is in that unit ("net income per share" with a per-share result at hand:
    the bare net income is outmatched, not merely in another unit)."""
    if any(c.features[_MATCH] for c in found):
        for c in found:
            c.features[_OUTMATCHED] = c.features[_CLASH]
    return found


_MAGNITUDE_OPERATIONS = frozenset({"change", "percent_change", "average", "sum", "ratio", "share", "cagr"})


def _magnitude(program: Program) -> Program | None:
    """The program over the operands' magnitudes when every operand is printed as a negative figure (a cost in
    accounting parentheses, "(5,860)"): reports often compute with the magnitude of such a row. ``None`` otherwise;
    the ranker weighs the variant by its ``magnitude`` feature."""
    if program.operation not in _MAGNITUDE_OPERATIONS or not all(o.value < 0 for o in program.operands):
        return None
    return replace(program, options=(*program.options, ("magnitude", True)), operands=tuple(
        replace(o, value=-o.value, printed=re.sub(r"[()\-−–]", "", o.printed).strip()) for o in program.operands))


_DEFAULT = (1.0, 2.0, 1.5, 1.0, 0.5, 0.5, -1.0, 0.5, 2.0, -2.0, 0.5, 0.5, 0.3, 0.3, 0.3, 0.2, 0.0, -0.3, 0.5, -0.2, 0.5,
            -1.0, -0.5, 1.0, 0.5, -1.0, 0.0, 0.0, 0.0, 0.0, 1.0, -1.0, *([0.0] * len(OPERATIONS)))
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
