"""Value types of documents: what is ingested, parsed, chunked and registered, and a workspace's identity.

Pages are 1-based physical positions: the PDF page, the slide, the sheet of a workbook. Unpaged sources (TXT, MD,
CSV, DOCX, HTML, URL) carry ``page=None`` on their single page and their chunks carry no page keys at all (never a
null in store metadata). What a citation shows is the chunk's *locator*: its pages with their printed labels, the
slide, or the sheet and rows, formatted by the one function :func:`page_label`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from prism.fsutil import sanitize_filename
from prism.types.profiles import DocumentProfile
from prism.types.tables import ChunkTable, Table

DocumentKind = Literal["pdf", "txt", "csv", "url", "docx", "xlsx", "pptx", "html"]
PageUnit = Literal["page", "slide", "sheet"]
"""What one :class:`Page` of a paged document is: a PDF page, a slide (PPTX) or a sheet (XLSX)."""
PAGE_UNITS: dict[str, PageUnit] = {"pdf": "page", "pptx": "slide", "xlsx": "sheet"}
"""The page unit of each paged document kind; other kinds are unpaged."""
LOCATOR_KEYS: tuple[str, ...] = ("page_start", "page_end", "label_start", "label_end", "row_start", "row_end",
                                 "page_unit")
"""The flat chunk-metadata keys :func:`locator_of` reads (each present only when it has a value)."""


ProgressCallback = Callable[[float, str], None]
"""``callback(fraction_done in [0, 1], message)``."""


def _span(first: str, last: str) -> str:
    return first if last == first else f"{first}–{last}"


def page_label(page_start: int | None, page_end: int | None = None, *, label_start: str | None = None,
               label_end: str | None = None, row_start: int | None = None, row_end: int | None = None,
               page_unit: str | None = None) -> str:
    """The one way Prism names where a chunk is: its locator as a citation shows it.

    Args:
        page_start: first 1-based physical page (PDF page, slide, sheet), or ``None`` for an unpaged source.
        page_end: last page (``None``: same as ``page_start``).
        label_start: the printed label of the first page (PDF ``/PageLabels``: ``"ii"``, ``"2"``) or, for a
            sheet, its name (``"Q3"``); ``None`` when the document gives none.
        label_end: the same for the last page.
        row_start: first spreadsheet row (1-based, as the spreadsheet numbers it, header row = 1) or ``None``.
        row_end: last row (``None``: same as ``row_start``).
        page_unit: ``"page"`` (default when ``None``), ``"slide"`` or ``"sheet"``.

    Returns:
        ``""`` for an unpaged source; PDF pages ``"page 5"`` / ``"pages 5–6"``, or with printed labels that differ
        from the physical numbers ``"p. 2 (PDF p. 4)"`` / ``"pp. 2–3 (PDF pp. 4–5)"``; slides ``"Slide 3"`` /
        ``"Slides 3–4"``; sheets ``"Sheet 'Q3' row 14"`` / ``"Sheet 'Q3' rows 11–14"`` (``"Sheet 'Q3'"`` without
        rows, ``"Sheet 'Q3' – Sheet 'Notes'"`` across two sheets).
    """
    if page_start is None:
        return ""
    end = page_end if page_end is not None else page_start
    if page_unit == "slide":
        return f"Slide {page_start}" if end == page_start else f"Slides {page_start}–{end}"
    if page_unit == "sheet":
        first = f"Sheet '{label_start}'" if label_start else f"sheet {page_start}"
        if end != page_start:
            return f"{first} – " + (f"Sheet '{label_end}'" if label_end else f"sheet {end}")
        if row_start is None:
            return first
        last_row = row_end if row_end is not None else row_start
        return f"{first} {'row' if last_row == row_start else 'rows'} {_span(str(row_start), str(last_row))}"
    printed = (label_start or str(page_start), label_end or label_start or str(end))
    if printed == (str(page_start), str(end)):
        return f"page {page_start}" if end == page_start else f"pages {page_start}–{end}"
    if end == page_start:
        return f"p. {printed[0]} (PDF p. {page_start})"
    return f"pp. {_span(*printed)} (PDF pp. {page_start}–{end})"


def locator_of(meta: Mapping[str, Any]) -> str:
    """Where a chunk is, from a mapping: its ``"locator"`` when it has one (a citation or search-result dict), else
    :func:`page_label` of the keys of :data:`LOCATOR_KEYS` that are present (store metadata, a chunk row, a result
    of an evaluation run)."""
    if isinstance(meta.get("locator"), str):
        return meta["locator"]
    return page_label(*(meta.get(k) for k in ("page_start", "page_end")),
                      **{k: meta.get(k) for k in LOCATOR_KEYS[2:]})


def count_phrase(n: int, singular: str, plural: str | None = None) -> str:
    """``"1 page"``, ``"2 pages"``: a count with its noun in the right number (plural default: ``singular + "s"``)."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


class CancelToken:
    """Asks a running ingest batch to stop (thread-safe): :meth:`cancel` from any thread; the pipeline checks
    :attr:`cancelled` between documents and between stages and stops before writing anything more."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        """Ask the batch to stop (idempotent)."""
        self._event.set()

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""
        return self._event.is_set()


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
        number: 1-based physical page number (PDF page, slide, sheet), or ``None`` for an unpaged source.
        text: normalised text (may be empty only for pages that were skipped; parsers drop those).
        ocr: True when the text came from OCR rather than the PDF's text layer.
        label: the page's own name when the document gives one: a PDF's printed label from ``/PageLabels``
            (``"iv"``, ``"2"``, ``"A-1"``) or a sheet's name (``"Q3"``); ``None`` otherwise (slides are named by
            their number).
    """

    number: int | None
    text: str
    ocr: bool = False
    label: str | None = None


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
        kind: ``pdf``, ``pptx``, ``xlsx`` (paged), ``txt``, ``csv``, ``docx``, ``html`` or ``url`` (unpaged).
        pages: pages with text, in order; for unpaged kinds exactly one page with ``number=None``.
        total_pages: pages (slides, sheets) in the original, or 0 for unpaged kinds.
        skipped_pages: pages without indexable text and why.
        warnings: other things the analyst should know (e.g. "encoding detected as cp1252").
        tables: tables the loader read from the file's structure (a CSV's rows, spreadsheet sheets, Word and slide
            tables), each with the 1-based ``page`` it is on (the single page of an unpaged document) and offsets
            into that page's text. PDF tables are found later, in the stored page text
            (:func:`prism.ingestion.tables.stored_text.find_tables`).
        ocr_seconds: wall seconds the parser spent rendering and reading its pages without a text layer (0: none);
            a measurement, not part of what was parsed, so two parses of one file compare equal whatever it took.
    """

    source: str
    kind: DocumentKind
    pages: tuple[Page, ...]
    total_pages: int = 0
    skipped_pages: tuple[SkippedPage, ...] = ()
    warnings: tuple[str, ...] = ()
    tables: tuple[Table, ...] = ()
    ocr_seconds: float = field(default=0.0, compare=False)

    @property
    def paged(self) -> bool:
        """True for sources with real page numbers (PDF pages, slides, sheets)."""
        return self.kind in PAGE_UNITS

    @property
    def page_unit(self) -> PageUnit | None:
        """``"page"``, ``"slide"`` or ``"sheet"`` for a paged kind, ``None`` for an unpaged one."""
        return PAGE_UNITS.get(self.kind)

    @property
    def ocr_pages(self) -> list[int]:
        """1-based numbers of the pages whose text came from OCR."""
        return [p.number for p in self.pages if p.ocr and p.number is not None]


@dataclass(frozen=True)
class Chunk:
    """A span of a document's text, the unit that is embedded, indexed and cited.

    ``char_start``/``char_end`` index the document text, i.e. the pages' texts joined with
    :data:`prism.ingestion.chunking.PAGE_SEPARATOR`; ``document_text[char_start:char_end] == text`` always holds.
    The locator fields (see :func:`page_label`): ``page_start``/``page_end`` physical 1-based pages (slides,
    sheets); ``label_start``/``label_end`` their printed labels or sheet names when the document gives them;
    ``row_start``/``row_end`` the spreadsheet rows the chunk holds; ``page_unit`` ``"slide"`` or ``"sheet"``
    (``None`` for PDF pages and unpaged sources).
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
    label_start: str | None = None
    label_end: str | None = None
    row_start: int | None = None
    row_end: int | None = None
    page_unit: str | None = None
    table: ChunkTable | None = None
    attributes: dict[str, str] = field(default_factory=dict)

    def metadata(self) -> dict[str, str | int]:
        """Flat metadata for the vector store: no ``None`` values (page keys are absent for unpaged sources; label,
        row and unit keys when the chunk has none; profile and table keys only when they have a value)."""
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
        for key in LOCATOR_KEYS[2:]:
            value = getattr(self, key)
            if value is not None:
                meta[key] = value
        return meta

    @property
    def locator(self) -> str:
        """Where the chunk is, as citations show it (:func:`page_label`); ``""`` for an unpaged source."""
        return locator_of(self.metadata())


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
        injections: sentences addressed to an AI assistant (prompt injection, OWASP LLM01:2025), ``[{"page": n or
            None, "text": the sentence}]`` (:func:`prism.index.injection.find_injections`); never briefed or obeyed.
        exhibit_entities: other entities whose financial statements the filing carries as exhibits (the chunks'
            ``exhibit_entity``, :func:`prism.index.sections.assign_sections`), in order of first appearance; a
            question naming one of them is about this filing, not an unknown company.
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
    injections: list[dict[str, Any]] = field(default_factory=list)
    exhibit_entities: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain-dict form for JSON."""
        return asdict(self)

    def to_public_dict(self) -> dict[str, Any]:
        """The record as ``docs --json`` prints it: :meth:`to_dict` with ``profile`` the effective profile
        (:meth:`effective_profile`, corrections applied: ``{"entity", "ticker", "type", "period", "fiscal_year_end",
        "currency", "unit", "reference", "date", "aliases", "sources"}``, or ``None``); ``profile_corrections`` says
        which fields the analyst set."""
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
