"""Overlap across documents: a batch's next PDF starts parsing in a worker while the current one is
embedded and stored; what is stored is the same as without it. Real worker processes, embedder and Chroma."""

from __future__ import annotations

import hashlib

import numpy as np

from prism.config import Settings
from prism.ingestion import parsing
from prism.ingestion.parsing import worker
from prism.ingestion.prefetch import NextParse
from prism.service import PrismService
from prism.types import IngestItem
from tests.builders import long_circular
from tests.conftest import CASES, offline_service
from tests.ingestion.parsing.test_parse_worker import UPI, _stored


def _id(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_next_parse_starts_only_a_new_pdf_and_hands_it_to_that_document_alone(service, tmp_path):
    handle = service.open("w", create=True)
    nxt = NextParse(handle.workspace, service.settings)
    try:
        nxt.start(IngestItem(UPI), UPI.name)
        job = nxt.take(_id(UPI), UPI.name)
        assert job is not None and nxt.take(_id(UPI), UPI.name) is None  # handed over once
        expected = parsing.load(UPI.read_bytes(), UPI.name, service.settings)
        assert [p.text for p in job.result().pages] == [p.text for p in expected.pages]

        nxt.start(IngestItem(UPI), UPI.name)
        other = nxt.take("0" * 64, "other.pdf")  # the batch went another way: that job is stopped
        assert other is None and worker.active_jobs() == 0

        text = CASES / "12_policy_v1.txt"
        nxt.start(IngestItem(text), text.name)  # not a PDF: parsed in its own turn
        assert nxt.take(_id(text), text.name) is None
        nxt.start(IngestItem(tmp_path / "missing.pdf"), "missing.pdf")  # unreadable: its own turn reports it
        assert nxt.take("0" * 64, "missing.pdf") is None

        [done] = service.ingest([IngestItem(UPI)], "w", briefing=False)
        assert done.status == "ingested"
        nxt.start(IngestItem(UPI), UPI.name)  # already in the workspace: a duplicate is never parsed
        assert nxt.take(_id(UPI), UPI.name) is None and worker.active_jobs() == 0
        off = NextParse(handle.workspace, service.settings.model_copy(update={"parse_next_document": False}))
        off.start(IngestItem(long_circular(tmp_path / "c.pdf", 2)), "c.pdf")
        assert off.take(_id(tmp_path / "c.pdf"), "c.pdf") is None
    finally:
        nxt.cancel()
        worker.shutdown_workers()


def test_a_batch_parsed_ahead_stores_what_one_parsed_document_by_document_stores(prism_home, embedder, tmp_path):
    pdfs = [long_circular(tmp_path / "first_circular.pdf", 6, seed=3), UPI,
            long_circular(tmp_path / "third_circular.pdf", 4, seed=5)]
    batch = [IngestItem(p) for p in pdfs] + [IngestItem(UPI)]  # the last one is a duplicate
    ahead = offline_service(prism_home / "a", embedder)
    serial: PrismService = offline_service(prism_home / "b", embedder, parse_next_document=False)
    r1 = ahead.ingest(batch, "w", briefing=False)
    r2 = serial.ingest(batch, "w", briefing=False)
    assert [(r.file, r.status, r.chunks) for r in r1] == [(r.file, r.status, r.chunks) for r in r2]
    assert [r.status for r in r1] == ["ingested", "ingested", "ingested", "duplicate"]
    assert ahead.open("w").ingestor.timings.docs_parsed_ahead == 2  # the 2nd and 3rd; never the duplicate
    assert serial.open("w").ingestor.timings.docs_parsed_ahead == 0
    ids1, texts1, vec1 = _stored(ahead, "w")
    ids2, texts2, vec2 = _stored(serial, "w")
    assert ids1 == ids2 and texts1 == texts2
    np.testing.assert_allclose(vec1, vec2, atol=1e-5)
    assert worker.active_jobs() == 0 and worker.idle_workers() == 0
    assert isinstance(Settings().parse_next_document, bool) and Settings().parse_next_document


def test_one_file_per_call_overlaps_when_each_call_names_the_next(service, tmp_path):
    """The Upload page ingests one file per call: told the file that follows, a call starts its parse once its own
    file is parsed, and the next call takes it; without a next file nothing is left running."""
    first, second = long_circular(tmp_path / "first.pdf", 3, seed=2), long_circular(tmp_path / "second.pdf", 2, seed=4)
    ingestor = service.open("w", create=True).ingestor
    try:
        before = ingestor.timings.docs_parsed_ahead
        [a] = service.ingest([IngestItem(first)], "w", briefing=False, following=IngestItem(second))
        [b] = service.ingest([IngestItem(second)], "w", briefing=False)
        assert (a.status, b.status) == ("ingested", "ingested")
        assert ingestor.timings.docs_parsed_ahead == before + 1  # the second call took the parse started for it
        assert worker.active_jobs() == 0  # the last call named no next file: nothing left running
        assert b.pages == parsing.load(second.read_bytes(), second.name, service.settings).total_pages
        # a call that brings another file than the one named does not use (and stops) the parse started for it
        service.ingest([IngestItem(CASES / "12_policy_v1.txt")], "w", briefing=False, following=IngestItem(UPI))
        [c] = service.ingest([IngestItem(long_circular(tmp_path / "third.pdf", 1, seed=6))], "w", briefing=False)
        assert c.status == "ingested" and ingestor.timings.docs_parsed_ahead == before + 1
        assert worker.active_jobs() == 0
    finally:
        worker.shutdown_workers()
