"""Ingestion throughput: ingest the FinanceBench dev filings into a fresh workspace and print a table.

Usage::

    python bench/ingest.py [--pdfs DIR] [--limit N] [--inline-parse] [--sweep]
    python bench/ingest.py --mixed      # text and scanned PDFs: NPCI circulars (4 scanned) and RBI directions

Reports pages/s and chunks/s end to end, the embedder's own chunks/s on the same chunks, the share of time per
stage (read, parse, chunk, embed, store), the peak RSS of the app and of its parser worker, and the CPU seconds of
each (with their share of all cores over the run: how close the ingest is to the machine's compute limit). Target:
≥ 80 chunks/s end to end on 2 cores, peak RSS ≤ 2 GB. Uses a temporary PRISM_HOME, so nothing is
reused.

``--inline-parse`` parses in-process (no child parser, no embedding ahead) for comparison; ``--serial-documents``
parses each PDF only when its turn comes (``parse_next_document=False``: no overlap across documents, the code
before documents were parsed ahead); ``--sweep`` also times the embedder alone at several batch sizes on a sample of
the same chunks (how ``embed_batch_size`` was chosen). The batch is ingested without briefings; each document's
offline briefing is then written and timed on its own (wall and CPU seconds per document, after the ingest).

``--per-file`` ingests one file per call, as the Upload page does, each call naming the file that follows so its
parse starts early (``--no-following``: none does, the Upload page before it named the next file). ``--mixed``
ingests a mixed set instead (:func:`mixed_set`: the NPCI circulars without a text layer, by the ``text_layer``
column of their manifest, the smallest text ones, and RBI directions) and adds where each file's time went, per
stage (:attr:`prism.types.IngestResult.stage_seconds`, summed over the files): parse, OCR (apart, with its pages per
minute), profile, chunk, embed, store, BM25 and the briefing (timed after the ingest). Target: the whole set in at
most 1.1 × the time the embedder alone takes on the chunks of its text pages. It also prints the floor of that
ratio on this machine's cores with pypdf as the parser: the embedder's work spread over every core plus one plain
pypdf text pass over the text pages (:func:`pypdf_floor_cpu_s`), before any chunking, storing or indexing.
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
DATA = REPO.parent / "shared" / "data"
RBI_MIXED = ("01MCD0D97308D3AD49A3908E2F4410ED4409.PDF", "05MC010420252ED8A74EE428468287D815016A33587F.pdf",
             "09MC01042025579866A57486476EBBEAB63366EB95B7.PDF")
"""The RBI directions of the mixed set (7, 10 and 37 pages)."""


def mixed_set(data: Path = DATA, text_npci: int = 4) -> list[Path]:
    """Scanned and text PDFs, interleaved as an analyst's upload would mix them: every NPCI circular whose manifest
    says ``none`` in ``text_layer``, the ``text_npci`` smallest NPCI circulars with a text layer, and
    :data:`RBI_MIXED`.

    Raises:
        SystemExit: the shared data is missing.
    """
    import csv

    manifest = data / "npci" / "manifest.csv"
    if not manifest.is_file():
        raise SystemExit(f"the mixed set needs {manifest}")
    rows = list(csv.DictReader(manifest.open(encoding="utf-8")))
    scanned = [data / "npci" / "pdfs" / r["file"] for r in rows if r["text_layer"].startswith("none")]
    text = sorted((r for r in rows if not r["text_layer"].startswith("none")), key=lambda r: int(r["bytes"]))
    typed = [data / "npci" / "pdfs" / r["file"] for r in text[:text_npci]] + [data / "rbi" / "pdfs" / n
                                                                              for n in RBI_MIXED]
    out = []
    for i in range(max(len(scanned), len(typed))):
        out += typed[i:i + 1] + scanned[i:i + 1]
    return [p for p in dict.fromkeys(out) if p.is_file() and p.stat().st_size > 0]  # one NPCI file is empty


def stage_table(results: list, briefs: list[tuple[str, float, float]], wall_s: float) -> None:
    """Print where the time went per stage, summed over the files (:data:`prism.types.INGEST_STAGES`), with OCR's
    pages per minute; the briefings' wall seconds (timed after the ingest) stand in for ``briefing``."""
    from prism.types import INGEST_STAGES

    totals = {stage: sum(r.stage_seconds.get(stage, 0.0) for r in results) for stage in INGEST_STAGES}
    totals["briefing"] = sum(w for _n, w, _c in briefs)
    ocr_pages = sum(len(r.ocr_pages) for r in results)
    print("\n| stage | seconds (sum over the files) | share of the ingest's wall time |\n|---|---|---|")
    for stage, sec in totals.items():
        note = f" ({ocr_pages} pages, {ocr_pages * 60 / sec:.1f} pages/min; in the parser)" if stage == "ocr" and sec \
            else " (after the ingest)" if stage == "briefing" else ""
        print(f"| {stage}{note} | {sec:.2f} | {sec / wall_s:.0%} |")


def text_page_chunks(handle) -> list[str]:
    """The texts the pipeline embedded (title header + chunk) for the chunks of pages with a text layer."""
    texts = []
    for d in handle.workspace.documents():
        ocr = set(d.ocr_pages or [])
        texts += [row.get("index_text") or row["text"] for row in handle.workspace.read_chunks(d.doc_id)
                  if row.get("page_start") not in ocr]
    return texts


def pypdf_floor_cpu_s(pdfs: list[Path], ocr_pages: dict[str, set[int]]) -> tuple[float, int]:
    """CPU seconds of one plain ``pypdf`` text pass (``PageObject.extract_text()``) over the pages of ``pdfs`` that
    were not OCR'd (``ocr_pages``: file name → 1-based page numbers), and how many pages that was. The least work
    the parser the pipeline is built on must do for those pages: with the embedder's own CPU seconds it bounds how
    close the ingest can come to the embedder alone on the same cores."""
    import pypdf

    cpu_s, pages = 0.0, 0
    for path in pdfs:
        reader = pypdf.PdfReader(str(path))
        skip = ocr_pages.get(path.name, set())
        for number, page in enumerate(reader.pages, start=1):
            if number in skip:
                continue
            t0 = time.process_time()
            page.extract_text()
            cpu_s += time.process_time() - t0
            pages += 1
    return cpu_s, pages


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
    ap.add_argument("--pdfs", type=Path, default=None, help=f"a folder of PDFs (default: {DEFAULT_PDFS}, or with "
                    "--mixed the mixed set)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N PDFs (sorted by name)")
    ap.add_argument("--inline-parse", action="store_true", help="parse in-process, no embedding ahead")
    ap.add_argument("--serial-documents", action="store_true", help="no parse of the next PDF while one embeds")
    ap.add_argument("--no-briefings", action="store_true", help="do not time the briefings")
    ap.add_argument("--sweep", action="store_true", help="time the embedder alone at several batch sizes")
    ap.add_argument("--embed-sample", type=int, default=4000, help="chunks re-embedded for the embedder-alone rate")
    ap.add_argument("--per-file", action="store_true", help="one ingest call per file, as the Upload page makes")
    ap.add_argument("--no-following", action="store_true", help="with --per-file: no call names the next file "
                    "(no overlap across calls, the Upload page before it named the next file)")
    ap.add_argument("--mixed", action="store_true", help="stage timings and the text pages' embedder-alone time; "
                    "without --pdfs, on the mixed set (mixed_set)")
    args = ap.parse_args()
    if args.pdfs is None and args.mixed:
        pdfs = mixed_set()
    else:
        folder = args.pdfs or DEFAULT_PDFS
        pdfs = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".pdf")[: args.limit or None]  # .PDF too
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
        if args.per_file:  # as the Upload page does: one call per file, each naming the next unless --no-following
            items = [IngestItem(p) for p in pdfs]
            results = [r for i, item in enumerate(items) for r in svc.ingest(
                [item], "bench", briefing=False,
                following=None if args.no_following or i + 1 == len(items) else items[i + 1])]
        else:
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
        text_chunks = text_page_chunks(handle) if args.mixed else []
        t0 = time.perf_counter()
        svc.embedder.embed(text_chunks or ["-"])
        embed_text_s = time.perf_counter() - t0
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
    if args.per_file:
        mode += "; one call per file" + (" (none names the next)" if args.no_following else ", each naming the next")
    what = "mixed (text and scanned)" if args.mixed else "FinanceBench"
    print(f"\n## Ingestion: {len(pdfs)} {what} PDFs ({pages} pages, {chunks} chunks, {len(failed)} failed; "
          f"{mode}; embedder {svc.embedder.backend}, batch {_batch(svc)}, {svc.embedder.threads} threads)\n")
    print("| measure | value |\n|---|---|")
    print(f"| end to end | {total_s:.1f} s |")
    print(f"| pages/s end to end | {pages / total_s:.1f} |")
    print(f"| chunks/s end to end | {chunks / total_s:.1f} |")
    print(f"| embedder alone, same texts ({len(texts)} sampled) | {len(texts) / embed_only_s:.1f} chunks/s |")
    print(f"| end to end / embedder alone | {(chunks / total_s) / (len(texts) / embed_only_s):.2f} |")
    print(f"| model load (not counted) | {load_s:.1f} s |")
    if args.mixed:
        ocr_s = sum(r.stage_seconds.get("ocr", 0.0) for r in results)
        print(f"| embedder alone on the {len(text_chunks)} chunks of the text pages | {embed_text_s:.1f} s |")
        print(f"| whole set / embedder alone on its text pages (target ≤ 1.10) | {total_s / embed_text_s:.2f} |")
        print(f"| OCR pages, apart | {sum(len(r.ocr_pages) for r in results)} pages in {ocr_s:.1f} s "
              f"({sum(len(r.ocr_pages) for r in results) * 60 / max(ocr_s, 1e-9):.1f} pages/min) |")
        # the floor: the embedder's work spread over every core, plus one plain pypdf pass over the text pages
        floor_s, floor_pages = pypdf_floor_cpu_s(pdfs, {Path(r.file).name: set(r.ocr_pages or []) for r in results})
        cores = os.cpu_count() or 1
        print(f"| one plain pypdf text pass over the {floor_pages} text pages | {floor_s:.2f} CPU s |")
        print(f"| lowest ratio with pypdf on {cores} cores: 1 + that / ({cores} × embedder alone on the text pages) "
              f"| {1 + floor_s / (cores * embed_text_s):.2f} |")
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
    if args.mixed:
        stage_table(results, briefs, total_s)
    for r in failed:
        print(f"failed: {r.file}: {r.error}")


if __name__ == "__main__":
    main()
