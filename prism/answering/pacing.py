"""Pacing LLM calls to the provider's rate limits, and reading the wait a 429 asks for.

Groq (like most hosted LLM providers) limits each API key per model to a number of requests per minute (RPM) and
tokens per minute (TPM); its free tier for ``llama-3.3-70b-versatile`` allows 30 RPM and 12,000 TPM
(https://console.groq.com/docs/rate-limits). A comparison grid asks one question per cell, so twelve documents ×
five questions would otherwise burst 60 answer calls (plus the small model's condense calls) at once and most would
come back HTTP 429. :class:`CallPacer` spaces calls so they stay inside both budgets: each call first takes one
request and its estimated tokens from two sliding-window limiters (pyrate-limiter,
https://pyratelimiter.readthedocs.io), waiting when a budget is spent. The pacer is shared by every session of the
process (:func:`pacer_for`), since the limits belong to the API key, not to a session.

When a 429 still comes back (another process on the same key, or a budget set too high), :class:`RetryAfterWait`
waits what the response asks for: its ``Retry-After`` header (seconds or an HTTP date, RFC 9110 §10.2.3) or Groq's
``x-ratelimit-reset-requests`` / ``x-ratelimit-reset-tokens`` ("2m59.56s", "7.66s"), before the next attempt; other
transient errors keep exponential back-off with jitter.
"""

from __future__ import annotations

import logging
import math
import re
import threading
import time
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import tenacity
from pyrate_limiter import Duration, Limiter, Rate

from prism.errors import LLMRateLimitError

logger = logging.getLogger(__name__)

__all__ = ["CHARS_PER_TOKEN", "CallPacer", "RetryAfterWait", "estimate_tokens", "pacer_for", "retry_after_s"]

CHARS_PER_TOKEN = 4
"""Characters per token of English text for the estimate (OpenAI's rule of thumb,
https://help.openai.com/en/articles/4936856)."""

_RESET_HEADERS = ("retry-after", "x-ratelimit-reset-requests", "x-ratelimit-reset-tokens")
_DURATION = re.compile(r"^(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+(?:\.\d+)?)ms)?$")


def estimate_tokens(chars: int, max_tokens: int | None) -> int:
    """Tokens a call may count against a TPM budget: the prompt (``chars`` / :data:`CHARS_PER_TOKEN`, rounded up)
    plus the completion it may produce (``max_tokens``; Groq counts the requested maximum when it admits a call)."""
    return max(1, math.ceil(max(0, chars) / CHARS_PER_TOKEN) + max(0, max_tokens or 0))


class CallPacer:
    """Requests-per-minute and tokens-per-minute budgets of one model, shared by the threads that call it.

    Args:
        model: the model's name (for messages and logs).
        requests_per_minute: calls allowed in any 60 s window (0: unlimited).
        tokens_per_minute: estimated tokens allowed in any 60 s window (0: unlimited); a single call larger than the
            budget is counted as the whole budget, so it waits for an empty window instead of never running.
        max_wait_s: longest a call waits for its budget before :class:`~prism.errors.LLMRateLimitError`, seconds.
        window_s: the length of the sliding window the budgets count over, seconds (60; tests use shorter ones).

    Raises:
        ValueError: a negative budget or a non-positive ``max_wait_s``.
    """

    def __init__(self, model: str, requests_per_minute: int, tokens_per_minute: int, max_wait_s: float = 120.0,
                 window_s: float = 60.0):
        if requests_per_minute < 0 or tokens_per_minute < 0 or max_wait_s <= 0 or window_s <= 0:
            raise ValueError("pacing budgets must be ≥ 0, max_wait_s and window_s > 0")
        self.model = model
        self.requests_per_minute = requests_per_minute
        self.tokens_per_minute = tokens_per_minute
        self.max_wait_s = max_wait_s
        window_ms = Duration.MINUTE if window_s == 60.0 else max(1, round(window_s * 1000))
        self._requests = Limiter(Rate(requests_per_minute, window_ms)) if requests_per_minute else None
        self._tokens = Limiter(Rate(tokens_per_minute, window_ms)) if tokens_per_minute else None
        self.waited_s = 0.0
        """Total seconds calls have waited for a budget (for status and tests)."""

    def __repr__(self) -> str:
        return f"CallPacer({self.model!r}, rpm={self.requests_per_minute}, tpm={self.tokens_per_minute})"

    def describe(self) -> str:
        """The budgets in words, e.g. ``"30 requests and 12,000 tokens per minute"`` (``"no pacing"`` when both
        are unlimited)."""
        parts = [f"{self.requests_per_minute:,} requests" if self.requests_per_minute else "",
                 f"{self.tokens_per_minute:,} tokens" if self.tokens_per_minute else ""]
        parts = [p for p in parts if p]
        return f"{' and '.join(parts)} per minute" if parts else "no pacing"

    def acquire(self, tokens: int = 1) -> float:
        """Wait until one more call of about ``tokens`` tokens fits both budgets, and count it.

        Returns:
            The seconds waited (0.0 when the budgets had room).

        Raises:
            LLMRateLimitError: the budgets had no room within ``max_wait_s`` (the message names the model and the
                budgets, and says how to change them).
        """
        start = time.monotonic()
        if self._requests is not None:
            self._take(self._requests, 1, start)
        if self._tokens is not None:
            self._take(self._tokens, max(1, min(tokens, self.tokens_per_minute)), start)
        waited = time.monotonic() - start
        if waited >= 0.5:
            self.waited_s += waited
            logger.info("LLM %s: waited %.1f s for the rate budget (%s)", self.model, waited, self.describe())
        return waited

    def _take(self, limiter: Limiter, weight: int, start: float) -> None:
        left = self.max_wait_s - (time.monotonic() - start)
        if left <= 0 or not limiter.try_acquire(self.model, weight=weight, blocking=True, timeout=left):
            raise LLMRateLimitError(
                f"{self.model}: no room in its rate budget ({self.describe()}) after waiting {self.max_wait_s:.0f} s. "
                "Wait a minute and try again, or raise PRISM_LLM_REQUESTS_PER_MINUTE / PRISM_LLM_TOKENS_PER_MINUTE "
                "if your Groq plan allows more."
            )


_PACERS: dict[tuple[str, int, int, float], CallPacer] = {}
_PACERS_LOCK = threading.Lock()


def pacer_for(model: str, requests_per_minute: int, tokens_per_minute: int, max_wait_s: float) -> CallPacer | None:
    """The process-wide pacer of ``model`` with these budgets (one per distinct setting), or ``None`` when both
    budgets are 0 (pacing off)."""
    if not requests_per_minute and not tokens_per_minute:
        return None
    key = (model, requests_per_minute, tokens_per_minute, max_wait_s)
    with _PACERS_LOCK:
        if key not in _PACERS:
            _PACERS[key] = CallPacer(model, requests_per_minute, tokens_per_minute, max_wait_s)
        return _PACERS[key]


def _seconds(value: str) -> float | None:
    """Seconds of a reset header: a number ("7"), a Go-style duration ("2m59.56s", "450ms") or an HTTP date."""
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    m = _DURATION.match(value)
    if m and any(m.groups()):
        h, mins, s, ms = (float(g) if g else 0.0 for g in m.groups())
        return h * 3600 + mins * 60 + s + ms / 1000
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


def retry_after_s(exc: BaseException | None) -> float | None:
    """The wait a rate-limited response asks for, in seconds (the first of ``Retry-After``,
    ``x-ratelimit-reset-requests``, ``x-ratelimit-reset-tokens`` that parses), or ``None`` when the exception
    carries no such header."""
    headers: Any = getattr(getattr(exc, "response", None), "headers", None)
    if not headers:
        return None
    for name in _RESET_HEADERS:
        raw = headers.get(name)
        if raw:
            seconds = _seconds(str(raw))
            if seconds is not None:
                return seconds
    return None


class RetryAfterWait(tenacity.wait.wait_base):
    """A tenacity wait: what the failed response's reset header asks for (at most ``max_wait_s``, plus 0.1 s), else
    ``fallback`` (exponential back-off with jitter).

    Args:
        fallback: the wait used when the error carries no reset header.
        max_wait_s: the longest wait taken from a header, seconds.
    """

    def __init__(self, fallback: tenacity.wait.wait_base, max_wait_s: float):
        self.fallback = fallback
        self.max_wait_s = max_wait_s

    def __call__(self, retry_state: tenacity.RetryCallState) -> float:
        outcome = retry_state.outcome
        asked = retry_after_s(outcome.exception()) if outcome is not None and outcome.failed else None
        if asked is not None:
            return min(asked, self.max_wait_s) + 0.1
        return float(self.fallback(retry_state))
