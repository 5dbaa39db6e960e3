"""HTML files (.html, .htm: a saved web page, an exported report): the readable text, without scripts, styles,
navigation or cookie banners.

The page is decoded like a text file (BOM, UTF-8, then detection) and its main text extracted the way Prism reads a
web page URL (:func:`prism.ingestion.parsing.url.html_to_text`: trafilatura, tables kept as ``| a | b |`` rows,
boilerplate dropped; a plain tag strip when trafilatura finds no main text). Chosen by measurement over markitdown
and a BeautifulSoup text dump, which keep menus, banners and footers: ``bench/formats.py``.
"""

from __future__ import annotations

import logging

from prism.config import Settings
from prism.errors import NoExtractableTextError
from prism.ingestion.parsing.normalize import has_indexable_text, normalize_report
from prism.ingestion.parsing.text import decode_bytes, encoding_warning
from prism.ingestion.parsing.url import html_to_text
from prism.types import Page, ParsedDocument

logger = logging.getLogger(__name__)

HTML_MARKERS = (b"<!doctype html", b"<html")
"""How an HTML file starts (after whitespace and a BOM, case folded)."""


def looks_like_html(data: bytes) -> bool:
    """True when ``data`` starts (after a BOM and whitespace) with an HTML doctype or ``<html`` tag."""
    head = data[:1024].removeprefix(b"\xef\xbb\xbf").lstrip().lower()
    return head.startswith(HTML_MARKERS)


def load_html(data: bytes, name: str, settings: Settings | None = None) -> ParsedDocument:
    """Load an HTML file (``data``, display ``name``; ``settings`` is unused) as one unpaged page of its readable
    text.

    Returns:
        ``ParsedDocument(kind="html", pages=(Page(None, text),))`` with a warning for a non-UTF-8 encoding.

    Raises:
        DecodingError: the bytes cannot be decoded.
        NoExtractableTextError: the page has no readable text.
    """
    del settings
    html, encoding = decode_bytes(data, name)
    report = normalize_report(html_to_text(html, name))
    if not has_indexable_text(report.text):
        raise NoExtractableTextError(f"{name} has no readable text (only markup, scripts or navigation)")
    warnings = [w for w in (encoding_warning(name, encoding),) if w]
    logger.info("%s: %d characters of text from %d bytes of HTML", name, len(report.text), len(data))
    return ParsedDocument(source=name, kind="html", pages=(Page(None, report.text),), warnings=tuple(warnings))
