"""A PDF's words, read once per page with pypdfium2, for the tables its stored text cannot fully read: the column
headers :func:`prism.ingestion.tables.headers.stitch_headers` finds for a table, and the words of a page for tables
of words (:mod:`prism.ingestion.tables.words`)."""

from __future__ import annotations

import logging

from prism.ingestion.tables.headers import Word, page_words, stitch_headers
from prism.types import Table

__all__ = ["PdfTableHeaders"]

logger = logging.getLogger(__name__)


class PdfTableHeaders:
    """The words of one PDF's pages, for the tables the stored text cannot fully read: column headers of a table
    whose stored text gave none (``reader(page, table)``, 1-based page) and :meth:`words` for tables of words
    (:mod:`prism.ingestion.tables.words`).

    The PDF is opened on the first call (pypdfium2) and each page's words are read once; :meth:`close` releases it.
    Any pdfium failure gives ``None`` / no words (the table keeps no headers), logged at WARNING.

    Args:
        data: the PDF's bytes.
    """

    def __init__(self, data: bytes):
        self.data = data
        self._pdf: object | None = None
        self._words: dict[int, list[Word]] = {}

    def _page_words(self, page: int) -> list[Word]:
        if page not in self._words:
            import pypdfium2 as pdfium

            if self._pdf is None:
                self._pdf = pdfium.PdfDocument(self.data)
            pdf_page = self._pdf[page - 1]  # type: ignore[index]
            textpage = pdf_page.get_textpage()
            try:
                self._words[page] = page_words(textpage, pdf_page.get_rotation())
            finally:
                textpage.close()
                pdf_page.close()
        return self._words[page]

    def words(self, page: int | None) -> list[Word]:
        """The words of ``page`` in displayed coordinates (``[]`` for no page or when pdfium fails)."""
        if page is None:
            return []
        try:
            return self._page_words(page)
        except Exception as exc:  # pdfium raises PdfiumError and ctypes errors; tables of words are a bonus
            logger.warning("page %s: words not read from the PDF (%s)", page, type(exc).__name__)
            return []

    def __call__(self, page: int | None, table: Table) -> tuple[str, ...] | None:
        """The stitched headers of ``table`` on ``page``, or ``None``."""
        if page is None:
            return None
        try:
            return stitch_headers(self._page_words(page), table)
        except Exception as exc:  # pdfium raises PdfiumError and ctypes errors; headers are a bonus, never a failure
            logger.warning("page %s: column headers not read from the PDF (%s)", page, type(exc).__name__)
            return None

    def close(self) -> None:
        """Release the PDF."""
        if self._pdf is not None:
            self._pdf.close()  # type: ignore[attr-defined]
            self._pdf = None
        self._words.clear()
