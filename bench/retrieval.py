"""Retrieval quality and latency: Prism's dense / BM25 / hybrid (RRF weight sweep) against stock LlamaIndex.

Usage::

    python bench/retrieval.py [--scifact DIR] [--limit N] [--financebench DIR] [--skip-stock]
                              [--rerank MODEL [--rerank-depth N]]

SciFact (BEIR, train queries): documents ranked by their best chunk, NDCG@10 etc. with ranx. FinanceBench dev:
a chunk is relevant when it comes from the evidence document and its page span holds the evidence page
(FinanceBench pages are 0-based; Prism's are 1-based). Dense and BM25 rankings are computed once per query; each
fusion weight setting is then fused with Prism's own ``weighted_rrf`` on those lists (exactly what
``HybridRetriever`` does), and the shipped setting is also run end to end through ``HybridRetriever``.

Stock LlamaIndex, on the same chunks and embeddings: ``VectorStoreIndex`` dense retrieval and
``QueryFusionRetriever`` (reciprocal_rerank mode) over that dense retriever + ``BM25Retriever``
(llama-index-retrievers-bm25). Prints Markdown tables. Runs where ``PRISM_HOME`` points (workspaces are reused).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from prism.config import get_settings  # noqa: E402
from prism.evaluation.beir import CHUNKS_PER_SIDE, DOCS_TO_RANK, ensure_corpus, eval_retriever, load_beir  # noqa: E402
from prism.evaluation.metrics import evaluate_run, percentiles  # noqa: E402
from prism.retrieval.fusion import weighted_rrf  # noqa: E402
from prism.service import PrismService  # noqa: E402
from prism.types import IngestItem  # noqa: E402

SHARED = REPO.parent / "shared" / "data"
WEIGHTS = [(1.0, 0.0), (0.8, 0.2), (0.75, 0.25), (0.7, 0.3), (0.65, 0.35), (0.6, 0.4), (0.5, 0.5), (0.4, 0.6),
           (0.3, 0.7), (0.0, 1.0)]
METRICS = ("ndcg@10", "mrr@10", "hit@10", "recall@100")


def _docs_from_chunks(ranked_chunk_ids: list[str], chunk_to_doc: dict[str, str]) -> dict[str, float]:
    docs: dict[str, float] = {}
    for cid in ranked_chunk_ids:
        d = chunk_to_doc.get(cid)
        if d is not None and d not in docs:
            docs[d] = 1.0 / (len(docs) + 1)
            if len(docs) >= DOCS_TO_RANK:
                break
    return docs


def side_rankings(retriever, queries: dict[str, str]) -> tuple[dict, dict, dict, dict]:
    """Dense and BM25 chunk rankings per query, with per-query latency (ms)."""
    dense, sparse, t_dense, t_sparse = {}, {}, {}, {}
    for qid, q in queries.items():
        t = time.perf_counter()
        res = retriever.search(q, mode="dense", top_k=CHUNKS_PER_SIDE, rerank=False)
        t_dense[qid] = (time.perf_counter() - t) * 1000
        dense[qid] = [r.chunk_id for r in res.results]
        t = time.perf_counter()
        res = retriever.search(q, mode="bm25", top_k=CHUNKS_PER_SIDE, rerank=False)
        t_sparse[qid] = (time.perf_counter() - t) * 1000
        sparse[qid] = [r.chunk_id for r in res.results]
    return dense, sparse, t_dense, t_sparse


def fuse(dense: dict, sparse: dict, wd: float, ws: float, k: int) -> dict[str, list[str]]:
    if ws == 0:
        return dense
    if wd == 0:
        return sparse
    return {
        q: [c for c, _ in weighted_rrf({"dense": dense[q], "bm25": sparse[q]}, {"dense": wd, "bm25": ws}, k=k)]
        for q in dense
    }


def stock_llamaindex(handle, embedder, queries: dict[str, str], top_k: int) -> tuple[dict, dict, dict, dict]:
    """Stock LlamaIndex dense (VectorStoreIndex) and QueryFusionRetriever(dense + BM25Retriever, reciprocal_rerank)
    over the workspace's chunk texts, embedded by LlamaIndex with the same model (no title headers)."""
    from llama_index.core import VectorStoreIndex
    from llama_index.core.llms import MockLLM
    from llama_index.core.retrievers import QueryFusionRetriever
    from llama_index.core.schema import TextNode
    from llama_index.retrievers.bm25 import BM25Retriever

    # the same chunks, embedded by stock LlamaIndex from their text (Prism's stored vectors carry title headers)
    got = handle.store._col.get(include=["documents"])
    nodes = [TextNode(id_=cid, text=text) for cid, text in zip(got["ids"], got["documents"], strict=True)]
    index = VectorStoreIndex(nodes, embed_model=embedder)
    vector = index.as_retriever(similarity_top_k=top_k)
    bm25 = BM25Retriever.from_defaults(nodes=[TextNode(id_=n.id_, text=n.text) for n in nodes],
                                       similarity_top_k=top_k)
    fusion = QueryFusionRetriever([vector, bm25], llm=MockLLM(), mode="reciprocal_rerank",
                                  similarity_top_k=top_k, num_queries=1, use_async=False)
    dense, fused, t_dense, t_fused = {}, {}, {}, {}
    for qid, q in queries.items():
        t = time.perf_counter()
        dense[qid] = [n.node.node_id for n in vector.retrieve(q)]
        t_dense[qid] = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        fused[qid] = [n.node.node_id for n in fusion.retrieve(q)]
        t_fused[qid] = (time.perf_counter() - t) * 1000
    return dense, fused, t_dense, t_fused


def table(rows: list[dict], cols: list[str]) -> str:
    out = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for r in rows:
        out.append("| " + " | ".join(f"{r[c]:.4f}" if isinstance(r[c], float) else str(r[c]) for c in cols) + " |")
    return "\n".join(out)


def rerank_run(model: str, queries: dict[str, str], hybrid: dict[str, list[tuple[str, str]]], depth: int,
               chunk_to_doc: dict[str, str]) -> tuple[dict, list[float]]:
    """The hybrid chunk lists with their first ``depth`` chunks re-ordered by the cross-encoder at ``model`` (what
    ``HybridRetriever`` does with ``fusion_top_k = depth``; ties keep the fused order), ranked into documents, and the
    per-query rerank latency (ms)."""
    from prism.config import Settings
    from prism.retrieval.rerank import Reranker

    reranker = Reranker.from_settings(Settings(reranker_model=model))
    if not reranker.enabled:
        raise SystemExit(f"reranker {model} did not load: {reranker.state.reason}")
    run, times = {}, []
    for q, ranked in hybrid.items():
        head, tail = ranked[:depth], ranked[depth:]
        t = time.perf_counter()
        scores = reranker.score(queries[q], [text for _, text in head])
        times.append((time.perf_counter() - t) * 1000)
        order = sorted(range(len(head)), key=lambda i: -float(scores[i]))
        run[q] = _docs_from_chunks([head[i][0] for i in order] + [c for c, _ in tail], chunk_to_doc)
    return run, times


def bench_scifact(svc: PrismService, directory: Path, limit: int | None, stock: bool, stock_limit: int,
                  rerank: tuple[str, ...] | list[str] = (), rerank_depths: tuple[int, ...] = (10,)) -> dict:
    ds = load_beir(directory)
    ensure_corpus(svc, ds, "beir-scifact", lambda f, m: None)
    handle = svc.open("beir-scifact")
    retriever = eval_retriever(svc, "beir-scifact")
    qids = sorted(ds.queries, key=lambda q: (len(q), q))[: limit or None]
    queries = {q: ds.queries[q] for q in qids}
    qrels = {q: ds.qrels[q] for q in qids}
    rows_meta = [(row["chunk_id"], d.source) for d in handle.workspace.documents()
                 for row in handle.workspace.read_chunks(d.doc_id)]
    chunk_to_doc = dict(rows_meta)
    dense, sparse, t_dense, t_sparse = side_rankings(retriever, queries)
    k = svc.settings.rrf_k
    rows = []
    for wd, ws in WEIGHTS:
        ranked = fuse(dense, sparse, wd, ws, k)
        run = {q: _docs_from_chunks(ranked[q], chunk_to_doc) for q in qids}
        means, _ = evaluate_run(qrels, run, METRICS)
        name = "dense" if ws == 0 else "bm25" if wd == 0 else f"hybrid {wd:g}/{ws:g}"
        rows.append({"system": f"Prism {name}", **means})
    # the shipped defaults, end to end through HybridRetriever
    s = svc.settings
    t_h = []
    run = {}
    hybrid = {}
    for q in qids:
        t = time.perf_counter()
        res = retriever.search(queries[q], mode="hybrid", top_k=2 * CHUNKS_PER_SIDE, rerank=False)
        t_h.append((time.perf_counter() - t) * 1000)
        hybrid[q] = [(r.chunk_id, r.text) for r in res.results]
        run[q] = _docs_from_chunks([r.chunk_id for r in res.results], chunk_to_doc)
    means, _ = evaluate_run(qrels, run, METRICS)
    rows.append({"system": f"Prism HybridRetriever (shipped {s.dense_weight}/{s.bm25_weight})", **means})
    lat = {}
    for model in rerank:
        for depth in rerank_depths:
            run, t_r = rerank_run(model, queries, hybrid, depth, chunk_to_doc)
            means, _ = evaluate_run(qrels, run, METRICS)
            rows.append({"system": f"Prism hybrid + rerank top {depth} ({Path(model).name})", **means})
            lat[f"rerank top {depth} ({Path(model).name})"] = percentiles(t_r)
    lat = {"Prism dense": percentiles(list(t_dense.values())), "Prism bm25": percentiles(list(t_sparse.values())),
           "Prism hybrid (end to end)": percentiles(t_h), **lat}
    print(f"\n## SciFact train ({len(qids)} queries; documents ranked by best chunk)\n", flush=True)
    print(table(rows, ["system", *METRICS]), flush=True)
    if stock:
        # stock LlamaIndex's in-memory vector store scores every chunk in Python (~0.35 s per query here);
        # `stock_limit` can shorten the run; Prism is re-scored on exactly the same queries
        sub = qids[: stock_limit or None]
        sub_q = {q: queries[q] for q in sub}
        sub_rel = {q: qrels[q] for q in sub}
        rows = []
        for name, ranked in (("Prism dense", dense), ("Prism bm25", sparse),
                             (f"Prism hybrid {s.dense_weight}/{s.bm25_weight}",
                              fuse(dense, sparse, s.dense_weight, s.bm25_weight, k))):
            run = {q: _docs_from_chunks(ranked[q], chunk_to_doc) for q in sub}
            means, _ = evaluate_run(sub_rel, run, METRICS)
            rows.append({"system": name, **means})
        sd, sf, tsd, tsf = stock_llamaindex(handle, svc.embedder, sub_q, CHUNKS_PER_SIDE)
        for name, ranked in (("stock LlamaIndex VectorStoreIndex", sd), ("stock LlamaIndex QueryFusionRetriever", sf)):
            run = {q: _docs_from_chunks(ranked[q], chunk_to_doc) for q in sub}
            means, _ = evaluate_run(sub_rel, run, METRICS)
            rows.append({"system": name, **means})
        print(f"\n## SciFact train, first {len(sub)} queries: Prism vs stock LlamaIndex\n", flush=True)
        print(table(rows, ["system", *METRICS]), flush=True)
        lat["stock VectorStoreIndex"] = percentiles(list(tsd.values()))
        lat["stock QueryFusionRetriever"] = percentiles(list(tsf.values()))
    return {"queries": len(qids), "rows": rows, "latency": lat}


def bench_financebench(svc: PrismService, directory: Path, stock: bool) -> dict:
    questions = [json.loads(line) for line in (directory / "questions.jsonl").read_text().splitlines() if line]
    pdfs = sorted((directory / "pdfs").glob("*.pdf"))
    svc.ingest([IngestItem(p) for p in pdfs], "bench-financebench")
    handle = svc.open("bench-financebench")
    retriever = eval_retriever(svc, "bench-financebench")
    meta = {}
    for d in handle.workspace.documents():
        for row in handle.workspace.read_chunks(d.doc_id):
            meta[row["chunk_id"]] = (d.source, row.get("page_start"), row.get("page_end"))
    queries, qrels = {}, {}
    for q in questions:
        rel = {}
        for ev in q["evidence"]:
            src = f"{ev['doc_name']}.pdf"
            page = int(ev["evidence_page_num"] if "evidence_page_num" in ev else ev["page"]) + 1
            for cid, (s, p0, p1) in meta.items():
                if s == src and p0 is not None and p0 <= page <= p1:
                    rel[cid] = 1
        if rel:
            queries[q["id"] if "id" in q else q["financebench_id"]] = q["question"]
            qrels[list(queries)[-1]] = rel
    dense, sparse, t_dense, t_sparse = side_rankings(retriever, queries)
    rows = []
    for wd, ws in WEIGHTS:
        ranked = fuse(dense, sparse, wd, ws, svc.settings.rrf_k)
        run = {q: {c: 1.0 / (i + 1) for i, c in enumerate(ranked[q][:100])} for q in queries}
        means, _ = evaluate_run(qrels, run, METRICS)
        name = "dense" if ws == 0 else "bm25" if wd == 0 else f"hybrid {wd:g}/{ws:g}"
        rows.append({"system": f"Prism {name}", **means})
    if stock:
        sd, sf, _, _ = stock_llamaindex(handle, svc.embedder, queries, 100)
        for name, ranked in (("stock LlamaIndex VectorStoreIndex", sd), ("stock LlamaIndex QueryFusionRetriever", sf)):
            run = {q: {c: 1.0 / (i + 1) for i, c in enumerate(ranked[q][:100])} for q in queries}
            means, _ = evaluate_run(qrels, run, METRICS)
            rows.append({"system": name, **means})
    return {"queries": len(queries), "rows": rows}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scifact", type=Path, default=SHARED / "scifact")
    ap.add_argument("--financebench", type=Path, default=SHARED / "financebench-dev")
    ap.add_argument("--limit", type=int, default=None, help="SciFact queries (default: all judged train queries)")
    ap.add_argument("--skip-stock", action="store_true")
    ap.add_argument("--stock-limit", type=int, default=0,
                    help="SciFact queries for the stock comparison (default 0: all; ~0.7 s a query)")
    ap.add_argument("--skip-financebench", action="store_true")
    ap.add_argument("--skip-scifact", action="store_true", help="FinanceBench only (e.g. after a PDF parsing change)")
    ap.add_argument("--rerank", action="append", default=[], metavar="MODEL",
                    help="SciFact: also rerank the hybrid list's head with this cross-encoder folder (repeatable)")
    ap.add_argument("--rerank-depth", type=int, action="append", default=None, metavar="N",
                    help="chunks the cross-encoder re-orders (repeatable; default 10, the shipped fusion_top_k)")
    args = ap.parse_args()
    svc = PrismService(get_settings())
    cols = ["system", *METRICS]
    if not args.skip_scifact:
        sci = bench_scifact(svc, args.scifact, args.limit, not args.skip_stock, args.stock_limit, args.rerank,
                            tuple(args.rerank_depth or [svc.settings.fusion_top_k]))
        print("\n### Retrieval latency per query (ms)\n")
        lat_rows = [{"system": k, "p50": v.get("p50", 0.0), "p95": v.get("p95", 0.0)}
                    for k, v in sci["latency"].items()]
        base = sci["latency"]["Prism hybrid (end to end)"].get("p50", 1.0)
        for r in lat_rows:
            r["p50 / Prism hybrid"] = r["p50"] / base if base else float("nan")
        print(table(lat_rows, ["system", "p50", "p95", "p50 / Prism hybrid"]), flush=True)
    if not args.skip_financebench:
        fb = bench_financebench(svc, args.financebench, not args.skip_stock)
        print(f"\n## FinanceBench dev ({fb['queries']} questions; chunk relevant = evidence doc and page)\n")
        print(table(fb["rows"], cols), flush=True)
    print(f"\nreranker: {svc.reranker.state.to_dict()}")
    print(f"numpy {np.__version__}; rrf_k {svc.settings.rrf_k}", flush=True)


if __name__ == "__main__":
    main()
