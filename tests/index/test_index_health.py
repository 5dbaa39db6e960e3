"""A damaged vector index on disk (issue 41 B, case 75): a real workspace whose Chroma collection flushes its HNSW
index to files (the collection is made with a sync threshold of 2 before Prism opens it, so a document of a few
dozen chunks is on disk, as 1,000 chunks would be by default), damaged the two ways case 75 does: ``header.bin``
zeroed, ``data_level0.bin`` cut short. Opening it names the workspace, what is wrong and the command that rebuilds
it; the documents stay listed; ``reindex --from-chunks`` (and a plain ``reindex``) bring back exactly the dense hits
of the undamaged index. A rebuild that stopped part-way is reported too, and a re-index never loses a document whose
original is gone."""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import pytest

from prism.cli import common
from prism.cli.common import EXIT_FAILED, EXIT_OK
from prism.cli.main import main
from prism.errors import IndexDamagedError
from prism.index.index_health import REBUILD_MARKER, damage, segment_folder
from prism.types import IngestItem
from tests.conftest import offline_service

WS = "Circulars"
QUERY = "penalty for a late reconciliation of a settlement cycle"
CIRCULAR = "\n\n".join(
    f"Paragraph {i}. For settlement cycle {i} the member bank completes reconciliation within {i % 5 + 1} hours "
    f"of the cycle's close; a bank that is late pays a penalty of Rs. {100 * i} per cycle, capped at Rs. "
    f"{5000 * i} per month. Disputes about cycle {i} are raised through the {['UDIR', 'DRS', 'ODR'][i % 3]} "
    f"module within {i + 2} working days." for i in range(1, 41)).encode("utf-8")


def _fresh(home: Path, embedder):
    """A new service over ``home`` with Chroma's in-process cache cleared: what a new process sees on disk."""
    from chromadb.api.shared_system_client import SharedSystemClient

    SharedSystemClient.clear_system_cache()
    return offline_service(home, embedder)


def _dense(svc) -> list[str]:
    return [r.chunk_id for r in svc.search(QUERY, WS, mode="dense").results]


@pytest.fixture
def flushed(prism_home, embedder):
    """``(home, segment folder, dense top chunk ids, chunk count)`` of workspace Circulars with one circular of a few
    dozen chunks whose HNSW index is on disk."""
    import chromadb
    from chromadb.config import Settings as ChromaSettings

    svc = offline_service(prism_home, embedder)
    info = svc.create_workspace(WS)
    client = chromadb.PersistentClient(path=str(prism_home / "chroma"),
                                       settings=ChromaSettings(anonymized_telemetry=False, allow_reset=False))
    client.get_or_create_collection(info.collection, embedding_function=None, configuration={
        "hnsw": {"space": "cosine", "sync_threshold": 2, "batch_size": 2}}, metadata={
        "embed_model": embedder.model_name, "embed_dim": embedder.dimension, "embed_backend": embedder.backend})
    [result] = svc.ingest([IngestItem(CIRCULAR, "settlement_circular.txt")], WS, briefing=False)
    assert result.status == "ingested" and result.chunks > 20
    baseline = _dense(svc)
    folder = segment_folder(prism_home / "chroma", info.collection)
    assert folder is not None and (folder / "header.bin").is_file()
    assert damage(prism_home / "chroma", info.collection) is None  # whole
    assert len(baseline) == 5
    return prism_home, folder, baseline, result.chunks


def _count(folder: Path) -> int:
    """The vector count in ``header.bin`` (hnswlib's cur_element_count, after a 4-byte version and two size_t)."""
    return struct.unpack_from("<Q", (folder / "header.bin").read_bytes(), 20)[0]


def test_a_zeroed_header_is_named_and_rebuilt_from_the_stored_chunks(flushed, embedder, monkeypatch, capsys):
    home, folder, baseline, chunks = flushed
    (folder / "header.bin").write_bytes(bytes(100))
    svc = _fresh(home, embedder)
    expected = ("The vector index of workspace 'Circulars' is damaged: header.bin is unreadable (format version 0; "
                "zeroed or overwritten). Its documents and their chunks are safe, but searching the index would fail "
                "or return the wrong passages, so it is not used. Rebuild it from the stored chunks: python -m prism "
                "reindex --from-chunks --workspace 'Circulars' (or the Reindex button on the Workspaces page).")
    with pytest.raises(IndexDamagedError) as raised:
        svc.ask("What is the penalty for a late reconciliation?", WS)
    assert str(raised.value) == expected
    assert svc.index_damage(WS) == expected and svc.index_mismatch(WS) == expected
    assert [(d.source, d.chunks) for d in svc.documents(WS)] == [("settlement_circular.txt", chunks)]

    monkeypatch.setattr(common, "service", lambda: _fresh(home, embedder))
    assert main(["search", QUERY, "--mode", "dense", "--workspace", WS, "--json"]) == EXIT_FAILED
    assert json.loads(capsys.readouterr().out) == {"error": expected}
    assert main(["reindex", "--from-chunks", "--workspace", WS, "--json"]) == EXIT_OK
    [rebuilt] = json.loads(capsys.readouterr().out)
    assert (rebuilt["file"], rebuilt["status"], rebuilt["chunks"]) == ("settlement_circular.txt", "ingested", chunks)

    repaired = _fresh(home, embedder)
    assert _dense(repaired) == baseline
    assert repaired.index_damage(WS) is None
    assert not folder.exists()  # the damaged segment's folder, which Chroma left behind, is gone
    assert not (repaired.workspace_dir(WS) / REBUILD_MARKER).exists()


def test_a_data_file_cut_short_is_named_and_a_plain_reindex_restores_it(flushed, embedder):
    home, folder, baseline, chunks = flushed
    count, data = _count(folder), folder / "data_level0.bin"
    record = 4 + 4 * 32 + 4 * embedder.dimension + 8  # links of level 0 (M0 = 32), the vector, its label
    os.truncate(data, count * record // 2)
    svc = _fresh(home, embedder)
    with pytest.raises(IndexDamagedError, match=rf"^The vector index of workspace 'Circulars' is damaged: "
                       rf"data_level0.bin holds {count // 2} of the {count} vectors its header counts \(the file "
                       rf"was cut short\)\."):
        svc.search(QUERY, WS, mode="dense")
    results = svc.reindex(WS)  # from the kept original
    assert [(r.status, r.chunks, r.warnings) for r in results] == [("ingested", chunks, [])]
    assert _dense(_fresh(home, embedder)) == baseline


def test_a_rebuild_that_stopped_is_reported_and_a_new_one_finishes(flushed, embedder):
    home, _, baseline, _ = flushed
    svc = _fresh(home, embedder)
    (svc.workspace_dir(WS) / REBUILD_MARKER).write_text('{"started": "2026-12-04T10:00:00+00:00"}', encoding="utf-8")
    svc = _fresh(home, embedder)
    with pytest.raises(IndexDamagedError, match="is damaged: a rebuild of its vectors is running or stopped before "
                                                "it finished. Its documents"):
        svc.search(QUERY, WS)
    assert [r.status for r in svc.reindex(WS, from_chunks=True)] == ["ingested"]
    assert _dense(_fresh(home, embedder)) == baseline


def test_a_reindex_keeps_a_document_whose_original_is_gone(service):
    service.ingest([IngestItem(CIRCULAR, "settlement_circular.txt"),
                    IngestItem(b"Chargebacks are raised within 60 days of the transaction.", "faq.txt")], WS,
                   briefing=False)
    record = next(d for d in service.documents(WS) if d.source == "settlement_circular.txt")
    workspace = service.open(WS).workspace
    workspace.original_path(record.doc_id).unlink()
    rows = workspace.read_chunks(record.doc_id)
    results = {r.file: r for r in service.reindex(WS)}
    kept = results["settlement_circular.txt"]
    assert (kept.status, kept.chunks) == ("ingested", len(rows))
    assert kept.warnings == ["re-reading it failed (its kept original is missing); its stored chunks were kept"]
    assert results["faq.txt"].status == "ingested"
    assert sorted(d.source for d in service.documents(WS)) == ["faq.txt", "settlement_circular.txt"]
    assert workspace.read_chunks(record.doc_id) == rows
    hits = service.search(QUERY, WS, mode="dense").results
    assert hits and hits[0].source == "settlement_circular.txt"
