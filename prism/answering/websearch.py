"""Web search through Tavily: a few trimmed results shown to the LLM as web blocks ``[W1]..``.

Runs only when a Tavily key is set and the analyst turned web search on; the answer pipeline runs it concurrently
with retrieval. It never raises: any failure (bad key, quota, timeout, network, malformed reply) gives no web
results and a warning for the answer's message. Results are labelled web sources and never mixed into document
citations.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import requests
from tavily import TavilyClient
from tavily import errors as tavily_errors

from prism.config import Settings
from prism.types import WebResult

logger = logging.getLogger(__name__)

NO_KEY_REASON = "no Tavily API key configured (set TAVILY_API_KEY)"

_TAVILY_ERRORS: tuple[type[BaseException], ...] = (
    tavily_errors.UsageLimitExceededError,
    tavily_errors.InvalidAPIKeyError,
    tavily_errors.ForbiddenError,
    tavily_errors.BadRequestError,
    tavily_errors.TimeoutError,
    tavily_errors.MissingAPIKeyError,
    requests.RequestException,
    json.JSONDecodeError,
)


@dataclass
class WebSearchOutcome:
    """Web results (``n`` = 1..m) or none, with a warning when the search failed."""

    results: list[WebResult] = field(default_factory=list)
    warning: str | None = None
    elapsed_ms: float = 0.0


def trim(text: str, max_chars: int) -> str:
    """``text`` with whitespace collapsed, cut to at most ``max_chars`` at a word boundary (``…`` marks a cut)."""
    text = " ".join(text.split())
    if len(text) <= max_chars:
        return text
    cut = text[: max_chars - 1]
    if " " in cut[max_chars // 2 :]:
        cut = cut.rsplit(" ", 1)[0]
    return cut + "…"


def _warning_for(exc: BaseException) -> str:
    if isinstance(exc, tavily_errors.InvalidAPIKeyError | tavily_errors.MissingAPIKeyError):
        return "Web search is off for this answer: Tavily rejected the API key (check TAVILY_API_KEY)."
    if isinstance(exc, tavily_errors.UsageLimitExceededError):
        return "Web search is off for this answer: the Tavily usage limit is reached (HTTP 429); try again later."
    if isinstance(exc, tavily_errors.ForbiddenError):
        return "Web search is off for this answer: Tavily refused the request (plan or permissions)."
    if isinstance(exc, tavily_errors.TimeoutError | requests.Timeout):
        return "Web search is off for this answer: Tavily did not answer in time."
    if isinstance(exc, requests.ConnectionError):
        return "Web search is off for this answer: Tavily could not be reached (network)."
    return f"Web search is off for this answer: the Tavily request failed ({type(exc).__name__})."


class WebSearcher:
    """Tavily search with Prism's limits.

    Args:
        api_key: the Tavily key (never logged).
        depth: ``basic`` or ``advanced`` search depth.
        max_results: results kept.
        max_chars: characters kept of each result's content.
        timeout_s: request timeout, seconds.
        session: a ``requests.Session`` for the Tavily client (tests mount an HTTP-level fake on it).
    """

    def __init__(
        self,
        api_key: str,
        *,
        depth: str = "advanced",
        max_results: int = 2,
        max_chars: int = 800,
        timeout_s: float = 20.0,
        session: requests.Session | None = None,
    ):
        if not api_key.strip():
            raise ValueError("a Tavily API key is required")
        if max_results < 1 or max_chars < 1:
            raise ValueError("max_results and max_chars must be positive")
        self.depth = depth
        self.max_results = max_results
        self.max_chars = max_chars
        self.timeout_s = timeout_s
        self._client = TavilyClient(api_key=api_key.strip(), session=session)

    @classmethod
    def from_settings(cls, settings: Settings, session: requests.Session | None = None) -> WebSearcher | None:
        """The configured searcher, or ``None`` when no Tavily key is set."""
        key = settings.tavily_api_key.get_secret_value() if settings.tavily_api_key is not None else ""
        if not key.strip():
            return None
        return cls(key, depth=settings.web_search_depth, max_results=settings.web_max_results,
                   max_chars=settings.web_max_chars, timeout_s=settings.web_timeout_s, session=session)

    def search(self, query: str) -> WebSearchOutcome:
        """Search the web for ``query``; never raises.

        Returns:
            Up to ``max_results`` results with non-empty content, numbered from 1 in Tavily's order, each content
            trimmed to ``max_chars``; or no results and a warning.
        """
        t0 = time.perf_counter()
        if not query.strip():
            return WebSearchOutcome([], "Web search skipped: the question is empty.", 0.0)
        try:
            reply: Any = self._client.search(
                query.strip()[:400], search_depth=self.depth, max_results=self.max_results, timeout=self.timeout_s
            )
        except _TAVILY_ERRORS as exc:
            logger.warning("web search failed: %s", type(exc).__name__)
            return WebSearchOutcome([], _warning_for(exc), (time.perf_counter() - t0) * 1000)
        elapsed = (time.perf_counter() - t0) * 1000
        raw = reply.get("results") if isinstance(reply, dict) else None
        if not isinstance(raw, list):
            logger.warning("web search: malformed reply")
            return WebSearchOutcome([], "Web search is off for this answer: Tavily's reply was malformed.", elapsed)
        results: list[WebResult] = []
        for item in raw:
            if not isinstance(item, dict):
                continue
            content = trim(str(item.get("content") or ""), self.max_chars)
            url = str(item.get("url") or "")
            if not content or not url:
                continue
            title = trim(str(item.get("title") or url), 200)
            results.append(WebResult(len(results) + 1, title, url, content))
            if len(results) >= self.max_results:
                break
        logger.info("web search: %d result(s) in %.0f ms", len(results), elapsed)
        return WebSearchOutcome(results, None if results else "Web search found nothing for this question.", elapsed)
