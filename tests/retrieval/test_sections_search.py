"""Sections in the index and in retrieval, end to end: a nine-page 10-K built with fpdf2 (tests/builders.py
:func:`filing_pdf`) ingested through the real pipeline (pypdf, Chroma in a temp dir, the packaged embedder, BM25).

- every chunk carries the section of its page (the table of contents is none), and the BM25 token of it;
- a question that looks for a section's text ("what drove …", "risks") fuses the section ranking;
- another entity's balance sheet in Exhibit 99.1 never answers for the filer, but does when the question names it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from prism.config import Settings
from prism.service import PrismService
from prism.types import IngestItem
from prism.ui.explain import score_rows
from tests.builders import filing_pdf


@pytest.fixture(scope="module")
def home(tmp_path_factory, embedder) -> Path:
    home = tmp_path_factory.mktemp("sections")
    pdf = filing_pdf(tmp_path_factory.mktemp("filing") / "acme_2023_10k.pdf")
    results = PrismService(Settings(home=home), embedder=embedder).ingest([IngestItem(pdf)], "acme")
    assert [r.status for r in results] == ["ingested"], [r.error for r in results]
    return home


def service(home: Path, embedder, **settings) -> PrismService:
    """The filing's 9 pages are under the default threshold for ranking pages; these tests rank them."""
    return PrismService(Settings(home=home, **{"page_ranking_min_pages": 0, **settings}), embedder=embedder)


def test_chunks_carry_their_pages_section_and_its_token(home, embedder):
    [(record, rows)] = service(home, embedder).chunk_rows("acme")
    expected = {1: (None, None), 2: (None, None), 3: ("business", None), 4: ("risk_factors", None),
                5: ("mdna", None), 6: ("financial_statements", None), 7: ("notes", None), 8: ("exhibits", None),
                9: ("exhibits", "FOXTROT HOLDINGS, LLC")}
    within = {}  # the sections of the chunks that start and end on one page
    for r in rows:
        if r["page_start"] == r["page_end"]:
            within.setdefault(r["page_start"], set()).add((r.get("section"), r.get("exhibit_entity")))
    assert within == {page: {tag} for page, tag in expected.items()}
    for row in rows:
        section_token = [t for t in row["tokens"] if t.startswith("section:")]
        assert section_token == ([f"section:{row['section']}"] if row.get("section") else [])


def test_a_question_looking_for_drivers_ranks_the_mdna_by_the_section_ranking(home, embedder):
    question = "What drove Acme's revenue in 2023?"
    first = service(home, embedder).search(question, "acme").results[0]
    assert first.page_start == 5 and first.metadata["section"] == "mdna"
    assert first.section_rank == 1 and first.scores()["section_rank"] == 1
    assert "Section" in [r["Stage"] for r in score_rows(first.scores())]
    off = service(home, embedder, section_weight=0).search(question, "acme").results[0]
    assert off.section_rank is None and off.rrf_score < first.rrf_score  # the third list adds w / (k + 1)


def test_another_entitys_exhibit_never_answers_for_the_filer(home, embedder):
    results = service(home, embedder, top_k=50).search("What were accounts payable at the end of 2023?", "acme").results
    pages = [r.page_start for r in results]
    assert pages[0] == 6 and 9 not in pages[:5]
    foreign = [i for i, r in enumerate(results) if r.metadata.get("exhibit_entity")]
    assert foreign and foreign == list(range(len(results) - len(foreign), len(results)))  # all of them last
    assert all(results[i].page_rank is None for i in foreign)  # set apart before pages are ranked: no page slot
    ranks = sorted({r.page_rank for r in results if r.page_rank is not None})
    assert ranks == list(range(1, len(ranks) + 1))  # the filer's pages ranked 1..n without a gap
    flat = service(home, embedder, top_k=50, page_ranking=False).search("What were accounts payable at the end of "
                                                                        "2023?", "acme").results
    assert [r.page_start for r in flat][-len(foreign):] == [9] * len(foreign)
    named = service(home, embedder).search("What were Foxtrot Holdings' accounts payable?", "acme").results
    assert named[0].page_start == 9 and named[0].metadata["exhibit_entity"] == "FOXTROT HOLDINGS, LLC"


def test_the_record_lists_the_exhibits_of_other_entities(home, embedder):
    [record] = service(home, embedder).documents("acme")
    assert record.exhibit_entities == ["FOXTROT HOLDINGS, LLC"]
    assert record.to_public_dict()["exhibit_entities"] == ["FOXTROT HOLDINGS, LLC"]


def test_a_question_naming_an_exhibits_entity_is_answered_from_that_exhibit(home, embedder):
    """Not declined as an unknown company: the filing that carries its statements is the scope, and the answer
    quotes its balance sheet, not the filer's."""
    answer = service(home, embedder).ask("What were Foxtrot Holdings' accounts payable?", "acme")
    assert not answer.declined and not answer.answer.startswith("No document in workspace")
    assert answer.scope.documents == ("acme_2023_10k.pdf",) and answer.scope.entities == ()
    assert "25,758" in answer.answer and answer.citations[0].page_start == 9
