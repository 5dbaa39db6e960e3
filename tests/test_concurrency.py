"""Many analysts at once on one shared service (as the Streamlit app shares it): 8 sessions ask at the same time —
half with a scripted LLM streaming, half extractive — while another session ingests a third sample PDF (the schedule
of charges) into the same workspace through the app's background job registry. No errors, every answer complete and
cited, the new document searchable afterwards, and the ingestion done exactly once."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import tenacity

from prism.answering.llm import wrap_llms
from prism.config import Settings
from prism.ingestion.jobs import IngestJobs
from prism.service import PrismService
from prism.types import Answer, IngestItem
from tests.conftest import REPO
from tests.fakes_llm import ScriptedLLM

SAMPLE = REPO / "data" / "sample"
NEW_PDF = SAMPLE / "meridian_fee_schedule_tables.pdf"  # 4 pages
QUESTIONS = [
    "What is the P2P collect request limit?",
    "What is the MDR for RuPay credit cards on UPI?",
    "How long is the cooling period after registering UPI on a new device?",
    "What is the UPI Lite per-transaction limit?",
    "Who may approve a customer-specific exception?",
    "When are merchants settled?",
    "What is the limit for tax payments to verified government merchants?",
    "How much can be spent with UPI Lite per day?",
]


def _reply(text: str) -> str:
    low = text.lower()
    if "rephrasings" in low:
        return "UPI limit\\nUPI cap\\nUPI maximum"
    if "short passage" in low:
        return "The UPI limit is stated in the operating circular."
    if "standalone" in low:
        return "What is the UPI limit?"
    time.sleep(0.05)  # a slow provider: streams overlap
    return "The circular states the limit [1]; see also the master circular [2]."


@pytest.mark.slow
def test_eight_sessions_ask_while_another_ingests(prism_home, embedder):
    settings = Settings(home=prism_home)
    llm = ScriptedLLM(respond=_reply, words_per_piece=1)
    with_llm = PrismService(settings, embedder=embedder, llms=wrap_llms(llm, settings=settings,
                                                                       wait=tenacity.wait_none()))
    setup = with_llm.ingest([IngestItem(SAMPLE / "meridian_bank_upi_operating_circular.pdf"),
                             IngestItem(SAMPLE / "rbi_style_master_circular_digital_payments.pdf")],
                            "Shared", briefing=False)
    assert [r.status for r in setup] == ["ingested", "ingested"]
    # The odd sessions answer extractively: the same workspace through a service configured without an LLM.
    extractive = PrismService(settings, embedder=embedder)

    jobs = IngestJobs()
    start = threading.Barrier(9)
    errors: list[BaseException] = []

    spans: list[tuple[float, float]] = []

    def ask(i: int) -> Answer:
        svc = with_llm if i % 2 == 0 else extractive
        start.wait(timeout=30)
        t0 = time.time()
        stream = svc.ask(QUESTIONS[i], "Shared", stream=True)
        pieces = list(stream)
        answer = stream.answer
        spans.append((t0, time.time()))
        assert answer is not None and pieces
        return answer

    def ingest() -> list[str]:
        start.wait(timeout=30)
        data = NEW_PDF.read_bytes()
        shared = with_llm.find_workspace("Shared")
        return [jobs.submit(with_llm, shared, NEW_PDF.name, data) for _ in range(3)]  # one job, not three

    try:
        with ThreadPoolExecutor(max_workers=9) as pool:
            ingest_future = pool.submit(ingest)
            futures = [pool.submit(ask, i) for i in range(8)]
            answers = []
            for f in futures:
                try:
                    answers.append(f.result(timeout=120))
                except BaseException as exc:  # collect every failure, report them together
                    errors.append(exc)
            job_ids = ingest_future.result(timeout=60)
        assert not errors, errors
        assert len(set(job_ids)) == 1
        assert jobs.wait(job_ids[:1], 120)
        job = jobs.get(job_ids[0])
        result = job.result
        assert result is not None and result.status == "ingested" and result.pages == 4
        assert any(t0 < job.finished_at and t1 > job.submitted_at for t0, t1 in spans)  # they overlapped
    finally:
        jobs.shutdown()

    for i, answer in enumerate(answers):
        assert answer.answer.strip(), QUESTIONS[i]
        assert answer.citations, QUESTIONS[i]
        assert answer.mode == ("llm" if i % 2 == 0 else "extractive")
        assert answer.timings_ms["total"] is not None
        if i % 2 == 0:
            assert answer.answer == "The circular states the limit [1]; see also the master circular [2]."
    # The document ingested meanwhile is searchable by every session.
    found = extractive.search("Schedule of Service Charges minimum average balance", "Shared")
    assert found.results and found.results[0].source == NEW_PDF.name
    assert [d.source for d in with_llm.documents("Shared")][-1] == NEW_PDF.name
