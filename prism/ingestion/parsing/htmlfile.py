"""HTML files (.html, .htm: a saved web page, an exported report): the readable text, without scripts, styles,
navigation or cookie banners.

The page is decoded like a text file (BOM, UTF-8, then detection) and its main text extracted the way Prism reads a
web page URL (:func:`prism.ingestion.parsing.url.html_to_text`: trafilatura, tables kept as ``| a | b |`` rows,
boilerplate dropped; a plain tag strip when trafilatura finds no main text). Before that, the header row of each table
(a first row of ``th`` cells, or the row of a ``thead``) gets a name in every column (:func:`name_header_cells`): a
cell spanning ``colspan`` columns names each of them, an empty one is named by its position (``"column 3"``), so no
data column sits under an empty header. Chosen by measurement over markitdown and a BeautifulSoup text dump, which
keep menus, banners and footers: ``bench/formats.py``.
"""

from __future__ import annotations

import logging
from typing import Any

from prism.config import Settings
from prism.errors import NoExtractableTextError
from prism.ingestion.parsing.normalize import has_indexable_text, normalize_report
from prism.ingestion.parsing.text import decode_bytes, encoding_warning
from prism.ingestion.parsing.url import html_to_text
from prism.types import Page, ParsedDocument

logger = logging.getLogger(__name__)

HTML_MARKERS = (b"<!doctype html", b"<html")
_MAX_SPAN = 100
"""Largest ``colspan`` honoured (HTML caps it at 1000; a wider one is read as this)."""
"""How an HTML file starts (after whitespace and a BOM, case folded)."""


def looks_like_html(data: bytes) -> bool:
    """True when ``data`` starts (after a BOM and whitespace) with an HTML doctype or ``<html`` tag."""
    head = data[:1024].removeprefix(b"\xef\xbb\xbf").lstrip().lower()
    return head.startswith(HTML_MARKERS)


def _header_row(table: Any) -> Any | None:
    """The header row of an lxml ``table`` element: its ``thead``'s first row, or a first row of ``th`` cells."""
    rows = [r for r in table.iter("tr") if next(r.iterancestors("table")) is table]
    if not rows:
        return None
    first = rows[0]
    cells = [c for c in first if c.tag in ("th", "td")]
    in_head = any(a.tag == "thead" for a in first.iterancestors())
    return first if cells and (in_head or all(c.tag == "th" for c in cells)) else None


def _span(cell: Any) -> int:
    value = (cell.get("colspan") or "1").strip()
    return min(int(value), _MAX_SPAN) if value.isdigit() and int(value) > 0 else 1


def name_header_cells(html: str) -> str:
    """``html`` with every table's header row naming each of its columns (see the module docstring); unchanged when
    no header row has an empty or spanning cell.

    Returns:
        The page's HTML (re-serialised by lxml only when something changed).
    """
    if "<table" not in html.lower():
        return html
    import lxml.html
    from lxml import etree

    try:
        root = lxml.html.fromstring(html)
    except (etree.ParserError, ValueError):  # an empty or unparsable document: trafilatura decides
        return html
    changed = False
    for table in root.iter("table"):
        row = _header_row(table)
        if row is None:
            continue
        column = 0
        for cell in [c for c in row if c.tag in ("th", "td")]:
            span = _span(cell)
            text = " ".join(cell.text_content().split())
            if not text:
                cell.text, changed = f"column {column + 1}", True
            for _ in range(span - 1):
                copy = etree.Element(cell.tag)
                copy.text, changed = text or f"column {column + 1}", True
                cell.addnext(copy)
            cell.attrib.pop("colspan", None)
            column += span
    return lxml.html.tostring(root, encoding="unicode") if changed else html


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
    report = normalize_report(html_to_text(name_header_cells(html), name))
    if not has_indexable_text(report.text):
        raise NoExtractableTextError(f"{name} has no readable text (only markup, scripts or navigation)")
    warnings = [w for w in (encoding_warning(name, encoding),) if w]
    logger.info("%s: %d characters of text from %d bytes of HTML", name, len(report.text), len(data))
    return ParsedDocument(source=name, kind="html", pages=(Page(None, report.text),), warnings=tuple(warnings))
