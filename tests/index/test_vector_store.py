from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from prism.config import Settings
from prism.errors import EmbeddingModelMismatchError
from prism.index.vector_store import VectorStore, make_client
from prism.service import PrismService
from prism.types import Chunk, IngestItem


def _chunk(i: int, doc: str, page: int | None = None) -> Chunk:
    return Chunk(f"{doc[:16]}-{i:05d}", doc, "x.pdf", i, f"text {i}", 0, 6, page, page)


def test_cosine_scores_ranks_filter_and_delete(prism_home):
    client = make_client(Settings(home=prism_home))
    store = VectorStore(client, "ws-test-00000001", "m", 3)
    d1, d2 = "1" * 64, "2" * 64
    chunks = [_chunk(0, d1, 1), _chunk(1, d1, 2), _chunk(0, d2)]
    vecs = np.array([[1, 0, 0], [0.6, 0.8, 0], [0, 0, 1]], dtype=np.float32)
    store.add(chunks, vecs)
    hits = store.query(np.array([1, 0, 0], dtype=np.float32), top_k=3)
    assert [h.chunk_id for h in hits] == [chunks[0].chunk_id, chunks[1].chunk_id, chunks[2].chunk_id]
    assert [h.dense_rank for h in hits] == [1, 2, 3]
    assert hits[0].dense_score == pytest.approx(1.0, abs=1e-5)
    assert hits[1].dense_score == pytest.approx(0.6, abs=1e-5)
    assert hits[2].dense_score == pytest.approx(0.0, abs=1e-5)
    assert hits[0].metadata["page_start"] == 1 and "page_start" not in hits[2].metadata
    only_d2 = store.query(np.array([1, 0, 0], dtype=np.float32), top_k=3, doc_ids=[d2])
    assert [h.chunk_id for h in only_d2] == [chunks[2].chunk_id]
    assert store.query(np.array([1, 0, 0], dtype=np.float32), top_k=3, doc_ids=[]) == []
    store.delete_document(d1)
    assert store.count() == 1
    assert store.document_chunk_ids(d1) == []


def test_opening_with_another_model_raises(prism_home):
    client = make_client(Settings(home=prism_home))
    VectorStore(client, "ws-test-00000002", "sentence-transformers/all-MiniLM-L6-v2", 384, "Research")
    with pytest.raises(EmbeddingModelMismatchError, match="Re-index it"):
        VectorStore(client, "ws-test-00000002", "BAAI/bge-small-en-v1.5", 384, "Research")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def chroma_server(tmp_path):
    beside_python = Path(sys.executable).parent / "chroma"
    exe = str(beside_python) if beside_python.exists() else shutil.which("chroma")
    if exe is None:
        pytest.skip("the chroma CLI is not installed")
    port = _free_port()
    proc = subprocess.Popen(
        [exe, "run", "--path", str(tmp_path / "server"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            if proc.poll() is not None:
                pytest.fail("chroma run exited early")
            time.sleep(0.25)
    else:
        proc.kill()
        pytest.fail("chroma server did not start")
    yield port
    proc.terminate()
    proc.wait(timeout=20)


@pytest.mark.slow
def test_same_code_runs_against_a_chroma_server(prism_home, embedder, chroma_server):
    settings = Settings(home=prism_home, chroma_host="127.0.0.1", chroma_port=chroma_server)
    svc = PrismService(settings, embedder=embedder)
    text = b"Section 4.3.1. The per-transaction limit for UPI Lite is Rs 500.\n\nOther text about refunds."
    [res] = svc.ingest([IngestItem(text, "limits.txt")], "Server WS")
    assert res.status == "ingested" and res.chunks == 1
    handle = svc.open("Server WS")
    hits = handle.store.query(embedder.embed(["UPI Lite limit"])[0], top_k=1)
    assert hits[0].text.startswith("Section 4.3.1.") and hits[0].metadata["source"] == "limits.txt"
    # nothing was written to the local Chroma folder
    assert not (prism_home / "chroma").exists()
    svc.delete_document("limits.txt", "Server WS")
    assert handle.store.count() == 0
