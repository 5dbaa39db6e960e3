"""A Chroma server that accepts connections and never answers (issue 41 B, case 74): every call ends within
``chroma_timeout_s`` with a message naming the server, in-process and through the CLI, and a workspace whose requests
hang holds no other workspace. Real sockets on 127.0.0.1 only: a listener that reads and never replies, and a real
``chroma run`` server behind a proxy that holds one collection's requests. A hang detector (a thread joined with a
generous bound) keeps a regression from hanging the suite; no speed is asserted."""

from __future__ import annotations

import json
import os
import select
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from prism.config import Settings
from prism.errors import PrismError, StoreError
from prism.index.chroma_server import bound_client, failure_message
from prism.service import PrismService
from prism.types import IngestItem
from tests.conftest import REPO

HANG_BOUND_S = 60
"""Longest a call may take before the test calls it hung (the timeouts under test are 1-3 s)."""


class Silent:
    """A listener on 127.0.0.1 that accepts every connection and reads what comes, never replying."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.conns: list[socket.socket] = []
        self.stopped = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            threading.Thread(target=self._drain, args=(conn,), daemon=True).start()

    @staticmethod
    def _drain(conn: socket.socket) -> None:
        try:
            while conn.recv(65536):
                pass
        except OSError:
            pass

    def close(self) -> None:
        self.stopped = True
        for c in self.conns:
            c.close()
        self.sock.close()


@pytest.fixture
def silent() -> Iterator[Silent]:
    server = Silent()
    try:
        yield server
    finally:
        server.close()


def within(call: Callable[[], object]) -> tuple[object, BaseException | None]:
    """Run ``call`` on a thread: ``(result, exception)``; fails the test when it has not returned after
    :data:`HANG_BOUND_S`."""
    box: dict[str, object] = {}

    def run() -> None:
        try:
            box["result"] = call()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box["error"] = exc

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(HANG_BOUND_S)
    assert not t.is_alive(), f"still waiting after {HANG_BOUND_S} s"
    return box.get("result"), box.get("error")  # type: ignore[return-value]


# --- a server that never answers --------------------------------------------------------------------------------
def test_a_silent_server_fails_search_and_ask_with_its_name(tmp_path, silent):
    svc = PrismService(Settings(home=tmp_path, chroma_host="127.0.0.1", chroma_port=silent.port,
                                chroma_timeout_s=1.0))
    svc.create_workspace("Deals")
    for call in (lambda: svc.search("settlement cut-off", "Deals"), lambda: svc.ask("What is the cut-off?", "Deals"),
                 lambda: svc.ingest([IngestItem(b"The cut-off is 17:00.", "note.txt")], "Deals")):
        _, error = within(call)
        assert isinstance(error, StoreError)
        assert str(error) == (f"The Chroma server at 127.0.0.1:{silent.port} did not answer within 1 s when Prism "
                              "connected to it. Check that it is running and not overloaded (the wait is "
                              "PRISM_CHROMA_TIMEOUT_S); other workspaces are not held up.")
    assert silent.conns  # it was really asked


def test_every_call_of_a_built_client_is_bounded(tmp_path, silent):
    """A client built while the server answered, then the server falls silent: its own calls time out too."""
    import chromadb

    client = chromadb.EphemeralClient()  # no HTTP session: refused, never used unbounded
    with pytest.raises(StoreError, match="cannot be given a timeout"):
        bound_client(client, Settings(home=tmp_path))
    session = httpx.Client(timeout=None)
    holder = type("Client", (), {"_server": type("Server", (), {"_session": session})()})()
    bound_client(holder, Settings(home=tmp_path, chroma_timeout_s=1.5))
    _, error = within(lambda: session.get(f"http://127.0.0.1:{silent.port}/api/v2/collections"))
    assert isinstance(error, httpx.ReadTimeout)
    wrapped = ValueError("Could not connect")
    wrapped.__context__ = error
    assert failure_message(wrapped, "Dense search of workspace 'Deals'", f"127.0.0.1:{silent.port}", 1.5) == (
        f"The Chroma server at 127.0.0.1:{silent.port} did not answer within 1.5 s (Dense search of workspace "
        "'Deals'). Check that it is running and not overloaded (the wait is PRISM_CHROMA_TIMEOUT_S); other "
        "workspaces are not held up.")
    assert failure_message(ValueError("bad id"), "Reading chunks of workspace 'Deals'", "h:1", 1.5) == \
        "Reading chunks of workspace 'Deals' failed: bad id"


@pytest.mark.slow
def test_the_cli_reports_a_silent_server_and_exits_1(tmp_path, silent):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GROQ", "TAVILY"))}
    env.update(PRISM_HOME=str(tmp_path / "home"), PRISM_CHROMA_HOST="127.0.0.1", PRISM_CHROMA_PORT=str(silent.port),
               PRISM_CHROMA_TIMEOUT_S="2", HF_HUB_OFFLINE="1")
    run = [sys.executable, "-m", "prism"]
    created = subprocess.run([*run, "workspaces", "create", "w", "--json"], env=env, cwd=REPO, capture_output=True,
                             text=True, timeout=HANG_BOUND_S)
    assert created.returncode == 0, created.stderr
    asked = subprocess.run([*run, "ask", "What is the cut-off?", "--workspace", "w", "--json"], env=env, cwd=REPO,
                           capture_output=True, text=True, timeout=HANG_BOUND_S)
    assert asked.returncode == 1
    assert json.loads(asked.stdout)["error"].startswith(
        f"The Chroma server at 127.0.0.1:{silent.port} did not answer within 2 s")
    assert "Traceback" not in asked.stderr


# --- one workspace's requests hang, another's do not ------------------------------------------------------------
class HoldingProxy:
    """Forwards 127.0.0.1:port to ``upstream``; once ``hold`` names byte strings, a connection whose request holds
    one of them is held open with no reply from then on."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.hold: list[bytes] = []
        self.held = 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.stopped = False
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stopped:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._pipe, args=(conn,), daemon=True).start()

    def _pipe(self, client: socket.socket) -> None:
        up = socket.create_connection(("127.0.0.1", self.upstream), timeout=10)
        up.settimeout(None)
        holding = False
        try:
            while not self.stopped:
                ready, _, _ = select.select([client, up], [], [], 0.5)
                for s in ready:
                    data = s.recv(65536)
                    if not data:
                        return
                    if s is client and not holding and any(m in data for m in self.hold):
                        holding = True
                        self.held += 1
                    if not holding:
                        (up if s is client else client).sendall(data)
        except OSError:
            pass
        finally:
            client.close()
            up.close()

    def close(self) -> None:
        self.stopped = True
        self.sock.close()


@pytest.fixture(scope="module")
def chroma_server(tmp_path_factory) -> Iterator[int]:
    """A real ``chroma run`` server on a free loopback port (its own folder); stopped by its process id."""
    chroma = Path(sys.executable).with_name("chroma")
    if not chroma.exists() and shutil.which("chroma") is None:
        pytest.skip("the chroma command (chromadb's server) is not installed")
    root = tmp_path_factory.mktemp("chroma-server")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = (root / "server.log").open("w")
    proc = subprocess.Popen([str(chroma if chroma.exists() else "chroma"), "run", "--path", str(root / "data"),
                             "--host", "127.0.0.1", "--port", str(port)], stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=2).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("chroma run did not start: " + (root / "server.log").read_text()[-2000:])
                time.sleep(0.3)
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.mark.slow
def test_a_workspace_whose_requests_hang_holds_no_other(tmp_path, chroma_server, embedder):
    proxy = HoldingProxy(chroma_server)
    try:
        svc = PrismService(Settings(home=tmp_path, chroma_host="127.0.0.1", chroma_port=proxy.port,
                                    chroma_timeout_s=3.0), embedder=embedder)
        for ws, text in (("alpha", b"Alpha circular: the settlement cut-off for UPI cycle 10 is 17:00 IST."),
                         ("beta", b"Beta circular: auto-reversal of a failed UPI credit is due by T+1.")):
            assert [r.status for r in svc.ingest([IngestItem(text, f"{ws}.txt")], ws, briefing=False)] == ["ingested"]
        fresh = PrismService(svc.settings, embedder=embedder)  # a new process's service: nothing open yet
        assert fresh.search("auto-reversal", "beta").results  # beta is open
        proxy.hold = [svc.find_workspace("alpha").collection.encode()]
        done: dict[str, float] = {}
        alpha: dict[str, BaseException | None] = {}

        def ask_alpha() -> None:
            _, alpha["error"] = within(lambda: fresh.search("settlement cut-off", "alpha"))
            done["alpha"] = time.monotonic()

        t = threading.Thread(target=ask_alpha, daemon=True)
        t.start()
        time.sleep(0.5)  # alpha is now opening, its collection request held
        beta, error = within(lambda: fresh.search("auto-reversal of a failed credit", "beta"))
        done["beta"] = time.monotonic()
        t.join(HANG_BOUND_S)
        assert error is None and [h.source for h in beta.results][:1] == ["beta.txt"]
        assert done["beta"] < done["alpha"]  # beta answered while alpha still waited
        assert isinstance(alpha["error"], PrismError)
        assert f"The Chroma server at 127.0.0.1:{proxy.port} did not answer within 3 s" in str(alpha["error"])
        assert "workspace 'alpha'" in str(alpha["error"]) and proxy.held >= 1
    finally:
        proxy.close()
