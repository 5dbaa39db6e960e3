"""Tables of a document: found on its pages, given their headers, periods and unit, and chunked between rows.

Modules: :mod:`~.finders` (where the finders are combined, per page and across pages), :mod:`~.stored_text` (rows of
figures in a page's stored text), :mod:`~.periods` (their column headers: the periods), :mod:`~.words` (tables whose
cells are words), :mod:`~.lists` (numbered tables of text), :mod:`~.headers` (column headers from word positions in
the PDF), :mod:`~.csv` (CSV rows as a table) and :mod:`~.chunks` (chunks of a table). Imports only the ground floor,
:mod:`prism.index` and the parsing package.
"""

from __future__ import annotations

from prism.ingestion.tables.csv import table_from_csv_rows
from prism.ingestion.tables.finders import document_tables, page_tables
from prism.ingestion.tables.pdf_words import PdfTableHeaders

__all__ = ["PdfTableHeaders", "document_tables", "page_tables", "table_from_csv_rows"]
