"""A document's own title, read from its first page: what a reader calls it ("Master Circular – Disbursement of
Government Pension by Agency Banks"), not its file name ("05MC0104…5016A33587F.pdf").

RBI circulars and directions print the title after the salutation or as a line that starts with the kind of
instrument ("Master Circular - …", "Master Direction – …", "Reserve Bank of India (…) Directions, 2025"); a title
that wraps is joined while a bracket is open, the line ends with a joining word or a long line ran on (a labelled
line such as "Supersedes: …" ends it). A ``# heading`` on a document's first line is its title. Other documents
give ``None`` here (the display rule then falls back to the file name).
"""

from __future__ import annotations

import re

from prism.ingestion.profiles.text import Found, Pages, source

MAX_TITLE_CHARS = 200
"""Longest title kept, characters (a longer "title" is a paragraph)."""
_LINES_SCANNED = 60
_INSTRUMENT = re.compile(
    r"^(?:master\s+(?:circular|directions?)\b|reserve\s+bank\s+of\s+india\s*[\[(]|"
    r"foreign\s+exchange\s+management\s*\(|sub(?:ject)?\s*[:.]\s*\S)", re.IGNORECASE)
_SUBJECT_PREFIX = re.compile(r"^sub(?:ject)?\s*[:.]\s*", re.IGNORECASE)
_TAIL = re.compile(r"^(?:directions|regulations|rules|guidelines)\b", re.IGNORECASE)
_SALUTATION = re.compile(r"^(?:madam|dear\s+sir|sir)\b[\s/,a-z]*$", re.IGNORECASE)
_BODY_START = re.compile(r"^(?:please|the|we|this|in\s+exercise|attached|\d+\.|table\s+of\s+contents)\b", re.I)
_JOINING = frozenset({"and", "of", "on", "for", "the", "to", "in", "by", "with", "under", "-", "–", ",", "&"})
_MD_HEADING = re.compile(r"^#\s+(\S.*)$")
_LABEL = re.compile(r"^[A-Z][A-Za-z ]{2,20}:")  # "Supersedes: …", "Encl: …": a labelled line is not the title
_WRAPPED_CHARS = 55
"""A title line this long (characters) most likely wrapped onto the next line."""


def _lines(text: str) -> list[tuple[str, int, int]]:
    """``(stripped line, start, end)`` of each non-empty line of ``text``, offsets into ``text``."""
    out = []
    for m in re.finditer(r"[^\n]+", text):
        line = " ".join(m.group().split())
        if line:
            out.append((line, m.start(), m.end()))
    return out


def _continues(title: str) -> bool:
    """True while a wrapped title is not finished: a bracket open or a joining last word."""
    last = title.rsplit(" ", 1)[-1].lower()
    return title.count("(") > title.count(")") or title.count("[") > title.count("]") or last in _JOINING \
        or title.endswith((",", "-", "–"))


def _joined(lines: list[tuple[str, int, int]], i: int) -> tuple[str, int]:
    """The title starting at ``lines[i]`` with its wrapped lines (at most three more), and the end offset."""
    title, end, prev = lines[i][0], lines[i][2], lines[i][0]
    for line, _start, line_end in lines[i + 1 : i + 4]:
        wrapped = len(prev) >= _WRAPPED_CHARS or line[:1].islower()  # a long line ran on to this one
        if not (_continues(title) or _TAIL.match(line) or wrapped) or _BODY_START.match(line) \
                or _SALUTATION.match(line) or _LABEL.match(line):
            break
        title, end, prev = f"{title} {line}", line_end, line
    return title, end


def _clean(title: str) -> str | None:
    """``title`` with a "Sub:" prefix dropped, a spaced hyphen written as an en dash, or ``None`` when it is too
    long or has fewer than two words."""
    title = _SUBJECT_PREFIX.sub("", title).strip(" .:")
    title = re.sub(r"(\w{3,}|\))\s+-\s+", r"\1 – ", title)  # "Adequacy - Primary", not "Co - operative"
    if len(title) > MAX_TITLE_CHARS or len(title.split()) < 2:
        return None
    return title


def find_title(pages: Pages) -> Found | None:
    """The document's title from its first page that has text, and where it was read.

    Args:
        pages: ``(1-based page number or None, text)`` in document order; empty pages already dropped.

    Returns:
        ``(title, ProfileSource)``; whitespace collapsed, at most :data:`MAX_TITLE_CHARS` characters; ``None`` when
        the first page has no Markdown heading, no instrument line and no line after a salutation.
    """
    if not pages:
        return None
    number, text = pages[0]
    lines = _lines(text)[:_LINES_SCANNED]
    for i, (line, start, _end) in enumerate(lines):
        heading = _MD_HEADING.match(line) if i == 0 else None  # a Markdown title opens its document
        after_salutation = i > 0 and _SALUTATION.match(lines[i - 1][0]) and not _BODY_START.match(line)
        if heading or after_salutation or _INSTRUMENT.match(line):
            raw, end = (heading.group(1), lines[i][2]) if heading else _joined(lines, i)
            title = _clean(raw)
            if title:
                return title, source(number, text, start, end)
    return None
