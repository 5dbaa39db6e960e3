"""Question understanding, offline: which of the workspace's entities, which periods and which document types a
question names (:func:`understand`), matched against the documents' profiles (:class:`prism.types.DocumentProfile`).

Entity names are matched so that a common word never matches (measured on the 20 FinanceBench dev questions against
the 16 filings' profiles and on the sample set's 72 questions: no false match, tests/retrieval/test_query.py):

* **Names** of a profile: the entity ("3M Company", "Amazon.com, Inc."), its short form without legal suffixes and
  a leading "The" ("3M", "Amazon.com", "Boeing", "JPMorgan Chase"), without ".com" ("Amazon"), its aliases, and the
  short form written as one word ("Footlocker" for "Foot Locker"). A name of several words, or with a digit or
  punctuation, matches case-insensitively, but each word of three letters or more must start with a capital ("Foot
  Locker", not "foot locker") and a name of three characters or fewer only as written ("3M", not "3m users"); a
  one-word name must be capitalised in the question ("Pfizer", "PFIZER", not "pfizer"), so "target" or "apple" in
  running text never names Target or Apple. A question typed wholly in lower case (no capitalised word, not even
  its first: "netflix op income FY22") says nothing by its capitals, so there a name written whole in lower case
  names its entity ("netflix", "foot locker"), unless it is a generic word; its first word and tickers still do
  not.
* **First words**: the first word of a several-word short name stands for it ("JPMorgan", "Kraft", "Costco",
  "Meridian") when it has at least :data:`MIN_FIRST_WORD` letters, is capitalised in the question and is not a
  generic word (:data:`GENERIC_WORDS`: "American", "National", "Reserve", …).
* **Tickers** and short all-caps aliases ("MMM", "JPM", "RBI") match only as whole upper-case tokens, never one of
  :data:`ABBREVIATIONS` ("FY", "EPS", "CEO", "UPI", …).
* **Fuzzy**: a capitalised word of at least :data:`FUZZY_MIN_CHARS` letters within one edit of a one-word name
  (rapidfuzz ``Levenshtein.distance`` ≤ 1: "Walmrt", "Netflx") when no exact name matched it.
* Possessives are part of the name's span ("Pfizer's" → "Pfizer").

**Unknown entities** (:attr:`QuestionFacts.unknown_entities`): a capitalised name followed by a legal suffix
("Tesla, Inc.", "Acme Corp") or a capitalised possessive not after "the" ("Tesla's"), neither with a generic word
or a month, or a name closed by an institution's word ("Kotak Mahindra Bank", "HDFC Bank") whose own words (those
not generic, such as "Bank") no profile holds; never an ordinary sentence opener. "HDFC Bank" is unknown in a
workspace about Meridian Bank. A
name an exhibit of the workspace accounts for (:attr:`~prism.types.QuestionFacts.exhibits`) is not unknown;
whether a document without an entity might be about an unknown name is for the scope to judge
(:func:`prism.retrieval.scope.plan_scope`: only when its words are in it).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import Levenshtein

from prism.retrieval.periods import find_periods
from prism.types import DocumentProfile, EntityMatch, PeriodMention, QuestionFacts
from prism.vocabulary import legal, months

logger = logging.getLogger(__name__)

__all__ = ["ABBREVIATIONS", "GENERIC_WORDS", "find_doc_types", "understand"]

MIN_FIRST_WORD = 5
"""Fewest letters the first word of a several-word name needs to stand for the name alone."""
FUZZY_MIN_CHARS = 6
"""Fewest letters a word needs to be matched to a name with one typo."""

ABBREVIATIONS = frozenset(
    """FY FQ Q1 Q2 Q3 Q4 H1 H2 YOY QOQ TTM LTM EPS CEO CFO COO CTO CRO GAAP IFRS EBIT EBITDA USD INR EUR GBP US USA UK
    EU SEC IRS UPI NPCI NEFT RTGS IMPS KYC AML NPA GNPA NNPA CASA MDR PPE PP&E ROE ROA ROI ROCE NIM CAGR IPO M&A
    R&D SG&A COGS AI IT OK PDF MD MD&A FAQ NA TBD ATM ATMS BSBD PPI PPIS P2P P2M OTP PIN T+1 RBI's""".split()
)
"""Upper-case words that are never read as a ticker (unless a profile's entity is literally that word)."""

GENERIC_WORDS = frozenset(
    """american national international united general first global federal reserve department central state city
    new great royal standard pacific atlantic southern northern western eastern bank banks company group holdings
    board committee annexure table section schedule chapter part item note exhibit statement circular direction
    master annual quarterly report customer customers merchant merchants management chairman director officer
    government ministry treasury union capital financial services foot india indian america europe european china
    japan britain world country nation basel covid gaap ifrs""".split()
)
"""Words that never stand alone for a name (the first word of "American Water Works", "Reserve Bank of India"), nor
make an unknown entity ("the Board's", "India's", "Basel III's")."""

_MONTHS = frozenset(months.NAMES)
_OPENERS = frozenset("what which who whom whose when where why how is are was were do does did can could should "
                     "would will has have had please using based basing given if in on for of by as at to here there "
                     "it that this today tomorrow yesterday everyone someone one let year quarter period compare list "
                     "show tell give describe explain summarise summarize calculate compute find identify estimate "
                     "according "
                     "and or vs versus".split())
_LEGAL = rf"(?:{legal.NAME_END_RE}|Holdings\b\.?)"  # "Holdings" is no legal form but ends names the same way
_SUFFIX_NAME_RE = re.compile(rf"\b(?P<name>(?:[A-Z][\w&.-]*\s+){{0,3}}[A-Z][\w&.-]*),?\s+{_LEGAL}")
_POSSESSIVE_RE = re.compile(r"(?<![\w.])(?P<name>[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,2})['’]s\b")
_INSTITUTION_RE = re.compile(
    r"(?<![\w.])(?P<name>(?:[A-Z][\w&.-]*\s+){1,3}(?:Bank|Bancorp|Finance|Securities|Insurance))\b")
"""A name an institution's word closes ("Kotak Mahindra Bank", "HDFC Bank", "Bajaj Finance")."""
_LEGAL_SUFFIX_RE = re.compile(rf"(?:,?\s+{_LEGAL}|\s+&\s+Co\b\.?)$", re.IGNORECASE)
_POSSESSIVE = r"(?:['’]s)?"

_DOC_TYPES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"\b10-?k\b|\bannual\s+report\b|\bform\s+10-?k\b", ("10-K", "annual_report")),
    (r"\b10-?q\b|\bquarterly\s+report\b", ("10-Q",)),
    (r"\b8-?k\b|\bcurrent\s+report\b", ("8-K",)),
    (r"\b(?:earnings|conference|analyst)\s+call\b|\bcall\s+transcript\b|\btranscript\b", ("earnings_call",)),
    (r"\b(?:earnings|results|press|news)\s+releases?\b", ("earnings_release",)),
    (r"\bmaster\s+directions?\b", ("rbi_master_direction",)),
    (r"\bmaster\s+circulars?\b", ("rbi_master_circular",)),
    (r"\bnpci\b[^.?]{0,40}\bcirculars?\b|\bnpci/", ("npci_circular",)),
    (r"\b(?<!master\s)circulars?\b", ("rbi_circular", "npci_circular", "other")),
    (r"\bnotifications?\b", ("rbi_notification",)),
)


def _short(entity: str) -> str:
    """``entity`` without legal suffixes and a leading "The" ("The Boeing Company" → "Boeing")."""
    name = entity.strip()
    while (shorter := _LEGAL_SUFFIX_RE.sub("", name).strip(" ,")) != name and shorter:
        name = shorter
    return re.sub(r"^The\s+", "", name)


@dataclass(frozen=True)
class _Name:
    """One way a question may write an entity: the regex that finds it and how it counts."""

    text: str
    pattern: re.Pattern[str]
    entity: str
    how: str
    one_word: str | None  # a one-word name, for fuzzy matching
    cased: bool = False  # every word of the match must start with a capital ("Foot Locker", not "foot locker")
    lower: re.Pattern[str] | None = None  # the name in lower case, for a question typed in lower case


def _names(entity: str, profiles: list[DocumentProfile]) -> list[_Name]:
    """Every name of ``entity`` (see the module docstring), most specific first."""
    short = _short(entity)
    words: dict[str, str] = {}  # written form → how
    for name in (entity, short, short[:-4] if short.lower().endswith(".com") else ""):
        if name:
            words.setdefault(name, "name")
    for p in profiles:
        for alias in (*p.aliases, p.ticker or ""):
            if alias:
                words.setdefault(alias, "ticker" if alias == p.ticker else "alias")
    parts = short.split()
    if len(parts) > 1:
        joined = "".join(parts)
        if len(joined) >= FUZZY_MIN_CHARS and joined.isalnum():
            words.setdefault(joined, "alias")
        first = parts[0]
        if len(first) >= MIN_FIRST_WORD and first.isalpha() and first.lower() not in GENERIC_WORDS:
            words.setdefault(first, "alias")
    out = []
    for text, how in words.items():
        upper_token = text.isupper() and text.isalpha() and len(text) <= 5 and how != "name"
        if upper_token:
            if text in ABBREVIATIONS and text.lower() != short.lower():
                continue
            out.append(_Name(text, re.compile(rf"(?<![\w&]){re.escape(text)}{_POSSESSIVE}(?![\w&])"), entity,
                             "ticker" if how == "ticker" else "alias", None))
        elif " " in text or not text.isalpha():
            cased = all(w.isalpha() for w in text.replace("&", "").split())
            flags = re.IGNORECASE if len(text) > 3 else 0  # "3M" as written, never "3m users"
            out.append(_Name(text, re.compile(rf"(?<![\w&]){re.escape(text)}{_POSSESSIVE}(?![\w&])", flags),
                             entity, how, None, cased))
        else:  # one word: capitalised as a name ("Pfizer", "PFIZER")
            pattern = rf"(?<![\w&])(?:{re.escape(text[0].upper() + text[1:].lower())}|{re.escape(text.upper())}" \
                      rf"|{re.escape(text)}){_POSSESSIVE}(?![\w&])"
            lower = re.compile(rf"(?<![\w&]){re.escape(text.lower())}{_POSSESSIVE}(?![\w&])") \
                if how == "name" and text.lower() not in GENERIC_WORDS else None
            out.append(_Name(text, re.compile(pattern), entity, how, text if how == "name" else None, lower=lower))
    return sorted(out, key=lambda n: -len(n.text))


def _entity_names(profiles: Mapping[str, DocumentProfile]) -> tuple[dict[str, tuple[str, ...]], list[_Name]]:
    """Entity → its documents (sorted ids), and every name of every entity (compiled once per set of profiles)."""
    key = tuple(sorted((doc_id, p.entity, p.ticker, p.aliases) for doc_id, p in profiles.items() if p.entity))
    return _compiled_names(key)


@lru_cache(maxsize=16)
def _compiled_names(key: tuple[tuple[str, str, str | None, tuple[str, ...]], ...],
                    ) -> tuple[dict[str, tuple[str, ...]], list[_Name]]:
    docs: dict[str, list[str]] = {}
    profiles: dict[str, DocumentProfile] = {}
    for doc_id, entity, ticker, aliases in key:
        docs.setdefault(entity, []).append(doc_id)
        profiles[doc_id] = DocumentProfile(entity, ticker, None, None, None, None, None, aliases=aliases)
    names = [n for entity, ids in docs.items() for n in _names(entity, [profiles[i] for i in ids])]
    return {e: tuple(sorted(ids)) for e, ids in docs.items()}, names


def _capitalised(span: str) -> bool:
    """Whether every word of three or more letters in ``span`` starts with a capital ("Foot Locker", "Reserve Bank
    of India")."""
    return all(w[0].isupper() for w in re.findall(r"[^\W\d_]{3,}", span))


def typed_in_lower_case(question: str) -> bool:
    """Whether the question is typed without capitals: no word, its first included, starts with a capital followed
    by a small letter (all-capitals tokens such as "FY22", "YoY" excepted: "netflix op income FY22"). A question in
    sentence case ("What is the target capital ratio?") is not: its lower-case words are words."""
    words = re.findall(r"[^\W\d_][\w'’]*", question)
    return not any(w[0].isupper() and len(w) > 1 and w[1].islower() for w in words)


def _span_text(question: str, start: int, end: int) -> str:
    text = question[start:end]
    return re.sub(r"['’]s$", "", text)


def find_entities(question: str, profiles: Mapping[str, DocumentProfile]) -> tuple[EntityMatch, ...]:
    """The workspace entities a question names (rules in the module docstring).

    Args:
        question: the analyst's question.
        profiles: document id → its profile (documents without an entity are ignored).

    Returns:
        One match per entity (its first mention), in text order; the longest name wins where names overlap
        ("Meridian Bank" over "Meridian"); a span that names several entities ("Meridian" for Meridian Bank Ltd
        and Meridian Insurance Ltd) matches each of them. ``()`` when no profile has an entity or the question names
        none.
    """
    docs, names = _entity_names(profiles)
    taken: list[tuple[int, int]] = []
    found: list[EntityMatch] = []
    lower_case = typed_in_lower_case(question)
    for name in names:
        matches = list(name.pattern.finditer(question))
        if lower_case and name.lower is not None:
            matches += name.lower.finditer(question)
        for m in matches:
            if name.cased and not lower_case and not _capitalised(m.group()):
                continue
            if (m.start(), m.end()) not in taken and any(m.start() < e and s < m.end() for s, e in taken):
                continue  # inside a longer name; the same span as another entity's name is ambiguous: both match
            taken.append((m.start(), m.end()))
            found.append(EntityMatch(_span_text(question, m.start(), m.end()), name.entity, docs[name.entity],
                                     name.how, m.start(), m.end()))  # type: ignore[arg-type]
    one_words = [n for n in names if n.one_word and len(n.one_word) >= FUZZY_MIN_CHARS]
    for m in re.finditer(rf"(?<![\w&])[A-Z][a-z]{{{FUZZY_MIN_CHARS - 1},}}{_POSSESSIVE}(?![\w&])", question):
        if any(m.start() < e and s < m.end() for s, e in taken):
            continue
        word = _span_text(question, m.start(), m.end())
        close = [n for n in one_words if Levenshtein.distance(word.lower(), str(n.one_word).lower()) <= 1]
        if len({n.entity for n in close}) == 1 and word.lower() not in GENERIC_WORDS:
            taken.append((m.start(), m.end()))
            found.append(EntityMatch(word, close[0].entity, docs[close[0].entity], "fuzzy", m.start(), m.end()))
    first: dict[str, EntityMatch] = {}
    for match in sorted(found, key=lambda f: f.start):
        first.setdefault(match.entity, match)
    return tuple(first.values())


def find_unknown_entities(question: str, known: tuple[EntityMatch, ...],
                          profiles: Mapping[str, DocumentProfile]) -> tuple[str, ...]:
    """Company-like names in the question that no profile holds (rules in the module docstring).

    Returns:
        The names as written (without "'s" or the legal suffix), in text order, without repeats; ``()`` when
        ``profiles`` is empty. A document without an entity does not silence them: whether it might be about them is
        for the scope to judge (:func:`prism.retrieval.scope.plan_scope`).
    """
    if not profiles:
        return ()
    known_words = {w.lower() for p in profiles.values() for n in (p.entity or "", *p.aliases, p.ticker or "")
                   for w in re.findall(r"[\w&.-]+", n)}
    out: dict[str, int] = {}
    for regex in (_SUFFIX_NAME_RE, _POSSESSIVE_RE, _INSTITUTION_RE):
        for m in regex.finditer(question):
            if any(m.start("name") < k.end and k.start < m.end("name") for k in known):
                continue
            words = m.group("name").split()
            while words and (words[0].lower() in _OPENERS or words[0].lower() == "the"):
                words = words[1:]
            if regex is _POSSESSIVE_RE and re.search(r"\bthe\s+$", question[:m.start("name")], re.IGNORECASE):
                continue
            own = [w for w in words if w.lower().strip(".") not in GENERIC_WORDS | _MONTHS]  # "HDFC" of "HDFC Bank"
            if regex is not _INSTITUTION_RE and len(own) < len(words):
                continue  # a generic word in a possessive or a suffixed name ("State Northwind's", "the Board's")
            if not own or all(w.lower().strip(".") in known_words for w in own):
                continue
            if words[-1].upper() in ABBREVIATIONS or words[-1].rstrip("'s") in ABBREVIATIONS:
                continue
            out.setdefault(" ".join(words), m.start("name"))
    return tuple(sorted(out, key=out.__getitem__))


def find_doc_types(question: str) -> tuple[str, ...]:
    """Document types a question names ("10-K", "annual report", "master direction", "circular", "earnings
    call", "earnings release" or "press release", "10-Q"), each one of :data:`prism.types.DOCUMENT_TYPES`, in the
    order of the vocabulary, no repeats. "annual report" names both ``10-K`` and ``annual_report``; a bare
    "circular" names every circular type."""
    out: dict[str, None] = {}
    for pattern, kinds in _DOC_TYPES:
        if re.search(pattern, question, re.IGNORECASE):
            if kinds[0] == "rbi_circular" and ({"rbi_master_circular", "npci_circular"} & set(out)):
                continue
            out.update(dict.fromkeys(kinds))
    return tuple(out)


_NAME_WORD = re.compile(r"[a-z0-9]+")
_SUFFIX_WORDS = frozenset(w for spelling in legal.SPELLING for w in _NAME_WORD.findall(spelling)) | {"holdings", "the"}


def entity_words(name: str) -> set[str]:
    """The lower-cased words of an entity's name without its legal suffix ("CityCenter Holdings, LLC" →
    ``{"citycenter"}``)."""
    return {w for w in _NAME_WORD.findall(name.lower()) if w not in _SUFFIX_WORDS}


def names_entity(question: str, name: str) -> bool:
    """Whether ``question`` names the entity ``name``: every word of it but the legal suffix, case ignored."""
    words = entity_words(name)
    return bool(words) and words <= set(_NAME_WORD.findall(question.lower()))


def understand(question: str, profiles: Mapping[str, DocumentProfile],
               periods: tuple[PeriodMention, ...] | None = None, exhibits: Sequence[str] = ()) -> QuestionFacts:
    """Entities, unknown entities, periods, document types and exhibit entities of one question (pure; no model,
    no index).

    Args:
        question: the analyst's (standalone) question.
        profiles: document id → its profile, for the workspace the question is asked in.
        periods: the question's periods when already read, else ``None`` to read them here.
        exhibits: the names of the other entities the workspace's filings carry as exhibits.

    Returns:
        :class:`~prism.types.QuestionFacts`; an unknown name an exhibit accounts for is not unknown.
    """
    entities = find_entities(question, profiles)
    named = tuple(n for n in exhibits if names_entity(question, n))
    words = {w for n in named for w in entity_words(n)}
    unknown = tuple(u for u in find_unknown_entities(question, entities, profiles)
                    if not (words and entity_words(u) <= words))
    return QuestionFacts(
        entities=entities,
        unknown_entities=unknown,
        periods=find_periods(question) if periods is None else periods,
        doc_types=find_doc_types(question),
        exhibits=named,
    )
