"""Sections of a filing and the questions that look for them: the one home of their words.

An SEC filing is divided into Items (Form 10-K: Item 1 Business, 1A Risk Factors, 7 MD&A, 8 Financial Statements …;
Form 10-Q: Part I Items 1–4, Part II Items 1–6; SEC Regulation S-K and the forms' General Instructions). Prism names
a chunk's section by one kind of :data:`SECTION_KINDS`, read from the Item heading's title (:data:`TITLE_KINDS`), or
from its number when the title is cut off (:data:`TEN_K_ITEMS`), plus two kinds that are no Item of their own:
``notes`` (the notes to the financial statements, after their heading inside Item 8 / Part I Item 1) and
``exhibits`` (a page that opens with "Exhibit 99.3").

:data:`QUESTION_CUES` are the words of a question that look for a section's kind of text: a risk, a driver or a
change, a policy, a count of employees (regular expressions, lower case, matched whole-word).
"""

from __future__ import annotations

import re

SECTION_KINDS: dict[str, str] = {
    "business": "Business",
    "risk_factors": "Risk factors",
    "properties": "Properties",
    "legal": "Legal proceedings",
    "equity": "Market for the registrant's equity",
    "selected_data": "Selected financial data",
    "mdna": "Management's discussion and analysis",
    "market_risk": "Market risk disclosures",
    "financial_statements": "Financial statements",
    "notes": "Notes to the financial statements",
    "controls": "Controls and procedures",
    "governance": "Directors, officers and governance",
    "exhibits": "Exhibits",
    "other": "Other items",
}
"""Section kind → its display name."""

TITLE_KINDS: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p, re.IGNORECASE), kind) for p, kind in (
    (r"risk\s+factors", "risk_factors"),
    (r"management['’`s]*\s+discussion", "mdna"),
    (r"quantitative\s+and\s+qualitative", "market_risk"),
    (r"changes\s+in\s+and\s+disagreements", "other"),
    (r"financial\s+statements", "financial_statements"),
    (r"legal\s+proceedings", "legal"),
    (r"controls\s+and\s+procedures", "controls"),
    (r"market\s+for\s+(?:the\s+)?registrant|unregistered\s+sales|purchases\s+of\s+equity", "equity"),
    (r"selected\s+(?:consolidated\s+)?financial\s+data|\[reserved\]", "selected_data"),
    (r"directors|executive\s+(?:officers|compensation)|security\s+ownership|certain\s+relationships"
     r"|principal\s+account", "governance"),
    (r"exhibits", "exhibits"),
    (r"properties", "properties"),
    (r"business", "business"),
    (r"mine\s+safety|other\s+information|unresolved\s+staff|defaults\s+upon|form\s+10-k\s+summary|cybersecurity",
     "other"),
))
"""An Item heading's title → its kind, first match wins ("Exhibits, Financial Statement Schedules" is exhibits only
because "financial statements" is plural there and "statement schedules" is not: the order matters)."""

TEN_K_ITEMS: dict[str, str] = {
    "1": "business", "1a": "risk_factors", "1b": "other", "1c": "other", "2": "properties", "3": "legal",
    "4": "other", "5": "equity", "6": "selected_data", "7": "mdna", "7a": "market_risk", "8": "financial_statements",
    "9": "other", "9a": "controls", "9b": "other", "9c": "other", "10": "governance", "11": "governance",
    "12": "governance", "13": "governance", "14": "governance", "15": "exhibits", "16": "other",
}
"""Form 10-K Item number → kind, for a heading whose title the layout cut off ("ITEM 7A.")."""

ITEM_HEADING = re.compile(r"^[ \t]*(?:part\s+i{1,3}v?\b[\s.,:—–-]*)?item\s*(\d{1,2}[a-c]?)\s*[.:—–-]?[ \t]*"
                          r"(?=(?P<title>[^\n]*(?:\n[^\n]*){0,2}))", re.IGNORECASE | re.MULTILINE)
"""An Item heading at a line start ("Item 7. Management's Discussion …", "PART II ITEM 5. MARKET …", "ITEM\\n1A.");
``title``: the rest of its line and the next two (a title the layout broke over lines), looked ahead at, so a
heading on the next line is found too."""

NOTES_HEADING = re.compile(r"^[ \t]*notes\s+to\s+(?:the\s+)?(?:condensed\s+)?(?:consolidated\s+)?financial\s+"
                           r"statements[ \t]*(?:\(unaudited\))?[ \t]*$", re.IGNORECASE | re.MULTILINE)
"""The notes' own heading: the whole line ("NOTES TO CONSOLIDATED FINANCIAL STATEMENTS"); "the accompanying notes to
consolidated financial statements" under every statement is no heading."""

EXHIBIT_HEADING = re.compile(r"\A\s*(?:[^\n]{0,40}\n\s*)?exhibit\s+(\d{1,3}(?:\.\d{1,3})?)\b[ \t]*$",
                             re.IGNORECASE | re.MULTILINE)
"""A page that opens (in its first two lines) with an exhibit number alone on its line: "Exhibit 99.3"."""

QUESTION_CUES: dict[str, tuple[str, ...]] = {
    "risk_factors": (r"risks?", r"risky", r"uncertaint\w*", r"threats?", r"vulnerab\w*"),
    "mdna": (r"dr[oi]ve[ns]?", r"drivers?", r"why", r"explain\w*", r"due to", r"margins?", r"perform\w*",
             r"trends?", r"outlook", r"guidance", r"liquidity", r"compared? (?:with|to)", r"versus", r"grow\w*",
             r"grew", r"declin\w*", r"increas\w*", r"decreas\w*", r"improv\w*", r"pressure", r"recover\w*",
             r"healthy", r"shr[iu]nk\w*", r"organic\w*", r"segments?"),
    "notes": (r"polic(?:y|ies)", r"accounting", r"recogni[sz]\w*", r"leases?", r"pensions?", r"contingen\w*",
              r"impairments?", r"maturit\w*", r"fair value", r"derivatives?", r"stock-based", r"goodwill",
              r"segments?", r"acqui\w*", r"debt"),
    "business": (r"employ\w*", r"headcount", r"workforce", r"associates", r"staff", r"competit\w*",
                 r"customers?", r"seasonal\w*", r"strateg\w*"),
    "legal": (r"lawsuits?", r"litigation", r"investigat\w*", r"legal", r"settle\w*", r"sec\b"),
    "equity": (r"repurchas\w*", r"buy ?backs?", r"dividends?"),
}
"""Question words → the kinds of section whose text answers them (a question may cue several)."""
