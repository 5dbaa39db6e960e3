"""Legal suffixes of company names ("Inc.", "Ltd", "LLC", "N.V." …): one list, and the views each purpose needs.

:data:`SUFFIXES` holds every suffix once, with its written forms. The purposes differ, so each has a view derived
from that one list, and each view says why it leaves some out:

* :data:`NAME_END_RE` — a suffix that ends a company name: stripped for a short name ("Netflix, Inc." → "Netflix")
  and read after capitalised words for a company a question names ("Acme Corp"). Every suffix.
* :data:`ENTITY_RE` — a suffix that makes a run of capitalised words a document's entity ("Meridian Bank Ltd").
  Leaves out "SE" (two capitals, common in headings), "LLP" (the auditors' "Chartered Accountants LLP" signs every
  Indian annual report; the auditor is not its entity), "Pvt" (always followed by Ltd / Limited, which are found),
  "GmbH" and "B.V." (the subsidiaries a filing lists abroad).
* :data:`LISTING_RE` — a suffix that marks a line as a listed company ("Leasing Company II, LLC Nevada") rather
  than a section heading: initialisms only, never a word that a heading may hold ("Company", "Limited", "Co").
* :data:`ABBREVIATIONS` — suffixes written with a full stop ("Ltd.", "Inc."): the sentence splitter does not end a
  sentence there.
* :data:`NOT_TICKERS` — suffixes a 10-K cover's 12(b) table prints before an exchange name that are no ticker
  symbol. Leaves out "SE" and "AG": real NYSE tickers (Sea Limited, First Majestic Silver).

Sources: the legal forms of the US (Inc., Corp., Co., LLC, L.P., LLP), the UK and India (Ltd, Limited, plc, Pvt;
Companies Act 2013 s. 2(68), 2(71)), the Netherlands (N.V., B.V.), Germany (AG, GmbH), France/Spain (S.A.) and the
EU (SE, Council Regulation (EC) No 2157/2001).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LegalSuffix:
    """One legal suffix.

    Attributes:
        spelling: its canonical spelling, without a final stop ("Inc", "LLC", "N.V", "plc").
        pattern: a regex of its written forms, without a final stop (``r"plc|PLC"``, ``r"LLC|L\\.L\\.C"``).
        entity: it makes capitalised words a document's entity (:data:`ENTITY_RE`).
        listing: it marks a listed company's line (:data:`LISTING_RE`).
        stop: it is an abbreviation written with a full stop ("Ltd.") (:data:`ABBREVIATIONS`).
    """

    spelling: str
    pattern: str
    entity: bool = True
    listing: bool = False
    stop: bool = False


SUFFIXES: tuple[LegalSuffix, ...] = (
    LegalSuffix("Inc", "Inc", listing=True, stop=True),
    LegalSuffix("Incorporated", "Incorporated"),
    LegalSuffix("Corporation", "Corporation"),
    LegalSuffix("Corp", "Corp", stop=True),
    LegalSuffix("Company", "Company"),
    LegalSuffix("Co", "Co", stop=True),
    LegalSuffix("Ltd", "Ltd", listing=True, stop=True),
    LegalSuffix("Limited", "Limited"),
    LegalSuffix("Pvt", "Pvt", entity=False, stop=True),
    LegalSuffix("plc", "plc|PLC"),
    LegalSuffix("LLC", "LLC", listing=True),
    LegalSuffix("L.L.C", r"L\.L\.C", entity=False, listing=True),
    LegalSuffix("LLP", "LLP", entity=False, listing=True),
    LegalSuffix("L.P", r"L\.P", listing=True),
    LegalSuffix("N.V", r"N\.V"),
    LegalSuffix("AG", "AG"),
    LegalSuffix("S.A", r"S\.A", listing=True),
    LegalSuffix("SE", "SE", entity=False),
    LegalSuffix("GmbH", "GmbH", entity=False, listing=True),
    LegalSuffix("B.V", r"B\.V", entity=False, listing=True),
)
"""Every legal suffix, once."""

NAME_END_RE = r"(?:" + "|".join(s.pattern for s in SUFFIXES) + r")\b\.?"
"""Any suffix, then a word boundary and an optional stop ("Inc.", "Ltd", "N.V."); case as written."""

ENTITY_RE = r"(?:" + "|".join(s.pattern for s in SUFFIXES if s.entity) + r")\b\.?"
"""A suffix that makes a document's entity (see the module docstring), then an optional stop."""

LISTING_RE = r"\b(?:" + "|".join(s.pattern + (r"\." if "." in s.spelling else "")
                            for s in SUFFIXES if s.listing) + r")(?:\W|$)"
"""A suffix that marks a listed company's line (see the module docstring), as a word; a dotted initialism with its
final stop ("L.P.", "S.A.")."""

ABBREVIATIONS: frozenset[str] = frozenset(s.spelling.lower() for s in SUFFIXES if s.stop)
"""Suffixes written with a full stop, lower case without it: ``{"inc", "corp", "co", "ltd", "pvt"}``."""

SPELLING: dict[str, str] = {s.spelling.lower(): s.spelling for s in SUFFIXES}
"""A suffix in lower case, without its final stop (``"l.p"``, ``"llc"``) → its canonical spelling."""

NOT_TICKERS: frozenset[str] = frozenset(s.spelling.replace(".", "").upper() for s in SUFFIXES
                                        if s.spelling in ("Inc", "Co", "LLC", "L.P"))
"""Suffixes in capitals that are no ticker symbol: ``{"INC", "CO", "LLC", "LP"}`` (see the module docstring)."""
