"""Question understanding against document profiles (prism.answering.reading.entities): a table of questions with the
entity, document type and unknown names each must give, and the false-match measurement the module docstring
reports: every one of the 20 FinanceBench dev questions against all 16 dev filings' profiles
(data/ground_truth/profiles.json) and every one of the sample set's 72 questions against the sample PDFs' profiles
as ingestion reads them."""

from __future__ import annotations

import json

import pytest

from prism.answering.reading.entities import find_doc_types, find_entities, understand
from prism.ingestion import parsing
from prism.ingestion.profiles.read import extract_profile
from prism.types import DocumentProfile
from tests.conftest import REPO, require_data

SAMPLE = REPO / "data" / "sample"
TRUTH = REPO / "data" / "ground_truth"


def _profile(entity: str | None, ticker: str | None = None, *, kind: str = "10-K", aliases: tuple[str, ...] = ()):
    return DocumentProfile(entity, ticker, kind, "FY2019", "2019-12-31", "USD", "millions", aliases=aliases)


def _financebench_profiles() -> dict[str, DocumentProfile]:
    """The 16 dev filings' hand-written profiles, keyed by file name; no aliases (the matcher derives the rest)."""
    rows = json.loads((TRUTH / "profiles.json").read_text())["financebench"]
    return {r["file"]: DocumentProfile(r["entity"], r["ticker"], r["type"], r["period"], r["fiscal_year_end"],
                                       r["currency"], r["unit"]) for r in rows}


WORKSPACE = {
    "amzn": _profile("Amazon.com, Inc.", "AMZN"),
    "mmm": _profile("3M Company", "MMM"),
    "jpm": _profile("JPMorgan Chase & Co.", "JPM", kind="10-Q"),
    "pfe": _profile("Pfizer Inc.", "PFE"),
    "tgt": _profile("Target Corporation", "TGT"),
    "fl": _profile("Foot Locker, Inc.", "FL", kind="8-K"),
    "nke": _profile("NIKE, Inc.", "NKE"),
    "awk": _profile("American Water Works Company, Inc.", "AWK"),
}


@pytest.mark.parametrize(("question", "entities"), [
    ("What was 3M's capex in FY2022?", ["3M Company"]),
    ("3M Company net sales", ["3M Company"]),
    ("MMM operating margin", ["3M Company"]),
    ("What was Amazon's net income?", ["Amazon.com, Inc."]),
    ("Amazon.com, Inc. segment results", ["Amazon.com, Inc."]),
    ("JPM net interest income", ["JPMorgan Chase & Co."]),
    ("JPMorgan's CET1 ratio", ["JPMorgan Chase & Co."]),
    ("JPMorgan Chase & Co. deposits", ["JPMorgan Chase & Co."]),
    ("Did Pfizer's PPNE grow?", ["Pfizer Inc."]),
    ("3M vs Pfizer capex", ["3M Company", "Pfizer Inc."]),
    ("Nike's cost of sales", ["NIKE, Inc."]),
    ("NIKE gross margin", ["NIKE, Inc."]),
    ("Is Footlocker's CEO new?", ["Foot Locker, Inc."]),
    ("What did Netflx earn?", []),  # no Netflix in this workspace: no fuzzy match to anything else
    ("What did Pfizr earn?", []),  # five letters: too short to be read with a typo
    ("What did Amazn earn?", []),
    ("What did Amazom earn?", ["Amazon.com, Inc."]),  # six letters, one edit
    # common words never match
    ("What is the target capital ratio?", []),
    ("Which foot locker rule applies?", []),
    ("The amazon rainforest exposure", []),  # a one-word name must be capitalised
    ("American companies and water works", []),
    ("FY EPS per the CEO", []),
    ("What is the NKEE?", []),
    ("Over 3m users signed up", []),  # "3M" only as written
    # a question typed wholly in lower case says nothing by its capitals: a name written whole names its entity
    ("pfizer op income FY22", ["Pfizer Inc."]),
    ("what was pfizer's revenue in 2019?", ["Pfizer Inc."]),
    ("foot locker store count", ["Foot Locker, Inc."]),
    ("amazon rainforest exposure", ["Amazon.com, Inc."]),
    ("What was pfizer's revenue in 2019?", []),  # sentence case: a lower-case word is a word
    ("What is the target capital ratio for Pfizer?", ["Pfizer Inc."]),
    ("what is american's capex", []),  # a generic word stays one, and a first word never stands for the name
    ("mmm operating margin", []),  # tickers only in capitals
])
def test_entities(question, entities):
    assert [m.entity for m in find_entities(question, WORKSPACE)] == entities


def test_entity_span_and_documents():
    (m,) = find_entities("Did Pfizer's PPNE grow?", WORKSPACE)
    assert (m.text, m.start, m.end, m.doc_ids, m.how) == ("Pfizer", 4, 12, ("pfe",), "name")
    two = {"a": _profile("MGM Resorts International", "MGM"), "b": _profile("MGM Resorts International", "MGM")}
    (m,) = find_entities("MGM capex", two)
    assert (m.doc_ids, m.how) == (("a", "b"), "ticker")


@pytest.mark.parametrize(("question", "unknown"), [
    ("What was Tesla's revenue in 2019?", ("Tesla",)),
    ("Compare Apple Inc. and Amazon", ("Apple",)),
    ("What was Acme Widgets Corp revenue?", ("Acme Widgets",)),
    ("What is the Company's revenue?", ()),
    ("Here's the question: what is Amazon's capex?", ()),
    ("Under Section 5, what is the Board's view?", ()),
    ("What was December's revenue?", ()),
    ("The CEO's pay at 3M", ()),
    ("How do Basel III's capital norms apply?", ()),
    ("How does India's GDP growth matter?", ()),
    ("What was HDFC Bank's net profit in Q2 FY25?", ("HDFC Bank",)),  # "Bank" is generic, "HDFC" its own word
    ("What is the CASA ratio of Kotak Mahindra Bank?", ("Kotak Mahindra Bank",)),
    ("What does the Reserve Bank of India require?", ()),  # every word generic
    ("State Amazon's capex for 2024", ()),  # an imperative's verb before a known name
])
def test_unknown_entities(question, unknown):
    assert understand(question, WORKSPACE).unknown_entities == unknown


def test_a_document_without_an_entity_leaves_an_unknown_name_to_the_scope():
    """The reader still names Tesla beside a document without an entity; whether that document might be about Tesla
    (its words are in it) is the scope's call (tests/retrieval/test_scope.py)."""
    assert understand("What was Tesla's revenue?", {**WORKSPACE, "x": _profile(None)}).unknown_entities == ("Tesla",)
    assert understand("What was Tesla's revenue?", {}).unknown_entities == ()


@pytest.mark.parametrize(("question", "kinds"), [
    ("What does the 10-K say?", ("10-K", "annual_report")),
    ("In the annual report", ("10-K", "annual_report")),
    ("In the latest 10-Q", ("10-Q",)),
    ("What did management say on the earnings call?", ("earnings_call",)),
    ("Under the master direction on KYC", ("rbi_master_direction",)),
    ("Which paragraph of the master circular", ("rbi_master_circular",)),
    ("the UPI operating circular", ("rbi_circular", "npci_circular", "other")),
    ("What is the refund period?", ()),
])
def test_doc_types(question, kinds):
    assert find_doc_types(question) == kinds


def test_financebench_dev_no_false_matches():
    """Each of the 20 dev questions names exactly its own filing's entity, and no unknown entity (16 profiles)."""
    questions = require_data("financebench-dev", "questions.jsonl")
    profiles = _financebench_profiles()
    rows = [json.loads(line) for line in questions.read_text().splitlines() if line.strip()]
    assert len(rows) == 20
    for row in rows:
        facts = understand(row["question"], profiles)
        assert [m.entity for m in facts.entities] == [profiles[row["doc_name"] + ".pdf"].entity], row["question"]
        assert set(facts.entities[0].doc_ids) >= {row["doc_name"] + ".pdf"}
        assert facts.unknown_entities == (), row["question"]


@pytest.fixture(scope="module")
def sample_profiles():
    from prism.config import Settings

    settings = Settings()
    out = {}
    for path in sorted(SAMPLE.glob("*.pdf")):
        doc = parsing.load(path, path.name, settings)
        out[path.name] = extract_profile([(p.number, p.text) for p in doc.pages], file_name=path.name)
    return out


def test_sample_set_no_false_matches(sample_profiles):
    """Every entity a sample question matches is the entity of one of its relevant documents (negatives: a
    document of the workspace); none is unknown;
    59 of the 84 questions name Meridian (q073–q084 are on-topic negatives)."""
    pairs = json.loads((TRUTH / "eval_pairs.json").read_text())
    named = 0
    for pair in pairs:
        facts = understand(pair["query"], sample_profiles)
        relevant = {sample_profiles[r["source"]].entity for r in pair["relevant"]} or {"Meridian Bank Ltd"}
        assert {m.entity for m in facts.entities} <= relevant, pair["query"]
        assert facts.unknown_entities == (), pair["query"]
        named += bool(facts.entities)
    assert len(pairs) == 84 and named == 59
