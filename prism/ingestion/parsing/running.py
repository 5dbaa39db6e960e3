"""Running headers and footers: lines a PDF repeats at the top or bottom of most pages.

A 10-K repeats "Table of Contents" and a page number on every page, an RBI master direction its short title, a
bank circular "Page 3 of 5". Left in, they split sentences that run across a page break, open every page's first
chunk with the same words, and make every page match a query that names them. This module finds them and takes them
out of the page texts before chunking; the page numbers of the text that remains are unchanged.

A line is *running* when, with its digits masked (``"Page 3 of 5"`` → ``"page # of #"``), case folded and spaces
collapsed, it is among the first ``zone`` or the last ``zone`` non-empty lines of at least ``min_share`` of the
document's pages (and of at least 3 pages). Tops and bottoms are counted separately, so a page number that
runs in the footer is not also removed from the top of a table. Only lines in those zones are removed, never body
text, and a page whose every line is running keeps its text. A line that says what a table's numbers mean — a unit
line such as ``"(In millions)"``, ``"Rs. in crore"``, ``"₹ lakh"``
(:func:`prism.ingestion.tables.stored_text.is_unit_line`) — or a statement heading (``"CONSOLIDATED BALANCE SHEETS"``,
:func:`~prism.ingestion.tables.stored_text.is_statement_heading`) is
content even when it repeats on every page: it is never removed. This is the usual frequency heuristic for page
furniture (X. Lin, "Header and footer extraction by page association", Proc. SPIE 5010, Document Recognition and
Retrieval X, 2003); a document with fewer pages than ``min_pages`` is left alone. The knobs are the
``running_lines_*`` fields of :class:`prism.config.Settings`.
"""

from __future__ import annotations

import logging
import math
import re
from collections import Counter
from dataclasses import dataclass, replace

from prism.ingestion.tables.stored_text import is_statement_heading, is_unit_line
from prism.types import Page, ParsedDocument

logger = logging.getLogger(__name__)

_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")
MIN_REPEATS = 3
"""A line must run on at least this many pages, whatever the share."""


def line_key(line: str) -> str:
    """The form under which lines are compared: digits masked as ``#``, case folded, whitespace collapsed."""
    return _SPACES.sub(" ", _DIGITS.sub("#", line)).strip().casefold()


def is_content_line(line: str) -> bool:
    """True for a line running-line removal must keep however often it repeats: a unit line or a statement
    heading (see the module docstring)."""
    return is_unit_line(line) or is_statement_heading(line)


@dataclass(frozen=True)
class RemovedLine:
    """One running line as the analyst is shown it: the ``text`` of its first occurrence as printed, its
    ``position`` (``"header"`` or ``"footer"``) and the number of ``pages`` it was removed from."""

    text: str
    position: str
    pages: int

    def to_dict(self) -> dict[str, str | int]:
        """``{"text", "position", "pages"}``."""
        return {"text": self.text, "position": self.position, "pages": self.pages}


@dataclass(frozen=True)
class RunningLines:
    """What :func:`strip_running_lines` removed.

    Attributes:
        top: keys (see :func:`line_key`) of the running header lines, sorted.
        bottom: keys of the running footer lines, sorted.
        lines_removed: lines taken out, over all pages.
        removed: one :class:`RemovedLine` per key that was removed somewhere, headers first, then by pages
            (most first) and text.
    """

    top: tuple[str, ...] = ()
    bottom: tuple[str, ...] = ()
    lines_removed: int = 0
    removed: tuple[RemovedLine, ...] = ()


def _edges(text: str, zone: int) -> tuple[list[str], list[str]]:
    lines = [line for line in text.split("\n") if line.strip()]
    return lines[:zone], lines[-zone:] if len(lines) > zone else lines[zone:]


def find_running_lines(
    pages: tuple[Page, ...] | list[Page], *, zone: int, min_share: float, max_chars: int
) -> tuple[frozenset[str], frozenset[str]]:
    """Keys of the running header and footer lines of ``pages``.

    Args:
        pages: the document's pages with text.
        zone: how many non-empty lines at the top (and at the bottom) of a page are candidates.
        min_share: fraction of pages (0–1] a line must run on.
        max_chars: longer lines are never running (a repeated paragraph is content).

    Returns:
        ``(top_keys, bottom_keys)``; both empty when no line runs on ``max(3, ceil(min_share × pages))`` pages.
        Unit lines and statement headings (:func:`is_content_line`) are never keys.
    """
    need = max(MIN_REPEATS, math.ceil(min_share * len(pages)))
    tops: Counter[str] = Counter()
    bottoms: Counter[str] = Counter()
    for page in pages:
        top, bottom = _edges(page.text, zone)
        tops.update({line_key(line) for line in top if len(line) <= max_chars and not is_content_line(line)})
        bottoms.update({line_key(line) for line in bottom if len(line) <= max_chars and not is_content_line(line)})
    return frozenset(k for k, n in tops.items() if n >= need), frozenset(k for k, n in bottoms.items() if n >= need)


def _strip_page(text: str, top: frozenset[str], bottom: frozenset[str],
                zone: int) -> tuple[str, list[tuple[str, str]]]:
    """The page without its running lines, and the lines dropped as ``(position, line)``."""
    lines = text.split("\n")
    content = [i for i, line in enumerate(lines) if line.strip()]
    drop: dict[int, str] = {}
    for i in content[:zone]:
        if line_key(lines[i]) not in top:
            break
        drop[i] = "header"
    for i in reversed(content[-zone:]):
        if line_key(lines[i]) not in bottom:
            break
        drop.setdefault(i, "footer")
    if not drop or len(drop) == len(content):
        return text, []
    kept = "\n".join(line for i, line in enumerate(lines) if i not in drop)
    return re.sub(r"\n{3,}", "\n\n", kept).strip(), [(where, lines[i].strip()) for i, where in drop.items()]


def _removed_lines(dropped: list[tuple[str, str]]) -> tuple[RemovedLine, ...]:
    """One :class:`RemovedLine` per (position, key): its first text as printed and how many pages dropped it."""
    first: dict[tuple[str, str], str] = {}
    pages: Counter[tuple[str, str]] = Counter()
    for where, line in dropped:
        key = (where, line_key(line))
        first.setdefault(key, line)
        pages[key] += 1
    lines = [RemovedLine(first[key], key[0], n) for key, n in pages.items()]
    return tuple(sorted(lines, key=lambda r: (r.position != "header", -r.pages, r.text)))


def strip_running_lines(
    doc: ParsedDocument, *, zone: int, min_share: float, min_pages: int, max_chars: int
) -> tuple[ParsedDocument, RunningLines]:
    """Remove running header and footer lines from a paged document.

    Args:
        doc: a parsed, normalised document; unpaged documents, slides and sheets (a sheet's rows are data, never
            furniture) and documents with fewer than ``min_pages`` pages with text are returned unchanged.
        zone: non-empty lines at each end of a page that may be running (a header block of two lines is common).
        min_share: fraction of pages a line must run on (see the module docstring).
        min_pages: fewest pages with text for the pass to run (on 2–3 pages every line of a letterhead repeats).
        max_chars: lines longer than this are never removed.

    Returns:
        ``(document, removed)``: the document with page texts stripped (same pages, numbers and metadata; a page
        whose every line is running is kept as it was) and what was removed.
    """
    if doc.page_unit != "page" or len(doc.pages) < max(min_pages, MIN_REPEATS):
        return doc, RunningLines()
    top, bottom = find_running_lines(doc.pages, zone=zone, min_share=min_share, max_chars=max_chars)
    if not top and not bottom:
        return doc, RunningLines()
    pages: list[Page] = []
    dropped: list[tuple[str, str]] = []
    for page in doc.pages:
        text, lines = _strip_page(page.text, top, bottom, zone)
        dropped += lines
        pages.append(page if not lines else replace(page, text=text))
    if not dropped:
        return doc, RunningLines()
    removed = len(dropped)
    found = RunningLines(tuple(sorted(top)), tuple(sorted(bottom)), removed, _removed_lines(dropped))
    logger.info("%s: removed %d running header/footer lines (%s)", doc.source, removed,
                "; ".join(repr(k[:60]) for k in (*found.top, *found.bottom)))
    return replace(doc, pages=tuple(pages)), found
