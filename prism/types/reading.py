"""One question, read once by meaning: the :class:`Reading` every stage after the reader takes instead of the text.

The reader (:mod:`prism.answering.reading`) makes one per question. Retrieval takes its periods, entities, document
types, statement kinds and vector for scope and the extra rankings; the evidence gate its target and salient words;
the program choice (:mod:`prism.answering.programs`) its operation guesses, mentions, periods, expected unit,
comparison and ordinal; the extractive answer its intent and focus. None of them parses the question's text again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

from prism.types.questions import AnswerTarget, PeriodMention, QuestionFacts

Intent = Literal["figure", "list", "count", "which", "yes_no", "reason", "description", "table_subject", "text"]
"""What kind of answer a question wants: ``figure`` (a number, looked up or computed), ``list`` (several items),
``count`` (how many), ``which`` (the period or item that is highest / lowest), ``yes_no`` (Yes or No and the rule
or figure that decides it), ``reason`` (a cause), ``description`` (what something is, consists of, how it is
measured), ``table_subject`` (what a table shows), ``text`` (a fact stated in a sentence)."""

INTENTS: tuple[str, ...] = ("figure", "list", "count", "which", "yes_no", "reason", "description", "table_subject",
                            "text")
"""Every :data:`Intent`, in a fixed order (features, reports)."""

ExpectedUnit = Literal["percent", "points", "bps", "amount", "count", "ratio", "per_share", "date", "period", "label",
                       "text"]
"""The unit the question expects of its answer, when it says (``percent``: "what percentage", "in %"; ``bps``:
"in basis points"; ``count``: "how many"; ``ratio``: "the ratio of"; ``period``: "which year", "when";
``label``: "which segment had the highest …", an item's name)."""


@dataclass(frozen=True)
class Mention:
    """A run of the question's words that names a figure, an item or a segment (not a frame word, a period or an
    entity): "total revenue", "services".

    Attributes:
        text: the words as the normalised question writes them.
        tokens: their index tokens (:func:`prism.index.tokenizer.tokenize`).
        start, end: offsets in :attr:`Reading.text`.
    """

    text: str
    tokens: tuple[str, ...]
    start: int
    end: int


@dataclass(frozen=True)
class Comparison:
    """A threshold the question compares a figure with ("less than 600,000", "above ₹1,000", "exceed 5 %").

    Attributes:
        relation: ``"above"`` (greater than, exceed, over, more than) or ``"below"`` (less than, under, below);
            ``at_least`` / ``at_most`` for the inclusive forms.
        value: the threshold as written, a number (``600000``).
        scale: its scale word (``thousand``, ``million``, ``billion``, ``lakh``, ``crore``) or ``None``.
        percent: the threshold is a percentage.
        text: the words as written ("less than 600,000").
        amount: the threshold's figure as written, without the words relating to it ("600,000", "$1,800
            thousand", "2.0%"); ``""`` for a sign ("negative").
    """

    relation: Literal["above", "below", "at_least", "at_most"]
    value: Decimal
    scale: str | None
    percent: bool
    text: str
    amount: str = ""

    @property
    def stated(self) -> str:
        """The threshold in an answer's words, one wording per relation ("less than 600,000", "more than $1,800
        thousand", "at least 2.0%"); the words as written when it has no figure ("negative")."""
        if not self.amount:
            return self.text
        words = {"above": "more than", "below": "less than", "at_least": "at least", "at_most": "at most"}
        return f"{words[self.relation]} {self.amount}"


@dataclass(frozen=True)
class Reading:
    """What one question asks, read once (:func:`prism.answering.reading.read`).

    Attributes:
        question: the question as asked (the standalone query of a follow-up).
        text: the question with shorthand and symbols written out ("avg opex YoY" → "average operating expenses
            year over year"); what every later reading is made from.
        tokens: the index tokens of :attr:`text` (stemmed, stop words out), once.
        periods: the periods it names, in text order (:func:`prism.retrieval.periods.find_periods`).
        duration: the months its words imply without naming a period ("the quarter" 3, "first half" 6, "year to
            date" 0), or ``None``.
        intent: the kind of answer wanted (:data:`Intent`).
        operations: every operation of the program registry with the reader's probability that the question asks
            for it, best first (``(("percent_change", 0.91), ("change", 0.06), …)``); ``text`` stands for a sentence
            answer, not a program.
        mentions: the runs of words naming figures or items, in text order.
        frame: :attr:`text` with the periods written ``P`` and each mention ``X`` ("what is the percentage change
            in X from P to P"): what the operation's phrasings are compared with.
        expected_unit: the answer's unit when the question says (:data:`ExpectedUnit`), else ``None``.
        target: the expected answer type and focus of a factoid question, or ``None``.
        comparison: a threshold it compares with, or ``None``.
        ordinal: 1 for "the highest", 2 for "the second highest" …
        polarity: ``"max"`` or ``"min"`` for a question about the highest / lowest / which is higher, else ``None``.
        facts: the workspace entities, unknown entities and document types it names (against the profiles the
            reader was given; empty without them).
        statement_kinds: the financial statements it names or whose line items it asks about.
        items: the statement line items it names, keys of :data:`prism.index.statements.ITEMS` in their order
            ("research and development expense" → ``("rd",)``): a row holding one under the company's own name
            ("Technology and development" at Netflix) is the row it names.
        item_words: the words it names each of :attr:`items` by, lower case, in the same order ("net earnings" for
            ``net_income``): a row holding the item under another name counts these words as its own.
        sections: the filing sections it asks about (risks, drivers, policies: :mod:`prism.index.sections`).
        flags: readings that change how an answer is written: ``bps`` (asks basis points), ``respectively``
            (several figures, one per period), ``each`` (a figure per period), ``polar`` (a yes/no question),
            ``rise`` / ``fall`` (the direction a yes/no question asks about), ``reason``, ``description``,
            ``table_subject`` (the rule-based readings of a sentence answer), ``permission`` / ``obligation`` /
            ``prohibition`` / ``fact`` (what a yes/no question about a rule asks: may, must, must not, or does),
            ``gap`` (a difference asked without a direction: the larger figure less the smaller), ``multiple``
            ("how many times B was A": a ratio whose divisor is named first), ``minuend_first`` ("A minus B", "by how
            much did A exceed B", "how much higher was A than B": a difference of items, the first less the second),
            ``of_table`` (it asks about a table as a
            whole: its periods, whichever row it names, or its items when it names none: "What years does the table
            cover?"), ``conjoined`` (it joins line items with "and" as the parts of one figure: "A and B as a
            percentage of total revenue").
        salient: the words a passage must hold for it to answer, each with why (``period``, ``acronym``,
            ``compound``, ``rare``): :mod:`prism.answering.reading.salient`.
        quarters: the quarters and halves of a fiscal year it names, ``(as written, part, year's last two
            digits)``.
        pairs: its own consecutive index-token pairs (not the context a condensed follow-up carries in brackets at
            its end), for the extractive answer's phrase overlap.
        title_tokens: the index tokens of the officers' titles its abbreviations spell out ("CEO": chief,
            executive, officer).
        plans: the statement metric it asks for, a standard one or one it defines ("EBITDA margin", "Define X as A
            / B"), read per fiscal year end of the workspace's documents (its periods are named in each document's
            calendar): ``((fiscal year end or None, plan), …)`` (:mod:`prism.answering.reading.formulas`); empty
            when it names none.
        shortened: the words it writes short with a full stop, lower case, without the stop ("gross adv." →
            ``("adv",)``, "govt. securities" → ``("govt",)``): :func:`prism.answering.reading.words.shortened_words`.
        vector: the embedding of :attr:`question` as :attr:`text` writes it (its shorthand spelled out; shape
            ``(dimension,)``, L2-normalised; dense retrieval uses it for the question), or ``None`` when the reader
            had no embedder.
    """

    question: str
    text: str
    tokens: frozenset[str]
    periods: tuple[PeriodMention, ...] = ()
    duration: int | None = None
    intent: Intent = "text"
    operations: tuple[tuple[str, float], ...] = ()
    mentions: tuple[Mention, ...] = ()
    frame: str = ""
    expected_unit: ExpectedUnit | None = None
    target: AnswerTarget | None = None
    comparison: Comparison | None = None
    ordinal: int = 1
    polarity: Literal["max", "min"] | None = None
    facts: QuestionFacts = field(default_factory=QuestionFacts)
    statement_kinds: frozenset[str] = frozenset()
    items: tuple[str, ...] = ()
    item_words: tuple[str, ...] = ()
    sections: tuple[str, ...] = ()
    flags: frozenset[str] = frozenset()
    salient: tuple[tuple[str, str], ...] = ()
    quarters: tuple[tuple[str, str, str], ...] = ()
    pairs: frozenset[tuple[str, str]] = frozenset()
    title_tokens: frozenset[str] = frozenset()
    plans: tuple[tuple[str | None, Any], ...] = ()
    shortened: tuple[str, ...] = ()
    vector: Any = field(default=None, compare=False, repr=False)

    @property
    def operation(self) -> str:
        """The most likely operation (``"text"`` when none was read)."""
        return self.operations[0][0] if self.operations else "text"

    @property
    def confidence(self) -> float:
        """The probability of :attr:`operation`, in [0, 1]."""
        return self.operations[0][1] if self.operations else 0.0

    @property
    def runner_up(self) -> str | None:
        """The second most likely operation, or ``None``."""
        return self.operations[1][0] if len(self.operations) > 1 else None

    @property
    def mention_tokens(self) -> frozenset[str]:
        """The index tokens of every mention: the words that name figures or items, not the operation's."""
        return frozenset(t for m in self.mentions for t in m.tokens)

    @property
    def names_total(self) -> bool:
        """Whether a mention names a total ("Total revenue", "the total amount falling due"); the sum's word ("the
        total of A and B", "A and B in total") names none (:func:`prism.answering.reading.words.mentions`)."""
        return "total" in self.mention_tokens

    def plan_for(self, fiscal_year_end: str | None) -> Any:
        """The metric plan for a document with ``fiscal_year_end`` (the one read without a fiscal year end when that
        one was not read), or ``None``."""
        plans = dict(self.plans)
        return plans.get(fiscal_year_end, plans.get(None))

    def probability(self, operation: str) -> float:
        """The reader's probability that the question asks for ``operation`` (0 for an unknown name)."""
        return next((p for name, p in self.operations if name == operation), 0.0)

    def to_dict(self) -> dict[str, Any]:
        """What was understood, as JSON: ``{"question", "text", "intent", "operation", "confidence", "runner_up",
        "mentions", "periods", "expected_unit", "comparison", "ordinal", "polarity", "entities", "flags", "item",
        "metric"}`` (``item``: the statement line item its focus names, a key of
        :data:`prism.index.statements.ITEMS`; ``metric``: the statement metric it names)."""
        return {
            "question": self.question, "text": self.text, "intent": self.intent, "operation": self.operation,
            "confidence": round(self.confidence, 4), "runner_up": self.runner_up,
            "mentions": [m.text for m in self.mentions], "periods": [p.text for p in self.periods],
            "expected_unit": self.expected_unit,
            "comparison": None if self.comparison is None else self.comparison.text,
            "ordinal": self.ordinal, "polarity": self.polarity,
            "entities": [e.entity for e in self.facts.entities], "flags": sorted(self.flags),
            "item": self.target.item if self.target is not None else None,
            "metric": getattr(self.plan_for(None), "metric", None),
        }
