"""Ingestion: bytes or a URL in, index-ready chunks committed to a workspace out.

Owns parsing (``parsing/``: PDF, TXT/MD, CSV, web pages, OCR, normalisation, running headers, the parser worker),
chunking, and the pipeline with its one commit protocol (write-ahead marker → original → vectors → chunk rows →
registry commit → purge replaced → unlink marker).

May import: :mod:`prism.index` and the ground floor (``config``, ``errors``, ``types``, ``fsutil``). Never the
service, retrieval, answering, evaluation, cli or ui.
"""
