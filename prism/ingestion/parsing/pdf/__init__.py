"""PDF parsing: the text of each page in reading order, with OCR for pages that have no text layer.

Modules: :mod:`~.read` (:func:`~.read.load_pdf`, the entry point), :mod:`~.text` (a page's layout or plain text),
:mod:`~.streams` (each content stream parsed once), :mod:`~.columns` (reading columns top to bottom),
:mod:`~.hyphens` (words hyphenated across line ends), :mod:`~.garbled` (text layers that are not text) and
:mod:`~.ocr` (rapidocr for scanned pages). Imports only the ground floor and the parsing package's own modules.
"""

from __future__ import annotations

from prism.ingestion.parsing.pdf.read import PageCallback, load_pdf, looks_like_pdf

__all__ = ["PageCallback", "load_pdf", "looks_like_pdf"]
