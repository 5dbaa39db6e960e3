"""Parse each page's content stream once while both of pypdf's text extraction modes read it.

:func:`~prism.ingestion.parsing.pdf.text.page_text` runs ``extract_text`` twice per page (plain mode, then layout
mode) and sometimes a third time (rotated text). Each run builds a new :class:`pypdf.generic.ContentStream` from the
page's bytes and tokenises it again (``ContentStream._parse_content_stream``), and on the FinanceBench 10-Ks that
tokenising is over half of the parser's CPU time (``bench/ingest.py``; 3M's 252 pages: 92 of 164 profiled seconds).

:func:`parsed_once` is a context in which a content stream whose bytes (and forced encoding) were already tokenised
in this thread reuses that token list. Outside it (any other thread, or after it ends), ``ContentStream.operations``
behaves exactly as pypdf's own. Text extraction only reads the operations (it never changes an operand in place),
which ``tests/ingestion/parsing/pdf/test_pdf_streams.py`` checks by comparing every page's text with and without the
context.
Should pypdf's internals change (no ``_parse_content_stream``), the context does nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from io import BytesIO
from typing import Any

from pypdf.generic import ContentStream

__all__ = ["parsed_once"]

_local = threading.local()
_ORIGINAL = ContentStream.__dict__.get("operations")
_SUPPORTED = isinstance(_ORIGINAL, property) and hasattr(ContentStream, "_parse_content_stream")


def _operations(self: Any) -> list[tuple[Any, bytes]]:
    """``ContentStream.operations`` with this thread's memo (pypdf's own getter when no memo is active)."""
    memo: dict[tuple[bytes, str], list[tuple[Any, bytes]]] | None = getattr(_local, "memo", None)
    if memo is None or self._operations or not self._data:
        return _ORIGINAL.fget(self)  # type: ignore[union-attr]
    key = (bytes(self._data), repr(self.forced_encoding))
    cached = memo.get(key)
    if cached is None:
        self._parse_content_stream(BytesIO(self._data))
        memo[key] = self._operations
    else:
        self._operations = list(cached)  # a list of its own; the operands are shared and only read
    self._data = b""
    return self._operations


if _SUPPORTED:
    ContentStream.operations = property(_operations, _ORIGINAL.fset)  # type: ignore[union-attr,method-assign,assignment]


@contextmanager
def parsed_once() -> Iterator[None]:
    """Within this context (this thread only), each distinct content stream is tokenised once.

    Nested use keeps the outer memo. The memo is dropped when the outermost context ends, so it holds one page's
    streams (its content and form XObjects) at a time.
    """
    if not _SUPPORTED or getattr(_local, "memo", None) is not None:
        yield
        return
    _local.memo = {}
    try:
        yield
    finally:
        _local.memo = None
