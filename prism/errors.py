"""Domain errors. ``str(error)`` is always a sentence an analyst can act on.

Every error Prism raises for bad input or a broken environment is a :class:`PrismError`. Library exceptions are
caught where the library is called and translated (``raise ... from exc``) with the file, page or workspace named.
"""

from __future__ import annotations


class PrismError(Exception):
    """Base class of every error Prism reports to an analyst."""


class UnsupportedFileError(PrismError):
    """The file's type is not one Prism can read (:data:`prism.ingestion.parsing.LOADERS`, or a web page URL)."""


class EmptyFileError(PrismError):
    """The file has no bytes at all."""


class CorruptDocumentError(PrismError):
    """The file claims a format (e.g. PDF) but cannot be opened as one."""


class EncryptedDocumentError(PrismError):
    """The PDF is password-protected and cannot be opened without its password."""


class NoExtractableTextError(PrismError):
    """The document opened but holds no text that can be indexed (blank, image-only without OCR, punctuation)."""


class DecodingError(PrismError):
    """A text or CSV file's bytes could not be decoded in any known encoding."""


class FileTooLargeError(PrismError):
    """The file is over the configured upload size limit."""


class FetchError(PrismError):
    """A URL could not be fetched (offline, timed out, too large, or not an HTML/text page)."""


class UnsafeURLError(FetchError):
    """A URL was refused before any connection: not http(s), or its host is (or resolves to) a loopback, private,
    link-local or otherwise non-public address (server-side request forgery, CWE-918); see
    :mod:`prism.ingestion.parsing.egress`."""


class EmbeddingModelMismatchError(PrismError):
    """The workspace was indexed with another embedding model than the one configured now."""


class EmbedderBackendError(PrismError):
    """The embedder's ONNX backend could not be exported or loaded (the embedder then runs on torch and says why)."""


class WorkspaceNotFoundError(PrismError):
    """No workspace has the given name."""


class WorkspaceExistsError(PrismError):
    """A workspace with the given name already exists."""


class InvalidWorkspaceNameError(PrismError):
    """The workspace name is empty or otherwise unusable."""


class DocumentNotFoundError(PrismError):
    """No document with the given file name is in the workspace."""


class StoreError(PrismError):
    """The vector store or the workspace's files could not be read or written."""


class IndexDamagedError(StoreError):
    """A workspace's vector index on disk is damaged or half-rebuilt (:mod:`prism.index.index_health`): its documents
    and chunks are kept; ``python -m prism reindex --from-chunks`` rebuilds it from them."""


class LLMError(PrismError):
    """A call to the language model failed (after retries for rate limits and timeouts)."""


class LLMAuthError(LLMError):
    """The language model provider rejected the API key."""


class LLMRateLimitError(LLMError):
    """The language model provider kept rate-limiting requests (HTTP 429) after every retry."""


class LLMTimeoutError(LLMError):
    """The language model did not answer in time, after every retry."""


class WorkspaceDeletedError(WorkspaceNotFoundError):
    """The workspace was deleted (by another session or process) while something was being written to it."""


class IngestCancelledError(PrismError):
    """The analyst cancelled a batch before this document was committed (nothing of it was kept)."""


class ConversationNotFoundError(PrismError):
    """No saved conversation has the given id in the workspace (it was deleted, or never existed)."""
