"""The one background runner (:class:`prism.background.SerialRunner`): order, pending counts, failures, shutdown."""

from __future__ import annotations

import logging
import threading

import pytest

from prism.background import SerialRunner


def test_runs_in_submission_order_on_its_named_thread():
    runner = SerialRunner("prism-test")
    gate, seen, names = threading.Event(), [], []

    def step(n: int) -> int:
        gate.wait(5)
        seen.append(n)
        names.append(threading.current_thread().name)
        return n * 10

    futures = [runner.submit(step, n) for n in range(5)]
    assert runner.pending() == 5  # the first waits on the gate, four are queued
    gate.set()
    assert runner.wait(10) and runner.pending() == 0
    assert seen == [0, 1, 2, 3, 4] and [f.result() for f in futures] == [0, 10, 20, 30, 40]
    assert {n.split("_")[0] for n in names} == {"prism-test"}
    runner.shutdown()


def test_a_failure_is_logged_and_the_next_task_runs(caplog):
    runner = SerialRunner("prism-test")

    def boom() -> None:
        raise RuntimeError("x")

    with caplog.at_level(logging.WARNING, logger="prism.background"):
        failed = runner.submit(boom)
        ok = runner.submit(lambda: "next")
        assert runner.wait(10)
    assert isinstance(failed.exception(), RuntimeError) and ok.result() == "next"
    assert "prism-test: a background task failed: RuntimeError" in caplog.text
    runner.shutdown()
    assert runner.submit(lambda: 7).result(10) == 7  # a submit after shutdown starts a new thread
    runner.shutdown()


def test_wait_times_out_while_a_task_runs():
    runner = SerialRunner("prism-test")
    gate = threading.Event()
    runner.submit(gate.wait, 5)
    assert runner.wait(0.05) is False and runner.pending() == 1
    gate.set()
    assert runner.wait(5) is True
    runner.shutdown()


def test_needs_a_worker():
    with pytest.raises(ValueError, match="at least one worker, not 0"):
        SerialRunner("prism-test", max_workers=0)
