"""Word documents (.docx) with python-docx: paragraphs, headings, lists and tables in reading order.

The body is walked in document order (``Document.iter_inner_content``). Each paragraph is one block; a heading
(styles ``Title`` and ``Heading 1``–``9``) is a block of its own, so the chunker breaks before it; consecutive list
paragraphs stay together, one per line. A table becomes rows ``"header: value; …"`` under its first row, which is
its header (:mod:`prism.ingestion.parsing.blocks`), and a :class:`~prism.types.Table` of the document. Page headers
and footers are furniture and are left out; so are comments and footnotes (python-docx does not expose them), and
text inside drawing text boxes. A Word file has no fixed pages (Word paginates when it renders), so the document is
unpaged: a citation names the file, and the preview shows the passage in its context.

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
from prism.ingestion.parsing.zipguard import check_package
from prism.types import Page, ParsedDocument

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
    """The table's rows as cell texts; a horizontally merged cell gives its text once (its other grid columns are
    empty), except in the first row, the header, where every column it spans is named by it."""
    rows: list[list[str]] = []
    for r, row in enumerate(table.rows):
        values: list[str] = []
        previous = None
        for cell in row.cells:
            same = previous is not None and cell._tc is previous
            values.append("" if same and r > 0 else cell.text)
            previous = cell._tc
        rows.append(values)
    return rows


def _walk(document: Any, builder: PageBuilder) -> None:
    """Add the body's paragraphs and tables to ``builder`` in document order."""
    items: list[str] = []  # consecutive list items, kept as one block

    def flush() -> None:
        if items:
            builder.paragraph("\n".join(items))
            items.clear()

    for block in document.iter_inner_content():
        if hasattr(block, "rows"):  # a table
            flush()
            rows = _rows(block)
            if rows:
                builder.table(rows[0], rows[1:])
            continue
        text = block.text
        if not clean(text):
            continue
        style = _style(block)
        if style.startswith(_LIST_STYLES):
            items.append(text)
            continue
        flush()
        builder.paragraph(text)
    flush()


def load_docx(data: bytes, name: str, settings: Settings | None = None) -> ParsedDocument:
    """Load a Word document as one unpaged page of text.

    Args:
        data: the file's bytes (an OOXML package; the registry has checked that).
        name: display name (``source``).
        settings: the ZIP guard's limits (:func:`~prism.config.get_settings` when ``None``).

    Returns:
        ``ParsedDocument(kind="docx", pages=(Page(None, text),), tables=…)``: headings, paragraphs and list items
        as blocks, each table as its rows under its header row, with the :class:`~prism.types.Table` offsets into the
        page text.

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
    _walk(document, builder)
    text, tables = builder.build()
    if not has_indexable_text(text):
        raise NoExtractableTextError(f"{name} has no text (no paragraph or table cell holds a letter or digit)")
    logger.info("%s: %d characters, %d tables", name, len(text), len(tables))
    return ParsedDocument(source=name, kind="docx", pages=(Page(None, text),), tables=tables)
