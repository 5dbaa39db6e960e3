"""Statement kinds in text and in the index: however a statement is named, one canonical kind.

Questions name statements loosely ("income statement", "P&L", "statement of profit and loss", "balance sheet",
"cash flow statement"); filings head them formally ("CONSOLIDATED STATEMENTS OF OPERATIONS", "Consolidated
Statements of Financial Position", "CONSOLIDATED BALANCE SHEETS"). :func:`statement_kinds` maps both to the same
kind, and :func:`statement_tokens` writes each kind as one index token (``statement:income``), which
:func:`prism.index.tokenizer.tokenize` adds to the tokens of any text that names the statement, chunks and
questions alike, so BM25 bridges the two wordings. The names and the line items are data of
:mod:`prism.vocabulary.statements` (:data:`STATEMENT_KINDS`, :data:`ITEMS`, :class:`LineItem`, re-exported here).

The statement names each kind stands for are listed, with their spellings, in :mod:`prism.vocabulary.statements`.

"Statements of comprehensive income" and "of stockholders' equity" are other statements and map to no kind.

A question more often names a line item than its statement ("Netflix's revenue in 2015"). :data:`ITEMS` holds the
line items Prism reads (the calculations of :mod:`prism.answering.derived.formulas` and the answer's evidence check use
it too), each with the statement it is read from, and :func:`line_item_kinds` gives the statements of the line items a
text names: "revenue" → ``income``, "capital expenditures" → ``cash_flow``, "total assets" → ``balance``.
"""

from __future__ import annotations

import logging
import re

from prism.vocabulary.statements import FIGURE_CUES, ITEMS, STATEMENT_KINDS, LineItem

logger = logging.getLogger(__name__)

__all__ = ["ITEMS", "STATEMENT_KINDS", "LineItem", "figure_kinds", "line_item_kinds", "statement_kinds",
           "statement_tokens"]

def statement_kinds(text: str) -> set[str]:
    """The statement kinds ``text`` names (keys of :data:`STATEMENT_KINDS`); empty when it names none."""
    return {kind for kind, pattern in STATEMENT_KINDS.items() if pattern.search(text)}


def statement_tokens(text: str) -> list[str]:
    """One index token per statement kind ``text`` names, in :data:`STATEMENT_KINDS` order:
    ``["statement:income"]`` for "Consolidated Statements of Operations" and for "the income statement"."""
    kinds = statement_kinds(text)
    return [f"statement:{kind}" for kind in STATEMENT_KINDS if kind in kinds]


_ITEM_PATTERNS = {key: re.compile(r"\b(?:" + "|".join(item.words) + r")\b", re.IGNORECASE)
                  for key, item in ITEMS.items()}


def line_item_kinds(text: str) -> set[str]:
    """The statement kinds (keys of :data:`STATEMENT_KINDS`) of the line items of :data:`ITEMS` that ``text``
    names ("What was Netflix's revenue in 2015?" → ``{"income"}``); empty when it names none."""
    return {ITEMS[key].statement for key, pattern in _ITEM_PATTERNS.items() if pattern.search(text)}


_CUE_PATTERNS = {kind: re.compile(r"\b(?:" + "|".join(cues) + r")\b", re.IGNORECASE)
                 for kind, cues in FIGURE_CUES.items()}


def figure_kinds(text: str) -> set[str]:
    """The statement kinds whose rows hold a figure ``text`` asks for: those of its line items
    (:func:`line_item_kinds`) and of the analyst's other names for statement figures
    (:data:`prism.vocabulary.statements.FIGURE_CUES`: "free cash flow" → ``cash_flow``, "gross margin" → ``income``,
    "total debt" → ``balance``). For retrieval only (which statement's rows to rank); empty when it names none."""
    return line_item_kinds(text) | {kind for kind, pattern in _CUE_PATTERNS.items() if pattern.search(text)}
