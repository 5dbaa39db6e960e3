"""The statement ranking (prism.retrieval.retriever, ``statement_weight``): a question that names a financial
statement ("using only the balance sheet"), or a line item read from one ("total assets"), fuses a third ranking,
BM25 over the rows of the tables titled as that statement, so the statement's row outranks the prose that
discusses the same line item.

Fixture tests/fixtures/statements/acme_2018_excerpt.txt: an MD&A paragraph and a note about property, plant and
equipment (the note even says "balance sheet"), then the consolidated balance sheet.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from prism.config import Settings
from prism.service import PrismService
from prism.types import IngestItem
from prism.ui.explain import score_rows, why_this_chunk

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "statements" / "acme_2018_excerpt.txt"
QUESTION = ("Using only the balance sheet, what is Acme's year end FY2018 net property, plant and equipment "
            "(in USD millions)?")
BALANCE_SHEET = "CONSOLIDATED BALANCE SHEETS"


@pytest.fixture(scope="module")
def home(tmp_path_factory, embedder) -> Path:
    home = tmp_path_factory.mktemp("statements")
    service = PrismService(Settings(home=home), embedder=embedder)
    results = service.ingest([IngestItem(FIXTURE)], "acme")
    assert [r.status for r in results] == ["ingested"], [r.error for r in results]
    return home


def service(home: Path, embedder, weight: float | None = None) -> PrismService:
    extra = {} if weight is None else {"statement_weight": weight}
    return PrismService(Settings(home=home, **extra), embedder=embedder)


def test_named_statement_puts_its_row_first(home, embedder):
    result = service(home, embedder).search(QUESTION, "acme", mode="hybrid", top_k=5)
    first = result.results[0]
    assert first.metadata.get("table_title") == BALANCE_SHEET
    assert "Property, plant and equipment, net 12,645 12,672" in first.text
    assert first.statement_rank == 1
    assert first.scores()["statement_rank"] == 1 and first.scores()["statement"] > 0
    # the prose ranks on dense and BM25 as before; it is not a row of the statement, so it has no statement rank
    assert [r.statement_rank for r in result.results[1:]] == [None] * (len(result.results) - 1)
    assert all("statement_rank" not in r.scores() for r in result.results[1:])


def test_without_the_statement_ranking_the_note_comes_first(home, embedder):
    """What the ranking fixes: dense and BM25 alone rank the PP&E note (which says "balance sheet") first."""
    result = service(home, embedder, weight=0.0).search(QUESTION, "acme", mode="hybrid", top_k=5)
    assert result.results[0].metadata.get("table_title") is None
    assert result.results[0].text.startswith("Property, plant and equipment are recorded at cost")
    ranks = {r.metadata.get("table_title"): r.rank for r in result.results}
    assert ranks[BALANCE_SHEET] == 2
    assert all(r.statement_rank is None for r in result.results)


def test_a_question_naming_no_statement_nor_line_item_is_ranked_as_before(home, embedder):
    question = "What is Acme's year end FY2018 net property, plant and equipment (in USD millions)?"
    on = service(home, embedder).search(question, "acme", mode="hybrid", top_k=5)
    off = service(home, embedder, weight=0.0).search(question, "acme", mode="hybrid", top_k=5)
    assert [(r.chunk_id, r.rrf_score) for r in on.results] == [(r.chunk_id, r.rrf_score) for r in off.results]
    assert all(r.statement_rank is None for r in on.results)


def test_a_line_item_brings_its_statement_ranking(home, embedder):
    # "total assets" is read from the balance sheet: the question need not name it
    question = "What were Acme's total assets at year end FY2018?"
    first = service(home, embedder).search(question, "acme", mode="hybrid", top_k=5).results[0]
    assert first.metadata.get("table_title") == BALANCE_SHEET and first.statement_rank == 1
    off = service(home, embedder, weight=0.0).search(question, "acme", mode="hybrid", top_k=5)
    assert all(r.statement_rank is None for r in off.results)


def test_single_side_modes_do_not_add_it(home, embedder):
    for mode in ("dense", "bm25"):
        result = service(home, embedder).search(QUESTION, "acme", mode=mode, top_k=5)
        assert all(r.statement_rank is None for r in result.results), mode


def test_why_and_score_rows_name_the_statement_ranking(home, embedder):
    first = service(home, embedder).search(QUESTION, "acme", mode="hybrid", top_k=5).results[0]
    sentence = why_this_chunk(first.scores())
    assert "#1 among the rows of the statement the question names" in sentence
    rows = score_rows(first.scores())
    assert [r["Stage"] for r in rows] == ["Dense", "BM25", "Statement", "RRF", "Rerank"]
    assert rows[2]["Rank"] == "#1"


def test_the_answer_quotes_the_balance_sheet_row(home, embedder):
    answer = service(home, embedder).ask(QUESTION, "acme")
    assert ("Property, plant and equipment, net, December 31, 2018: $12,645 million (CONSOLIDATED BALANCE SHEETS) [1]"
            in answer.answer)
    assert answer.citations[0].scores["statement_rank"] == 1
