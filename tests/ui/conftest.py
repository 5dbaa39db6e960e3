"""Fixtures of the page tests: a sample PRISM_HOME built once per session (two sample PDFs) that tests copy, and the
app's service built with the session's embedder (optionally with a scripted LLM or a fake web searcher)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tenacity

from prism.answering.llm import wrap_llms
from prism.config import Settings
from prism.service import PrismService
from prism.types import IngestItem
from prism.ui import resources
from tests.fakes_llm import ScriptedLLM
from tests.ui.apptest_helpers import MASTER, UPI


@pytest.fixture(scope="session")
def sample_home(tmp_path_factory, embedder) -> Path:
    """A PRISM_HOME with the 'Sample workspace' holding two sample PDFs (built once; tests copy it)."""
    home = tmp_path_factory.mktemp("sample_home")
    svc = PrismService(Settings(home=home), embedder=embedder)
    results = svc.ingest([IngestItem(UPI), IngestItem(MASTER)], "Sample workspace")
    assert [r.status for r in results] == ["ingested", "ingested"]
    return home


@pytest.fixture
def empty_sample_dir(tmp_path, monkeypatch) -> Path:
    """No sample documents: first start creates nothing."""
    d = tmp_path / "no_samples"
    d.mkdir()
    monkeypatch.setenv("PRISM_SAMPLE_DIR", str(d))
    return d


@pytest.fixture
def with_sample(sample_home, prism_home, empty_sample_dir) -> Path:
    """This test's PRISM_HOME starts as a copy of the sample home."""
    shutil.copytree(sample_home, prism_home, dirs_exist_ok=True)
    return prism_home


@pytest.fixture
def service_factory(monkeypatch, embedder) -> Callable[..., None]:
    """Make the app build its service with the session's embedder and, optionally, a scripted LLM."""

    def use(llm: ScriptedLLM | None = None, web: Any = None) -> None:
        def make(home: str) -> PrismService:
            settings = resources.settings_from_secrets()
            llms = wrap_llms(llm, settings=settings, wait=tenacity.wait_none()) if llm is not None else None
            return PrismService(settings, embedder=embedder, llms=llms, web=web)

        monkeypatch.setattr(resources, "make_service", make)

    use()
    return use
