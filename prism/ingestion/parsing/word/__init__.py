"""Word documents (.docx) with python-docx: the text as the document now reads — paragraphs, headings, lists, tables,
content controls, text boxes, footnotes and endnotes — in reading order. Imports only the ground floor and its
sibling parsing modules (blocks, normalize, office, zipguard).

The body's XML is walked in document order (:mod:`~prism.ingestion.parsing.word.xmltext`): tracked insertions and
moves read, tracked deletions left out, content controls and custom XML opened in place, a text box read as blocks
right after the paragraph it is anchored in. Each paragraph is one block; a heading (styles ``Title`` and
``Heading 1``–``9``) is a block of its own, so the chunker breaks before it; consecutive list paragraphs stay
together, one per line. A table becomes rows ``"header: value; …"`` under its first row, which is its header
(:mod:`prism.ingestion.parsing.blocks`), and a :class:`~prism.types.Table` of the document; a tracked-deleted row is
left out. Footnotes and endnotes close the text; page headers and footers are read when they hold content and named
in a warning when they are furniture; comments are counted in a warning
(:mod:`~prism.ingestion.parsing.word.parts`). A file with tracked changes says so in a warning. A Word file has no
fixed pages (Word paginates when it renders), so the document is unpaged: a citation names the file, and the preview
shows the passage in its context.

Chosen by measurement over markitdown (mammoth): ``bench/formats.py``.
"""

from __future__ import annotations

import io
import logging
import zipfile
from typing import Any

from prism.config import Settings, get_settings
from prism.errors import NoExtractableTextError
from prism.ingestion.parsing.blocks import PageBuilder, clean
from prism.ingestion.parsing.normalize import has_indexable_text
from prism.ingestion.parsing.office import open_package_error
from prism.ingestion.parsing.word.parts import read_stories
from prism.ingestion.parsing.word.xmltext import W, blocks, cell_text, count_revisions, paragraph_text, row_deleted
from prism.ingestion.parsing.zipguard import check_package
from prism.types import Page, ParsedDocument, count_phrase

__all__ = ["load_docx"]

logger = logging.getLogger(__name__)

_LIST_STYLES = ("List",)
"""Paragraph styles whose name starts with one of these are list items (``List Bullet``, ``List Number 2``)."""


def _style(paragraph: Any) -> str:
    try:
        return paragraph.style.name or ""
    except (AttributeError, KeyError, ValueError):  # a style id the styles part does not define
        return ""


def _is_heading(style: str) -> bool:
    return style == "Title" or style.startswith("Heading")


def _rows(table: Any) -> list[list[str]]:
    """The table's rows as cell texts (tracked-deleted rows left out); a horizontally merged cell gives its text once
    (its other grid columns are empty), except in the first row, the header, where every column it spans is named by
    it."""
    rows: list[list[str]] = []
    for row in table.rows:
        if row_deleted(row._tr):
            continue
        values: list[str] = []
        previous = None
        for cell in row.cells:
            same = previous is not None and cell._tc is previous
            values.append("" if same and rows else cell_text(cell._tc))
            previous = cell._tc
        rows.append(values)
    return rows


def _walk(container: Any, parent: Any, builder: PageBuilder) -> None:
    """Add the paragraphs and tables of a block container (the body, a text box) to ``builder`` in document order;
    ``parent`` is the python-docx object the paragraphs' styles resolve through."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    items: list[str] = []  # consecutive list items, kept as one block

    def flush() -> None:
        if items:
            builder.paragraph("\n".join(items))
            items.clear()

    for block in blocks(container):
        if block.tag == W + "tbl":
            flush()
            rows = _rows(Table(block, parent))
            if rows:
                builder.table(rows[0], rows[1:])
            continue
        text, boxes = paragraph_text(block)
        if clean(text):
            if _style(Paragraph(block, parent)).startswith(_LIST_STYLES):
                items.append(text)
            else:
                flush()
                builder.paragraph(text)
        for box in boxes:
            flush()
            _walk(box, parent, builder)
    flush()


def _revision_warning(body: Any, name: str) -> list[str]:
    inserted, deleted = count_revisions(body)
    if not inserted + deleted:
        return []
    logger.info("%s: %d tracked insertions, %d deletions", name, inserted, deleted)
    return [f"{name} has tracked changes ({count_phrase(inserted, 'insertion')}, {count_phrase(deleted, 'deletion')}): "
            "the text is read as the document now reads, insertions in and deletions out; accept or reject the "
            "changes in Word and upload it again to be sure"]


def load_docx(data: bytes, name: str, settings: Settings | None = None) -> ParsedDocument:
    """Load a Word document as one unpaged page of text.

    Args:
        data: the file's bytes (an OOXML package; the registry has checked that).
        name: display name (``source``).
        settings: the ZIP guard's limits (:func:`~prism.config.get_settings` when ``None``).

    Returns:
        ``ParsedDocument(kind="docx", pages=(Page(None, text),), tables=…, warnings=…)``: headings, paragraphs, list
        items and text boxes as blocks, each table as its rows under its header row (with the
        :class:`~prism.types.Table` offsets into the page text), then the footnotes, endnotes and content-bearing
        headers and footers; warnings for tracked changes, furniture headers and footers, and comments.

    Raises:
        CorruptDocumentError: python-docx cannot open the package (damaged, or not a Word document).
        NoExtractableTextError: the document has no text.
        FileTooLargeError, UnsupportedFileError: the ZIP guard refused it (:mod:`~prism.ingestion.parsing.zipguard`).
    """
    from docx import Document
    from docx.opc.exceptions import PackageNotFoundError

    check_package(data, name, ".docx", settings or get_settings())
    try:
        document = Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, SyntaxError) as exc:
        raise open_package_error(name, ".docx", exc) from exc
    builder = PageBuilder(None)
    body = document.element.body
    _walk(body, document, builder)
    stories = read_stories(document, name)
    for block in stories.blocks:
        builder.paragraph(block)
    text, tables = builder.build()
    if not has_indexable_text(text):
        raise NoExtractableTextError(f"{name} has no text (no paragraph or table cell holds a letter or digit)")
    warnings = (*_revision_warning(body, name), *stories.warnings)
    logger.info("%s: %d characters, %d tables", name, len(text), len(tables))
    return ParsedDocument(source=name, kind="docx", pages=(Page(None, text),), tables=tables, warnings=warnings)
