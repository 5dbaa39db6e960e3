"""The process-wide objects of the app, cached with ``st.cache_resource`` (the only place that does so).

Everything cached here is shared by every session and thread, so it holds no per-analyst state: the service (with
its embedder, reranker, Chroma client and one retriever per workspace — each retriever reloads its BM25 index when
its workspace changes), the ingestion job registry and the first-start guard. Per-analyst state lives in
``st.session_state`` (:mod:`prism.ui.state`).

Cache keys are primitives only: the service is keyed by its ``PRISM_HOME`` folder.
"""

from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitSecretNotFoundError

from prism.config import Settings
from prism.errors import PrismError
from prism.service import IngestJobs, PrismService, SampleBuild
from prism.ui.preview import PagePreview, render_page_preview

logger = logging.getLogger(__name__)

SECRET_NAMES: tuple[str, ...] = ("GROQ_API_KEY", "TAVILY_API_KEY")


def secret(name: str) -> str | None:
    """A secret from ``st.secrets`` or else the environment; ``None`` when unset or blank. Never logged."""
    value: object = None
    try:
        value = st.secrets.get(name)
    except (StreamlitSecretNotFoundError, FileNotFoundError, KeyError):
        value = None
    if not value:
        value = os.environ.get(name)
    text = str(value).strip() if value else ""
    return text or None


def settings_from_secrets() -> Settings:
    """Settings from the environment (``PRISM_*``), with the API keys taken from Streamlit secrets when present."""
    overrides: dict[str, Any] = {}
    for name in SECRET_NAMES:
        value = secret(name)
        if value is not None:
            overrides[name.lower()] = value
    return Settings(**overrides)


def make_service(home: str) -> PrismService:
    """Build the service for ``home`` (tests replace this function to inject a scripted LLM)."""
    settings = settings_from_secrets()
    if str(settings.home) != home:  # pragma: no cover - home comes from the same settings
        settings = settings.model_copy(update={"home": home})
    return PrismService(settings)


@st.cache_resource(show_spinner=False, max_entries=8)
def _service(home: str) -> PrismService:
    logger.info("starting Prism service")
    return make_service(home)


def get_service() -> PrismService:
    """The shared service for the configured ``PRISM_HOME``."""
    return _service(str(Settings().home))


def _warm(service: PrismService) -> None:
    try:
        service.warm_up()
    except PrismError as exc:  # the first question shows the same error to the analyst
        logger.warning("warm-up failed: %s", exc)


def warm_up() -> None:
    """Load the shared service's embedder and reranker in a background thread, once per process. app.py calls this
    after the first page is drawn (importing torch holds the interpreter for seconds: started earlier it doubles the
    first page's time); the first question then finds the models loaded."""
    _warm_up(str(Settings().home))


@st.cache_resource(show_spinner=False, max_entries=8)
def _warm_up(home: str) -> threading.Thread:
    thread = threading.Thread(target=_warm, args=(_service(home),), name="prism-warm-up", daemon=True)
    thread.start()
    return thread


@st.cache_resource(show_spinner=False)
def ingest_jobs() -> IngestJobs:
    """The process-wide ingestion job registry (one worker thread)."""
    return IngestJobs(max_workers=1)


@dataclass
class FirstStart:
    """The sample workspace's build at start, once per process and ``PRISM_HOME``: the first session to ask checks
    whether one is needed (:meth:`PrismService.sample_build_needed`) and starts it on its own thread
    (:class:`~prism.service.SampleBuild`), so closing that session's tab never stops it; later sessions get the same
    build."""

    lock: threading.Lock
    checked: bool = False
    build: SampleBuild | None = None

    def start(self, service: PrismService) -> SampleBuild | None:
        """The build this process started (starting it now if the home needs one and none was checked yet);
        ``None`` when the home needed none."""
        with self.lock:
            if not self.checked:
                self.checked = True
                if service.sample_build_needed():
                    self.build = SampleBuild(service.ensure_sample_workspace).start()
            return self.build


@st.cache_resource(show_spinner=False, max_entries=8)
def first_start(home: str) -> FirstStart:
    """The first-start guard of one ``PRISM_HOME``."""
    return FirstStart(threading.Lock())


@st.cache_data(show_spinner=False, max_entries=256)
def page_preview(path: str, page: int, text: str, mtime_ns: int) -> PagePreview:
    """A rendered PDF page with ``text`` located on it (cached; ``mtime_ns`` keys a replaced original)."""
    return render_page_preview(path, page, text)
