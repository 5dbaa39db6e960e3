"""A chunk read for a calculation beside a retrieved one (the rest of its table on the same page) is cited as what it
is: not retrieved, so no retrieval rank and no "not in the BM25 top list" explanation, but the passage it was read
beside, in the UI's words and in the CLI's source line."""

from __future__ import annotations

from prism.answering.programs.tables import sibling_chunk
from prism.cli.answer import format_answer
from prism.types import Answer, Citation, RetrievedChunk
from prism.ui.explain import why_cited


def _retrieved() -> RetrievedChunk:
    return RetrievedChunk("doc-a:0040", "doc-a", "NETFLIX_2015_10K.pdf", "Revenues $ 6,779,511 $ 5,504,656",
                          40, 40, 40, rank=3, dense_score=0.71, dense_rank=2, bm25_score=11.2, bm25_rank=4,
                          rrf_score=0.016, rrf_rank=3, metadata={"table_id": "t7"})


def test_a_table_part_read_beside_a_retrieved_chunk_carries_that_chunks_rank():
    row = {"chunk_id": "doc-a:0041", "text": "Net income $ 122,641 $ 266,799", "chunk_index": 41, "page_start": 40,
           "page_end": 40, "table_id": "t7", "tokens": ["net", "income"]}
    sibling = sibling_chunk(_retrieved(), row)
    assert sibling.read_beside == 3 and all(v is None for v in sibling.scores().values())
    assert sibling.metadata == {"table_id": "t7"}  # the stored row's own fields are not metadata
    citation = Citation.from_chunk(2, sibling, 6)
    assert citation.rank is None and citation.read_beside == 3
    assert citation.to_dict()["read_beside"] == 3
    assert why_cited(citation.to_dict()) == (
        "Not retrieved itself: the rest of the table of retrieved passage #3 on its page, read to compute the "
        "answer; it has no retrieval scores.")
    retrieved = Citation.from_chunk(1, _retrieved(), 3)
    assert retrieved.read_beside is None and retrieved.rank == 3
    assert why_cited(retrieved.to_dict()).startswith("Dense #2, BM25 #4, fused #3")
    answer = Answer(answer="Net income FY2015 = $122,641 thousand [1] [2]", mode="extractive",
                    citations=[retrieved, citation])
    text = format_answer(answer)
    assert ("[2] NETFLIX_2015_10K.pdf, page 40  (not retrieved: the rest of the table of retrieved passage #3, read "
            "for the calculation)") in text
    assert "[1] NETFLIX_2015_10K.pdf, page 40  (dense 0.710, bm25 11.200, rrf 0.016)" in text
