"""Previews of a cited chunk: a PDF page with the chunk located on it (pypdfium2 + Pillow), or for other sources
the text of its slide, sheet or document with the passage marked (:func:`passage_html`). No Streamlit here.

The chunk's text was normalised at ingest (NFKC, whitespace collapsed), so it is not searched for literally: the
page's text layer and the chunk are both split into lower-cased words and aligned with :class:`difflib.
SequenceMatcher`; runs of at least :data:`MIN_RUN` matching words are mapped back to pdfium character boxes, which are
drawn as a translucent highlight with a frame around their union. Pages without a text layer (scans read by OCR)
are shown without a highlight.
"""

from __future__ import annotations

import difflib
import html
import io
import logging
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageDraw

from prism.types import PassageView

logger = logging.getLogger(__name__)

MIN_RUN = 3
"""Shortest run of consecutive matching words that counts as the chunk being found on the page."""
SCALE = 1.6
"""Render scale (1.0 = 72 dpi)."""
MAX_CROP = (900, 420)
"""Largest size of the located region's image, pixels (width, height); larger regions are scaled down."""
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class PagePreview:
    """A rendered page.

    Attributes:
        page: 1-based page number rendered.
        image: the whole page as JPEG bytes (empty when the page could not be rendered).
        crop: the located region with some margin, JPEG bytes, or ``None`` when the text was not located.
        located: share of the chunk's words found on the page, in [0, 1].
        message: why there is no image or no highlight (``None`` when all went well).
    """

    page: int
    image: bytes
    crop: bytes | None
    located: float
    message: str | None = None


def _words(text: str) -> list[tuple[str, int, int]]:
    """``(word, start, end)`` of every word in ``text`` (NFKC, lower-cased for comparison; offsets into ``text``)."""
    out = []
    for m in _WORD.finditer(text):
        out.append((unicodedata.normalize("NFKC", m.group()).casefold(), m.start(), m.end()))
    return out


def locate(page_text: str, chunk_text: str, min_run: int = MIN_RUN) -> tuple[list[tuple[int, int]], float]:
    """Character spans of ``page_text`` that match runs of ``chunk_text``'s words.

    Returns:
        ``(spans, share)``: ``spans`` are ``(start, end)`` offsets into ``page_text`` (sorted, non-overlapping), one
        per run of at least ``min_run`` consecutive matching words; ``share`` is the fraction of the chunk's words
        covered by those runs, in [0, 1] (0 for an empty chunk).
    """
    page_words = _words(page_text)
    chunk_words = [w for w, _, _ in _words(chunk_text)]
    if not chunk_words or not page_words:
        return [], 0.0
    matcher = difflib.SequenceMatcher(None, [w for w, _, _ in page_words], chunk_words, autojunk=False)
    spans: list[tuple[int, int]] = []
    covered = 0
    for block in matcher.get_matching_blocks():
        if block.size < min_run:
            continue
        first, last = page_words[block.a], page_words[block.a + block.size - 1]
        spans.append((first[1], last[2]))
        covered += block.size
    spans.sort()
    return spans, covered / len(chunk_words)


def _jpeg(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="JPEG", quality=85)
    return buf.getvalue()


def render_page_preview(path: str | Path, page: int, chunk_text: str, scale: float = SCALE) -> PagePreview:
    """Render page ``page`` (1-based) of the PDF at ``path`` with ``chunk_text`` highlighted where it is found.

    Never raises for a bad file or page: the preview then has no image and a ``message``.
    """
    try:
        pdf = pdfium.PdfDocument(str(path))
    except (pdfium.PdfiumError, OSError) as exc:
        logger.warning("page preview: cannot open original (%s)", type(exc).__name__)
        return PagePreview(page, b"", None, 0.0, "The original file could not be opened for a preview.")
    try:
        if not 1 <= page <= len(pdf):
            return PagePreview(page, b"", None, 0.0, f"Page {page} is not in the original file.")
        pdf_page = pdf[page - 1]
        textpage = pdf_page.get_textpage()
        text = textpage.get_text_range()
        spans, share = locate(text, chunk_text)
        image = pdf_page.render(scale=scale).to_pil().convert("RGB")
        left, bottom, _right, top = pdf_page.get_bbox()
        boxes: list[tuple[float, float, float, float]] = []
        for start, end in spans:
            n_rects = textpage.count_rects(start, end - start)
            for i in range(n_rects):
                x0, y0, x1, y1 = textpage.get_rect(i)  # PDF points, origin bottom-left
                boxes.append(((x0 - left) * scale, (top - y1) * scale, (x1 - left) * scale, (top - y0) * scale))
        crop = None
        if boxes:
            overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
            draw = ImageDraw.Draw(overlay)
            for x0, y0, x1, y1 in boxes:
                draw.rectangle((x0 - 1, y0 - 1, x1 + 1, y1 + 1), fill=(255, 214, 10, 90))
            ux0 = min(b[0] for b in boxes) - 6
            uy0 = min(b[1] for b in boxes) - 6
            ux1 = max(b[2] for b in boxes) + 6
            uy1 = max(b[3] for b in boxes) + 6
            draw.rectangle((ux0, uy0, ux1, uy1), outline=(79, 70, 229, 255), width=3)
            image = Image.alpha_composite(image.convert("RGBA"), overlay).convert("RGB")
            margin = 30 * scale
            crop_box = (max(0, int(ux0 - margin)), max(0, int(uy0 - margin)),
                        min(image.width, int(ux1 + margin)), min(image.height, int(uy1 + margin)))
            region = image.crop(crop_box)
            region.thumbnail(MAX_CROP)
            crop = _jpeg(region)
        message = None
        if not boxes:
            message = ("The passage could not be located on this page (a scanned page read by OCR, or a layout the "
                       "text layer does not follow); the whole page is shown.")
        return PagePreview(page, _jpeg(image), crop, share, message)
    except pdfium.PdfiumError as exc:
        logger.warning("page preview failed (%s)", type(exc).__name__)
        return PagePreview(page, b"", None, 0.0, "This page could not be rendered.")
    finally:
        pdf.close()


def passage_html(view: PassageView) -> str:
    """``view``'s text as HTML (escaped, line breaks kept) with the passage in ``<mark>``, under a caption naming the
    source and the locator; ``…`` marks text cut at the context limit."""
    before, passage, after = (html.escape(part) for part in
                              (view.text[: view.start], view.text[view.start : view.end], view.text[view.end :]))
    more = "…" if view.clipped else ""
    where = f"{html.escape(view.source)}" + (f" · {html.escape(view.locator)}" if view.locator else "")
    return (f'<div class="prism-passage"><div style="color:#475569;font-size:.85rem">{where}</div>'
            f'<div style="white-space:pre-wrap;font-size:.92rem;line-height:1.55;max-height:420px;overflow-y:auto">'
            f'{more}{before}<mark style="background:#FDE68A">{passage}</mark>{after}{more}</div></div>')
