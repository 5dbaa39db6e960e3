"""A rule sentence that a chunk boundary cuts is quoted whole, with its figure and time limit, citing both chunks it
is read from. Through the real pipeline: a circular laid out as a PDF's text is (a line break every ~90 characters,
so chunks end at line breaks inside sentences), real ingest, Chroma and the embedder."""

from __future__ import annotations

import textwrap

import pytest

from prism.answering.continuation import complete_cut
from prism.types import IngestItem, RetrievedChunk
from tests.conftest import offline_service

RULE = ("For a disputed card payment of up to ₹25,000, a customer whose account has been open for at least one year "
        "and who has raised no other dispute in the previous six months receives a provisional credit within 3 "
        "working days.")
BODY = ("1. Scope. This circular applies to every card and account payment made through the Bank's mobile channels. "
        "2. Reporting. A customer reports a disputed payment through the app, the call centre or any branch, and the "
        "Bank acknowledges the report with a reference number on the same day. 3. Provisional credit. " + RULE +
        " It is reversed, after 7 days' notice, if the dispute finally fails. 4. Records. The Bank keeps the records "
        "of every dispute for eight years after it is closed.")


@pytest.fixture(scope="module")
def circular(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("cut_sentences_home")
    path = home / "dispute_circular.txt"
    path.write_text("Harbour Bank Dispute Circular\n\n" + "\n".join(textwrap.wrap(BODY, 90)) + "\n", encoding="utf-8")
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    assert [r.status for r in svc.ingest([IngestItem(path)], "cut")] == ["ingested"]
    [(_, rows)] = svc.chunk_rows("cut")
    texts = [r["text"] for r in sorted(rows, key=lambda r: r["chunk_index"])]
    # the premise: no chunk holds the rule sentence whole
    assert len(texts) >= 2 and not any(RULE in " ".join(t.split()) for t in texts), texts
    return svc


@pytest.mark.parametrize("question", [
    "How quickly does a customer get a provisional credit on a disputed card payment?",
    "Which customers get a provisional credit on a disputed card payment?",
])
def test_a_sentence_cut_by_a_chunk_boundary_is_quoted_whole_citing_both_chunks(circular, question):
    answer = circular.ask(question, "cut")
    lines = [line for line in answer.answer.splitlines() if line.startswith("- ")]
    assert lines[0] == f"- {RULE} [1][2]", answer.answer
    assert sum(RULE in line for line in lines) == 1  # its two halves, each completed, are quoted once
    assert {c.n for c in answer.citations} >= {1, 2}
    assert not answer.unsupported_numbers and "unsupported_figures" not in {n.kind for n in answer.notes}


def _chunk(text: str, index: int) -> RetrievedChunk:
    return RetrievedChunk(f"d-{index}", "d", "d.txt", text, index)


def test_a_sentence_whose_rest_is_not_in_the_next_chunk_stays_as_quoted():
    rows = [{"chunk_id": "d-0", "chunk_index": 0, "text": "Fees are charged at"},
            {"chunk_id": "d-1", "chunk_index": 1, "text": "An unrelated chunk with no overlap at all. It ends here."}]
    lines, added, beside = complete_cut([("Fees are charged at…", 1)], [_chunk(rows[0]["text"], 0)],
                                        lambda doc_id: rows, overlap=50)
    assert lines == [("Fees are charged at…", 1)] and added == [] and beside == {}


def test_an_abbreviation_in_the_rest_does_not_end_the_sentence():
    rows = [{"chunk_id": "d-0", "chunk_index": 0, "text": "A bank that fails to credit the account pays a penalty of"},
            {"chunk_id": "d-1", "chunk_index": 1,
             "text": "credit the account pays a penalty of Rs. 100 per day of delay. The next rule starts here."},
            ]
    lines, added, beside = complete_cut([("A bank that fails to credit the account pays a penalty of…", 1)],
                                        [_chunk(rows[0]["text"], 0)], lambda doc_id: rows, overlap=50)
    assert lines == [("A bank that fails to credit the account pays a penalty of Rs. 100 per day of delay.", 1)]
    assert [c.chunk_id for c in added] == ["d-1"] and beside == {0: (2,)}


def test_the_start_of_a_cut_sentence_is_read_after_the_last_sentence_end_of_the_previous_chunk():
    rows = [{"chunk_id": "d-0", "chunk_index": 0,
             "text": "Earlier rules apply. Refer to No. 12 of the circular, under which the bank credits"},
            {"chunk_id": "d-1", "chunk_index": 1, "text": "under which the bank credits the customer within 2 days."}]
    lines, _, beside = complete_cut([("…under which the bank credits the customer within 2 days.", 2)],
                                    [_chunk(rows[0]["text"], 0), _chunk(rows[1]["text"], 1)], lambda doc_id: rows,
                                    overlap=50)
    assert lines == [("Refer to No. 12 of the circular, under which the bank credits the customer within 2 days.", 2)]
    assert beside == {0: (1,)}
