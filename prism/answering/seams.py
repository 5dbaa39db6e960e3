"""The seams of answering: what the answer engine and the derived figures need of a retriever and its workspace.

:class:`prism.retrieval.retriever.HybridRetriever` and :class:`prism.index.workspaces.Workspace` implement them;
the engine and :mod:`prism.answering.derived` read only these attributes (no ``getattr`` probing), so a test double
must implement them all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from prism.config import Settings
from prism.retrieval.retriever import SearchResult
from prism.types import DocumentRecord

__all__ = ["Retriever", "WorkspaceReader"]


class WorkspaceReader(Protocol):
    """A workspace as answering reads it (:class:`prism.index.workspaces.Workspace`)."""

    @property
    def name(self) -> str:
        """The workspace's display name (read only, as the workspace has it)."""
        ...

    def documents(self) -> list[DocumentRecord]:
        """The committed documents, in the registry's order."""
        ...

    def snapshot(self) -> tuple[DocumentRecord, ...]:
        """The committed documents as one immutable state (the same object until the next commit)."""
        ...

    def read_chunks(self, doc_id: str) -> list[dict[str, Any]]:
        """The stored chunk rows of one document (``{"chunk_id", "text", "metadata" …}``), in chunk order."""
        ...

    def chunk_rows(self, doc_id: str) -> Sequence[Mapping[str, Any]]:
        """:meth:`read_chunks`, read-only and shared between questions (parsed once per written state)."""
        ...


class Retriever(Protocol):
    """A workspace's retriever as answering uses it (:class:`prism.retrieval.retriever.HybridRetriever`)."""

    settings: Settings

    @property
    def workspace(self) -> WorkspaceReader:
        """The workspace searched (read only here, so a retriever holding a fuller workspace type fits)."""
        ...

    @property
    def search(self) -> Callable[..., SearchResult]:
        """``search(query, **options)``: the best chunks for ``query`` (options as :meth:`HybridRetriever.search`
        takes them)."""
        ...

    def vectors(self, chunk_ids: Sequence[str]) -> dict[str, Any]:
        """The stored embedding of each chunk id that exists (``{chunk_id: array (dim,)}``)."""
        ...

    def idf(self, terms: Sequence[str]) -> tuple[dict[str, float], float]:
        """Each BM25 term's idf and the corpus's highest idf (the answerability gate's rarity of a word)."""
        ...
