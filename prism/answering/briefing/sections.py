"""The sections a briefing says a document covers: its own headings (numbered clauses, annexures, ``Item 7.`` of a
10-K), each at the page of its last occurrence (a table of contents lists them first); sentences, cut titles,
reference lines, generic headings and a filing's exhibit index, cover addresses and subsidiary lists left out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prism.answering.briefing.facts import FILING_TYPES, DocumentText, Fact
from prism.index.tokenizer import STOP_WORDS
from prism.types import BriefingBullet, BulletCitation, DocumentProfile
from prism.vocabulary import legal

_HEADING_RE = re.compile(
    r"^[ \t]*(?P<number>\d+(?:\.\d+)*\.?|Annex(?:ure)?\s+[A-Z0-9]+|Appendix\s+[A-Z0-9]+|Table\s+\d+|Chapter\s+[A-Z0-9]+"
    r"|Part\s+[A-Z0-9]+|Section\s+\d+|Item\s+\d+[A-Z]?\.?)(?:[ \t]*[–—:.-][ \t]*|[ \t]+)(?P<title>[A-Z][^\n]{3,80})$",
    re.MULTILINE,
)
# A filing's exhibit index ("10.5 Equity Incentive Plan*", "101.SCH XBRL Taxonomy Extension Schema Document X",
# "31.1 Certification … (a)"), the addresses on its cover ("410 Terry Avenue North") and the subsidiaries it lists
# ("Leasing Company II, LLC Nevada") are numbered lines, not the document's sections.
_EXHIBIT_RE = re.compile(r"\bXBRL\b|\bLinkbase\b|Interactive Data|(?:\*|\s[xX]|\(a\)|†)$")
_ADDRESS_RE = re.compile(
    r"^Avenida\b|\b(?:Avenue|Street|Way|Road|Boulevard|Drive|Lane|Parkway|Plaza)(?:\s+(?:North|South|East|West))?$")
_COMPANY_RE = re.compile(legal.LISTING_RE)
_EXHIBIT_NUMBER_RE = re.compile(r"\d+\.\d+")
# A filing's signature page ends the filing proper; what follows it is the exhibits filed with it (agreements, plans).
_SIGNATURES_RE = re.compile(r"^[ \t]*(?:SIGNATURES?|Signatures?)[ \t]*$", re.MULTILINE)
GENERIC_HEADINGS = frozenset({
    "introduction", "purpose", "purpose and scope", "scope", "definitions", "contents", "background", "general",
    "annex", "appendix", "applicability", "effective date", "effective date and review", "repeal",
    "repeal and saving", "master direction", "master directions", "references", "exhibits", "signatures",
    "not applicable", "none", "reserved", "preliminary", "terminology", "miscellaneous", "short title and commencement",
    "interpretation", "instructions", "annexures", "appendices", "omitted", "deleted",
    "mine safety disclosures", "unresolved staff comments", "removed and reserved",  # a 10-K's items with no content
})
"""Headings too generic to say what a document covers."""


def _heading_title(raw: str) -> str | None:
    title = " ".join(raw.split()).strip(" :–-")
    words = title.split()
    if not words or title.endswith(".") or len(words) > 12 or words[-1].lower() in STOP_WORDS \
            or re.search(r"[/\\]", title) or re.search(r"\.{3,}|\s\d+$", title):
        return None  # a sentence, a heading cut by a line wrap, a reference number, a contents line with its page
    if sum(bool(re.fullmatch(r"[A-Za-z][a-z]{2,}\W*", w)) for w in words) < 1 or re.search(r"\d|[₹$%]", title):
        return None  # no word, or a table row's label with its figures
    if re.search(r"(?<![\w'’])(?:[A-HJ-Z]|[b-hj-z])\s[a-z]{2,}", title):
        return None  # a word the PDF's text layer split ("F ranchisees", "e xposure")
    if words[0][:1].islower() or words[0].lower() in STOP_WORDS or re.search(r"\bNo\.\s*\d|\b(19|20)\d\d\b", title):
        return None  # a sentence fragment, or a reference line ("Circular No. 40 December 10, 2008")
    content = [w for w in words if len(w) > 3 and w.lower() not in STOP_WORDS]
    capitals = sum(w[:1].isupper() for w in content)
    if re.search(r"[,:;]$|[,:]\s+[a-z]", title) or (len(words) > 5 and capitals < len(content) / 2):
        return None  # a sentence opening with a clause number ("2. Accordingly, the agency banks are …")
    return None if title.lower() in GENERIC_HEADINGS else title


def section_headings(doc: DocumentText, profile: DocumentProfile | None = None) -> list[tuple[str, BulletCitation]]:
    """The document's headings in order of first appearance, unique (case-insensitive), each cited at the page of
    its last occurrence; sentences, cut titles, reference lines, :data:`GENERIC_HEADINGS`, exhibit-index lines,
    addresses and company names are left out, and so, in a filing (``profile.type`` in ``FILING_TYPES``), are lines
    numbered like exhibits ("10.5", "31.1"); a filing numbers its sections "Item 7." and its notes "Note 5" or "5."."""
    filing = profile is not None and profile.type in FILING_TYPES
    signed = [m.start() for m in _SIGNATURES_RE.finditer(doc.text)] if filing else []
    end = signed[-1] if signed else len(doc.text)
    last: dict[str, tuple[str, BulletCitation]] = {}
    order: list[str] = []
    for m in _HEADING_RE.finditer(doc.text, 0, end):
        raw = " ".join(m.group("title").split())
        if _EXHIBIT_RE.search(raw) or _ADDRESS_RE.search(raw) or _COMPANY_RE.search(raw) or raw.endswith(" Page") \
                or " . " in raw \
                or (filing and _EXHIBIT_NUMBER_RE.fullmatch(m.group("number").rstrip("."))):
            continue
        title = _heading_title(raw)
        if title is None or title.count("(") != title.count(")"):
            continue
        key = title.lower()
        if key not in last:
            order.append(key)
        last[key] = (title, doc.citation(m.start("title")))
    return [last[k] for k in order]


def sections_fact(headings: Sequence[tuple[str, BulletCitation]], limit: int = 6) -> Fact | None:
    """"Covers: Transaction Limits; Dispute Resolution and Chargebacks; …" with the pages of up to ``limit``
    headings spread over the document; ``None`` without headings."""
    if not headings:
        return None
    if len(headings) > limit:
        step = (len(headings) - 1) / (limit - 1)
        headings = [headings[round(i * step)] for i in range(limit)]
    cites = tuple(sorted({c for _t, c in headings}, key=lambda c: (c.page or 0, c.chunk_id)))
    text = "Covers: " + "; ".join(t for t, _c in headings) + "."
    return Fact(BriefingBullet(text, cites, "sections"))

