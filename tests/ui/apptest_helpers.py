"""Helpers shared by the AppTest page tests: a new app session, the text a run drew, the check that it raised
nothing, clicking a button by its label, and rerunning until a background job shows its result."""

from __future__ import annotations

import re
import time
from collections.abc import Callable

from streamlit.testing.v1 import AppTest

from tests.conftest import REPO

SAMPLE = REPO / "data" / "sample"
UPI = SAMPLE / "meridian_bank_upi_operating_circular.pdf"
MASTER = SAMPLE / "rbi_style_master_circular_digital_payments.pdf"
UPI_TITLE = ("Unified Payments Interface (UPI) – transaction limits, merchant charges, dispute resolution, fraud "
             "reporting and customer liability")
"""The sample circular's display title (its "Subject:" line), shown instead of its file name."""
MASTER_TITLE = "Master Circular – Digital Payment Security Controls, Limited Liability of Customers and KYC for " \
               "Payment Accounts"
"""The sample master circular's display title."""
TIMEOUT = 90
TEXT_ELEMENTS: tuple[str, ...] = ("markdown", "caption", "title", "subheader", "info", "success", "warning", "error")


def app() -> AppTest:
    """A new session of the app (the entry script, app.py, runs on every run, sidebar included)."""
    return AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT)


def texts(at: AppTest) -> str:
    """Every text element's value, one per line."""
    return "\n".join(str(e.value) for kind in TEXT_ELEMENTS for e in getattr(at, kind))


def no_exception(at: AppTest) -> None:
    """Assert that the run raised no exception (the exceptions' values are the failure message)."""
    assert not at.exception, [e.value for e in at.exception]


def click(at: AppTest, label: str) -> AppTest:
    """Click the first button whose label is ``label`` and run."""
    matches = [b for b in at.button if b.label == label]
    assert matches, f"no button {label!r} in {[b.label for b in at.button]}"
    return matches[0].click().run()


def run_until(at: AppTest, predicate: Callable[[AppTest], bool], timeout: float, interval: float = 0.3) -> AppTest:
    """Rerun the app every ``interval`` seconds until ``predicate(at)`` holds or ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while True:
        at.run()
        if predicate(at) or time.monotonic() > deadline:
            return at
        time.sleep(interval)


def open_sources(at: AppTest, turn: int = 0) -> AppTest:
    """Open every citation of answer ``turn`` (0-based) and its "Also retrieved" list, as an analyst clicking them
    would (their contents are built only while open), and run. Citations are counted over the page's answers, so
    with several answers some keys may name citations the answer does not have (harmless)."""
    cited = [e.label for e in at.expander if re.match(r"\[\d+\] ", e.label)]
    for n in range(1, len(cited) + 1):
        at.session_state[f"t{turn}-c{n}"] = True
    at.session_state[f"t{turn}-more"] = True
    return at.run()
