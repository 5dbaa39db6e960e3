"""Chat redraw: does the time from Enter to the answer on screen stay flat as one conversation grows?

Usage::

    python bench/chat_redraw.py                         # 3 conversations of 30 turns, this checkout
    python bench/chat_redraw.py --conversations 3 --turns 30 --app-dir /tmp/prism-before   # another checkout

Starts the real ``streamlit run app.py`` (from ``--app-dir``, this checkout by default) on a free loopback port with a
temporary ``PRISM_HOME`` (the sample workspace builds itself on the first start), warms it up with one question that
is not measured, then asks ``--turns`` questions in one chat, ``--conversations`` times (each a new browser session):
the answerable questions of ``data/ground_truth/eval_pairs.json`` in turn, each conversation from another point of
the list; every checkpoint's window asks the conversation's first questions again, so each row times the same
questions and differs from the others only in the history before them. Each answer is timed in the browser
(:func:`load_browser.ask`: ``performance.now()`` from sending the question to the answer's footer, which the page
draws after the answer and its sources); the server's own time is the ``total`` the footer shows.

The table has one row per checkpoint turn (1, 10, 30 by default): p50 and p95 (nearest rank) over a window of
``--window`` turns ending at the checkpoint (turn 1's: turns 1 to ``--window``), over all conversations (by default
3 turns × 3 conversations = 9 questions per row), the server's p50, the page's own share (each answer's time less
the server's: the rerun, the browser drawing it) and the row's p50s over turn 1's (the same questions in every row:
what grows is what the history costs). Target:
turn 30 ≤ 1.5 s p50 on a quiet machine and within 20 % of turn 1. The load average is printed: on a shared
machine read the ratio, not the seconds. Every wait is bounded; the server's process group is stopped at the end
whatever happened.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import load_browser as ls
from load import NEGATIVES, PAIRS, WARM_UP, _env, _free_port, _stop_group, percentile
from servers import wait_until_up

REPO = Path(__file__).resolve().parents[1]
SERVER_TOTAL = re.compile(r"total ([\d.]+) (ms|s)\b")
LAST_FOOTER = """
const msgs = document.querySelectorAll('[data-testid="stChatMessage"]');
const a = msgs[msgs.length - 1];
if (!a) return '';
const c = Array.from(a.querySelectorAll('[data-testid="stCaptionContainer"]')).map(x => x.textContent);
return c.find(t => /total/.test(t)) || '';
"""


def _questions(n: int, checkpoints: list[int], window: int, offset: int) -> list[str]:
    """``n`` questions for one conversation, starting ``offset`` into the answerable sample questions; every
    checkpoint's window (the ``window`` turns ending at it) asks the same questions, the conversation's first
    ``window``, so the rows differ only in the history before them, not in the questions timed."""
    pairs = [p["query"] for p in json.loads(PAIRS.read_text(encoding="utf-8")) if p["id"] not in NEGATIVES]
    out = [pairs[(offset + i) % len(pairs)] for i in range(n)]
    for turn in checkpoints:
        first = max(1, turn - window + 1)
        out[first - 1:turn] = out[:turn - first + 1]
    return out


def server_ms(footer: str) -> float | None:
    """The server's ``total`` in a footer ("… · retrieve 85 ms · total 1.2 s"), ms; ``None`` when absent."""
    m = SERVER_TOTAL.search(footer)
    if not m:
        return None
    return float(m.group(1)) * (1000 if m.group(2) == "s" else 1)


def _start(app_dir: Path, root: Path) -> tuple[subprocess.Popen, str, Path]:
    port = _free_port()
    log_path = root / "streamlit.log"
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port",
             str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=app_dir, env=_env(root), stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    return proc, f"http://127.0.0.1:{port}", log_path


def conversation(url: str, questions: list[str], timeout_s: float, name: str) -> list[tuple[ls.Asked, float | None]]:
    """One browser session asking ``questions`` in one chat: per turn, the answer and the server's ms."""
    out: list[tuple[ls.Asked, float | None]] = []
    with ls.browser() as d:
        ls.open_chat(d, url)
        for i, q in enumerate(questions, 1):
            # the page as the analyst sees it before typing: the turns so far, each once (right after the first
            # answer the page reruns in full and briefly shows that turn twice; not a time anyone waits for)
            ls.wait_for(d, lambda drv, n=2 * (i - 1): len(drv.find_elements(
                "css selector", '[data-testid="stChatMessage"]')) == n, 30, f"{i - 1} turns on the page")
            asked = ls.ask(d, f"{name}/{i}", q, timeout_s)
            out.append((asked, server_ms(str(d.execute_script(LAST_FOOTER) or ""))))
            print(f"{name} turn {i}: {asked.kind} {asked.full_s}", file=sys.stderr)
            if asked.kind not in ("answered", "declined"):
                break
    return out


def _fmt(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def report(runs: list[list[tuple[ls.Asked, float | None]]], checkpoints: list[int], window: int, label: str,
           load: tuple[float, float]) -> None:
    """Print the Markdown table: one row per checkpoint turn."""
    print(f"\nChat redraw, {label}, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores, load average "
          f"{load[0]:.1f} → {os.getloadavg()[0]:.1f}; {len(runs)} conversation(s)\n")
    print("| turn | questions | Enter → answer on screen p50 / p95 s | server total p50 s | the page's own share p50 s "
          "| p50 / turn 1's p50 | page's own / turn 1's |")
    print("|---|---|---|---|---|---|---|")
    base = own_base = None
    for turn in checkpoints:
        first = max(1, turn - window + 1)
        rows = [r for run in runs for r in run[first - 1:first - 1 + window]]
        full = [a.full_s for a, _ in rows if a.full_s is not None and a.kind in ("answered", "declined")]
        server = [ms / 1000 for _, ms in rows if ms is not None]
        own = [a.full_s - ms / 1000 for a, ms in rows if a.full_s is not None and ms is not None]  # page and browser
        p50, own_p50 = percentile(full, 0.5), percentile(own, 0.5)
        base = p50 if base is None else base
        own_base = own_p50 if own_base is None else own_base
        ratio = f"{p50 / base:.2f}" if p50 is not None and base else "–"
        own_ratio = f"{own_p50 / own_base:.2f}" if own_p50 is not None and own_base else "–"
        span = f"{first}–{first + window - 1}" if window > 1 else str(turn)
        print(f"| {turn} (turns {span}) | {len(full)} | {_fmt(p50)} / {_fmt(percentile(full, 0.95))} | "
              f"{_fmt(percentile(server, 0.5))} | {_fmt(own_p50)} | {ratio} | {own_ratio} |")
    bad = [a for run in runs for a, _ in run if a.kind not in ("answered", "declined")]
    for a in bad:
        print(f"  {a.kind}: {a.session}: {a.question[:60]!r}: {a.detail[:200]}")


def _parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--conversations", type=int, default=3, help="conversations (new browser sessions)")
    p.add_argument("--turns", type=int, default=30, help="questions per conversation")
    p.add_argument("--checkpoints", default="1,10,30", help="turns reported, comma-separated")
    p.add_argument("--window", type=int, default=3, help="turns per checkpoint row (ending at the checkpoint)")
    p.add_argument("--app-dir", type=Path, default=REPO, help="the checkout whose app.py is served")
    p.add_argument("--label", default="", help="names the run in the table's heading (e.g. before / after)")
    p.add_argument("--answer-timeout", type=float, default=180, help="seconds per answer")
    args = p.parse_args()
    args.checkpoints = [int(x) for x in args.checkpoints.split(",")]
    if max(args.checkpoints) > args.turns or min(args.checkpoints) < 1:
        p.error("--checkpoints must lie in 1..--turns")
    return args


def main() -> None:
    args = _parse()
    if not ls.CHROMIUM.exists() or not ls.CHROMEDRIVER.exists():
        raise SystemExit("needs /usr/bin/chromium and /usr/bin/chromedriver (Debian's chromium, chromium-driver)")
    root = Path(tempfile.mkdtemp(prefix="prism-redraw-"))
    proc, url, log_path = _start(args.app_dir.resolve(), root)
    runs = []
    try:
        wait_until_up(f"{url}/_stcore/health", proc, 180, f"streamlit (see {log_path})")
        with ls.browser() as d:
            ls.open_chat(d, url, 900)
            ls.ask(d, "warm-up", WARM_UP, 300)
        load = os.getloadavg()[:2]
        for c in range(args.conversations):
            questions = _questions(args.turns, args.checkpoints, args.window, c * 17)
            runs.append(conversation(url, questions, args.answer_timeout, f"c{c + 1}"))
    finally:
        _stop_group(proc)
    report(runs, args.checkpoints, args.window, args.label or str(args.app_dir), load)
    if any(a.kind not in ("answered", "declined") for run in runs for a, _ in run):
        print(f"\nserver log kept: {log_path}", file=sys.stderr)
    else:
        subprocess.run(["rm", "-rf", str(root)], check=False)


if __name__ == "__main__":
    main()
