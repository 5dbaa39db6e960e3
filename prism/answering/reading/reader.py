"""The one reader of a question: :class:`Reader` turns a question into its :class:`~prism.types.reading.Reading`.

In order, once: shorthand and symbols written out (:func:`~prism.answering.reading.words.normalise`); the periods
(:func:`prism.retrieval.periods.find_periods`) and the duration implied; the workspace's entities, unknown entities
and document types, when the documents' profiles are given (:mod:`prism.answering.reading.entities`); the mentions
and the frame; the rule-based readings (:mod:`prism.answering.reading.kinds`); the statement kinds and filing
sections asked about; the question's and the frame's embeddings; and last the operation probabilities
(:class:`~prism.answering.reading.model.OperationModel`) and the intent they imply. Nothing after the reader parses
the question's text.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from prism.answering.metrics.calc import Plan
from prism.answering.programs.registry import OPERATIONS
from prism.answering.reading import kinds, line_items
from prism.answering.reading.cues import conjoined, names_bound
from prism.answering.reading.entities import understand
from prism.answering.reading.formulas import plan_of
from prism.answering.reading.model import OperationModel, Signals, cue_hits, flags_of
from prism.answering.reading.prior_period import with_prior_period
from prism.answering.reading.salient import quarters, salient_words
from prism.answering.reading.words import (
    frame,
    mentions,
    normalise,
    own_pairs,
    own_words,
    phrase_spans,
    shortened_words,
    title_tokens,
    words_of,
)
from prism.index.sections import question_sections
from prism.index.statements import figure_kinds, statement_kinds
from prism.index.tokenizer import tokenize
from prism.retrieval.periods import duration_hint, find_periods
from prism.retrieval.scope import DocumentCatalog
from prism.types import PeriodMention, QuestionFacts
from prism.types.reading import Comparison, Intent, Mention, Reading
from prism.vocabulary.question_words import (
    DIRECTED_WORDS,
    DIRECTION_PREDICATES,
    FALL_WORDS,
    GAP_WORDS,
    ITEM_NOUNS,
    LESS_WORDS,
    MINUEND_WORDS,
    MORE_WORDS,
    PRIOR_PERIOD_PHRASES,
    RISE_WORDS,
    WH_WORDS,
)

if TYPE_CHECKING:
    from prism.index.embedder import PrismEmbedding

__all__ = ["Reader", "intent_of"]

logger = logging.getLogger(__name__)


def _flags(text: str, words: list[str], reading: dict[str, object]) -> set[str]:
    """The question features of :data:`~prism.answering.reading.model.QUESTION_FEATURES` that hold, and the
    answer-writing flags (``bps``, ``respectively``, ``each``, ``polar``, ``rise``, ``fall``)."""
    periods_named = {(p.kind, p.year, p.part) for p in reading["periods"]}  # type: ignore[attr-defined]
    periods = len(periods_named)
    out = {"no_period" if periods == 0 else "one_period" if periods == 1 else "periods"}
    target = reading["target"]
    unit = reading["expected_unit"]
    # "Was A or B higher?": an alternative question with a comparative asks which of the figures it names is, not
    # yes or no ("Can a bank or an NBFC issue …?" stays a yes/no question)
    alternative = ("or" in words and reading["polarity"] is not None
                   and len(reading["mentions"]) >= 2)  # type: ignore[arg-type]
    checks = {
        "threshold": reading["comparison"] is not None,
        "polar": (kinds.polar(text) or _declarative_polar(text, words)) and not alternative,
        "reason": kinds.asks_reason(text),
        # "What financial items does X consist of?" asks for the items, not a description of X
        "description": kinds.asks_description(text) and not ITEM_NOUNS & set(words),
        "table_subject": kinds.asks_table_subject(text),
        "target_count": getattr(target, "answer_type", None) == "count",
        "target_quantity": getattr(target, "answer_type", None) == "quantity",
        "target_person": getattr(target, "answer_type", None) == "person_or_org",
        "bound": names_bound(own_words(text)),  # the question's own words, not a follow-up's carried context
        "which_or_when": alternative or bool(re.match(r"\s*(?:in\s+)?(?:which|when)\b", text, re.IGNORECASE)),
        "how_many": kinds.asks_how_many(text), "two_mentions": len(reading["mentions"]) >= 2,  # type: ignore[arg-type]
        "unit_percent": unit == "percent", "unit_count": unit == "count", "unit_period": unit == "period",
        "unit_ratio": unit == "ratio", "unit_points": unit in ("points", "bps"),
        "polarity": reading["polarity"] is not None, "each": bool({"each", "respectively", "every"} & set(words)),
        "bps": unit == "bps", "respectively": "respectively" in words,
        "gap": bool(GAP_WORDS & set(words)) and not (DIRECTED_WORDS & set(words)),
        "multiple": kinds.asks_multiple(text),
        "minuend_first": bool(MINUEND_WORDS & set(words)) or "than" in words and bool(
            (MORE_WORDS | {"higher"}) & set(words[:words.index("than")])),
        "conjoined": conjoined(text, reading["mentions"]),  # type: ignore[arg-type]
        "bare_periods": periods >= 2 and _bare(text, reading["mentions"]),  # type: ignore[arg-type]
        "of_table": kinds.asks_of_table(text, [m.text for m in reading["mentions"]],  # type: ignore[attr-defined]
                                        unit),  # type: ignore[arg-type]
    }
    out |= {name for name, holds in checks.items() if holds}
    asks = kinds.modality(text)
    if asks is not None:
        out.add(asks)
    if checks["polar"]:
        held = set(words)
        if checks["threshold"] is False and len(periods_named) >= 2:  # "2024 greater than 2023?": two periods
            held |= {"higher"} if MORE_WORDS & held else {"lower"} if LESS_WORDS & held else set()
        out |= {"rise"} if RISE_WORDS & held else {"fall"} if FALL_WORDS & held else set()
        if out & {"rise", "fall"}:
            out.add("direction")  # "Did revenue increase …?": a direction tested, yes or no
    return out


_COMPUTING = frozenset(OPERATIONS) - {"lookup", "list", "yes_no"}
"""The operations that compute a figure from others."""


def _bare(text: str, found: Sequence[Mention]) -> bool:
    """Whether the question holds no cue of an operation that computes but inside a name ("Revenues for 2018 and
    2019?", "Give me defined contribution schemes in 2019 and 2018": a row named "contribution" asks no share; a
    mention's first word still counts, "the total goodwill", "the average cost of revenue", unless the mention is a
    statement line item's name, "total current assets"): asked of several periods, such a question asks the figure
    in each."""
    rest = words_of(text)
    for _, said in line_items.line_items(text):
        rest = _without(rest, words_of(said))
    for mention in found:
        rest = _without(rest, words_of(mention.text)[1:])
    hits = cue_hits(rest)
    return not any(hits[name] for name in _COMPUTING)


def _as_read(salient: tuple[tuple[str, str], ...], text: str) -> tuple[tuple[str, str], ...]:
    """The salient words the reader kept: a rare word it wrote out ("opex" → "operating expenses", the normalised
    ``text`` no longer holds it) is asked through its expansion, so no passage needs to hold it as written."""
    held = set(words_of(text))
    return tuple((w, kind) for w, kind in salient if kind != "rare" or w.lower() in held)


def _without(words: list[str], phrase: list[str]) -> list[str]:
    """``words`` less the first occurrence of ``phrase`` (as is when it does not occur)."""
    spans = phrase_spans(" ".join(phrase), words)
    if not spans:
        return words
    start, end = spans[0]
    return words[:start] + words[end:]


def _without_period_frames(words: list[str]) -> list[str]:
    """``words`` less the phrases that set a period against the one before it ("year over year", "sequentially":
    :data:`~prism.vocabulary.question_words.PRIOR_PERIOD_PHRASES`): in a yes/no question of direction ("Net income up
    YoY in 2024?") they say which periods the direction is between, not that a percentage change is asked."""
    drop = {i for phrase in PRIOR_PERIOD_PHRASES for a, b in phrase_spans(phrase.replace("-", " "), words)
            for i in range(a, b)}
    return [w for i, w in enumerate(words) if i not in drop]


def _item_to_item(text: str, words: list[str], found: tuple[Mention, ...]) -> bool:
    """Whether a terse question (no wh-word) sets one item against another with "to" and nothing else between them
    ("Gross profit to opex, FY24?", "Debt to equity 2024"): a ratio, as "the ratio of A to B" asks; "from A to B"
    is a span, not a ratio."""
    if WH_WORDS & set(words) or "from" in words:
        return False
    return any(text[a.end:b.start].strip().lower() == "to" for a, b in zip(found, found[1:], strict=False))


def _threshold(comparison: Comparison | None, periods: tuple[PeriodMention, ...]) -> Comparison | None:
    """``comparison``, unless its figure is a year the question names as a period ("Net income 2024 greater than
    2023?" compares two periods; 2,023 is no threshold)."""
    if comparison is None or comparison.scale or comparison.percent or comparison.value != comparison.value // 1:
        return comparison
    return None if any(p.year == int(comparison.value) for p in periods) else comparison


def _declarative_polar(text: str, words: list[str]) -> bool:
    """Whether the question is a statement asked yes or no ("Net income up year over year in 2024?", "Net income
    2024 greater than 2023?"): it ends with a question mark, states a direction or comparison
    (:data:`~prism.vocabulary.question_words.DIRECTION_PREDICATES`), holds no wh-word and offers no alternatives
    ("Higher in 2024: products or services?" asks which)."""
    held = set(words)
    return (text.rstrip().endswith("?") and bool(DIRECTION_PREDICATES & held) and not WH_WORDS & held
            and "or" not in held)


def _plans(text: str, periods: tuple[PeriodMention, ...], catalog: DocumentCatalog | None
           ) -> tuple[tuple[str | None, Plan], ...]:
    """The statement metric the question names, read once per fiscal year end of the catalog's documents (and once
    without one); ``()`` when it names none."""
    plain = plan_of(text, periods)
    if plain is None:
        return ()
    ends = sorted({p.fiscal_year_end for p in (catalog.known.values() if catalog else ()) if p.fiscal_year_end})
    out: list[tuple[str | None, Plan]] = [(None, plain)]
    for end in ends:
        plan = plan_of(text, periods, end)
        if plan is not None:
            out.append((end, plan))
    return tuple(out)


def intent_of(best: str, flags: set[str] | frozenset[str]) -> Intent:
    """The intent the best alternative and the readings imply."""
    if "table_subject" in flags:
        return "table_subject"
    if "polar" in flags:
        return "yes_no"
    if best == "text":
        return "reason" if "reason" in flags else "description" if "description" in flags else "text"
    return OPERATIONS[best].intent


class Reader:
    """Reads questions (thread-safe: it keeps only the model and its phrasings' embeddings).

    Args:
        embedder: the packaged paraphrase embedder, for the question's vector and the phrasings' comparison; without
            one the reader decides by its other features only.
        model: the operation model (default: the trained weights of ``model.json``).
        threads: CPU threads for embedding a question (``Settings.query_threads``: a question is a query, a few
            short texts); ``None``: as the embedder is configured. The phrasings, embedded once per embedder, take
            the embedder's own count.
    """

    def __init__(self, embedder: PrismEmbedding | None = None, model: OperationModel | None = None,
                 threads: int | None = None):
        self.embedder = embedder
        self.model = model or OperationModel.load()
        self.threads = threads

    def read(self, question: str, catalog: DocumentCatalog | None = None) -> Reading:
        """The :class:`~prism.types.reading.Reading` of ``question`` (the standalone question of a follow-up).

        Args:
            question: the question as asked.
            catalog: the workspace's documents (:func:`prism.retrieval.scope.catalog_of`): entities, unknown entities,
                document types and other entities' exhibits are read against their profiles; ``None`` reads none.
        """
        return self.read_with_signals(question, catalog)[0]

    def read_with_signals(self, question: str, catalog: DocumentCatalog | None = None) -> tuple[Reading, Signals]:
        """:meth:`read`, and the :class:`~prism.answering.reading.model.Signals` the operation model read (for
        training it)."""
        text = normalise(question)
        words = kinds.cue_words(words_of(text), text)
        periods = with_prior_period(text, find_periods(text))
        facts = (understand(text, catalog.known, periods=periods, exhibits=tuple(catalog.exhibits))
                 if catalog is not None else QuestionFacts(periods=periods))
        found = mentions(text, periods, [(e.start, e.end) for e in facts.entities])
        shape = frame(text, periods, found)
        comparison = _threshold(kinds.comparison(text), periods)
        if comparison is not None:
            # the comparative of a threshold ("greater than 2.0%") relates the figures to it: no extreme is asked
            words = _without(words, words_of(comparison.text))
        readings: dict[str, object] = {
            "periods": periods, "mentions": found, "comparison": comparison,
            "target": kinds.answer_target(text, periods),
            "expected_unit": (kinds.expected_unit(words, text)
                              or ("ratio" if _item_to_item(text, words, found) else None)),
            "polarity": kinds.polarity(text.replace(comparison.text, " ") if comparison is not None else text),
        }
        flags = _flags(text, words, readings)
        if {"polar", "direction"} <= flags:
            words = _without_period_frames(words)
        vector = frame_vector = None
        if self.embedder is not None:
            # the question with its shorthand written out ("Rev CAGR FY22" → "revenue CAGR FY22"): what it means
            vector, frame_vector = self.embedder.embed([text, shape or text], threads=self.threads)
        signals = Signals(tuple(words), vector, frame_vector, flags_of(sorted(flags)))
        items = line_items.line_items(text)
        operations = self.model.probabilities(signals, self.embedder if vector is not None else None)
        reading = Reading(
            question=question, text=text, tokens=frozenset(tokenize(text)) | frozenset(tokenize(question)),
            periods=periods, duration=duration_hint(text), intent=intent_of(operations[0][0], flags),
            operations=operations, mentions=found, frame=shape,
            expected_unit=readings["expected_unit"],  # type: ignore[arg-type]
            target=readings["target"], comparison=readings["comparison"],  # type: ignore[arg-type]
            ordinal=kinds.ordinal(text), polarity=readings["polarity"],  # type: ignore[arg-type]
            facts=facts, statement_kinds=frozenset(statement_kinds(text) or figure_kinds(text)),
            items=tuple(key for key, _ in items), item_words=tuple(words for _, words in items),
            sections=tuple(sorted(question_sections(text))),
            flags=frozenset(flags & {"bps", "respectively", "each", "polar", "rise", "fall", "reason", "description",
                                     "table_subject", "permission", "obligation", "prohibition",
                                     "fact", "gap", "multiple", "minuend_first", "of_table", "conjoined"}),
            salient=_as_read(salient_words(question, self._in_vocabulary), text), quarters=quarters(question),
            pairs=own_pairs(question), title_tokens=title_tokens(question),
            plans=_plans(text, periods, catalog), shortened=shortened_words(question),
            vector=vector,
        )
        return reading, signals

    def _in_vocabulary(self, word: str) -> bool:
        """Whether the embedder's vocabulary holds ``word`` whole (one word piece); without an embedder, every word
        of four letters or more is taken as held."""
        return self.embedder is None or self.embedder.count_tokens(word) == 3
