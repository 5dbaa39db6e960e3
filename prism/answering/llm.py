"""The LLM layer: Groq clients with retries and error translation (each prompt lives with the code that uses it:
the answer prompt in :mod:`prism.answering.citations`, expansion's in :mod:`prism.retrieval.expansion`).

Nothing in Prism calls a language model except through :class:`LLMClient`. It wraps any LlamaIndex
:class:`~llama_index.core.llms.LLM` (Groq in production via ``llama-index-llms-groq``, a scripted fake in tests) and
gives every call site (complete, chat and their streaming forms) the same behaviour:

* pacing to the provider's requests- and tokens-per-minute budgets (:mod:`prism.answering.pacing`), shared by every
  session of the process, so a comparison grid does not burst into rate limits;
* retries with exponential back-off and jitter (tenacity) on rate limits (HTTP 429; the wait its reset header asks
  for), timeouts, connection errors and 5xx responses, at most ``settings.llm_max_attempts`` attempts; a stream is
  retried only until its first piece arrives (later failures would duplicate text already shown);
* library errors translated into :class:`~prism.errors.LLMError` subclasses whose message says what to do (a bad key
  is :class:`~prism.errors.LLMAuthError`).

:func:`build_llms` reads the key from :class:`~prism.config.Settings` (the UI layer puts ``st.secrets`` there) and
returns an :class:`LLMs` pair (the answer model and the small model for cheap calls) or, without a key, the "no LLM
configured" state with its reason. No client is created at import time and LlamaIndex's global ``Settings`` are
never touched.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import tenacity
from llama_index.core.llms import LLM, ChatMessage

from prism.answering.pacing import CallPacer, RetryAfterWait, estimate_tokens, pacer_for
from prism.config import Settings
from prism.errors import LLMAuthError, LLMError, LLMRateLimitError, LLMTimeoutError

logger = logging.getLogger(__name__)

T = TypeVar("T")

TRANSIENT_STATUS: frozenset[int] = frozenset({408, 429, 500, 502, 503, 504})
"""HTTP statuses that are retried."""


NO_KEY_REASON = "no Groq API key configured (set GROQ_API_KEY or add it to Streamlit secrets)"


# --- errors -------------------------------------------------------------------------------------------------------
def _call_errors() -> tuple[type[BaseException], ...]:
    """Exceptions an LLM call may raise that are translated into LLMError. ``openai.APIError`` is the base of every
    error of the OpenAI-compatible client Groq uses (status errors, timeouts, connection errors). openai and httpx
    are imported here, not at module level: they take about a second to import and the app starts without them."""
    import httpx
    import openai

    return openai.APIError, httpx.HTTPError, TimeoutError, ConnectionError


def _connection_errors() -> tuple[type[BaseException], ...]:
    import httpx
    import openai

    return openai.APIConnectionError, httpx.TransportError, ConnectionError


def status_code(exc: BaseException) -> int | None:
    """The HTTP status carried by an exception (``status_code`` or ``response.status_code``), else ``None``."""
    code = getattr(exc, "status_code", None)
    if code is None:
        code = getattr(getattr(exc, "response", None), "status_code", None)
    return code if isinstance(code, int) else None


def _is_timeout(exc: BaseException) -> bool:
    import httpx
    import openai

    return isinstance(exc, openai.APITimeoutError | httpx.TimeoutException | TimeoutError)


def is_transient(exc: BaseException) -> bool:
    """True for errors worth retrying: timeouts, connection failures and statuses in :data:`TRANSIENT_STATUS`."""
    if _is_timeout(exc) or isinstance(exc, _connection_errors()):
        return True
    return status_code(exc) in TRANSIENT_STATUS


def translate_error(exc: BaseException, model: str, attempts: int) -> LLMError:
    """An analyst-readable :class:`LLMError` for a failed call (the provider's text is never echoed for auth
    errors, so nothing key-like reaches a log or a page)."""
    code = status_code(exc)
    if code in (401, 403):
        return LLMAuthError(
            f"Groq rejected the API key (HTTP {code}). Check GROQ_API_KEY (or the groq_api_key secret): it may be "
            "mistyped, revoked or for another account."
        )
    if code == 429:
        return LLMRateLimitError(
            f"Groq is rate-limiting requests to {model} (HTTP 429) after {attempts} attempt(s). Wait a minute and "
            "ask again, or turn off HyDE / multi-query to use fewer calls."
        )
    if _is_timeout(exc):
        return LLMTimeoutError(
            f"{model} did not answer in time after {attempts} attempt(s). Try again, or raise PRISM_LLM_TIMEOUT_S."
        )
    if code == 404:
        return LLMError(f"Groq does not serve the model '{model}' (HTTP 404). Set PRISM_LLM_MODEL to a current model.")
    if isinstance(exc, _connection_errors()):
        return LLMError(f"Groq could not be reached ({type(exc).__name__}). Check the network and try again.")
    detail = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
    where = f"HTTP {code}" if code else type(exc).__name__
    return LLMError(f"The call to {model} failed ({where}: {detail}).")


# --- client -------------------------------------------------------------------------------------------------------
class LLMClient:
    """One LLM behind retries and error translation; thread-safe if the wrapped LLM is (Groq's is).

    Args:
        llm: any LlamaIndex LLM (``complete``, ``chat``, ``stream_complete``, ``stream_chat``).
        model: display name of the model (for messages and status).
        max_attempts: attempts per call (≥ 1); only transient errors (:func:`is_transient`) are retried.
        wait: tenacity wait strategy between attempts (default: exponential with jitter, 1 s up to ``max_wait_s``;
            tests pass ``tenacity.wait_none()``).
        max_wait_s: longest back-off when ``wait`` is not given, seconds (also the longest wait taken from a 429's
            reset header).
        pacer: the model's rate budgets (:func:`prism.answering.pacing.pacer_for`); every attempt first takes one
            request and its estimated tokens from it. ``None``: no pacing.
        max_tokens: the most tokens a completion may have (counted by the pacer's token estimate).

    Raises (from every call):
        LLMAuthError: the key was rejected (401/403), never retried.
        LLMRateLimitError: still rate-limited after ``max_attempts``, or no room in the pacer's budget in time.
        LLMTimeoutError: still timing out after ``max_attempts``.
        LLMError: any other provider failure.
    """

    def __init__(
        self,
        llm: LLM,
        model: str,
        *,
        max_attempts: int = 4,
        wait: tenacity.wait.wait_base | None = None,
        max_wait_s: float = 20.0,
        pacer: CallPacer | None = None,
        max_tokens: int | None = None,
    ):
        if max_attempts < 1:
            raise ValueError(f"max_attempts must be at least 1, got {max_attempts}")
        self.llm = llm
        self.model = model
        self.max_attempts = max_attempts
        self.pacer = pacer
        self.max_tokens = max_tokens
        self.wait = wait if wait is not None else RetryAfterWait(
            tenacity.wait_exponential_jitter(initial=1, max=max_wait_s), max_wait_s)

    def __repr__(self) -> str:
        return f"LLMClient(model={self.model!r})"

    def _retrying(self) -> tenacity.Retrying:
        def log_retry(state: tenacity.RetryCallState) -> None:
            exc = state.outcome.exception() if state.outcome else None
            logger.warning(
                "LLM %s: attempt %d failed (%s, status %s); retrying",
                self.model, state.attempt_number, type(exc).__name__, status_code(exc) if exc else None,
            )

        return tenacity.Retrying(
            stop=tenacity.stop_after_attempt(self.max_attempts),
            wait=self.wait,
            retry=tenacity.retry_if_exception(is_transient),
            before_sleep=log_retry,
            reraise=True,
        )

    def _call(self, fn: Callable[[], T], chars: int = 0) -> T:
        def paced() -> T:
            if self.pacer is not None:
                self.pacer.acquire(estimate_tokens(chars, self.max_tokens))
            return fn()

        retrying = self._retrying()
        try:
            return retrying(paced)
        except _call_errors() as exc:
            attempts = retrying.statistics.get("attempt_number", 1)
            raise translate_error(exc, self.model, attempts) from exc

    # --- calls ----------------------------------------------------------------------------------------------
    def complete(self, prompt: str, **kwargs: Any) -> str:
        """The model's completion of ``prompt`` (text)."""
        response = self._call(lambda: self.llm.complete(prompt, **kwargs), len(prompt))
        return response.text or ""

    def chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> str:
        """The assistant's reply to ``messages`` (text)."""
        response = self._call(lambda: self.llm.chat(list(messages), **kwargs), _chars(messages))
        return response.message.content or ""

    def stream_complete(self, prompt: str, **kwargs: Any) -> Iterator[str]:
        """The completion of ``prompt`` as text pieces (deltas). The request is made (and retried) when the first
        piece is requested."""
        return self._stream(lambda: self.llm.stream_complete(prompt, **kwargs), len(prompt))

    def stream_chat(self, messages: Sequence[ChatMessage], **kwargs: Any) -> Iterator[str]:
        """The assistant's reply to ``messages`` as text pieces (deltas); retried until the first piece arrives."""
        return self._stream(lambda: self.llm.stream_chat(list(messages), **kwargs), _chars(messages))

    def _stream(self, open_stream: Callable[[], Iterator[Any]], chars: int) -> Iterator[str]:
        def first_piece() -> tuple[Any, Iterator[Any]]:
            gen = iter(open_stream())  # OpenAI-style clients send the request on the first next()
            return next(gen, None), gen

        first, gen = self._call(first_piece, chars)
        if first is None:
            return
        yield _delta(first)
        try:
            for piece in gen:
                yield _delta(piece)
        except _call_errors() as exc:
            raise translate_error(exc, self.model, 1) from exc


def _chars(messages: Sequence[ChatMessage]) -> int:
    """Characters of the messages' text (for the pacer's token estimate)."""
    return sum(len(m.content or "") for m in messages if isinstance(m.content, str))


def _delta(response: Any) -> str:
    """The new text of one streamed response (``delta``; falls back to ``""``)."""
    delta = getattr(response, "delta", None)
    return delta if isinstance(delta, str) else ""


# --- factory ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LLMs:
    """The configured language models: ``main`` for answers, ``small`` for cheap calls (condense, expansions,
    contextual chunks), or neither with the ``reason`` why."""

    main: LLMClient | None
    small: LLMClient | None
    reason: str | None = None

    @property
    def available(self) -> bool:
        """True when an LLM is configured."""
        return self.main is not None

    @property
    def cheap(self) -> LLMClient | None:
        """The small model, or the main one when no small model is set."""
        return self.small or self.main

    def status(self) -> dict[str, Any]:
        """``{"mode": "llm", "model", "small_model", "pacing"}`` (``pacing``: the rate budgets in words) or
        ``{"mode": "extractive", "reason"}``."""
        if self.main is None:
            return {"mode": "extractive", "reason": self.reason or NO_KEY_REASON}
        pacer = self.main.pacer
        return {"mode": "llm", "model": self.main.model, "small_model": (self.small or self.main).model,
                "pacing": pacer.describe() if pacer is not None else "no pacing"}


NO_LLMS = LLMs(None, None, NO_KEY_REASON)


def make_groq_client(settings: Settings, model: str, *, max_tokens: int | None = None) -> LLMClient | None:
    """A Groq model behind :class:`LLMClient`, or ``None`` when no key is set (nothing is sent over the network
    here; a bad key surfaces as :class:`LLMAuthError` on the first call).

    The Groq client's own retries are switched off (``max_retries=0``): :class:`LLMClient` does the retrying.
    """
    if settings.groq_api_key is None or not settings.groq_api_key.get_secret_value().strip():
        return None
    from llama_index.llms.groq import Groq

    llm = Groq(
        model=model,
        api_key=settings.groq_api_key.get_secret_value().strip(),
        temperature=settings.llm_temperature,
        max_tokens=max_tokens,
        timeout=settings.llm_timeout_s,
        max_retries=0,
    )
    pacer = pacer_for(model, settings.llm_requests_per_minute, settings.llm_tokens_per_minute,
                      settings.llm_pace_max_wait_s)
    return LLMClient(llm, model, max_attempts=settings.llm_max_attempts, max_wait_s=settings.llm_retry_max_wait_s,
                     pacer=pacer, max_tokens=max_tokens)


def build_llms(settings: Settings) -> LLMs:
    """The configured pair (``llm_model`` for answers, ``llm_small_model`` for cheap calls) or :data:`NO_LLMS`."""
    main = make_groq_client(settings, settings.llm_model, max_tokens=settings.llm_max_tokens)
    if main is None:
        return NO_LLMS
    small = make_groq_client(settings, settings.llm_small_model, max_tokens=512)
    logger.info("LLM configured: %s (small: %s)", settings.llm_model, settings.llm_small_model)
    return LLMs(main, small)


def wrap_llms(main: LLM, small: LLM | None = None, *, settings: Settings | None = None,
              wait: tenacity.wait.wait_base | None = None, pacer: CallPacer | None = None) -> LLMs:
    """Wrap already built LlamaIndex LLMs (another provider, or a scripted fake in tests) as :class:`LLMs`; both
    share ``pacer`` when one is given (no pacing otherwise)."""
    settings = settings or Settings()

    def wrap(llm: LLM, name: str) -> LLMClient:
        model = str(getattr(llm, "model", "") or getattr(getattr(llm, "metadata", None), "model_name", "") or name)
        return LLMClient(llm, model, max_attempts=settings.llm_max_attempts, wait=wait,
                         max_wait_s=settings.llm_retry_max_wait_s, pacer=pacer)

    return LLMs(wrap(main, "main"), wrap(small, "small") if small is not None else None)


# --- prompts ------------------------------------------------------------------------------------------------------
