"""Web pages (prism.ingestion.parsing.url) from a local HTTP server: HTML main text, text/CSV/PDF, errors."""

from __future__ import annotations

import re
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from prism.config import Settings
from prism.errors import (
    FetchError,
    NoExtractableTextError,
)
from prism.ingestion import parsing
from prism.ingestion.parsing.normalize import normalize_text
from prism.ingestion.parsing.url import strip_tags
from tests.conftest import CASES, DATA

RBI = DATA / "rbi" / "pdfs"

LOCAL = {"url_allow_private": True}
"""The test server listens on 127.0.0.1, which URL ingest refuses unless PRISM_URL_ALLOW_PRIVATE is set."""
NO_OCR = Settings(ocr_enabled=False, **LOCAL)


# --- URLs ----------------------------------------------------------------------------------------------------------

ARTICLE = """<!doctype html><html><head><title>RBI keeps repo rate</title><style>p{color:red}</style>
<script>var tracking = "do not index";</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>RBI keeps repo rate unchanged at 6.50 per cent</h1>
<p>The Monetary Policy Committee of the Reserve Bank of India voted to keep the policy repo rate unchanged at
6.50 per cent, citing persistent food inflation and steady growth in the current financial year.</p>
<p>The standing deposit facility rate remains at 6.25 per cent and the marginal standing facility rate and the
Bank Rate at 6.75 per cent. The committee will meet again in the second week of the next quarter.</p>
</article><footer>Copyright 2024 Example News</footer></body></html>"""


class _Handler(BaseHTTPRequestHandler):
    pdf_bytes = b""

    def log_message(self, *args):  # keep test output quiet
        pass

    def _send(self, status: int, body: bytes, content_type: str | None) -> None:
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (time-out test)
            pass

    def do_GET(self):  # noqa: N802 (http.server's name)
        routes = {
            "/article.html": (200, ARTICLE.encode("utf-8"), "text/html; charset=utf-8"),
            "/notes.txt": (200, "Fee ₹1,250 per quarter.".encode(), "text/plain; charset=utf-8"),
            "/latin.txt": (200, "Café fee €4".encode("cp1252"), "text/plain; charset=windows-1252"),
            "/rates.csv": (200, b"bank,rate\nSBI,6.5%\n", "text/csv"),
            "/doc.pdf": (200, self.pdf_bytes, "application/pdf"),
            "/untyped-pdf": (200, self.pdf_bytes, None),
            "/image.png": (200, b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "image/png"),
            "/blank.html": (200, b"<html><body><script>x=1</script>  </body></html>", "text/html"),
            "/empty": (200, b"", "text/plain"),
            "/big.txt": (200, b"a" * 5000, "text/plain"),
        }
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/notes.txt")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path == "/slow":
            time.sleep(2.0)
        status, body, content_type = routes.get(self.path, (404, b"not found", "text/plain"))
        self._send(status, body, content_type)


@pytest.fixture(scope="module")
def server():
    _Handler.pdf_bytes = (CASES / "33_a_three_pages.pdf").read_bytes()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(autouse=True)
def _no_proxies(monkeypatch):
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(key, raising=False)


def test_url_html_main_text(server):
    url = f"{server}/article.html"
    doc = parsing.load(url, settings=NO_OCR)
    assert (doc.source, doc.kind, doc.total_pages, doc.paged) == (url, "url", 0, False)
    assert len(doc.pages) == 1 and doc.pages[0].number is None
    text = doc.pages[0].text
    assert "keep the policy repo rate unchanged at 6.50 per cent" in text
    assert "Bank Rate at 6.75 per cent" in text
    assert "<p>" not in text and "tracking" not in text and "color:red" not in text


def test_url_text_csv_redirect_and_bytes(server):
    assert parsing.load(f"{server}/notes.txt", settings=NO_OCR).pages[0].text == "Fee ₹1,250 per quarter."
    assert parsing.load(f"{server}/latin.txt", settings=NO_OCR).pages[0].text == "Café fee €4"
    redirected = parsing.load(f"{server}/redirect", settings=NO_OCR)
    assert redirected.source == f"{server}/redirect"
    assert redirected.pages[0].text == "Fee ₹1,250 per quarter."
    csv_doc = parsing.load(f"{server}/rates.csv", settings=NO_OCR)
    assert (csv_doc.kind, csv_doc.pages[0].text) == ("url", "bank: SBI; rate: 6.5%")
    doc, data = parsing.load_url_with_bytes(f"{server}/notes.txt", NO_OCR)
    assert data == "Fee ₹1,250 per quarter.".encode()
    assert doc.source == f"{server}/notes.txt"


@pytest.mark.parametrize("path", ["/doc.pdf", "/untyped-pdf"])
def test_url_pdf_keeps_pages(server, path):
    doc = parsing.load(f"{server}{path}", settings=NO_OCR)
    assert (doc.kind, doc.source, doc.total_pages) == ("pdf", f"{server}{path}", 3)
    assert [p.number for p in doc.pages] == [1, 2, 3]


def test_url_errors(server):
    with pytest.raises(FetchError, match=r"^Could not fetch URL: .*/missing \(HTTP 404 Not Found\)$"):
        parsing.load(f"{server}/missing", settings=NO_OCR)
    with pytest.raises(FetchError, match=r"content type image/png is not a web page, text or PDF"):
        parsing.load(f"{server}/image.png", settings=NO_OCR)
    with pytest.raises(FetchError, match=r"the server sent an empty page"):
        parsing.load(f"{server}/empty", settings=NO_OCR)
    with pytest.raises(FetchError, match=r"the page is 5,000 bytes; the limit is 1,024 bytes"):
        parsing.load(f"{server}/big.txt", settings=Settings(url_max_bytes=1024, ocr_enabled=False, **LOCAL))
    with pytest.raises(NoExtractableTextError, match=r"blank\.html has no extractable text"):
        parsing.load(f"{server}/blank.html", settings=NO_OCR)


def test_url_timeout(server):
    t0 = time.perf_counter()
    with pytest.raises(FetchError, match=r"^Could not fetch URL: .*/slow \(timed out after 0\.3 s\)$"):
        parsing.load(f"{server}/slow", settings=Settings(url_timeout_s=0.3, ocr_enabled=False, **LOCAL))
    assert time.perf_counter() - t0 < 1.5


def test_url_connection_refused():
    with socket.socket() as sock:  # a free loopback port that nothing listens on once closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/report.html"
    with pytest.raises(FetchError, match=rf"^Could not fetch URL: {re.escape(url)} \(could not connect"):
        parsing.load(url, settings=Settings(url_timeout_s=2, ocr_enabled=False, **LOCAL))


def test_strip_tags_fallback():
    html = "<html><head><title>t</title></head><body><p>Rate: 6.5%</p><script>x()</script><td>SBI</td></body></html>"
    assert normalize_text(strip_tags(html)) == "Rate: 6.5%\n\nSBI"
