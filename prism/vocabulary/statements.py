"""Financial statements: their kinds and names, and the line items read from them.

Questions name statements loosely ("income statement", "P&L", "statement of profit and loss", "balance sheet",
"cash flow statement"); filings head them formally ("CONSOLIDATED STATEMENTS OF OPERATIONS", "Consolidated
Statements of Financial Position", "CONSOLIDATED BALANCE SHEETS"). :data:`STATEMENT_KINDS` maps both to one kind:

==================  ==========================================================================================
kind                names (case-insensitive; "consolidated", "condensed", "standalone" may stand between)
==================  ==========================================================================================
``income``          income statement, statement(s) of (consolidated) operations / income / earnings,
                    profit and loss (statement / account), P&L, P/L
``balance``         balance sheet(s) (not "off-balance sheet"), statement(s) of financial position / condition,
                    statement of assets and liabilities
``cash_flow``       cash flow statement, statement(s) of cash flows
==================  ==========================================================================================

"Statements of comprehensive income" and "of stockholders' equity" are statements too but map to no kind. The
heading of any of them (:data:`HEADING_RE`) is built from :data:`STATEMENT_OF`, what "statement(s) of …" names;
:data:`FIGURE_SOURCE_RE` is the view a briefing prefers its key figures from (every statement but the equity
statement, which repeats net income). :data:`SPOKEN` names a kind in a sentence; :data:`SEARCH_WORDS` in a filing's
own words (a sub-retrieval's query).

:data:`ITEMS` holds the line items Prism reads, each with the statement it is read from; :data:`KEY_FIGURES` is the
briefing's view of them (the items a briefing states, in its order, with the name it gives them).

Sources: the statement titles of Regulation S-X (17 CFR 210, Articles 5 and 9: balance sheets, statements of
operations / comprehensive income / cash flows / stockholders' equity), IAS 1 ("statement of financial position",
"statement of profit or loss"), Schedule III of India's Companies Act 2013 ("Statement of Profit and Loss") and
SEBI's LODR formats ("Statement of Assets and Liabilities").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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



STATEMENT_OF: dict[str, tuple[str, ...]] = {
    "income": (r"operations", r"income", r"earnings", r"profit\s+and\s+loss"),
    "balance": (r"financial\s+position", r"assets\s+and\s+liabilities"),
    "cash_flow": (r"cash\s+flows?",),
    "comprehensive": (r"comprehensive\s+(?:income|loss)",),
    "equity": (r"(?:changes\s+in\s+)?(?:stockholders|shareholders|owners)[’']?\s+equity",),
}
"""What "statement(s) of (consolidated) …" names, by statement (regex fragments, words separated by white space)."""

QUALIFIERS: tuple[str, ...] = ("consolidated", "condensed", "combined", "standalone", "interim", "unaudited")
"""Words that may stand before a statement's name ("Condensed Consolidated Balance Sheets")."""

BALANCE_SHEET_RE = r"balance\s+sheets?"
"""The balance sheet's own name (not a "statement of …")."""


def _names(statements: tuple[str, ...]) -> str:
    of = "|".join(f for s in statements for f in STATEMENT_OF[s])
    return rf"statements?\s+of\s+(?:consolidated\s+)?(?:{of})|{BALANCE_SHEET_RE}"


NAMES_RE = _names(tuple(STATEMENT_OF))
"""The name of any financial statement, without qualifiers: "statements of operations", "balance sheet",
"statement of changes in shareholders' equity" (an alternation; use with ``re.IGNORECASE``)."""

HEADING_RE = rf"\b(?:(?:{'|'.join(QUALIFIERS)})\s+)*(?:{NAMES_RE})\b"
"""A statement's heading, qualifiers included: "CONSOLIDATED STATEMENTS OF OPERATIONS", "Standalone Statement of
Profit and Loss" (use with ``re.IGNORECASE``)."""

FIGURE_SOURCE_RE = rf"{_names(('income', 'balance', 'cash_flow', 'comprehensive'))}|income\s+statements?"
"""A statement a key figure is read from: every statement but the equity statement, which repeats net income."""

SPOKEN: dict[str, str] = {"income": "income statement", "balance": "balance sheet", "cash_flow": "cash flow statement"}
"""Statement kind → how a sentence names it ("net income in the income statement")."""

SEARCH_WORDS: dict[str, str] = {"income": "consolidated statements of income operations",
                                "balance": "consolidated balance sheets",
                                "cash_flow": "consolidated statements of cash flows"}
"""Statement kind → its heading as filings print it: a sub-retrieval's query names the statement in its own words
(table chunks are indexed under their heading), which finds the statement far better than "balance sheet"."""

@dataclass(frozen=True)
class LineItem:
    """A line item of a financial statement: how questions name it, the row labels that hold it, its statement.

    Attributes:
        name: as shown in a calculation's work ("operating income").
        words: phrases naming it in a question, longest first (regular expressions, lower case).
        labels: row labels that hold it in a statement, best first, lower case, compared after normalising
            (``prism.answering.derived.inputs.normalise_label``).
        statement: the statement kind it is read from (``income``, ``balance``, ``cash_flow``).
        row: for a key figure of a briefing, the pattern a whole row label matches (lower case, anchored; wider
            than ``labels``: "net income attributable to 3M"), else ``""``.
    """

    name: str
    words: tuple[str, ...]
    labels: tuple[str, ...]
    statement: str
    row: str = ""


ITEMS: dict[str, LineItem] = {
    "revenue": LineItem("revenue", (r"total revenues?", r"net revenues?", r"net sales", r"revenues?", r"sales"),
                        ("total revenues", "total revenue", "total net revenues", "revenues", "revenue", "net revenues",
                         "total net sales", "net sales", "operating revenues", "total operating revenues", "sales"),
                        "income", r"^(?:total\s+)?(?:net\s+)?(?:operating\s+)?(?:revenues?|sales)(?:,\s*net)?$"),
    "cogs": LineItem("cost of goods sold", (r"cost of goods sold", r"cogs", r"cost of sales", r"cost of products sold",
                                            r"cost of revenues?"),
                     ("cost of sales", "cost of goods sold", "cost of products sold", "cost of revenues",
                      "cost of revenue", "total cost of revenues", "cost of goods sold excluding depreciation"),
                     "income"),
    "operating_income": LineItem("operating income", (r"operating income", r"operating profit",
                                                      r"income from operations"),
                                 ("operating income", "operating income loss", "income from operations",
                                  "operating profit", "total operating income"), "income",
                                 r"^(?:total\s+)?operating\s+income(?:\s+\(loss\))?$"),
    "net_income": LineItem("net income", (r"net income", r"net earnings", r"net profit", r"profit after tax"),
                           ("net income", "net earnings", "net income loss", "net income attributable to common "
                            "shareholders", "net profit", "net profit pat", "profit after tax", "profit after tax pat",
                            "net profit after tax"), "income",
                           r"^net\s+(?:income|earnings)(?:\s+\(loss\))?(?:\s+attributable\s+to\s+[\w .,'&-]+)?$"),
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
                     "cash provided by operations", "net cash flows from operating activities"), "cash_flow",
                    r"^(?:net\s+)?cash\s+(?:\(used\s+in\)\s+)?(?:provided\s+by|from|generated\s+(?:by|from))"
                    r"(?:\s+\(used\s+in\))?\s+operating\s+activities$"),
    "rd": LineItem("research and development",
                   (r"research (?:and|&) development(?: expenses?| costs?)?", r"r ?& ?d(?: expenses?| costs?)?",
                    r"technology (?:and|&) development(?: expenses?| costs?)?"),
                   ("research and development", "research and development expense",
                    "research and development expenses", "technology and development", "product development",
                    "research development and engineering"), "income"),
    "inventory": LineItem("inventory", (r"inventor(?:y|ies)",), ("inventories", "inventory", "merchandise inventories",
                                                                  "inventories net"), "balance"),
    "current_liabilities": LineItem("total current liabilities", (r"(?:total )?current liabilities",),
                                    ("total current liabilities", "current liabilities"), "balance"),
    "current_assets": LineItem("total current assets", (r"(?:total )?current assets",),
                               ("total current assets", "current assets"), "balance"),
    "total_assets": LineItem("total assets", (r"total assets",), ("total assets",), "balance",
                             r"^total\s+assets$"),
}
"""Line items by key. Labels are compared whole (after normalising), so "Net sales" never reads "Net sales growth".
A company's own name for an item is one of its labels: Netflix's 10-K reports research and development as
"Technology and development", so a question for R&D reads that row."""



KEY_FIGURES: tuple[tuple[str, str], ...] = (("revenue", "revenue"), ("net income", "net_income"),
                                            ("total assets", "total_assets"), ("operating cash flow", "cfo"),
                                            ("operating income", "operating_income"))
"""The key figures of a filing, in briefing order: ``(the name a briefing gives it, its key in ITEMS)``; each item
has a ``row`` pattern."""


HEADLINE_FIGURES: tuple[tuple[str, str], ...] = (
    ("revenue", ITEMS["revenue"].row),
    ("operating income", r"^(?:total\s+)?(?:operating\s+(?:income|profit)|income\s+from\s+operations)"
                         r"(?:\s+\(loss\))?$"),
    ("net income", r"^net\s+(?:income|earnings|profit)(?:\s+\(loss\))?(?:\s+attributable\s+to\s+[\w .,'&-]+)?$"),
    ("diluted EPS", r"^(?:diluted\s+(?:eps|earnings\s+per\s+(?:common\s+)?share|net\s+income\s+per\s+(?:common\s+)?"
                    r"share)|(?:(?:net\s+)?(?:income|earnings)\s+per\s+(?:common\s+)?share|eps)[\s,–-]*\(?diluted\)?"
                    r"|diluted)$"),
)
"""The headline figures of an earnings release, in briefing order: ``(the name a briefing gives it, the pattern a
whole row label matches, lower case)``; wider than :data:`KEY_FIGURES` ("Operating profit", "Net profit", "Diluted
EPS", "Earnings per share - diluted", a "Diluted" row under "Earnings per share")."""

GUIDANCE_CUE = (r"\b(?:expects?|expected|outlook|guidance|forecasts?|projects?|anticipates?|"
                r"reaffirm(?:s|ed)?|rais(?:es|ed)\s+(?:its\s+)?(?:full[- ]year\s+)?(?:guidance|outlook))\b")
"""A sentence that states a company's guidance (with a figure): "Northwind expects revenue of $1,310 million to
$1,350 million", "full-year guidance", "the outlook for fiscal 2026"."""


FIGURE_CUES: dict[str, tuple[str, ...]] = {
    "cash_flow": (r"free cash flows?", r"fcf", r"capital (?:spending|spend|outlays?)", r"capex",
                  r"capital[- ]intensi\w*",
                  r"buy ?backs?", r"(?:share|stock) repurchases?",
                  r"repurchas\w* (?:its |of )?(?:own )?(?:shares|stock)",
                  r"dividends? paid", r"return\w* (?:cash |capital )?to shareholders", r"interest paid",
                  r"cash (?:generated|provided) by operations", r"operating cash"),
    "income": (r"gross margins?", r"operating margins?", r"ebitda?", r"earnings per share", r"eps",
               r"interest expense", r"sg&a", r"selling,? general and administrative", r"effective tax rate",
               r"income tax expense"),
    "balance": (r"total debt", r"(?:long|short)-term debt", r"cash and (?:cash equivalents|short-term investments)",
                r"working capital", r"shareholders'? equity", r"stockholders'? equity", r"accounts payable",
                r"accounts receivable", r"total liabilities", r"goodwill", r"net pp&e", r"pp&e", r"ppn?e",
                r"fixed assets", r"capital[- ]intensi\w*"),
}
"""Figures an analyst asks for in other words than a line item of :data:`ITEMS` ("free cash flow", "buybacks",
"gross margin", "total debt", "PPNE"; "capital-intensive": capex and fixed assets), by the statement kind whose rows
hold them or their inputs (regular expressions, lower
case, matched whole-word). Retrieval only: these searches rank the statement's rows
(:func:`prism.index.statements.figure_kinds`); a cue is never read as a line item's value."""
