"""Document profiles: what one document is about (entity, document type, period, currency, unit), each field with
the page and snippet it was read from. Extracted by :mod:`prism.ingestion.profiles.read`; corrected by analysts.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date as date_type
from typing import Any, Literal, cast, get_args

from prism.errors import PrismError
from prism.vocabulary.units import TABLE_UNITS

DocumentType = Literal[
    "10-K",
    "10-Q",
    "8-K",
    "annual_report",
    "earnings_call",
    "earnings_release",
    "rbi_master_direction",
    "rbi_master_circular",
    "rbi_circular",
    "rbi_notification",
    "npci_circular",
    "other",
]
DOCUMENT_TYPES: tuple[str, ...] = get_args(DocumentType)
"""Every document type a :class:`DocumentProfile` may carry (the vocabulary's one home)."""

PROFILE_UNITS: tuple[str, ...] = TABLE_UNITS
"""Every unit a :class:`DocumentProfile` may carry: what one reported figure is counted in (the table units of
:mod:`prism.vocabulary.units`)."""

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
    "title",
)
"""The profile's value fields, in display order; each may have a :class:`ProfileSource` in ``sources``."""

DOCUMENT_TYPE_LABELS: dict[str, str] = {
    "10-K": "10-K", "10-Q": "10-Q", "8-K": "8-K", "annual_report": "annual report", "earnings_call": "earnings call",
    "earnings_release": "earnings release", "rbi_master_direction": "RBI master direction",
    "rbi_master_circular": "RBI master circular", "rbi_circular": "RBI circular",
    "rbi_notification": "RBI notification", "npci_circular": "NPCI circular", "other": "other",
}
"""How a document type is written for a reader (a citation line, a title header)."""

PROFILE_METADATA_KEYS: dict[str, str] = {
    "entity": "entity", "type": "doc_type", "period": "period", "fiscal_year_end": "fiscal_year_end",
    "currency": "currency", "unit": "unit",
}
"""Profile field → the flat metadata key every chunk of the document carries (vector store and chunk rows)."""

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

    The conventions (period strings, dates, fiscal-year naming) are those of :mod:`prism.ingestion.profiles.read`.

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
        title: the document's own title as printed on its first page ("Master Circular – Disbursement of
            Government Pension by Agency Banks"), or ``None`` (:mod:`prism.ingestion.profiles.heading`).
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
    title: str | None = None

    def metadata(self) -> dict[str, str]:
        """The flat chunk metadata of the document (:data:`PROFILE_METADATA_KEYS`): ``entity``, ``doc_type``,
        ``period``, ``fiscal_year_end``, ``currency``, ``unit``; only keys that have a value (never ``None``)."""
        return {key: getattr(self, name) for name, key in PROFILE_METADATA_KEYS.items() if getattr(self, name)}

    def line(self, sep: str = " · ") -> str:
        """Entity, document type and period as one short line: ``"Netflix, Inc. · 10-K · FY2015"``; the parts that
        are known (``""`` when none is)."""
        kind = DOCUMENT_TYPE_LABELS.get(self.type or "", self.type) if self.type != "other" else None
        return sep.join(part for part in (self.entity, kind, self.period) if part)

    @classmethod
    def from_metadata(cls, metadata: dict[str, Any]) -> DocumentProfile:
        """The profile fields a chunk's flat metadata carries (:meth:`metadata`'s keys); the others ``None``."""
        values = {name: metadata.get(key) for name, key in PROFILE_METADATA_KEYS.items()}
        text: dict[str, Any] = {name: str(v) if v is not None else None for name, v in values.items()}
        return cls(ticker=None, **text)

    def to_dict(self) -> dict[str, Any]:
        """``{"entity", "ticker", "type", "period", "fiscal_year_end", "currency", "unit", "reference", "date",
        "title", "aliases", "sources": {field: {"page", "snippet"}}}`` (JSON-serialisable)."""
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
                    date_type.fromisoformat(value)
                except ValueError as exc:
                    raise PrismError(f"{name} {value!r} is not a date; write it as YYYY-MM-DD") from exc
        sources = dict(self.sources)
        for name, value in fields.items():
            if value is None:
                sources.pop(name, None)
            else:
                sources[name] = ProfileSource(None, CORRECTED_SNIPPET)
        return replace(self, **cast("dict[str, Any]", fields), sources=sources)
