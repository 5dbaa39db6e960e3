"""Ingestion throughput: ingest the FinanceBench dev filings into a fresh workspace and print a table.

Usage::

    python bench/ingest.py [--pdfs DIR] [--limit N]

Reports pages/s and chunks/s end to end, the embedder's own chunks/s on the same chunks, the share of time per
stage (read, parse, chunk, embed, store) and the peak RSS of the process. Target: ≥ 40 chunks/s end to end on a
2-core machine (the embedder alone does ~45). Uses a temporary PRISM_HOME, so nothing is reused.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from prism.config import Settings  # noqa: E402
from prism.ingest import IngestItem  # noqa: E402
from prism.service import PrismService  # noqa: E402

DEFAULT_PDFS = REPO.parent / "shared" / "data" / "financebench-dev" / "pdfs"


def peak_rss_mib() -> float:
    """Peak resident set size of this process, MiB (Linux reports ru_maxrss in KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdfs", type=Path, default=DEFAULT_PDFS)
    ap.add_argument("--limit", type=int, default=None, help="only the first N PDFs (sorted by name)")
    args = ap.parse_args()
    pdfs = sorted(args.pdfs.glob("*.pdf"))[: args.limit or None]
    with tempfile.TemporaryDirectory(prefix="prism-bench-") as home:
        svc = PrismService(Settings(home=Path(home)))
        t0 = time.perf_counter()
        svc.embedder.embed(["warm up"])  # model load is not ingestion
        load_s = time.perf_counter() - t0
        handle = svc.open("bench", create=True)
        t0 = time.perf_counter()
        results = svc.ingest([IngestItem(p) for p in pdfs], "bench")
        total_s = time.perf_counter() - t0
        tm = handle.ingestor.timings
        failed = [r for r in results if r.status == "failed"]
        pages = sum(r.pages or 0 for r in results)
        chunks = sum(r.chunks for r in results)
        # the embedder alone on exactly the same chunk texts
        texts = [row["text"] for d in handle.workspace.documents() for row in handle.workspace.read_chunks(d.doc_id)]
        t0 = time.perf_counter()
        svc.embedder.embed(texts)
        embed_only_s = time.perf_counter() - t0

    stages = {"read": tm.read, "parse": tm.parse, "chunk+tokenize": tm.chunk, "embed": tm.embed, "store": tm.store}
    accounted = sum(stages.values())
    print(f"\n## Ingestion: {len(pdfs)} FinanceBench PDFs ({pages} pages, {chunks} chunks, {len(failed)} failed)\n")
    print("| measure | value |\n|---|---|")
    print(f"| end to end | {total_s:.1f} s |")
    print(f"| pages/s end to end | {pages / total_s:.1f} |")
    print(f"| chunks/s end to end | {chunks / total_s:.1f} |")
    print(f"| embedder alone, same chunks | {len(texts) / embed_only_s:.1f} chunks/s ({embed_only_s:.1f} s) |")
    print(f"| end to end / embedder alone | {(chunks / total_s) / (len(texts) / embed_only_s):.2f} |")
    print(f"| model load (not counted) | {load_s:.1f} s |")
    print(f"| peak RSS | {peak_rss_mib():.0f} MiB |")
    print("\n| stage | seconds | share |\n|---|---|---|")
    for name, sec in stages.items():
        print(f"| {name} | {sec:.1f} | {sec / total_s:.1%} |")
    other = total_s - accounted
    print(f"| other (registry, BM25 rebuild, progress) | {other:.1f} | {other / total_s:.1%} |")
    for r in failed:
        print(f"failed: {r.file}: {r.error}")


if __name__ == "__main__":
    main()
