"""The Space image is real: build the ``Dockerfile`` and check that the container serves the sample workspace.

Usage::

    python bench/image.py [--build] [--image prism:check] [--engine docker|podman]

Finds a container engine (``docker`` with a daemon that answers — ``DOCKER_HOST`` is honoured — or ``podman``) and
SKIPS, printing the reason and exiting 0, when none can run. With ``--build`` it first builds the image from the
repository (``--network host`` so pip reaches PyPI; ``RERANKER_AT_BUILD=0`` unless ``--reranker``, since the Hub may
be unreachable). Where download.pytorch.org is unreachable, ``--torch-wheel`` (default: the CPU wheel in
``/opt/wheels`` when there is one) is served as a one-package index on a loopback port for the build's
``TORCH_INDEX_URL``. The base image ``python:3.11-slim-bookworm`` must be pullable or already present
(docs/deployment.md says how it was made here without Docker Hub).

The check: ``run --network none`` (no network at all), then inside the container, bounded to ``--timeout`` seconds:
``id -u`` is 1000; ``GET /`` and ``GET /_stcore/health`` on 127.0.0.1:7860 answer HTTP 200; ``python -m prism docs
--json`` (as the app's user, on its ``PRISM_HOME=/data``, which the seed fills) lists every file of ``data/sample/``
in the Sample workspace. Prints a table; exits 1 when a check fails. The container is removed whatever happened.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import http.server
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE_FILES = sorted(p.name for p in (REPO / "data" / "sample").iterdir() if p.suffix == ".pdf")
PROBE = ("import sys, urllib.request\n"
         "for path in ('/', '/_stcore/health'):\n"
         "    try:\n"
         "        print(path, urllib.request.urlopen('http://127.0.0.1:7860' + path, timeout=5).status)\n"
         "    except OSError as exc:\n"
         "        print(path, 'down', exc)\n")


def find_engine(wanted: str | None) -> tuple[str | None, str]:
    """``(engine, "")`` for the first engine that answers, else ``(None, the reason for each one tried)``."""
    reasons = []
    for name in ([wanted] if wanted else ["docker", "podman"]):
        exe = shutil.which(name)
        if exe is None:
            reasons.append(f"{name}: not installed")
            continue
        try:
            fmt = "{{.ServerVersion}}" if name == "docker" else "{{.Version}}"
            done = subprocess.run([exe, "info", "--format", fmt], capture_output=True, text=True, timeout=30)
        except subprocess.TimeoutExpired:
            reasons.append(f"{name}: '{name} info' did not answer in 30 s")
            continue
        if done.returncode == 0:
            return exe, ""
        reasons.append(f"{name}: {(done.stderr or done.stdout).strip().splitlines()[-1:]}")
    return None, "; ".join(reasons)


@contextlib.contextmanager
def torch_index(wheel: Path | None) -> Iterator[str | None]:
    """A PEP 503 index holding only ``wheel`` on a free loopback port (its ``/simple`` address), or ``None``."""
    if wheel is None:
        yield None
        return
    root = Path(tempfile.mkdtemp(prefix="prism-torch-index-"))
    (root / "simple" / "torch").mkdir(parents=True)
    (root / "simple" / "torch" / wheel.name).symlink_to(wheel)
    (root / "simple" / "torch" / "index.html").write_text(f'<a href="{wheel.name}">{wheel.name}</a>\n')
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/simple"
    finally:
        server.shutdown()
        server.server_close()
        shutil.rmtree(root, ignore_errors=True)


def build(engine: str, image: str, wheel: Path | None, reranker: bool, log: Path) -> float:
    """Build ``image`` from the repository; returns the seconds it took. ``SystemExit`` (with the log's tail) when
    the build fails."""
    with torch_index(wheel) as index, log.open("w") as out:
        cmd = [engine, "build", "--network", "host", "-t", image, "--build-arg",
               f"RERANKER_AT_BUILD={1 if reranker else 0}"]
        if index:
            cmd += ["--build-arg", f"TORCH_INDEX_URL={index}"]
        start = time.monotonic()
        done = subprocess.run([*cmd, str(REPO)], stdout=out, stderr=subprocess.STDOUT, timeout=3600)
    if done.returncode != 0:
        raise SystemExit(f"build failed (exit {done.returncode}); last lines of {log}:\n"
                         + "\n".join(log.read_text(errors="replace").splitlines()[-15:]))
    return time.monotonic() - start


def _exec(engine: str, name: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([engine, "exec", name, *args], capture_output=True, text=True, timeout=timeout)


def check(engine: str, image: str, timeout_s: float) -> list[tuple[str, str, bool]]:
    """Run ``image`` with no network and return ``(check, what was seen, passed)`` rows."""
    name = f"prism-check-{uuid.uuid4().hex[:8]}"
    rows: list[tuple[str, str, bool]] = []
    started = subprocess.run([engine, "run", "-d", "--network", "none", "--name", name, image],
                             capture_output=True, text=True, timeout=120)
    if started.returncode != 0:
        return [("container starts", started.stderr.strip()[-300:], False)]
    try:
        start = time.monotonic()
        seen = ""
        while time.monotonic() - start < timeout_s:
            seen = _exec(engine, name, "python", "-c", PROBE, timeout=30).stdout
            if seen.count(" 200") == 2:
                break
            time.sleep(2)
        rows.append(("serves on 7860 (inside, no network)", f"{' · '.join(seen.split(chr(10)))} after "
                     f"{time.monotonic() - start:.0f} s", seen.count(" 200") == 2))
        uid = _exec(engine, name, "id", "-u").stdout.strip()
        rows.append(("runs as UID 1000", uid, uid == "1000"))
        docs = _exec(engine, name, "python", "-m", "prism", "docs", "--workspace", "Sample workspace", "--json")
        try:
            sources = sorted(d.get("source") or d.get("file") for d in json.loads(docs.stdout))
        except (ValueError, AttributeError):
            sources = [docs.stderr.strip()[-200:]]
        rows.append(("Sample workspace holds data/sample/", ", ".join(sources), sources == SAMPLE_FILES))
        network = _exec(engine, name, "python", "-c", "import socket; print(socket.if_nameindex())").stdout.strip()
        rows.append(("no network interface but loopback", network, "eth" not in network))
    finally:
        logs = subprocess.run([engine, "logs", "--tail", "5", name], capture_output=True, text=True, timeout=30)
        print("container log (last lines):\n" + (logs.stdout + logs.stderr).strip(), file=sys.stderr)
        subprocess.run([engine, "rm", "-f", name], capture_output=True, timeout=60)
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--engine", choices=["docker", "podman"], default=None)
    p.add_argument("--image", default="prism:check")
    p.add_argument("--build", action="store_true", help="build the image first")
    p.add_argument("--reranker", action="store_true", help="fetch the cross-encoder at build time (needs the Hub)")
    wheels = sorted(Path("/opt/wheels").glob("torch-2.13.0+cpu-*.whl")) if Path("/opt/wheels").is_dir() else []
    p.add_argument("--torch-wheel", type=Path, default=wheels[0] if wheels else None)
    p.add_argument("--timeout", type=float, default=240, help="seconds for the app to answer in the container")
    args = p.parse_args()
    engine, reason = find_engine(args.engine)
    if engine is None:
        print(f"SKIPPED: no container engine can run here ({reason})")
        return
    built = ""
    if args.build:
        seconds = build(engine, args.image, args.torch_wheel, args.reranker, Path(tempfile.gettempdir())
                        / "prism-image-build.log")
        built = f", built in {seconds:.0f} s"
    rows = check(engine, args.image, args.timeout)
    print(f"\nImage {args.image} ({Path(engine).name}{built}), {time.strftime('%Y-%m-%d %H:%M')}\n")
    print("| check | seen | ok |\n|---|---|---|")
    for what, seen, ok in rows:
        print(f"| {what} | {seen.replace('|', '/')[:160]} | {'yes' if ok else 'NO'} |")
    if not all(ok for *_, ok in rows):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
