"""Briefings written at ingest without holding the ingest up (a document is searchable before its LLM briefing).

A new document gets its offline briefing right after it is committed (seconds at most: no LLM call). With an LLM
configured, the LLM's briefing is then written in a background thread and replaces the offline one when it
arrives: the ingest returns, and the document is searchable, without waiting for the LLM. One thread writes the LLM
briefings of the whole process, one at a time (the LLM's rate limit is per key).
"""

from __future__ import annotations

import logging

from prism.answering.briefing.compose import brief_document
from prism.answering.llm import LLMClient
from prism.background import SerialRunner
from prism.config import Settings
from prism.index.embedder import PrismEmbedding
from prism.index.workspaces import Workspace
from prism.types import IngestResult

logger = logging.getLogger(__name__)


def brief_offline_now(workspace: Workspace, result: IngestResult, embedder: PrismEmbedding,
                      settings: Settings) -> bool:
    """Write the offline briefing of a committed document; a failure becomes a warning on ``result`` (the document
    is committed: a briefing bug must not fail its ingest). True when the briefing was written."""
    try:
        brief_document(workspace, result.doc_id or "", embedder=embedder, llm=None, settings=settings)
    except Exception as exc:  # any briefing failure is reported on the result, never raised
        logger.warning("briefing failed for %s: %s", (result.doc_id or "")[:12], type(exc).__name__)
        result.warnings.append(f"No briefing was written ({type(exc).__name__}: {exc}).")
        return False
    return True


class BackgroundBriefings:
    """LLM briefings written after the ingest, one at a time, by a :class:`~prism.background.SerialRunner` (its
    thread starts on first use)."""

    def __init__(self) -> None:
        self._runner = SerialRunner("prism-briefing")

    def submit(self, workspace: Workspace, doc_id: str, embedder: PrismEmbedding, llm: LLMClient,
               settings: Settings) -> None:
        """Write ``doc_id``'s LLM briefing in the background (it replaces the stored one when done; a failure is
        logged and leaves the stored briefing)."""
        self._runner.submit(self._write, workspace, doc_id, embedder, llm, settings)

    @staticmethod
    def _write(workspace: Workspace, doc_id: str, embedder: PrismEmbedding, llm: LLMClient,
               settings: Settings) -> None:
        try:
            brief_document(workspace, doc_id, embedder=embedder, llm=llm, settings=settings)
        except Exception as exc:  # a background failure must not end the thread; logged
            logger.warning("LLM briefing failed for %s: %s", doc_id[:12], type(exc).__name__)

    def pending(self) -> int:
        """LLM briefings queued or being written."""
        return self._runner.pending()

    def wait(self, timeout_s: float | None = None) -> bool:
        """Wait until every queued LLM briefing is written (or ``timeout_s`` passes); True when none is left."""
        return self._runner.wait(timeout_s)
