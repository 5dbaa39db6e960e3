"""The facade that pages, the UI and the CLI call; nothing else imports this module.

One :class:`PrismService` per process holds the embedder (loaded once, lazily), the vector-store backend and one
:class:`WorkspaceHandle` per open workspace. It is thread-safe and shared by all Streamlit sessions. The module's
functions give the process-wide vocabularies (retrieval modes, upload types, metrics) from their registries;
evaluation (datasets, runs) comes from :class:`prism.evaluation.facade.EvaluationFacade`.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from prism.answering.briefing.compose import Briefing, brief_document
from prism.answering.briefing.compose import briefing_markdown as _briefing_markdown
from prism.answering.briefing.jobs import BackgroundBriefings, brief_offline_now
from prism.answering.compare.facade import CompareFacade
from prism.answering.contextual import Contextualizer
from prism.answering.conversation import History
from prism.answering.conversation_store import ConversationStore
from prism.answering.engine import AnswerEngine
from prism.answering.llm import LLMs, build_llms
from prism.answering.multipart import MultiPartStream, ask_parts
from prism.answering.passage import passage_view
from prism.answering.programs.ranker import Ranker
from prism.answering.reading.reader import Reader
from prism.answering.stream import AnswerStream
from prism.answering.websearch import NO_KEY_REASON as NO_WEB_KEY_REASON
from prism.answering.websearch import WebSearcher
from prism.config import Settings, get_settings
from prism.errors import EmbeddingModelMismatchError, WorkspaceNotFoundError
from prism.evaluation.facade import EvaluationFacade, dataset_formats, metrics, published_anchors
from prism.evaluation.feedback_facade import FeedbackFacade
from prism.fsutil import distinct_names
from prism.index.access import AccessFacade
from prism.index.audit import AuditFacade
from prism.index.catalog import WorkspaceCatalog
from prism.index.embedder import PrismEmbedding
from prism.index.open_workspaces import OpenWorkspace, OpenWorkspaces
from prism.index.seed import install_seed
from prism.index.tokenizer import tokenize
from prism.index.vector_store import VectorStore, VectorStores
from prism.index.workspaces import Workspace
from prism.ingestion.jobs import IngestJobs, JobView
from prism.ingestion.parsing import file_types
from prism.ingestion.pipeline import Ingestor
from prism.ingestion.prepare import document_title
from prism.ingestion.rebuild import ReindexFacade
from prism.ingestion.sample import SampleBuild, SampleFacade
from prism.retrieval.fusion import MODES, retrieval_mode
from prism.retrieval.models_facade import ModelsFacade
from prism.retrieval.rerank import Reranker
from prism.retrieval.retriever import HybridRetriever, SearchResult
from prism.types import (
    Answer,
    CancelToken,
    DocumentRecord,
    FileType,
    IngestItem,
    IngestResult,
    PassageView,
    ProgressCallback,
    RetrievalMode,
    WorkspaceInfo,
)

__all__ = ["IngestJobs", "JobView", "PrismService", "SampleBuild", "WorkspaceHandle", "dataset_formats",
           "document_title", "find_retrieval_mode", "install_seed", "metrics", "published_anchors", "query_terms",
           "retrieval_modes", "supported_file_types", "upload_names"]

logger = logging.getLogger(__name__)


@dataclass
class WorkspaceHandle(OpenWorkspace):
    """An open workspace: its files, vector store and synced states, with its ingestor and shared retriever."""

    ingestor: Ingestor
    retriever: HybridRetriever


class PrismService(EvaluationFacade, CompareFacade, FeedbackFacade, ModelsFacade, AuditFacade, SampleFacade,
                   AccessFacade, ReindexFacade):
    """Everything Prism does, by workspace name (creating, renaming, deleting workspaces and the audit trail:
    :class:`prism.index.audit.AuditFacade`; the sample workspace: :class:`prism.ingestion.sample.SampleFacade`; the
    access code's lockout: :class:`prism.index.access.AccessFacade`; re-indexing and a damaged index:
    :class:`prism.ingestion.rebuild.ReindexFacade`).

    Args:
        settings: defaults to :func:`prism.config.get_settings`.
        embedder: an already loaded embedder to share (tests, the Streamlit resource cache); loaded lazily otherwise.
        llms: the language models to use (tests inject fakes); default: built once from the settings' Groq key.
        web: the web searcher to use (tests inject one on a fake HTTP session); default: from the Tavily key.
    """

    def __init__(self, settings: Settings | None = None, embedder: PrismEmbedding | None = None, *,
                 llms: LLMs | None = None, web: WebSearcher | None = None):
        self.settings = settings or get_settings()
        self._embedder = embedder
        self._llms = llms
        self._web = web
        self._web_built = web is not None
        self._reranker: Reranker | None = None
        self._reader: Reader | None = None
        self._ranker: Ranker | None = None
        self.briefings = BackgroundBriefings()  # LLM briefings written after the ingest
        self._lock = threading.RLock()
        if self.settings.seed_dir is not None:  # before anything below writes into the home
            install_seed(self.settings.seed_dir, self.settings.home)
        self.catalog = WorkspaceCatalog(self.settings.home, self.settings.lock_timeout_s)
        self.stores = VectorStores(self.settings)
        self._open: OpenWorkspaces[WorkspaceHandle] = OpenWorkspaces(self.settings, self.stores)

    # --- shared resources -----------------------------------------------------------------------------------
    def _once(self, attr: str, build: Callable[[], Any]) -> Any:
        """The shared resource ``self.<attr>``, built on first use (under the lock, so once per process)."""
        with self._lock:
            if getattr(self, attr) is None:
                setattr(self, attr, build())
            return getattr(self, attr)

    @property
    def embedder(self) -> PrismEmbedding:
        """The embedder (loaded on first use)."""
        return self._once("_embedder", lambda: PrismEmbedding.from_settings(self.settings))

    @property
    def reader(self) -> Reader:
        """The question reader (built once, over the embedder, a question embedded on ``query_threads``:
        :class:`prism.answering.reading.Reader`)."""
        return self._once("_reader", lambda: Reader(self.embedder, threads=self.settings.query_threads))

    @property
    def ranker(self) -> Ranker:
        """The program ranker's trained weights (loaded once)."""
        return self._once("_ranker", Ranker.load)

    @property
    def reranker(self) -> Reranker:
        """The cross-encoder stage (loaded on first use; disabled with a reason when the model is unavailable)."""
        return self._once("_reranker", lambda: Reranker.from_settings(self.settings))

    @property
    def llms(self) -> LLMs:
        """The configured LLMs (built once from the settings; none without a Groq key)."""
        return self._once("_llms", lambda: build_llms(self.settings))

    @property
    def web_searcher(self) -> WebSearcher | None:
        """The Tavily searcher (built once), or ``None`` without a Tavily key."""
        with self._lock:
            if not self._web_built:
                self._web = WebSearcher.from_settings(self.settings)
                self._web_built = True
            return self._web

    def llm_status(self) -> dict[str, Any]:
        """What answering can use: ``{"mode": "llm", "model", "small_model", ...}`` or ``{"mode": "extractive",
        "reason", ...}``, plus ``"expansion"``, ``"contextual"`` and ``"web"`` (``"available"`` or the reason)."""
        status = dict(self.llms.status())
        off = "off: no LLM configured"
        status["expansion"] = "available" if self.llms.available else off
        status["contextual"] = "available" if self.llms.available else off
        status["web"] = "available" if self.web_searcher is not None else f"off: {NO_WEB_KEY_REASON}"
        return status

    # --- workspaces -----------------------------------------------------------------------------------------
    def workspaces(self) -> list[WorkspaceInfo]:
        """All workspaces, in creation order."""
        return self.catalog.list()

    def find_workspace(self, name: str) -> WorkspaceInfo | None:
        """The workspace with this name (names are unique regardless of case), or ``None``."""
        return self.catalog.find(name)

    def open(self, name: str | None = None, create: bool = False, verify: bool = True) -> WorkspaceHandle:
        """Open a workspace (recovering interrupted writes on first open in this process; with ``verify``, its vector
        index checked first); raises ``WorkspaceNotFoundError`` (missing and not ``create``),
        ``IndexDamagedError`` or ``EmbeddingModelMismatchError``."""
        name = name or self.settings.default_workspace
        info = self.catalog.create(name, exist_ok=True) if create else self.catalog.find(name)
        if info is None:
            raise WorkspaceNotFoundError(
                f"There is no workspace named '{name}'. Create it first (python -m prism workspaces create NAME)."
            )
        self.stores.client  # noqa: B018 - a Chroma server that does not answer fails here, before the embedder loads
        embedder = self.embedder
        try:
            return self._open.open(info, embedder.model_name, embedder.dimension,
                                   lambda workspace, store: self._handle(info, workspace, store), embedder.backend,
                                   verify)
        except EmbeddingModelMismatchError as exc:
            if not embedder.backend_reason:
                raise
            raise EmbeddingModelMismatchError(f"{exc} Note: {embedder.backend_reason}") from exc

    def _handle(self, info: WorkspaceInfo, workspace: Workspace, store: VectorStore) -> WorkspaceHandle:
        """A newly opened workspace's handle, its interrupted writes recovered."""
        sync = functools.partial(self._open.sync, info.id)
        known: set[str] = set()
        retriever = HybridRetriever(workspace, store, self.embedder, self.reranker, self.settings,
                                    before_search=sync, reader=self.reader.read)
        ingestor = Ingestor(workspace, store, self.embedder, self.settings,
                            on_change=lambda: known.add(workspace.fingerprint()), before_write=sync)
        ingestor.recover()
        return WorkspaceHandle(workspace, store, known, ingestor, retriever)

    def workspace_dir(self, workspace: str | None = None) -> Path:
        """The workspace's folder (e.g. for :mod:`prism.evaluation.beir`'s marker); ``WorkspaceNotFoundError``."""
        return self.catalog.folder(self.catalog.get(workspace or self.settings.default_workspace))

    # --- documents ------------------------------------------------------------------------------------------
    def ingest(self, items: Sequence[IngestItem], workspace: str | None = None,
               progress: ProgressCallback | None = None, *, contextual: bool | None = None,
               briefing: bool | None = None, create: bool = True, cancel: CancelToken | None = None,
               actor: str | None = None, following: IngestItem | None = None) -> list[IngestResult]:
        """Ingest files/bytes/URLs into a workspace; one result per item, never raising for a bad file (rules:
        :mod:`prism.ingestion.pipeline`; ``cancel`` stops the batch, committed documents stay). ``contextual``:
        contextual retrieval (default ``settings.contextual_retrieval``; off without an LLM, with a warning).
        ``briefing``: brief each new document (default ``settings.briefing_on_ingest``; progress ``"<file>: briefing"``;
        a failure is a warning). ``create``: create a missing workspace, else ``WorkspaceNotFoundError``. Each
        document stored is recorded in the audit log as ``actor``'s (:meth:`~prism.index.audit.AuditFacade.record`).
        ``following``: the file the next call brings, parsed ahead meanwhile (:meth:`Ingestor.ingest`)."""
        handle = self.open(workspace, create=create)
        hook, note = Contextualizer.for_batch(contextual, self.llms.cheap, self.settings)
        results = handle.ingestor.ingest(items, progress, contextualize=hook, cancel=cancel, following=following)
        self.record_ingest(handle.workspace.info, results, actor)
        new = [r for r in results if r.status in ("ingested", "replaced")]
        brief = (self.settings.briefing_on_ingest if briefing is None else briefing)
        if new:
            t0 = time.perf_counter()
            handle.retriever.refresh()  # rebuild BM25 now so the next query does not wait
            bm25_s, chunks = time.perf_counter() - t0, sum(r.chunks for r in new) or 1
        for r in new:
            r.warnings.extend([note] if note else [])
            r.stage_seconds["bm25"] = round(bm25_s * r.chunks / chunks, 3)  # its share of the batch's rebuild
            if brief and not (cancel and cancel.cancelled):
                if progress is not None:
                    progress(1.0, f"{r.file}: briefing")
                t0 = time.perf_counter()
                self._brief_after_ingest(handle, r)
                r.stage_seconds["briefing"] = round(time.perf_counter() - t0, 3)
        return results

    def ingest_texts(self, docs: Sequence[tuple[str, str]], workspace: str | None = None,
                     progress: ProgressCallback | None = None) -> list[IngestResult]:
        """Bulk-ingest ``(name, text)`` pairs as unpaged documents (a BEIR corpus; no briefings)."""
        handle = self.open(workspace, create=True)
        results = handle.ingestor.ingest_texts(docs, progress)
        handle.retriever.refresh()
        return results

    def _brief_after_ingest(self, handle: WorkspaceHandle, result: IngestResult) -> None:
        """The offline briefing now; with an LLM, the LLM's briefing in the background (it replaces the offline one
        when it arrives, :mod:`prism.answering.briefing.jobs`), so the ingest never waits for the LLM."""
        if brief_offline_now(handle.workspace, result, self.embedder, self.settings) and self.llms.main is not None:
            self.briefings.submit(handle.workspace, result.doc_id or "", self.embedder, self.llms.main, self.settings)

    def brief(self, source: str, workspace: str | None = None) -> Briefing:
        """(Re)write and store the briefing of one document by file name (raises ``DocumentNotFoundError``)."""
        handle = self.open(workspace)
        record = handle.workspace.get_by_source(source)
        return brief_document(handle.workspace, record.doc_id, embedder=self.embedder, llm=self.llms.main,
                              settings=self.settings)

    def conversations(self, workspace: str | None = None) -> ConversationStore:
        """A workspace's saved conversations, shared by everyone using it; raises ``WorkspaceNotFoundError``."""
        info = self.catalog.get(workspace or self.settings.default_workspace)
        return ConversationStore(Workspace(self.settings.home, info, self.settings.lock_timeout_s))

    def documents(self, workspace: str | None = None) -> list[DocumentRecord]:
        """The workspace's committed documents (raises ``WorkspaceNotFoundError``)."""
        info = self.catalog.get(workspace or self.settings.default_workspace)
        return Workspace(self.settings.home, info, self.settings.lock_timeout_s).documents()

    def document_titles(self, workspace: str | None = None) -> dict[str, str]:
        """``{file name: display title}`` of the workspace's documents (:func:`document_title`)."""
        return {d.source: document_title(d) for d in self.documents(workspace)}

    def chunk_rows(self, workspace: str | None = None) -> list[tuple[DocumentRecord, list[dict[str, Any]]]]:
        """Every committed document with its stored chunk rows (``chunk_id``, ``text``, page and offset keys)."""
        handle = self.open(workspace)
        return [(d, handle.workspace.read_chunks(d.doc_id)) for d in handle.workspace.documents()]

    def tag(self, source: str, workspace: str | None = None, *, reset: bool = False,
            **fields: str | None) -> DocumentRecord:
        """Correct a document's profile (:mod:`prism.ingestion.retag`): ``fields`` (``None`` clears one) are kept as
        analyst corrections apart from the extracted profile, survive ``reindex`` and update the chunks' metadata;
        ``reset`` drops earlier ones. Returns the record; raises ``DocumentNotFoundError`` or ``PrismError``."""
        handle = self.open(workspace)
        record = handle.ingestor.tag(source, fields, reset)
        handle.retriever.refresh()
        return record

    def delete_document(self, source: str, workspace: str | None = None, *, actor: str | None = None
                        ) -> DocumentRecord:
        """Delete one document by file name (raises ``DocumentNotFoundError``); recorded in the audit log."""
        handle = self.open(workspace)
        record = handle.ingestor.delete(source)
        handle.retriever.refresh()
        self.record(handle.workspace.info, actor, "document.delete", record.source, {"doc_id": record.doc_id})
        return record

    def original_path(self, workspace: str | None, source: str) -> Path:
        """Where the kept original of the document named ``source`` is (e.g. to draw one of its PDF pages).

        Raises:
            WorkspaceNotFoundError: no such workspace.
            DocumentNotFoundError: no document has that name.
        """
        opened = self.open(workspace).workspace
        return opened.original_path(opened.get_by_source(source).doc_id)

    def passage(self, source: str, chunk_id: str, workspace: str | None = None) -> PassageView | None:
        """A cited chunk in the text of its page, slide or sheet (:func:`~prism.answering.passage.passage_view`);
        ``None`` when it is no longer stored. Raises ``WorkspaceNotFoundError``, ``DocumentNotFoundError``."""
        store = self.open(workspace).workspace
        return passage_view(source, store.read_chunks(store.get_by_source(source).doc_id), chunk_id)

    # --- retrieval and answering ----------------------------------------------------------------------------
    def retriever(self, workspace: str | None = None, **overrides: Any) -> HybridRetriever:
        """The workspace's shared :class:`HybridRetriever` (a LlamaIndex ``BaseRetriever``); with settings
        ``overrides`` (e.g. ``dense_top_k=300``) a new retriever over the same indexes."""
        handle = self.open(workspace)
        if not overrides:
            return handle.retriever
        return HybridRetriever(handle.workspace, handle.store, self.embedder, self.reranker,
                               self.settings.model_copy(update=overrides), before_search=handle.retriever.before_search,
                               reader=self.reader.read)

    def search(self, query: str, workspace: str | None = None, **options: Any) -> SearchResult:
        """Hybrid search in a workspace; ``options`` as :meth:`prism.retrieval.retriever.HybridRetriever.search`.
        An empty or missing workspace gives an empty result with a message (no error)."""
        name = workspace or self.settings.default_workspace
        if self.catalog.find(name) is not None:
            return self.open(name).retriever.search(query, **options)
        message = f"There is no workspace named '{name}' yet; ingest documents into it first."
        mode = options.get("mode") or self.settings.retrieval_mode
        return SearchResult(query, mode, self.reranker_state().to_dict(), [], message)

    def ask(self, question: str, workspace: str | None = None, *, history: History | None = None,
            sources: Sequence[str] | None = None, mode: str | None = None, hyde: bool | None = None,
            multi_query: bool | None = None, web: bool | None = None, rerank: bool = True,
            stream: bool = False, auto_scope: bool = True, scope_removed: Sequence[str] = ()
            ) -> Answer | AnswerStream | MultiPartStream:
        """Answer a question over a workspace (options as :meth:`prism.answering.engine.AnswerEngine.ask`), a
        multi-part one part by part (:mod:`prism.answering.multipart`): the :class:`~prism.types.Answer`, or with
        ``stream=True`` a stream to iterate whose ``answer`` is set at the end. Raises ``WorkspaceNotFoundError``,
        ``DocumentNotFoundError`` (in ``sources``) or ``LLMAuthError`` (key rejected)."""
        engine = AnswerEngine(self.open(workspace).retriever, self.embedder, self.settings, self.llms,
                              self.web_searcher, reader=self.reader, ranker=self.ranker)
        return ask_parts(engine.ask, question, history=history, sources=sources, mode=mode, hyde=hyde,
                         multi_query=multi_query, web=web, rerank=rerank, stream=stream, auto_scope=auto_scope,
                         scope_removed=scope_removed)


# --- vocabularies -------------------------------------------------------------------------------------------------
def retrieval_modes() -> tuple[RetrievalMode, ...]:
    """The retrieval modes (``search --mode``, the sidebar, evaluation variants): ``retrieval.fusion.MODES``."""
    return tuple(MODES.values())


def find_retrieval_mode(name: str) -> RetrievalMode:
    """The retrieval mode called ``name`` (its label and the sides it runs); raises ``PrismError`` when unknown."""
    return retrieval_mode(name)


def supported_file_types() -> tuple[FileType, ...]:
    """The upload types in the order they are named, from the loader registry
    :data:`prism.ingestion.parsing.LOADERS`."""
    return file_types()


def upload_names(names: Sequence[str]) -> list[str]:
    """The display names one batch of uploads gets: names met twice become ``name (2).ext`` (the same-name rule of
    :mod:`prism.ingestion.pipeline`, for callers that submit a batch's files one by one)."""
    return distinct_names(names)


def briefing_markdown(record: DocumentRecord) -> str:
    """A document's briefing as Markdown to download: its name, profile, points with their pages and questions
    (:func:`prism.answering.briefing.compose.briefing_markdown`)."""
    return _briefing_markdown(record, document_title(record))


def query_terms(text: str) -> list[str]:
    """The BM25 index tokens of ``text`` (stemmed, stop words dropped, amounts canonicalised), as the sparse side
    matches them; e.g. to highlight query terms in a chunk."""
    return tokenize(text)
