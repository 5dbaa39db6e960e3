"""Running headers and footers: lines a PDF repeats at the top or bottom of most pages.

A 10-K repeats "Table of Contents" and a page number on every page, an RBI master direction its short title, a
bank circular "Page 3 of 5". Left in, they split sentences that run across a page break, open every page's first
chunk with the same words, and make every page match a query that names them. This module finds them and takes them
out of the page texts before chunking; the page numbers of the text that remains are unchanged.

A line is *running* when, with its digits masked (``"Page 3 of 5"`` → ``"page # of #"``), case folded and spaces
collapsed, it is among the first ``zone`` or the last ``zone`` non-empty lines of at least ``min_share`` of the
document's pages (and of at least 3 pages). Tops and bottoms are counted separately, so a page number that
runs in the footer is not also removed from the top of a table. Only lines in those zones are removed, never body
text, and a page whose every line is running keeps its text. This is the usual frequency heuristic for page
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

from prism.types import Page, ParsedDocument

logger = logging.getLogger(__name__)

_DIGITS = re.compile(r"\d+")
_SPACES = re.compile(r"\s+")
MIN_REPEATS = 3
"""A line must run on at least this many pages, whatever the share."""


def line_key(line: str) -> str:
    """The form under which lines are compared: digits masked as ``#``, case folded, whitespace collapsed."""
    return _SPACES.sub(" ", _DIGITS.sub("#", line)).strip().casefold()


@dataclass(frozen=True)
class RunningLines:
    """What :func:`strip_running_lines` removed.

    Attributes:
        top: keys (see :func:`line_key`) of the running header lines, sorted.
        bottom: keys of the running footer lines, sorted.
        lines_removed: lines taken out, over all pages.
    """

    top: tuple[str, ...] = ()
    bottom: tuple[str, ...] = ()
    lines_removed: int = 0


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
    """
    need = max(MIN_REPEATS, math.ceil(min_share * len(pages)))
    tops: Counter[str] = Counter()
    bottoms: Counter[str] = Counter()
    for page in pages:
        top, bottom = _edges(page.text, zone)
        tops.update({line_key(line) for line in top if len(line) <= max_chars})
        bottoms.update({line_key(line) for line in bottom if len(line) <= max_chars})
    return frozenset(k for k, n in tops.items() if n >= need), frozenset(k for k, n in bottoms.items() if n >= need)


def _strip_page(text: str, top: frozenset[str], bottom: frozenset[str], zone: int) -> tuple[str, int]:
    lines = text.split("\n")
    content = [i for i, line in enumerate(lines) if line.strip()]
    drop: set[int] = set()
    for i in content[:zone]:
        if line_key(lines[i]) not in top:
            break
        drop.add(i)
    for i in reversed(content[-zone:]):
        if line_key(lines[i]) not in bottom:
            break
        drop.add(i)
    if not drop or len(drop) == len(content):
        return text, 0
    kept = "\n".join(line for i, line in enumerate(lines) if i not in drop)
    return re.sub(r"\n{3,}", "\n\n", kept).strip(), len(drop)


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
    removed = 0
    for page in doc.pages:
        text, n = _strip_page(page.text, top, bottom, zone)
        removed += n
        pages.append(page if n == 0 else replace(page, text=text))
    if removed == 0:
        return doc, RunningLines()
    found = RunningLines(tuple(sorted(top)), tuple(sorted(bottom)), removed)
    logger.info("%s: removed %d running header/footer lines (%s)", doc.source, removed,
                "; ".join(repr(k[:60]) for k in (*found.top, *found.bottom)))
    return replace(doc, pages=tuple(pages)), found
