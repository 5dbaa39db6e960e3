"""HybridRetriever: dense (vector store) + sparse (BM25) → fusion → cross-encoder rerank, behind LlamaIndex's
``BaseRetriever``, explaining every stage's score and rank.

:meth:`HybridRetriever.search` composes stage methods in the shape of LlamaIndex's ``QueryFusionRetriever``:
:meth:`~HybridRetriever._dense` and :meth:`~HybridRetriever._sparse` (one ranking per side, several query strings
pooled by best rank), :meth:`~HybridRetriever._fuse` (the mode's combination, :func:`prism.retrieval.fusion.combine`),
:func:`prism.retrieval.candidates.hydrate` (texts and per-stage scores) and :meth:`~HybridRetriever._rerank`.

One retriever per workspace is shared by all sessions (thread-safe). It reads a consistent snapshot of the
workspace on every query: documents are visible once committed in the registry, dense hits of documents still
being written are dropped, and the BM25 index is reloaded or rebuilt whenever the workspace's fingerprint changes.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from prism.config import Settings
from prism.errors import DocumentNotFoundError, PrismError
from prism.index.bm25_side import SparseSide
from prism.index.embedder import PrismEmbedding
from prism.index.statements import statement_kinds
from prism.index.tokenizer import tokenize
from prism.index.vector_store import VectorIndex
from prism.index.workspaces import Workspace
from prism.retrieval.candidates import arrange, hydrate, prefer, ranked
from prism.retrieval.fusion import Ranking, combine, fusion_method, pool_best_rank, retrieval_mode
from prism.retrieval.rerank import Reranker
from prism.retrieval.scope import DocumentCatalog, catalog_of, plan_scope
from prism.retrieval.search_state import ScopeState, SearchResult, SearchRun
from prism.types import DocumentRecord, RetrievalMode, RetrievedChunk
from prism.types.reading import Reading

logger = logging.getLogger(__name__)

NO_LEXICAL_MATCH = "No lexical match (BM25 found no query terms in the documents)"
STATEMENT_POOL = 4
"""How many times ``bm25_top_k`` the statement ranking searches before it keeps the chunks of statement tables."""


class HybridRetriever(BaseRetriever):
    """Hybrid retrieval over one workspace.

    Args:
        workspace: the workspace (registry snapshot, chunk rows).
        store: its vector store.
        embedder: the embedder the collection was built with.
        reranker: the cross-encoder stage (may be disabled, with its reason).
        settings: k's, weights, top-k's, the default mode and the fusion method.
        before_search: called at the start of every search (the service uses it to re-sync the dense side when
            another process changed the workspace).
        reader: reads a question against the workspace's documents (``(question, catalog) → Reading``: the
            question reader, :class:`prism.answering.reading.Reader`), for a search given no reading; without one
            such a search is not scoped and takes no statement or section ranking (:func:`plain_reading`).

    Raises:
        PrismError: ``settings.retrieval_mode`` or ``settings.fusion_method`` is not in the registry
            (:mod:`prism.retrieval.fusion`).

    The LlamaIndex entry point ``retrieve(query)`` returns ``NodeWithScore`` whose node id is the ``chunk_id``,
    whose score is the final stage's score, and whose metadata carries every stage's score and rank
    (``dense_score``, ``dense_rank``, ``bm25_score``, ``bm25_rank``, ``rrf_score``, ``rrf_rank``, ``rerank_score``,
    ``rerank_rank``; ``None`` where a stage did not see the chunk).
    """

    def __init__(
        self,
        workspace: Workspace,
        store: VectorIndex,
        embedder: PrismEmbedding,
        reranker: Reranker,
        settings: Settings,
        before_search: Callable[[], None] | None = None,
        reader: Callable[[str, DocumentCatalog], Reading] | None = None,
    ):
        super().__init__()
        retrieval_mode(settings.retrieval_mode)
        fusion_method(settings.fusion_method)
        self.before_search = before_search or (lambda: None)
        self.workspace = workspace
        self.store = store
        self.embedder = embedder
        self.reranker = reranker
        self.settings = settings
        self.sparse = SparseSide(workspace, settings)
        self.reader = reader

    def refresh(self) -> None:
        """Bring the BM25 index up to date now (e.g. right after an ingest, so the next query does not wait)."""
        self.sparse.index()

    def vectors(self, chunk_ids: Sequence[str]) -> dict[str, Any]:
        """The stored embeddings of chunks (``{chunk_id: array (dim,)}``; :meth:`prism.index.vector_store.VectorStore
        .vectors`), so answering scores chunks without embedding them again."""
        return self.store.vectors(chunk_ids)

    def idf(self, terms: Sequence[str]) -> tuple[dict[str, float], float]:
        """The BM25 IDF of index tokens (:func:`prism.index.tokenizer.tokenize`) in the workspace's current index,
        ``ln(1 + (N − n + 0.5) / (n + 0.5))`` (:class:`~prism.index.bm25.BM25Index`), and the largest possible value
        (n = 0), which a term in no chunk gets. ``({}, 0.0)`` for an empty index."""
        index = self.sparse.index()
        if not index.corpus_size:
            return {}, 0.0
        unseen = math.log1p((index.corpus_size + 0.5) / 0.5)
        return {t: float(index.idf.get(t, unseen)) for t in terms}, unseen

    # --- LlamaIndex interface -------------------------------------------------------------------------------
    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        result = self.search(query_bundle.query_str)
        last_side = retrieval_mode(result.mode).sides[0]  # a single-side mode's own score is its final one
        nodes = []
        for r in result.results:
            meta: dict[str, Any] = {"source": r.source, "doc_id": r.doc_id, "chunk_index": r.chunk_index}
            if r.page_start is not None:
                meta.update(page_start=r.page_start, page_end=r.page_end, locator=r.locator)
            scores = r.scores()
            meta.update({f"{k}_score" if not k.endswith("_rank") else k: v for k, v in scores.items()})
            final = next((scores[k] for k in ("rerank", "rrf") if scores[k] is not None), scores[last_side])
            nodes.append(NodeWithScore(node=TextNode(id_=r.chunk_id, text=r.text, metadata=meta), score=final))
        return nodes

    # --- search ---------------------------------------------------------------------------------------------
    def search(
        self, query: str, *, mode: str | None = None, top_k: int | None = None, sources: Sequence[str] | None = None,
        dense_queries: Sequence[str] | None = None, sparse_queries: Sequence[str] | None = None, rerank: bool = True,
        rerank_query: str | None = None, auto_scope: bool = True, scope_removed: Sequence[str] = (),
        reading: Reading | None = None,
    ) -> SearchResult:
        """Retrieve the best chunks for a query.

        Args:
            query: the analyst's (standalone) question.
            mode: a name in :data:`prism.retrieval.fusion.MODES` (default ``settings.retrieval_mode``).
            top_k, sources: chunks returned (default ``settings.top_k``); the document file names searched (all).
            dense_queries, sparse_queries: strings embedded for the dense side (e.g. a HyDE text, phrasings) and
                searched on the BM25 side (default ``[query]``).
            rerank, rerank_query: use the cross-encoder when available; what it scores against (default ``query``).
            auto_scope: scope by the entities and periods ``query`` names (:mod:`prism.retrieval.scope`); ignored
                when ``sources`` is given (the explicit filter wins).
            scope_removed: entities and period labels ``query`` names that the analyst removed from the scope.
            reading: ``query`` as the question reader read it (:class:`~prism.types.reading.Reading`: entities,
                periods, statement kinds, sections, vector); a reading of another text is not used. ``None``: read
                by the retriever's ``reader``.

        Returns:
            :class:`SearchResult`, ``results`` best first with ``rank`` 1..n: per side the query strings are pooled by
            best rank; a fused mode's sides go through the configured method (weighted RRF) into the top
            ``fusion_top_k``, which the cross-encoder reorders to ``top_k``. A question naming a statement ("within
            the balance sheet") or a line item read from one ("revenue": :mod:`prism.index.statements`) gets a third
            ranking (:meth:`_statement`), one looking for a kind of section a section ranking. The preferred
            documents' chunks (a named period) first, pages ranked, other entities' exhibits last (:mod:`~.candidates`).
            ``scope``: what the search was restricted to. An empty workspace: a message.

        Raises:
            DocumentNotFoundError: a name in ``sources`` is not in the workspace.
            PrismError: ``mode`` is unknown, or ``top_k`` < 1.
        """
        t_start = time.perf_counter()
        self.before_search()
        spec = retrieval_mode(mode or self.settings.retrieval_mode)
        top_k = self.settings.top_k if top_k is None else top_k
        if top_k < 1:
            raise PrismError(f"top_k must be at least 1 (got {top_k}).")
        use_rerank, state = self._reranker_state(rerank)
        docs = self.workspace.snapshot()
        if not docs:
            return SearchResult(query, spec.name, state, [], f"Workspace '{self.workspace.name}' has no documents yet.")
        catalog = catalog_of(docs, self.workspace.name)
        if reading is None or reading.question != query:
            reading = self.reader(query, catalog) if self.reader is not None else plain_reading(query)
        run = SearchRun(reading=reading)
        scope = self._scope(docs, catalog, sources, reading, auto_scope, scope_removed, run)
        rankings = self._rankings(spec, scope, run, list(dense_queries or [query]), list(sparse_queries or [query]),
                                  set(reading.statement_kinds))
        depth = max(self.settings.fusion_top_k, top_k) if use_rerank else top_k
        results = self._candidates(spec, rankings, scope, run, docs, depth)
        if use_rerank and results:
            results = self._rerank(rerank_query or query, results, run)
        results = ranked(results[:top_k])
        run.timed("total", t_start)
        return SearchResult(query, spec.name, state, results, run.message, run.timings, scope.plan.scope,
                            scope.plan.decline)

    # --- stages ---------------------------------------------------------------------------------------------
    def _reranker_state(self, rerank: bool) -> tuple[bool, dict[str, Any]]:
        """Whether this search reranks, and the reranker state it reports (off "for this search" when asked)."""
        state = self.reranker.state.to_dict()
        if not rerank and self.reranker.enabled:
            state = {**state, "enabled": False, "reason": "switched off for this search"}
        return rerank and self.reranker.enabled, state

    def _scope(self, docs: Sequence[DocumentRecord], catalog: DocumentCatalog, sources: Sequence[str] | None,
               reading: Reading, auto: bool, removed: Sequence[str], run: SearchRun) -> ScopeState:
        """The documents this search may return and prefers (:func:`prism.retrieval.scope.plan_scope`).

        Raises:
            DocumentNotFoundError: a name in ``sources`` is not a committed document.
        """
        t = time.perf_counter()
        if sources:
            missing = sorted(set(sources) - catalog.sources)
            if missing:
                raise DocumentNotFoundError(f"Not in workspace '{self.workspace.name}': {', '.join(missing)}.")
        by_prefix = catalog.by_prefix
        plan = plan_scope(reading, docs, workspace=self.workspace.name, sources=sources, auto=auto,
                          removed=removed, docs_with_token=lambda token: {
                              by_prefix[p] for p in self.sparse.doc_prefixes_with(token) if p in by_prefix},
                          words_of=tokenize)
        run.timed("scope", t)
        return ScopeState(set(plan.allowed) if plan.allowed is not None else None, catalog.id_set, plan)

    def _rankings(self, spec: RetrievalMode, scope: ScopeState, run: SearchRun, dense_queries: list[str],
                  sparse_queries: list[str], statements: set[str] | None = None) -> dict[str, Ranking]:
        """One ranking per side the mode runs; an empty BM25 ranking leaves the search's message. A fused mode
        adds the statement ranking when the question names a statement or a line item (``statements``: their
        kinds) and ``statement_weight`` > 0, and the section ranking when it looks for a kind of section's text
        (:func:`prism.index.sections.question_sections`: BM25 over the chunks of those sections, weight
        ``section_weight``)."""
        rankings: dict[str, Ranking] = {}
        if "dense" in spec.sides:
            rankings["dense"] = self._dense(dense_queries, scope, run)
        if "bm25" in spec.sides:
            rankings["bm25"] = self._sparse(sparse_queries, scope, run)
            if not rankings["bm25"]:
                run.message = NO_LEXICAL_MATCH + ("; ranked by dense similarity only." if spec.fused else ".")
            if spec.fused and self.settings.statement_weight > 0 and statements:
                rankings["statement"] = self._statement(sparse_queries, scope, run, statements)
            sections = set(run.reading.sections)
            if spec.fused and self.settings.section_weight > 0 and sections:
                t = time.perf_counter()
                tokens = [f"section:{kind}" for kind in sorted(sections)]
                rankings["section"] = self._held(sparse_queries, scope, tokens, self.settings.bm25_top_k)
                run.timed("section", t)
        return rankings

    def _dense(self, queries: list[str], scope: ScopeState, run: SearchRun) -> Ranking:
        """The dense ranking: each query string embedded and searched (``dense_top_k`` deep, cosine), hits of
        uncommitted or out-of-scope documents dropped, the rankings pooled by best rank (``dense_score``)."""
        t = time.perf_counter()
        vectors = self._vectors(run.reading, queries)
        run.timed("embed", t)
        t = time.perf_counter()
        per_query = []
        in_scope = scope.doc_ids
        for vec in vectors:
            hits = self.store.query(vec, self.settings.dense_top_k, doc_ids=scope.allowed)
            hits = [h for h in hits if h.metadata.get("doc_id") in in_scope]
            for h in hits:
                run.texts[h.chunk_id] = (h.text, h.metadata)
            per_query.append([(h.chunk_id, h.dense_score) for h in hits])
        ranking = pool_best_rank(per_query)
        run.timed("dense", t)
        return ranking

    def _vectors(self, reading: Reading, queries: list[str]) -> list[Any]:
        """Each query string's embedding: the reading's own vector for its question, the others embedded."""
        others = [q for q in queries if q != reading.question or reading.vector is None]
        embedded = iter(self.embedder.embed(others, threads=self.settings.query_threads)) if others else iter(())
        return [reading.vector if q == reading.question and reading.vector is not None else next(embedded)
                for q in queries]

    def _sparse(self, queries: list[str], scope: ScopeState, run: SearchRun) -> Ranking:
        """The BM25 ranking: each query string searched (``bm25_top_k`` deep) in the workspace's current index,
        restricted to the scope's chunks, the rankings pooled by best rank (``bm25_score``)."""
        t = time.perf_counter()
        index = self.sparse.index()
        allowed_chunks = self.sparse.chunk_ids_of(scope.allowed)
        ranking = pool_best_rank([index.search(q, self.settings.bm25_top_k, allowed_chunks) for q in queries])
        run.timed("bm25", t)
        return ranking

    def _statement(self, queries: list[str], scope: ScopeState, run: SearchRun, kinds: set[str]) -> Ranking:
        """The statement ranking: BM25 over the chunks of the tables titled as one of the statements the question
        names or reads its line item from (``kinds``: "within the balance sheet" → the rows of
        "CONSOLIDATED STATEMENTS OF FINANCIAL POSITION"), each query string ``bm25_top_k`` deep, pooled by best rank.

        Such a chunk holds the statement's index token (its table header names the statement), so the search runs
        over the chunks holding the token, :data:`STATEMENT_POOL` × ``bm25_top_k`` deep, and keeps those whose
        ``table_title`` names the statement (prose that mentions "the balance sheet" is not the statement)."""
        t = time.perf_counter()
        tokens = [f"statement:{kind}" for kind in sorted(kinds)]
        depth = self.settings.bm25_top_k
        pooled = self._held(queries, scope, tokens, depth * STATEMENT_POOL)
        missing = list({c for c, _ in pooled} - run.texts.keys())
        run.texts.update(self.store.get(missing))
        ranking = [(c, s) for c, s in pooled
                   if c in run.texts and kinds & statement_kinds(str(run.texts[c][1].get("table_title") or ""))]
        run.timed("statement", t)
        return ranking[:depth]

    def _held(self, queries: list[str], scope: ScopeState, tokens: list[str], depth: int) -> Ranking:
        """BM25 over the in-scope chunks that hold one of the index ``tokens`` (``statement:balance``,
        ``section:mdna``), each query string ``depth`` deep, pooled by best rank; ``[]`` when no chunk holds one."""
        index = self.sparse.index()
        held = {index.chunk_ids[i] for i in (index.get_scores(tokens) > 0).nonzero()[0]}
        allowed = self.sparse.chunk_ids_of(scope.allowed)
        if allowed is not None:
            held &= allowed
        return pool_best_rank([index.search(q, depth, held) for q in queries]) if held else []

    def _fuse(self, spec: RetrievalMode, rankings: dict[str, Ranking], run: SearchRun) -> list[tuple[str, float]]:
        """The mode's one ranking (:func:`prism.retrieval.fusion.combine`)."""
        t = time.perf_counter()
        fused = combine(spec, rankings, self.settings)
        run.timed("fuse", t)
        return fused

    def _candidates(self, spec: RetrievalMode, rankings: dict[str, Ranking], scope: ScopeState, run: SearchRun,
                    docs: Sequence[DocumentRecord], depth: int) -> list[RetrievedChunk]:
        """The mode's fused ranking, the preferred documents' chunks first, arranged (pages ranked over the scope's
        pages, other entities' exhibits last: :func:`prism.retrieval.candidates.arrange`), cut to ``depth`` and
        hydrated (:func:`prism.retrieval.candidates.hydrate`)."""
        pages = sum(d.pages or 0 for d in docs if d.doc_id in scope.doc_ids)
        fused = prefer(self._fuse(spec, rankings, run), scope.plan.preferred)
        return hydrate(spec, arrange(fused, run, self.store, self.settings, pages)[:depth], rankings, run, self.store)

    def _rerank(self, query: str, results: list[RetrievedChunk], run: SearchRun) -> list[RetrievedChunk]:
        """``results`` re-ordered by the cross-encoder's score against ``query`` (stable: ties keep the fused
        order), with ``rerank_score`` and ``rerank_rank`` set."""
        t = time.perf_counter()
        scores = self.reranker.score(query, [r.text for r in results])
        for r, sc in zip(results, scores, strict=True):
            r.rerank_score = float(sc)
        results = sorted(results, key=lambda r: -(r.rerank_score or 0.0))
        for i, r in enumerate(results, start=1):
            r.rerank_rank = i
        run.timed("rerank", t)
        return results


def plain_reading(question: str) -> Reading:
    """A reading that only tokenizes ``question`` (no entities, periods or kinds): what a retriever without a
    reader searches with."""
    return Reading(question=question, text=question, tokens=frozenset(tokenize(question)))
