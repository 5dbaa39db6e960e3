"""Follow-ups that leak the previous question, and multi-part questions.

A conversation switches from a circular to a filing and back over real generated PDFs, the real parser, embedder,
Chroma and BM25 (the offline service: extractive answers). A question that names its own company and subject is
searched as asked; "X, and who is Y?" is answered part by part, each part citing its own passages, streamed.
"""

from __future__ import annotations

import re

import pytest

from prism.answering.conversation import condense, condense_heuristic, is_followup
from prism.answering.multipart import MultiPartStream, join_answers, resolve_part, split_question
from prism.types import Answer, IngestItem, Turn
from tests.answering.test_conversation import llm
from tests.builders import text_pdf
from tests.conftest import offline_service
from tests.fakes_llm import ScriptedLLM

NBFC_Q = "What is the maximum exposure a bank can take on a single NBFC?"
NETFLIX_Q = "What was Netflix's total debt-to-equity ratio, and who is its CEO?"
BACK_Q = "What is the exposure limit on a group of connected NBFCs?"

CIRCULAR = [
    "RESERVE BANK OF INDIA\nRBI/2024-25/31 DOR.CRE.REC.12/21.04.172/2024-25\nMaster Direction - Large Exposures "
    "Framework for lending to Non-Banking Financial Companies\nAll Scheduled Commercial Banks",
    "3. Exposure limits\n3.1 The maximum exposure a bank can take on a single NBFC shall not exceed 20 per cent of "
    "the bank's eligible capital base (Tier 1 capital).\n3.2 The exposure of a bank to a group of connected NBFCs "
    "shall not exceed 25 per cent of its Tier 1 capital.\n3.3 Banks shall report breaches to the Department of "
    "Supervision within seven days.",
]
FILING = [
    "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-K\nANNUAL REPORT PURSUANT TO "
    "SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\nFor the fiscal year ended December 31, 2022\n"
    "Netflix, Inc.\n(Exact name of registrant as specified in its charter)",
    "Liquidity and Capital Resources\nAs of December 31, 2022, Netflix had total debt of $14,353 million and total "
    "stockholders' equity of $20,777 million, so the total debt-to-equity ratio was 0.69. Netflix expects to meet "
    "its cash needs from operations.",
    "Executive Officers of the Registrant\nReed Hastings, Chief Executive Officer, co-founded Netflix in 1997 and "
    "has served as Chief Executive Officer since 1998. Spencer Neumann is Chief Financial Officer.",
]


@pytest.fixture(scope="module")
def svc(tmp_path_factory, embedder):
    """One workspace holding a generated RBI circular and a generated Netflix 10-K."""
    root = tmp_path_factory.mktemp("multipart")
    circular = text_pdf(root / "RBI_NBFC_exposure_circular.pdf", CIRCULAR)
    filing = text_pdf(root / "Netflix_2022_10K.pdf", FILING)
    service = offline_service(root / "home", embedder, briefing_on_ingest=False)
    results = service.ingest([IngestItem(circular), IngestItem(filing)], "docs")
    assert [r.status for r in results] == ["ingested", "ingested"]
    return service


def _pages(answer: Answer) -> set[tuple[str, int | None]]:
    return {(c.source, c.page_start) for c in answer.citations}


def _sections(text: str) -> list[str]:
    return [s for s in re.split(r"(?m)^Part \d+ of \d+: .*$", text) if s.strip()]


def test_a_question_with_its_own_subject_is_not_a_follow_up():
    turns = [Turn(NBFC_Q, "…")]
    assert not is_followup(NETFLIX_Q)
    assert condense_heuristic(NETFLIX_Q, turns) == NETFLIX_Q
    # real follow-ups still lean on the previous question
    assert is_followup("Who is its CEO?") and is_followup("And in 2014?") and is_followup("What about Adobe?")
    assert condense_heuristic("What about Adobe?", [Turn("What was Netflix's revenue in 2022?", "…")]) == (
        "What about Adobe (Netflix's revenue 2022)?")
    # the LLM is not even asked to rewrite a standalone question
    fake = ScriptedLLM(script=["What was Netflix's CEO (maximum exposure bank single NBFC)?"])
    result = condense(NETFLIX_Q, turns, llm(fake))
    assert (result.query, result.method, fake.calls) == (NETFLIX_Q, "standalone", [])


def test_split_only_where_both_halves_are_questions():
    assert split_question(NETFLIX_Q) == ["What was Netflix's total debt-to-equity ratio?", "Who is its CEO?"]
    assert split_question("What is the penalty? Who pays it?") == ["What is the penalty?", "Who pays it?"]
    assert split_question("What are the P2P and P2M limits?") == ["What are the P2P and P2M limits?"]
    assert split_question("How and when must it be reported?") == ["How and when must it be reported?"]
    assert resolve_part("Who is its CEO?", ["What was Netflix's total debt-to-equity ratio?"]) == \
        "Who is Netflix's CEO?"
    assert resolve_part("Who is Adobe's CEO?", ["What was Netflix's revenue?"]) == "Who is Adobe's CEO?"


def test_join_renumbers_each_parts_citations_after_the_previous_ones(svc):
    one = svc.ask("What was Netflix's total debt-to-equity ratio?", "docs")
    two = svc.ask("Who is Netflix's CEO?", "docs")
    joined = join_answers(["A?", "B?"], [one, two])
    first_ids = [c.chunk_id for c in one.citations]
    new_ids = [c.chunk_id for c in two.citations if c.chunk_id not in first_ids]
    assert [c.chunk_id for c in joined.citations] == first_ids + new_ids
    assert [c.n for c in joined.citations] == list(range(1, len(first_ids) + len(new_ids) + 1))
    first, second = _sections(joined.answer)
    by_n = {c.n: c for c in joined.citations}
    for section, answer in ((first, one), (second, two)):
        texts = {c.text for c in answer.citations}
        ns = {int(n) for n in re.findall(r"\[(\d+)\]", section)}
        assert ns and all(by_n[n].text in texts for n in ns)  # each section cites its own part's passages


def test_conversation_switches_from_circulars_to_filings_and_back(svc):
    first = svc.ask(NBFC_Q, "docs")
    assert "20 per cent" in first.answer and ("RBI_NBFC_exposure_circular.pdf", 2) in _pages(first)
    assert {c.source for c in first.citations} == {"RBI_NBFC_exposure_circular.pdf"}
    history = [Turn(NBFC_Q, first.answer, first.condensed_query)]

    stream = svc.ask(NETFLIX_Q, "docs", history=history, stream=True)
    assert isinstance(stream, MultiPartStream)
    streamed = "".join(stream)
    answer = stream.answer
    assert answer is not None and not answer.declined
    assert "Part 1 of 2: What was Netflix's total debt-to-equity ratio?\n\n" in streamed
    assert "\n\nPart 2 of 2: Who is Netflix's CEO?\n\n" in streamed
    assert "NBFC" not in answer.condensed_query and "exposure" not in answer.condensed_query
    assert answer.condensed_query == "What was Netflix's total debt-to-equity ratio? | Who is Netflix's CEO?"
    ratio, ceo = _sections(answer.answer)
    assert "0.69" in ratio and "Reed Hastings" in ceo
    by_n = {c.n: c for c in answer.citations}
    ratio_ns, ceo_ns = ({int(n) for n in re.findall(r"\[(\d+)\]", s)} for s in (ratio, ceo))
    assert ratio_ns and ceo_ns  # each part cites passages; one both cite keeps one number
    assert sorted(ratio_ns | ceo_ns) == [c.n for c in answer.citations]
    spans = {n: range(c.page_start or 0, (c.page_end or c.page_start or 0) + 1) for n, c in by_n.items()}
    assert any(2 in spans[n] for n in ratio_ns) and any(3 in spans[n] for n in ceo_ns)
    assert any("0.69" in by_n[n].text for n in ratio_ns) and any("Reed Hastings" in by_n[n].text for n in ceo_ns)
    assert {c.source for c in answer.citations} == {"Netflix_2022_10K.pdf"}
    history.append(Turn(NETFLIX_Q, answer.answer, answer.condensed_query))

    back = svc.ask(BACK_Q, "docs", history=history)
    assert back.condensed_query == BACK_Q  # nothing of Netflix carried into the circular's question
    assert "25 per cent" in back.answer and ("RBI_NBFC_exposure_circular.pdf", 2) in _pages(back)
    assert {c.source for c in back.citations} == {"RBI_NBFC_exposure_circular.pdf"}

    follow = svc.ask("And who must breaches be reported to?", "docs", history=history[:1])
    assert follow.condensed_query != "And who must breaches be reported to?"  # a real follow-up is still condensed
    assert "Department of Supervision" in follow.answer


def test_a_chunk_two_parts_cite_keeps_one_number_and_is_listed_once(svc):
    """Case c63's question ("When may … and how is the balance refunded?") cites the same chunk in both parts: it
    is one citation, both sections cite it as [1], and no retrieved passage repeats a cited one (the chat's
    feedback marks are keyed by chunk, so a repeat was a duplicate widget key and an exception on the page)."""
    one = svc.ask(NBFC_Q, "docs")
    two = svc.ask(BACK_Q, "docs")
    shared = {c.chunk_id for c in one.citations} & {c.chunk_id for c in two.citations}
    assert shared, "both circular questions cite the exposure-limits chunk"
    joined = join_answers(["A?", "B?"], [one, two])
    ids = [c.chunk_id for c in [*joined.citations, *joined.retrieved]]
    assert len(ids) == len(set(ids))
    assert [c.n for c in [*joined.citations, *joined.retrieved]] == list(range(1, len(ids) + 1))
    by_id = {c.chunk_id: c.n for c in joined.citations}
    first, second = _sections(joined.answer)
    for chunk_id in shared:
        n = by_id[chunk_id]
        assert f"[{n}]" in first and f"[{n}]" in second
    cited = {int(n) for n in re.findall(r"\[(\d+)\]", joined.answer)}
    assert cited == {c.n for c in joined.citations}
    assert all(c.text in {x.text for x in [*one.citations, *two.citations]} for c in joined.citations)


def test_a_part_that_points_at_the_earlier_answer_is_not_asked_alone():
    """The sample set's multi-hop q052: "what cap does that paragraph set?" means the paragraph the first part
    finds; asked alone it was declined."""
    q = ("Which paragraph of the master circular does Meridian's cooling-period rule follow, and what cap does that "
         "paragraph set?")
    assert split_question(q) == [q]
    assert split_question("What is the penalty for late filing, and who pays it?") == [
        "What is the penalty for late filing?", "Who pays it?"]


@pytest.mark.parametrize(("question", "second"), [
    ("Which was higher, vehicle loans or personal loans outstanding, and what was the difference?",
     "What was the difference (vehicle loans personal loans outstanding)?"),
    ("Which segment earned more in 2019, products or services; what was the delta?",
     "What was the delta (segment earned 2019 products services)?"),
    ("What was revenue in 2019, and how much did it change?", "How much did it change (revenue 2019)?"),
])
def test_a_part_naming_nothing_but_what_is_asked_carries_the_earlier_part_s_subject(question, second):
    """A later part whose words are all a question's frame ("what was the difference?") asks about what the earlier
    part names: it is asked with that part's words, as a condensed follow-up carries its context."""
    first, then = split_question(question)
    assert resolve_part(then, [first]) == second
    assert resolve_part("Who pays it?", ["What is the penalty for late filing?"]) == "Who pays it?"  # names a payer
