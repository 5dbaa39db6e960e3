"""The facade that pages and the CLI call. Components never import this module.

One :class:`PrismService` per process holds the embedder (loaded once, lazily), the Chroma client and one
:class:`WorkspaceHandle` per open workspace. It is thread-safe and shared by all Streamlit sessions.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from prism.answer import AnswerEngine, AnswerStream
from prism.briefing import Briefing, document_text_from_rows, make_briefing
from prism.config import RetrievalMode, Settings, get_settings
from prism.contextual import Contextualizer
from prism.conversation import History
from prism.embeddings import PrismEmbedding
from prism.errors import DocumentNotFoundError, EmbeddingModelMismatchError, WorkspaceNotFoundError
from prism.ingest import IngestItem, Ingestor, ProgressCallback
from prism.llm import LLMs, build_llms
from prism.rerank import Reranker
from prism.retriever import HybridRetriever, SearchResult
from prism.types import Answer, DocumentRecord, IngestResult
from prism.vector_store import VectorStore, make_client
from prism.websearch import NO_KEY_REASON as NO_WEB_KEY_REASON
from prism.websearch import WebSearcher
from prism.workspaces import Workspace, WorkspaceCatalog, WorkspaceInfo

logger = logging.getLogger(__name__)


@dataclass
class WorkspaceHandle:
    """An open workspace: its files, its vector store and its ingestor."""

    workspace: Workspace
    store: VectorStore
    ingestor: Ingestor
    retriever: HybridRetriever
    known_states: set[str]
    """Workspace fingerprints this process wrote or has synced its vector index to."""

    @property
    def info(self) -> WorkspaceInfo:
        return self.workspace.info


class PrismService:
    """Everything Prism does, by workspace name.

    Args:
        settings: defaults to :func:`prism.config.get_settings`.
        embedder: an already loaded embedder to share (tests, the Streamlit resource cache); loaded lazily otherwise.
        llms: the language models to use (tests inject fakes); default: built once from the settings' Groq key.
        web: the web searcher to use (tests inject one on a fake HTTP session); default: from the Tavily key.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        embedder: PrismEmbedding | None = None,
        *,
        llms: LLMs | None = None,
        web: WebSearcher | None = None,
    ):
        self.settings = settings or get_settings()
        self._embedder = embedder
        self._llms = llms
        self._web = web
        self._web_built = web is not None
        self._client: Any = None
        self._reranker: Reranker | None = None
        self._handles: dict[str, WorkspaceHandle] = {}
        self._lock = threading.RLock()
        self.catalog = WorkspaceCatalog(self.settings.home, self.settings.lock_timeout_s)

    # --- shared resources -----------------------------------------------------------------------------------
    @property
    def embedder(self) -> PrismEmbedding:
        """The embedder (loaded on first use)."""
        with self._lock:
            if self._embedder is None:
                self._embedder = PrismEmbedding.from_settings(self.settings)
            return self._embedder

    @property
    def client(self) -> Any:
        """The Chroma client (opened on first use)."""
        with self._lock:
            if self._client is None:
                self._client = make_client(self.settings)
            return self._client

    @property
    def reranker(self) -> Reranker:
        """The cross-encoder stage (loaded on first use; disabled with a reason when the model is unavailable)."""
        with self._lock:
            if self._reranker is None:
                self._reranker = Reranker.from_settings(self.settings)
            return self._reranker

    @property
    def llms(self) -> LLMs:
        """The configured LLMs (built once from the settings; none without a Groq key)."""
        with self._lock:
            if self._llms is None:
                self._llms = build_llms(self.settings)
            return self._llms

    @property
    def web_searcher(self) -> WebSearcher | None:
        """The Tavily searcher (built once), or ``None`` without a Tavily key."""
        with self._lock:
            if not self._web_built:
                self._web = WebSearcher.from_settings(self.settings)
                self._web_built = True
            return self._web

    def llm_status(self) -> dict[str, Any]:
        """What answering can use, for the UI and the CLI.

        Returns:
            ``{"mode": "llm", "model", "small_model", ...}`` or ``{"mode": "extractive", "reason", ...}``, plus
            ``"expansion"`` (``"available"`` or the reason it is off), ``"contextual"`` (same) and ``"web"``
            (``"available"`` or the reason).
        """
        status = dict(self.llms.status())
        off = "off: no LLM configured"
        status["expansion"] = "available" if self.llms.available else off
        status["contextual"] = "available" if self.llms.available else off
        status["web"] = "available" if self.web_searcher is not None else f"off: {NO_WEB_KEY_REASON}"
        return status

    # --- workspaces -----------------------------------------------------------------------------------------
    def workspaces(self) -> list[WorkspaceInfo]:
        """All workspaces."""
        return self.catalog.list()

    def create_workspace(self, name: str) -> WorkspaceInfo:
        """Create a workspace (raises ``WorkspaceExistsError`` if the name is taken)."""
        return self.catalog.create(name)

    def rename_workspace(self, old: str, new: str) -> WorkspaceInfo:
        """Rename a workspace."""
        info = self.catalog.rename(old, new)
        with self._lock:
            handle = self._handles.get(info.id)
            if handle is not None:
                handle.workspace.info = info
        return info

    def delete_workspace(self, name: str) -> WorkspaceInfo:
        """Delete a workspace with its collection, files and indexes."""

        def drop(info: WorkspaceInfo) -> None:
            with self._lock:
                self._handles.pop(info.id, None)
            try:
                self.client.delete_collection(info.collection)
            except Exception as exc:  # a missing collection (never opened) is fine
                logger.info("collection %s not dropped: %s", info.collection, exc)

        return self.catalog.remove(name, drop)

    def open(self, name: str | None = None, create: bool = False) -> WorkspaceHandle:
        """Open a workspace (recovering interrupted writes on first open in this process).

        Raises:
            WorkspaceNotFoundError: it does not exist and ``create`` is false.
            EmbeddingModelMismatchError: it was indexed with another embedding model.
        """
        name = name or self.settings.default_workspace
        info = self.catalog.create(name, exist_ok=True) if create else self.catalog.find(name)
        if info is None:
            raise WorkspaceNotFoundError(
                f"There is no workspace named '{name}'. Create it first (python -m prism workspaces create NAME)."
            )
        with self._lock:
            handle = self._handles.get(info.id)
            if handle is not None:
                return handle
            embedder = self.embedder
            try:
                store = VectorStore(self.client, info.collection, embedder.model_name, embedder.dimension, info.name,
                                    embedder.backend)
            except EmbeddingModelMismatchError as exc:
                if not embedder.backend_reason:
                    raise
                raise EmbeddingModelMismatchError(f"{exc} Note: {embedder.backend_reason}") from exc
            workspace = Workspace(self.settings.home, info, self.settings.lock_timeout_s)
            known: set[str] = {workspace.fingerprint()}
            retriever = HybridRetriever(workspace, store, embedder, self.reranker, self.settings,
                                        before_search=lambda: self._sync(info.id))
            ingestor = Ingestor(workspace, store, embedder, self.settings,
                                on_change=lambda: known.add(workspace.fingerprint()),
                                before_write=lambda: self._sync(info.id))
            handle = WorkspaceHandle(workspace, store, ingestor, retriever, known)
            ingestor.recover()
            self._handles[info.id] = handle
            return handle

    def ensure_sample_workspace(self, progress: ProgressCallback | None = None) -> list[IngestResult]:
        """On first start (no workspace at all), create the sample workspace from ``settings.sample_dir/*.pdf``.

        Returns:
            The ingest results, or ``[]`` when workspaces already exist (nothing is done then).
        """
        if self.catalog.list():
            return []
        files = sorted(self.settings.sample_dir.glob("*.pdf"))
        if not files:
            logger.warning("no sample documents in %s", self.settings.sample_dir)
            return []
        logger.info("first start: building the sample workspace from %d documents", len(files))
        return self.ingest([IngestItem(f) for f in files], self.settings.sample_workspace, progress)

    def _sync(self, workspace_id: str) -> None:
        """Re-open local Chroma when another process changed this workspace.

        Chroma's local client keeps each collection's vector index in memory per process and does not see vectors
        another process (e.g. ``python -m prism ingest`` while the app runs) added. When the workspace's
        fingerprint is one this process neither wrote nor synced to, every handle reconnects through a fresh client.
        A Chroma server (``PRISM_CHROMA_HOST``) has no such cache and needs nothing.
        """
        handle = self._handles.get(workspace_id)
        if handle is None:
            return
        fingerprint = handle.workspace.fingerprint()
        if fingerprint in handle.known_states:
            return
        if not self.settings.chroma_host:
            from chromadb.api.shared_system_client import SharedSystemClient

            with self._lock:
                logger.info("workspace %s changed in another process; re-opening the vector store", workspace_id)
                SharedSystemClient.clear_system_cache()
                self._client = make_client(self.settings)
                for h in self._handles.values():
                    h.store.reconnect(self._client)
                    h.known_states.add(h.workspace.fingerprint())
        handle.known_states.add(fingerprint)

    # --- documents ------------------------------------------------------------------------------------------
    def ingest(
        self,
        items: Sequence[IngestItem],
        workspace: str | None = None,
        progress: ProgressCallback | None = None,
        *,
        contextual: bool | None = None,
        briefing: bool | None = None,
    ) -> list[IngestResult]:
        """Ingest files/bytes/URLs into a workspace (created if missing). One result per item; never raises for a
        bad file.

        Args:
            contextual: contextual retrieval for this batch (default ``settings.contextual_retrieval``; needs an
                LLM, otherwise off with a warning on the results).
            briefing: write a briefing for each new document (default ``settings.briefing_on_ingest``); a failed
                briefing is a warning on the result, never a failed ingest.
        """
        handle = self.open(workspace, create=True)
        hook, note = self._contextualizer(contextual)
        results = handle.ingestor.ingest(items, progress, contextualize=hook)
        new = [r for r in results if r.status in ("ingested", "replaced")]
        if new:
            handle.retriever.refresh()  # rebuild BM25 now so the next query does not wait
        for r in new:
            if note:
                r.warnings.append(note)
            if self.settings.briefing_on_ingest if briefing is None else briefing:
                if progress is not None:
                    progress(1.0, f"{r.file}: briefing")
                self._brief_after_ingest(handle, r)
        return results

    def _contextualizer(self, enabled: bool | None) -> tuple[Contextualizer | None, str | None]:
        """The contextual-retrieval hook for a batch, or ``None`` with the reason when it was asked for but there
        is no LLM."""
        if not (self.settings.contextual_retrieval if enabled is None else enabled):
            return None, None
        llm = self.llms.cheap
        if llm is None:
            return None, "Contextual retrieval is off: no LLM is configured; chunks are indexed with their plain text."
        return Contextualizer(llm, max_workers=self.settings.contextual_max_workers,
                              max_context_chars=self.settings.contextual_max_chars,
                              doc_window_chars=self.settings.contextual_doc_chars), None

    def _brief_after_ingest(self, handle: WorkspaceHandle, result: IngestResult) -> None:
        """Brief a newly ingested document; any failure becomes a warning on its result."""
        try:
            self._brief(handle, result.doc_id or "")
        except Exception as exc:  # the document is committed; a briefing bug must not fail the ingest
            logger.warning("briefing failed for %s: %s", (result.doc_id or "")[:12], type(exc).__name__)
            result.warnings.append(f"No briefing was written ({type(exc).__name__}: {exc}).")

    def _brief(self, handle: WorkspaceHandle, doc_id: str) -> Briefing:
        record = handle.workspace.find(doc_id)
        if record is None:
            raise DocumentNotFoundError(f"Document {doc_id[:12]} is not in workspace '{handle.workspace.name}'.")
        text = document_text_from_rows(handle.workspace.read_chunks(doc_id))
        brief = make_briefing(record.source, text, embedder=self.embedder, llm=self.llms.main,
                              max_chars=self.settings.briefing_max_chars,
                              max_sentences=self.settings.briefing_max_sentences)
        handle.workspace.update_record(doc_id, briefing=brief.to_dict())
        logger.info("briefing (%s) stored for %s", brief.mode, doc_id[:12])
        return brief

    def brief(self, source: str, workspace: str | None = None) -> Briefing:
        """(Re)write and store the briefing of one document by file name.

        Raises:
            DocumentNotFoundError: no document has that name.
        """
        handle = self.open(workspace)
        record = handle.workspace.find_by_source(source)
        if record is None:
            raise DocumentNotFoundError(
                f"There is no document named '{source}' in workspace '{handle.workspace.name}'."
            )
        return self._brief(handle, record.doc_id)

    # --- answering ------------------------------------------------------------------------------------------
    def answer_engine(self, workspace: str | None = None) -> AnswerEngine:
        """An answer engine over the workspace's shared retriever, with the service's LLMs and web searcher."""
        handle = self.open(workspace)
        return AnswerEngine(handle.retriever, self.embedder, self.settings, self.llms, self.web_searcher)

    def ask(
        self,
        question: str,
        workspace: str | None = None,
        *,
        history: History | None = None,
        sources: Sequence[str] | None = None,
        mode: RetrievalMode | None = None,
        hyde: bool | None = None,
        multi_query: bool | None = None,
        web: bool | None = None,
        rerank: bool = True,
        stream: bool = False,
    ) -> Answer | AnswerStream:
        """Answer a question over a workspace; see :meth:`prism.answer.AnswerEngine.ask` for the options.

        Returns:
            The :class:`~prism.types.Answer`, or with ``stream=True`` an :class:`~prism.answer.AnswerStream` to
            iterate (``st.write_stream``) whose ``answer`` is set at the end.

        Raises:
            WorkspaceNotFoundError: no such workspace.
            DocumentNotFoundError: a name in ``sources`` is not in the workspace.
            LLMAuthError: the Groq key was rejected.
        """
        return self.answer_engine(workspace).ask(
            question, history=history, sources=sources, mode=mode, hyde=hyde, multi_query=multi_query, web=web,
            rerank=rerank, stream=stream,
        )

    def documents(self, workspace: str | None = None) -> list[DocumentRecord]:
        """The workspace's committed documents."""
        info = self.catalog.get(workspace or self.settings.default_workspace)
        return Workspace(self.settings.home, info, self.settings.lock_timeout_s).documents()

    def delete_document(self, source: str, workspace: str | None = None) -> DocumentRecord:
        """Delete one document by file name (raises ``DocumentNotFoundError``)."""
        handle = self.open(workspace)
        record = handle.ingestor.delete(source)
        handle.retriever.refresh()
        return record

    def retriever(self, workspace: str | None = None) -> HybridRetriever:
        """The workspace's shared HybridRetriever (a LlamaIndex ``BaseRetriever``)."""
        return self.open(workspace).retriever

    def search(self, query: str, workspace: str | None = None, **options: Any) -> SearchResult:
        """Hybrid search in a workspace; ``options`` as :meth:`prism.retriever.HybridRetriever.search`.

        An empty or missing workspace gives an empty result with a message (no error).
        """
        name = workspace or self.settings.default_workspace
        if self.catalog.find(name) is None:
            state = self.reranker.state.to_dict()
            return SearchResult(query, options.get("mode") or self.settings.retrieval_mode, state, [],
                                f"There is no workspace named '{name}' yet; ingest documents into it first.")
        return self.open(name).retriever.search(query, **options)

    def reindex(self, workspace: str | None = None, progress: ProgressCallback | None = None) -> list[IngestResult]:
        """Drop the workspace's vectors and rebuild them with the configured chunking and embedder."""
        name = workspace or self.settings.default_workspace
        info = self.catalog.get(name)
        with self._lock:
            self._handles.pop(info.id, None)
            try:
                self.client.delete_collection(info.collection)
            except Exception as exc:
                logger.info("collection %s not dropped: %s", info.collection, exc)
        handle = self.open(name)
        return handle.ingestor.reindex(progress)

    # --- evaluation -----------------------------------------------------------------------------------------
    def evaluate(self, dataset: Any, **options: Any) -> list[tuple[dict[str, Any], Any]]:
        """Evaluate a dataset (:func:`prism.evaluation.datasets.load_dataset`) and write its run file(s); options
        and return value as :func:`prism.evaluation.runner.run_evaluation`."""
        from prism.evaluation.runner import run_evaluation

        return run_evaluation(self, dataset, **options)

    def runs(self) -> list[dict[str, Any]]:
        """The evaluation runs listed in ``settings.eval_dir/index.json``, oldest first."""
        from prism.evaluation.runs import RunStore

        return RunStore(self.settings.eval_dir).list()
