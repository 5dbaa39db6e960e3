"""Which section of a filing each chunk is in, and whose exhibit it is.

:func:`assign_sections` reads a document's pages in order and follows its headings (the words are in
:mod:`prism.vocabulary.sections`): an Item heading starts that Item's section, the notes' heading starts ``notes``,
a page opening with "Exhibit 99.3" starts ``exhibits``. A table of contents is no heading: a page with three Item
headings or more, most of them ending in a page number, is skipped. Before the first heading a chunk has no section
(a circular, a transcript or a cover page).

An exhibit may be another entity's: MGM Resorts' 10-K carries CityCenter Holdings, LLC's balance sheet as Exhibit
99.3. The name with a legal suffix in the exhibit's first lines, when its first word is not the filer's, is the
chunk's ``exhibit_entity``, so retrieval does not let that balance sheet answer for MGM.

Both are chunk metadata (``section``, ``exhibit_entity``) and the section is one BM25 token (``section:mdna``,
:func:`section_tokens`), so a search can rank the chunks of one kind of section (:mod:`prism.retrieval.sections`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from prism.index.statements import statement_kinds
from prism.vocabulary.legal import ENTITY_RE
from prism.vocabulary.sections import (
    EXHIBIT_HEADING,
    ITEM_HEADING,
    NOTES_HEADING,
    QUESTION_CUES,
    TEN_K_ITEMS,
    TITLE_KINDS,
)

__all__ = ["SectionTag", "assign_sections", "question_sections", "section_starts", "section_tokens"]

HEAD_SHARE = 0.4
"""A heading in the first 40 % of a chunk's text names the chunk's own section; one further down starts the next
chunk's."""

_PAGE_REF = re.compile(r"\d+\s*$")
_NAME_LINE = re.compile(rf"^(?P<name>[A-Z][\w&.'’-]*(?:\s+(?:[A-Z][\w&.'’-]*,?|&|of|and)){{0,6}}?,?\s+{ENTITY_RE})",
                        re.MULTILINE)
_FINANCIALS = re.compile(r"financial\s+statements", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9]+")
_CUES = {kind: re.compile(r"\b(?:" + "|".join(words) + r")\b", re.IGNORECASE) for kind, words in QUESTION_CUES.items()}


@dataclass(frozen=True)
class SectionTag:
    """A chunk's ``section`` (a key of :data:`prism.vocabulary.sections.SECTION_KINDS`, or ``None`` before the first
    heading) and ``exhibit_entity`` (another entity's name when the chunk is in its exhibit, else ``None``)."""

    section: str | None = None
    exhibit_entity: str | None = None

    def metadata(self) -> dict[str, str]:
        """The flat chunk metadata: ``{"section", "exhibit_entity"}``, only the keys with a value."""
        return {k: v for k, v in (("section", self.section), ("exhibit_entity", self.exhibit_entity)) if v}


def _title_kind(number: str, title: str) -> str:
    first = title.split("\n", 1)[0]
    for text in (first, " ".join(title.split())):
        for pattern, kind in TITLE_KINDS:
            if pattern.search(text):
                return kind
    return TEN_K_ITEMS.get(number.lower(), "other")


def _page_headings(page: str, toc_end: int) -> list[tuple[int, str]]:
    """``(offset in the page, kind)`` of one page's Item and notes headings, in text order: Item headings only after
    ``toc_end`` and never one ending in a page number (a contents entry)."""
    found = [(m.start(), _title_kind(m.group(1), m.group("title"))) for m in ITEM_HEADING.finditer(page)
             if m.start() > toc_end and not _is_page_ref(m)]
    found += [(m.start(), "notes") for m in NOTES_HEADING.finditer(page)]
    return sorted(found)


def _toc_end(page: str) -> int:
    """Where a table of contents ends on a page (the offset of its last entry), or -1: a page listing three Item
    headings or more, most ending in a page number, is a contents page; a heading after its last entry (the first
    Item starting on the same page) is real."""
    found = [(m.start(), _is_page_ref(m)) for m in ITEM_HEADING.finditer(page)]
    refs = [at for at, ref in found if ref]
    return max(refs) if len(found) >= 3 and len(refs) * 2 >= len(found) else -1


def _is_page_ref(m: re.Match[str]) -> bool:
    return bool(_PAGE_REF.search(m.group("title").split("\n", 1)[0]))


def _words(name: str) -> list[str]:
    return [w for w in _WORD.findall(name.lower()) if w not in ("the", "and", "subsidiaries")]


def _exhibit_entity(text: str, filer: str | None) -> str | None:
    """The entity an exhibit's first lines name (at a line start, capitalised words ending in an entity's legal
    suffix: "CityCenter Holdings, LLC"; an auditor's "LLP" is no entity), when its first word is not the filer's and
    the exhibit holds financial statements (a list of subsidiaries or a certification is the filer's own)."""
    m = _NAME_LINE.search(text[:600])
    if not m or not (_FINANCIALS.search(text) or statement_kinds(text)):
        return None
    name = " ".join(m.group("name").split())
    theirs, ours = _words(name), _words(filer or "")
    if theirs and ours and theirs[0] == ours[0]:
        return None
    return name


def section_starts(text: str, page_offsets: Sequence[int], entity: str | None = None) -> list[tuple[int, SectionTag]]:
    """Where each section of a document starts: ``(offset in text, tag)`` in text order.

    Args:
        text: the document's text, its pages joined (:func:`prism.ingestion.chunking.document_text`).
        page_offsets: where each page starts in ``text``, ascending.
        entity: the filer (the document profile's entity), to tell another entity's exhibit from its own.

    An Item heading starts its kind (:data:`~prism.vocabulary.sections.TITLE_KINDS`, else the Form 10-K number), the
    notes' heading starts ``notes`` (keeping an exhibit's entity: the notes of another entity's statements are its
    own), and a page opening with an exhibit number starts ``exhibits`` at the page's start (a later page of the same
    exhibit, which repeats its number, keeps its entity). Contents entries are
    skipped (:func:`_toc_end`).
    """
    starts: list[tuple[int, SectionTag]] = []
    current = SectionTag()
    exhibit = ""  # the number of the exhibit in force: its later pages repeat it at their top
    ends = [*page_offsets[1:], len(text)]
    for start, end in zip(page_offsets, ends, strict=True):
        page = text[start:end]
        if m := EXHIBIT_HEADING.search(page):
            same = m.group(1) == exhibit and current.section in ("exhibits", "notes")
            current = SectionTag("exhibits", _exhibit_entity(page[m.end():], entity)
                                 or (current.exhibit_entity if same else None))
            exhibit = m.group(1)
            starts.append((start, current))
        for offset, kind in _page_headings(page, _toc_end(page)):
            current = SectionTag(kind, current.exhibit_entity if kind == "notes" else None)
            starts.append((start + offset, current))
    return starts


def assign_sections(text: str, page_offsets: Sequence[int], spans: Sequence[tuple[int, int]],
                    entity: str | None = None) -> list[SectionTag]:
    """The section of every chunk of one document.

    Args:
        text, page_offsets, entity: as :func:`section_starts`.
        spans: each chunk's ``(char_start, char_end)`` in ``text``.

    Returns:
        One :class:`SectionTag` per span, in the same order: the section in force at the span's first
        :data:`HEAD_SHARE` (a heading early in a chunk names the chunk's section, one further down the next chunk's).
        Before the first heading, ``SectionTag()`` (no section: a circular, a transcript, a cover page).
    """
    starts = section_starts(text, page_offsets, entity)
    positions = [at for at, _ in starts]
    tags = []
    for lo, hi in spans:
        i = bisect.bisect_right(positions, lo + HEAD_SHARE * (hi - lo)) - 1
        tags.append(starts[i][1] if i >= 0 else SectionTag())
    return tags


def section_tokens(metadata: Mapping[str, object]) -> list[str]:
    """The BM25 token of a chunk's section (``["section:mdna"]``; ``[]`` without one)."""
    section = metadata.get("section")
    return [f"section:{section}"] if section else []


def question_sections(question: str) -> set[str]:
    """The section kinds whose text a question looks for (:data:`prism.vocabulary.sections.QUESTION_CUES`): "What
    drove margins?" → ``{"mdna"}``, "What are the main risks?" → ``{"risk_factors"}``; empty when it cues none."""
    return {kind for kind, pattern in _CUES.items() if pattern.search(question)}
