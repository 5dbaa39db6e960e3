"""Value type of an ingest's outcome for one file: its status, what was stored, and where the time went."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

IngestStatus = Literal["ingested", "duplicate", "replaced", "failed", "cancelled"]

INGEST_STAGES: tuple[str, ...] = ("parse", "ocr", "profile", "chunk", "embed", "store", "bm25", "briefing")
"""The stages of :attr:`IngestResult.stage_seconds`, in the order a document goes through them: ``parse`` (waiting
for the parser's text layers, OCR not counted), ``ocr`` (rendering and reading the pages without a text layer, in the
parser: it overlaps embedding when the document was parsed ahead), ``profile`` (document profile, running lines,
title), ``chunk`` (chunking and tokenising), ``embed`` (all of it, the part embedded while it was still parsing
included), ``store`` (the commit), ``bm25`` (its share, by chunks, of the batch's BM25 rebuild) and ``briefing`` (the
offline briefing)."""


@dataclass
class IngestResult:
    """The outcome for one file of an ingest batch; ``to_dict`` is the CLI's stable JSON shape.

    ``status``: ``ingested``, ``replaced`` (a document of the same name was replaced; ``replaced_added_at`` is when
    that version had been added, ISO-8601 UTC), ``duplicate``, ``failed`` (``error`` says why) or ``cancelled`` (the
    batch was cancelled before this file was stored). ``injections`` as :attr:`DocumentRecord.injections`.
    ``stage_seconds``: wall seconds per stage of :data:`INGEST_STAGES` that ran (a stage that did not run is absent).
    """

    file: str
    status: IngestStatus
    doc_id: str | None = None
    pages: int | None = None
    chunks: int = 0
    skipped_pages: list[dict[str, Any]] = field(default_factory=list)
    ocr_pages: list[int] = field(default_factory=list)
    error: str | None = None
    warnings: list[str] = field(default_factory=list)
    replaced_added_at: str | None = None
    injections: list[dict[str, Any]] = field(default_factory=list)
    stage_seconds: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The CLI JSON object ``{"file", "status", "doc_id", "pages", "chunks", "skipped_pages", "ocr_pages",
        "error", "warnings", "replaced_added_at", "injections", "stage_seconds"}``."""
        return asdict(self)

    def notes(self) -> list[str]:
        """:attr:`warnings` as the CLI and the Upload page list them, without a warning's leading ``"<file>: "``."""
        return [w.removeprefix(f"{self.file}: ") for w in self.warnings]
