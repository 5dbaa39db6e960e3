"""One question, read once: the object every stage of a search (and of an answer) reads instead of re-parsing.

:class:`Understanding` holds the standalone question's text and, each computed on first use and then kept:

* its **periods** (:func:`prism.retrieval.periods.find_periods`);
* its **facts** against one set of document profiles (:func:`prism.retrieval.query.understand`: entities, unknown
  entities, document types), per profile set;
* its **query vector** (the embedder's, per embedder), so the dense side of a first search, of an expanded search
  and the answerability gate embed it once.

The answering layer keeps its own readings in the same object through :meth:`Understanding.memo`: the expected
answer type and focus (:func:`prism.answering.evidence.answer_target`) and the derived-figure plan per fiscal year
end (:func:`prism.answering.derived.formulas.plan_of`). An object is made per question and read by one thread at a
time (the answer engine's), so it takes no lock.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from prism.retrieval.periods import find_periods
from prism.retrieval.query import understand
from prism.types import DocumentProfile, PeriodMention, QuestionFacts

if TYPE_CHECKING:
    from prism.index.embedder import PrismEmbedding

__all__ = ["Understanding"]

T = TypeVar("T")


class Understanding:
    """The readings of one (standalone) question.

    Args:
        text: the question as searched (the condensed query of a follow-up).
    """

    def __init__(self, text: str):
        self.text = text
        self._periods: tuple[PeriodMention, ...] | None = None
        self._facts: dict[int, tuple[Mapping[str, DocumentProfile], QuestionFacts]] = {}
        self._vectors: dict[int, tuple[Any, np.ndarray]] = {}
        self._memo: dict[Hashable, Any] = {}

    @classmethod
    def of(cls, question: str | Understanding) -> Understanding:
        """``question`` itself when it is already understood, else a new one for its text."""
        return question if isinstance(question, Understanding) else cls(question)

    @classmethod
    def for_text(cls, understood: Understanding | None, text: str) -> Understanding:
        """``understood`` when it reads ``text``, else a new one for ``text`` (a sub-search for other words)."""
        return understood if understood is not None and understood.text == text else cls(text)

    @property
    def periods(self) -> tuple[PeriodMention, ...]:
        """The periods the question names (:func:`~prism.retrieval.periods.find_periods`), in text order."""
        if self._periods is None:
            self._periods = find_periods(self.text)
        return self._periods

    def facts(self, profiles: Mapping[str, DocumentProfile]) -> QuestionFacts:
        """Entities, unknown entities, periods and document types against ``profiles`` (document id → profile;
        :func:`prism.retrieval.query.understand`), read once per profile mapping."""
        hit = self._facts.get(id(profiles))
        if hit is not None and hit[0] is profiles:
            return hit[1]
        facts = understand(self.text, profiles, periods=self.periods)
        self._facts[id(profiles)] = (profiles, facts)
        return facts

    def vector(self, embedder: PrismEmbedding, threads: int | None = None) -> np.ndarray:
        """The question's embedding, shape ``(dimension,)``, L2-normalised; embedded once per embedder."""
        hit = self._vectors.get(id(embedder))
        if hit is not None and hit[0] is embedder:
            return hit[1]
        vector = embedder.embed([self.text], threads=threads)[0]
        self._vectors[id(embedder)] = (embedder, vector)
        return vector

    def vectors(self, embedder: PrismEmbedding, texts: Sequence[str], threads: int | None = None) -> np.ndarray:
        """Embeddings of ``texts`` (shape ``(len(texts), dimension)``), the question's own text taken from
        :meth:`vector` instead of embedded again."""
        others = [t for t in texts if t != self.text]
        embedded = iter(embedder.embed(others, threads=threads)) if others else iter(())
        rows = [self.vector(embedder, threads) if t == self.text else next(embedded) for t in texts]
        return np.stack(rows) if rows else np.zeros((0, embedder.dimension), dtype=np.float32)

    def memo(self, key: Hashable, compute: Callable[[], T]) -> T:
        """A reading of another layer, computed by ``compute()`` on the first call with ``key`` and kept (the answer
        target, the derived-figure plan per fiscal year end)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]
