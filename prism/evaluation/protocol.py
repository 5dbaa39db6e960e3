"""What the evaluation needs of the service: a narrow Protocol instead of the whole facade.

:class:`prism.service.PrismService` implements it; the evaluation never imports the service module.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from prism.answering.llm import LLMs
from prism.config import Settings
from prism.index.embedder import PrismEmbedding
from prism.retrieval.retriever import HybridRetriever
from prism.types import DocumentRecord, IngestItem, IngestResult, ProgressCallback, RerankerState, WorkspaceInfo


class EvalService(Protocol):
    """The service methods an evaluation calls (see :class:`prism.service.PrismService` for their contracts)."""

    settings: Settings

    @property
    def embedder(self) -> PrismEmbedding: ...

    @property
    def llms(self) -> LLMs: ...

    def reranker_state(self) -> RerankerState: ...

    def workspaces(self) -> list[WorkspaceInfo]: ...

    def find_workspace(self, name: str) -> WorkspaceInfo | None: ...

    def create_workspace(self, name: str) -> WorkspaceInfo: ...

    def workspace_dir(self, workspace: str | None = None) -> Path: ...

    def documents(self, workspace: str | None = None) -> list[DocumentRecord]: ...

    def chunk_rows(self, workspace: str | None = None) -> list[tuple[DocumentRecord, list[dict[str, Any]]]]: ...

    def ingest(self, items: Sequence[IngestItem], workspace: str | None = None,
               progress: ProgressCallback | None = None, *, contextual: bool | None = None,
               briefing: bool | None = None) -> list[IngestResult]: ...

    def reindex(self, workspace: str | None = None, progress: ProgressCallback | None = None) -> list[IngestResult]:
        ...

    def ingest_texts(self, docs: Sequence[tuple[str, str]], workspace: str | None = None,
                     progress: ProgressCallback | None = None) -> list[IngestResult]: ...

    def retriever(self, workspace: str | None = None, **overrides: Any) -> HybridRetriever: ...

    def ask(self, question: str, workspace: str | None = None, **options: Any) -> Any: ...
