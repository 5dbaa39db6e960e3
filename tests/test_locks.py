"""The lock files pin the whole environment and agree with the direct requirements (README: lock files).

A fresh install must not depend on what a resolver picks that day: ``requirements.lock`` (the app) and
``requirements-dev.lock`` (the tests) pin every transitive dependency, and every direct pin of
``requirements*.txt`` is in its lock at the same version.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([^\s;#]+)")


def _pins(path: Path) -> dict[str, str]:
    """``{normalised name: version}`` of the ``name==version`` lines of a requirements or lock file."""
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line.strip())
        if match:
            pins[re.sub(r"[-_.]+", "-", match.group(1)).lower()] = match.group(2)
    return pins


@pytest.mark.parametrize(("direct", "lock"), [("requirements.txt", "requirements.lock"),
                                              ("requirements-dev.txt", "requirements-dev.lock")])
def test_every_direct_pin_is_locked_at_its_version(direct, lock):
    locked = _pins(REPO / lock)
    wanted = {name: version for name, version in _pins(REPO / direct).items() if name != "torch"}
    assert wanted, f"{direct} pins nothing"
    assert {name: locked.get(name) for name in wanted} == wanted


def test_locks_pin_transitive_dependencies_and_agree():
    app, dev = _pins(REPO / "requirements.lock"), _pins(REPO / "requirements-dev.lock")
    # trafilatura's HTML cleaning needs lxml_html_clean, which pip left out of one fresh install
    assert {"lxml", "lxml-html-clean", "chromadb", "onnxruntime"} <= app.keys()
    assert len(app) > 3 * len(_pins(REPO / "requirements.txt"))
    assert {name: dev.get(name) for name in app} == app  # the tests run on the app's exact versions
    assert "torch" not in app and "torch" not in dev  # installed first, from the CPU build (README)
