"""Value types of the comparison grid: one answered cell (:class:`CompareCell`) and a saved grid
(:class:`CompareGrid`) of documents (columns) × questions (rows). Built by :mod:`prism.answering.compare.grid`, stored
by
:mod:`prism.answering.compare.store`; the ``to_dict`` forms are the JSON of ``python -m prism compare --json`` and of
the saved grid files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

CellStatus = Literal["found", "not_found", "error"]
"""What a cell holds: ``found`` (a short answer with citations), ``not_found`` (the document does not answer the
question; the closest passage is kept) or ``error`` (asking failed; ``answer`` says why)."""


@dataclass(frozen=True)
class CellCitation:
    """Where a cell's answer comes from: the document's file name, the 1-based page (``None`` for an unpaged
    source), the locator as a citation shows it, the chunk id and the citation's number in the full answer."""

    file: str
    page: int | None
    locator: str = ""
    chunk_id: str = ""
    n: int = 0

    def label(self, titles: Mapping[str, str] | None = None) -> str:
        """``"file p. N"`` (the export form), ``"file, Slide 3"`` for a locator without a page, or the file name;
        the file named by its display title when ``titles`` (``{file name: title}``) has one."""
        name = (titles or {}).get(self.file, self.file)
        if self.page is not None:
            return f"{name} p. {self.page}"
        return f"{name}, {self.locator}" if self.locator else name

    def to_dict(self) -> dict[str, Any]:
        """``{"file", "page", "locator", "chunk_id", "n"}``."""
        return {"file": self.file, "page": self.page, "locator": self.locator, "chunk_id": self.chunk_id,
                "n": self.n}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CellCitation:
        """The citation from its :meth:`to_dict` form."""
        page = data.get("page")
        return cls(str(data.get("file", "")), int(page) if page is not None else None, str(data.get("locator", "")),
                   str(data.get("chunk_id", "")), int(data.get("n") or 0))


@dataclass(frozen=True)
class CompareCell:
    """One document's answer to one question of a grid.

    Attributes:
        document: the document's file name (the column).
        question: the row's question as the analyst wrote it (or the template's label question).
        asked: the question as asked of this document (a template's period filled in from its profile).
        period: the fiscal period the cell is about (from the document's profile), or ``None``.
        status: ``found``, ``not_found`` or ``error`` (:data:`CellStatus`).
        answer: the short answer (at most ~300 characters), "Not found in this document." or the error message.
        citations: where a found answer comes from; empty otherwise.
        closest: the closest passage of a ``not_found`` cell, or ``None``.
        doc_id: the document's id (sha256 of its bytes) when the cell was answered.
        full: the whole :meth:`prism.types.Answer.to_dict` the cell was cut from (the citation panel draws it),
            or ``None`` for an error.
        cached: True when the cell came from the cache rather than being answered now (not saved).
        note: what went wrong on the way to a found answer, e.g. the LLM was rate-limited after its retries and the
            cell shows an extractive answer instead (such a cell is not cached, so the next run asks again), or
            ``None``.
    """

    document: str
    question: str
    asked: str
    status: CellStatus
    answer: str
    citations: tuple[CellCitation, ...] = ()
    period: str | None = None
    closest: CellCitation | None = None
    doc_id: str = ""
    full: dict[str, Any] | None = field(default=None, compare=False)
    cached: bool = field(default=False, compare=False)
    note: str | None = None

    def citation_labels(self, titles: Mapping[str, str] | None = None) -> str:
        """The citations as ``"file p. N; file p. M"`` (distinct, in order; files by their ``titles``, see
        :meth:`CellCitation.label`), ``""`` without any."""
        return "; ".join(dict.fromkeys(c.label(titles) for c in self.citations))

    def as_cached(self) -> CompareCell:
        """The same cell marked as read from the cache."""
        return replace(self, cached=True)

    def to_dict(self, full: bool = False) -> dict[str, Any]:
        """``{"document", "question", "asked", "period", "status", "answer", "citations", "closest", "doc_id",
        "note"}`` (``citations`` as :meth:`CellCitation.to_dict`); with ``full`` also ``"full"``, the whole answer."""
        out = {"document": self.document, "question": self.question, "asked": self.asked, "period": self.period,
               "status": self.status, "answer": self.answer, "citations": [c.to_dict() for c in self.citations],
               "closest": self.closest.to_dict() if self.closest else None, "doc_id": self.doc_id,
               "note": self.note}
        if full:
            out["full"] = self.full
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CompareCell:
        """The cell from its :meth:`to_dict` form (``full`` when present)."""
        closest = data.get("closest")
        status = data.get("status")
        return cls(str(data.get("document", "")), str(data.get("question", "")), str(data.get("asked", "")),
                   status if status in ("found", "not_found", "error") else "error", str(data.get("answer", "")),
                   tuple(CellCitation.from_dict(c) for c in data.get("citations") or ()), data.get("period"),
                   CellCitation.from_dict(closest) if closest else None, str(data.get("doc_id", "")),
                   data.get("full"), note=data.get("note") or None)


@dataclass(frozen=True)
class ExportFormat:
    """One export format of a comparison grid, as the UI offers it and the CLI writes it.

    Attributes:
        key: the format's name and file extension (``"csv"``, ``"xlsx"``, ``"md"``).
        label: the button's word ("CSV", "XLSX", "Markdown").
        mime: the MIME type of the bytes (RFC 6838 registrations; XLSX per ECMA-376).
        suffixes: every file extension that selects the format (``("md", "markdown")``), lower case, no dot.
    """

    key: str
    label: str
    mime: str
    suffixes: tuple[str, ...]


EXPORT_FORMATS: tuple[ExportFormat, ...] = (
    ExportFormat("csv", "CSV", "text/csv", ("csv",)),
    ExportFormat("xlsx", "XLSX", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", ("xlsx",)),
    ExportFormat("md", "Markdown", "text/markdown", ("md", "markdown")),
)
"""The grid's export formats, in the order they are offered: the one registry the Compare page, ``compare --out``
and the facade's writers (:data:`prism.answering.compare.facade.WRITERS`) read."""


@dataclass(frozen=True)
class CompareGrid:
    """A saved grid: its documents (columns, at most 12), questions (rows) and the cells answered so far.

    Attributes:
        id: ``g-`` + 12 hex digits (the file name).
        title: the analyst's name for it.
        documents: file names, in column order.
        questions: the rows, in order.
        cells: answered cells (any order; :meth:`cell` finds one).
        created_at, updated_at: ISO-8601 UTC times.
    """

    id: str
    title: str
    documents: tuple[str, ...]
    questions: tuple[str, ...]
    cells: tuple[CompareCell, ...] = ()
    created_at: str = ""
    updated_at: str = ""

    def cell(self, document: str, question: str) -> CompareCell | None:
        """The cell of that column and row, or ``None`` when it is not answered."""
        return next((c for c in self.cells if c.document == document and c.question == question), None)

    def to_dict(self) -> dict[str, Any]:
        """``{"id", "title", "documents", "questions", "cells", "created_at", "updated_at"}`` (cells with
        ``full``)."""
        return {"id": self.id, "title": self.title, "documents": list(self.documents),
                "questions": list(self.questions), "cells": [c.to_dict(full=True) for c in self.cells],
                "created_at": self.created_at, "updated_at": self.updated_at}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CompareGrid:
        """The grid from its :meth:`to_dict` form."""
        return cls(str(data.get("id", "")), str(data.get("title", "")), tuple(data.get("documents") or ()),
                   tuple(data.get("questions") or ()), tuple(CompareCell.from_dict(c) for c in data.get("cells") or ()),
                   str(data.get("created_at", "")), str(data.get("updated_at", "")))
