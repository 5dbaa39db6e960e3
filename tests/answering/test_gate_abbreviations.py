"""The answerability gate does not over-decline: an abbreviation in the question is found where a
passage spells it out ("AMC" → "asset management company", "RBI" → "Reserve Bank of India", "PAT" → "net
profit"), the question's words where a passage abbreviates them ("net interest income" → "NII"), plural
abbreviations by their singular, compounds by their initials; a word whose meaning no passage has is still missing
and named in the decline. Pure checks on hand-written passages, the table-row match, and a real RBI master
circular ingested into a temporary workspace (../shared/data; skipped without it)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from prism.answering import acronyms
from prism.answering.answerability import assess, decline_message
from prism.answering.evidence import holds_evidence
from prism.answering.programs import binding
from prism.answering.programs.evidence import Evidence, Row
from prism.answering.programs.operation import Operand
from prism.index.tokenizer import tokenize
from prism.types import IngestItem, RetrievedChunk
from prism.vocabulary import abbreviations, titles
from tests.conftest import offline_service, require_data
from tests.readings import read, target_of

AMC_PASSAGE = "An asset management company shall have a net worth of not less than ₹50 crore."


def _rare(terms):
    """Every word as rare as a word in no chunk: only the gate's matching decides what is missing."""
    return {t: 5.0 for t in terms}, 5.0


def _verdict(question: str, *texts: str):
    chunks = [RetrievedChunk(f"c-{i}", "d" * 64, "circular.pdf", text) for i, text in enumerate(texts)]
    return assess(read(question), chunks, 1.0, _rare, min_relevance=0.3, min_salient_idf=0.8)


def _evidence(question: str, text: str) -> bool:
    target = target_of(question)
    assert target is not None
    return holds_evidence(target, [RetrievedChunk("c-1", "d" * 64, "circular.pdf", text)])


# --- spelling an abbreviation by initials ---------------------------------------------------------------------------
@pytest.mark.parametrize(("abbreviation", "text"), [
    ("AMC", AMC_PASSAGE),
    ("NBFC", "Bank finance to a Non-Banking Financial Company is capped."),  # hyphenated parts count
    ("RBI", "as notified by the Reserve Bank of India"),  # "of" left out
    ("KYC", "the know your customer norms"),  # "your" counted
    ("AUM", "assets under management of ₹10,000 crore"),
    ("UCB", "urban co-operative banks"),  # a hyphenated word's later part may give no letter
    ("CIR", "Master Direction – Reserve Bank of India (Credit Information\n\nReporting) Directions"),
])
def test_consecutive_initials_spell_an_abbreviation(abbreviation, text):
    assert acronyms.spells(abbreviation, text)


@pytest.mark.parametrize(("abbreviation", "text"), [
    ("ARC", "Banks are required to comply with these directions."),  # "are" is a stop word: no letter
    ("ARC", "an asset of the reconstruction fund and a company"),  # the initials are not consecutive words
    ("MD", "the bank must deposit the amount"),  # two letters: through the vocabulary only
    ("NBFC", "non-bank entities and financial companies"),
])
def test_words_that_do_not_spell_it_in_sequence_do_not(abbreviation, text):
    assert not acronyms.spells(abbreviation, text)


def test_the_vocabulary_holds_abbreviations_whose_letters_do_not_spell_the_words():
    assert abbreviations.expansions("PAT's") == ("profit after tax", "net profit")
    assert abbreviations.expansions("NPAs") == ("non-performing asset", "non performing asset")
    assert abbreviations.expansions("bps") == ("basis points", "basis point")
    assert abbreviations.expansions("YoY") == ("year-on-year", "year over year")
    assert abbreviations.expansions("car") == () and abbreviations.expansions("arc") == ()  # lower case: words
    assert abbreviations.expansions("CEOs") == ("chief executive officer",)  # the officer titles are included
    assert titles.spelled_out("CEO's") == "chief executive officer" and titles.spelled_out("CFOX") is None
    assert abbreviations.base("AMC's") == "AMC" and abbreviations.base("ATMs") == "ATM"
    assert acronyms.mentioned("bps", "raised by 25 basis points") and acronyms.mentioned("PAT", "Net profit rose")
    assert not acronyms.mentioned("PBT", "Profit after tax rose")


# --- the gate ---------------------------------------------------------------------------------------------------
def test_an_amc_question_is_answered_by_a_passage_that_spells_it_out():
    verdict = _verdict("What is the net worth requirement for an AMC?", AMC_PASSAGE)
    assert verdict.salient == ("AMC",) and verdict.missing == () and verdict.answerable
    assert verdict.evidence is not False
    assert _verdict("What is the net worth requirement of AMC's?", AMC_PASSAGE).missing == ()
    assert _evidence("What is the net worth amount of an AMC?", AMC_PASSAGE) is True


@pytest.mark.parametrize(("question", "passage"), [
    ("What is the exposure ceiling for NBFCs?",
     "The exposure ceiling for a single non-banking financial company is 20 per cent of the bank's capital."),
    ("What penalty can the RBI impose on a bank?", "The Reserve Bank of India may impose a penalty of ₹1 crore."),
    ("What was the PAT in FY24?", "Net profit for FY24 was ₹1,204 crore."),
    ("When does a loan become one of the NPAs?", "A non-performing asset is a loan overdue for 90 days."),
    ("What is the daily limit at ATMs?", "The daily withdrawal limit at each ATM is ₹20,000."),  # plural, singular
    ("What is the cap on NBFCs?", "The cap for each NBFC is ₹500 crore."),
    ("What is the loan-to-value ratio for gold loans?", "The LTV ratio for gold loans shall not exceed 75 per cent."),
    ("When is re-KYC due?", "A re KYC is due every two years for high-risk customers."),
    ("When does the company grant NQs?", "We grant NQs only upon the market price closing above a target."),
])
def test_abbreviations_and_their_words_are_one_salient_word(question, passage):
    verdict = _verdict(question, passage)
    assert verdict.salient and verdict.missing == () and verdict.answerable


@pytest.mark.parametrize(("question", "passage", "missing"), [
    ("What is the registration fee for an ARC?", "Banks are required to comply with a registration fee of ₹5,000.",
     ("ARC",)),
    ("What is the SWIFT charge?", "The IMPS charge is ₹5 per transaction.", ("SWIFT",)),
    ("What is the exposure ceiling for NBFCs?", "A bank's exposure to a single borrower shall not exceed 20 per cent.",
     ("NBFCs",)),
    ("What was the PBT in FY24?", "Profit after tax for FY24 was ₹1,204 crore.", ("PBT",)),
])
def test_a_word_whose_meaning_no_passage_has_is_still_missing_and_named(question, passage, missing):
    verdict = _verdict(question, passage)
    assert verdict.missing == missing and not verdict.answerable
    assert f"no close passage mentions: {', '.join(missing)}." in decline_message(question, None, verdict.missing)


# --- the evidence check -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "unit", "held"), [
    ("What was the PAT margin in FY24?", "Net profit margin was 18.2% in FY24.", True),
    ("What was the net interest income in FY24?", "NII for FY24 stood at ₹4,210 crore.", True),
    ("What was the NII growth in FY24?", "Net interest income growth was 12% in FY24.", True),
    ("What was the ARC margin in FY24?", "Banks are required to comply; the margin was 18.2% in FY24.", False),
    ("What was the PAT margin in FY24?", "Profit before tax margin was 18.2% in FY24.", False),
    ("How many PSUs were granted in December 2019?", "In December 2019, we granted 375,000 PSUs.", True),  # plural
    ("How many PSUs were granted in December 2019?", "In December 2019, we granted one PSU.", False),  # no count
])
def test_the_focus_is_named_by_an_abbreviation_or_its_words(question, unit, held):
    assert _evidence(question, unit) is held


# --- table rows -----------------------------------------------------------------------------------------------------
def _table(*labels: str) -> Evidence:
    """One table of one figure per row (FY24, ₹ crore), as :func:`prism.answering.programs.evidence.gather` reads it."""
    rows = []
    for i, (label, cell) in enumerate(zip(labels, ("1,612", "1,204", "4,210"), strict=True)):
        figure = Operand(label, "FY24", "FY2024", (2024, 0), cell, Decimal(cell.replace(",", "")), "crore", "INR",
                         "amount", 1, table="t", row=i, col=0)
        rows.append(Row(("t", i), label, frozenset(tokenize(label)), (figure,)))
    return Evidence(rows=rows)


def _named(question: str, evidence: Evidence) -> str | None:
    """The label of the row a program binds ``question`` to first, or ``None``."""
    named = binding.rows(read(question), evidence)
    return named[0].label if named else None


def test_a_row_is_named_by_an_abbreviation_or_its_words():
    spelled = _table("Profit before tax", "Profit after tax", "Net interest income")
    for question, expected in [("What was the PAT in FY24?", "Profit after tax"),
                               ("What was the NII in FY24?", "Net interest income"),
                               ("What was the profit before tax?", "Profit before tax")]:
        assert _named(question, spelled) == expected, question
    short = _table("PBT", "PAT", "NII")
    for question, expected in [("What was the profit after tax in FY24?", "PAT"),
                               ("What was the net interest income?", "NII"), ("What was the net profit?", "PAT")]:
        assert _named(question, short) == expected, question
    assert _named("What was the refund period?", short) is None


# --- a real RBI master circular ---------------------------------------------------------------------------------------
SHG = "01MCD0D97308D3AD49A3908E2F4410ED4409.PDF"
"""RBI/2025-26/01, Master Circular on SHG-Bank Linkage Programme: it writes "NABARD (Micro Credit Innovations
Department)" and "(Credit Information Reporting) Directions", never MCID or CIR."""


@pytest.fixture(scope="module")
def shg(tmp_path_factory, embedder):
    pdf = require_data("rbi", "pdfs", SHG)
    svc = offline_service(tmp_path_factory.mktemp("gate_rbi_home"), embedder, briefing_on_ingest=False)
    assert [r.status for r in svc.ingest([IngestItem(pdf)], "rbi")] == ["ingested"]
    return svc


@pytest.mark.parametrize(("question", "quoted"), [
    ("Within how many days must SHG-BLP progress be reported to the MCID?", "within 15 days"),
    ("Which Master Direction governs CIR for SHG members?", "credit information reporting"),
])
def test_real_circular_answers_an_abbreviation_it_spells_out(shg, question, quoted):
    answer = shg.ask(question, "rbi")
    assert not answer.declined
    assert quoted in " ".join(answer.answer.lower().split())


def test_real_circular_declines_what_it_does_not_hold_naming_the_word(shg):
    answer = shg.ask("What does the PMLA require of SHG members?", "rbi")
    assert answer.declined and "no close passage mentions: PMLA." in answer.answer
