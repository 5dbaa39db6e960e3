"""The extractive answer leads with the sentence that answers: a sentence holding the question's focus
with a value of its expected answer type (a name for "who", a figure for "what is the rate") comes first, ahead of
sentences that are only close to the question. Real generated PDFs, the real parser, embedder, Chroma and BM25."""

from __future__ import annotations

import re

import pytest

from prism.answering.evidence import UnitTest
from prism.types import IngestItem
from tests.builders import text_pdf
from tests.conftest import offline_service
from tests.readings import target_of

FILING = [
    "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nFor the fiscal year ended December 31, 2015\n"
    "Netflix, Inc.\n(Exact name of registrant as specified in its charter)",
    "NETFLIX, INC. NOTES TO CONSOLIDATED FINANCIAL STATEMENTS\n1. Organization and Summary of Significant "
    "Accounting Policies\nDescription of Business\nNetflix, Inc. (the Company) was incorporated on August 29, 1997 "
    "and began operations on April 14, 1998. The Company is the world's leading Internet television network.",
    "CERTIFICATION OF CHIEF EXECUTIVE OFFICER\nI, Reed Hastings, certify that I have reviewed this Annual Report on "
    "Form 10-K of Netflix, Inc.\nDated: January 28, 2016 By: /s/ Reed Hastings\nReed Hastings\nChief Executive "
    "Officer",
    "Human Capital\nAs of December 31, 2015, we had approximately 3,700 full-time employees in the United States, of "
    "which approximately 1,100 support our customer service centers. In addition, Netflix had approximately "
    "800 employees at the end of 2015 in its international offices.",
    "CERTIFICATION OF CHIEF FINANCIAL OFFICER\nI, David Wells, certify that I have reviewed this Annual Report on "
    "Form 10-K of Netflix, Inc.\nDated: January 28, 2016 By: /s/ David Wells\nDavid Wells\nChief Financial Officer",
]
# A circular's rule printed as one long sentence over several lines (the RBI pension circular, page 6)
CIRCULAR = [
    "RESERVE BANK OF INDIA\nMaster Circular - Disbursement of Government Pension by Agency Banks\nAll Agency Banks",
    "12. Compensation for delayed pension\nThe banks were advised that the pension of every pensioner should be "
    "credited on the due date and that delays should be reported to the Central Pension Processing Centre.\n(a) "
    "Pension paying banks should compensate the pensioner for delay in crediting pension/ arrears thereof at a "
    "fixed interest rate of 8 per cent per annum for the delay after the due date of payment and the compensation "
    "shall be credited to the pensioner's account automatically without any claim from the pensioner on the same "
    "day when the bank affords credit for revised pension/ pension arrears, in respect of all delayed pension "
    "payments made since October 1, 2008.",
]


@pytest.fixture(scope="module")
def svc(tmp_path_factory, embedder):
    root = tmp_path_factory.mktemp("extractive")
    service = offline_service(root / "home", embedder, briefing_on_ingest=False)
    results = service.ingest([IngestItem(text_pdf(root / "NETFLIX_2015_10K.pdf", FILING)),
                              IngestItem(text_pdf(root / "RBI_pension_master_circular.pdf", CIRCULAR))], "docs")
    assert [r.status for r in results] == ["ingested", "ingested"]
    return service


def _bullets(answer: str) -> list[str]:
    return re.findall(r"^- (.+)$", answer, re.MULTILINE)


def test_who_is_the_ceo_leads_with_the_chief_executive_officers_name(svc):
    answer = svc.ask("Who is Netflix's CEO?", "docs")
    assert not answer.declined
    first = _bullets(answer.answer)[0]
    assert "Reed Hastings" in first and "Chief Executive Officer" in first, answer.answer
    assert "David Wells" not in first


def test_a_long_rule_sentence_is_found_whole_and_answers_the_rate_question(svc):
    """The rule is one sentence over six printed lines: the gate finds "rate" and "compensation" in it (it declined
    when the lines were read as six sentences; the chunker may still cut it) and the first bullet states the 8 per
    cent."""
    answer = svc.ask("What is the rate of compensation for delayed pension?", "docs")
    assert not answer.declined, answer.answer
    first = _bullets(answer.answer)[0]
    assert "8 per cent per annum" in first and "compensation" in first, answer.answer
    assert {c.source for c in answer.citations} == {"RBI_pension_master_circular.pdf"}


def test_a_sentence_adding_to_the_one_before_does_not_lead_it(svc):
    """"In addition, Netflix had … 800 employees at the end of 2015" is closer to the question, but it
    adds to the sentence before it, which also answers: that one leads, the addition follows it."""
    bullets = _bullets(svc.ask("How many employees did Netflix have at the end of 2015?", "docs").answer)
    assert "3,700 full-time employees" in bullets[0], bullets
    assert bullets[1].startswith("In addition, Netflix had approximately 800 employees"), bullets


def test_a_title_is_required_whole():
    test = UnitTest(target_of("Who is Netflix's CEO?"), {"netflix", "inc"})
    assert test.answers("Reed Hastings, Chief Executive Officer", "netflix 2015 10k")
    assert not test.answers("David Wells, Chief Financial Officer", "netflix 2015 10k")
    assert not test.answers("The Chief Executive Officer signs the report", "netflix 2015 10k")  # no name


def test_a_line_about_another_quarter_does_not_follow_the_answer(tmp_path, embedder):
    """Two investor updates write their quarters differently ("Q3FY24", "Q2 FY24"): the Q3 FY24 margin leads, and
    the Q2 FY24 one, which answers another question, is not quoted beside it; asked about both, both are."""
    files = {"q3fy24_update.txt": "Investor update\n\nQ3FY24 EBITDA margin was 18.2% on higher volumes.\n",
             "q2fy24_update.txt": "Investor update\n\nIn Q2 FY24 the EBITDA margin was 17.1% because of input costs.\n"}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    service = offline_service(tmp_path / "home", embedder, briefing_on_ingest=False)
    results = service.ingest([IngestItem(tmp_path / name) for name in files], "updates")
    assert [r.status for r in results] == ["ingested", "ingested"]
    bullets = _bullets(service.ask("What was the Q3 FY24 EBITDA margin?", "updates").answer)
    assert "18.2%" in bullets[0] and not any("17.1%" in b for b in bullets), bullets
    both = _bullets(service.ask("What was the EBITDA margin in Q2 FY24 and Q3 FY24?", "updates").answer)
    assert any("18.2%" in b for b in both) and any("17.1%" in b for b in both), both


def test_a_title_line_is_not_quoted_as_an_answer_but_a_name_line_is(embedder):
    """A circular's title line shares every word of a question naming the circular, and answers nothing; a
    signatory's name line answers who signed it."""
    from prism.answering.extractive import extractive_answer
    from prism.types import RetrievedChunk
    from tests.readings import read

    chunk = RetrievedChunk("c-1", "d" * 64, "fema.pdf", "Issuance of Foreign Exchange Management (Authorised Persons) "
                           "Regulations, 2026\n\nThese regulations apply to all authorised persons and their "
                           "agents.\n\nRajiv Ranjan Executive Director")
    text, _ = extractive_answer(read("Who do the Foreign Exchange Management (Authorised Persons) Regulations, 2026 "
                                     "apply to?"), [chunk], embedder, max_sentences=1)
    assert text.splitlines()[2:] == ["- These regulations apply to all authorised persons and their agents. [1]"]
    signed, _ = extractive_answer(read("Who is the Executive Director?"), [chunk], embedder, max_sentences=1)
    assert "Rajiv Ranjan Executive Director" in signed



def test_the_line_stating_the_questions_own_figures_is_quoted(embedder):
    """A band asked by its figures ("between ₹10,001 and ₹25,000") is answered by the line that states them, though
    it shares none of the question's words and other lines of the fee table share several (without the figures'
    weight, "Other credit card charge Amount" is quoted in its place)."""
    from prism.answering.extractive import extractive_answer
    from prism.types import RetrievedChunk
    from tests.readings import read

    text = ("Total amount due on the statement Late payment fee Up to ₹500 Nil\n\n"
            "₹501 – ₹5,000 ₹500 ₹5,001 – ₹10,000 ₹750 ₹10,001 – ₹25,000 ₹950\n\nOther credit card charge Amount\n\n"
            "Credit card spends (₹ crore) 11,920 13,640 13,210\n\nForeign currency mark-up 3.5% Over-limit fee ₹600\n")
    question = "What late payment fee applies when the credit card statement total is between ₹10,001 and ₹25,000?"
    answer, _ = extractive_answer(read(question), [RetrievedChunk("c-1", "d" * 64, "fees.pdf", text)], embedder,
                                  max_sentences=2)
    assert answer.splitlines()[2:] == ["- Total amount due on the statement Late payment fee Up to ₹500 Nil [1]",
                                       "- ₹501 – ₹5,000 ₹500 ₹5,001 – ₹10,000 ₹750 ₹10,001 – ₹25,000 ₹950 [1]"]


@pytest.mark.parametrize(("sentence", "answers"), [
    ("4. Transaction Limits", False),
    ("4.3.1 Cooling period.", False),  # a numbered heading closed by a full stop
    ("2. Banks shall report frauds within 7 days.", True),  # a numbered clause is a statement
    ("Research): What is your microfinance exposure?", False),  # an analyst's question on a call
    ("Did the “cooling period” apply?\u201d", False),
    ("Microfinance loans are ₹7,300 crore, or 1.9% of advances.", True),
    ("Moderator: That concludes this conference.", False),
    ("11 J. Penal interest for wrong claims of Agency Commission ...........................", False),  # contents
    ("Chapter IV – Penal interest . . . . . . . 22", False),
    ("Penal interest is charged at Bank Rate plus 2% on wrong claims.", True),
])
def test_headings_questions_contents_and_logistics_answer_nothing(sentence, answers):
    from prism.answering.extractive import _NOT_AN_ANSWER

    assert (_NOT_AN_ANSWER.match(sentence) is None) == answers


def test_a_table_line_is_named_by_its_column_headers_too(embedder):
    """The row "P2P transfers ₹1,00,000 ₹2,00,000" states the per-transaction limit its column names; a sentence
    writing "per-transaction limit" about another kind of payment does not lead over it. The row is quoted with its
    columns' headers."""
    from prism.answering.extractive import extractive_answer
    from prism.types import RetrievedChunk
    from tests.readings import read

    prose = RetrievedChunk("c-1", "d" * 64, "circular.pdf", "A per-transaction limit of ₹5,00,000 applies to payments "
                           "to verified merchants for tax payments and hospitals.")
    table = RetrievedChunk("c-2", "d" * 64, "circular.pdf", "P2P transfers ₹1,00,000 ₹2,00,000\n\n"
                           "P2M payments ₹2,00,000 ₹5,00,000\n",
                           metadata={"table_id": "t1", "table_title": "Transaction limits",
                                     "table_columns": "Per-transaction limit | Per-day limit"})
    answer, _ = extractive_answer(read("What is the per-transaction limit for P2P transfers?"), [prose, table],
                                  embedder, max_sentences=2)
    assert answer.splitlines()[2].startswith("- P2P transfers — Per-transaction limit: ₹1,00,000; Per-day limit: "
                                             "₹2,00,000 [2]"), answer
