"""Briefing bullets and their citations: what a document's briefing holds once it is stored in its record.

Built by :mod:`prism.answering.briefing.compose`; stored as ``{"bullets": [{"text", "citations": [{"page",
"chunk_id"}]}], "questions": [...], "mode", "model", "note"}`` in :attr:`prism.types.DocumentRecord.briefing`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BulletCitation:
    """Where a bullet's fact was read: a 1-based page (``None`` for an unpaged source) and the chunk it came from
    (``""`` when the fact is the document's profile read from a page, not a chunk)."""

    page: int | None
    chunk_id: str = ""

    def to_dict(self) -> dict[str, Any]:
        """``{"page", "chunk_id"}``."""
        return {"page": self.page, "chunk_id": self.chunk_id}


@dataclass(frozen=True)
class BriefingBullet:
    """One point of a briefing: a sentence an analyst can forward and the pages it is read from.

    Attributes:
        text: the point, one sentence (document text, or built from a table row or the profile).
        citations: where it was read, at least one for a bullet Prism builds; ordered by page.
        kind: what it says: ``identity`` (entity, type, period), ``figure`` (a key figure from a statement),
            ``headline`` / ``guidance`` (an earnings release's headline figure, its guidance), ``rule`` /
            ``applies`` / ``effective`` / ``limit`` / ``penalty`` (circulars), ``sections`` (its headings) or
            ``point`` (a central sentence).
    """

    text: str
    citations: tuple[BulletCitation, ...] = ()
    kind: str = "point"

    def pages(self) -> list[int]:
        """The cited pages, unique, ascending (unpaged citations left out)."""
        return sorted({c.page for c in self.citations if c.page is not None})

    def pages_note(self) -> str:
        """`` (p. 3)`` or `` (pp. 1, 4)``: the cited pages as a reader sees them after the text (``""`` when none)."""
        pages = self.pages()
        if not pages:
            return ""
        return f" (p. {pages[0]})" if len(pages) == 1 else f" (pp. {', '.join(map(str, pages))})"

    def label(self) -> str:
        """What the point is, as a reader sees it before its text ("Applies to", "Effective date", "Penalty",
        "Rule", "Guidance"; :data:`KIND_LABELS`), ``""`` for a kind whose text says it (a headline figure opens
        with its name, a central sentence has none)."""
        return KIND_LABELS.get(self.kind, "")

    def to_dict(self) -> dict[str, Any]:
        """``{"text", "citations": [{"page", "chunk_id"}], "kind"}``."""
        return {"text": self.text, "citations": [c.to_dict() for c in self.citations], "kind": self.kind}

    @classmethod
    def from_value(cls, value: Any) -> BriefingBullet:
        """A bullet from its stored form: :meth:`to_dict`'s dict, or a bare string (older briefings,
        which have no citations)."""
        if isinstance(value, dict):
            cites = tuple(BulletCitation(c.get("page"), str(c.get("chunk_id") or ""))
                          for c in value.get("citations") or () if isinstance(c, dict))
            return cls(str(value.get("text") or ""), cites, str(value.get("kind") or "point"))
        return cls(str(value))


KIND_LABELS: dict[str, str] = {"guidance": "Guidance", "rule": "Rule", "applies": "Applies to",
                               "effective": "Effective date", "deadline": "Deadline", "penalty": "Penalty",
                               "limit": "Limit"}
"""The label a briefing point of each kind is shown with (:meth:`BriefingBullet.label`)."""


def briefing_points(briefing: dict[str, Any] | None) -> tuple[BriefingBullet | None, list[BriefingBullet]]:
    """``(identity line, points)`` of a stored briefing as the app shows it: an offline briefing's identity bullet
    (entity, type, period) apart, as the card's caption, and the other bullets as its points; an LLM's bullets all
    as points. ``(None, [])`` without a briefing."""
    bullets = [BriefingBullet.from_value(b) for b in (briefing or {}).get("bullets") or []]
    if bullets and bullets[0].kind == "identity" and (briefing or {}).get("mode") != "llm":
        return bullets[0], bullets[1:]
    return None, bullets
