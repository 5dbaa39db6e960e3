"""Offline answer time: the same questions answered by two checkouts of Prism on this machine, p50 / p95 per checkout.

Issue 29 asks that computing the answer (which operation, which rows, the arithmetic) keeps the offline answer time
within 1.5× of what it was. This script asks a seeded sample of TAT-QA dev questions (each scoped to its own
context's HTML page, as ``eval run --format tatqa`` does) through ``PrismService.ask`` with no LLM key, and times
each ``ask`` (retrieval, the gate, the answer; the embedder is loaded and the workspace ingested before timing).
Each checkout runs in its own subprocess over its own ``PRISM_HOME`` (both ingest the same pages), one after the
other, so both see the same machine; the table prints p50 / p95 / max in ms (nearest-rank percentiles) and the
ratio of the second to the first.

Usage::

    git worktree add /tmp/prism-before <commit>
    python bench/answers.py --before /tmp/prism-before [--sample 120] [--seed 29]

``--data`` is the TAT-QA folder (default ``../shared/data/tatqa-dev``). With no ``--before``, only this checkout is
timed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data" / "tatqa-dev"

_CHILD = r"""
import json, sys, time
from pathlib import Path
from prism.config import Settings
from prism.service import PrismService
from prism.evaluation.tatqa.dataset import load_tatqa
from prism.types import IngestItem

data, sample, seed, home = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
svc = PrismService(Settings(home=home, groq_api_key=None, tavily_api_key=None))
dataset = load_tatqa(data, html_dir=home / "pages", sample=sample, seed=seed)
pages = sorted({s for q in dataset.queries for s in q.scope})
svc.ingest([IngestItem(home / "pages" / p) for p in pages], "bench")
svc.ask(dataset.queries[0].query, "bench", sources=list(dataset.queries[0].scope))  # warm-up, not timed
times = []
for q in dataset.queries:
    t0 = time.perf_counter()
    svc.ask(q.query, "bench", sources=list(q.scope), rerank=False)
    times.append((time.perf_counter() - t0) * 1000)
print(json.dumps(times))
"""


def _percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile ``p`` (0–100) of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def _time(checkout: Path, data: Path, sample: int, seed: int) -> list[float]:
    """Answer times (ms) of ``checkout``'s code, in a subprocess over a temporary ``PRISM_HOME``."""
    with tempfile.TemporaryDirectory(prefix="prism-bench-answers-") as home:
        env = {**os.environ, "PYTHONPATH": str(checkout), "PRISM_HOME": home}
        out = subprocess.run([sys.executable, "-c", _CHILD, str(data), str(sample), str(seed), home], env=env,
                             cwd=checkout, capture_output=True, text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Time both checkouts and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, help="checkout to compare against (a git worktree)")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--sample", type=int, default=120)
    ap.add_argument("--seed", type=int, default=29)
    args = ap.parse_args()
    if not args.data.exists():
        sys.exit(f"No TAT-QA data at {args.data}.")
    runs = [("before", args.before)] if args.before else []
    runs.append(("this checkout", ROOT))
    rows = []
    for name, checkout in runs:
        times = _time(checkout.resolve(), args.data, args.sample, args.seed)
        rows.append((name, len(times), _percentile(times, 50), _percentile(times, 95), max(times)))
    print(f"{'checkout':<16}{'questions':>10}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
    for name, n, p50, p95, top in rows:
        print(f"{name:<16}{n:>10}{p50:>10.1f}{p95:>10.1f}{top:>10.1f}")
    if len(rows) == 2:
        print(f"{'ratio':<16}{'':>10}{rows[1][2] / rows[0][2]:>10.2f}{rows[1][3] / rows[0][3]:>10.2f}")


if __name__ == "__main__":
    main()
