"""A cited passage in its place: the text of its page, slide or sheet rebuilt from the stored chunks, passage marked.

A PDF citation is previewed on the page image (:mod:`prism.ui.preview`); other sources have no image, so the preview
shows the text around the passage. That text is rebuilt from the document's chunk rows, not from the original
file: every row holds ``document_text[char_start:char_end]``, the chunks cover all of the document's text except
whitespace between them (which is shown as a line break), and the passage's own offsets mark it exactly. The text
is limited to the chunks on the passage's pages (slide, sheet; the whole document when unpaged) and to
``context_chars`` on each side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from prism.types import PassageView, locator_of

CONTEXT_CHARS = 1500
"""Characters of context shown on each side of the passage (at most)."""


def _pages(row: Mapping[str, Any]) -> tuple[int, int] | None:
    start = row.get("page_start")
    if start is None:
        return None
    end = row.get("page_end")
    return int(start), int(end if end is not None else start)


def _overlaps(row: Mapping[str, Any], pages: tuple[int, int] | None) -> bool:
    if pages is None:  # an unpaged document: every chunk
        return True
    own = _pages(row)
    return own is not None and own[0] <= pages[1] and own[1] >= pages[0]


def passage_view(source: str, rows: Sequence[Mapping[str, Any]], chunk_id: str,
                 context_chars: int = CONTEXT_CHARS) -> PassageView | None:
    """The passage ``chunk_id`` with its surroundings.

    Args:
        source: the document's file name.
        rows: the document's chunk rows (``chunk_id``, ``text``, ``char_start``, ``char_end``, locator keys).
        chunk_id: the cited chunk.
        context_chars: characters of context on each side, at most (≥ 0).

    Returns:
        The view (see :class:`~prism.types.PassageView`): the chunks on the passage's pages — or all chunks of an
        unpaged document — within ``context_chars`` of the passage, laid at their offsets, gaps between chunks shown
        as a line break; ``None`` when ``chunk_id`` is not among ``rows``.
    """
    target = next((r for r in rows if r.get("chunk_id") == chunk_id), None)
    if target is None:
        return None
    pages = _pages(target)
    start, end = int(target["char_start"]), int(target["char_end"])
    same = [r for r in rows if _overlaps(r, pages)]
    lo = max(min(int(r["char_start"]) for r in same), start - context_chars)
    hi = min(max(int(r["char_end"]) for r in same), end + context_chars)
    buffer = ["\n"] * (hi - lo)
    for row in same:
        a, b = int(row["char_start"]), int(row["char_end"])
        text = str(row.get("text", ""))
        for i in range(max(a, lo), min(b, hi)):
            buffer[i - lo] = text[i - a] if i - a < len(text) else "\n"
    text = "".join(buffer)
    first = len(text) - len(text.lstrip())
    shown = text.strip()
    clipped = lo > min(int(r["char_start"]) for r in same) or hi < max(int(r["char_end"]) for r in same)
    return PassageView(source, locator_of(target), shown, start - lo - first, end - lo - first, clipped)
