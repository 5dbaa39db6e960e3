"""Finance and regulatory abbreviations: a question asks for an "AMC's" net worth or the bank's "PAT", a circular
says "asset management company", a results table "Profit after tax" or "Net profit".

Most abbreviations spell the words they stand for by their initials ("NBFC": non-banking financial company; "RBI":
Reserve Bank of India, the "of" skipped); :mod:`prism.answering.acronyms` reads those in general, with the function
words of :data:`SKIPPABLE` and :data:`COUNTABLE`. :data:`FINANCE` holds those whose letters do not spell the words
("PAT" is also "net profit", "bps" is basis points, "CRAR" is capital to risk-weighted assets ratio, "YoY") and the
common ones a document writes in another order or form ("EBITDA"). :data:`ABBREVIATIONS` joins them with the
officer titles of :mod:`prism.vocabulary.titles` ("CEO" → "chief executive officer").

Sources: SEBI's glossary of terms (sebi.gov.in, "Glossary") and the abbreviations lists of SEBI master circulars
(mutual funds, FPIs); the RBI glossary (rbi.org.in, "Glossary") and the abbreviations of RBI master directions
(Basel III capital: CRAR, LCR, NSFR; prudential norms on income recognition and asset classification: NPA, GNPA,
NNPA; KYC direction 2016); NPCI's UPI procedural guidelines (PSP, UPI); SEC Regulation S-K Items 303 and 402 and
Form 10-K (EPS, EBITDA as a non-GAAP measure, Item 10 officer titles).
"""

from __future__ import annotations

from prism.vocabulary.titles import OFFICER_TITLES

FINANCE: dict[str, tuple[str, ...]] = {
    "PAT": ("profit after tax", "net profit"),
    "PBT": ("profit before tax",),
    "EPS": ("earnings per share",),
    "NPA": ("non-performing asset", "non performing asset"),
    "GNPA": ("gross non-performing asset", "gross npa"),
    "NNPA": ("net non-performing asset", "net npa"),
    "CRAR": ("capital to risk-weighted assets ratio", "capital to risk weighted assets ratio",
             "capital adequacy ratio"),
    "CAR": ("capital adequacy ratio",),
    "LCR": ("liquidity coverage ratio",),
    "NSFR": ("net stable funding ratio",),
    "NII": ("net interest income",),
    "NIM": ("net interest margin",),
    "EBITDA": ("earnings before interest, taxes, depreciation and amortization",
               "earnings before interest, tax, depreciation and amortisation",
               "earnings before interest, taxes, depreciation, and amortization"),
    "YOY": ("year-on-year", "year over year"),
    "QOQ": ("quarter-on-quarter", "quarter over quarter", "sequential"),
    "BPS": ("basis points", "basis point"),
    "CASA": ("current account and savings account", "current and savings account", "current account savings account"),
    "MF": ("mutual fund",),
    "FPI": ("foreign portfolio investor",),
    "FII": ("foreign institutional investor",),
    "SEBI": ("securities and exchange board of india",),
    "RBI": ("reserve bank of india", "reserve bank"),
    "NPCI": ("national payments corporation of india",),
    "PSP": ("payment service provider",),
    "TPAP": ("third party application provider",),
    "KYC": ("know your customer", "know your client"),
    "AML": ("anti-money laundering",),
    "CFT": ("combating the financing of terrorism", "countering the financing of terrorism"),
    "AMC": ("asset management company",),
    "AUM": ("assets under management",),
    "NAV": ("net asset value",),
    "NBFC": ("non-banking financial company",),
    "ARC": ("asset reconstruction company",),
    "ROE": ("return on equity",),
    "ROA": ("return on assets",),
    "TAT": ("turnaround time", "turn around time"),
    "SLR": ("statutory liquidity ratio",),
    "CRR": ("cash reserve ratio",),
    "MCLR": ("marginal cost of funds based lending rate",),
    "PCR": ("provision coverage ratio",),
    "NEFT": ("national electronic funds transfer",),
    "RTGS": ("real time gross settlement",),
    "IMPS": ("immediate payment service",),
    "UPI": ("unified payments interface",),
    "ATM": ("automated teller machine",),
    "LTV": ("loan-to-value", "loan to value"),
    "MDR": ("merchant discount rate",),
}
"""Abbreviation (upper case) → the phrases documents write for it (lower case, words separated by one space, a
hyphenated word as written)."""

ABBREVIATIONS: dict[str, tuple[str, ...]] = {**FINANCE, **{k: (v,) for k, v in OFFICER_TITLES.items()}}
"""Every abbreviation of the vocabulary: :data:`FINANCE` and the officer titles."""

LOWER_CASE: frozenset[str] = frozenset({"bps", "yoy", "qoq"})
"""Abbreviations written in lower or mixed case ("bps", "YoY"): a lower-case question word is looked up only when
it is one of these (a question's "car" or "arc" is a word, not an abbreviation)."""

SKIPPABLE: frozenset[str] = frozenset({"of", "and", "the", "for", "to", "in", "on", "&"})
"""Function words an abbreviation may leave out of its letters ("Reserve Bank of India" → RBI)."""

COUNTABLE: frozenset[str] = frozenset(
    "of and the for to in on your after before under over at by with from between against through own all".split())
"""Stop words that may give an abbreviation a letter ("know your customer" → KYC, "assets under management" →
AUM); other stop words ("are", "is", "which") never do."""


def base(word: str) -> str:
    """``word`` without a possessive and, for an abbreviation in capitals, its plural: "AMC's" → "AMC", "NBFCs" →
    "NBFC", "ATMs" → "ATM"; other words unchanged but the possessive."""
    bare = word.removesuffix("'s").removesuffix("’s").removesuffix("'").removesuffix("’")
    if len(bare) > 2 and bare.endswith("s") and bare[:-1].isupper():
        return bare[:-1]
    return bare


def expansions(word: str) -> tuple[str, ...]:
    """The phrases the abbreviation ``word`` stands for ("PAT", "PATs", "PAT's" → ``("profit after tax", "net
    profit")``; "bps" → ``("basis points", "basis point")``), ``()`` when the vocabulary does not hold it. A word
    in capitals (or mixed case: "YoY") is looked up case-insensitively, a lower-case one only when it is in
    :data:`LOWER_CASE`."""
    bare = base(word)
    if bare.islower() and bare not in LOWER_CASE:
        return ()
    return ABBREVIATIONS.get(bare.upper(), ())
