"""Frozen dataclasses passed between Prism's modules.

Pages are 1-based. Unpaged sources (TXT, CSV, URL) carry ``page=None`` on their single page and their chunks carry
no page keys at all (never a null in store metadata).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

DocumentKind = Literal["pdf", "txt", "csv", "url"]
IngestStatus = Literal["ingested", "duplicate", "replaced", "failed"]


@dataclass(frozen=True)
class Page:
    """One page of extracted, normalised text.

    Attributes:
        number: 1-based page number, or ``None`` for an unpaged source.
        text: normalised text (may be empty only for pages that were skipped; parsers drop those).
        ocr: True when the text came from OCR rather than the PDF's text layer.
    """

    number: int | None
    text: str
    ocr: bool = False


@dataclass(frozen=True)
class SkippedPage:
    """A page that gave no indexable text, with the reason in plain words."""

    number: int
    reason: str


@dataclass(frozen=True)
class ParsedDocument:
    """The result of parsing one file or URL.

    Attributes:
        source: the display name (sanitised file name or URL).
        kind: ``pdf``, ``txt``, ``csv`` or ``url``.
        pages: pages with text, in order; for unpaged kinds exactly one page with ``number=None``.
        total_pages: pages in the original (PDF) or 0 for unpaged kinds.
        skipped_pages: pages without indexable text and why.
        warnings: other things the analyst should know (e.g. "encoding detected as cp1252").
    """

    source: str
    kind: DocumentKind
    pages: tuple[Page, ...]
    total_pages: int = 0
    skipped_pages: tuple[SkippedPage, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def paged(self) -> bool:
        """True for sources with real page numbers (PDF)."""
        return self.kind == "pdf"

    @property
    def ocr_pages(self) -> list[int]:
        """1-based numbers of the pages whose text came from OCR."""
        return [p.number for p in self.pages if p.ocr and p.number is not None]


@dataclass(frozen=True)
class Chunk:
    """A span of a document's text, the unit that is embedded, indexed and cited.

    ``char_start``/``char_end`` index the document text, i.e. the pages' texts joined with
    :data:`prism.chunking.PAGE_SEPARATOR`; ``document_text[char_start:char_end] == text`` always holds.
    """

    chunk_id: str
    doc_id: str
    source: str
    chunk_index: int
    text: str
    char_start: int
    char_end: int
    page_start: int | None = None
    page_end: int | None = None

    def metadata(self) -> dict[str, str | int]:
        """Flat metadata for the vector store: no ``None`` values (page keys are absent for unpaged sources)."""
        meta: dict[str, str | int] = {
            "doc_id": self.doc_id,
            "source": self.source,
            "chunk_index": self.chunk_index,
            "char_start": self.char_start,
            "char_end": self.char_end,
        }
        if self.page_start is not None:
            meta["page_start"] = self.page_start
            meta["page_end"] = self.page_end if self.page_end is not None else self.page_start
        return meta


@dataclass
class DocumentRecord:
    """One document in a workspace's registry (JSON-serialisable).

    Attributes:
        doc_id: sha256 hex digest of the file's bytes (of the URL's fetched bytes for URLs).
        source: display file name; unique within a workspace.
        kind: document kind.
        pages: page count of the original (PDF), else ``None``.
        chunks: chunks stored.
        skipped_pages: ``[{"page": n, "reason": str}]``.
        ocr_pages: 1-based pages read by OCR.
        warnings: plain-language warnings from parsing.
        ingested_at: ISO-8601 UTC timestamp.
        size_bytes: size of the original.
        original: file name of the kept original inside the workspace's ``originals/`` folder.
        embed_model: embedding model that built the document's vectors.
        briefing: optional briefing (bullets, questions) added by the answering layer.
    """

    doc_id: str
    source: str
    kind: str
    pages: int | None
    chunks: int
    skipped_pages: list[dict[str, Any]] = field(default_factory=list)
    ocr_pages: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    ingested_at: str = ""
    size_bytes: int = 0
    original: str = ""
    embed_model: str = ""
    briefing: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain-dict form for JSON."""
        return asdict(self)


@dataclass
class IngestResult:
    """The outcome for one file of an ingest batch; ``to_dict`` is the CLI's stable JSON shape."""

    file: str
    status: IngestStatus
    doc_id: str | None = None
    pages: int | None = None
    chunks: int = 0
    skipped_pages: list[dict[str, Any]] = field(default_factory=list)
    ocr_pages: list[int] = field(default_factory=list)
    error: str | None = None
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The CLI JSON object ``{"file", "status", "doc_id", "pages", "chunks", "skipped_pages", "ocr_pages",
        "error", "warnings"}``."""
        return asdict(self)


@dataclass
class RetrievedChunk:
    """A chunk as retrieved, with every stage's score and rank (``None`` where a stage did not see it).

    Scores: ``dense_score`` cosine similarity in [-1, 1]; ``bm25_score`` ≥ 0, unbounded; ``rrf_score`` ≤
    Σ weights / (rrf_k + 1); ``rerank_score`` the cross-encoder's raw logit. Ranks are 1-based; ``rank`` is the final
    position in the result list.
    """

    chunk_id: str
    doc_id: str
    source: str
    text: str
    chunk_index: int = 0
    page_start: int | None = None
    page_end: int | None = None
    rank: int = 0
    dense_score: float | None = None
    dense_rank: int | None = None
    bm25_score: float | None = None
    bm25_rank: int | None = None
    rrf_score: float | None = None
    rrf_rank: int | None = None
    rerank_score: float | None = None
    rerank_rank: int | None = None

    def scores(self) -> dict[str, float | int | None]:
        """The stable ``scores`` object of the search JSON."""
        return {
            "dense": self.dense_score,
            "dense_rank": self.dense_rank,
            "bm25": self.bm25_score,
            "bm25_rank": self.bm25_rank,
            "rrf": self.rrf_score,
            "rrf_rank": self.rrf_rank,
            "rerank": self.rerank_score,
            "rerank_rank": self.rerank_rank,
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
            "text": self.text,
            "scores": self.scores(),
        }


@dataclass
class Citation:
    """A numbered context block of an answer: one retrieved chunk with every retrieval score.

    Attributes:
        n: the block number ``[n]`` used in the prompt and in the answer text (1-based, the retrieval rank).
        scores: :meth:`RetrievedChunk.scores` of the chunk.
    """

    n: int
    chunk_id: str
    source: str
    page_start: int | None
    page_end: int | None
    text: str
    scores: dict[str, float | int | None] = field(default_factory=dict)

    @classmethod
    def from_chunk(cls, n: int, chunk: RetrievedChunk) -> Citation:
        """Block ``n`` for a retrieved chunk."""
        return cls(n, chunk.chunk_id, chunk.source, chunk.page_start, chunk.page_end, chunk.text, chunk.scores())

    def to_dict(self) -> dict[str, Any]:
        """``{"n", "chunk_id", "source", "page_start", "page_end", "text", "scores"}``."""
        return asdict(self)


@dataclass
class WebResult:
    """A web search result shown to the LLM as block ``[W<n>]``; never mixed into document citations."""

    n: int
    title: str
    url: str
    content: str

    def to_dict(self) -> dict[str, Any]:
        """``{"n", "title", "url", "content"}``."""
        return asdict(self)


AnswerMode = Literal["llm", "extractive"]
TIMING_STAGES: tuple[str, ...] = ("condense", "expand", "retrieve", "rerank", "web", "first_token", "total")
"""Keys of :attr:`Answer.timings_ms`, always all present (``None`` for a stage that did not run)."""


@dataclass
class Answer:
    """The response to one question; :meth:`to_dict` is the stable JSON of ``python -m prism ask --json``.

    Attributes:
        answer: the answer text with validated ``[n]`` / ``[Wn]`` markers (or the message when there is none).
        mode: ``llm`` or ``extractive`` (no LLM configured, or the LLM failed).
        citations: the blocks the answer cites, by ``n``.
        retrieved: the retrieved blocks the answer does not cite, by ``n``.
        web: web results shown to the LLM, by ``n``.
        condensed_query: the standalone query used for retrieval (the question itself without history).
        unsupported_numbers: figures in the answer (as written) not found in the blocks they cite.
        timings_ms: milliseconds per stage, keys :data:`TIMING_STAGES`.
        message: what the analyst should know besides the answer (degraded features, why there is no answer).
    """

    answer: str
    mode: AnswerMode
    citations: list[Citation] = field(default_factory=list)
    retrieved: list[Citation] = field(default_factory=list)
    web: list[WebResult] = field(default_factory=list)
    condensed_query: str = ""
    unsupported_numbers: list[str] = field(default_factory=list)
    timings_ms: dict[str, float | None] = field(default_factory=lambda: dict.fromkeys(TIMING_STAGES))
    message: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"answer", "mode", "citations", "retrieved", "web", "condensed_query", "unsupported_numbers",
        "timings_ms", "message"}`` (timings rounded to 0.01 ms)."""
        return {
            "answer": self.answer,
            "mode": self.mode,
            "citations": [c.to_dict() for c in self.citations],
            "retrieved": [c.to_dict() for c in self.retrieved],
            "web": [w.to_dict() for w in self.web],
            "condensed_query": self.condensed_query,
            "unsupported_numbers": list(self.unsupported_numbers),
            "timings_ms": {k: (round(v, 2) if v is not None else None) for k, v in self.timings_ms.items()},
            "message": self.message,
        }


DocumentType = Literal[
    "10-K",
    "10-Q",
    "8-K",
    "annual_report",
    "earnings_call",
    "rbi_master_direction",
    "rbi_master_circular",
    "rbi_circular",
    "rbi_notification",
    "npci_circular",
    "other",
]
DOCUMENT_TYPES: tuple[str, ...] = DocumentType.__args__
"""Every document type a :class:`DocumentProfile` may carry (the vocabulary's one home)."""

PROFILE_UNITS: tuple[str, ...] = ("thousands", "millions", "billions", "lakh", "crore")
"""Every unit a :class:`DocumentProfile` may carry: what one reported figure is counted in."""

PROFILE_FIELDS: tuple[str, ...] = (
    "entity",
    "ticker",
    "type",
    "period",
    "fiscal_year_end",
    "currency",
    "unit",
    "reference",
    "date",
)
"""The profile's value fields, in display order; each may have a :class:`ProfileSource` in ``sources``."""

CORRECTED_SNIPPET = "corrected by analyst"
"""The snippet of a field's source after an analyst corrected it (its page is ``None``)."""


@dataclass(frozen=True)
class ProfileSource:
    """Where one profile field was read: the 1-based page (``None`` for unpaged text or a correction) and a snippet
    of at most 160 characters of that page's text (whitespace collapsed)."""

    page: int | None
    snippet: str

    def to_dict(self) -> dict[str, Any]:
        """``{"page", "snippet"}``."""
        return {"page": self.page, "snippet": self.snippet}


@dataclass(frozen=True)
class DocumentProfile:
    """What one document is about: entity, document type, period, currency and unit, each with its source.

    The conventions (period strings, dates, fiscal-year naming) are those of :mod:`prism.ingestion.profile`.

    Attributes:
        entity: the company, issuer or regulator ("Walmart Inc.", "Reserve Bank of India, Department of
            Regulation", "National Payments Corporation of India"), or ``None``.
        ticker: the common stock's trading symbol ("WMT"), or ``None``.
        type: one of :data:`DOCUMENT_TYPES`, or ``None``.
        period: ``"FY2020"`` (fiscal year), ``"Q2 FY2022"`` (fiscal quarter) or an ISO date ``"2025-04-01"`` (the
            date of a circular or a current report), or ``None``.
        fiscal_year_end: ISO date the fiscal year of ``period`` ends (``"2020-01-31"``), or ``None``.
        currency: ISO 4217 code of the reported figures ("USD", "INR"), or ``None``.
        unit: one of :data:`PROFILE_UNITS`, or ``None``.
        sources: field name → where it was read; only fields that have a value.
        aliases: other names an analyst may use for the entity: short names, ticker, circular references.
        reference: the document's own number: an RBI reference ("RBI/2025-26/13"), a notification or circular
            number ("NPCI/UPI/OC No. 116A/2021-22"), or ``None``.
        date: ISO date the document is dated (circular, call, current report), or ``None``.
    """

    entity: str | None
    ticker: str | None
    type: str | None
    period: str | None
    fiscal_year_end: str | None
    currency: str | None
    unit: str | None
    sources: dict[str, ProfileSource] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    reference: str | None = None
    date: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"entity", "ticker", "type", "period", "fiscal_year_end", "currency", "unit", "reference", "date",
        "aliases", "sources": {field: {"page", "snippet"}}}`` (JSON-serialisable)."""
        out: dict[str, Any] = {name: getattr(self, name) for name in PROFILE_FIELDS}
        out["aliases"] = list(self.aliases)
        out["sources"] = {name: src.to_dict() for name, src in self.sources.items()}
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DocumentProfile:
        """Inverse of :meth:`to_dict`; missing keys become ``None`` / empty (older records)."""
        sources = {
            str(name): ProfileSource(src.get("page"), str(src.get("snippet", "")))
            for name, src in (data.get("sources") or {}).items()
        }
        values = {name: data.get(name) for name in PROFILE_FIELDS}
        return cls(**values, sources=sources, aliases=tuple(data.get("aliases") or ()))

    def corrected(self, **fields: str | None) -> DocumentProfile:
        """A copy with an analyst's corrections; each corrected field's source becomes
        ``ProfileSource(None, "corrected by analyst")`` (a field set to ``None`` loses its source).

        Args:
            **fields: any of :data:`PROFILE_FIELDS`; ``type`` must be one of :data:`DOCUMENT_TYPES`, ``unit`` one
                of :data:`PROFILE_UNITS`, ``fiscal_year_end`` and ``date`` ISO dates (``YYYY-MM-DD``).

        Raises:
            PrismError: an unknown field name or a value outside its vocabulary, with what is allowed.
        """
        from dataclasses import replace
        from datetime import date as _date

        from prism.errors import PrismError

        unknown = sorted(set(fields) - set(PROFILE_FIELDS))
        if unknown:
            raise PrismError(f"cannot correct {', '.join(unknown)}: a profile has {', '.join(PROFILE_FIELDS)}")
        kind = fields.get("type")
        if kind is not None and kind not in DOCUMENT_TYPES:
            raise PrismError(f"document type {kind!r} is not known; use one of {', '.join(DOCUMENT_TYPES)}")
        unit = fields.get("unit")
        if unit is not None and unit not in PROFILE_UNITS:
            raise PrismError(f"unit {unit!r} is not known; use one of {', '.join(PROFILE_UNITS)}")
        for name in ("fiscal_year_end", "date"):
            value = fields.get(name)
            if value is not None:
                try:
                    _date.fromisoformat(value)
                except ValueError as exc:
                    raise PrismError(f"{name} {value!r} is not a date; write it as YYYY-MM-DD") from exc
        sources = dict(self.sources)
        for name, value in fields.items():
            if value is None:
                sources.pop(name, None)
            else:
                sources[name] = ProfileSource(None, CORRECTED_SNIPPET)
        return replace(self, **fields, sources=sources)
