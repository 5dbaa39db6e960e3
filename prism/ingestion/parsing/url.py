"""Web pages: fetch with httpx (every hop checked and pinned, redirects followed by hand, time and size capped),
extract the main text.

HTML goes through trafilatura (main content, tables kept); when it finds nothing, a plain tag strip is used.
``text/*`` (and JSON) bodies are decoded as text, ``text/csv`` is parsed as CSV. A PDF (by content type or by its
``%PDF`` header) is handed to the PDF parser and keeps its page numbers (``kind="pdf"``, ``source`` = the URL).

Only public http(s) addresses are fetched unless ``PRISM_URL_ALLOW_PRIVATE`` is set: loopback, private, link-local
(the cloud metadata address) and other non-public targets are refused after DNS resolution and at every redirect
hop, and the checked address is the one connected to (server-side request forgery:
:mod:`prism.ingestion.parsing.egress`).
"""

from __future__ import annotations

import dataclasses
import logging
import re
import time
from html.parser import HTMLParser
from typing import Any

import httpx

from prism.config import Settings
from prism.errors import DecodingError, FetchError, NoExtractableTextError
from prism.ingestion.parsing.egress import (
    ALLOWED_SCHEMES,
    Resolver,
    Target,
    allowed_hosts,
    check_target,
    system_resolve,
)
from prism.ingestion.parsing.hidden import visible_html
from prism.ingestion.parsing.normalize import alnum_count, has_indexable_text, normalize_report
from prism.ingestion.parsing.pdf.read import load_pdf, looks_like_pdf
from prism.ingestion.parsing.text import decode_bytes
from prism.types import Page, ParsedDocument, count_phrase

logger = logging.getLogger(__name__)

USER_AGENT = "Prism/1.0 (document Q&A; +https://example.invalid/prism)"
_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_TEXT_TYPES = frozenset({"application/json", "application/xml", "text/xml"})


@dataclasses.dataclass(frozen=True)
class Fetched:
    """A fetched response body.

    Attributes:
        data: the body after content decoding (gzip etc.), at most ``url_max_bytes`` bytes.
        content_type: media type in lower case without parameters (``""`` when the server sent none).
        charset: the ``charset`` parameter of the Content-Type header, or ``None``.
        final_url: the URL after redirects.
    """

    data: bytes
    content_type: str
    charset: str | None
    final_url: str


def _fail(url: str, reason: str) -> FetchError:
    return FetchError(f"Could not fetch URL: {url} ({reason})")


_REDIRECTS = frozenset({301, 302, 303, 307, 308})


def _hop_target(url: str, settings: Settings, resolve: Resolver) -> tuple[httpx.URL, Target]:
    """Parse one hop's URL and check its destination (:func:`~prism.ingestion.parsing.egress.check_target`)."""
    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, TypeError) as exc:
        raise _fail(url, f"not a valid http(s) address: {exc}") from exc
    if parsed.scheme.lower() in ALLOWED_SCHEMES and not parsed.host:
        raise _fail(url, "not a valid http(s) address: it names no host")
    target = check_target(url, parsed.scheme, parsed.host, parsed.port, allow_private=settings.url_allow_private,
                          allow_hosts=allowed_hosts(settings.url_allow_hosts), resolve=resolve)
    return parsed.copy_with(fragment=None), target


def _send(client: httpx.Client, parsed: httpx.URL, target: Target) -> httpx.Response:
    """Open one hop's response stream on the pinned address: the URL's host is replaced by ``target.address``;
    the Host header and, for https, the TLS server name (SNI and certificate check) keep the URL's host."""
    extensions = {"sni_hostname": target.host} if parsed.scheme == "https" else {}
    request = client.build_request("GET", parsed.copy_with(host=target.address),
                                   headers={"Host": parsed.netloc.decode("ascii")}, extensions=extensions)
    return client.send(request, stream=True)


def _open(client: httpx.Client, url: str, settings: Settings, resolve: Resolver) -> tuple[httpx.Response, str]:
    """Follow redirects by hand, each hop checked and pinned; the final response is open (the caller closes it)
    and comes with its URL as the server was addressed (the host name, not the pinned address)."""
    current = url
    for hop in range(settings.url_max_redirects + 1):
        try:
            parsed, target = _hop_target(current, settings, resolve)
        except FetchError as exc:
            if hop == 0:
                raise
            raise type(exc)(f"{exc}, reached by a redirect from {url}") from exc
        response = _send(client, parsed, target)
        location = response.headers.get("location")
        if response.status_code not in _REDIRECTS or not location:
            return response, str(parsed)
        response.close()
        current = str(parsed.join(location))
        logger.info("redirect %d from %s", response.status_code, parsed.host)
    raise _fail(url, f"too many redirects (more than {settings.url_max_redirects})")


def _read_body(response: httpx.Response, url: str, limit: int, deadline: float, timeout: float) -> bytes:
    if response.status_code >= 400:
        raise _fail(url, f"HTTP {response.status_code} {response.reason_phrase}".strip())
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise _fail(url, f"the page is {int(declared):,} bytes; the limit is {limit:,} bytes")
    body = bytearray()
    for part in response.iter_bytes():
        body += part
        if len(body) > limit:
            raise _fail(url, f"the page is larger than the limit of {limit:,} bytes")
        if time.monotonic() > deadline:
            raise _fail(url, f"timed out after {timeout:g} s")
    return bytes(body)


def fetch(url: str, settings: Settings, resolve: Resolver = system_resolve) -> Fetched:
    """GET ``url`` following redirects by hand, streamed under a size cap and an overall deadline.

    Every hop (the URL and each redirect's target, at most ``url_max_redirects``) is checked before it is
    connected to, and the connection goes to the very address that was checked
    (:mod:`prism.ingestion.parsing.egress`: SSRF, OWASP SSRF Prevention Cheat Sheet). Proxy variables are ignored
    (a proxy would resolve the host again, out of reach of the check).

    Args:
        url: an ``http://`` or ``https://`` address.
        settings: ``url_timeout_s`` (connect/read timeout and overall deadline, seconds), ``url_max_bytes``,
            ``url_max_redirects``, ``url_allow_private`` and ``url_allow_hosts``.
        resolve: ``(host, port) -> addresses`` (the system resolver; tests pass a stub).

    Returns:
        The body and its media type; ``final_url`` is the last hop's URL.

    Raises:
        UnsafeURLError: a hop is not http(s) or its host is (or resolves to) a non-public address.
        FetchError: invalid URL, DNS failure, refused connection, time-out, too many redirects, HTTP status ≥ 400,
            an empty body, or a body larger than ``url_max_bytes``; the message names the URL and the reason.
    """
    timeout = settings.url_timeout_s
    deadline = time.monotonic() + timeout
    t0 = time.perf_counter()
    try:
        with httpx.Client(follow_redirects=False, trust_env=False, timeout=timeout,
                          headers={"User-Agent": USER_AGENT}) as client:
            response, final_url = _open(client, url, settings, resolve)
            try:
                body = _read_body(response, url, settings.url_max_bytes, deadline, timeout)
                content_type = response.headers.get("content-type", "")
            finally:
                response.close()
    except httpx.TimeoutException as exc:
        raise _fail(url, f"timed out after {timeout:g} s") from exc
    except httpx.ConnectError as exc:
        raise _fail(url, f"could not connect: {exc}") from exc
    except (httpx.UnsupportedProtocol, httpx.InvalidURL) as exc:
        raise _fail(url, f"not a valid http(s) address: {exc}") from exc
    except httpx.HTTPError as exc:
        raise _fail(url, f"{type(exc).__name__}: {exc}") from exc
    if not body:
        raise _fail(url, "the server sent an empty page")
    media, _, params = content_type.partition(";")
    charset = None
    for param in params.split(";"):
        key, _, value = param.strip().partition("=")
        if key.lower() == "charset" and value:
            charset = value.strip("\"' ").lower()
    logger.info("fetched %d bytes (%s) in %.2f s", len(body), media.strip() or "no type", time.perf_counter() - t0)
    return Fetched(body, media.strip().lower(), charset, final_url)


class _TagStripper(HTMLParser):
    """Visible text of an HTML page: script/style/template contents skipped, block elements end lines."""

    _SKIP = frozenset({"script", "style", "noscript", "template", "head", "svg"})
    _BLOCK = frozenset(
        {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "table", "ul", "ol"}
    )

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIP:
            self._skipping += 1
        elif tag in self._BLOCK:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIP and self._skipping:
            self._skipping -= 1
        elif tag in self._BLOCK:
            self.parts.append("\n\n" if tag == "p" else "\n")

    def handle_data(self, data: str) -> None:
        if not self._skipping:
            self.parts.append(data)


def strip_tags(html: str) -> str:
    """Visible text of ``html`` without tags (fallback when trafilatura extracts nothing)."""
    parser = _TagStripper()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def _decode(fetched: Fetched, url: str) -> str:
    if fetched.charset:
        try:
            return fetched.data.decode(fetched.charset)
        except (UnicodeDecodeError, LookupError):
            logger.warning("declared charset %r does not fit the page; detecting", fetched.charset)
    try:
        return decode_bytes(fetched.data, url)[0]
    except DecodingError as exc:
        raise _fail(url, "the page's text encoding could not be decoded") from exc


_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$", re.MULTILINE)
"""A table row as trafilatura writes it (``| a | b |``)."""


def _short_page_config() -> Any:
    """trafilatura's configuration with its minimum sizes lowered to 1 character: a short page (one table and a
    note) is then read as its main extraction, tables as ``| a | b |`` rows, instead of trafilatura's fallback,
    which writes each table cell on a line of its own."""
    from trafilatura.settings import use_config

    config = use_config()
    for key in ("MIN_EXTRACTED_SIZE", "MIN_OUTPUT_SIZE", "MIN_EXTRACTED_COMM_SIZE", "MIN_OUTPUT_COMM_SIZE"):
        config.set("DEFAULT", key, "1")
    return config


def html_to_text(html: str, url: str) -> str:
    """Main text of an HTML page: trafilatura (tables kept, comments dropped), else :func:`strip_tags`. A page
    with a ``<table>`` that comes back without table rows (trafilatura fell back on a page shorter than its minimum
    size) is extracted again with the minimum lowered (:func:`_short_page_config`); that text is kept when it has
    table rows and at least 90 % of the first one's letters and digits."""
    import trafilatura

    options: dict[str, Any] = dict(url=url, include_tables=True, include_comments=False, favor_recall=True,
                                   with_metadata=False)
    text = trafilatura.extract(html, **options)
    if text and "<table" in html.lower() and not _TABLE_ROW.search(text):
        short = trafilatura.extract(html, config=_short_page_config(), **options)
        if short and _TABLE_ROW.search(short) and alnum_count(short) >= 0.9 * alnum_count(text):
            text = short
    if text and has_indexable_text(text):
        return text
    logger.info("trafilatura found no main text; using a plain tag strip")
    return strip_tags(html)


def parse_fetched(fetched: Fetched, url: str, settings: Settings) -> ParsedDocument:
    """Turn a fetched body into a :class:`ParsedDocument` (``source`` = ``url``).

    Returns:
        ``kind="pdf"`` with pages for a PDF body; ``kind="url"`` with one ``Page(number=None)`` otherwise.

    Raises:
        FetchError: the content type is not HTML, text or PDF, or the text cannot be decoded.
        NoExtractableTextError: the page holds no letters or digits.
        CorruptDocumentError, EncryptedDocumentError: from the PDF parser for a PDF body.
    """
    media = fetched.content_type
    data = fetched.data
    if media == "application/pdf" or looks_like_pdf(data):
        return load_pdf(data, url, settings)
    if media == "text/csv":
        from prism.ingestion.parsing.csv import load_csv

        return dataclasses.replace(load_csv(data, url, settings), kind="url")
    head = data[:512].lstrip().lower()
    is_html = media in _HTML_TYPES or (
        media in ("", "application/octet-stream", "text/plain") and head.startswith((b"<!doctype html", b"<html"))
    )
    if is_html:
        raw = html_to_text(visible_html(_decode(fetched, url)), url)
    elif media.startswith("text/") or media in _TEXT_TYPES or media == "":
        raw = _decode(fetched, url)
    else:
        raise _fail(url, f"its content type {media} is not a web page, text or PDF")
    report = normalize_report(raw)
    if not has_indexable_text(report.text):
        raise NoExtractableTextError(f"{url} has no extractable text")
    warnings: tuple[str, ...] = ()
    if report.replacement_chars:
        warnings = (f"{url}: {count_phrase(report.replacement_chars, 'unreadable character')} (U+FFFD) "
                    f"{'was' if report.replacement_chars == 1 else 'were'} removed",)
    return ParsedDocument(source=url, kind="url", pages=(Page(None, report.text),), warnings=warnings)


def load_url_with_bytes(url: str, settings: Settings) -> tuple[ParsedDocument, bytes]:
    """Fetch and parse ``url``; also return the fetched bytes (the ingest pipeline hashes them for the doc id).

    Raises:
        FetchError, NoExtractableTextError, CorruptDocumentError, EncryptedDocumentError: see :func:`fetch` and
            :func:`parse_fetched`.
    """
    url = url.strip()
    fetched = fetch(url, settings)
    return parse_fetched(fetched, url, settings), fetched.data


def load_url(url: str, settings: Settings) -> ParsedDocument:
    """Fetch and parse ``url`` (see :func:`load_url_with_bytes`)."""
    return load_url_with_bytes(url, settings)[0]
