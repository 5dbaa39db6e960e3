"""HTML files (.html, .htm: a saved web page, an exported report): the readable text, without scripts, styles,
navigation or cookie banners, and without what a browser would not show (``display:none``, ``visibility:hidden``
inline or by a ``<style>`` rule, the ``hidden`` attribute: :func:`prism.ingestion.parsing.hidden.visible_html`).

The page is decoded like a text file (BOM, UTF-8, then detection) and its main text extracted the way Prism reads a
web page URL (:func:`prism.ingestion.parsing.url.html_to_text`: trafilatura, tables kept as ``| a | b |`` rows,
boilerplate dropped; a plain tag strip when trafilatura finds no main text). Before that, the header row of each table
(a first row of ``th`` cells, or the row of a ``thead``) gets a name in every column (:func:`name_header_cells`): a
cell spanning ``colspan`` columns names each of them, an empty one is named by its position (``"column 3"``), so no
data column sits under an empty header. Chosen by measurement over markitdown and a BeautifulSoup text dump, which
keep menus, banners and footers: ``bench/formats.py``.

Each table trafilatura kept is matched (by its cell texts) to the page's own ``<table>``
(:func:`prism.ingestion.tables.html.parse_tables`: ``colspan`` / ``rowspan`` expanded, spanned labels carried) and
rendered like a CSV or Word table, one row per line ``"Segment: Retail; Product: Housing loans; Gross advances (Rs.
crore) FY2024: 18,420; …"``, with a :class:`~prism.types.Table` (row, column: value) for answers; its columns are
named by their header rows, top to bottom (:func:`prism.ingestion.tables.grid.combine_headers`). A table that
matches none stays as trafilatura wrote it (``| a | b |``).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from prism.config import Settings
from prism.errors import NoExtractableTextError
from prism.ingestion.parsing.blocks import PageBuilder
from prism.ingestion.parsing.hidden import visible_html
from prism.ingestion.parsing.normalize import has_indexable_text, normalize_report
from prism.ingestion.parsing.text import decode_bytes, encoding_warning
from prism.ingestion.parsing.url import html_to_text
from prism.ingestion.tables.grid import stacked_tables
from prism.ingestion.tables.html import HtmlTable, parse_tables
from prism.types import Page, ParsedDocument, Table

MATCH = 0.6
"""Share of a trafilatura table's cell texts a parsed ``<table>`` must hold to stand for it."""

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


_SEPARATOR = re.compile(r"\s*\|(?:\s*:?-{3,}:?\s*\|)+\s*$")
"""The line under a Markdown table's header row (``|---|---|``): a new table starts at the line above it."""


def _blocks(text: str) -> list[tuple[bool, list[str]]]:
    """``text``'s lines grouped into runs of table lines (``| … |``, ``True``) and of other lines; two tables with
    no line between them are two runs (the second starts at its header row, the line above its ``|---|``)."""
    out: list[tuple[bool, list[str]]] = []
    for line in text.split("\n"):
        is_table = line.lstrip().startswith("|")
        if out and out[-1][0] == is_table:
            run = out[-1][1]
            if is_table and _SEPARATOR.match(line) and len(run) > 2:  # a second header: a second table
                out.append((True, [run.pop(), line]))
                continue
            run.append(line)
        else:
            out.append((is_table, [line]))
    return out


def _match(lines: list[str], tables: list[HtmlTable], used: set[int]) -> HtmlTable | None:
    cells = {" ".join(c.split()) for line in lines for c in line.strip().strip("|").split("|")} - {"", "---"}
    cells = {c for c in cells if set(c) - set("-:")}
    best, share = None, MATCH
    for i, table in enumerate(tables):
        if i in used or not cells:
            continue
        held = len(cells & table.cells()) / len(cells)
        if held >= share:
            best, share = i, held
    if best is None:
        return None
    used.add(best)
    return tables[best]


def _page(text: str, html: str) -> tuple[str, tuple[Table, ...]]:
    """The page text with each matched table rendered as rows, and its tables."""
    tables = parse_tables(html) if "|" in text else []
    if not tables:
        return text, ()
    builder = PageBuilder(None)
    used: set[int] = set()
    for is_table, lines in _blocks(text):
        table = _match(lines, tables, used) if is_table else None
        if table is None:
            builder.paragraph("\n".join(lines))
            continue
        for names, body in stacked_tables([*table.header_rows, *table.rows], len(table.header_rows)):
            builder.table(names, body)
    return builder.build()


def load_html(data: bytes, name: str, settings: Settings | None = None) -> ParsedDocument:
    """Load an HTML file (``data``, display ``name``; ``settings`` is unused) as one unpaged page of its readable
    text, its tables as rows and :class:`~prism.types.Table` objects (see the module docstring).

    Returns:
        ``ParsedDocument(kind="html", pages=(Page(None, text),), tables=…)`` with a warning for a non-UTF-8
        encoding.

    Raises:
        DecodingError: the bytes cannot be decoded.
        NoExtractableTextError: the page has no readable text.
    """
    del settings
    html, encoding = decode_bytes(data, name)
    html = visible_html(html)  # what a browser would not show is not indexed
    named = name_header_cells(html)
    report = normalize_report(html_to_text(named, name))
    if not has_indexable_text(report.text):
        raise NoExtractableTextError(f"{name} has no readable text (only markup, scripts or navigation)")
    text, tables = _page(report.text, html)  # the cells as written: an empty header cell is not a name
    warnings = [w for w in (encoding_warning(name, encoding),) if w]
    logger.info("%s: %d characters of text, %d tables from %d bytes of HTML", name, len(text), len(tables),
                len(data))
    return ParsedDocument(source=name, kind="html", pages=(Page(None, text),), warnings=tuple(warnings),
                          tables=tables)
