"""Start fast: cold start from ``streamlit run app.py`` to the first usable page, the sample workspace already built.

Usage::

    python bench/startup.py [--rounds 3] [--home DIR]

Builds the sample workspace once into ``--home`` (a temp folder by default; skipped when it already holds a
workspace), then, ``--rounds`` times: starts ``streamlit run app.py`` on a free loopback port in a fresh process,
opens the app in headless Debian Chromium (selenium, the flags of tests/ui/test_browser.py) and waits until the Chat
page's chat input renders. Phases per round, in seconds from the process start: ``server`` (Streamlit answers
``/_stcore/health``: Python, Streamlit and the entry script's imports), ``first page`` (the chat input is drawn:
the session's first script run — service, sidebar, Chat page). Also ``import`` (a separate process timing
``import prism.service`` alone) and the embedder's own load time read from the server log. Prints the median of
the rounds. Target (issue 17 §3): first page ≤ 10 s.

``--seed``: the Docker start instead: a seed is built once (``python -m prism seed build``) and every round starts
on a new, empty ``PRISM_HOME`` with ``PRISM_SEED_DIR`` set, so the seed's copy is part of the measured time.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from servers import stop, wait_until_up

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROME_FLAGS = ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--window-size=1440,1000")


def _env(home: Path, seed: Path | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("GROQ_API_KEY", "TAVILY_API_KEY", "PRISM_GROQ_API_KEY", "PRISM_TAVILY_API_KEY",
                        "PRISM_ACCESS_CODE")}
    env.update(PRISM_HOME=str(home), HF_HUB_OFFLINE="1", TRANSFORMERS_NO_ADVISORY_WARNINGS="1")
    if seed is not None:
        env["PRISM_SEED_DIR"] = str(seed)
    return env


def build_sample(home: Path) -> None:
    """The sample workspace in ``home``, built once through the service (as the app's first start does)."""
    if (home / "workspaces").is_dir() and any((home / "workspaces").iterdir()):
        return
    code = "from prism.service import PrismService; PrismService().ensure_sample_workspace()"
    subprocess.run([sys.executable, "-c", code], cwd=REPO, env=_env(home), check=True)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def import_seconds(home: Path) -> float:
    """Seconds for a fresh interpreter to ``import prism.service`` (minus the bare interpreter's start)."""
    def run(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], cwd=REPO, env=_env(home), check=True)
        return time.perf_counter() - start
    return run("import prism.service") - run("pass")


def one_round(home: Path, log_path: Path, seed: Path | None = None) -> dict[str, float]:
    """Start the app, open it in Chromium, return the phases in seconds from the process start."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (*CHROME_FLAGS, f"--user-data-dir={tempfile.mkdtemp(prefix='prism-chromium-')}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)  # started before the clock
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with log_path.open("w") as log:
        start = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true", "--server.port",
             str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false"],
            cwd=REPO, env=_env(home, seed), stdout=log, stderr=subprocess.STDOUT)
        try:
            wait_until_up(f"{url}/_stcore/health", proc, 120, f"streamlit (see {log_path})")
            server = time.perf_counter() - start
            driver.get(url)
            WebDriverWait(driver, 120, poll_frequency=0.05).until(
                lambda d: d.find_elements(By.CSS_SELECTOR, '[data-testid="stChatInput"] textarea'))
            first_page = time.perf_counter() - start
        finally:
            driver.quit()
            stop(proc, 15)
    return {"server": server, "first page": first_page}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--home", type=Path, default=None, help="PRISM_HOME (default: a temp folder)")
    parser.add_argument("--seed", action="store_true", help="start each round on an empty home from a seed")
    args = parser.parse_args()
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        raise SystemExit("needs /usr/bin/chromium and /usr/bin/chromedriver (Debian's chromium, chromium-driver)")
    home = args.home or Path(tempfile.mkdtemp(prefix="prism-startup-"))
    seed = None
    if args.seed:
        seed = home / "seed"
        if not seed.is_dir():
            subprocess.run([sys.executable, "-m", "prism", "seed", "build", str(seed)], cwd=REPO, env=_env(home),
                           check=True)
    else:
        build_sample(home)
    rounds = []
    for i in range(args.rounds):
        start_home = home / f"home-{time.time_ns()}" if seed else home
        rounds.append(one_round(start_home, home.parent / f"{home.name}-streamlit-{i}.log", seed))
        print(f"round {i + 1}: " + ", ".join(f"{k} {v:.2f} s" for k, v in rounds[-1].items()), file=sys.stderr)
    imports = import_seconds(home)
    load = os.getloadavg()
    how = "empty home + seed" if seed else "sample workspace built"
    print(f"\nCold start, {how}, {args.rounds} rounds (load average {load[0]:.2f} {load[1]:.2f})\n")
    print("| phase | median s | rounds |")
    print("|---|---|---|")
    print(f"| import prism.service (separate process) | {imports:.2f} | 1 |")
    for phase in ("server", "first page"):
        values = [r[phase] for r in rounds]
        print(f"| {phase} | {statistics.median(values):.2f} | {' / '.join(f'{v:.2f}' for v in values)} |")
    print("\nTarget: first page ≤ 10 s.")


if __name__ == "__main__":
    main()
