"""The state of one search: its result (:class:`SearchResult`, the search JSON) and the working state the
:class:`~prism.retrieval.retriever.HybridRetriever` stages share (:class:`SearchScope`, :class:`SearchRun`)."""

from __future__ import annotations

import time
from collections.abc import Set
from dataclasses import dataclass, field
from typing import Any

from prism.retrieval.scope import ScopePlan
from prism.types import RetrievedChunk, SearchScope
from prism.types.reading import Reading


@dataclass
class SearchResult:
    """One search: the stable JSON is ``{"query", "mode", "reranker": {"enabled", "model", "reason"}, "results",
    "message", "scope": {"entities", "periods", "documents", "auto"}}`` plus ``timings_ms`` per stage.
    ``decline`` (not in the JSON) is the scope's reason not to answer
    (:attr:`prism.retrieval.scope.ScopePlan.decline`)."""

    query: str
    mode: str
    reranker: dict[str, Any]
    results: list[RetrievedChunk]
    message: str | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    scope: SearchScope = field(default_factory=SearchScope)
    decline: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"query", "mode", "reranker", "results", "message", "scope", "timings_ms"}`` (timings rounded to
        0.01 ms)."""
        return {
            "query": self.query,
            "mode": self.mode,
            "reranker": self.reranker,
            "results": [r.to_dict() for r in self.results],
            "message": self.message,
            "scope": self.scope.to_dict(),
            "timings_ms": {k: round(v, 2) for k, v in self.timings_ms.items()},
        }


@dataclass
class ScopeState:
    """The documents one search may return: ``allowed`` (``None``: all committed ones) and the committed ids, and
    the plan they came from (preferred documents, the reported scope, a decline)."""

    allowed: set[str] | None
    committed: Set[str]
    plan: ScopePlan = field(default_factory=lambda: ScopePlan(None))

    @property
    def doc_ids(self) -> Set[str]:
        return self.allowed if self.allowed is not None else self.committed


@dataclass
class SearchRun:
    """The working state of one search: the question as read (:class:`~prism.types.reading.Reading`), texts seen on
    the dense side (and read for pages), each chunk's page score and rank, stage timings (ms) and the message."""

    reading: Reading
    texts: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    pages: dict[str, tuple[float, int]] = field(default_factory=dict)
    timings: dict[str, float] = field(default_factory=dict)
    message: str | None = None

    def timed(self, stage: str, t0: float) -> None:
        self.timings[stage] = (time.perf_counter() - t0) * 1000
