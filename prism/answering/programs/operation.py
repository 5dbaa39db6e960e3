"""The program language for figures: operands, programs, results, and the :class:`Operation` each module defines.

A question asking for a figure is answered by a *program*: one operation of the registry
(:mod:`prism.answering.programs.registry`) applied to operands read from the evidence — table cells and figures
stated in sentences, each with its label, period, unit and citation — in the spirit of FinQA's program DSL (Chen et
al., "FinQA: A Dataset of Numerical Reasoning over Financial Data", EMNLP 2021) and TAGOP's operators (Zhu et al.,
ACL 2021). Every operation declares its operand roles, canonical phrasings (how an analyst asks for it: the reader
compares questions with them), the words that propose it, its unit rule, its exact executor (:class:`~decimal.
Decimal`) and how its work is shown. Adding an operation is one module defining an :class:`Operation` and one line in
the registry.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar, Literal

from prism.types import RetrievedChunk
from prism.types.reading import Intent, Reading

Kind = Literal["amount", "percent", "points", "bps", "ratio", "count", "per_unit", "number", "period", "label",
               "yes_no"]
"""What a figure or a result is: an ``amount`` in a currency and scale, a ``percent``, a change of percentages in
``points`` or ``bps``, a ``ratio`` (no unit), a ``count``, a ``per_unit`` amount (per share: the currency without
the table's scale), a bare ``number``; a result may also be a ``period`` or a ``label`` (which year, which item) or a
``yes_no`` answer."""


NAME_WORDS = 8
"""How many words each side of a figure in a sentence name it (:attr:`Operand.name`)."""


@dataclass(frozen=True)
class Operand:
    """One figure a program reads: a table cell, or a figure stated in a sentence.

    Attributes:
        label: the row's label as printed ("Net income"); for a figure in a sentence, the words naming it.
        column: the column header as printed ("2019", "Year ended 31 March 2025"); for a sentence figure, the words
            naming its period, or ``""``.
        period: the fiscal period the column or sentence names (``"FY2019"``, ``"Q2 FY2025"``), or ``None``.
        when: ``(year, part)`` for ordering in time (``(0, 0)`` when unknown).
        printed: the figure as printed ("(1,837)", "$1,452.4", "3.40%").
        value: the figure as a number, sign applied, in the printed scale.
        unit: the scale (``thousands``, ``millions``, ``billions``, ``lakh``, ``crore``) or ``None``.
        currency: ISO 4217 code or ``None``.
        kind: ``amount``, ``percent``, ``count``, ``per_unit`` or ``number``.
        block: the citation block holding it (1-based over the retrieved chunks, then the chunks added).
        source: ``cell`` or ``sentence``.
        table: the key of its table (``doc_id/table_id``) or sentence (``chunk_id#n``).
        row, col: its row (document order within the table) and column; ``-1`` for a sentence.
        total: the row is a total or subtotal ("Total revenue", an unlabelled sum).
        heading: the section heading over the row ("Deferred tax assets:"), or ``""``.
        title: the table's title or caption, or ``""``.
        rank: the retrieval rank of the chunk it was read through (1 = best).
        chunk: the chunk holding it when that chunk was not retrieved (another chunk of a retrieved table).
        ambiguous: its table's cells did not settle the number convention ("1.246": 1,246 or 1.246): it is quoted
            with a note and never computed with.
    """

    label: str
    column: str
    period: str | None
    when: tuple[int, int]
    printed: str
    value: Decimal
    unit: str | None
    currency: str | None
    kind: Kind
    block: int
    source: Literal["cell", "sentence"] = "cell"
    table: str = ""
    row: int = -1
    col: int = -1
    total: bool = False
    heading: str = ""
    title: str = ""
    rank: int = 1
    chunk: RetrievedChunk | None = field(default=None, compare=False, repr=False)
    ambiguous: bool = False

    @property
    def name(self) -> str:
        """What the figure is, in a few words: the row's label for a cell; for a figure in a sentence, the clause
        holding it (between the punctuation marks around it, at most :data:`NAME_WORDS` words each side: "P2M
        transactions were 61% of volume but 34% of value" → "61% of volume but 34% of value")."""
        if self.source != "sentence":
            return self.label
        at = self.label.find(self.printed.strip())
        if at < 0:
            return " ".join(self.label.split()[:2 * NAME_WORDS])
        start = max(self.label.rfind(mark, 0, at) for mark in ";:,(")
        ends = [e for e in (self.label.find(mark, at + len(self.printed.strip())) for mark in ";,)") if e >= 0]
        before = self.label[start + 1:at].split()[-NAME_WORDS:]
        after = self.label[at:min(ends) if ends else len(self.label)].rstrip(" .").split()[:NAME_WORDS + 1]
        return " ".join(before + after)

    @property
    def series(self) -> tuple[str, int]:
        """The row it belongs to: ``(table, row)`` (a sentence's figures are one row, ``row`` -1)."""
        return self.table, self.row


@dataclass(frozen=True)
class Row:
    """One row of figures: a table row, or the figures of one sentence.

    Attributes:
        key: ``(table, row)`` (:attr:`Operand.series`).
        label: the label as printed (for a sentence, the sentence).
        tokens: the label's index tokens.
        figures: its figures, left to right.
        heading, title: the section heading over it and its table's title (``""`` when none).
        total: a total or subtotal row.
        context: index tokens of its heading, title and column headers (words that qualify every figure).
    """

    key: tuple[str, int]
    label: str
    tokens: frozenset[str]
    figures: tuple[Operand, ...]
    heading: str = ""
    title: str = ""
    total: bool = False
    context: frozenset[str] = frozenset()


@dataclass
class Evidence:
    """What the retrieved chunks give a program.

    Attributes:
        rows: every row of figures (table rows first, in retrieval then document order; then sentences).
        tables: each table's rows in document order, section rows (no figures) included as ``(label, None)``.
        chunks: the retrieved chunks (block ``n`` is ``chunks[n - 1]``).
    """

    rows: list[Row] = field(default_factory=list)
    tables: dict[str, list[tuple[str, Row | None]]] = field(default_factory=dict)
    chunks: Sequence[RetrievedChunk] = ()

    @property
    def empty(self) -> bool:
        """No figure at all."""
        return not self.rows


@dataclass(frozen=True)
class Program:
    """One operation applied to operands, in the order of its roles.

    Attributes:
        operation: the operation's registry name (``"percent_change"``).
        operands: the figures bound to its roles (a variadic role takes several).
        options: settings read from the question (``(("bps", True),)``, ``(("rank", 2),)``), as pairs.
    """

    operation: str
    operands: tuple[Operand, ...]
    options: tuple[tuple[str, Any], ...] = ()

    def option(self, key: str, default: Any = None) -> Any:
        """The option ``key``, or ``default``."""
        return next((v for k, v in self.options if k == key), default)

    @property
    def parts(self) -> tuple[tuple[Operand, ...], tuple[Operand, ...]]:
        """``(first operand's figures, the other operands)``: the first role's figures are the first ``parts`` option
        operands (several added up: "A and B as a percentage of total"), one when the option is not set."""
        n = int(self.option("parts", 1))
        return self.operands[:n], self.operands[n:]


@dataclass(frozen=True)
class Result:
    """A program's outcome.

    Attributes:
        value: the unrounded result (a ratio for a percentage: -0.2222), or ``None`` for a period, label or yes/no.
        shown: the result as shown, rounded (-22.22), or ``None``.
        kind: the result's :data:`Kind`, from the operation's unit rule.
        text: the result as written in the answer ("-$12.6 million", "-22.22 %", "2019", "Yes").
        aside: what is written beside it ("(-22.22 %)" beside an amount change), or ``""``.
        work: the calculation as shown ("44.1 − 56.7 = -$12.6 million"), or ``""``.
        picked: the operands that answer (the highest period, the items listed), by position.
        percents: percentage changes stated beside the result, as ratios, for the number check.
    """

    value: Decimal | None
    shown: Decimal | None
    kind: Kind
    text: str
    aside: str = ""
    work: str = ""
    picked: tuple[int, ...] = ()
    percents: tuple[Decimal, ...] = ()


class Operation:
    """An operation of the program language. Subclasses set the class attributes and implement :meth:`bindings`,
    :meth:`run` and :meth:`subject`.

    Attributes:
        name: the registry name (``"change"``).
        roles: the operand roles in order (``("from", "to")``); a role ending in ``*`` takes one or more operands.
        phrasings: canonical ways an analyst asks for it, with ``X`` / ``Y`` for the items and ``P`` for periods
            ("what is the change in X from P to P"); the reader compares a question's frame with them.
        cues: words and phrases that propose it (whole words of the normalised question: "percentage change",
            "growth rate"); they are features of the reader's model, never a decision on their own.
        formula: the formula in words, for the calculation record.
        intent: the kind of answer it gives (:data:`~prism.types.reading.Intent`).
        in_time_order: whether the operands' order in time decides the result (a change from A to B); for the
            others (a list, a sum, an average) the ranker does not weigh which period comes first.
        same_unit: whether its operands must be in one unit (figures added, subtracted, compared or taken as parts of
            a whole): figures whose labels state different units of their own ("Volume (crore transactions)",
            "Value (₹ lakh crore)") are not its operands (:func:`one_unit`); a ratio may divide them (value per
            transaction).
    """

    name: ClassVar[str] = ""
    roles: ClassVar[tuple[str, ...]] = ()
    phrasings: ClassVar[tuple[str, ...]] = ()
    cues: ClassVar[tuple[str, ...]] = ()
    formula: ClassVar[str] = ""
    intent: ClassVar[Intent] = "figure"
    in_time_order: ClassVar[bool] = False
    same_unit: ClassVar[bool] = False

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        """Every program of this operation the evidence allows for the question (operands bound to the roles)."""
        raise NotImplementedError

    def run(self, program: Program, reading: Reading) -> Result:
        """Execute ``program`` exactly.

        Raises:
            ArithmeticError: the result is undefined (a division by zero, a growth from a non-positive base).
        """
        raise NotImplementedError

    def subject(self, program: Program) -> str:
        """What the result is, in words ("percentage change in Other, 2018 to 2019")."""
        raise NotImplementedError

    def work_subject(self, program: Program) -> str:
        """What the work line states the work of: the :meth:`subject`, unless the subject quotes a figure of the
        question rather than of the documents (a threshold), which the work line, checked against its sources,
        leaves out."""
        return self.subject(program)

    def render(self, program: Program) -> str:
        """The program as a canonical question, compared with the question by meaning: the first phrasing whose
        slots fit the program's shape (as many items, ``X`` and ``Y``, and periods, ``P``, as it has distinct, two
        at most; no threshold ``N``), else the first phrasing, with the items and periods written in ("what were
        Net income in 2023 and 2022" for a list of one row's two periods, not "what are the Net income")."""
        added, rest = program.parts
        items = list(dict.fromkeys([" and ".join(dict.fromkeys(o.label for o in added))] + [o.label for o in rest]))
        periods = list(dict.fromkeys(o.column for o in program.operands if o.column))
        shape = (min(len(items), 2), min(len(periods), 2))
        text = next((p for p in self.phrasings if _slots(p) == shape), self.phrasings[0] if self.phrasings
                    else self.name)
        for item in items[:2]:
            text = text.replace("X", item, 1) if "X" in text else text.replace("Y", item, 1)
        text = text.replace("Y", items[-1] if items else "")
        for period in periods:
            text = text.replace("P", period, 1)
        return text.replace(" P", "").replace(" X", "")


def _slots(phrasing: str) -> tuple[int, int] | None:
    """``(items, periods)`` a phrasing leaves to fill (``X``/``Y`` and ``P`` as words), or ``None`` when it has a
    threshold slot ``N``."""
    words = phrasing.split()
    if "N" in words:
        return None
    return (sum(w in ("X", "Y") for w in words), sum(w == "P" for w in words))


def one_unit(operands: Sequence[Operand]) -> bool:
    """False when two operands state different units of their own: table cells by their labels or columns
    ("Volume (crore transactions)" and "Value (₹ lakh crore)"; "UPI transactions (crore)" and "Volume (crore
    transactions)"), a figure in a sentence by its scale word ("₹21.7 crore" is no part of "₹ lakh crore"); else
    True (a label stating no unit takes its table's, and is compared with nothing). A percentage and a figure whose
    label or column states a unit the percentage's does not ("YoY growth %" and "Outstanding (Rs crore)" of one row;
    "Expected volatility" and "Expected term (years)") are never one unit: the change from 19.5 % to ₹41,210 crore
    means nothing. A percentage beside a column that states no unit (a filing prints "%" in a row's first column
    only), or the same one ("FY2024 (₹ crore)" over "3.9%" and "3.8"), is one unit with it."""
    stated = {u for o in operands if (u := _stated_unit(o)) is not None}
    percents = {_stated_unit(o) for o in operands if o.kind == "percent"}
    if percents and any(o.kind != "percent" and o.source == "cell" and (u := _stated_unit(o)) and u not in percents
                        for o in operands):
        return False
    return len(stated) <= 1 or not any(o.source == "cell" and _stated_unit(o) for o in operands)


def _stated_unit(operand: Operand) -> str | None:
    """The unit an operand states of its own, in words ("crore transactions", "lakh crore", "crore"), or ``None``."""
    from prism.answering.units import label_unit

    if operand.source == "cell":
        stated = label_unit(operand.label) or label_unit(operand.column)  # a row's own, or its column's
        if stated is None:
            return None
        return " ".join(w for w in stated[1].lower().split() if w != "in") or stated[0]
    return operand.unit.lower() if operand.unit and operand.kind == "amount" else None


def distinct(values: Sequence[Any]) -> bool:
    """True when no value repeats."""
    return len(set(values)) == len(values)


def shown_decimals(operands: Sequence[Operand]) -> int:
    """The most decimals any operand is printed with (``1,452.4`` → 1)."""
    best = 0
    for o in operands:
        digits = o.printed.replace(",", "")
        if "." in digits:
            best = max(best, len("".join(ch for ch in digits.split(".", 1)[1] if ch.isdigit())))
    return best
