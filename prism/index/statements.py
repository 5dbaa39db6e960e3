"""The one vocabulary of financial statement kinds: however a statement is named, one canonical kind.

Questions name statements loosely ("income statement", "P&L", "statement of profit and loss", "balance sheet",
"cash flow statement"); filings head them formally ("CONSOLIDATED STATEMENTS OF OPERATIONS", "Consolidated
Statements of Financial Position", "CONSOLIDATED BALANCE SHEETS"). :func:`statement_kinds` maps both to the same
kind, and :func:`statement_tokens` writes each kind as one index token (``statement:income``), which
:func:`prism.index.tokenizer.tokenize` adds to the tokens of any text that names the statement, chunks and
questions alike, so BM25 bridges the two wordings.

==================  ==========================================================================================
kind                names (case-insensitive; "consolidated", "condensed", "standalone" may stand between)
==================  ==========================================================================================
``income``          income statement, statement(s) of (consolidated) operations / income / earnings,
                    profit and loss (statement / account), P&L, P/L
``balance``         balance sheet(s) (not "off-balance sheet"), statement(s) of financial position / condition,
                    statement of assets and liabilities
``cash_flow``       cash flow statement, statement(s) of cash flows
==================  ==========================================================================================

"Statements of comprehensive income" and "of stockholders' equity" are other statements and map to no kind.

A question more often names a line item than its statement ("Netflix's revenue in 2015"). :data:`ITEMS` holds the
line items Prism reads (the calculations of :mod:`prism.answering.derived.formulas` and the answer's evidence check use
it too), each with the statement it is read from, and :func:`line_item_kinds` gives the statements of the line items a
text names: "revenue" → ``income``, "capital expenditures" → ``cash_flow``, "total assets" → ``balance``.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

logger = logging.getLogger(__name__)

__all__ = ["ITEMS", "STATEMENT_KINDS", "LineItem", "line_item_kinds", "statement_kinds", "statement_tokens"]

_QUAL = r"(?:(?:consolidated|condensed|standalone|combined|interim|unaudited)\s*)*"
_OF = rf"statements?\s*of\s*{_QUAL}"
_START = r"(?:\b|(?<=consolidated)|(?<=condensed))"  # layout text may run words together: "CONSOLIDATEDBALANCESHEETS"
STATEMENT_KINDS: dict[str, re.Pattern[str]] = {
    "income": re.compile(
        rf"{_START}(?:income\s*statements?\b|{_OF}(?:operations|income|earnings)\b)"
        r"|\bprofit\s*(?:and|&)\s*loss\b|\bp\s?&\s?l\b|\bp/l\b", re.IGNORECASE),
    "balance": re.compile(
        rf"(?<!off-)(?<!off ){_START}(?:balance\s*sheets?\b|{_OF}financial\s*(?:position|condition)\b"
        rf"|{_OF}assets\s*and\s*liabilities\b)", re.IGNORECASE),
    "cash_flow": re.compile(rf"{_START}(?:cash\s*flows?\s*statements?\b|{_OF}cash\s*flows?\b)", re.IGNORECASE),
}
"""Statement kind → the pattern of its names (see the module docstring)."""


def statement_kinds(text: str) -> set[str]:
    """The statement kinds ``text`` names (keys of :data:`STATEMENT_KINDS`); empty when it names none."""
    return {kind for kind, pattern in STATEMENT_KINDS.items() if pattern.search(text)}


def statement_tokens(text: str) -> list[str]:
    """One index token per statement kind ``text`` names, in :data:`STATEMENT_KINDS` order:
    ``["statement:income"]`` for "Consolidated Statements of Operations" and for "the income statement"."""
    kinds = statement_kinds(text)
    return [f"statement:{kind}" for kind in STATEMENT_KINDS if kind in kinds]


@dataclass(frozen=True)
class LineItem:
    """A line item of a financial statement: how questions name it, the row labels that hold it, its statement.

    Attributes:
        name: as shown in a calculation's work ("operating income").
        words: phrases naming it in a question, longest first (regular expressions, lower case).
        labels: row labels that hold it in a statement, best first, lower case, compared after normalising
            (``prism.answering.derived.inputs.normalise_label``).
        statement: the statement kind it is read from (``income``, ``balance``, ``cash_flow``).
    """

    name: str
    words: tuple[str, ...]
    labels: tuple[str, ...]
    statement: str


ITEMS: dict[str, LineItem] = {
    "revenue": LineItem("revenue", (r"total revenues?", r"net revenues?", r"net sales", r"revenues?", r"sales"),
                        ("total revenues", "total revenue", "total net revenues", "revenues", "revenue", "net revenues",
                         "total net sales", "net sales", "operating revenues", "total operating revenues", "sales"),
                        "income"),
    "cogs": LineItem("cost of goods sold", (r"cost of goods sold", r"cogs", r"cost of sales", r"cost of products sold",
                                            r"cost of revenues?"),
                     ("cost of sales", "cost of goods sold", "cost of products sold", "cost of revenues",
                      "cost of revenue", "total cost of revenues", "cost of goods sold excluding depreciation"),
                     "income"),
    "operating_income": LineItem("operating income", (r"operating income", r"operating profit",
                                                      r"income from operations"),
                                 ("operating income", "operating income loss", "income from operations",
                                  "operating profit", "total operating income"), "income"),
    "net_income": LineItem("net income", (r"net income", r"net earnings", r"net profit"),
                           ("net income", "net earnings", "net income loss", "net income attributable to common "
                            "shareholders"), "income"),
    "gross_profit": LineItem("gross profit", (r"gross profit",), ("gross profit", "gross margin"), "income"),
    "da": LineItem("depreciation and amortization", (r"depreciation,? (?:and|&) amortization", r"d&a",
                                                     r"depreciation"),
                   ("depreciation and amortization", "depreciation amortization",
                    "depreciation and amortization of property equipment and intangibles", "depreciation"),
                   "cash_flow"),
    "capex": LineItem("capital expenditures", (r"capital expenditures?", r"capex", r"purchases of property"),
                      ("capital expenditures", "purchases of property and equipment",
                       "purchases of property plant and equipment", "payments for property and equipment",
                       "capital expenditure"), "cash_flow"),
    "cfo": LineItem("cash from operations", (r"cash (?:flows? )?from operations", r"operating cash flows?",
                                             r"cash (?:provided by|from) operating activities"),
                    ("net cash provided by operating activities", "net cash from operating activities",
                     "cash provided by operating activities", "net cash provided by used in operating activities",
                     "cash provided by operations", "net cash flows from operating activities"), "cash_flow"),
    "inventory": LineItem("inventory", (r"inventor(?:y|ies)",), ("inventories", "inventory", "merchandise inventories",
                                                                  "inventories net"), "balance"),
    "current_liabilities": LineItem("total current liabilities", (r"(?:total )?current liabilities",),
                                    ("total current liabilities", "current liabilities"), "balance"),
    "current_assets": LineItem("total current assets", (r"(?:total )?current assets",),
                               ("total current assets", "current assets"), "balance"),
    "total_assets": LineItem("total assets", (r"total assets",), ("total assets",), "balance"),
}
"""Line items by key. Labels are compared whole (after normalising), so "Net sales" never reads "Net sales growth"."""


_ITEM_PATTERNS = {key: re.compile(r"\b(?:" + "|".join(item.words) + r")\b", re.IGNORECASE)
                  for key, item in ITEMS.items()}


def line_item_kinds(text: str) -> set[str]:
    """The statement kinds (keys of :data:`STATEMENT_KINDS`) of the line items of :data:`ITEMS` that ``text``
    names ("What was Netflix's revenue in 2015?" → ``{"income"}``); empty when it names none."""
    return {ITEMS[key].statement for key, pattern in _ITEM_PATTERNS.items() if pattern.search(text)}
