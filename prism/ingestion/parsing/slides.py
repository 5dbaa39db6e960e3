"""PowerPoint presentations (.pptx) with python-pptx: each slide is a page, its speaker notes included.

A slide's shapes are read in reading order — top to bottom, then left to right, by their position on the slide
(shapes inside a group by theirs) — the title first. A text frame is one block (its paragraphs one per line); a
table becomes rows ``"header: value; …"`` under its first row (a merged header cell names every column it spans,
an empty one is named by its position) and a :class:`~prism.types.Table` of that slide; a
picture with alternative text gives ``"[image: alt text]"``. The slide's speaker notes close the page as a block
``"Notes: …"``. Charts and SmartArt hold no text python-pptx can read and are left out. A slide without any text is
reported as skipped. Chosen by measurement over markitdown (which itself uses python-pptx): ``bench/formats.py``.
"""

from __future__ import annotations

import io
import logging
import zipfile
from collections.abc import Iterator
from typing import Any

from prism.config import Settings, get_settings
from prism.errors import NoExtractableTextError
from prism.ingestion.parsing.blocks import PageBuilder, clean
from prism.ingestion.parsing.office import open_package_error
from prism.ingestion.parsing.zipguard import check_package
from prism.types import Page, ParsedDocument, SkippedPage, Table

logger = logging.getLogger(__name__)


def _position(shape: Any) -> tuple[int, int]:
    top, left = shape.top, shape.left
    return (top if top is not None else 2**62, left if left is not None else 2**62)


def _is_title(shape: Any) -> bool:
    try:
        return bool(shape.is_placeholder and "TITLE" in str(shape.placeholder_format.type))
    except ValueError:  # not a placeholder after all
        return False


def _is_group(shape: Any) -> bool:
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    try:
        return shape.shape_type == MSO_SHAPE_TYPE.GROUP
    except NotImplementedError:  # python-pptx has no type for some shapes
        return False


def _shapes(shapes: Any) -> Iterator[Any]:
    """The shapes in reading order (titles first), groups opened in place."""
    ordered = sorted(shapes, key=lambda s: (not _is_title(s), *_position(s)))
    for shape in ordered:
        if _is_group(shape):
            yield from _shapes(shape.shapes)
        else:
            yield shape


def _table_rows(table: Any) -> list[list[str]]:
    """A table's rows as cell texts. A cell covered by a merge gives no text, except in the first row, the header,
    where it is named by the merged cell that spans it (so no column under a merged header goes unnamed)."""
    rows: list[list[str]] = []
    for row in table.rows:
        values: list[str] = []
        for cell in row.cells:
            values.append((values[-1] if values and not rows else "") if cell.is_spanned else cell.text)
        rows.append(values)
    return rows


def _add_shape(shape: Any, builder: PageBuilder) -> None:
    if getattr(shape, "has_table", False):
        rows = _table_rows(shape.table)
        if rows:
            builder.table(rows[0], rows[1:])
        return
    if getattr(shape, "has_text_frame", False):
        builder.paragraph("\n".join(p.text for p in shape.text_frame.paragraphs))
        return
    alt = shape._element.xpath("./*[1]/p:cNvPr/@descr") if hasattr(shape, "_element") else []
    if alt and clean(alt[0]):
        builder.paragraph(f"[image: {clean(alt[0])}]")


def _notes(slide: Any) -> str:
    if not slide.has_notes_slide:
        return ""
    frame = slide.notes_slide.notes_text_frame
    return clean(frame.text) if frame is not None else ""


def _slide_page(number: int, slide: Any) -> tuple[str, tuple[Table, ...]]:
    builder = PageBuilder(number)
    for shape in _shapes(slide.shapes):
        _add_shape(shape, builder)
    notes = _notes(slide)
    if notes:
        builder.paragraph(f"Notes: {notes}")
    return builder.build()


def load_pptx(data: bytes, name: str, settings: Settings | None = None) -> ParsedDocument:
    """Load a presentation (``data``: an OOXML package, as the registry checked; display ``name``; ``settings``: the
    ZIP guard's limits, :func:`~prism.config.get_settings` when ``None``): one page per slide with text, its notes
    included.

    Returns:
        ``ParsedDocument(kind="pptx")``: a page per slide with text (``number`` = slide number), ``total_pages`` =
        slides, slides without text in ``skipped_pages``, the slides' tables.

    Raises:
        CorruptDocumentError: python-pptx cannot open the package.
        NoExtractableTextError: no slide holds text.
        FileTooLargeError, UnsupportedFileError: the ZIP guard refused it (:mod:`~prism.ingestion.parsing.zipguard`).
    """
    from pptx import Presentation
    from pptx.exc import PackageNotFoundError

    check_package(data, name, ".pptx", settings or get_settings())

    try:
        deck = Presentation(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError, SyntaxError) as exc:
        raise open_package_error(name, ".pptx", exc) from exc
    pages: list[Page] = []
    tables: list[Table] = []
    skipped: list[SkippedPage] = []
    slides = list(deck.slides)
    for number, slide in enumerate(slides, start=1):
        text, found = _slide_page(number, slide)
        if not text:
            skipped.append(SkippedPage(number, "no text on this slide"))
            continue
        pages.append(Page(number, text))
        tables.extend(found)
    if not pages:
        raise NoExtractableTextError(f"{name} has no text on any of its {len(slides)} slides")
    logger.info("%s: %d slides, %d with text, %d tables", name, len(slides), len(pages), len(tables))
    return ParsedDocument(source=name, kind="pptx", pages=tuple(pages), total_pages=len(slides),
                          skipped_pages=tuple(skipped), tables=tuple(tables))
