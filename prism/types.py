"""Value types passed between Prism's layers, and the few words every layer shares.

Pages are 1-based. Unpaged sources (TXT, CSV, URL) carry ``page=None`` on their single page and their chunks carry
no page keys at all (never a null in store metadata). A ground-floor module: it imports only :mod:`prism.fsutil`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from prism.fsutil import sanitize_filename

DocumentKind = Literal["pdf", "txt", "csv", "url"]
IngestStatus = Literal["ingested", "duplicate", "replaced", "failed"]

class CompletesText(Protocol):
    """What expansion and the LLM judge need of a language model: ``complete(prompt) -> str``
    (:class:`prism.answering.llm.LLMClient`; tests use scripted fakes). Implementations raise
    :class:`~prism.errors.LLMError` subclasses."""

    def complete(self, prompt: str, **kwargs: Any) -> str: ...


ProgressCallback = Callable[[float, str], None]
"""``callback(fraction_done in [0, 1], message)``."""

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


def page_label(page_start: int | None, page_end: int | None) -> str:
    """The one way Prism names a chunk's pages: ``"page 5"``, ``"pages 5–6"``, or ``""`` for an unpaged source."""
    if page_start is None:
        return ""
    if page_end is None or page_end == page_start:
        return f"page {page_start}"
    return f"pages {page_start}–{page_end}"


@dataclass(frozen=True)
class FileType:
    """An upload type Prism reads (registry: :data:`prism.ingestion.parsing.LOADERS`).

    Attributes:
        name: short name (``pdf``).
        label: how the analyst is told (``PDF``).
        extensions: file name extensions with the dot, lower case (``(".pdf",)``).
        mime: the MIME type (``application/pdf``).
    """

    name: str
    label: str
    extensions: tuple[str, ...]
    mime: str


def file_types_phrase(file_types: Sequence[FileType]) -> str:
    """``"PDF, TXT, MD or CSV files"``: upload types as the Upload page and the error texts name them."""
    labels = [t.label for t in file_types]
    return (", ".join(labels[:-1]) + " or " + labels[-1] if len(labels) > 1 else "".join(labels)) + " files"


@dataclass(frozen=True)
class IngestItem:
    """One thing to ingest: ``source`` is the file's bytes, a file path, or an ``http(s)://`` URL string;
    ``filename`` is its display name (default: the path's name; ``"document"`` for bytes without one)."""

    source: bytes | str | Path
    filename: str | None = None

    @property
    def is_url(self) -> bool:
        """True for an ``http://`` or ``https://`` URL."""
        return isinstance(self.source, str) and self.source.startswith(("http://", "https://"))

    @property
    def display_name(self) -> str:
        """The URL itself, or the sanitised file name (:func:`prism.fsutil.sanitize_filename`)."""
        if self.is_url:
            return str(self.source)
        name = self.filename or (Path(self.source).name if not isinstance(self.source, bytes) else "document")
        return sanitize_filename(name)


@dataclass(frozen=True)
class WorkspaceInfo:
    """A workspace's identity: ``id`` (folder name), display ``name``, Chroma ``collection``, ``created_at``."""

    id: str
    name: str
    collection: str
    created_at: str

    def to_dict(self) -> dict[str, str]:
        """``{"id", "name", "collection", "created_at"}``."""
        return {"id": self.id, "name": self.name, "collection": self.collection, "created_at": self.created_at}


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
    :data:`prism.ingestion.chunking.PAGE_SEPARATOR`; ``document_text[char_start:char_end] == text`` always holds.
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


@dataclass(frozen=True)
class MetricSpec:
    """One evaluation metric (registry: :data:`prism.evaluation.metrics.METRICS`).

    Attributes:
        name: Prism's name (``ndcg@10``, ``answer_f1``), the key in run files, ``index.json`` and tables.
        description: one line on what it measures.
        source: who computes it: ``ranx`` (ranked retrieval), ``relevance`` (lenient precision) or ``answers``.
        granularities: for retrieval metrics, the dataset granularities it is computed on (``chunk``, ``document``).
        headline: shown in the CLI summary, the runs table and the ablation bars.
        lower_is_better: a drop is an improvement (e.g. ``false_declines``).
        answer_key: for answer metrics, the key of a question's answer record that holds its value.
        questions: for answer metrics, the questions it is averaged over: ``all``, ``positive`` (not negative) or
            ``negative``.
    """

    name: str
    description: str
    source: Literal["ranx", "relevance", "answers"] = "ranx"
    granularities: tuple[str, ...] = ()
    headline: bool = False
    lower_is_better: bool = False
    answer_key: str | None = None
    questions: Literal["all", "positive", "negative"] = "all"

    def value(self, question: Mapping[str, Any]) -> float | None:
        """One question's value in a run file: ``question["metrics"][name]``, else for an answer metric its answer
        record's ``answer_key`` (a bool as 0/1); ``None`` when absent or when the metric leaves out this kind of
        question (``questions``)."""
        metrics = question.get("metrics") or {}
        if metrics.get(self.name) is not None:
            return float(metrics[self.name])
        answer = question.get("answer") or {}
        if self.answer_key is None or answer.get(self.answer_key) is None:
            return None
        negative = question.get("type") == "negative"
        if (self.questions == "negative" and not negative) or (self.questions == "positive" and negative):
            return None
        return float(answer[self.answer_key])


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


@dataclass(frozen=True)
class Turn:
    """One exchange of a chat: the analyst's question, the answer text, and the standalone query used for it."""

    question: str
    answer: str
    condensed_query: str | None = None

    @property
    def standalone(self) -> str:
        """The standalone form of the question (the condensed query, else the question)."""
        return self.condensed_query or self.question


NoteKind = Literal["declined", "extractive", "degraded", "web", "no_match", "citations_removed", "unsupported_figures"]
"""What an :class:`Answer` note is about:

- ``declined``: there is no answer, and why (empty workspace, nothing to search for, nothing relevant);
- ``extractive``: the answer is extractive because no LLM is configured;
- ``degraded``: a feature was off or failed and the answer went on without it (LLM, condensing, HyDE, multi-query,
  web search);
- ``web``: the documents do not cover the question and the answer uses web results only;
- ``no_match``: the retriever's message when it found nothing (e.g. no lexical match);
- ``citations_removed``: citation markers that pointed at no block were removed;
- ``unsupported_figures``: figures in the answer were not found in the blocks they cite
  (:attr:`Answer.unsupported_numbers` lists them).
"""


@dataclass(frozen=True)
class Note:
    """Something the analyst should know about an answer besides its text: its ``kind`` and a sentence."""

    kind: NoteKind
    text: str

    def to_dict(self) -> dict[str, str]:
        """``{"kind", "text"}``."""
        return {"kind": self.kind, "text": self.text}


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
        notes: what the analyst should know besides the answer, as :class:`Note` s in the order they arose.
        message: the notes' texts joined by spaces (``None`` without notes); kept for the ``ask --json`` shape of
            earlier versions.
    """

    answer: str
    mode: AnswerMode
    citations: list[Citation] = field(default_factory=list)
    retrieved: list[Citation] = field(default_factory=list)
    web: list[WebResult] = field(default_factory=list)
    condensed_query: str = ""
    unsupported_numbers: list[str] = field(default_factory=list)
    timings_ms: dict[str, float | None] = field(default_factory=lambda: dict.fromkeys(TIMING_STAGES))
    notes: list[Note] = field(default_factory=list)

    @property
    def message(self) -> str | None:
        """The notes' texts joined by spaces, or ``None`` without notes."""
        return " ".join(n.text for n in self.notes) or None

    def to_dict(self) -> dict[str, Any]:
        """``{"answer", "mode", "citations", "retrieved", "web", "condensed_query", "unsupported_numbers",
        "timings_ms", "notes", "message"}`` (timings rounded to 0.01 ms; ``notes`` as ``{"kind", "text"}``)."""
        return {
            "answer": self.answer,
            "mode": self.mode,
            "citations": [c.to_dict() for c in self.citations],
            "retrieved": [c.to_dict() for c in self.retrieved],
            "web": [w.to_dict() for w in self.web],
            "condensed_query": self.condensed_query,
            "unsupported_numbers": list(self.unsupported_numbers),
            "timings_ms": {k: (round(v, 2) if v is not None else None) for k, v in self.timings_ms.items()},
            "notes": [n.to_dict() for n in self.notes],
            "message": self.message,
        }
