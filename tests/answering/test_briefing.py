"""Briefings: tolerant JSON parsing, the offline briefing on a real PDF, storage in the registry, and that a failing
briefing never blocks ingestion."""

from __future__ import annotations

import pypdf
import pytest
import tenacity

from prism.answering.briefing import (
    central_sentences,
    document_text_from_rows,
    extract_json_object,
    headings,
    key_terms,
    make_briefing,
    offline_briefing,
    parse_briefing,
    suggested_questions,
)
from prism.answering.llm import LLMClient, wrap_llms
from prism.service import PrismService
from prism.types import IngestItem

from ..conftest import REPO
from ..fakes_llm import ScriptedLLM, rate_limit_error

UPI_PDF = REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf"
GOOD = ('{"bullets": ["B1", "B2", "B3", "B4", "B5", "B6"], "questions": ["Q1?", "Q2?", "Q3?", "Q4?"]}')


def _pdf_text(path) -> str:
    return "\n\n".join(p.extract_text() or "" for p in pypdf.PdfReader(path).pages)


@pytest.mark.parametrize(
    "reply",
    [
        GOOD,
        f"```json\n{GOOD}\n```",
        f"Here is the briefing you asked for:\n```\n{GOOD}\n```\nHope this helps!",
        f"Sure! {GOOD} Let me know.",
        f"Note {{not json}} first, then {GOOD}",
    ],
)
def test_briefing_json_is_found_in_fences_and_stray_text(reply):
    bullets, questions = parse_briefing(reply)
    assert bullets == ["B1", "B2", "B3", "B4", "B5"]  # at most 5
    assert questions == ["Q1?", "Q2?", "Q3?"]  # at most 3


@pytest.mark.parametrize(
    "reply",
    ["", "no json at all", '{"bullets": "not a list", "questions": ["Q?"]}', '{"bullets": [], "questions": ["Q?"]}',
     '{"bullets": ["B"]}', '["B1", "B2"]', '{"bullets": ["B1", "B2"], "questions": ['],
)
def test_malformed_briefing_json_is_rejected(reply):
    assert parse_briefing(reply) is None


def test_extract_json_object_skips_non_objects():
    assert extract_json_object('[1, 2] then {"a": 1}') == {"a": 1}
    assert extract_json_object("{broken") is None


def test_offline_briefing_on_real_pdf(embedder):
    text = _pdf_text(UPI_PDF)
    brief = offline_briefing(text, embedder)
    assert brief.mode == "extractive" and brief.model is None
    assert len(brief.bullets) == 5 and len(set(brief.bullets)) == 5
    flat = " ".join(text.split())
    positions = [flat.find(b) for b in brief.bullets]
    assert all(p >= 0 for p in positions) and positions == sorted(positions)  # verbatim, in document order
    assert not any("Fictional sample document" in b for b in brief.bullets)  # running header removed
    assert len(brief.questions) == 3 and all(q.endswith("?") for q in brief.questions)
    titles = headings(text)
    assert "Transaction Limits" in titles and "Dispute Resolution and Chargebacks" in titles
    assert "Purpose and Scope" not in titles  # generic
    assert all(any(t.lower() in q.lower() for t in titles) for q in brief.questions)


def test_centrality_prefers_the_sentences_most_like_the_others(embedder):
    sentences = [
        "The bank charges a fee on UPI payments to merchants.",
        "Merchant UPI payments attract a fee charged by the bank.",
        "Fees on merchant UPI transactions are levied by the bank.",
        "The cricket team won the final match in the rain.",
    ]
    assert central_sentences(sentences, embedder, k=3) == sentences[:3]
    assert central_sentences(sentences[:2], embedder, k=5) == sentences[:2]


def test_questions_fall_back_to_key_terms_without_headings():
    text = ("Mule accounts are monitored daily. Mule accounts get frozen. Settlement is daily. Settlement is netted. "
            "Settlement again. The crore figures are large; crore crore crore.")
    # two-word phrases seen twice come first ("mule accounts"), then single words by count (settlement 3, daily 2);
    # unit words such as "crore" are never topics, and words of an earlier phrase are not repeated
    assert suggested_questions(text) == [
        "What does the document say about mule accounts?",
        "What does the document say about settlement?",
        "What does the document say about daily?",
    ]


def test_key_terms_keep_names_and_drop_fragments():
    text = "Vikram Nair spoke. Vikram Nair answered. The following instructions are being omitted:\n\n"
    assert key_terms(text, 1) == ["Vikram Nair"]
    assert headings("1. The following instructions are being omitted\n2. Submission of Balance Sheet\n") == [
        "Submission of Balance Sheet"
    ]


def test_make_briefing_with_llm_and_fallbacks(embedder):
    text = _pdf_text(UPI_PDF)
    fake = ScriptedLLM(script=[f"```json\n{GOOD}\n```"])
    brief = make_briefing(UPI_PDF.name, text, embedder=embedder, llm=LLMClient(fake, "m", wait=tenacity.wait_none()),
                          max_chars=2000)
    assert (brief.mode, brief.model, brief.bullets[0]) == ("llm", "m", "B1")
    prompt = fake.calls[0]["text"]
    assert UPI_PDF.name in prompt and "<document>" in prompt and len(prompt) < 2000 + len(GOOD) + 1500

    bad = make_briefing("x.pdf", text, embedder=embedder,
                        llm=LLMClient(ScriptedLLM(script=["I cannot do that."]), "m", wait=tenacity.wait_none()))
    assert bad.mode == "extractive" and "not usable JSON" in bad.note and len(bad.bullets) == 5

    failing = LLMClient(ScriptedLLM(script=[rate_limit_error()] * 2), "m", max_attempts=2, wait=tenacity.wait_none())
    failed = make_briefing("x.pdf", text, embedder=embedder, llm=failing)
    assert failed.mode == "extractive" and "429" in failed.note


def test_document_text_from_rows_undoes_overlap():
    doc = "abcdefghijklmnopqrstuvwxyz"
    rows = [{"text": doc[0:10], "char_start": 0, "char_end": 10}, {"text": doc[7:20], "char_start": 7, "char_end": 20},
            {"text": doc[18:26], "char_start": 18, "char_end": 26}]
    assert document_text_from_rows(list(reversed(rows))) == doc
    assert document_text_from_rows([]) == ""


def test_briefing_is_stored_at_ingest_and_failure_never_blocks(service, monkeypatch):
    [result] = service.ingest([IngestItem(UPI_PDF)], "b")
    assert result.status == "ingested" and result.warnings == []
    [record] = service.documents("b")
    assert record.briefing["mode"] == "extractive" and len(record.briefing["bullets"]) == 5
    assert len(record.briefing["questions"]) == 3

    fake = ScriptedLLM(script=[GOOD])
    svc = PrismService(service.settings, embedder=service.embedder, llms=wrap_llms(fake, wait=tenacity.wait_none()))
    brief = svc.brief(UPI_PDF.name, "b")
    assert brief.mode == "llm"
    assert svc.documents("b")[0].briefing["bullets"] == ["B1", "B2", "B3", "B4", "B5"]

    def boom(*args, **kwargs):
        raise RuntimeError("briefing bug")

    monkeypatch.setattr("prism.answering.briefing.make_briefing", boom)
    [again] = service.ingest([IngestItem(REPO / "data" / "sample" / "meridian_fee_schedule_tables.pdf")], "b")
    assert again.status == "ingested" and "No briefing was written (RuntimeError: briefing bug)" in again.warnings[0]
    assert {d.source for d in service.documents("b")} == {UPI_PDF.name, "meridian_fee_schedule_tables.pdf"}
