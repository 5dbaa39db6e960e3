"""The locally trained cross-encoder (issue 30): training cost, query cost and SciFact quality with and without it.

Usage::

    PRISM_HOME=/tmp/ph-sci python bench/reranker.py MODEL [MODEL ...] [--limit N] [--depth 10 --depth 20]
        [--threads 1]

MODEL is a folder made by ``python -m prism reranker train`` (its ``training.json`` gives the training cost).
Quality: SciFact train queries through ``bench/retrieval.py``'s own SciFact path (hybrid end to end, documents
ranked by their best chunk), then the first ``depth`` chunks re-ordered by the cross-encoder, as
``HybridRetriever`` does with ``fusion_top_k = depth``. Query cost: the cross-encoder scoring those chunks, per
query (ms), on ``--threads`` torch threads, at the model's own window and at 256 word pieces. Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from retrieval import METRICS, SHARED, bench_scifact, table  # noqa: E402

from prism.config import Settings, get_settings  # noqa: E402
from prism.evaluation.metrics import percentiles  # noqa: E402
from prism.retrieval.rerank import Reranker  # noqa: E402
from prism.service import PrismService  # noqa: E402


def training_rows(models: list[str]) -> list[dict]:
    """One row per model from its ``training.json``."""
    rows = []
    for model in models:
        m = json.loads((Path(model) / "training.json").read_text(encoding="utf-8"))
        rows.append({"model": Path(model).name, "pairs": m["pairs"],
                     "by kind": ", ".join(f"{k} {v}" for k, v in sorted(m["counts"].items())),
                     "steps": m["steps"], "max_length": m["recipe"]["max_length"], "threads": m["threads"],
                     "seconds": m["seconds"], "final BCE": m["final_loss"]})
    return rows


def scoring_cost(model: str, texts: list[list[str]], queries: list[str], lengths: tuple[int, ...]) -> list[dict]:
    """Per-query p50 / p95 (ms) of scoring each query's chunks, at each window length."""
    reranker = Reranker.from_settings(Settings(reranker_model=model))
    own = reranker._model.max_seq_length
    rows = []
    for length in (own, *[n for n in lengths if n != own]):
        reranker._model.max_seq_length = length
        times = []
        for q, chunk_texts in zip(queries, texts, strict=True):
            t = time.perf_counter()
            reranker.score(q, chunk_texts)
            times.append((time.perf_counter() - t) * 1000)
        p = percentiles(times)
        rows.append({"model": Path(model).name, "max_length": length, "chunks": len(texts[0]),
                     "p50 ms": p["p50"], "p95 ms": p["p95"]})
    reranker._model.max_seq_length = own
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("models", nargs="+")
    ap.add_argument("--scifact", type=Path, default=SHARED / "scifact")
    ap.add_argument("--limit", type=int, default=None, help="SciFact queries (default: all 809 judged train queries)")
    ap.add_argument("--depth", type=int, action="append", default=None, help="chunks reranked (default 10)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads while scoring (default 1)")
    ap.add_argument("--cost-queries", type=int, default=100, help="queries timed for the scoring cost")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    print("\n## Training cost\n")
    cols = ["model", "pairs", "by kind", "steps", "max_length", "threads", "seconds", "final BCE"]
    print(table(training_rows(args.models), cols), flush=True)
    svc = PrismService(get_settings())
    torch.set_num_threads(args.threads)  # the embedder may have set its own
    sci = bench_scifact(svc, args.scifact, args.limit, False, 0, args.models, tuple(args.depth or [10]))
    print("\n### Latency per query (ms; rerank rows: the cross-encoder alone)\n")
    lat = [{"stage": k, "p50": v.get("p50", 0.0), "p95": v.get("p95", 0.0)} for k, v in sci["latency"].items()]
    print(table(lat, ["stage", "p50", "p95"]), flush=True)
    retriever = svc.retriever("beir-scifact")
    queries = svc_queries(args.scifact)[: args.cost_queries]
    texts = [[r.text for r in retriever.search(q, mode="hybrid", top_k=10, rerank=False).results] for q in queries]
    print(f"\n## Query cost: scoring the top 10 chunks, {len(queries)} SciFact queries, {args.threads} thread(s)\n")
    rows = [r for m in args.models for r in scoring_cost(m, texts, queries, (128, 256))]
    print(table(rows, ["model", "max_length", "chunks", "p50 ms", "p95 ms"]), flush=True)
    print(f"\nmetrics {', '.join(METRICS)}; torch threads {torch.get_num_threads()}")


def svc_queries(directory: Path) -> list[str]:
    """SciFact query texts (for timing only), in id order."""
    rows = [json.loads(line) for line in (directory / "queries.jsonl").read_text().splitlines() if line.strip()]
    return [r["text"] for r in sorted(rows, key=lambda r: (len(str(r["_id"])), str(r["_id"])))]


if __name__ == "__main__":
    main()
