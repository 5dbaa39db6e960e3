"""One PDF page's text from pypdf: plain and layout mode, rotated text, and the reading order of text columns.

See :func:`page_text`; :mod:`prism.ingestion.parsing.pdf.read` runs it per page under a time budget.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from pypdf import PageObject, PdfReader

from prism.ingestion.parsing.normalize import alnum_count
from prism.ingestion.parsing.pdf.columns import column_blocks
from prism.ingestion.parsing.pdf.streams import parsed_once

logger = logging.getLogger(__name__)

LAYOUT_MIN_SHARE = 0.98
"""Layout-mode text is used only when it has at least this share of the plain-mode text's letters and digits."""
_GAPS = re.compile(r"[ \t]{2,}")


def _orientation(tm: Sequence[float], cm: Sequence[float]) -> int:
    """Orientation in degrees (0, 90, 180, 270) of text drawn with text matrix ``tm`` under ``cm``, as pypdf
    computes it, with 180 counted only for text flipped horizontally too (what layout mode drops as rotated)."""
    b = tm[0] * cm[1] + tm[1] * cm[3]
    a = tm[0] * cm[0] + tm[1] * cm[2]
    d = tm[2] * cm[1] + tm[3] * cm[3]
    if d > 1e-6:
        return 0
    if d < -1e-6:
        return 180 if a < -1e-6 else 0
    return 90 if b > 0 else 270


def _rotated(page: PageObject, turned: set[int]) -> tuple[str, str | None]:
    """The page's text drawn at the ``turned`` orientations (plain mode), and why it is empty when it is."""
    try:
        text = page.extract_text(orientations=tuple(sorted(turned))) or ""
    except Exception as exc:  # one page's rotated runs must not fail the page: reported instead
        return "", f"its rotated text could not be read ({type(exc).__name__})"
    return text, None if alnum_count(text) else "its rotated text could not be read"


def page_text(reader: PdfReader, index: int, mode: str = "plain", unread: list[str] | None = None) -> str:
    """Text of page ``index`` (0-based); with ``mode="layout"`` the better of pypdf's two extraction modes.

    Plain mode follows the content stream and inserts a space wherever a PDF positions the next run of glyphs,
    which breaks words that SEC filings set as several runs ("absolu te dollars", "prior ye ar": 4-9 % of the words
    of 8 of the 16 FinanceBench filings, measured against pdfium's text) and glues page numbers to the last word.
    Layout mode places glyphs by their coordinates, so those words come out whole and vertical gaps become
    paragraph breaks; but it returns nothing on some cover pages, drops rotated text, reads straight across text
    columns ("…kept the Separately, the cash…") and can raise. So both run:

    * when the layout text has prose columns (:func:`~prism.ingestion.parsing.pdf.columns.column_blocks`) the plain text
      is kept: in the files measured it follows the columns (``bench/reading_order.py``);
    * otherwise rotated text (margin notes, sideways tables: runs at 90°, 270° or turned upside down, which plain
      mode reads and layout mode drops) is read on its own and added after the layout text, and that text is kept
      when it has :data:`LAYOUT_MIN_SHARE` of plain mode's letters and digits; its column padding is collapsed to
      one space (normalisation would do the same; the page size budget counts real text);
    * else the plain text is kept (it holds the rotated text too).

    Args:
        reader: the open PDF.
        index: 0-based page index.
        mode: ``"layout"`` or ``"plain"`` (plain text only).
        unread: when given, a reason is appended for text the page holds but that the kept text lacks (rotated text
            that could not be read while the layout text was kept); the page is then partly unread.

    Every content stream of the page is tokenised once for all these passes (:func:`parsed_once`).

    Raises:
        Exception: whatever plain-mode extraction raises on a malformed page (the caller skips the page).
    """
    with parsed_once():
        return _page_text(reader, index, mode, unread)


def _page_text(reader: PdfReader, index: int, mode: str, unread: list[str] | None) -> str:
    """:func:`page_text` without the shared tokenising."""
    page = reader.pages[index]
    turned: set[int] = set()

    def _visit(text: str, cm: Sequence[float], tm: Sequence[float], *_: object) -> None:
        if text.strip():
            angle = _orientation(tm, cm)
            if angle:
                turned.add(angle)

    plain = page.extract_text(visitor_text=_visit) or ""
    if mode != "layout":
        return plain
    try:
        layout = page.extract_text(extraction_mode="layout") or ""
    except Exception as exc:  # a layout-mode bug on one page: the plain text stands
        logger.debug("page %d: layout extraction failed (%s); plain text used", index + 1, type(exc).__name__)
        return plain
    if column_blocks(layout):
        return plain
    missing = None
    if turned:
        rotated, missing = _rotated(page, turned)
        layout = f"{layout}\n\n{rotated}"
    found = alnum_count(layout)
    if not found or found < LAYOUT_MIN_SHARE * alnum_count(plain):
        return plain
    if missing and unread is not None:
        unread.append(missing)
    return _GAPS.sub(" ", layout)
