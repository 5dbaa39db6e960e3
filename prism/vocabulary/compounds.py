"""Closed compounds and brand names of Indian payments and banking that a general English word list lacks: words the
OCR repair (:mod:`prism.ingestion.parsing.pdf.scanned`) must never split as if they were words glued together
("onboarding" is no "on boarding", "RuPay" no "Ru Pay").

Sources: the terms of NPCI's UPI / RuPay / NACH operating circulars and RBI's payment-system directions (the circulars
in ``../shared/data``), and the names of payment apps and schemes they cite. Lower case; a word's plural and ``-s`` /
``-ing`` forms are matched by :func:`is_compound`.
"""

from __future__ import annotations

WORDS: frozenset[str] = frozenset({
    "onboarding", "offboarding", "chargeback", "cashback", "tokenisation", "tokenization", "tokenised", "tokenized",
    "detokenisation", "deeplink", "deeplinking", "fintech", "autopay", "netbanking", "ecommerce", "ekyc",
    "cardholder", "cardless", "contactless", "interoperable", "interoperability", "escrow", "remitter", "payee",
    "payer", "acquirer", "acquirers", "issuer", "aggregator", "aggregators", "microfinance", "nonbanking", "passbook",
    "timeline", "timelines", "whitelisting", "blacklisting", "geotagging", "geofencing", "biometric", "biometrics",
    "aadhaar", "rupay", "bhim", "phonepe", "paytm", "googlepay", "whatsapp", "paypal", "mastercard", "amazonpay",
    "bharatpe", "mobikwik", "freecharge", "youtube", "linkedin", "facebook", "sandbox", "dashboard", "helpdesk",
    "hotlisting", "reconciliation", "precheck", "prepaid", "postpaid", "standalone", "subsidiaries", "webhook",
})
"""Closed compounds and names, lower case."""


def is_compound(word: str) -> bool:
    """True when ``word`` (any case) is one of :data:`WORDS`, or its plural or ``-ing`` / ``-ed`` form."""
    w = word.lower()
    return any(stem in WORDS for stem in (w, w.removesuffix("s"), w.removesuffix("es"), w.removesuffix("ing"),
                                          w.removesuffix("ed")))
