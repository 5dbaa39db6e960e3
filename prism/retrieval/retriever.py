"""HybridRetriever: dense (Chroma) + sparse (BM25) → weighted RRF → cross-encoder rerank, behind LlamaIndex's
``BaseRetriever``, explaining every stage's score and rank.

One retriever per workspace is shared by all sessions (thread-safe). It reads a consistent snapshot of the
workspace on every query: documents are visible once committed in the registry, dense hits of documents still
being written are dropped, and the BM25 index is reloaded or rebuilt whenever the workspace's fingerprint changes.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from prism.config import RetrievalMode, Settings
from prism.errors import DocumentNotFoundError, PrismError
from prism.index.bm25 import TOKENIZER_VERSION, BM25Index, tokenize
from prism.index.embedder import PrismEmbedding
from prism.index.vector_store import VectorStore
from prism.index.workspaces import Workspace
from prism.retrieval.fusion import pool_best_rank, weighted_rrf
from prism.retrieval.rerank import Reranker
from prism.types import RetrievedChunk

logger = logging.getLogger(__name__)

MODES: tuple[str, ...] = ("hybrid", "dense", "bm25")


@dataclass
class SearchResult:
    """One search: the stable JSON is ``{"query", "mode", "reranker": {"enabled", "model", "reason"}, "results",
    "message"}`` plus ``timings_ms`` per stage."""

    query: str
    mode: str
    reranker: dict[str, Any]
    results: list[RetrievedChunk]
    message: str | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "mode": self.mode,
            "reranker": self.reranker,
            "results": [r.to_dict() for r in self.results],
            "message": self.message,
            "timings_ms": {k: round(v, 2) for k, v in self.timings_ms.items()},
        }


class SparseSide:
    """The workspace's BM25 index, persisted under ``<workspace>/bm25`` and kept in step with its fingerprint.

    Chunk rows carry their tokens (written at ingest), so a rebuild after a change never re-tokenises; opening an
    unchanged workspace loads the saved index. Rows whose tokens were made by another tokenizer version
    (:data:`~prism.index.bm25.TOKENIZER_VERSION`) are re-tokenised, and the version is part of the index's
    fingerprint, so an index saved before a tokenizer change is rebuilt.
    """

    def __init__(self, workspace: Workspace, settings: Settings):
        self.workspace = workspace
        self.settings = settings
        self._dir = workspace.dir / "bm25"
        self._index: BM25Index | None = None
        self._lock = threading.Lock()

    def fingerprint(self) -> str:
        """The state an up-to-date index reflects: the workspace's committed state and the tokenizer version."""
        return f"{self.workspace.fingerprint()}/tokenizer-{TOKENIZER_VERSION}"

    def index(self) -> BM25Index:
        """The index for the workspace's current committed state (load or rebuild when stale)."""
        fingerprint = self.fingerprint()
        current = self._index
        if current is not None and current.fingerprint == fingerprint:
            return current
        with self._lock:
            current = self._index
            if current is not None and current.fingerprint == fingerprint:
                return current
            loaded = BM25Index.load(
                self._dir, fingerprint=fingerprint, k1=self.settings.bm25_k1, b=self.settings.bm25_b
            )
            if loaded is not None:
                self._index = loaded
                return loaded
            self._index = self._build(fingerprint)
            return self._index

    def _build(self, fingerprint: str) -> BM25Index:
        t0 = time.perf_counter()
        ids: list[str] = []
        tokens: list[list[str]] = []
        for doc in self.workspace.documents():
            for row in self.workspace.read_chunks(doc.doc_id):
                ids.append(row["chunk_id"])
                toks = row.get("tokens") if row.get("tokenizer", 1) == TOKENIZER_VERSION else None
                tokens.append(toks if toks is not None else tokenize(row.get("index_text") or row["text"]))
        index = BM25Index(ids, tokens=tokens, fingerprint=fingerprint, k1=self.settings.bm25_k1, b=self.settings.bm25_b)
        try:
            index.save(self._dir)
        except OSError as exc:  # a read-only disk still gets an in-memory index
            logger.warning("could not save BM25 index for %s: %s", self.workspace.info.id, exc)
        logger.info("built BM25 index over %d chunks in %.2fs", len(ids), time.perf_counter() - t0)
        return index


class HybridRetriever(BaseRetriever):
    """Hybrid retrieval over one workspace.

    Args:
        workspace: the workspace (registry snapshot, chunk rows).
        store: its Chroma collection.
        embedder: the embedder the collection was built with.
        reranker: the cross-encoder stage (may be disabled, with its reason).
        settings: k's, weights, top-k's and the default mode.
        before_search: called at the start of every search (the service uses it to re-sync the dense side when
            another process changed the workspace).

    The LlamaIndex entry point ``retrieve(query)`` returns ``NodeWithScore`` whose node id is the ``chunk_id``,
    whose score is the final stage's score, and whose metadata carries every stage's score and rank
    (``dense_score``, ``dense_rank``, ``bm25_score``, ``bm25_rank``, ``rrf_score``, ``rrf_rank``, ``rerank_score``,
    ``rerank_rank``; ``None`` where a stage did not see the chunk).
    """

    def __init__(
        self,
        workspace: Workspace,
        store: VectorStore,
        embedder: PrismEmbedding,
        reranker: Reranker,
        settings: Settings,
        before_search: Callable[[], None] | None = None,
    ):
        super().__init__()
        self.before_search = before_search or (lambda: None)
        self.workspace = workspace
        self.store = store
        self.embedder = embedder
        self.reranker = reranker
        self.settings = settings
        self.sparse = SparseSide(workspace, settings)

    def refresh(self) -> None:
        """Bring the BM25 index up to date now (e.g. right after an ingest, so the next query does not wait)."""
        self.sparse.index()

    # --- LlamaIndex interface -------------------------------------------------------------------------------
    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        result = self.search(query_bundle.query_str)
        nodes = []
        for r in result.results:
            meta: dict[str, Any] = {"source": r.source, "doc_id": r.doc_id, "chunk_index": r.chunk_index}
            if r.page_start is not None:
                meta.update(page_start=r.page_start, page_end=r.page_end)
            meta.update({f"{k}_score" if not k.endswith("_rank") else k: v for k, v in r.scores().items()})
            final = r.rerank_score if r.rerank_score is not None else (
                r.rrf_score if r.rrf_score is not None else (r.dense_score if result.mode == "dense" else r.bm25_score)
            )
            nodes.append(NodeWithScore(node=TextNode(id_=r.chunk_id, text=r.text, metadata=meta), score=final))
        return nodes

    # --- search ---------------------------------------------------------------------------------------------
    def search(
        self,
        query: str,
        *,
        mode: RetrievalMode | None = None,
        top_k: int | None = None,
        sources: Sequence[str] | None = None,
        dense_queries: Sequence[str] | None = None,
        sparse_queries: Sequence[str] | None = None,
        rerank: bool = True,
        rerank_query: str | None = None,
    ) -> SearchResult:
        """Retrieve the best chunks for a query.

        Args:
            query: the analyst's (standalone) question.
            mode: ``hybrid`` (default from settings), ``dense`` or ``bm25``.
            top_k: chunks returned (default ``settings.top_k``).
            sources: restrict to these document file names (applied to both sides).
            dense_queries: strings embedded for the dense side (default ``[query]``; e.g. a HyDE text, phrasings).
            sparse_queries: strings searched on the BM25 side (default ``[query]``).
            rerank: use the cross-encoder when it is available.
            rerank_query: what the cross-encoder scores against (default ``query``).

        Returns:
            :class:`SearchResult`; ``results`` ordered best first with ``rank`` 1..n. Per side, several query strings
            are pooled keeping each chunk's best rank; the sides are fused with weighted RRF (``rrf_k``,
            ``dense_weight``, ``bm25_weight``) into the top ``fusion_top_k``, which the cross-encoder reorders to
            ``top_k``. An empty workspace gives no results and a message.

        Raises:
            DocumentNotFoundError: a name in ``sources`` is not in the workspace.
            PrismError: ``mode`` is unknown.
        """
        t_start = time.perf_counter()
        self.before_search()
        mode = mode or self.settings.retrieval_mode
        if mode not in MODES:
            raise PrismError(f"Unknown retrieval mode '{mode}'; use one of {', '.join(MODES)}.")
        top_k = self.settings.top_k if top_k is None else top_k
        if top_k < 1:
            raise PrismError(f"top_k must be at least 1 (got {top_k}).")
        state = self.reranker.state.to_dict()
        use_rerank = rerank and self.reranker.enabled
        if not rerank and self.reranker.enabled:
            state = {**state, "enabled": False, "reason": "switched off for this search"}
        timings: dict[str, float] = {}

        docs = self.workspace.documents()
        if not docs:
            return SearchResult(query, mode, state, [], f"Workspace '{self.workspace.name}' has no documents yet.")
        committed = {d.doc_id for d in docs}
        allowed: set[str] | None = None
        if sources:
            by_name = {d.source: d.doc_id for d in docs}
            missing = [s for s in sources if s not in by_name]
            if missing:
                raise DocumentNotFoundError(
                    f"Not in workspace '{self.workspace.name}': {', '.join(missing)}."
                )
            allowed = {by_name[s] for s in sources}
        docs_in_scope = allowed if allowed is not None else committed

        dense_ranking: list[tuple[str, float]] = []
        sparse_ranking: list[tuple[str, float]] = []
        texts: dict[str, tuple[str, dict[str, Any]]] = {}
        if mode in ("hybrid", "dense"):
            t = time.perf_counter()
            strings = list(dense_queries or [query])
            vectors = self.embedder.embed(strings, threads=self.settings.query_threads)
            timings["embed"] = (time.perf_counter() - t) * 1000
            t = time.perf_counter()
            per_query = []
            for vec in vectors:
                hits = self.store.query(vec, self.settings.dense_top_k, doc_ids=allowed)
                hits = [h for h in hits if h.metadata.get("doc_id") in docs_in_scope]
                for h in hits:
                    texts[h.chunk_id] = (h.text, h.metadata)
                per_query.append([(h.chunk_id, h.dense_score) for h in hits])
            dense_ranking = pool_best_rank(per_query)
            timings["dense"] = (time.perf_counter() - t) * 1000
        message = None
        if mode in ("hybrid", "bm25"):
            t = time.perf_counter()
            index = self.sparse.index()
            allowed_chunks = None
            if allowed is not None:
                prefixes = {d[:16] for d in allowed}
                allowed_chunks = {c for c in index.chunk_ids if c.split("-", 1)[0] in prefixes}
            per_query = [index.search(q, self.settings.bm25_top_k, allowed_chunks) for q in (sparse_queries or [query])]
            sparse_ranking = pool_best_rank(per_query)
            timings["bm25"] = (time.perf_counter() - t) * 1000
            if not sparse_ranking:
                message = "No lexical match (BM25 found no query terms in the documents)" + (
                    "; ranked by dense similarity only." if mode == "hybrid" else "."
                )

        t = time.perf_counter()
        dense_pos = {cid: (score, i) for i, (cid, score) in enumerate(dense_ranking, start=1)}
        sparse_pos = {cid: (score, i) for i, (cid, score) in enumerate(sparse_ranking, start=1)}
        if mode == "hybrid":
            fused = weighted_rrf(
                {"dense": [c for c, _ in dense_ranking], "bm25": [c for c, _ in sparse_ranking]},
                {"dense": self.settings.dense_weight, "bm25": self.settings.bm25_weight},
                k=self.settings.rrf_k,
            )
        else:
            fused = dense_ranking if mode == "dense" else sparse_ranking
        candidates = fused[: max(self.settings.fusion_top_k, top_k)] if use_rerank else fused[:top_k]
        timings["fuse"] = (time.perf_counter() - t) * 1000

        missing_text = [c for c, _ in candidates if c not in texts]
        if missing_text:
            texts.update(self.store.get(missing_text))
        results: list[RetrievedChunk] = []
        for pos, (cid, score) in enumerate(candidates, start=1):
            if cid not in texts:  # purged between the snapshot and now
                continue
            text, meta = texts[cid]
            d = dense_pos.get(cid)
            s = sparse_pos.get(cid)
            results.append(
                RetrievedChunk(
                    chunk_id=cid,
                    doc_id=str(meta.get("doc_id", "")),
                    source=str(meta.get("source", "")),
                    text=text,
                    chunk_index=int(meta.get("chunk_index", 0)),
                    page_start=meta.get("page_start"),
                    page_end=meta.get("page_end"),
                    dense_score=d[0] if d else None,
                    dense_rank=d[1] if d else None,
                    bm25_score=s[0] if s else None,
                    bm25_rank=s[1] if s else None,
                    rrf_score=score if mode == "hybrid" else None,
                    rrf_rank=pos if mode == "hybrid" else None,
                )
            )

        if use_rerank and results:
            t = time.perf_counter()
            scores = self.reranker.score(rerank_query or query, [r.text for r in results])
            for r, sc in zip(results, scores, strict=True):
                r.rerank_score = float(sc)
            results.sort(key=lambda r: -r.rerank_score)  # stable: ties keep fused order
            for i, r in enumerate(results, start=1):
                r.rerank_rank = i
            timings["rerank"] = (time.perf_counter() - t) * 1000
        results = results[:top_k]
        for i, r in enumerate(results, start=1):
            r.rank = i
        timings["total"] = (time.perf_counter() - t_start) * 1000
        return SearchResult(query, mode, state, results, message, timings)
