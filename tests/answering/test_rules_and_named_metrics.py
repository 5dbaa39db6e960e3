"""First lines an analyst can trust, on the repository's sample documents through the real engine (parser, chunker,
embedder, Chroma, BM25, reader, programs; no LLM): a yes/no question about a rule opens with the Yes or No its
sentence gives; a ratio the question names is read, not computed from two figures; of two figures in one sentence,
the one the question names is the answer; a threshold answer states the figure and the threshold asked."""

from __future__ import annotations

import pytest

from prism.answering.reading import kinds
from prism.answering.rules import force, verdict
from prism.config import Settings
from prism.service import PrismService
from prism.types import IngestItem
from tests.conftest import REPO

SAMPLE = REPO / "data" / "sample"
PDFS = [SAMPLE / n for n in ("meridian_bank_upi_operating_circular.pdf",
                             "rbi_style_master_circular_digital_payments.pdf", "meridian_q2_fy25_earnings_call.pdf")]


@pytest.fixture(scope="module")
def svc(tmp_path_factory, embedder):
    settings = Settings(home=tmp_path_factory.mktemp("rules_home"), groq_api_key=None, tavily_api_key=None,
                        briefing_on_ingest=False)
    service = PrismService(settings, embedder=embedder)
    assert [r.status for r in service.ingest([IngestItem(p) for p in PDFS], "docs")] == ["ingested"] * len(PDFS)
    return service


def first_line(svc, question: str) -> str:
    answer = svc.ask(question, "docs")
    lines = [ln for ln in answer.answer.splitlines() if ln.strip() and not ln.rstrip().endswith(":")]
    return lines[0]


@pytest.mark.parametrize("question, lead, words", [
    ("Can an RE offer electronic transactions to customers who have not registered a mobile number?", "No",
     "shall not offer electronic transactions"),
    ("Are REs allowed to offer e-transactions to customers without a registered mobile number", "No",
     "shall not offer electronic transactions"),
    ("Are REs required to send an SMS alert for every debit?", "Yes", "SMS alert shall be sent"),
    ("Must an SMS alert be sent for each debit", "Yes", "SMS alert shall be sent"),
])
def test_a_yes_no_question_about_a_rule_opens_with_the_rules_verdict(svc, question, lead, words):
    line = first_line(svc, question)
    assert line.startswith(f"- {lead} — ") and words in line, line


def test_a_yes_no_question_no_rule_decides_gets_no_guessed_verdict(svc):
    line = first_line(svc, "Is a bank allowed to charge customers for a failed UPI transaction reversal?")
    assert not line.startswith(("- Yes", "- No")), line


def test_deontic_force_and_verdicts_of_rule_sentences():
    assert force("REs shall not offer electronic transactions to such customers.") == "forbids"
    assert force("No charges shall be levied on the customer for the reversal.") == "forbids"
    assert force("An SMS alert shall be sent for every debit.") == "requires"
    assert force("The customer may opt out of the e-mail alerts.") == "allows"
    assert force("Small merchants are exempt from the requirement.") == "not_required"
    assert force("The ratio was 16.8% in Q2.") is None
    assert verdict("permission", "REs shall not offer electronic transactions.") == "No"
    assert verdict("obligation", "Merchants need not register again.") == "No"
    assert verdict("prohibition", "Cash withdrawal is prohibited at the PoS.") == "Yes"
    assert verdict(None, "An SMS alert shall be sent.") is None


@pytest.mark.parametrize("question, named", [
    ("What is the minimum capital adequacy ratio required?", True),
    ("What was the CET1 ratio in Q2 FY25?", True),
    ("What is the ratio of P2M to P2P volume in FY2024?", False),
    ("P2M volume divided by P2P volume in FY2024", False),
])
def test_a_named_ratio_is_a_metric_not_a_division(question, named):
    assert kinds.names_ratio(question) is named


def test_a_named_ratio_is_read_not_divided(svc):
    line = first_line(svc, "What was the CET1 ratio in Q2 FY25?")
    assert "14.2" in line and " / " not in line, line


def test_of_two_figures_in_one_sentence_the_asked_one_answers(svc):
    line = first_line(svc, "What was the P2M share of transaction value in FY2024?")
    assert line.startswith("- 34%"), line
    line = first_line(svc, "What was the P2M share of UPI transaction volume in FY2024?")
    assert "61% of volume" in line, line  # the sentence itself when no program is clearly right


def test_a_threshold_answer_opens_with_yes_or_no_then_the_figure_and_the_threshold(svc):
    line = first_line(svc, "Is the cooling-period cap above ₹1,000?")
    assert line.startswith("Yes — ") and line.endswith("₹5,000; asked: above ₹1,000") and "threshold" not in line, line
