"""Stock exchanges: how a 10-K cover names them and how a press release's ticker parenthesis abbreviates them.

* :data:`COVER_NAMES_RE` — the exchange column of a cover's 12(b) table ("New York Stock Exchange", "Nasdaq",
  "Cboe"): the symbol stands just before it.
* :data:`DATELINE_RE` — the exchange in a release's parenthesis ("Acme Corp (NYSE: ACME)", "(Nasdaq: LUMD)",
  "(NSE: MERIDFIN; BSE: 543210)", "(Euronext Amsterdam: VSTR)", "(XETRA: KSY)"): the symbol follows its colon.

Sources: the exchanges' own names (NYSE, NYSE American, Nasdaq and its tiers, Cboe, the NSE and BSE of India, the
London, Toronto, Australian, Frankfurt (Xetra), Swiss (SIX), Euronext and Hong Kong exchanges, OTC Markets).
"""

from __future__ import annotations

COVER_NAMES: tuple[str, ...] = (
    r"New\s+York\s+Stock\s+Exchange", "NYSE", "Nasdaq", "NASDAQ", r"Chicago\s+Stock\s+Exchange", "Cboe",
    r"Boston\s+Stock\s+Exchange", r"Pacific\s+Exchange",
)
"""Exchange names as a 10-K cover's 12(b) table prints them (regex spellings, longest first where one contains
another)."""

COVER_NAMES_RE = r"(?:The\s+)?(?:" + "|".join(COVER_NAMES) + ")"
"""Any cover name, with an optional leading "The"."""

DATELINE_CODES: tuple[str, ...] = (
    r"NYSE\s+American", r"NYSE\s+Arca", "NYSE",
    r"Nasdaq(?:\s+(?:Global\s+Select|Global|Capital)\s+Market|\s+GS|\s+GM|\s+CM)?", "NASDAQ",
    "NSE", "BSE", "LSE", "AIM", r"TSX(?:-V|\s+Venture)?", "TSXV", "ASX", r"Euronext(?:\s+[A-Z][a-z]+)?",
    "XETRA", "Xetra", "FWB", "SIX", "HKEX", "SGX", "JSE", "OTCQX", "OTCQB", "OTC", "Cboe", "CBOE",
)
"""Exchange codes a release writes before a ticker's colon (regex spellings, longest first where one starts
another)."""

DATELINE_RE = r"(?:" + "|".join(DATELINE_CODES) + ")"
"""Any dateline code."""
