"""Pacing LLM calls to rate budgets (pyrate-limiter windows) and honouring a 429's reset header."""

from __future__ import annotations

import threading
import time

import pytest
import tenacity

from prism.answering.llm import LLMClient, build_llms, wrap_llms
from prism.answering.pacing import CallPacer, RetryAfterWait, estimate_tokens, pacer_for, retry_after_s
from prism.config import Settings
from prism.errors import LLMRateLimitError
from tests.fakes_llm import ScriptedLLM, rate_limit_error, server_error


def test_token_estimate_counts_prompt_and_max_completion():
    assert estimate_tokens(4000, 1024) == 1000 + 1024
    assert estimate_tokens(1, None) == 1  # rounded up
    assert estimate_tokens(0, 0) == 1


def test_requests_beyond_the_budget_wait_for_the_window():
    pacer = CallPacer("m", requests_per_minute=2, tokens_per_minute=0, max_wait_s=10, window_s=1.0)
    start = time.monotonic()
    waits = [pacer.acquire() for _ in range(3)]
    assert waits[0] < 0.2 and waits[1] < 0.2
    assert waits[2] >= 0.5  # the third call waited for the 1 s window to move
    assert time.monotonic() - start >= 0.5
    assert pacer.waited_s >= 0.5


def test_tokens_are_paced_and_an_oversized_call_takes_the_whole_budget():
    pacer = CallPacer("m", requests_per_minute=0, tokens_per_minute=100, max_wait_s=10, window_s=1.0)
    assert pacer.acquire(60) < 0.2
    assert pacer.acquire(60) >= 0.5  # 120 > 100 in one window
    assert pacer.acquire(10_000) >= 0.5  # counted as 100: waits for an empty window, never forever


def test_no_room_in_time_is_a_rate_limit_error_naming_the_budget():
    pacer = CallPacer("llama-x", requests_per_minute=1, tokens_per_minute=0, max_wait_s=0.3)
    pacer.acquire()
    with pytest.raises(LLMRateLimitError, match=r"llama-x: no room in its rate budget \(1 requests per minute\)"):
        pacer.acquire()


def test_pacer_is_shared_per_model_and_budget_and_off_at_zero():
    a = pacer_for("shared-model", 30, 12_000, 120.0)
    assert pacer_for("shared-model", 30, 12_000, 120.0) is a
    assert pacer_for("other-model", 30, 12_000, 120.0) is not a
    assert pacer_for("shared-model", 0, 0, 120.0) is None
    assert a.describe() == "30 requests and 12,000 tokens per minute"


def test_client_paces_every_attempt_across_threads():
    fake = ScriptedLLM(respond="ok")
    pacer = CallPacer("fake", requests_per_minute=3, tokens_per_minute=0, max_wait_s=10, window_s=1.0)
    llm = LLMClient(fake, "fake", wait=tenacity.wait_none(), pacer=pacer)
    stamps: list[float] = []
    lock = threading.Lock()

    def call() -> None:
        llm.complete("q")
        with lock:
            stamps.append(time.monotonic())

    start = time.monotonic()
    threads = [threading.Thread(target=call) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(fake.calls) == 6
    # at most 3 calls in the first window: the last three finished after it moved
    assert sum(s - start < 0.5 for s in stamps) == 3
    assert sorted(stamps)[-1] - start >= 0.9


def test_retry_after_header_sets_the_wait():
    assert retry_after_s(rate_limit_error({"retry-after": "7"})) == 7.0
    assert retry_after_s(rate_limit_error({"x-ratelimit-reset-requests": "2m59.56s"})) == pytest.approx(179.56)
    assert retry_after_s(rate_limit_error({"x-ratelimit-reset-tokens": "450ms"})) == pytest.approx(0.45)
    assert retry_after_s(rate_limit_error()) is None
    assert retry_after_s(ValueError("no response")) is None


def test_client_sleeps_what_the_429_asks_then_falls_back_to_backoff(monkeypatch):
    sleeps: list[float] = []
    monkeypatch.setattr("tenacity.nap.time.sleep", sleeps.append)
    fake = ScriptedLLM(script=[rate_limit_error({"retry-after": "3"}), rate_limit_error({"retry-after": "999"}),
                               server_error(), "ok"])
    llm = LLMClient(fake, "fake", max_attempts=4, max_wait_s=20)
    assert llm.complete("q") == "ok"
    assert sleeps[0] == pytest.approx(3.1)
    assert sleeps[1] == pytest.approx(20.1)  # capped at max_wait_s
    assert 4 <= sleeps[2] <= 5  # third attempt: exponential 4 s plus up to 1 s of jitter
    assert isinstance(llm.wait, RetryAfterWait)


def test_groq_clients_are_paced_by_settings_and_status_says_so():
    settings = Settings(groq_api_key="gsk_test_not_a_real_key", llm_requests_per_minute=25,
                        llm_tokens_per_minute=9000)
    llms = build_llms(settings)
    assert llms.main is not None and llms.main.pacer is not None
    assert llms.main.pacer.requests_per_minute == 25 and llms.main.max_tokens == settings.llm_max_tokens
    assert llms.small is not None and llms.small.pacer is not llms.main.pacer  # budgets are per model
    assert llms.status()["pacing"] == "25 requests and 9,000 tokens per minute"
    off = build_llms(Settings(groq_api_key="gsk_test_not_a_real_key", llm_requests_per_minute=0,
                              llm_tokens_per_minute=0))
    assert off.main is not None and off.main.pacer is None and off.status()["pacing"] == "no pacing"
    assert wrap_llms(ScriptedLLM()).main.pacer is None
