"""The comparison half of the facade: :class:`CompareFacade`, mixed into :class:`prism.service.PrismService`.

It answers grid cells through the service's own ``ask`` (so every cell runs the Chat pipeline) and keeps grids and
cached cells in the workspace's :class:`~prism.answering.compare.store.GridStore`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from prism import __version__
from prism.answering.compare.export import grid_csv, grid_markdown, grid_xlsx
from prism.answering.compare.grid import TEMPLATES, Template, compare_cells, settings_key, template_questions
from prism.answering.compare.store import GridStore
from prism.answering.compare.templates import row_label
from prism.config import Settings
from prism.errors import DocumentNotFoundError, PrismError
from prism.index.catalog import WorkspaceCatalog
from prism.index.workspaces import Workspace
from prism.types import EXPORT_FORMATS, Answer, CancelToken, CompareCell, CompareGrid, ExportFormat

__all__ = ["CELL_INDEPENDENT_SETTINGS", "SETTINGS_FIELDS", "CompareFacade", "cell_settings"]

WRITERS: dict[str, Callable[[CompareGrid, Mapping[str, str] | None], bytes]] = {
    "csv": grid_csv, "xlsx": grid_xlsx, "md": lambda grid, titles: grid_markdown(grid, titles).encode("utf-8")}
"""The writer of each export format's bytes, by :attr:`~prism.types.ExportFormat.key` of
:data:`prism.types.EXPORT_FORMATS`."""
if set(WRITERS) != {fmt.key for fmt in EXPORT_FORMATS}:
    raise RuntimeError("every grid export format needs one writer")
SETTINGS_FIELDS: tuple[str, ...] = (
    # retrieval (prism/retrieval, prism/index): what is searched and how it is ranked
    "retrieval_mode", "fusion_method", "rrf_k", "dense_weight", "bm25_weight", "statement_weight", "section_weight",
    "page_ranking", "page_window", "page_ranking_min_pages", "page_keep", "page_decay", "dense_top_k", "bm25_top_k",
    "fusion_top_k", "top_k", "bm25_k1", "bm25_b", "reranker_enabled", "reranker_model", "embed_model_name",
    "embed_backend", "embed_max_tokens",
    # answering (prism/answering): the gate, the extractive answer, the expansions and the LLM
    "answer_min_relevance", "gate_min_salient_idf", "extractive_max_sentences", "extractive_lexical_weight",
    "hyde_enabled", "multi_query_enabled", "multi_query_count", "llm_model", "llm_small_model", "llm_temperature",
    "llm_max_tokens",
    # the chunks a document was indexed into (a reindex under other values answers from other chunks)
    "chunk_size", "chunk_overlap", "contextual_retrieval", "contextual_max_chars", "contextual_doc_chars",
)
"""Settings a cell's answer depends on besides the per-run options: part of the cell cache key, so changing one
asks the cells again. Every :class:`~prism.config.Settings` field that retrieval or answering reads is here or in
:data:`CELL_INDEPENDENT_SETTINGS` (a test reads ``prism/answering``, ``prism/retrieval`` and ``prism/index`` for
``settings.<field>`` and fails on a field in neither)."""
CELL_INDEPENDENT_SETTINGS: dict[str, str] = {
    **{f: "the access gate, not answers" for f in ("access_max_attempts", "access_global_max_attempts",
                                                    "access_lockout_s", "access_lockout_max_s", "access_proxy_hops")},
    **{f: "where the index lives, not what it holds" for f in ("chroma_host", "chroma_port", "chroma_timeout_s")},
    "home": "the cache is inside the workspace's folder", "default_workspace": "the cache is per workspace",
    "lock_timeout_s": "waiting for a lock, not the answer",
    **{f: "speed only" for f in ("query_threads", "torch_threads", "embed_batch_size", "embed_onnx_batch_size",
                                 "contextual_max_workers")},
    "groq_api_key": "the answer mode it enables (LLM or extractive) is in the key",
    "tavily_api_key": "a cell never searches the web",
    **{f: "a cell never searches the web" for f in ("web_search_enabled", "web_search_depth", "web_max_results",
                                                     "web_max_chars", "web_timeout_s")},
    **{f: "timeouts, retries and pacing of LLM calls; a cell they degrade is not cached" for f in (
        "llm_timeout_s", "llm_max_attempts", "llm_retry_max_wait_s", "llm_requests_per_minute",
        "llm_tokens_per_minute", "llm_pace_max_wait_s")},
    "memory_turns": "a cell has no chat history",
    **{f: "briefings, not answers" for f in ("briefing_on_ingest", "briefing_max_sentences", "briefing_max_chars")},
}
"""Settings that retrieval or answering read but that do not change a cell's answer, each with the reason."""
if set(SETTINGS_FIELDS) & set(CELL_INDEPENDENT_SETTINGS) or not set(SETTINGS_FIELDS) <= set(Settings.model_fields):
    raise RuntimeError("SETTINGS_FIELDS must name Settings fields, none of them cell-independent")


def cell_settings(settings: Settings) -> dict[str, Any]:
    """The values of :data:`SETTINGS_FIELDS` in ``settings``: ``{field: value}``."""
    return {f: getattr(settings, f) for f in SETTINGS_FIELDS}


class CompareFacade:
    """Comparison grids, for a class that has ``settings``, ``catalog``, ``ask`` and ``llm_status``."""

    settings: Settings
    catalog: WorkspaceCatalog

    ask: Callable[..., Any]  # the service's: ask(question, workspace=None, **options)

    def llm_status(self) -> dict[str, Any]:  # the service's
        raise NotImplementedError

    @staticmethod
    def compare_templates() -> dict[str, tuple[Template, ...]]:
        """The question template lists by name (:data:`prism.answering.compare.grid.TEMPLATES`)."""
        return dict(TEMPLATES)

    @staticmethod
    def template_questions(name: str) -> list[str]:
        """The questions of one template list; raises ``PrismError`` naming the lists when there is none."""
        return template_questions(name)

    @staticmethod
    def row_label(question: str) -> str:
        """A grid row's question as shown and exported, its placeholders in words
        (:func:`prism.answering.compare.templates.row_label`)."""
        return row_label(question)

    @staticmethod
    def export_formats() -> tuple[ExportFormat, ...]:
        """The grid's export formats, in the order they are offered (:data:`prism.types.EXPORT_FORMATS`)."""
        return EXPORT_FORMATS

    @staticmethod
    def export_grid(grid: CompareGrid, fmt: str, titles: Mapping[str, str] | None = None) -> bytes:
        """The grid as the bytes of format ``fmt``, a key or file extension of :data:`prism.types.EXPORT_FORMATS`
        (``csv``, ``xlsx``, ``md`` / ``markdown``; :mod:`prism.answering.compare.export`; citations as "title p. N").
        ``titles`` is ``{file name: display title}`` (:meth:`prism.service.PrismService.document_titles`); columns
        are headed ``"title (file name)"``; without it, by file names.

        Raises:
            PrismError: ``fmt`` names no export format (the message lists them).
        """
        wanted = fmt.lower().lstrip(".")
        for spec in EXPORT_FORMATS:
            if wanted in spec.suffixes:
                return WRITERS[spec.key](grid, titles)
        raise PrismError(f"A grid exports as {', '.join(f.key for f in EXPORT_FORMATS)}, not '{fmt}'.")

    def grids(self, workspace: str | None = None) -> GridStore:
        """The workspace's saved grids and cell cache; raises ``WorkspaceNotFoundError``."""
        info = self.catalog.get(workspace or self.settings.default_workspace)
        return GridStore(Workspace(self.settings.home, info, self.settings.lock_timeout_s),
                         self.settings.lock_timeout_s)

    def compare(self, documents: Sequence[str], questions: Sequence[str], workspace: str | None = None, *,
                cancel: CancelToken | None = None, mode: str | None = None, hyde: bool | None = None,
                multi_query: bool | None = None, rerank: bool = True, auto_scope: bool = True,
                use_cache: bool = True) -> Iterator[CompareCell]:
        """Answer a grid of ``documents`` (file names, the columns) × ``questions`` (the rows), each cell from its
        own document only (:func:`prism.answering.compare.grid.compare_cells`), yielding cells as they are done, row by
        row. Options as :meth:`ask` (no web search: a cell answers from its document); ``use_cache`` False asks
        every cell again (and refreshes the cache).

        Raises:
            WorkspaceNotFoundError: no such workspace.
            DocumentNotFoundError: a name in ``documents`` is not in the workspace (checked before any cell).
            PrismError: no document or question, or more than 12 documents.
        """
        store = self.grids(workspace)
        by_name = {d.source: d for d in store.workspace.documents()}
        missing = [name for name in documents if name not in by_name]
        if missing:
            raise DocumentNotFoundError(f"Workspace '{store.workspace.name}' has no document named "
                                        f"{', '.join(repr(m) for m in missing)}; see python -m prism docs.")
        options = {"mode": mode or self.settings.retrieval_mode, "hyde": hyde, "multi_query": multi_query,
                   "rerank": rerank, "auto_scope": auto_scope}
        key = settings_key({**options, "answers": self.llm_status().get("mode"), "version": __version__,
                            **cell_settings(self.settings)})

        def ask_one(source: str, question: str) -> Answer:
            answer = self.ask(question, store.workspace.name, sources=[source], web=False, **options)
            return answer

        records = [by_name[name] for name in dict.fromkeys(documents)]
        return compare_cells(ask_one, records, questions, key, store if use_cache else _Refresh(store), cancel)


class _Refresh:
    """A cache that is never read but still written: asks every cell again and keeps the new answers."""

    def __init__(self, store: GridStore):
        self.store = store

    def cached_cell(self, key: str) -> CompareCell | None:
        return None

    def cache_cell(self, key: str, cell: CompareCell) -> None:
        self.store.cache_cell(key, cell)
