"""The features that say how well a candidate program fits the question (:data:`FEATURES`, :func:`describe`).

How much of each operand's label the question names and how much of the question the labels cover, whether its
periods are those asked and in the order asked, whether its result's unit is the one expected, where its figures were
retrieved, the reader's probability of its operation; the program ranker (:mod:`prism.answering.programs.ranker`)
weighs them.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Sequence

import numpy as np

from prism.answering.metrics.inputs import normalise_label
from prism.answering.programs.columns import header_tokens
from prism.answering.programs.evidence import Row
from prism.answering.programs.groups import GROUP_OF_TABLE, NAMED_GROUP, named_share
from prism.answering.programs.naming import equivalent_tokens, shortened_tokens
from prism.answering.programs.operation import Operand, Program, Result
from prism.answering.programs.registry import OPERATIONS
from prism.answering.reading.words import phrase_in
from prism.index.statements import ITEMS
from prism.index.tokenizer import tokenize
from prism.retrieval.periods import find_periods, is_period_code
from prism.types.reading import PeriodMention, Reading

__all__ = ["FEATURES", "describe", "stated_words"]

FEATURES = ("op_log_probability", "label_share", "label_least", "coverage", "label_phrase", "context_share",
            "unasked_total", "asked_total", "period_cover", "period_extra", "periods_match", "latest", "chronological",
            "question_order", "item_order", "same_row", "operands", "sentence", "retrieval", "beside", "unit_match",
            "unit_clash", "mixed_kinds", "label_named", "column_named", "magnitude", "percent_difference",
            "percent_relative", "year_before", "distinct_periods", "figure_words", "unit_outmatched", "head_unasked",
            "question_cover", "label_clash", *(f"op_{name}" for name in OPERATIONS), "render_cosine")
"""The candidate features, in the weights' order."""

_COMPATIBLE = {"percent": {"percent"}, "points": {"points", "bps"}, "bps": {"bps", "points"},
               "count": {"count", "number"},  # "How many employees": a plain number row ("Employees 3,412") counts
               "ratio": {"ratio"}, "period": {"period"}, "label": {"label"}, "per_share": {"per_unit"}}




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
    abbreviation: :func:`~prism.answering.programs.naming.equivalent_tokens`); a label of generic words only
    ("Other", "Total") counts when the question writes it whole; a label that names only a period ("FY2023") names no
    figure and counts 0."""
    named = frozenset(t for t in tokens if not is_period_code(t, years=True))
    if named:
        return len(named & (reading.tokens | equivalent_tokens(label, reading))) / len(named)
    return 1.0 if not tokens and label and phrase_in(label.lower(), words) else 0.0  # a period names no figure


_NEXT_FIGURE = re.compile(r"[;,.(]\s|\d")


_HEAD = re.compile(r"^\s*([A-Za-z][\w'’-]*(?:\s+[A-Za-z][\w'’-]*){0,2})\s+of\s+\S", re.IGNORECASE)
"""A label naming another quantity of a thing: one to three words before "of" ("Cost of license and subscription
revenue", "Percentage of revenue")."""

_SAME_QUANTITY = frozenset(tokenize("amount number value total sum balance"))
"""Heads that name the thing itself ("Amount of goodwill", "Balance of deferred revenue", "Number of shares" asked as
"how many shares")."""


_LINKS = frozenset({"from", "in", "for", "to", "on", "by", "at", "and", "or", "with", "the", "a", "an"})
"""Words that make the words before "of" a phrase of their own, not a head ("Proceeds from sale of assets")."""


@functools.cache
def _head(label: str) -> frozenset[str]:
    """The index tokens of a label's head when it names another quantity of a thing (:data:`_HEAD`: "Cost of
    license and subscription revenue" → {"cost"}), else empty."""
    m = _HEAD.match(label)
    if m is None or any(w.lower() in _LINKS for w in m.group(1).split()):
        return frozenset()
    return frozenset(tokenize(m.group(1))) - _SAME_QUANTITY


def _head_unasked(members: Sequence[Row], reading: Reading) -> float:
    """1.0 when a row read is another quantity of the thing the question names: its label's head ("Cost" of "Cost
    of license and subscription revenue") is not among the question's words ("What was the License and subscription
    revenue in 2019?"), else 0.0."""
    return 1.0 if any((head := _head(r.label)) and not head & reading.tokens for r in members) else 0.0


_JOINS = re.compile(r"\b(?:and|but|while|whereas|against|versus|vs|compared\s+(?:with|to))\b", re.IGNORECASE)
"""Words joining two figures' clauses in one sentence ("2.1% in personal loans and 3.4% in credit cards")."""
_NAMED_AFTER = re.compile(r"\s*(?:of|in|for|on|at|under|across|among)\b", re.IGNORECASE)
"""A figure followed by one of these is named by the words after it too ("3.4% in credit cards", "61% of value")."""


def _figure_words(operand: Operand, reading: Reading) -> float:
    """For a figure stated in a sentence, the share of the words naming it, less those naming a period, that the
    question names: which of a sentence's figures is asked. The words naming it precede it back to the last figure
    or punctuation mark, and after another figure from the last word joining the two ("and", "but", "while",
    "against"): "return on assets was 1.52% and return on equity 15.1%" names 15.1% "return on equity"; they
    follow it when they open with a preposition, up to the next figure, mark or joining word ("Gross NPA was 2.1%
    in personal loans and 3.4% in credit cards": "Gross NPA … personal loans", "credit cards"; "61% of volume but
    34% of value"). 0.0 for a table cell."""
    if operand.source != "sentence":
        return 0.0
    tokens = _naming_tokens(operand.label, operand.printed.strip())
    return len(tokens & reading.tokens) / len(tokens) if tokens else 0.0


@functools.lru_cache(maxsize=8192)
def _naming_tokens(sentence: str, figure: str) -> frozenset[str]:
    """The index tokens of the words naming ``figure`` in ``sentence`` (:func:`_figure_words`), without the periods
    it names ("for fiscal 2019")."""
    at = sentence.find(figure)
    if at < 0:
        return frozenset()
    for period in find_periods(sentence):  # blanked, the same length: a period's digits are no figure
        sentence = sentence.replace(period.text, " " * len(period.text)) if period.text != figure else sentence
    before = sentence[:at]
    last = max((m.end() for m in _NEXT_FIGURE.finditer(before)), default=0)
    before = before[last:]
    joins = list(_JOINS.finditer(before)) if last else []
    before = before[joins[-1].end():] if joins else before
    after = sentence[at + len(figure):]
    stop = _NEXT_FIGURE.search(after)
    after = after[:stop.start()] if stop else after
    join = _JOINS.search(after)
    after = after[:join.start()] if join else after
    words = f"{before} {after if _NAMED_AFTER.match(after) else ''}"
    return frozenset(t for t in tokenize(words) if not is_period_code(t, years=True))


def stated_words(operands: Sequence[Operand], rows: Sequence[Row]) -> frozenset[str]:
    """Every index token the figures ``operands`` read are stated with: ``rows``' (theirs) label tokens and context
    (heading, title, a sentence's words) and the column headers of the table cells among them."""
    said: set[str] = set()
    for row in rows:
        said |= row.tokens | row.context
    for o in operands:
        if o.source == "cell":
            said |= header_tokens(o.column)
    return frozenset(said)


def _question_cover(reading: Reading, said: set[str] | frozenset[str]) -> float:
    """The share of the question's index tokens, less those naming a period, that the candidate's figures are
    stated with (their labels or sentences, headings, titles and columns): the recall of the question's words, where
    ``label_share`` is the label's. "How many million of trade accounts receivable were sold without recourse" is
    the sentence stating the sale, not the balance row "Trade accounts receivable"."""
    asked = [t for t in reading.tokens if not is_period_code(t, years=True)]
    return sum(1 for t in asked if t in said) / len(asked) if asked else 0.0


def _label_clash(members: Sequence[Row], reading: Reading, said: set[str] | frozenset[str]) -> float:
    """1.0 when a table row read names another kind of the thing asked: its label has a word the question does not
    write and the question's mentions have a word the row is not stated with (its label, heading, title, columns),
    "Provision coverage ratio" for "the liquidity coverage ratio", "Credit cost" for "the cost of deposits"; else
    0.0 (a sentence's words are many: it says nothing of them)."""
    unasked = reading.mention_tokens - said
    if not unasked:
        return 0.0
    for row in members:
        if row.figures and row.figures[0].source == "cell" and any(
                t not in reading.tokens and not is_period_code(t, years=True) for t in row.tokens):
            return 1.0
    return 0.0


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


def _asked_of(program: Program, reading: Reading) -> list[PeriodMention]:
    """The periods the question asks of ``program``: every period asked, but of a range ("from Q2 FY24 to Q2 FY25")
    only its two ends for an operation in time order (a change runs between the ends; an average takes them all)."""
    from prism.answering.programs.periods import asked_periods

    periods = asked_periods(reading)
    if OPERATIONS[program.operation].in_time_order:
        return [p for p in periods if "…" not in p.text] or periods
    return periods


def _period_position(program: Program, periods: Sequence[PeriodMention]) -> list[int]:
    """For each operand, the position of the asked period (of ``periods``) it is in (-1 when in none)."""
    from prism.answering.programs.periods import matches_period

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


def _mixed_kinds(operands: Sequence[Operand]) -> bool:
    """Whether the operands are figures of different kinds (an amount and a percent). A column of a table is one
    kind however its cells are printed: a filing prints the currency sign on a column's first row and its totals
    only ("$30,191" over "12,899"), so an ``amount`` and a bare ``number`` in one column are not mixed."""
    kinds = {("amount" if o.kind == "number" and any(p.kind == "amount" and (p.table, p.col) == (o.table, o.col)
                                                     for p in operands if p.source == "cell") else o.kind)
             for o in operands}
    return len(kinds) > 1


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


def _misplaced_total(program: Program, reading: Reading) -> bool:
    """Whether a share question names a total ("What share of total deposits are savings deposits?": the share's
    whole) and the program reads a total in another role than a share's whole (the Total row's own 100 %)."""
    return reading.names_total and reading.operation == "share" and any(
        o.total and not (program.operation == "share" and o is program.operands[-1]) for o in program.operands)


def describe(program: Program, result: Result, reading: Reading, rows: dict[tuple[str, int], Row],
             words: Sequence[str], log_probability: float) -> np.ndarray:
    """The features of one candidate (:data:`FEATURES`, the last, ``render_cosine``, left 0)."""

    operands = program.operands
    series = list(dict.fromkeys(o.series for o in operands))
    members = _members(program, reading, [rows[s] for s in series if s in rows])
    naming = [_row_tokens(r, reading) for r in members]
    shares = [_label_share(tokens, r.label, reading, words) for tokens, r in zip(naming, members, strict=True)] or [0.0]
    labels = set().union(*naming, *(shortened_tokens(r.label, reading) for r in members)) if members else set()
    context = set().union(*(r.context for r in members)) if members else set()
    mention_tokens = reading.mention_tokens
    coverage = len(mention_tokens & (labels | context)) / len(mention_tokens) if mention_tokens else 0.0
    asked = _asked_of(program, reading)
    positions = _period_position(program, asked)
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
    misplaced = _misplaced_total(program, reading)
    percents = all(o.kind == "percent" for o in operands)
    named = len(mention_tokens & labels) / len(mention_tokens) if mention_tokens else 0.0
    headers = [header_tokens(o.column) for o in operands if o.source == "cell"]
    column_named = sum(1 for h in headers if h and h & reading.tokens) / len(headers) if headers else 0.0
    said = labels | stated_words(operands, members)
    several = len(operands) > 1  # one figure is neither one row's nor several periods' figures: those say nothing
    return np.array([
        log_probability, _mean(shares), float(min(shares)), coverage,
        1.0 if any(r.label and phrase_in(r.label.lower(), words) for r in members) else 0.0,
        len(context & reading.tokens) / max(len(reading.tokens), 1),
        1.0 if any(o.total for o in operands) and (not total_asked or misplaced) else 0.0,
        1.0 if any(o.total for o in operands) and total_asked and not misplaced else 0.0,
        len(set(in_asked)) / len(asked) if asked else 0.0,
        sum(1 for p in positions if p < 0) / len(operands) if asked else 0.0,
        1.0 if asked and len({o.when for o in operands}) == len(asked) else 0.0,
        latest, chrono, order, item_order, 1.0 if len(series) == 1 and several else 0.0, math.log(len(operands)),
        1.0 if any(o.source == "sentence" for o in operands) else 0.0,
        _mean([1.0 / max(o.rank, 1) for o in operands]),
        1.0 if any(o.chunk is not None for o in operands) else 0.0,
        match, clash, 1.0 if _mixed_kinds(operands) else 0.0, named, column_named,
        1.0 if program.option("magnitude") else 0.0,
        1.0 if percents and program.operation == "change" else 0.0,
        1.0 if percents and program.operation in ("percent_change", "ratio", "share") else 0.0,
        1.0 if len(asked) == 1 and len(operands) == 2 and len(series) == 1
        and sorted(o.when[0] for o in operands) == [asked[0].year - 1, asked[0].year] else 0.0,
        1.0 if several and len({o.when for o in operands}) == len(operands) else 0.0,
        _mean([_figure_words(o, reading) for o in operands]), 0.0, _head_unasked(members, reading),
        _question_cover(reading, said), _label_clash(members, reading, said),
        *(1.0 if program.operation == name else 0.0 for name in OPERATIONS), 0.0,
    ])
