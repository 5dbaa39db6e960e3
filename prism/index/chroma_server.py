"""A Chroma server that never answers fails the call in bounded time, with a message naming it.

chromadb's HTTP client is built with ``httpx.Client(timeout=None)`` (chromadb 1.5.9, ``chromadb/api/fastapi.py``):
a server that accepts the connection and then stays silent holds the caller forever. So, for a server
(``PRISM_CHROMA_HOST``):

- before the client is built (its constructor already sends requests), the server's heartbeat is fetched with
  ``chroma_timeout_s`` (:func:`check_server`);
- the built client's HTTP session gets the same timeout for connecting, sending, each read and waiting for a pooled
  connection (:func:`bound_client`), so every later call ends within it;
- a failure says which server did not answer, within how long, and during what (:func:`failure_message`).

The calls themselves run outside any lock another workspace needs (:mod:`prism.index.open_workspaces`). Nothing here
imports chromadb (that is :mod:`prism.index.vector_store`'s alone).
"""

from __future__ import annotations

import logging
from typing import Any

import httpx

from prism.config import Settings
from prism.errors import StoreError

logger = logging.getLogger(__name__)


def server_name(settings: Settings) -> str:
    """``host:port`` of the configured Chroma server (``""`` for local files)."""
    return f"{settings.chroma_host}:{settings.chroma_port}" if settings.chroma_host else ""


def _base_url(settings: Settings) -> str:
    host = str(settings.chroma_host)
    if "://" in host:
        return host.rstrip("/")
    return f"http://[{host}]:{settings.chroma_port}" if ":" in host else f"http://{host}:{settings.chroma_port}"


def check_server(settings: Settings) -> None:
    """Fetch the server's heartbeat (``GET /api/v2/heartbeat``) within ``chroma_timeout_s``.

    Raises:
        StoreError: it did not answer in time (the message names ``host:port`` and the timeout), could not be
            reached, or answered with an HTTP error.
    """
    where, timeout = server_name(settings), settings.chroma_timeout_s
    try:
        httpx.get(f"{_base_url(settings)}/api/v2/heartbeat", timeout=timeout).raise_for_status()
    except httpx.TimeoutException as exc:
        raise StoreError(silent(where, timeout, "when Prism connected to it")) from exc
    except httpx.HTTPStatusError as exc:
        raise StoreError(f"The Chroma server at {where} answered its heartbeat with HTTP "
                         f"{exc.response.status_code}; check PRISM_CHROMA_HOST and PRISM_CHROMA_PORT.") from exc
    except httpx.HTTPError as exc:
        raise StoreError(f"Could not reach the Chroma server at {where} ({exc}). Check that it is running and that "
                         f"PRISM_CHROMA_HOST and PRISM_CHROMA_PORT name it.") from exc


def bound_client(client: Any, settings: Settings) -> Any:
    """Give a chromadb ``HttpClient``'s HTTP session the timeout ``chroma_timeout_s``; returns ``client``.

    Raises:
        StoreError: the client holds no httpx session where chromadb 1.5.9 keeps it (``client._server._session``):
            a chromadb whose calls could not be bounded is refused rather than used.
    """
    session = getattr(getattr(client, "_server", None), "_session", None)
    if not isinstance(session, httpx.Client):
        raise StoreError("This chromadb version's HTTP client cannot be given a timeout, so a Chroma server that "
                         "hangs would hold Prism forever; install the chromadb version of requirements.lock.")
    session.timeout = httpx.Timeout(settings.chroma_timeout_s)
    return client


def silent(where: str, timeout: float, during: str) -> str:
    """The sentence for a server that did not answer in time."""
    return (f"The Chroma server at {where} did not answer within {timeout:g} s {during}. Check that it is running "
            f"and not overloaded (the wait is PRISM_CHROMA_TIMEOUT_S); other workspaces are not held up.")


def failure_message(exc: BaseException, doing: str, server: str, timeout: float) -> str:
    """What to tell the analyst when a Chroma call ``doing`` (``"Dense search in workspace 'Deals'"``) raised
    ``exc``: for a server that timed out, :func:`silent`; one that refused or dropped the connection, that; else
    ``"<doing> failed: <exc>"``."""
    cause = transport_error(exc)
    if server and isinstance(cause, httpx.TimeoutException):
        return silent(server, timeout, f"({doing})")
    if server and isinstance(cause, httpx.TransportError):
        return f"Could not reach the Chroma server at {server} ({doing}): {cause}. Check that it is running."
    return f"{doing} failed: {exc}"


def transport_error(exc: BaseException) -> BaseException:
    """``exc`` or the first httpx transport error in its cause / context chain (chromadb may wrap one)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, httpx.TransportError):
            return current
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return exc
