"""The answerability gate on the repository's sample documents, ingested for real (parser, chunker,
the packaged embedder, Chroma in tmp_path, BM25): salient words, the IDF read through the retriever, the verdicts
on ground-truth questions, what a decline says and carries, and an LLM's "NOT FOUND" reply (scripted fake)."""

from __future__ import annotations

import json
import math

import pytest
import tenacity

from prism.answering.answerability import assess, decline_message
from prism.answering.engine import AnswerEngine
from prism.answering.extractive import relevance
from prism.answering.llm import wrap_llms
from prism.retrieval.scope import catalog_of
from prism.service import PrismService
from prism.types import IngestItem, SearchScope
from tests.conftest import REPO, offline_service
from tests.fakes_llm import ScriptedLLM, route

SAMPLE = REPO / "data" / "sample"
TRUTH = {q["id"]: q["query"] for q in json.loads((REPO / "data" / "ground_truth" / "eval_pairs.json").read_text())}


@pytest.fixture(scope="module")
def sample(tmp_path_factory, embedder):
    """The four sample PDFs in one workspace (ingested once per module)."""
    svc = offline_service(tmp_path_factory.mktemp("gate_home"), embedder, briefing_on_ingest=False)
    pdfs = sorted(SAMPLE.glob("*.pdf"))
    assert [r.status for r in svc.ingest([IngestItem(p) for p in pdfs], "sample")] == ["ingested"] * 4
    return svc


def _verdict(svc: PrismService, question: str):
    retriever = svc.open("sample").retriever
    reading = svc.reader.read(question, catalog_of(retriever.workspace.snapshot(), retriever.workspace.name))
    found = retriever.search(question, reading=reading).results
    rel = relevance(reading, found, svc.embedder, svc.settings.extractive_lexical_weight)
    return assess(reading, found, rel, retriever.idf, min_relevance=svc.settings.answer_min_relevance,
                  min_salient_idf=svc.settings.gate_min_salient_idf)


def test_idf_through_the_retriever(sample):
    retriever = sample.open("sample").retriever
    weights, unseen = retriever.idf(["swift", "upi", "meridian"])
    n = retriever.sparse.index().corpus_size
    assert unseen == pytest.approx(math.log1p((n + 0.5) / 0.5))
    assert weights["swift"] == unseen  # in no chunk
    assert 0 < weights["upi"] < unseen and 0 < weights["meridian"] < unseen


@pytest.mark.parametrize(("qid", "missing"), [
    ("q067", ("SWIFT",)),  # acronym
    ("q071", ("cryptocurrency",)),  # not a whole word of the embedder's vocabulary
    ("q074", ("FY2021",)),  # a year the documents do not cover
    ("q075", ("Q1 FY24",)),  # a quarter no passage names as one phrase
    ("q083", ("refund",)),
    ("q079", ("extra-large",)),  # a compound no passage has in sequence
    ("q082", ("NRI",)),
])
def test_negatives_are_declined_naming_the_missing_word(sample, qid, missing):
    verdict = _verdict(sample, TRUTH[qid])
    assert not verdict.answerable and verdict.missing == missing


@pytest.mark.parametrize("qid", ["q030", "q018", "q014", "q057", "q029", "q036", "q061"])
def test_answerable_questions_pass(sample, qid):
    # q030 "Q2 FY25": the earnings call says "in Q2", its file name says q2_fy25; q018 "per-transaction" is written
    # "per transaction"; q029 "FY2024" is in the text; q036 / q061 have figures, which are never salient
    verdict = _verdict(sample, TRUTH[qid])
    assert verdict.answerable and verdict.missing == ()
    assert 0 <= verdict.coverage <= 1


@pytest.mark.parametrize(("qid", "reason"), [
    ("q066", "gives a figure for “net profit” in Q3 FY25."),  # the UPI timetable names Q3 FY25; the call is Q2 FY25
    ("q069", "gives a count for “ATMs”."),  # "Free ATM transactions a month – Meridian ATMs 5": not a count of ATMs
    ("q070", "gives a name for “statutory auditor”."),
    ("q072", "gives a figure for “minimum credit score”."),
])
def test_negatives_without_answer_bearing_evidence_are_declined(sample, qid, reason):
    verdict = _verdict(sample, TRUTH[qid])
    assert verdict.missing == () and verdict.evidence is False and not verdict.answerable
    assert verdict.reason == "no sentence or table row of the closest passages " + reason
    assert verdict.features()["evidence"] == 0


@pytest.mark.parametrize(("qid", "answer_type"), [
    ("q019", "count"), ("q028", "count"),  # "at most 20 P2P transactions", "4,812 complaints" (FY2025)
    ("q031", "quantity"), ("q030", "quantity"),  # Q2 FY25: the earnings call's own period
    ("q036", "quantity"), ("q025", "quantity"),  # table rows: "charges" / "Compensation" only in a header
    ("q018", "quantity"), ("q040", "quantity"), ("q020", "quantity"),
    ("q006", "person_or_org"),
])
def test_answerable_questions_of_each_type_hold_evidence(sample, qid, answer_type):
    verdict = _verdict(sample, TRUTH[qid])
    assert verdict.target is not None and verdict.target.answer_type == answer_type
    assert verdict.evidence is True and verdict.answerable and verdict.reason == ""


def test_questions_without_a_typed_answer_are_not_checked(sample):
    for qid in ("q013", "q007", "q057"):  # yes/no, "who signed", "how did … change"
        verdict = _verdict(sample, TRUTH[qid])
        assert verdict.target is None and verdict.evidence is None and verdict.answerable
        assert verdict.features()["evidence"] == -1


def test_engine_decline_says_what_no_passage_gives(sample):
    answer = sample.ask(TRUTH["q069"], "sample")
    assert answer.declined and answer.citations == [] and answer.retrieved
    assert answer.answer.startswith("The documents in this workspace don't answer that: no sentence or table row of "
                                    "the closest passages gives a count for “ATMs”. Searched for \"How many ATMs "
                                    "does Meridian Bank operate?\" in the scope the question names, Meridian Bank Ltd "
                                    "(meridian_bank_upi_operating_circular.pdf, meridian_fee_schedule_tables.pdf, "
                                    "meridian_q2_fy25_earnings_call.pdf). The closest passages are listed below so "
                                    "you can check, or try other words, another filter or a wider scope.")


def test_a_yes_no_question_is_judged_by_relevance_only(sample):
    judgement = _verdict(sample, "Is the SWIFT charge of Meridian Bank a capital-intensive fee?")
    assert judgement.salient == ("SWIFT", "capital-intensive") and judgement.missing == ()
    assert _verdict(sample, "What is the SWIFT charge of Meridian Bank?").missing == ("SWIFT",)


def test_common_words_are_not_salient(sample):
    verdict = _verdict(sample, "How many days earlier must a bank report a signed return?")
    assert verdict.salient == ()


def test_decline_message_names_what_was_searched():
    assert decline_message("What is the SWIFT charge?", ["fees.pdf", "call.pdf"], ["SWIFT"]) == (
        "The documents in this workspace don't answer that. Searched for \"What is the SWIFT charge?\" in fees.pdf, "
        "call.pdf; no close passage mentions: SWIFT. The closest passages are listed below so you can check, or try "
        "other words or another filter.")


def test_decline_message_names_the_scope_the_question_set():
    scope = SearchScope(entities=("Meridian Bank Ltd",), periods=("Q2 FY2025",), documents=("call.pdf",), auto=True)
    assert decline_message("Q2 FY25 ATMs?", None, ["ATMs"], scope=scope) == (
        "The documents in this workspace don't answer that. Searched for \"Q2 FY25 ATMs?\" in the scope the question "
        "names, Meridian Bank Ltd · Q2 FY2025 (call.pdf); no close passage mentions: ATMs. The closest passages are "
        "listed below so you can check, or try other words, another filter or a wider scope.")
    # the analyst's filter wins, and a scope that restricted nothing is all documents
    assert "in fees.pdf;" in decline_message("q", ["fees.pdf"], ["x"], scope=scope)
    assert "in all documents;" in decline_message("q", None, ["x"], scope=SearchScope(auto=False))


def test_engine_decline_carries_the_closest_passages(sample):
    fee = "meridian_fee_schedule_tables.pdf"
    answer = sample.ask(TRUTH["q067"], "sample", sources=[fee])
    assert answer.declined and answer.citations == [] and answer.notes[0].kind == "declined"
    assert f"in {fee}; no close passage mentions: SWIFT." in answer.answer
    assert answer.retrieved and {c.source for c in answer.retrieved} == {fee}
    data = answer.to_dict()
    assert data["declined"] is True and data["citations"] == [] and len(data["retrieved"]) == len(answer.retrieved)
    answered = sample.ask(TRUTH["q029"], "sample")
    assert not answered.declined and answered.citations and answered.to_dict()["declined"] is False


def _llm_engine(svc: PrismService, reply: str) -> AnswerEngine:
    settings = svc.settings.model_copy(update={"hyde_enabled": False, "multi_query_enabled": False})
    return AnswerEngine(svc.open("sample").retriever, svc.embedder, settings,
                        wrap_llms(ScriptedLLM(respond=route(documents=reply)), wait=tenacity.wait_none(),
                                  settings=settings))


def test_llm_not_found_reply_is_a_decline(sample):
    # "What is the penalty for …?" no longer reaches the LLM: no passage gives a figure for "penalty" (evidence)
    question = "What happens when a bank misses the UPI uptime target?"
    answer = _llm_engine(sample, "NOT FOUND: the blocks state the uptime target but no penalty [2].").ask(question)
    assert answer.declined and answer.mode == "llm" and answer.citations == []
    assert answer.answer.startswith("The documents in this workspace don't answer that: the blocks state the uptime "
                                    "target but no penalty. Searched for")
    assert len(answer.retrieved) == 5 and answer.notes[0].kind == "declined"
    cited = _llm_engine(sample, "The uptime target is stated in the circular [1].").ask(question)
    assert not cited.declined and len(cited.citations) == 1
