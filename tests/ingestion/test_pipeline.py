"""Ingestion through the service with real parsers, the real embedder and a real Chroma in a temp dir."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import unicodedata

import pytest

from prism.errors import DocumentNotFoundError
from prism.types import IngestItem
from tests.builders import long_circular, symbol_bullets_pdf
from tests.conftest import CASES, REPO, require_data

SAMPLE = REPO / "data" / "sample"


def _all_chunk_sources(handle) -> list[str]:
    got = handle.store._col.get(include=["metadatas"])
    return [m["source"] for m in got["metadatas"]]


def _consistent(handle) -> None:
    """Registry, chunk rows, originals and Chroma agree."""
    docs = handle.workspace.documents()
    assert handle.store.count() == sum(d.chunks for d in docs)
    for d in docs:
        assert handle.workspace.original_path(d.doc_id).exists()
        rows = handle.workspace.read_chunks(d.doc_id)
        assert len(rows) == d.chunks
        assert sorted(handle.store.document_chunk_ids(d.doc_id)) == sorted(r["chunk_id"] for r in rows)
    assert handle.workspace.pending() == []
    kept = {p.name for p in (handle.workspace.dir / "originals").iterdir()}
    assert kept == {d.doc_id for d in docs}


def test_batch_with_bad_files_continues_and_reports(service):
    items = [
        IngestItem(CASES / "01_aes256_empty_user_password.pdf"),
        IngestItem(CASES / "01b_aes256_user_password_secret.pdf"),
        IngestItem(CASES / "04b_single_blank_page.pdf"),
        IngestItem(CASES / "16_punctuation_only.txt"),
        IngestItem(CASES / "04_page2_has_no_text_layer.pdf"),
        IngestItem(b"", "empty.pdf"),
        IngestItem(b"\x89PNG\r\n\x1a\n....", "photo.png"),
    ]
    res = {r.file: r for r in service.ingest(items, "cases")}
    assert res["01_aes256_empty_user_password.pdf"].status == "ingested"
    assert "password-protected" in res["01b_aes256_user_password_secret.pdf"].error
    assert res["01b_aes256_user_password_secret.pdf"].status == "failed"
    assert "no extractable text" in res["04b_single_blank_page.pdf"].error
    assert "no indexable text" in res["16_punctuation_only.txt"].error
    r04 = res["04_page2_has_no_text_layer.pdf"]
    assert r04.status == "ingested" and r04.pages == 2
    assert [s["page"] for s in r04.skipped_pages] == [2]
    assert "empty" in res["empty.pdf"].error and res["empty.pdf"].status == "failed"
    assert res["photo.png"].status == "failed" and "photo.png" in res["photo.png"].error
    handle = service.open("cases")
    assert sorted(d.source for d in handle.workspace.documents()) == [
        "01_aes256_empty_user_password.pdf",
        "04_page2_has_no_text_layer.pdf",
    ]
    got = handle.store._col.get(include=["metadatas", "documents"])
    for meta, text in zip(got["metadatas"], got["documents"], strict=True):
        assert text.strip()
        if meta["source"] == "04_page2_has_no_text_layer.pdf":
            assert (meta["page_start"], meta["page_end"]) == (1, 1)
    _consistent(handle)


def test_replace_duplicate_and_delete_purge_everywhere(service, tmp_path):
    v1 = (CASES / "12_policy_v1.txt").read_bytes()
    v2 = (CASES / "12_policy_v2.txt").read_bytes()
    [r1] = service.ingest([IngestItem(v1, "policy.txt")], "w")
    [r2] = service.ingest([IngestItem(v2, "policy.txt")], "w")
    assert (r1.status, r2.status) == ("ingested", "replaced")
    handle = service.open("w")
    texts = handle.store._col.get(include=["documents"])["documents"]
    assert any("30 days" in t for t in texts) and not any("14 days" in t for t in texts)
    assert [d.doc_id for d in handle.workspace.documents()] == [r2.doc_id]
    assert not handle.workspace.original_path(r1.doc_id).exists()
    assert handle.workspace.read_chunks(r1.doc_id) == []

    boiler = CASES / "13_repeated_boilerplate_paragraph.txt"
    first, again, renamed = service.ingest(
        [IngestItem(boiler), IngestItem(boiler), IngestItem(boiler.read_bytes(), "copy of boilerplate.txt")], "w"
    )
    assert (first.status, again.status, renamed.status) == ("ingested", "duplicate", "duplicate")
    assert renamed.doc_id == first.doc_id and "same content" in renamed.warnings[0]
    assert _all_chunk_sources(handle).count(boiler.name) == first.chunks
    ids = handle.store.document_chunk_ids(first.doc_id)
    assert len(ids) == len(set(ids)) == first.chunks

    for name in ("35_test01.txt", "35_test02.txt"):
        service.ingest([IngestItem(CASES / name)], "w")
    service.delete_document("35_test01.txt", "w")
    assert "35_test01.txt" not in _all_chunk_sources(handle)
    assert "35_test02.txt" in _all_chunk_sources(handle)
    with pytest.raises(DocumentNotFoundError, match="35_test01.txt"):
        service.delete_document("35_test01.txt", "w")
    _consistent(handle)


def test_unpaged_sources_store_no_page_keys(service):
    service.ingest([IngestItem(CASES / "14_txt_without_page_numbers.txt"), IngestItem(CASES / "33_a_three_pages.pdf"),
                    IngestItem(CASES / "33_b_notes_without_pages.txt")], "pages")
    handle = service.open("pages")
    got = handle.store._col.get(include=["metadatas"])
    for meta in got["metadatas"]:
        assert None not in meta.values()
        if meta["source"].endswith(".txt"):
            assert "page_start" not in meta and "page_end" not in meta
        else:
            assert meta["page_start"] >= 1
    assert {d.source: d.pages for d in handle.workspace.documents()}["33_b_notes_without_pages.txt"] is None


def test_hostile_file_names_never_reach_the_filesystem(service, prism_home):
    names = ["../../etc/passwd.txt", "..\\..\\evil.txt", "a\x00b.txt", "/abs/path/x.txt", "con\x1b[31m.txt"]
    results = service.ingest([IngestItem(f"doc {i} body text".encode(), n) for i, n in enumerate(names)], "h")
    assert all(r.status == "ingested" for r in results), [r.error for r in results]
    for r in results:
        assert "/" not in r.file and "\\" not in r.file and "\x00" not in r.file and "\x1b" not in r.file
    every_path = [str(p.relative_to(prism_home)) for p in prism_home.rglob("*")]
    assert not any("passwd" in p or "evil" in p for p in every_path)
    assert not (prism_home.parent / "etc").exists()


def test_pdf_pages_are_stored_with_their_page_numbers(service):
    # The check finds each phrase's page with pypdf and asserts the stored chunks containing it say the same page.
    from pypdf import PdfReader

    def page_of(path, phrase):
        for i, page in enumerate(PdfReader(path).pages, start=1):
            if phrase in " ".join((page.extract_text() or "").split()):
                return i
        raise AssertionError(f"{phrase!r} not in {path.name}")

    upi = SAMPLE / "meridian_bank_upi_operating_circular.pdf"
    fees = SAMPLE / "meridian_fee_schedule_tables.pdf"
    service.ingest([IngestItem(upi), IngestItem(fees)], "real")
    handle = service.open("real")
    for path, phrase in ((upi, "Merchant KYC"), (upi, "Effective Date and Review"), (fees, "Locker")):
        want = page_of(path, phrase)
        got = handle.store._col.get(where={"source": path.name}, include=["documents", "metadatas"])
        pages = [m["page_start"] for d, m in zip(got["documents"], got["metadatas"], strict=True)
                 if phrase in " ".join(d.split())]
        assert pages and min(pages) == want


KILL_SCRIPT = """
import sys
from prism.types import IngestItem
from prism.service import PrismService
svc = PrismService()
svc.ingest([IngestItem(sys.argv[1])], "crash")
print("FIRST-DONE", flush=True)
svc.ingest([IngestItem(sys.argv[2])], "crash")
print("SECOND-DONE", flush=True)
"""


@pytest.mark.slow
def test_kill_mid_ingest_leaves_no_partial_document(prism_home, service, tmp_path):
    small = CASES / "35_test02.txt"
    big = long_circular(tmp_path / "master_circular_built.pdf", 35)  # 35 dense pages, ~210 chunks
    env = {**os.environ, "PRISM_HOME": str(prism_home), "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen([sys.executable, "-c", KILL_SCRIPT, str(small), str(big)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout.readline().strip() == "FIRST-DONE"
    pending_dir = None
    deadline = time.time() + 300
    killed_with_marker = False
    while time.time() < deadline and proc.poll() is None:
        ws_dirs = list((prism_home / "workspaces").glob("*/pending"))
        pending_dir = ws_dirs[0] if ws_dirs else None
        if pending_dir and any(pending_dir.glob("*.json")):
            os.kill(proc.pid, signal.SIGKILL)
            killed_with_marker = True
            break
        time.sleep(0.005)
    proc.wait(timeout=30)
    assert killed_with_marker, "the subprocess finished before it could be killed mid-document"
    marker = json.loads(next(pending_dir.glob("*.json")).read_text())
    assert marker["action"] == "add" and len(marker["doc_ids"]) == 1

    handle = service.open("crash")  # a new process view: recovery runs on open
    assert [d.source for d in handle.workspace.documents()] == ["35_test02.txt"]
    assert handle.store.document_chunk_ids(marker["doc_ids"][0]) == []
    assert set(_all_chunk_sources(handle)) == {"35_test02.txt"}
    _consistent(handle)
    # and the interrupted document ingests cleanly afterwards
    [res] = service.ingest([IngestItem(big)], "crash")
    assert res.status == "ingested" and res.doc_id == marker["doc_ids"][0]
    _consistent(handle)


def test_progress_callback_reports_monotonic_fractions(service):
    seen: list[tuple[float, str]] = []
    service.ingest([IngestItem(CASES / "35_test01.txt"), IngestItem(CASES / "35_test02.txt")], "p",
                   progress=lambda f, m: seen.append((f, m)))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and fractions[0] == 0.0
    assert any("35_test02.txt" in m and "ingested" in m for _, m in seen)


def test_concurrent_writers_to_one_workspace_are_serialised(service):
    import threading

    texts = {f"note{i}.txt": f"Note {i}: the settlement window for batch {i} closes at {i}:00.".encode()
             for i in range(6)}
    errors: list[BaseException] = []

    def worker(names):
        try:
            service.ingest([IngestItem(texts[n], n) for n in names], "busy")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    names = sorted(texts)
    threads = [threading.Thread(target=worker, args=(names[i::2],)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    handle = service.open("busy")
    assert sorted(d.source for d in handle.workspace.documents()) == names
    _consistent(handle)


def test_model_mismatch_is_reported_and_reindex_fixes_it(service, embedder, prism_home):
    from prism.config import Settings
    from prism.errors import EmbeddingModelMismatchError
    from prism.index.embedder import PrismEmbedding
    from prism.service import PrismService

    service.ingest([IngestItem(CASES / "12_policy_v2.txt")], "m")
    other = PrismService(Settings(home=prism_home, embed_model_name="custom/minilm-copy", chunk_size=60,
                                  chunk_overlap=10),
                         embedder=PrismEmbedding(Settings().resolved_embed_model_path(), "custom/minilm-copy"))
    with pytest.raises(EmbeddingModelMismatchError, match="Re-index it"):
        other.open("m")
    [res] = other.reindex("m")
    assert res.status == "ingested" and res.chunks == 2  # re-chunked at 60 characters from the kept original
    handle = other.open("m")
    assert handle.store._col.metadata["embed_model"] == "custom/minilm-copy"
    assert [d.embed_model for d in handle.workspace.documents()] == ["custom/minilm-copy"]
    _consistent(handle)


def test_title_headers_are_indexed_but_never_stored_as_chunk_text(prism_home, embedder, tmp_path):
    """An informative file name goes in front of every chunk for the embedder and BM25 (within the 256 word-piece
    window); Chroma documents and citations keep the chunk's own text. An opaque RBI file code adds nothing (titles
    from the file name only here; the profile's title is tested in test_profiles_at_ingest)."""
    from prism.config import Settings
    from prism.service import PrismService

    service = PrismService(Settings(home=prism_home, title_source="file_name"), embedder=embedder)
    named = tmp_path / "Zephyr_Quarterly_Handbook.pdf"  # words the circular itself never uses
    named.write_bytes((SAMPLE / "rbi_style_master_circular_digital_payments.pdf").read_bytes())
    opaque = tmp_path / "NT7871494C59CE3B455BBD0D18770BBB1408.pdf"  # an RBI file code as its name
    opaque.write_bytes((SAMPLE / "meridian_bank_upi_operating_circular.pdf").read_bytes())
    r1, r2 = service.ingest([IngestItem(named), IngestItem(opaque)], "titles", briefing=False)
    handle = service.open("titles")
    rows = handle.workspace.read_chunks(r1.doc_id)
    title = "Zephyr Quarterly Handbook"
    assert len(rows) == r1.chunks > 5
    assert all(r["index_text"] == f"{title}\n\n{r['text']}" for r in rows if "table" not in r)
    # a table chunk's header (statement | periods | unit) goes between the title and the text
    assert all(r["index_text"].startswith(f"{title}\n\n") and r["index_text"].endswith(r["text"]) for r in rows)
    assert all(embedder.count_tokens(r["index_text"]) <= embedder.max_tokens for r in rows)
    opaque_rows = handle.workspace.read_chunks(r2.doc_id)
    assert all("index_text" not in r for r in opaque_rows if "table" not in r)  # no title header
    assert all(r["index_text"].startswith(r["table"]["header"]) for r in opaque_rows if "index_text" in r)
    got = handle.store._col.get(ids=[r["chunk_id"] for r in rows], include=["documents", "embeddings"])
    texts = dict(zip(got["ids"], got["documents"], strict=True))
    assert all(texts[r["chunk_id"]] == r["text"] for r in rows)
    vectors = dict(zip(got["ids"], got["embeddings"], strict=True))
    expected = embedder.embed([r["index_text"] for r in rows[:3]])
    for row, vec in zip(rows[:3], expected, strict=True):
        assert abs(float(vec @ vectors[row["chunk_id"]]) - 1.0) < 1e-4
    # a word only the title has: BM25 finds the named document's chunks, never the other document
    hits = service.search("zephyr handbook", "titles", mode="bm25", top_k=100).results
    assert {h.source for h in hits} == {named.name} and len(hits) == r1.chunks


def test_embedding_progress_counts_chunks_and_embeds_a_shared_text_once(embedder):
    # a boilerplate paragraph repeated in several chunks is embedded once, but progress counts the chunks the analyst
    # sees in the result ("642 chunks"), not the distinct texts
    import numpy as np

    from prism.config import Settings
    from prism.ingestion.ahead import Ahead, EmbedAhead, StageTimings

    boilerplate = "Confidential - do not distribute. Copyright 2024 Example Corp."
    texts = ["Section 1. The quarterly target for region 1 is 10 units.", boilerplate,
             "Section 2. The quarterly target for region 2 is 20 units.", boilerplate]
    ahead = Ahead(vectors={texts[0]: embedder.embed(texts[:1])[0]})  # embedded while the file parsed
    seen: list[tuple[int, int]] = []
    timings = StageTimings()
    vectors = EmbedAhead(embedder, Settings(), timings).embed(texts, ahead, lambda d, t: seen.append((d, t)))
    assert seen == [(1, 4), (4, 4)]
    assert vectors.shape == (4, 384) and timings.chunks_ahead == 1 and timings.ahead_unused == 0
    np.testing.assert_array_equal(vectors[1], vectors[3])
    np.testing.assert_allclose(vectors[2], embedder.embed(texts[2:3])[0], atol=1e-6)


def _stored_texts(handle, doc_id: str) -> list[str]:
    """The chunk texts of a document as the chunk rows and Chroma hold them."""
    rows = [r["text"] for r in handle.workspace.read_chunks(doc_id)]
    return rows + handle.store._col.get(where={"doc_id": doc_id}, include=["documents"])["documents"]


def _private_use(texts: list[str]) -> set[str]:
    return {f"U+{ord(ch):04X}" for t in texts for ch in t if unicodedata.category(ch) == "Co"}


def test_symbol_font_bullets_are_stored_as_bullets(service, tmp_path):
    pdf = symbol_bullets_pdf(tmp_path / "mcc_rules.pdf", [
        "Merchant category code rules", "\uf0b7 Merchants shall use the standard MCC for each transaction.",
        "\uf0a7 Acquirers shall check the MCC every quarter.", "\uf0fc Members shall comply \ue123by 1 April."])
    [result] = service.ingest([IngestItem(pdf)], "pua", briefing=False)
    assert result.status == "ingested", result.error
    texts = _stored_texts(service.open("pua"), result.doc_id)
    assert texts and _private_use(texts) == set()
    joined = "\n".join(texts)
    for line in ("• Merchants shall use the standard MCC", "• Acquirers shall check", "• Members shall comply by"):
        assert line in joined


def test_npci_circular_symbol_bullets_are_stored_as_bullets(service):
    pdf = require_data("npci", "pdfs", "UPI OC34-MCC Standardisation.pdf")
    [result] = service.ingest([IngestItem(pdf)], "npci", briefing=False)
    assert result.status == "ingested", result.error
    texts = _stored_texts(service.open("npci"), result.doc_id)
    assert _private_use(texts) == set()  # pypdf extracts its Symbol bullets as U+F0B7
    assert any(line.startswith("• ") for t in texts for line in t.splitlines())
