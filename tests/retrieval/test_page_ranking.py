"""Page ranking (prism/retrieval/pages.py): the fused chunks grouped by page, the best chunk of each page first.

The pure function on hand-computed scores, then the full HybridRetriever over the fictional sample PDFs (real Chroma,
the packaged embedder, BM25): the page-ranked list is recomputed from the same search without page ranking.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from prism.config import Settings
from prism.retrieval.pages import rank_pages
from prism.service import PrismService
from prism.types import IngestItem
from prism.ui.explain import score_rows, why_this_chunk
from tests.conftest import REPO

SAMPLE = REPO / "data" / "sample"
PAGE = {"a1": "A", "a2": "A", "a3": "A", "b1": "B", "c1": "C"}


def _order(candidates, decay):
    return [(p.chunk_id, p.page_rank, p.lead) for p in rank_pages(candidates, PAGE.__getitem__, decay)]


def test_best_chunk_per_page_first_then_the_rest_in_fused_order():
    candidates = [("a1", 0.05), ("a2", 0.04), ("b1", 0.045), ("a3", 0.02), ("c1", 0.03)]
    # decay 0.5: A = 0.05 + 0.5·0.04 + 0.25·0.02 = 0.075, B = 0.045, C = 0.03
    assert _order(candidates, 0.5) == [("a1", 1, True), ("b1", 2, True), ("c1", 3, True),
                                       ("a2", 1, False), ("a3", 1, False)]
    ranked = rank_pages(candidates, PAGE.__getitem__, 0.5)
    assert ranked[0].page_score == pytest.approx(0.075, abs=1e-15) and ranked[1].page_score == 0.045


def test_decay_decides_whether_a_page_of_several_good_chunks_beats_one_better_chunk():
    candidates = [("b1", 0.05), ("a1", 0.045), ("a2", 0.04)]
    assert [c for c, _, lead in _order(candidates, 0.0) if lead] == ["b1", "a1"]  # MaxP: 0.05 > 0.045
    assert [c for c, _, lead in _order(candidates, 0.5) if lead] == ["a1", "b1"]  # 0.065 > 0.05
    assert rank_pages(candidates, PAGE.__getitem__, 1.0)[0].page_score == pytest.approx(0.085, abs=1e-15)


def test_a_second_chunk_fused_among_the_first_keep_stays_after_its_page():
    candidates = [("a1", 0.05), ("a2", 0.049), ("a3", 0.048), ("b1", 0.047), ("c1", 0.03)]
    assert _order(candidates, 0.0) == [("a1", 1, True), ("b1", 2, True), ("c1", 3, True), ("a2", 1, False),
                                       ("a3", 1, False)]
    kept = [(p.chunk_id, p.page_rank, p.lead) for p in rank_pages(candidates, PAGE.__getitem__, 0.0, keep=2)]
    assert kept == [("a1", 1, True), ("a2", 1, True), ("b1", 2, True), ("c1", 3, True), ("a3", 1, False)]
    # keep counts fused positions: a3 is 3rd, so keep=4 keeps it too (b1, 4th, leads its own page anyway)
    assert [p.chunk_id for p in rank_pages(candidates, PAGE.__getitem__, 0.0, keep=4)] == ["a1", "a2", "a3", "b1",
                                                                                              "c1"]


def test_ties_keep_the_page_whose_best_chunk_came_first_and_empty_input():
    assert _order([("c1", 0.03), ("b1", 0.03)], 0.5) == [("c1", 1, True), ("b1", 2, True)]
    assert rank_pages([], PAGE.__getitem__, 0.5) == []


@pytest.mark.parametrize("decay", [-0.1, 1.5, math.nan])
def test_decay_outside_zero_one_is_refused(decay):
    with pytest.raises(ValueError, match="page decay must be in"):
        rank_pages([("a1", 0.1)], PAGE.__getitem__, decay)


@pytest.fixture(scope="module")
def sample_home(tmp_path_factory, embedder) -> Path:
    home = tmp_path_factory.mktemp("pages_home")
    service = PrismService(Settings(home=home), embedder=embedder)
    names = ("meridian_bank_upi_operating_circular.pdf", "meridian_fee_schedule_tables.pdf")
    results = service.ingest([IngestItem(SAMPLE / name) for name in names], "sample")
    assert [r.status for r in results] == ["ingested"] * 2, [r.error for r in results]
    return home


QUESTIONS = ("What is the fee for a failed UPI transaction?", "How are disputes about UPI collect requests resolved?",
             "What are the settlement timelines?")


@pytest.mark.parametrize("question", QUESTIONS)
def test_retriever_puts_different_pages_first_as_recomputed_from_the_fused_chunks(sample_home, embedder, question):
    flat = PrismService(Settings(home=sample_home, page_ranking=False, top_k=200), embedder=embedder)
    results = flat.search(question, "sample").results
    fused = [(r.chunk_id, r.rrf_score) for r in results]
    page_of = {r.chunk_id: (r.doc_id, r.page_start) for r in results}
    window = 8
    expected = rank_pages(fused[:window], page_of.__getitem__, 0.5)

    paged = PrismService(Settings(home=sample_home, page_decay=0.5, page_window=window, page_keep=0, top_k=200,
                                  page_ranking_min_pages=0), embedder=embedder)
    results = paged.search(question, "sample").results
    assert [r.chunk_id for r in results] == [p.chunk_id for p in expected] + [c for c, _ in fused[window:]]
    assert [(r.page_score, r.page_rank) for r in results[:window]] == [(p.page_score, p.page_rank) for p in expected]
    assert all(r.page_rank is None for r in results[window:])  # below the window: fused order, no page rank
    pages = len({page_of[c] for c, _ in fused[:window]})
    first = [(r.doc_id, r.page_start) for r in results[:pages]]
    assert len(set(first)) == pages > 1  # every page of the window once before any page's second chunk

    top5 = PrismService(Settings(home=sample_home, page_keep=0, page_ranking_min_pages=0),
                        embedder=embedder).search(question, "sample").results
    window_pages = len({page_of[c] for c, _ in fused[:20]})
    assert len({(r.doc_id, r.page_start) for r in top5}) == min(5, window_pages)


def test_a_scope_of_few_pages_keeps_the_fused_order(sample_home, embedder):
    """The two sample PDFs hold 9 pages, under the default ``page_ranking_min_pages`` (20): the top page's next
    chunks are the answer's context there, so the result is the fused order, without page ranks."""
    for question in QUESTIONS:
        default = PrismService(Settings(home=sample_home, top_k=200), embedder=embedder).search(question, "sample")
        flat = PrismService(Settings(home=sample_home, top_k=200, page_ranking=False), embedder=embedder).search(
            question, "sample")
        assert [r.chunk_id for r in default.results] == [r.chunk_id for r in flat.results]
        assert all(r.page_rank is None for r in default.results)
    nine = PrismService(Settings(home=sample_home, page_ranking_min_pages=9), embedder=embedder)
    assert nine.search(QUESTIONS[0], "sample").results[0].page_rank == 1  # 9 pages reach a threshold of 9


def test_why_and_score_rows_name_the_page(sample_home, embedder):
    first = PrismService(Settings(home=sample_home, page_ranking_min_pages=0), embedder=embedder).search(
        QUESTIONS[0], "sample").results[0]
    assert first.scores()["page_rank"] == 1
    assert "its page #1 by the fused scores of its chunks" in why_this_chunk(first.scores())
    rows = score_rows(first.scores())
    assert [r["Stage"] for r in rows] == ["Dense", "BM25", "RRF", "Page", "Rerank"]
    assert rows[3]["Score"] == f"{first.page_score:.4f}"
