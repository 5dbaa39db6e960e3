"""The statement-kind vocabulary: loose names in questions and formal headings in filings meet in one BM25 term."""

from __future__ import annotations

import pytest

from prism.index.bm25 import BM25Index
from prism.index.statements import line_item_kinds, statement_kinds, statement_tokens
from prism.index.tokenizer import tokenize


@pytest.mark.parametrize(("text", "kinds"), [
    ("CONSOLIDATED STATEMENTS OF OPERATIONS", {"income"}),
    ("Consolidated Statements of Income", {"income"}),
    ("CONSOLIDATEDSTATEMENTSOFOPERATIONS", {"income"}),  # layout text that runs the words together
    ("Using only the income statement, what is net income?", {"income"}),
    ("What does the P&L say?", {"income"}),
    ("Standalone Statement of Profit and Loss for the year ended 31 March 2024", {"income"}),
    ("CONSOLIDATED BALANCE SHEETS", {"balance"}),
    ("CONSOLIDATEDBALANCESHEETS", {"balance"}),
    ("Consolidated Statements of Financial Position", {"balance"}),
    ("Consolidated Statements of Cash Flows", {"cash_flow"}),
    ("based on the balance sheet and the cash flow statement", {"balance", "cash_flow"}),
    ("Off-balance sheet arrangements", set()),
    ("CONSOLIDATED STATEMENTS OF COMPREHENSIVE INCOME", set()),
    ("Consolidated Statements of Stockholders' Equity", set()),
    ("imbalances in the sheet metal market", set()),
])
def test_statement_names_map_to_one_kind(text, kinds):
    assert statement_kinds(text) == kinds


def test_tokens_of_a_question_and_a_heading_share_the_kind_term():
    assert statement_tokens("balance sheet and the cash flow statement") == ["statement:balance", "statement:cash_flow"]
    assert tokenize("What is in the income statement?") == ["incom", "statement", "statement:income"]
    assert tokenize("CONSOLIDATED STATEMENTS OF OPERATIONS | 2015 | 2014") == [
        "consolid", "statement", "oper", "2015", "2014", "statement:income"]
    assert "statement:balance" not in tokenize("off-balance sheet arrangements")


def test_bm25_ranks_the_statement_a_question_names_loosely():
    chunks = [
        "CONSOLIDATED STATEMENTS OF OPERATIONS | 2019 | 2018 | in millions\nTotal net sales 280,522 232,887",
        "CONSOLIDATED STATEMENTS OF FINANCIAL POSITION | 2019 | 2018 | in millions\nTotal assets 225,248 162,648",
    ]
    index = BM25Index(["ops", "bs"], chunks)
    # without the kind terms both chunks match "total" and "statement" alike: a tie
    (first, s1), (second, s2) = index.search("What is the total in the income statement?", top_k=2)
    assert (first, second) == ("ops", "bs") and s1 > s2
    (first, s1), (second, s2) = index.search("What is the total on the balance sheet?", top_k=2)
    assert (first, second) == ("bs", "ops") and s1 > s2


@pytest.mark.parametrize(("text", "kinds"), [
    ("What was Netflix's revenue in 2015?", {"income"}),
    ("What were Netflix's revenues in 2015?", {"income"}),
    ("What is the FY2018 capital expenditure amount (in USD millions) for 3M?", {"cash_flow"}),
    ("Total assets at year end FY2018", {"balance"}),
    ("net income and total current liabilities", {"income", "balance"}),
    ("What is the customer liability for an unauthorised UPI transaction?", set()),
    ("Who is the statutory auditor?", set()),
])
def test_line_items_name_the_statement_they_are_read_from(text, kinds):
    assert line_item_kinds(text) == kinds
