"""URL ingest refuses non-public targets (case c64, SSRF): the address rules, DNS pinning, every redirect hop.

Only 127.0.0.1 is ever connected to: a local http.server serves the c64 admin page; names that should look public
are mapped to 127.0.0.1 by a resolver stub, and the checks that need a public answer run without any connection.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from prism.config import Settings
from prism.errors import FetchError, UnsafeURLError
from prism.ingestion import parsing
from prism.ingestion.parsing.egress import check_target, literal_address, refusal
from prism.ingestion.parsing.url import fetch
from prism.types import IngestItem
from tests.conftest import CASES, offline_service

ADMIN = (CASES / "c64_internal" / "admin.html").read_bytes()
CANARY = "INTERNAL-CANARY-93XT-TOKEN"
HINT = "set PRISM_URL_ALLOW_PRIVATE=true for local use"


class _Handler(BaseHTTPRequestHandler):
    seen: list[tuple[str, str]] = []  # (path, Host header) of every request served

    def log_message(self, *args):
        pass

    def do_GET(self):  # noqa: N802 (http.server's name)
        type(self).seen.append((self.path, self.headers.get("Host", "")))
        if self.path.startswith("/go?to="):
            self.send_response(302)
            self.send_header("Location", self.path.removeprefix("/go?to="))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body, status = (ADMIN, 200) if self.path == "/admin.html" else (b"not found", 404)
        self.send_response(status)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def port():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(autouse=True)
def _fresh_log(monkeypatch):
    _Handler.seen = []
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(key, raising=False)


def stub(table: dict[str, list[str]], calls: list[str] | None = None):
    """A resolver answering from ``table`` (unknown names fail like the system resolver), recording each call."""
    def resolve(host: str, port: int) -> list[str]:
        if calls is not None:
            calls.append(host)
        if host not in table:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return table[host]
    return resolve


# --- the address rules -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("address", "reason"), [
    ("127.0.0.1", "a loopback address"),
    ("127.45.6.7", "a loopback address"),
    ("::1", "a loopback address"),
    ("0.0.0.0", "the unspecified address"),
    ("::", "the unspecified address"),
    ("10.1.2.3", "a private address (RFC 1918)"),
    ("172.31.255.255", "a private address (RFC 1918)"),
    ("192.168.0.10", "a private address (RFC 1918)"),
    ("169.254.169.254", "the cloud metadata address (link-local)"),
    ("169.254.10.1", "a link-local address"),
    ("fe80::1", "a link-local address"),
    ("fc00::1", "a unique-local address (RFC 4193)"),
    ("fd12:3456::1", "a unique-local address (RFC 4193)"),
    ("100.64.0.1", "a carrier-grade NAT address (RFC 6598)"),
    ("224.0.0.251", "a multicast address"),
    ("ff02::1", "a multicast address"),
    ("240.0.0.1", "a reserved, non-public address"),
    ("255.255.255.255", "a reserved, non-public address"),
    ("192.0.2.7", "a reserved, non-public address"),
    ("fec0::1", "a site-local address"),
    ("::ffff:127.0.0.1", "a loopback address (127.0.0.1)"),
    ("::ffff:169.254.169.254", "the cloud metadata address (link-local) (169.254.169.254)"),
    ("2002:c0a8:0101::1", "a private address (RFC 1918) (192.168.1.1)"),
    ("64:ff9b::a00:1", "a private address (RFC 1918) (10.0.0.1)"),
])
def test_refused_addresses(address, reason):
    assert refusal(ipaddress.ip_address(address)) == reason


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:93.184.216.34"])
def test_public_addresses_pass(address):
    assert refusal(ipaddress.ip_address(address)) is None


@pytest.mark.parametrize("host", ["2130706433", "0x7f000001", "017700000001", "0x7f.1", "127.1", "127.0.0.1."])
def test_numeric_hosts_are_read_as_the_resolver_reads_them(host):
    assert literal_address(host) == ipaddress.IPv4Address("127.0.0.1")
    with pytest.raises(UnsafeURLError, match=rf"refused: {host} is a loopback address; {HINT}"):
        check_target(f"http://{host}/", "http", host, None, allow_private=False, resolve=stub({}))


def test_names_and_bad_numbers():
    assert literal_address("intranet.example.com") is None
    assert literal_address("[::ffff:10.0.0.1]") == ipaddress.ip_address("::ffff:10.0.0.1")
    with pytest.raises(FetchError, match=r"999999999999 is neither a host name nor a valid address"):
        literal_address("999999999999")


def test_every_resolved_address_is_checked():
    """A name is judged by everything it resolves to: one private answer among public ones refuses it; the
    address pinned is the first one checked. (No connection is made here.)"""
    resolve = stub({"docs.example.com": ["93.184.216.34", "2606:2800:220:1::1"],
                    "mixed.example.com": ["93.184.216.34", "10.0.0.5"],
                    "meta.example.com": ["169.254.169.254"]})
    target = check_target("https://docs.example.com/a", "https", "Docs.Example.com", None, allow_private=False,
                          resolve=resolve)
    assert (target.host, target.port, target.address) == ("docs.example.com", 443, "93.184.216.34")
    with pytest.raises(UnsafeURLError, match=r"^Could not fetch URL: http://mixed\.example\.com/ \(refused: "
                                             r"mixed\.example\.com resolves to 10\.0\.0\.5, a private address"):
        check_target("http://mixed.example.com/", "http", "mixed.example.com", None, allow_private=False,
                     resolve=resolve)
    with pytest.raises(UnsafeURLError, match=r"resolves to 169\.254\.169\.254, the cloud metadata address"):
        check_target("http://meta.example.com/", "http", "meta.example.com", 80, allow_private=False,
                     resolve=resolve)
    allowed = check_target("http://meta.example.com/", "http", "meta.example.com", 8080, allow_private=True,
                           resolve=resolve)
    assert (allowed.address, allowed.port) == ("169.254.169.254", 8080)
    with pytest.raises(FetchError, match=r"the host nowhere\.test could not be resolved"):
        check_target("http://nowhere.test/", "http", "nowhere.test", None, allow_private=True, resolve=resolve)


@pytest.mark.parametrize("url", ["file:///etc/passwd", "gopher://127.0.0.1:6379/_INFO", "ftp://example.com/x"])
def test_other_schemes_are_refused_even_when_private_is_allowed(url):
    with pytest.raises(UnsafeURLError, match=r"refused: only http and https addresses are fetched"):
        fetch(url, Settings(url_allow_private=True))


# --- against the loopback server -------------------------------------------------------------------------------
def test_loopback_refused_by_default_and_nothing_is_sent(port):
    url = f"http://127.0.0.1:{port}/admin.html"
    with pytest.raises(UnsafeURLError) as info:
        parsing.load(url, settings=Settings(ocr_enabled=False))
    assert str(info.value) == f"Could not fetch URL: {url} (refused: 127.0.0.1 is a loopback address; {HINT})"
    for host in ("localhost", "2130706433", "[::ffff:127.0.0.1]", "0x7f.1"):
        with pytest.raises(UnsafeURLError, match=r"loopback address"):
            parsing.load(f"http://{host}:{port}/admin.html", settings=Settings(ocr_enabled=False))
    assert _Handler.seen == []
    allowed = parsing.load(url, settings=Settings(ocr_enabled=False, url_allow_private=True))
    assert CANARY in allowed.pages[0].text and _Handler.seen == [("/admin.html", f"127.0.0.1:{port}")]


def test_service_ingest_refuses_and_the_secret_is_not_searchable(port, tmp_path, embedder):
    url = f"http://127.0.0.1:{port}/admin.html"
    shared = offline_service(tmp_path / "shared", embedder)
    [result] = shared.ingest([IngestItem(url)], "ops", briefing=False)
    assert (result.status, result.chunks) == ("failed", 0)
    assert result.error == f"Could not fetch URL: {url} (refused: 127.0.0.1 is a loopback address; {HINT})"
    assert all(CANARY not in r.text for r in shared.search(CANARY, "ops").results)
    assert _Handler.seen == []
    local = offline_service(tmp_path / "local", embedder, url_allow_private=True)
    [ok] = local.ingest([IngestItem(url)], "ops", briefing=False)
    assert ok.status == "ingested" and ok.chunks >= 1
    assert CANARY in local.search(CANARY, "ops").results[0].text


def test_the_checked_address_is_the_one_connected_to(port):
    """DNS rebinding: the name is resolved once per hop, by the check, and the connection goes to that address;
    the system resolver (which knows no ``.test`` name) is never asked, and the server still sees the name."""
    calls: list[str] = []
    answers = iter([["127.0.0.1"], ["10.9.9.9"]])  # a second lookup would get another address

    def rebinding(host: str, port_: int) -> list[str]:
        calls.append(host)
        return next(answers)

    got = fetch(f"http://intranet.rebind.test:{port}/admin.html", Settings(url_allow_private=True), rebinding)
    assert CANARY.encode() in got.data and calls == ["intranet.rebind.test"]
    assert got.final_url == f"http://intranet.rebind.test:{port}/admin.html"
    assert _Handler.seen == [("/admin.html", f"intranet.rebind.test:{port}")]


def test_every_redirect_hop_is_checked(port):
    """An allowed host redirects to a host that is not allowed: the first hop is served, the second is refused
    before any connection. Both names resolve to 127.0.0.1 (stub); only the first is in PRISM_URL_ALLOW_HOSTS."""
    calls: list[str] = []
    resolve = stub({"docs.intranet.test": ["127.0.0.1"], "admin.intranet.test": ["127.0.0.1"]}, calls)
    settings = Settings(url_allow_hosts="Docs.Intranet.test, other.test")
    start = f"http://docs.intranet.test:{port}/go?to=http://admin.intranet.test:{port}/admin.html"
    with pytest.raises(UnsafeURLError) as info:
        fetch(start, settings, resolve)
    assert str(info.value) == (
        f"Could not fetch URL: http://admin.intranet.test:{port}/admin.html (refused: admin.intranet.test resolves "
        f"to 127.0.0.1, a loopback address; {HINT}), reached by a redirect from {start}")
    assert calls == ["docs.intranet.test", "admin.intranet.test"]
    assert [path for path, _ in _Handler.seen] == [f"/go?to=http://admin.intranet.test:{port}/admin.html"]
    for target in (f"http://127.0.0.1:{port}/admin.html", f"http://2130706433:{port}/admin.html", "/admin.html"):
        _Handler.seen = []
        hop = f"http://docs.intranet.test:{port}/go?to={target}"
        if target.startswith("/"):  # a relative redirect stays on the allowed host and is followed
            assert CANARY.encode() in fetch(hop, settings, resolve).data
            assert [p for p, _ in _Handler.seen] == [f"/go?to={target}", "/admin.html"]
        else:
            with pytest.raises(UnsafeURLError, match=r"loopback address.*reached by a redirect from"):
                fetch(hop, settings, resolve)
            assert len(_Handler.seen) == 1


def test_redirects_are_bounded_and_never_leave_http(port):
    local = Settings(url_allow_private=True, url_max_redirects=2)
    loop = f"http://127.0.0.1:{port}/go?to=/go?to=/go?to=/admin.html"
    with pytest.raises(FetchError, match=r"too many redirects \(more than 2\)"):
        fetch(loop, local)
    assert len(_Handler.seen) == 3
    with pytest.raises(UnsafeURLError, match=r"only http and https .* not file\), reached by a redirect"):
        fetch(f"http://127.0.0.1:{port}/go?to=file:///etc/passwd", local)
