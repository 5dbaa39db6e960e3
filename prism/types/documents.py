"""Value types of documents: what is ingested, parsed, chunked and registered, and a workspace's identity.

Pages are 1-based. Unpaged sources (TXT, CSV, URL) carry ``page=None`` on their single page and their chunks carry
no page keys at all (never a null in store metadata).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from prism.fsutil import sanitize_filename
from prism.types.profiles import DocumentProfile
from prism.types.tables import ChunkTable, Table

DocumentKind = Literal["pdf", "txt", "csv", "url"]
IngestStatus = Literal["ingested", "duplicate", "replaced", "failed"]


ProgressCallback = Callable[[float, str], None]
"""``callback(fraction_done in [0, 1], message)``."""


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
        tables: tables the loader read from the file's structure (a CSV's rows), whose offsets index the text of
            the page numbered ``table.page`` (the single page of an unpaged document). PDF tables are found later,
            in the stored page text (:func:`prism.ingestion.tables.find_tables`).
    """

    source: str
    kind: DocumentKind
    pages: tuple[Page, ...]
    total_pages: int = 0
    skipped_pages: tuple[SkippedPage, ...] = ()
    warnings: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()

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
    ``table`` is set for a chunk of a table (its rows, column headers, unit and index header); ``attributes`` are
    the document's flat metadata every chunk carries (its profile: :meth:`DocumentProfile.metadata`).
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
    table: ChunkTable | None = None
    attributes: dict[str, str] = field(default_factory=dict)

    def metadata(self) -> dict[str, str | int]:
        """Flat metadata for the vector store: no ``None`` values (page keys are absent for unpaged sources; profile
        and table keys only when they have a value)."""
        meta: dict[str, str | int] = {**self.attributes, **(self.table.metadata() if self.table else {}),
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
        profile: the profile extracted at ingest (:meth:`DocumentProfile.to_dict`), or ``None`` (indexed before
            0.3.0, or a bulk corpus text).
        profile_corrections: the analyst's corrections, field → value (``None``: the field has no value), kept apart
            from the extracted profile and re-applied when the document is re-indexed.
        running_lines: the running header and footer lines removed from its pages, ``[{"text": a line as printed,
            "position": "header"|"footer", "pages": pages it was removed from}]``.
        tables: tables found in its text.
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
    profile: dict[str, Any] | None = None
    profile_corrections: dict[str, str | None] = field(default_factory=dict)
    running_lines: list[dict[str, Any]] = field(default_factory=list)
    tables: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Plain-dict form for JSON."""
        return asdict(self)

    def to_public_dict(self) -> dict[str, Any]:
        """The record as ``docs --json`` prints it: :meth:`to_dict` with ``profile`` the effective profile
        (:meth:`effective_profile`, corrections applied: ``{"entity", "ticker", "type", "period",
        "fiscal_year_end", "currency", "unit", "reference", "date", "aliases", "sources"}``, or ``None``);
        ``profile_corrections`` says which fields the analyst set."""
        out = self.to_dict()
        profile = self.effective_profile()
        out["profile"] = profile.to_dict() if profile is not None else None
        return out

    def effective_profile(self) -> DocumentProfile | None:
        """The extracted profile with the analyst's corrections applied, or ``None`` when the document has neither
        (:meth:`DocumentProfile.corrected`)."""
        if self.profile is None and not self.profile_corrections:
            return None
        base = DocumentProfile.from_dict(self.profile or {})
        return base.corrected(**self.profile_corrections) if self.profile_corrections else base


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
