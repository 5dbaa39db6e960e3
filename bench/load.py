"""Load in real browsers: several analysts asking at once while another uploads a 10-K.

Usage::

    python bench/load.py                                        # 8 sessions + an upload + a browser closed mid-answer
    python bench/load.py --sessions 1 --no-upload --no-close    # the baseline: the same questions, one at a time

Starts the real ``streamlit run app.py`` on a free loopback port with a temporary ``PRISM_HOME`` (the sample
workspace builds itself on the first start), opens one warm-up session (the first start, then one question that is
not measured, so the models are loaded), then drives ``--sessions`` headless Chromium browsers at once
(:mod:`load_browser`). The questions are ``--slots`` × ``--questions`` answerable questions of
``data/ground_truth/eval_pairs.json`` (the negatives q065–q084 left out), slot ``s`` taking every ``slots``-th one
from ``s``; a slot is one new browser session asking its questions in one chat, and the slots are shared out among the
browsers (8 sessions: one slot each; 1 session: the 8 slots one after another — the same 40 questions).

Meanwhile (unless ``--no-upload``) a further browser uploads ``--pdf`` on the Upload page, refreshes the page while
the file is being indexed and checks that the batch is shown again, waits for the briefing, and refreshes once more
to check that the batch and its briefing read as before. Unless ``--no-close``, one more browser asks a question and
is quit 1.5 s later, mid-answer; after the run a new session must still get an answer.

Counts: answers, declines, errors (an error box in the answer, an exception or "Traceback" on the page),
incomplete answers (no finished answer within ``--answer-timeout``) and tracebacks in the server's log (goal: 0
errors, 0 incomplete, 0 tracebacks). Times are seconds from sending a question to the first answer text and to the
finished answer (its footer), read from the browser's clock; p50 / p95 are nearest-rank percentiles. Every wait is
bounded; the server's whole process group (the parser worker included) is stopped at the end, whatever happened.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import load_browser as ls
from servers import wait_until_up

REPO = Path(__file__).resolve().parents[1]
PAIRS = REPO / "data" / "ground_truth" / "eval_pairs.json"
NEGATIVES = {f"q{i:03d}" for i in range(65, 85)}
PDF = REPO.parent / "shared" / "data" / "financebench-dev" / "pdfs" / "NETFLIX_2015_10K.pdf"
WARM_UP = "What does the sample workspace cover?"


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("GROQ_API_KEY", "TAVILY_API_KEY", "PRISM_GROQ_API_KEY", "PRISM_TAVILY_API_KEY",
                        "PRISM_ACCESS_CODE")}
    env.update(PRISM_HOME=str(home / "home"), PRISM_EVAL_DIR=str(home / "eval"), HF_HUB_OFFLINE="1",
               TRANSFORMERS_NO_ADVISORY_WARNINGS="1")
    return env


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def questions(slots: int, per_slot: int) -> list[list[str]]:
    """``slots`` lists of ``per_slot`` answerable questions: slot ``s`` takes questions ``s, s + slots, …``.

    Raises:
        SystemExit: the ground truth has fewer than ``slots × per_slot`` answerable questions.
    """
    pairs = [p["query"] for p in json.loads(PAIRS.read_text(encoding="utf-8")) if p["id"] not in NEGATIVES]
    if len(pairs) < slots * per_slot:
        raise SystemExit(f"{PAIRS} has {len(pairs)} answerable questions, fewer than {slots} × {per_slot}")
    return [[pairs[s + slots * j] for j in range(per_slot)] for s in range(slots)]


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile ``q`` in (0, 1] of ``values`` (``None`` when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def _run_slots(url: str, name: str, slots: list[list[str]], timeout_s: float, out: list[ls.Asked]) -> None:
    try:
        with ls.browser() as d:
            for k, slot in enumerate(slots):
                ls.open_chat(d, url)
                for q in slot:
                    out.append(ls.ask(d, f"{name}/{k}", q, timeout_s))
    except Exception as exc:  # noqa: BLE001 - a session that breaks is counted, never the end of the bench
        out.append(ls.Asked(name, "", "error", detail=f"session failed: {type(exc).__name__}: {exc}"[:300]))


def _close_mid_answer(url: str, question: str, out: list[ls.Asked]) -> None:
    try:
        with ls.browser() as d:
            ls.open_chat(d, url)
            out.append(ls.ask(d, "closed", question, 60, close_after_s=1.5))
    except Exception as exc:  # noqa: BLE001
        out.append(ls.Asked("closed", question, "error", detail=f"{type(exc).__name__}: {exc}"[:300]))


def _start(root: Path) -> tuple[subprocess.Popen, str, Path]:
    port = _free_port()
    log_path = root / "streamlit.log"
    log = log_path.open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=REPO, env=_env(root), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    return proc, f"http://127.0.0.1:{port}", log_path


def _stop_group(proc: subprocess.Popen) -> None:
    """SIGTERM the server's process group, SIGKILL it after 20 s."""
    for sig, wait_s in ((signal.SIGTERM, 20), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait_s)
            return
        except subprocess.TimeoutExpired:
            continue


def _warm(url: str) -> None:
    with ls.browser() as d:
        ls.open_chat(d, url, 900)
        ls.ask(d, "warm-up", WARM_UP, 300)


def _concurrent(url: str, args: argparse.Namespace) -> tuple[list[ls.Asked], dict, float]:
    """Run the sessions (and the upload and the closed browser) at once; returns the answers, the upload's checks
    and the wall time."""
    slots = questions(args.slots, args.questions)
    shares = [slots[i::args.sessions] for i in range(args.sessions)]
    results: list[ls.Asked] = []
    upload_report: dict = {}
    threads = [threading.Thread(target=_run_slots, args=(url, f"s{i}", share, args.answer_timeout, results),
                                daemon=True) for i, share in enumerate(shares)]
    if not args.no_close:
        threads.append(threading.Thread(target=_close_mid_answer, args=(url, slots[0][0], results), daemon=True))
    if not args.no_upload:
        if args.pdf.is_file():
            threads.append(threading.Thread(target=ls.upload, args=(url, args.pdf, args.upload_timeout, upload_report),
                                            daemon=True))
        else:
            print(f"no upload: {args.pdf} is missing", file=sys.stderr)
            upload_report["skipped"] = f"{args.pdf} is missing"
    start = time.monotonic()
    for t in threads:
        t.start()
    deadline = start + args.total_timeout
    for t in threads:
        t.join(timeout=max(1.0, deadline - time.monotonic()))
    if any(t.is_alive() for t in threads):
        results.append(ls.Asked("bench", "", "incomplete", detail="a session was still running at --total-timeout"))
    return list(results), upload_report, time.monotonic() - start


def _after(url: str) -> ls.Asked:
    """A new session after the run (and the closed browser) must still get an answer."""
    try:
        with ls.browser() as d:
            ls.open_chat(d, url)
            return ls.ask(d, "after", "Who is Meridian Bank's Chief Risk Officer?", 120)
    except Exception as exc:  # noqa: BLE001
        return ls.Asked("after", "", "error", detail=f"{type(exc).__name__}: {exc}"[:300])


def _fmt(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}"


def report(args: argparse.Namespace, results: list[ls.Asked], upload_report: dict, after: ls.Asked,
           wall_s: float, tracebacks: int, load: tuple[float, float]) -> None:
    """Print the table (Markdown) and the failures, one line each."""
    asked = [r for r in results if r.kind != "closed"]
    kinds = {k: sum(r.kind == k for r in asked) for k in ("answered", "declined", "error", "incomplete")}
    first = [r.first_s for r in asked if r.first_s is not None and r.kind in ("answered", "declined")]
    full = [r.full_s for r in asked if r.full_s is not None and r.kind in ("answered", "declined")]
    what = f"{args.sessions} session{'s' if args.sessions > 1 else ''}"
    what += "" if args.no_upload or upload_report.get("skipped") else " + upload"
    what += "" if args.no_close else " + 1 closed mid-answer"
    print(f"\nLoad, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average {load[0]:.1f} → "
          f"{os.getloadavg()[0]:.1f}; wall {wall_s:.0f} s\n")
    print("| run | questions | answered | declined | errors | incomplete | tracebacks (page / log) | first token p50 / "
          "p95 s | full answer p50 / p95 s | after the run |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    page_tb = sum("Traceback" in r.detail for r in asked)
    print(f"| {what} | {len(asked)} | {kinds['answered']} | {kinds['declined']} | {kinds['error']} | "
          f"{kinds['incomplete']} | {page_tb} / {tracebacks} | {_fmt(percentile(first, 0.5))} / "
          f"{_fmt(percentile(first, 0.95))} | {_fmt(percentile(full, 0.5))} / {_fmt(percentile(full, 0.95))} | "
          f"{after.kind} in {_fmt(after.full_s)} s |")
    if upload_report:
        print("\nUpload: " + "; ".join(f"{k}: {v}" for k, v in upload_report.items()))
    for r in asked:
        if r.kind in ("error", "incomplete"):
            print(f"  {r.kind}: {r.session}: {r.question[:60]!r}: {r.detail[:200]}")


def _parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sessions", type=int, default=8, help="browsers asking at once")
    p.add_argument("--slots", type=int, default=8, help="question sets (one new session each)")
    p.add_argument("--questions", type=int, default=5, help="questions per slot")
    p.add_argument("--pdf", type=Path, default=PDF, help="the 10-K the upload session adds")
    p.add_argument("--no-upload", action="store_true")
    p.add_argument("--no-close", action="store_true", help="no browser closed mid-answer")
    p.add_argument("--answer-timeout", type=float, default=240, help="seconds per answer")
    p.add_argument("--upload-timeout", type=float, default=1200, help="seconds for the upload and its briefing")
    p.add_argument("--total-timeout", type=float, default=2400, help="seconds for the whole concurrent phase")
    p.add_argument("--keep", action="store_true", help="keep the temporary PRISM_HOME and the server log")
    args = p.parse_args()
    args.pdf = args.pdf.resolve()
    if not 1 <= args.sessions <= args.slots:
        p.error("--sessions must be between 1 and --slots")
    return args


def main() -> None:
    args = _parse()
    if not ls.CHROMIUM.exists() or not ls.CHROMEDRIVER.exists():
        raise SystemExit("needs /usr/bin/chromium and /usr/bin/chromedriver (Debian's chromium, chromium-driver)")
    root = Path(tempfile.mkdtemp(prefix="prism-load-"))
    proc, url, log_path = _start(root)
    try:
        wait_until_up(f"{url}/_stcore/health", proc, 180, f"streamlit (see {log_path})")
        _warm(url)
        load = os.getloadavg()[:2]
        print(f"server {url}, home {root}; warm; running {args.sessions} sessions", file=sys.stderr)
        results, upload_report, wall_s = _concurrent(url, args)
        after = _after(url)
    finally:
        _stop_group(proc)
    log_text = log_path.read_text(encoding="utf-8", errors="replace")
    tracebacks = len(re.findall(r"^Traceback \(most recent call last\)", log_text, flags=re.M))
    report(args, results, upload_report, after, wall_s, tracebacks, load)
    if tracebacks:
        print(f"\nserver log: {log_path}", file=sys.stderr)
    elif not args.keep:
        subprocess.run(["rm", "-rf", str(root)], check=False)


if __name__ == "__main__":
    main()
