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
"""

from __future__ import annotations

import logging
import re

logger = logging.getLogger(__name__)

__all__ = ["STATEMENT_KINDS", "statement_kinds", "statement_tokens"]

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
