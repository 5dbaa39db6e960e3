"""BEIR specifics: ingest a corpus once per workspace (one document per ``_id``), and rank documents by their best
chunk. :func:`evaluate_beir` is a thin wrapper over :mod:`prism.evaluation.runner` that writes no run file (the CLI's
``eval beir`` is an alias of ``eval run --format beir``, which does)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from prism.config import Settings
from prism.evaluation.datasets import BeirDataset, beir_to_eval
from prism.fsutil import atomic_write_json
from prism.retrieval.retriever import HybridRetriever

logger = logging.getLogger(__name__)

DOCS_TO_RANK = 100
"""Documents ranked per query (enough for recall@100 and map@100)."""

CHUNKS_PER_SIDE = 300
"""Chunks taken per side so that about DOCS_TO_RANK distinct documents survive (documents have ~1–6 chunks)."""

MARKER = "beir_corpus.json"
"""File in the workspace folder recording which corpus (by ``content_hash``) it holds."""


@dataclass
class BeirReport:
    """One evaluation: metric means, per-query values, latency percentiles (ms) and what was evaluated."""

    dataset: str
    mode: str
    queries: int
    metrics: dict[str, float]
    latency_ms: dict[str, float]
    config: dict[str, Any]
    per_query: dict[str, dict[str, float]] = field(default_factory=dict)
    run: dict[str, dict[str, float]] = field(default_factory=dict)

    def to_dict(self, with_queries: bool = False) -> dict[str, Any]:
        out = {"dataset": self.dataset, "mode": self.mode, "queries": self.queries, "metrics": self.metrics,
               "latency_ms": self.latency_ms, "config": self.config}
        if with_queries:
            out["per_query"] = self.per_query
        return out


def ensure_corpus(service: Any, dataset: BeirDataset, workspace: str, progress: Callable | None = None) -> None:
    """Ingest the corpus into ``workspace`` unless its :data:`MARKER` names this corpus's ``content_hash`` (sha256
    of ``corpus.jsonl``); the marker is written once the whole corpus is in."""
    handle = service.open(workspace, create=True)
    marker = handle.workspace.dir / MARKER
    if marker.exists() and f'"{dataset.content_hash}"' in marker.read_text(encoding="utf-8"):
        logger.info("workspace %s already holds corpus %s", workspace, dataset.name)
        return
    t0 = time.perf_counter()
    results = handle.ingestor.ingest_texts(list(dataset.corpus.items()), progress)
    failed = [r for r in results if r.status == "failed"]
    if failed:
        logger.warning("%d corpus documents failed to ingest (e.g. %s: %s)", len(failed), failed[0].file,
                       failed[0].error)
    handle.retriever.refresh()
    atomic_write_json(marker, {"dataset": dataset.name, "content_hash": dataset.content_hash,
                               "documents": len(dataset.corpus), "seconds": round(time.perf_counter() - t0, 1)})


def eval_retriever(service: Any, workspace: str) -> HybridRetriever:
    """A retriever over the workspace whose side depths rank at least :data:`DOCS_TO_RANK` documents."""
    handle = service.open(workspace)
    settings: Settings = service.settings.model_copy(
        update={"dense_top_k": CHUNKS_PER_SIDE, "bm25_top_k": CHUNKS_PER_SIDE}
    )
    return HybridRetriever(handle.workspace, handle.store, handle.retriever.embedder, service.reranker, settings)


def rank_documents(retriever: HybridRetriever, query: str, mode: str, rerank: bool) -> tuple[dict[str, float], float]:
    """Documents ranked by their best chunk: ``({doc source id: 1 / best rank}, latency ms)``."""
    t0 = time.perf_counter()
    result = retriever.search(query, mode=mode, top_k=2 * CHUNKS_PER_SIDE, rerank=rerank)
    latency = (time.perf_counter() - t0) * 1000
    docs: dict[str, float] = {}
    for r in result.results:
        if r.source not in docs:
            docs[r.source] = 1.0 / (len(docs) + 1)
            if len(docs) >= DOCS_TO_RANK:
                break
    return docs, latency


def evaluate_beir(
    service: Any,
    dataset: BeirDataset,
    workspace: str,
    mode: str = "hybrid",
    limit: int | None = None,
    rerank: bool = True,
    progress: Callable[[float, str], None] | None = None,
) -> BeirReport:
    """Evaluate retrieval on a BEIR dataset (ingesting the corpus first when needed); writes no run file.

    Returns:
        A :class:`BeirReport` with :data:`prism.evaluation.metrics.DOCUMENT_METRICS` (a superset of ``hit@10,
        mrr@10, map@100, ndcg@10, p@5, recall@100``) and the total retrieval latency p50/p95/p99.
    """
    from prism.evaluation.runner import Variant, evaluate_variant, variant_name

    ensure_corpus(service, dataset, workspace, progress)
    use_rerank = rerank and service.reranker.enabled
    variant = Variant(variant_name(mode, use_rerank, False, False), mode, rerank=use_rerank)
    measured = evaluate_variant(service, beir_to_eval(dataset), workspace, variant, limit=limit, answers=False,
                                progress=progress)
    s = service.settings
    config = {"rrf_k": s.rrf_k, "dense_weight": s.dense_weight, "bm25_weight": s.bm25_weight,
              "chunk_size": s.chunk_size, "chunk_overlap": s.chunk_overlap, "embed_model": s.embed_model_name,
              "reranker": service.reranker.state.to_dict() if rerank else {"enabled": False, "reason": "off"}}
    total = measured["latency_ms"]["retrieval"].get("total", {})
    per_query = {r["id"]: r["metrics"] for r in measured["queries"]}
    return BeirReport(dataset.name, mode, measured["counts"]["queries"], measured["metrics"],
                      {k: v for k, v in total.items() if k != "n"}, config, per_query)
