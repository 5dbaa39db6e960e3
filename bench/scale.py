"""Scale: a 50,000- to 500,000-chunk workspace — time to open it, hybrid retrieval p50/p95 (no LLM), peak RSS,
size on disk; embedded Chroma and a Chroma server.

Usage::

    python bench/scale.py [--chunks 50000] [--queries 200] [--home DIR] [--server]

Phase 1 (skipped when ``--home`` already holds the workspace) generates regulatory-style text with a seeded RNG and
bulk-ingests it through the real pipeline (chunking, tokenising, Chroma, registry, BM25) in groups until the
workspace holds ``--chunks``, except that the corpus vectors are random unit vectors from a stand-in embedder:
embedding 500,000 chunks with MiniLM would take well over an hour on 2 cores, and the embedder's speed is measured by
``bench/ingest.py`` instead. Phase 2 runs in a fresh process, like an app restart: it opens the workspace with the
real embedder (queries are embedded by the real model), times the opening (which loads the persisted BM25 index),
then ``--queries`` hybrid, dense and BM25 searches each. Targets: p50 ≤ 50 ms, open ≤ 3 s,
peak RSS ≤ 1.5 GB at 50k; at 500k (issue 17 §4) p50 ≤ 60 ms embedded and peak RSS ≤ 3 GB.

``--server`` measures the same workspace a second time through a real Chroma server: the bench starts
``chroma run --path HOME/chroma`` on a free loopback port (the server reads the very files the embedded run used)
and the measuring process connects with ``PRISM_CHROMA_HOST``; the server's peak RSS (``VmHWM``) is reported apart.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from servers import stop, wait_until_up

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

WORKSPACE = "scale-50k"
VOCAB = (
    "bank account payment settlement customer liability fraud limit transaction merchant remitter beneficiary "
    "dispute chargeback reversal mandate authentication wallet prepaid instrument interest rate advance loan "
    "provision asset classification capital adequacy exposure borrower guarantee collateral deposit branch "
    "compliance audit reporting circular direction paragraph annex schedule regulation supervisory inspection "
    "penalty monitoring threshold daily monthly quarterly annual crore lakh rupees percent working days"
).split()


class RandomEmbedder:
    """Stand-in embedder for corpus generation: random L2-normalised float32 vectors, same name and width as MiniLM."""

    def __init__(self, model_name: str, dimension: int = 384, seed: int = 7):
        self.model_name = model_name
        self.dimension = dimension
        self.max_tokens = 256
        self.backend = "torch"  # recorded on the collection: the measuring process opens it with the real embedder
        self.backend_reason = ""
        self._rng = np.random.default_rng(seed)

    def embed(self, texts: list[str]) -> np.ndarray:
        v = self._rng.standard_normal((len(texts), self.dimension)).astype(np.float32)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    def count_tokens(self, text: str) -> int:
        return len(text.split()) + 2  # generated text: whole words, ~1 word piece each


def sentence(rng: random.Random) -> str:
    words = rng.choices(VOCAB, k=rng.randint(8, 16))
    extra = rng.choice([
        f" ₹{rng.randint(1, 999)},{rng.randint(100, 999)}",
        f" {rng.randint(1, 20)}.{rng.randint(1, 9)}",
        f" RBI/2025-26/{rng.randint(1, 300)}",
        f" {rng.randint(1, 99)}%",
        "",
    ])
    return (" ".join(words) + extra).capitalize() + "."


def build(home: Path, n_chunks: int) -> None:
    """Generate documents of ~7 chunks and ingest them in groups until the workspace holds ``n_chunks`` (it ends
    within one group, ~5,000 chunks, above)."""
    from prism.config import Settings
    from prism.service import PrismService

    settings = Settings(home=home)
    svc = PrismService(settings, embedder=RandomEmbedder(settings.embed_model_name))  # type: ignore[arg-type]
    rng = random.Random(42)
    t0 = time.perf_counter()
    handle = svc.open(WORKSPACE, create=True)
    n_docs = 0
    while (have := handle.store.count()) < n_chunks:
        docs = []
        for _ in range(max(1, min(720, (n_chunks - have) // 6))):
            paras = ["\n".join(sentence(rng) for _ in range(4)) for _ in range(6)]
            docs.append((f"generated-{n_docs:06d}.txt", "\n\n".join(paras)))
            n_docs += 1
        handle.ingestor.ingest_texts(docs, group_chunks=5000)
        done = handle.store.count()
        print(f"{time.perf_counter() - t0:7.0f} s  {done:,} chunks, {n_docs:,} documents", file=sys.stderr, flush=True)
    print(f"{time.perf_counter() - t0:7.0f} s  committed; building the BM25 index", file=sys.stderr, flush=True)
    handle.retriever.refresh()
    print(f"built {handle.store.count()} chunks in {n_docs} documents in {time.perf_counter() - t0:.0f} s",
          file=sys.stderr)


def _peak_rss_mib() -> float:
    """This process's peak RSS (``VmHWM``). Not ``ru_maxrss``: after a vfork+exec (how ``subprocess`` starts the
    measuring child) Linux carries the parent's high-water mark into it, so a child of the 3 GB build process
    reported 7 GB."""
    try:
        status = Path("/proc/self/status").read_text()
        return int(next(x for x in status.splitlines() if x.startswith("VmHWM")).split()[1]) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(home: Path, n_queries: int, chroma_port: int | None = None) -> dict:
    from prism.config import Settings
    from prism.service import PrismService

    server = {"chroma_host": "127.0.0.1", "chroma_port": chroma_port} if chroma_port else {}
    svc = PrismService(Settings(home=home, **server))
    svc.embedder.embed(["warm up"])  # model load is process start-up, not workspace opening
    t0 = time.perf_counter()
    handle = svc.open(WORKSPACE)
    handle.retriever.refresh()  # loads the persisted BM25 index
    open_s = time.perf_counter() - t0
    rng = random.Random(3)
    queries = [" ".join(rng.choices(VOCAB, k=rng.randint(3, 8))) for _ in range(n_queries)]
    times = {"hybrid": [], "dense": [], "bm25": []}
    for mode in times:
        for q in queries:
            t = time.perf_counter()
            handle.retriever.search(q, mode=mode, rerank=False)
            times[mode].append((time.perf_counter() - t) * 1000)
    out = {"chunks": handle.store.count(), "open_s": open_s,
           "peak_rss_mib": _peak_rss_mib()}
    for mode, ts in times.items():
        out[f"{mode}_p50_ms"] = float(np.percentile(ts, 50))
        out[f"{mode}_p95_ms"] = float(np.percentile(ts, 95))
    return out


def _measure_in_child(home: Path, queries: int, port: int | None = None) -> dict:
    extra = ["--chroma-port", str(port)] if port else []
    proc = subprocess.run([sys.executable, __file__, "--measure-only", "--home", str(home), "--queries", str(queries),
                           *extra], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def measure_with_server(home: Path, queries: int) -> dict:
    """Start ``chroma run`` over ``home/chroma`` on a free loopback port, measure through it, stop it."""
    port = _free_port()
    chroma = Path(sys.executable).with_name("chroma")
    log = (home.parent / f"{home.name}-chroma-server.log").open("w")
    server = subprocess.Popen([str(chroma), "run", "--path", str(home / "chroma"), "--host", "127.0.0.1",
                               "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    try:
        # the server loads its segments before it answers
        wait_until_up(f"http://127.0.0.1:{port}/api/v2/heartbeat", server, 300, f"chroma run (see {log.name})", 0.5)
        m = _measure_in_child(home, queries, port)
        status = Path(f"/proc/{server.pid}/status").read_text()
        m["server_peak_rss_mib"] = int(next(x for x in status.splitlines() if x.startswith("VmHWM")).split()[1]) / 1024
        return m
    finally:
        stop(server)
        log.close()


def _size_mib(path: Path) -> float:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) / 1024 / 1024


def _table(m: dict, queries: int, label: str, target_p50: int) -> None:
    print(f"\n## Scale: {m['chunks']} chunks, {queries} queries per mode, {label} (fresh process; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())})\n")
    print("| measure | value | target |\n|---|---|---|")
    print(f"| open workspace (registry + Chroma + BM25 load) | {m['open_s']:.2f} s | ≤ 3 s |")
    for mode in ("hybrid", "dense", "bm25"):
        target = f"≤ {target_p50} ms" if mode == "hybrid" else ""
        print(f"| {mode} retrieval p50 / p95 | {m[f'{mode}_p50_ms']:.1f} / {m[f'{mode}_p95_ms']:.1f} ms | {target} |")
    print(f"| peak RSS (app process, model included) | {m['peak_rss_mib']:.0f} MiB | ≤ 3,072 MiB |")
    if "server_peak_rss_mib" in m:
        print(f"| peak RSS of the Chroma server | {m['server_peak_rss_mib']:.0f} MiB | |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chunks", type=int, default=50_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--home", type=Path, default=Path("/tmp/prism-scale-bench"))
    ap.add_argument("--server", action="store_true", help="also measure through a Chroma server (chroma run)")
    ap.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--chroma-port", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure_only:
        print(json.dumps(measure(args.home, args.queries, args.chroma_port)))
        return
    if not (args.home / "workspaces.json").exists():
        build(args.home, args.chunks)
    target = 60 if args.chunks > 100_000 else 50
    _table(_measure_in_child(args.home, args.queries), args.queries, "embedded Chroma", target)
    chroma_mib, total_mib = _size_mib(args.home / "chroma"), _size_mib(args.home)
    print(f"\nsize on disk: {total_mib:,.0f} MiB in all ({chroma_mib:,.0f} MiB Chroma, the rest chunk rows and BM25)")
    if args.server:
        _table(measure_with_server(args.home, args.queries), args.queries, "Chroma server (chroma run)", target)


if __name__ == "__main__":
    main()
