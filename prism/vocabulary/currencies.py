"""Currencies: ISO 4217 codes, the symbols figures are written with, and how documents mark amounts in them.

Sources: ISO 4217 (codes ``INR``, ``USD``, ``EUR``, ``GBP``); the symbols ₹ (U+20B9, adopted by the Government of
India in 2010), $, € and £; the marks Indian documents use ("Rs.", "Rs", "rupees") and US filings ("US$", "U.S.
dollars").
"""

from __future__ import annotations

INR, USD, EUR, GBP = "INR", "USD", "EUR", "GBP"
CODES: tuple[str, ...] = (INR, USD, EUR, GBP)
"""The ISO 4217 codes Prism reads and writes."""

SYMBOL: dict[str, str] = {USD: "$", INR: "₹", EUR: "€", GBP: "£"}
"""ISO 4217 code → the symbol a figure is written with ("$1,832 million")."""

SYMBOLS = "".join(SYMBOL.values())
"""The currency symbols as one string, ``"$₹€£"`` (for character classes: ``rf"[{re.escape(SYMBOLS)}]"``)."""

SYMBOL_CLASS = "[$₹€£]"
"""A regex character class of the currency symbols."""

MARKS: dict[str, str] = {
    "₹": INR, "rs": INR, "rs.": INR, "inr": INR, "rupee": INR, "rupees": INR,
    "$": USD, "us$": USD, "usd": USD, "dollar": USD, "dollars": USD,
    "€": EUR, "eur": EUR, "euro": EUR, "euros": EUR,
    "£": GBP, "gbp": GBP,
}  # fmt: skip
"""A written currency mark, lower case → its ISO 4217 code."""

MENTION_RE: dict[str, str] = {INR: r"₹|\bRs\b|\bINR\b|\brupees?\b", USD: r"\$|\bUSD\b|\bdollars?\b",
                              EUR: r"€|\bEUR\b|\beuros?\b", GBP: r"£|\bGBP\b|\bpounds?\s+sterling\b"}
"""ISO 4217 code → how a text mentions amounts in it: symbol, code or name (use with ``re.IGNORECASE``)."""

PASSAGE_MENTION_RE: dict[str, str] = {**MENTION_RE, INR: r"₹|\bRs\.|\bINR\b|\brupees?\b"}
""":data:`MENTION_RE` for running passages, where "Rs" needs its stop: a bare "rs" there is as often the tail of a
word that a PDF broke across lines ("custome\\nrs")."""

MARK_RE = r"₹|\bRs\.?|\brupees?\b|\bINR\b|US\$|\$|\bdollars?\b|\bUSD\b|€|\bEUR\b|£|\bGBP\b"
"""Any currency's mark (symbol, code, "Rs.", a name in words); read the code of a match with :func:`code_of`. Use
with ``re.IGNORECASE``."""

AMOUNT_MARK_RE: dict[str, str] = {
    USD: r"US\$|\$\s?\d|\bUSD\b|\bU\.S\. dollars?\b",
    INR: r"(?i:₹|\bRs\.?\s?(?:\d|in\b|lakh|crore)|\bINR\b)",
    EUR: r"€|\bEUR\b",
    GBP: r"£|\bGBP\b",
}
"""ISO 4217 code → the marks of an amount in it that count towards a document's currency ("$1,234", "Rs. 2
lakh", "Rs. in crore", "USD"; a "$" only before a digit), most common first on ties."""

NAME_RE = r"\b(?:rupees?|dollars?|euros?)\b"
"""A currency named in words after an amount ("fifteen crore rupees", "five million dollars"); read its code with
:func:`code_of`. Use with ``re.IGNORECASE``."""

INR_MARK_RE = r"₹|\bRs\.?|\bINR\b"
"""How Indian documents mark rupee amounts: ₹, "Rs." / "Rs", "INR"."""

USD_MARK_RE = r"\bUS\$|\bUSD\b|\$"
"""How documents mark US dollar amounts: "US$", "USD", "$"."""


def code_of(mark: str | None) -> str | None:
    """ISO 4217 code of a written currency mark (``"Rs."`` → ``"INR"``, ``"US$"`` → ``"USD"``), case-insensitive;
    ``None`` for ``None``, an empty mark or an unknown one."""
    if not mark:
        return None
    mark = mark.strip().lower()
    return MARKS.get(mark) or MARKS.get(mark.rstrip("."))
