"""Ingestion throughput: ingest the FinanceBench dev filings into a fresh workspace and print a table.

Usage::

    python bench/ingest.py [--pdfs DIR] [--limit N] [--inline-parse] [--sweep]

Reports pages/s and chunks/s end to end, the embedder's own chunks/s on the same chunks, the share of time per
stage (read, parse, chunk, embed, store), the peak RSS of the app and of its parser worker, and the CPU seconds of
each (with their share of all cores over the run: how close the ingest is to the machine's compute limit). Target
(issue 17 §2): ≥ 80 chunks/s end to end on 2 cores, peak RSS ≤ 2 GB. Uses a temporary PRISM_HOME, so nothing is
reused.

``--inline-parse`` parses in-process (no child parser, no embedding ahead) for comparison; ``--serial-documents``
parses each PDF only when its turn comes (``parse_next_document=False``: no overlap across documents, the code
before issue 17 §2); ``--sweep`` also times the embedder alone at several batch sizes on a sample of the same chunks
(how ``embed_batch_size`` was chosen). The batch is ingested without briefings; each document's offline briefing is
then written and timed on its own (wall and CPU seconds per document, after the ingest).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from prism.config import Settings  # noqa: E402
from prism.ingestion.parsing.worker import shutdown_workers  # noqa: E402
from prism.service import PrismService  # noqa: E402
from prism.types import IngestItem  # noqa: E402

DEFAULT_PDFS = REPO.parent / "shared" / "data" / "financebench-dev" / "pdfs"


def _hwm_mib(pid: str) -> float:
    """Peak RSS (``VmHWM``) of a live process, MiB; 0 when it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    return next((int(x.split()[1]) / 1024 for x in status.splitlines() if x.startswith("VmHWM")), 0.0)


def peak_rss_mib() -> float:
    """Peak resident set size of this process, MiB (``VmHWM``)."""
    return _hwm_mib("self") or resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class ChildrenPeak(threading.Thread):
    """Samples the peak RSS (``VmHWM``) of this process's children (the parser workers) every 0.2 s until
    :meth:`stop`; :attr:`mib` is the largest seen. Not ``RUSAGE_CHILDREN``: a child started by ``subprocess``
    (vfork + exec) inherits its parent's ``ru_maxrss`` on Linux, so that figure was the app's RSS when the worker
    started; and the pipeline stops its workers at the end of a batch, so they cannot be read afterwards."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.mib = 0.0
        self.cpu_s: dict[str, float] = {}  # child pid → CPU seconds (user + system) last seen
        self._done = threading.Event()
        self._tick = os.sysconf("SC_CLK_TCK")

    def run(self) -> None:
        while not self._done.wait(0.2):
            for task in Path("/proc/self/task").iterdir():
                try:
                    pids = (task / "children").read_text().split()
                except OSError:
                    continue
                for pid in pids:
                    self.mib = max(self.mib, _hwm_mib(pid))
                    try:  # fields 14 and 15 of /proc/PID/stat, after the parenthesised command name
                        utime, stime = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[11:13]
                    except (OSError, ValueError, IndexError):
                        continue
                    self.cpu_s[pid] = (int(utime) + int(stime)) / self._tick

    def stop(self) -> float:
        self._done.set()
        self.join()
        return self.mib


def timed_briefings(svc: PrismService, sources: list[str]) -> list[tuple[str, float, float]]:
    """``(document, wall s, CPU s of the process)`` of writing each document's briefing again, one at a time."""
    rows = []
    for source in sources:
        w0, c0 = time.perf_counter(), time.process_time()
        svc.brief(source, "bench")
        rows.append((source, time.perf_counter() - w0, time.process_time() - c0))
    return rows


def _batch(svc: PrismService) -> int:
    """Texts per model call of the backend in use (torch and ONNX Runtime have their own settings)."""
    return svc.settings.embed_batch_size if svc.embedder.backend == "torch" else svc.settings.embed_onnx_batch_size


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdfs", type=Path, default=DEFAULT_PDFS)
    ap.add_argument("--limit", type=int, default=None, help="only the first N PDFs (sorted by name)")
    ap.add_argument("--inline-parse", action="store_true", help="parse in-process, no embedding ahead")
    ap.add_argument("--serial-documents", action="store_true", help="no parse of the next PDF while one embeds")
    ap.add_argument("--no-briefings", action="store_true", help="do not time the briefings")
    ap.add_argument("--sweep", action="store_true", help="time the embedder alone at several batch sizes")
    ap.add_argument("--embed-sample", type=int, default=4000, help="chunks re-embedded for the embedder-alone rate")
    args = ap.parse_args()
    pdfs = sorted(args.pdfs.glob("*.pdf"))[: args.limit or None]
    with tempfile.TemporaryDirectory(prefix="prism-bench-") as home:
        svc = PrismService(Settings(home=Path(home), parse_in_subprocess=not args.inline_parse,
                                    parse_next_document=not args.serial_documents))
        t0 = time.perf_counter()
        svc.embedder.embed(["warm up"])  # model load is not ingestion
        load_s = time.perf_counter() - t0
        handle = svc.open("bench", create=True)
        children = ChildrenPeak()
        children.start()
        cpu0 = time.process_time()
        t0 = time.perf_counter()
        results = svc.ingest([IngestItem(p) for p in pdfs], "bench", briefing=False)
        total_s = time.perf_counter() - t0
        app_cpu_s = time.process_time() - cpu0
        briefs = [] if args.no_briefings else timed_briefings(svc, [r.file for r in results if r.chunks])
        worker_rss = children.stop()
        shutdown_workers()
        tm = handle.ingestor.timings
        failed = [r for r in results if r.status == "failed"]
        pages = sum(r.pages or 0 for r in results)
        chunks = sum(r.chunks for r in results)
        # the embedder alone on the texts the pipeline embedded (title header + chunk), an evenly spaced sample
        texts = [row.get("index_text") or row["text"]
                 for d in handle.workspace.documents() for row in handle.workspace.read_chunks(d.doc_id)]
        texts = texts[:: max(1, len(texts) // args.embed_sample)]
        t0 = time.perf_counter()
        svc.embedder.embed(texts)
        embed_only_s = time.perf_counter() - t0
        sweep: dict[int, float] = {}
        if args.sweep:
            sample = texts[:: max(1, len(texts) // 1000)]
            configured = svc.embedder.embed_batch_size
            for size in (1, 4, 8, 16, 32, 64):
                svc.embedder.embed_batch_size = size
                t0 = time.perf_counter()
                svc.embedder.embed(sample)
                sweep[size] = len(sample) / (time.perf_counter() - t0)
            svc.embedder.embed_batch_size = configured

    stages = {"read": tm.read, "parse (waiting for the parser)": tm.parse, "chunk+tokenize": tm.chunk,
              "embed ahead (while parsing)": tm.embed_ahead, "embed (after parsing)": tm.embed - tm.embed_ahead,
              "store": tm.store}
    accounted = sum(stages.values())
    mode = "in-process parse" if args.inline_parse else "parser process + embedding ahead"
    mode += "" if args.inline_parse or args.serial_documents else " + next document parsed ahead"
    print(f"\n## Ingestion: {len(pdfs)} FinanceBench PDFs ({pages} pages, {chunks} chunks, {len(failed)} failed; "
          f"{mode}; embedder {svc.embedder.backend}, batch {_batch(svc)}, {svc.embedder.threads} threads)\n")
    print("| measure | value |\n|---|---|")
    print(f"| end to end | {total_s:.1f} s |")
    print(f"| pages/s end to end | {pages / total_s:.1f} |")
    print(f"| chunks/s end to end | {chunks / total_s:.1f} |")
    print(f"| embedder alone, same texts ({len(texts)} sampled) | {len(texts) / embed_only_s:.1f} chunks/s |")
    print(f"| end to end / embedder alone | {(chunks / total_s) / (len(texts) / embed_only_s):.2f} |")
    print(f"| model load (not counted) | {load_s:.1f} s |")
    ahead_share = tm.chunks_ahead / max(chunks, 1)
    print(f"| chunks embedded ahead (while parsing) and used | {tm.chunks_ahead} ({ahead_share:.0%}) |")
    print(f"| chunks embedded ahead and not used (final text differs) | {tm.ahead_unused} |")
    print(f"| documents parsed while the one before was embedded | {tm.docs_parsed_ahead} |")
    print(f"| peak RSS | {peak_rss_mib():.0f} MiB (parser worker: {worker_rss:.0f} MiB) |")
    worker_cpu_s = sum(children.cpu_s.values())
    print(f"| CPU seconds: app / parser workers / share of {os.cpu_count()} cores × end to end | {app_cpu_s:.0f} / "
          f"{worker_cpu_s:.0f} / {(app_cpu_s + worker_cpu_s) / ((os.cpu_count() or 1) * total_s):.0%} |")
    print("\n| stage | seconds | share |\n|---|---|---|")
    for name, sec in stages.items():
        print(f"| {name} | {sec:.1f} | {sec / total_s:.1%} |")
    other = total_s - accounted
    print(f"| other (registry, profiles, BM25 rebuild) | {other:.1f} | {other / total_s:.1%} |")
    print(f"\nOf chunk+tokenize, re-chunking partial documents to embed ahead: {tm.chunk_ahead:.1f} s.")
    print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if briefs:
        print("\n| document | offline briefing, wall s | CPU s |\n|---|---|---|")
        for name, wall, cpu in briefs:
            print(f"| {name} | {wall:.2f} | {cpu:.2f} |")
        walls = sorted(w for _n, w, _c in briefs)
        print(f"| median / max | {walls[len(walls) // 2]:.2f} / {walls[-1]:.2f} | |")
    if sweep:
        print(f"\n| embed_batch_size | embedder alone, chunks/s ({len(sample)} chunks) |\n|---|---|")
        for size, rate in sweep.items():
            print(f"| {size} | {rate:.1f} |")
    for r in failed:
        print(f"failed: {r.file}: {r.error}")


if __name__ == "__main__":
    main()
