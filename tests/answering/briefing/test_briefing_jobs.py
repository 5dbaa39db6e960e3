"""An LLM briefing never holds up the ingest: the offline briefing is written at once, the LLM's in a
background thread that replaces it; meanwhile the document is searchable. A scripted fake LLM that answers only when
the test lets it."""

from __future__ import annotations

import json
import threading

import tenacity

from prism.answering.llm import wrap_llms
from prism.service import PrismService
from prism.types import IngestItem
from tests.answering.briefing.test_briefing import UPI_PDF
from tests.fakes_llm import ScriptedLLM, rate_limit_error

POINTS = ["UPI transaction limits are set per merchant category.", "Disputes and chargebacks follow NPCI's "
          "timelines.", "Fraud must be reported to the Bank at once."]


def _service_with(service: PrismService, fake: ScriptedLLM) -> PrismService:
    return PrismService(service.settings, embedder=service.embedder, llms=wrap_llms(fake, wait=tenacity.wait_none()))


def test_the_llm_briefing_is_written_after_the_ingest_returns(service):
    release = threading.Event()

    def respond(_prompt: str) -> str:
        if not release.wait(60):
            raise TimeoutError("the test never released the LLM")
        return json.dumps({"bullets": POINTS, "questions": ["What limits apply to UPI?"]})

    svc = _service_with(service, ScriptedLLM(respond=respond))
    [result] = svc.ingest([IngestItem(UPI_PDF)], "b")  # returns while the LLM is still "thinking"
    assert result.status == "ingested" and result.warnings == []
    assert svc.briefings.pending() == 1
    [record] = svc.documents("b")
    assert record.briefing["mode"] == "extractive" and len(record.briefing["bullets"]) >= 5  # offline, at once
    hits = svc.search("per-transaction limit for UPI", "b", mode="bm25").results
    assert hits and hits[0].source == UPI_PDF.name  # searchable before the LLM answered

    release.set()
    assert svc.briefings.wait(60) and svc.briefings.pending() == 0
    stored = svc.documents("b")[0].briefing
    assert stored["mode"] == "llm" and [b["text"] for b in stored["bullets"]] == POINTS
    assert all(b["citations"] and b["citations"][0]["page"] for b in stored["bullets"])


def test_a_failing_llm_briefing_leaves_the_offline_one(service):
    svc = _service_with(service, ScriptedLLM(script=[rate_limit_error()] * 10))
    [result] = svc.ingest([IngestItem(UPI_PDF)], "b")
    assert result.status == "ingested"
    assert svc.briefings.wait(60)
    stored = svc.documents("b")[0].briefing
    assert stored["mode"] == "extractive" and "rate-limiting" in (stored["note"] or "")
