"""Briefings by document kind, each document ingested with the real pipeline into its own workspace: an earnings
release leads with its headline figures (period, change against the comparison period, guidance), a circular with
its rule, whom it applies to and its effective date (a scanned NPCI circular read by OCR; a text circular with its
penalty); every suggested question is filled from a template, is well-formed, and is answered (not declined) by the
real engine (offline, no LLM) citing its own document."""

from __future__ import annotations

import pytest

from prism.answering.briefing.circulars import agrees
from prism.answering.briefing.compose import Briefing, briefing_facts, briefing_markdown, well_formed
from prism.config import Settings
from prism.service import PrismService
from prism.types import IngestItem
from tests.conftest import FIXTURES, REPO, require_data

RELEASE = FIXTURES / "releases" / "northwind_q2_fy2025_earnings_release.pdf"
UPI_PDF = REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf"
SCANNED = ("npci", "pdfs", "Circular No. 66 - Minimum NDC for Sub-Member banks in UPI and IMPS.pdf")


def _briefed(tmp_path_factory, embedder, path, name) -> tuple[PrismService, Briefing]:
    svc = PrismService(Settings(home=tmp_path_factory.mktemp(f"{name}_home"), groq_api_key=None), embedder=embedder)
    [result] = svc.ingest([IngestItem(path)], name, briefing=False)
    assert result.status == "ingested", result
    return svc, svc.brief(path.name, name)


@pytest.fixture(scope="module")
def release(tmp_path_factory, embedder):
    return _briefed(tmp_path_factory, embedder, RELEASE, "release")


@pytest.fixture(scope="module")
def scanned(tmp_path_factory, embedder):
    return _briefed(tmp_path_factory, embedder, require_data(*SCANNED), "scanned")


@pytest.fixture(scope="module")
def circular(tmp_path_factory, embedder):
    return _briefed(tmp_path_factory, embedder, UPI_PDF, "circular")


def _every_question_is_answered_from(svc: PrismService, workspace: str, source: str, brief: Briefing) -> None:
    assert brief.questions, brief
    for question in brief.questions:
        assert well_formed(question), question
        answer = svc.ask(question, workspace)
        assert not answer.declined, (question, answer.answer)
        assert any(c.source == source for c in answer.citations), (question, [c.source for c in answer.citations])


def test_an_earnings_release_leads_with_its_headline_figures(release):
    _svc, brief = release
    assert brief.bullets[0].kind == "identity"
    heads = [b for b in brief.bullets if b.kind == "headline"]
    assert [b.text for b in heads] == [
        "Revenue (Q2 2025): $1,284.6 million, up 12.4% from $1,142.9 million in Q2 2024.",
        "Operating income (Q2 2025): $231.2 million, up 22.7% from $188.5 million in Q2 2024.",
        "Net income (Q2 2025): $176.4 million, up 26.2% from $139.8 million in Q2 2024.",
        "Diluted EPS (Q2 2025): $0.61, up 27.1% from $0.48 in Q2 2024.",
    ]
    assert brief.bullets[1:5] == heads  # right after the identity line
    assert all(b.pages() == [2] and b.citations[0].chunk_id for b in heads)  # the statement's table row
    [guidance] = [b for b in brief.bullets if b.kind == "guidance"]
    assert guidance.text == ("For the third quarter of fiscal 2025, Northwind Devices expects revenue of $1,310 "
                             "million to $1,350 million and diluted EPS of $0.62 to $0.66.")
    assert guidance.pages() == [1] and guidance.label() == "Guidance"


def test_an_earnings_releases_questions_are_its_headline_figures_and_are_answered(release):
    svc, brief = release
    assert brief.questions == ["What was Northwind Devices' revenue for Q2 2025?",
                               "What was Northwind Devices' operating income for Q2 2025?",
                               "What was Northwind Devices' net income for Q2 2025?"]
    _every_question_is_answered_from(svc, "release", RELEASE.name, brief)


def test_every_headline_template_question_of_a_release_is_answered_from_it(release):
    svc, _brief = release
    record = svc.documents("release")[0]
    facts = briefing_facts(svc.open("release").workspace.read_chunks(record.doc_id), record.effective_profile())[0]
    questions = [q for f in facts for q in f.questions]
    assert questions[3:] == ["What was Northwind Devices' diluted EPS for Q2 2025?",
                             "What is Northwind Devices' revenue guidance?"]
    _every_question_is_answered_from(svc, "release", RELEASE.name, Briefing(questions=questions))


def test_a_scanned_circular_states_its_rule_whom_it_applies_to_and_its_effective_date(scanned):
    _svc, brief = scanned
    kinds = {b.kind: b for b in brief.bullets}
    assert "Rs.2.5 lakhs" in kinds["rule"].text and "take effect from 1st April, 2019" in kinds["rule"].text
    assert kinds["applies"].text == "All Member Banks-IMPS&UPI"  # its addressee line, read by OCR
    assert kinds["effective"].text == "1st April, 2019"
    assert all(kinds[k].pages() == [1] and kinds[k].citations[0].chunk_id for k in ("rule", "applies", "effective"))


def test_a_scanned_circulars_questions_are_filled_templates_and_are_answered(scanned):
    svc, brief = scanned
    assert brief.questions == ["What does the NPCI circular say about minimum net debit cap?",
                               "Who does the NPCI circular apply to?",
                               "When does the NPCI circular come into force?"]
    _every_question_is_answered_from(svc, "scanned", SCANNED[-1], brief)


def test_a_circular_states_its_penalty_and_its_questions_are_answered(circular):
    svc, brief = circular
    kinds = [b.kind for b in brief.bullets]
    assert {"rule", "applies", "effective", "penalty"} <= set(kinds)
    penalty = next(b for b in brief.bullets if b.kind == "penalty")
    assert penalty.text.startswith("Compensation is credited automatically") and penalty.pages() == [3]
    _every_question_is_answered_from(svc, "circular", UPI_PDF.name, brief)


def test_the_markdown_labels_a_circulars_points(circular):
    svc, _brief = circular
    record = svc.documents("circular")[0]
    text = briefing_markdown(record)
    assert "- **Applies to:** 1.2 It applies to every UPI handle" in text
    assert "- **Effective date:** 1 July 2025 (p. 1)" in text


@pytest.mark.parametrize("subject, verb", [("UPI compliance guidelines", "do"), ("NPCI circular", "does"),
                                           ("master directions", "do"), ("Netflix 10-K", "does"),
                                           ("master circular on SHG-Bank linkage programme", "does"),
                                           ("master circular on digital payment security controls", "does"),
                                           ("master directions on KYC", "do")])
def test_question_templates_agree_with_the_documents_name(subject, verb):
    assert agrees(subject) == verb


def test_a_deadline_is_labelled_as_a_deadline_with_whom_and_what_not_as_an_effective_date():
    """A filing deadline ("… latest by October 31 of the year concerned") is not the date the circular takes effect:
    it is quoted whole (who must do what by when) under "Deadline", and asked as the deadline."""
    from prism.answering.briefing.circulars import circular_facts
    from prism.answering.briefing.facts import DocumentText
    from prism.types import BriefingBullet

    text = ("Reserve Bank of India\n\nAll Authorised Persons\n\nMaster Direction on authorised persons.\n\n"
            "22. All FFMCs shall submit their annual audited balance sheet to the Regional Office of the Reserve "
            "Bank, latest by October 31 of the year concerned.\n")
    facts = circular_facts(DocumentText(text, (0,), ((2, "c-0"),)), None, "master direction")
    [deadline] = [f for f in facts if f.bullet.kind == "deadline"]
    assert deadline.bullet.text.startswith("22. All FFMCs shall submit") and deadline.bullet.label() == "Deadline"
    assert deadline.questions == ("What is the deadline under the master direction?",)
    assert BriefingBullet("1 July 2025", (), "effective").label() == "Effective date"


def test_a_named_instrument_is_the_circulars_subject_as_written():
    """Questions name a circular issuing regulations by the regulations' own name, capitals and year kept, and agree
    with its plural ("Who do the … Regulations, 2026 apply to?")."""
    from prism.answering.briefing.circulars import _question
    from prism.answering.briefing.topics import document_subject

    head = ("RESERVE BANK OF INDIA\nForeign Exchange Department\nRBI/2026-27/78\n"
            "Issuance of Foreign Exchange Management (Authorised Persons) Regulations, 2026\nThe Reserve Bank has …")
    subject = document_subject(head, None)
    assert subject == "Foreign Exchange Management (Authorised Persons) Regulations, 2026"
    assert _question("applies", subject, "") == (
        "Who do the Foreign Exchange Management (Authorised Persons) Regulations, 2026 apply to?",)
