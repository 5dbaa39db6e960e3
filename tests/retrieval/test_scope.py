"""Scope planning (prism.retrieval.scope.plan_scope) on the 16 FinanceBench dev filings' hand-written profiles
(data/ground_truth/profiles.json) as registry records: entities restrict, periods prefer, the explicit filter wins,
an ambiguous name widens, an unknown company is declined; and on the 20 dev questions, the evidence filing is
always in scope."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from prism.index.catalog import WorkspaceCatalog
from prism.index.tokenizer import tokenize
from prism.index.workspaces import Workspace
from prism.retrieval.scope import catalog_of, covered_periods, plan_scope
from prism.types import DocumentProfile, DocumentRecord
from tests.conftest import REPO, require_data
from tests.readings import read

TRUTH = REPO / "data" / "ground_truth"


def _record(name: str, profile: DocumentProfile | None) -> DocumentRecord:
    return DocumentRecord(doc_id=name.lower().ljust(64, "0"), source=name, kind="pdf", pages=1, chunks=1,
                          profile=profile.to_dict() if profile else None)


def _filings() -> list[DocumentRecord]:
    rows = json.loads((TRUTH / "profiles.json").read_text())["financebench"]
    return [_record(r["file"], DocumentProfile(r["entity"], r["ticker"], r["type"], r["period"],
                                               r["fiscal_year_end"], r["currency"], r["unit"])) for r in rows]


FILINGS = _filings()
ID = {d.source: d.doc_id for d in FILINGS}
MGM = {"MGMRESORTS_2018_10K.pdf", "MGMRESORTS_2020_10K.pdf", "MGMRESORTS_2023Q2_10Q.pdf"}


def _plan(question: str, docs, *, workspace: str, **options):
    """The scope of ``question`` over ``docs``, read against their catalog as the engine reads it."""
    return plan_scope(read(question, catalog_of(docs, workspace)), docs, workspace=workspace, **options)


def _names(ids) -> set[str]:
    return {d.source for d in FILINGS if d.doc_id in ids}


def test_one_entity_is_scoped_to_its_filing():
    plan = _plan("What is Boeing's year end FY2018 net PP&E?", FILINGS, workspace="fb")
    assert _names(plan.allowed) == {"BOEING_2018_10K.pdf"}
    assert plan.preferred == frozenset()  # one document: nothing to prefer
    assert plan.scope.to_dict() == {"entities": ["The Boeing Company"], "periods": ["FY2018"],
                                    "documents": ["BOEING_2018_10K.pdf"], "auto": True}
    assert plan.decline is None


def test_several_entities_are_all_in_scope():
    plan = _plan("3M vs Pfizer capex", FILINGS, workspace="fb")
    assert _names(plan.allowed) == {"3M_2022_10K.pdf", "PFIZER_2021_10K.pdf"}
    assert plan.scope.entities == ("3M Company", "Pfizer Inc.")


@pytest.mark.parametrize(("question", "preferred", "periods"), [
    ("What is the FY2018 - FY2020 3 year average of capex as a % of revenue for MGM Resorts?",
     {"MGMRESORTS_2020_10K.pdf"}, ("FY2018", "FY2019", "FY2020")),  # the 2020 10-K covers all three years
    ("What is the year end FY2018 amount of accounts payable for MGM Resorts?",
     {"MGMRESORTS_2018_10K.pdf"}, ("FY2018",)),  # its own year beats the 2020 10-K's comparative column
    ("Which debt did MGM invest in during H1 FY2023?", {"MGMRESORTS_2023Q2_10Q.pdf"}, ("H1 FY2023",)),
    ("MGM revenue in 2019", {"MGMRESORTS_2020_10K.pdf"}, ("FY2019",)),
])
def test_a_named_period_prefers_the_filings_that_report_it(question, preferred, periods):
    plan = _plan(question, FILINGS, workspace="fb")
    assert _names(plan.allowed) == MGM  # the preference never drops a document
    assert _names(plan.preferred) == preferred
    assert plan.scope.periods == periods


def test_explicit_filter_wins():
    plan = _plan("What was 3M's FY2022 capex?", FILINGS, workspace="fb", sources=["PFIZER_2021_10K.pdf"])
    assert _names(plan.allowed) == {"PFIZER_2021_10K.pdf"}
    assert plan.scope.to_dict() == {"entities": [], "periods": [], "documents": ["PFIZER_2021_10K.pdf"],
                                    "auto": False}


def test_no_auto_scope_and_nothing_named_leave_the_workspace_whole():
    assert _plan("What was 3M's FY2022 capex?", FILINGS, workspace="fb", auto=False).allowed is None
    plan = _plan("What is a capital-intensive business?", FILINGS, workspace="fb")
    assert plan.allowed is None and plan.scope.to_dict()["auto"] is False


def test_an_ambiguous_name_widens_and_a_document_without_entity_stays():
    docs = [_record("bank.pdf", DocumentProfile("Meridian Bank Ltd", None, "other", None, None, None, None)),
            _record("insurance.pdf", DocumentProfile("Meridian Insurance Ltd", None, "other", None, None, None, None)),
            _record("other.pdf", DocumentProfile("Pfizer Inc.", "PFE", "10-K", None, None, None, None)),
            _record("notes.txt", None)]
    plan = _plan("What did Meridian report?", docs, workspace="w")
    assert {d.source for d in docs if d.doc_id in plan.allowed} == {"bank.pdf", "insurance.pdf", "notes.txt"}


def test_a_named_document_type_outside_the_entitys_documents_widens():
    docs = [_record("call.pdf", DocumentProfile("Meridian Bank Ltd", None, "earnings_call", "Q2 FY2025",
                                                "2025-03-31", "INR", "crore")),
            _record("mc.pdf", DocumentProfile("Reserve Bank of India", None, "rbi_master_circular", "2025-04-01",
                                              None, "INR", None)),
            _record("10k.pdf", DocumentProfile("Pfizer Inc.", "PFE", "10-K", "FY2021", "2021-12-31", "USD", None))]
    plan = _plan("Does Meridian's cooling period follow the master circular?", docs, workspace="w")
    assert {d.source for d in docs if d.doc_id in plan.allowed} == {"call.pdf", "mc.pdf"}


def test_unknown_company_is_declined_with_the_entities_held():
    plan = _plan("What was Tesla's revenue in 2019?", FILINGS[2:4], workspace="fb")
    assert plan.allowed is None
    assert plan.decline == (
        "No document in workspace 'fb' is about Tesla, so Prism does not answer with another company's figures. "
        "The workspace holds: Amazon.com, Inc., American Water Works Company, Inc. Add Tesla's documents, or ask "
        "about one of these.")
    assert _plan("Tesla's revenue vs Amazon's", FILINGS[2:4], workspace="fb").decline is None


def test_an_unknown_name_is_not_declined_when_a_document_without_an_entity_holds_its_words():
    """A document nobody profiled (no entity) may be about Tesla: the question is declined only when Tesla's words
    are not in it, and not at all when the documents' tokens cannot be looked up."""
    docs = [*FILINGS[2:4], _record("release.pdf", None)]
    release = docs[-1].doc_id
    question = "What was Tesla's revenue in 2019?"

    def holding(text: str):
        tokens = set(tokenize(text))
        return lambda token: {release} if token in tokens else set()

    about = _plan(question, docs, workspace="fb", words_of=tokenize,
                  docs_with_token=holding("Tesla, Inc. reported total revenues of $24,578 million for 2019."))
    assert about.decline is None and about.facts.unknown_entities == ()
    other = _plan(question, docs, workspace="fb", words_of=tokenize,
                  docs_with_token=holding("Acme Widgets reported total revenues of $24,578 million for 2019."))
    assert other.facts.unknown_entities == ("Tesla",)
    assert other.decline == (
        "No document in workspace 'fb' is about Tesla, so Prism does not answer with another company's figures. "
        "The workspace holds: Amazon.com, Inc., American Water Works Company, Inc. Add Tesla's documents, or ask "
        "about one of these.")
    assert _plan(question, docs, workspace="fb").decline is None  # no token lookup: nothing to judge it by


def test_an_entity_whose_statements_a_filing_carries_as_an_exhibit_is_that_filings():
    """MGM's 2018 10-K carries CityCenter Holdings, LLC's statements as Exhibit 99.3: a question about CityCenter is
    scoped to that filing, not declined as an unknown company; a name no exhibit holds still is."""
    docs = [replace(d, exhibit_entities=["CITYCENTER HOLDINGS, LLC"]) if d.source == "MGMRESORTS_2018_10K.pdf" else d
            for d in FILINGS]
    plan = _plan("What were CityCenter's total assets at the end of 2018?", docs, workspace="fb")
    assert plan.decline is None and plan.facts.unknown_entities == ()
    assert _names(plan.allowed) == {"MGMRESORTS_2018_10K.pdf"} and plan.scope.documents == ("MGMRESORTS_2018_10K.pdf",)
    assert _plan("What were CityCenter's total assets?", FILINGS, workspace="fb").decline.startswith(
        "No document in workspace 'fb' is about CityCenter")
    assert _plan("What were Zephyr Holdings' total assets?", docs, workspace="fb").decline.startswith(
        "No document in workspace 'fb' is about Zephyr")
    both = _plan("MGM's investment in CityCenter in 2018", docs, workspace="fb")
    assert _names(both.allowed) == MGM and both.decline is None  # a workspace entity named: its scope as before


def test_covered_periods():
    tenk = DocumentProfile("W", None, "10-K", "FY2020", "2020-01-31", None, None)
    assert covered_periods(tenk) == {"FY2020": 2, "FY2019": 1, "FY2018": 1}
    tenq = DocumentProfile("J", None, "10-Q", "Q2 FY2022", "2022-12-31", None, None)
    assert covered_periods(tenq) == {"Q2 FY2022": 2, "Q2 FY2021": 1, "FY2022": 1, "FY2021": 1, "H1 FY2022": 2,
                                     "H1 FY2021": 1}
    assert covered_periods(DocumentProfile("F", None, "8-K", "2022-08-19", None, None, None)) == {"2022-08-19": 2}
    assert covered_periods(None) == {}


def test_financebench_dev_evidence_filing_always_in_scope():
    """On all 20 dev questions: scoped (every question names its company), the evidence filing in scope and, when
    a preference is made, preferred; no decline."""
    questions = require_data("financebench-dev", "questions.jsonl")
    rows = [json.loads(line) for line in questions.read_text().splitlines() if line.strip()]
    preferred = 0
    for row in rows:
        plan = _plan(row["question"], FILINGS, workspace="fb")
        evidence = ID[row["doc_name"] + ".pdf"]
        assert plan.allowed is not None and evidence in plan.allowed, row["question"]
        assert not plan.preferred or evidence in plan.preferred, row["question"]
        assert plan.decline is None
        preferred += bool(plan.preferred)
    assert preferred == 3  # the three MGM questions


def test_removed_entities_and_periods_are_not_used():
    question = "What is the year end FY2018 amount of accounts payable for MGM Resorts?"
    plan = _plan(question, FILINGS, workspace="fb", removed=["FY2018"])
    assert _names(plan.allowed) == MGM and plan.preferred == frozenset()  # the period chip is gone: no preference
    assert plan.scope.to_dict() == {"entities": ["MGM Resorts International"], "periods": [],
                                    "documents": sorted(MGM), "auto": True, "removed": ["FY2018"]}
    plan = _plan(question, FILINGS, workspace="fb", removed=["MGM Resorts International"])
    assert plan.allowed is None  # the entity chip is gone: the whole workspace, the period still preferred
    assert _names(plan.preferred) >= {"MGMRESORTS_2018_10K.pdf"} and plan.scope.periods == ("FY2018",)
    assert plan.scope.removed == ("MGM Resorts International",)
    off = _plan(question, FILINGS, workspace="fb", auto=False, removed=["MGM Resorts International", "FY2018"])
    assert off.allowed is None and off.scope.to_dict()["removed"] == ["MGM Resorts International", "FY2018"]


# --- the catalog: derived once per committed state -------------------------------------------------------------------
@pytest.mark.parametrize("question", ["What is Boeing's year end FY2018 net PP&E?", "MGM revenue in 2019",
                                      "What is a capital-intensive business?", "Acme Widgets' FY2021 margin"])
def test_a_cached_catalog_plans_the_same_scope_as_a_fresh_one(question):
    snapshot = tuple(FILINGS)
    assert catalog_of(snapshot, "fb") is catalog_of(snapshot, "fb")  # a tuple is catalogued once
    assert catalog_of(FILINGS, "fb") is not catalog_of(FILINGS, "fb")  # a list may change: catalogued afresh
    assert catalog_of(tuple(FILINGS), "fb") is not catalog_of(snapshot, "fb")  # another snapshot: its own
    assert _plan(question, snapshot, workspace="fb") == _plan(question, FILINGS, workspace="fb")


def test_a_profile_correction_is_seen_by_the_next_search(prism_home):
    """The cache is keyed by the registry's snapshot, so a correction (which does not add or remove a document)
    still reaches the scope at once."""
    workspace = Workspace(prism_home, WorkspaceCatalog(prism_home).create("scope-cache"))
    with workspace.write_lock():
        workspace.commit(add=FILINGS)
    before = workspace.snapshot()
    assert workspace.snapshot() is before and list(before) == workspace.documents()
    question = "What was Meridian Holdings' FY2022 capex?"
    assert _plan(question, before, workspace="fb").decline is not None  # nobody is called Meridian yet
    workspace.update_record(ID["3M_2022_10K.pdf"], profile_corrections={"entity": "Meridian Holdings"})
    after = workspace.snapshot()
    assert after is not before
    plan = _plan(question, after, workspace="fb")
    assert plan.decline is None and _names(plan.allowed) == {"3M_2022_10K.pdf"}
    assert catalog_of(after, "fb").profiles[ID["3M_2022_10K.pdf"]].entity == "Meridian Holdings"
