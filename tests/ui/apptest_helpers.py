"""Helpers shared by the AppTest page tests: the text a run drew, the check that it raised nothing, and rerunning
until a background job shows its result."""

from __future__ import annotations

import time
from collections.abc import Callable

from streamlit.testing.v1 import AppTest

TEXT_ELEMENTS: tuple[str, ...] = ("markdown", "caption", "title", "subheader", "info", "success", "warning", "error")


def texts(at: AppTest) -> str:
    """Every text element's value, one per line."""
    return "\n".join(str(e.value) for kind in TEXT_ELEMENTS for e in getattr(at, kind))


def no_exception(at: AppTest) -> None:
    """Assert that the run raised no exception (the exceptions' values are the failure message)."""
    assert not at.exception, [e.value for e in at.exception]


def run_until(at: AppTest, predicate: Callable[[AppTest], bool], timeout: float, interval: float) -> AppTest:
    """Rerun the app every ``interval`` seconds until ``predicate(at)`` holds or ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        at.run()
        if predicate(at) or time.monotonic() > deadline:
            return at
        time.sleep(interval)
