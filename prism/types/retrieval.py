"""Value types of retrieval: retrieval modes, retrieved chunks with every stage's score and rank, the reranker's
state, and what expansion needs of a language model."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from prism.types.documents import page_label
from prism.types.profiles import DocumentProfile


class CompletesText(Protocol):
    """What expansion and the LLM judge need of a language model: ``complete(prompt) -> str``
    (:class:`prism.answering.llm.LLMClient`; tests use scripted fakes). Implementations raise
    :class:`~prism.errors.LLMError` subclasses."""

    def complete(self, prompt: str, **kwargs: Any) -> str: ...


SCORE_STAGES: tuple[str, ...] = ("dense", "bm25", "rrf", "rerank")
"""The retrieval stages that score a chunk, in pipeline order: the keys of :meth:`RetrievedChunk.scores` (each with
a ``<stage>_rank`` beside it). ``rrf`` is the fusion stage's key whatever the fusion method."""


@dataclass(frozen=True)
class RetrievalMode:
    """A retrieval mode (registry: :data:`prism.retrieval.fusion.MODES`).

    Attributes:
        name: what settings, the CLI and the UI call it (``hybrid``).
        label: its display name (``Hybrid``).
        sides: the retrieval sides it runs, ``"dense"`` and/or ``"bm25"``.
        description: one line on what it ranks by.
    """

    name: str
    label: str
    sides: tuple[str, ...]
    description: str = ""

    @property
    def fused(self) -> bool:
        """True when the mode runs several sides and fuses their rankings."""
        return len(self.sides) > 1


@dataclass
class RetrievedChunk:
    """A chunk as retrieved, with every stage's score and rank (``None`` where a stage did not see it).

    ``metadata`` is the chunk's flat store metadata: its document's profile keys (``entity``, ``doc_type``,
    ``period``, ``fiscal_year_end``, ``currency``, ``unit``) and, for a table chunk, ``table_id``, ``table_title``,
    ``table_columns`` (``"2015 | 2014 | 2013"``), ``table_unit``, ``table_currency``, ``table_row``.

    Scores: ``dense_score`` cosine similarity in [-1, 1]; ``bm25_score`` ≥ 0, unbounded; ``rrf_score`` ≤
    Σ weights / (rrf_k + 1); ``rerank_score`` the cross-encoder's raw logit; ``statement_score`` the BM25 score in
    the statement ranking (set only when the question named a financial statement and the chunk is a row of it,
    :meth:`prism.retrieval.retriever.HybridRetriever.search`); ``section_score`` the BM25 score in the section
    ranking (set when the question looks for a kind of section and the chunk is in one); ``page_score`` the fused
    scores of the chunk's page summed with decay and ``page_rank`` that page's rank
    (:func:`prism.retrieval.pages.rank_pages`; set when pages are ranked). Ranks are 1-based; ``rank`` is the final
    position in the result list. ``locator`` is where the chunk is, as citations show it (``"p. 2 (PDF p. 4)"``,
    ``"Slide 3"``, ``"Sheet 'Q3' row 14"``; ``""`` for an unpaged source), made by :func:`prism.types.locator_of`
    from the chunk's stored metadata (when not given: :func:`~prism.types.page_label` of the pages);
    ``page_start``/``page_end`` stay the physical pages (what a preview opens).
    """

    chunk_id: str
    doc_id: str
    source: str
    text: str
    chunk_index: int = 0
    page_start: int | None = None
    page_end: int | None = None
    locator: str = ""
    rank: int = 0
    dense_score: float | None = None
    dense_rank: int | None = None
    bm25_score: float | None = None
    bm25_rank: int | None = None
    rrf_score: float | None = None
    rrf_rank: int | None = None
    rerank_score: float | None = None
    rerank_rank: int | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    statement_score: float | None = None
    statement_rank: int | None = None
    page_score: float | None = None
    page_rank: int | None = None
    section_score: float | None = None
    section_rank: int | None = None
    read_beside: int | None = None
    """Set on a chunk that was not retrieved but read for a calculation beside a retrieved one (another part of its
    table on the same page, :func:`prism.answering.derived.cells.sibling_chunk`): that chunk's rank."""

    @property
    def profile_line(self) -> str:
        """The chunk's document as one short line from its metadata, ``"Netflix, Inc. · 10-K · FY2015"`` (``""``
        when the document has no profile)."""
        return DocumentProfile.from_metadata(self.metadata).line()

    def __post_init__(self) -> None:
        if not self.locator:  # built without its stored metadata: the pages alone
            self.locator = page_label(self.page_start, self.page_end)

    def scores(self) -> dict[str, float | int | None]:
        """The stable ``scores`` object of the search JSON: a score and a rank per :data:`SCORE_STAGES`, plus
        ``statement`` / ``statement_rank`` when the statement ranking ranked the chunk, ``section`` /
        ``section_rank`` when the section ranking did, and ``page`` / ``page_rank`` when pages were ranked."""
        extra = {} if self.statement_rank is None else {
            "statement": self.statement_score, "statement_rank": self.statement_rank}
        if self.section_rank is not None:
            extra.update(section=self.section_score, section_rank=self.section_rank)
        if self.page_rank is not None:
            extra.update(page=self.page_score, page_rank=self.page_rank)
        return {
            "dense": self.dense_score,
            "dense_rank": self.dense_rank,
            "bm25": self.bm25_score,
            "bm25_rank": self.bm25_rank,
            "rrf": self.rrf_score,
            "rrf_rank": self.rrf_rank,
            "rerank": self.rerank_score,
            "rerank_rank": self.rerank_rank,
            **extra,
        }

    def to_dict(self) -> dict[str, Any]:
        """The stable result object of the search JSON."""
        return {
            "rank": self.rank,
            "chunk_id": self.chunk_id,
            "doc_id": self.doc_id,
            "source": self.source,
            "page_start": self.page_start,
            "page_end": self.page_end,
            "locator": self.locator,
            "text": self.text,
            "scores": self.scores(),
        }


@dataclass(frozen=True)
class RerankerState:
    """What the analyst is told about the reranker: ``{"enabled", "model", "reason"}`` (``reason`` is ``None`` when
    enabled)."""

    enabled: bool
    model: str
    reason: str | None

    def to_dict(self) -> dict[str, Any]:
        """``{"enabled", "model", "reason"}``."""
        return {"enabled": self.enabled, "model": self.model, "reason": self.reason}
