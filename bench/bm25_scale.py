"""BM25 at workspace scale: tokenise + build, save, load and query times over generated regulatory-style chunks.

Usage::

    python bench/bm25_scale.py [--chunks 50000] [--queries 200] [--seed 7]

Chunks are ~500 characters of text drawn with a seeded RNG from a Zipf-weighted regulatory vocabulary, with
section numbers, ₹ amounts, percentages and circular ids mixed in, so the tokenizer's identifier paths are
exercised. Prints one table; peak RSS is the process's high-water mark (``ru_maxrss``).
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from rank_bm25 import BM25Okapi

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from prism.index.bm25 import BM25Index
from prism.index.tokenizer import tokenize

WORDS = """bank banks banking advance advances loan loans borrower borrowers account accounts asset assets
classification provisioning provision income recognition interest rate rates capital adequacy ratio risk weight
exposure exposures credit debit deposit deposits reserve regulation regulatory directions direction circular
master compliance board policy approved guidelines instructions shall may must should report reporting return
returns fraud frauds monitoring supervision audit auditor statutory inspection period quarter quarterly annual
month months days overdue default restructuring restructured standard substandard doubtful loss npa npas
non-performing performing security securities collateral guarantee guarantees government scheme schemes agency
commission pension payment payments transaction transactions foreign exchange remittance remittances authorised
dealer dealers person persons limit limits amount amounts sanctioned sanction outstanding balance cash currency
rupee rupees value valuation market investment investments portfolio tier common equity additional buffer
conservation counter-cyclical leverage liquidity coverage funding stable net operational weightage branch branches
customer customers kyc know your identity verification grievance redressal ombudsman penalty penalties
imposed contravention provisions act section sub-section clause paragraph annex appendix schedule table chapter
applicability commencement definitions means includes including excluding subject terms conditions eligible
eligibility co-operative urban primary scheduled commercial regional rural small finance payments nbfc nbfcs
housing microfinance shg self-help group groups linkage programme priority sector lending agriculture msme
""".split()
IDS = ["RBI/2025-26/{}", "DOR.STR.REC.{}/21.04.048/2025-26", "DOR.CAP.REC.No.{}/09.18.201/2024-25"]


def make_chunks(n: int, rng: np.random.Generator) -> list[str]:
    """``n`` chunks of ~500 characters (Zipf-weighted words plus identifiers, amounts and percentages)."""
    weights = 1.0 / np.arange(1, len(WORDS) + 1) ** 1.07
    weights /= weights.sum()
    chunks = []
    for i in range(n):
        words = list(rng.choice(WORDS, size=80, p=weights))
        for _ in range(int(rng.integers(2, 6))):
            kind = int(rng.integers(0, 5))
            if kind == 0:
                extra = f"{rng.integers(1, 12)}.{rng.integers(1, 9)}.{rng.integers(1, 9)}"
            elif kind == 1:
                extra = f"₹{rng.integers(1, 100):,} lakh" if rng.random() < 0.5 else f"₹{rng.integers(1, 90000):,}"
            elif kind == 2:
                extra = f"{rng.integers(1, 100)}.{rng.integers(0, 99)}%"
            elif kind == 3:
                extra = IDS[int(rng.integers(0, len(IDS)))].format(rng.integers(1, 200))
            else:
                extra = f"{rng.integers(1, 60)}({'abcdef'[int(rng.integers(0, 6))]})"
            words.insert(int(rng.integers(0, len(words))), extra)
        text = " ".join(words)
        chunks.append(text[:500].rsplit(" ", 1)[0] + f" [{i}].")
    return chunks


def make_queries(n: int, rng: np.random.Generator) -> list[str]:
    """Analyst-like queries: 3 to 8 words, a third of them with an identifier."""
    queries = []
    for i in range(n):
        words = list(rng.choice(WORDS, size=int(rng.integers(3, 9))))
        if i % 3 == 0:
            words.append(IDS[i % len(IDS)].format(rng.integers(1, 200)))
        queries.append("What are the " + " ".join(words) + "?")
    return queries


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, default=50_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    chunks = make_chunks(args.chunks, rng)
    queries = make_queries(args.queries, rng)
    ids = [f"doc{i // 100:04d}:{i % 100:03d}" for i in range(len(chunks))]
    chars = sum(len(c) for c in chunks)
    rows: list[tuple[str, str]] = [("chunks", f"{len(chunks):,} ({chars / len(chunks):.0f} chars avg)")]

    started = time.perf_counter()
    tokens = [tokenize(c) for c in chunks]
    t_tok = time.perf_counter() - started
    rows.append(("tokenise", f"{t_tok:.2f} s ({len(chunks) / t_tok:,.0f} chunks/s, {chars / t_tok / 1e6:.2f} MB/s)"))
    started = time.perf_counter()
    index = BM25Index(ids, tokens=tokens, fingerprint="bench", k1=1.5, b=0.75)
    rows.append(("build (tokens given)", f"{time.perf_counter() - started:.2f} s, {len(index._vocab):,} terms"))

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "bm25"
        started = time.perf_counter()
        index.save(folder)
        size = sum(p.stat().st_size for p in folder.iterdir())
        rows.append(("save", f"{time.perf_counter() - started:.2f} s, {size / 1e6:.1f} MB on disk"))
        loads = []
        for _ in range(3):
            started = time.perf_counter()
            loaded = BM25Index.load(folder, fingerprint="bench")
            loads.append(time.perf_counter() - started)
        rows.append(("load (best of 3)", f"{min(loads):.3f} s"))
    if loaded is None:
        raise SystemExit("the saved index did not load")

    for q in queries[:5]:  # warm-up
        loaded.search(q, top_k=50)
    times, hits = [], 0
    for q in queries:
        started = time.perf_counter()
        result = loaded.search(q, top_k=50)
        times.append((time.perf_counter() - started) * 1000)
        hits += bool(result)
    p50, p95 = np.percentile(times, [50, 95])
    rows.append((f"query top_k=50 (n={len(queries)})", f"p50 {p50:.2f} ms, p95 {p95:.2f} ms, max {max(times):.2f} ms"))
    pool = set(ids[: len(ids) // 10])
    times = []
    for q in queries:
        started = time.perf_counter()
        loaded.search(q, top_k=50, allowed_ids=pool)
        times.append((time.perf_counter() - started) * 1000)
    p50, p95 = np.percentile(times, [50, 95])
    rows.append(("query with allowed_ids (10%)", f"p50 {p50:.2f} ms, p95 {p95:.2f} ms"))
    rows.append(("queries with results", f"{hits}/{len(queries)}"))
    rows.append(("peak RSS", f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"))

    reference = BM25Okapi(tokens, k1=1.5, b=0.75)  # after the RSS reading: it holds a dict per chunk
    times = []
    for q in queries[:20]:
        started = time.perf_counter()
        reference.get_scores(tokenize(q))
        times.append((time.perf_counter() - started) * 1000)
    rows.append(("rank_bm25 get_scores (n=20), for scale", f"p50 {np.percentile(times, 50):.1f} ms"))

    width = max(len(k) for k, _ in rows)
    print(f"{'measure':<{width}} | value")
    print(f"{'-' * width}-|-{'-' * 50}")
    for key, value in rows:
        print(f"{key:<{width}} | {value}")


if __name__ == "__main__":
    main()
