"""A question naming two companies gets one figure per company, each line naming its company and citing its own
filing; a company whose filing gives no such row is said to be missing (the real pipeline: two 10-Ks built with
fpdf2, the real embedder, Chroma and BM25, auto-scope)."""

from __future__ import annotations

import pytest

from prism.answering.programs.entities import compares_companies, entity_documents
from prism.types import IngestItem, SearchScope
from tests.builders import bolt_statement_pdf, statements_pdf
from tests.conftest import offline_service
from tests.readings import read


@pytest.fixture(scope="module")
def two(tmp_path_factory, embedder):
    """Acme's 10-K (three statements) and Bolt Gears' (operations only) in one workspace."""
    home = tmp_path_factory.mktemp("entity_figures_home")
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    results = svc.ingest([IngestItem(statements_pdf(home / "acme_10k.pdf")),
                          IngestItem(bolt_statement_pdf(home / "bolt_10k.pdf"))], "two")
    assert [r.status for r in results] == ["ingested", "ingested"]
    return svc


def _lines(answer) -> list[str]:
    return [li.removeprefix("- ") for li in answer.answer.splitlines()[2:]]


def test_each_named_company_gets_its_own_figure(two):
    answer = two.ask("Compare Acme Widgets' and Bolt Gears' net income in 2023", "two")
    assert set(answer.scope.entities) == {"Acme Widgets, Inc.", "Bolt Gears, Inc."}
    assert _lines(answer) == [  # in the order the question names them, each citing its own filing
        "Acme Widgets: Net income, 2023: $64,875 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS) [1]",
        "Bolt Gears: Net income, 2023: $27,310 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS) [2]",
    ]
    by_source = {c.source: c.page_start for c in answer.citations}
    assert by_source == {"acme_10k.pdf": 2, "bolt_10k.pdf": 2}
    assert not answer.unsupported_numbers
    # one company: one line, no company prefix (as before)
    single = two.ask("What was Bolt Gears' net income in 2023?", "two")
    assert _lines(single) == ["Net income, 2023: $27,310 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS) [1]"]


def test_a_question_comparing_companies_gets_each_companys_figure_and_one_comparing_items_the_difference(two):
    """"Compare Acme's and Bolt's net income" compares the companies: each company's answer is its net income, not
    a difference between two of its own rows offered as another reading; naming two items asks for their
    difference in each company."""
    names = ["Acme Widgets, Inc.", "Bolt Gears, Inc."]
    assert compares_companies(read("Compare Acme Widgets' and Bolt Gears' net income in 2023"), names)
    items = "What was the difference between operating income and net income for Acme Widgets and Bolt Gears in 2023?"
    assert not compares_companies(read(items), names)
    assert not compares_companies(read("How much higher was operating income than net income at Acme and Bolt in "
                                       "2023"), names)
    first = two.ask(items, "two").answer.splitlines()[0]
    assert "Acme Widgets: $31,435 thousand" in first and "Bolt Gears: $13,890 thousand" in first, first


def test_a_company_without_the_row_is_named_not_dropped_silently(two):
    answer = two.ask("Compare Acme Widgets' and Bolt Gears' inventories at December 31, 2023", "two")
    assert _lines(answer) == [  # the balance sheet's unit line names no currency: none is added
        "Acme Widgets: Inventories, December 31, 2023: 62 million (CONSOLIDATED BALANCE SHEETS) [1]"]
    assert [n.text for n in answer.notes if n.kind == "no_match"] == [
        "No table row in the documents of Bolt Gears, Inc. gives this figure; only the other companies' figures are "
        "shown."]


def test_entity_documents_needs_two_named_companies(two):
    workspace = two.open("two").workspace
    both = SearchScope(entities=("Acme Widgets, Inc.", "Bolt Gears, Inc."), auto=True)
    assert entity_documents(both, workspace) == [("Acme Widgets, Inc.", ["acme_10k.pdf"]),
                                                 ("Bolt Gears, Inc.", ["bolt_10k.pdf"])]
    assert entity_documents(SearchScope(entities=("Acme Widgets, Inc.",), auto=True), workspace) == []
    assert entity_documents(None, workspace) == [] and entity_documents(both, None) == []
