"""The parser worker process and embedding ahead, with PDFs built in the test (tests/builders.py) and the sample PDFs,
real worker processes, the real embedder and Chroma.

Worker processes are fresh interpreters, so a test changes their behaviour the way one changes any Python process
from outside: a ``sitecustomize.py`` on ``PYTHONPATH`` (imported by ``site`` at start-up), after the idle workers
started without it are shut down.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

from prism.config import Settings
from prism.errors import CorruptDocumentError, EmptyFileError, EncryptedDocumentError, NoExtractableTextError
from prism.ingestion import parsing
from prism.ingestion.parsing import worker
from prism.ingestion.parsing.worker import ParseJob
from prism.service import PrismService
from prism.types import IngestItem
from tests.builders import image_only_pdf, long_circular, text_pdf
from tests.conftest import CASES, REPO

UPI = REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf"  # 5 pages


@pytest.fixture
def circular(tmp_path) -> Path:
    """A 10-page circular whose name starts like an RBI master circular's (the crash test picks it by name)."""
    return long_circular(tmp_path / "05MC_built_circular.pdf", 10)


@pytest.fixture
def worker_site(tmp_path, monkeypatch):
    """Write ``sitecustomize.py`` for the parser workers started from now on; idle workers are stopped before and
    after."""

    def install(code: str) -> None:
        site = tmp_path / "worker-site"
        site.mkdir()
        (site / "sitecustomize.py").write_text(textwrap.dedent(code))
        monkeypatch.setenv("PYTHONPATH", str(site))
        worker.shutdown_workers()

    yield install
    worker.shutdown_workers()


def test_parse_job_streams_pages_and_returns_the_in_process_parse(circular):
    settings = Settings()
    data = circular.read_bytes()
    job = ParseJob(data, circular.name, settings)
    streamed = list(job.pages())
    doc = job.result()
    assert doc == parsing.load(data, circular.name, settings)
    assert [p.number for p in streamed] == [p.number for p in doc.pages] == list(range(1, 11))
    assert streamed == list(doc.pages)
    assert job.finished and worker.active_jobs() == 0


def _built(kind: str, folder: Path) -> Path:
    if kind == "encrypted":
        return CASES / "01b_aes256_user_password_secret.pdf"
    if kind == "empty":
        path = folder / "empty.pdf"
        path.write_bytes(b"")
        return path
    if kind == "page number":
        return text_pdf(folder / "only_page_number.pdf", ["13"])
    return image_only_pdf(folder / "image.pdf", ["Scanned circular: the repo rate", "is 6.5 percent."])


@pytest.mark.parametrize(
    ("kind", "error"),
    [("encrypted", EncryptedDocumentError), ("empty", EmptyFileError), ("page number", NoExtractableTextError),
     ("scan", None)],
)
def test_parse_job_gives_what_the_in_process_parser_gives(kind, error, tmp_path):
    # OCR runs in the worker too (the scan has no text layer; the page number alone is OCR'd and still empty)
    path = _built(kind, tmp_path)
    settings = Settings()
    job = ParseJob(path.read_bytes(), path.name, settings)
    assert list(job.pages()) == []
    if error is None:
        doc = job.result()
        assert doc == parsing.load(path.read_bytes(), path.name, settings) and doc.ocr_pages == [1]
        return
    with pytest.raises(error) as inline:
        parsing.load(path.read_bytes(), path.name, settings)
    with pytest.raises(error) as child:
        job.result()
    assert str(child.value) == str(inline.value) and path.name in str(child.value)


def test_a_crashing_parser_fails_only_its_document(worker_site, service, circular):
    worker_site("""
        import os
        import prism.ingestion.parsing as parsing
        real = parsing.load
        def load(data, name, settings=None, on_page=None):
            if name.startswith("05MC"):
                on_page(real(data, name, settings).pages[0])
                os._exit(7)  # dies like a segfaulting native library would, after one page
            return real(data, name, settings, on_page)
        parsing.load = load
    """)
    job = ParseJob(circular.read_bytes(), circular.name, Settings())
    assert [p.number for p in job.pages()] == [1]
    with pytest.raises(CorruptDocumentError, match=r"05MC\S+\.pdf crashed the document parser \(exit code 7\)"):
        job.result()
    other = UPI
    bad, good, txt = service.ingest([IngestItem(circular), IngestItem(other), IngestItem(CASES / "35_test01.txt")],
                                    "crash", briefing=False)
    assert bad.status == "failed" and "crashed the document parser" in bad.error and circular.name in bad.error
    assert good.status == "ingested" and good.pages == 5 and txt.status == "ingested"
    assert worker.idle_workers() == 0 and worker.active_jobs() == 0  # no parser outlives its batch
    assert [d.source for d in service.open("crash").workspace.documents()] == [other.name, "35_test01.txt"]


def _stored(service: PrismService, workspace: str) -> tuple[list[str], list[str], np.ndarray]:
    got = service.open(workspace).store._col.get(include=["documents", "embeddings"])
    order = np.argsort(got["ids"])
    return ([got["ids"][i] for i in order], [got["documents"][i] for i in order],
            np.asarray(got["embeddings"])[order])


@pytest.mark.slow
def test_embedding_ahead_stores_what_an_in_process_parse_stores(worker_site, prism_home, embedder, tmp_path):
    worker_site("""
        import time
        import prism.ingestion.parsing.pdf.read as pdf
        real = pdf._extract
        def _extract(reader, index, **kwargs):
            time.sleep(0.4)  # a parser slower than the embedder, as on dense 10-K pages
            return real(reader, index, **kwargs)
        pdf._extract = _extract
    """)
    pdf = long_circular(tmp_path / "bank_finance_to_nbfcs.pdf", 11, seed=11)  # 11 pages, ~6 chunks each
    ahead = PrismService(Settings(home=prism_home / "a", stream_rechunk_pages=2), embedder=embedder)
    inline = PrismService(Settings(home=prism_home / "b", parse_in_subprocess=False), embedder=embedder)
    [r1] = ahead.ingest([IngestItem(pdf)], "w", briefing=False)
    [r2] = inline.ingest([IngestItem(pdf)], "w", briefing=False)
    timings = ahead.open("w").ingestor.timings
    assert r1.status == r2.status == "ingested" and r1.chunks == r2.chunks > 20
    assert timings.chunks_ahead > r1.chunks // 3, "no vectors were made while the parser ran"
    assert timings.embed_ahead > 0 and inline.open("w").ingestor.timings.chunks_ahead == 0
    ids1, texts1, vec1 = _stored(ahead, "w")
    ids2, texts2, vec2 = _stored(inline, "w")
    assert ids1 == ids2 and texts1 == texts2
    np.testing.assert_allclose(vec1, vec2, atol=1e-5)
