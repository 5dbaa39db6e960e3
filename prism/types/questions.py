"""What a question names: the entities, periods and document types the question reader
(:mod:`prism.answering.reading.entities`) reads from it, offline, against the workspace's document profiles, and the
scope a search derives from them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

PeriodKind = Literal["FY", "Q", "H", "date", "year"]
MatchHow = Literal["name", "alias", "ticker", "fuzzy"]


@dataclass(frozen=True)
class PeriodMention:
    """One period a question writes.

    Attributes:
        text: the span as written ("Q3FY24", "year ended December 31, 2015"; for an inner year of a range,
            "FY2018 … FY2020").
        kind: ``"FY"`` (fiscal year ``year``), ``"Q"`` (quarter ``part`` of fiscal year ``year``), ``"H"`` (half
            ``part``), ``"date"`` (``date``, its calendar year in ``year``) or ``"year"`` (a bare calendar year,
            named per document by :func:`prism.retrieval.periods.period_label`).
        year: four-digit year.
        part: quarter 1-4 or half 1-2, else ``None``.
        date: ISO date for ``kind == "date"``, else ``None``.
        start, end: character offsets of ``text`` in the question (``question[start:end]``; a range's inner years
            span the whole range).
        months: the duration the text states, in months (3 "three months ended", "13 weeks ended", "quarter
            ended"; 6 "six months ended", "first half of 2024"; 9 "nine months ended", "first nine months of
            2024"; 12), else ``None`` (a period code's kind implies its own: a quarter 3, a half 6, a year 12).
    """

    text: str
    kind: PeriodKind
    year: int
    part: int | None
    date: str | None
    start: int
    end: int
    months: int | None = None


@dataclass(frozen=True)
class EntityMatch:
    """One entity a question names that the workspace's document profiles hold.

    Attributes:
        text: the span as written ("Pfizer's" → "Pfizer", "JPM", "3M").
        entity: the profiles' entity ("Pfizer Inc.").
        doc_ids: the documents whose profile has that entity, sorted.
        how: ``"name"`` (the entity or its short name), ``"alias"`` (a profile alias or the first word of a
            multi-word name), ``"ticker"`` (a whole upper-case token) or ``"fuzzy"`` (one typo, see
            :mod:`prism.answering.reading.entities`).
        start, end: character offsets of ``text`` in the question.
    """

    text: str
    entity: str
    doc_ids: tuple[str, ...]
    how: MatchHow
    start: int
    end: int


@dataclass(frozen=True)
class QuestionFacts:
    """Everything :func:`prism.answering.reading.entities.understand` reads from one question.

    Attributes:
        entities: matched entities in text order (one per entity: its first mention).
        unknown_entities: company-like names the workspace's profiles do not hold ("Tesla", "Acme Corp"), in text
            order (whether a document without an entity might be about them is the scope's to judge:
            :func:`prism.retrieval.scope.plan_scope`).
        periods: the periods named (:func:`prism.retrieval.periods.find_periods`).
        doc_types: document types named, each one of :data:`prism.types.DOCUMENT_TYPES`, in text order.
        exhibits: the names of other entities whose statements a filing of the workspace carries as an exhibit that
            the question names (every word of the name but its legal suffix), in the catalog's order.
    """

    entities: tuple[EntityMatch, ...] = ()
    unknown_entities: tuple[str, ...] = ()
    periods: tuple[PeriodMention, ...] = ()
    doc_types: tuple[str, ...] = ()
    exhibits: tuple[str, ...] = ()


@dataclass(frozen=True)
class SearchScope:
    """The scope one search ran in: what the question named and the documents it was restricted to.

    Attributes:
        entities: the profiles' entity names the question matched.
        periods: the periods named, in the profile convention of the scoped documents ("FY2018", "Q3 FY2024").
        documents: file names of the documents the search was restricted to (empty: all of the workspace).
        auto: whether the restriction came from the question (``False``: the analyst's document filter, or
            auto-scope switched off, or nothing named).
        removed: the entities and periods the question names that the analyst removed from the scope (Chat's
            scope chips; ``scope_removed`` of a search), in the form they were shown.
    """

    entities: tuple[str, ...] = ()
    periods: tuple[str, ...] = ()
    documents: tuple[str, ...] = ()
    auto: bool = False
    removed: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """``{"entities", "periods", "documents", "auto"}`` (JSON lists), and ``"removed"`` when the analyst removed
        parts of the scope."""
        out: dict[str, Any] = {"entities": list(self.entities), "periods": list(self.periods),
                               "documents": list(self.documents), "auto": self.auto}
        if self.removed:
            out["removed"] = list(self.removed)
        return out


AnswerType = Literal["count", "quantity", "person_or_org"]


@dataclass(frozen=True)
class AnswerTarget:
    """What a factoid question asks for: its expected answer type, its focus and the periods it names
    (:func:`prism.answering.reading.kinds.answer_target`; question classes after Li & Roth, COLING 2002).

    Attributes:
        answer_type: ``"count"`` ("How many ATMs …": Li & Roth NUM:count), ``"quantity"`` ("What minimum credit
            score …", "What was … net profit …": NUM:money / NUM:perc / NUM:other, read from the head noun) or
            ``"person_or_org"`` ("Who is …'s Chief Risk Officer?", "Which firm is …'s statutory auditor?": HUM).
        focus: the words of the thing asked about, as written ("statutory", "auditor"), in question order.
        head: the focus's head word ("auditor", "ATMs", "score").
        periods: the fiscal years, quarters and halves the question names (kinds ``FY``, ``Q``, ``H``).
        item: the statement line item the focus names (a key of :data:`prism.index.statements.ITEMS`: "total
            revenue" → ``revenue``), or ``None``.
    """

    answer_type: AnswerType
    focus: tuple[str, ...]
    head: str
    periods: tuple[PeriodMention, ...] = ()
    item: str | None = None
