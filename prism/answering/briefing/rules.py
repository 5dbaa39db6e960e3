"""A circular's operative rules: the sentences that tell someone what they must do, with a figure or a date.

A sentence is scored as a *kind*, not matched against examples. It is a rule point when it has

* a **deontic verb** (:data:`DEONTIC`): "shall", "must", "should", "are required to", "are advised to", "shall not",
  "is prohibited", "will be paid", "will attract", "entitled to" …; and
* a **figure or a date** (:func:`figure_spans`): an amount ("Rs 5,000", "₹10 lakh", "fifteen crore rupees"), a
  rate ("8 per cent per annum", "seventy five per cent", "50 basis points"), a period ("within 30 days", "thirty
  days"), or a date ("October 1, 2008", "31 March 2026"); a figure written in words counts as one written in digits;

and is not **boilerplate** (:data:`BOILERPLATE`): covering-letter lines ("a copy is enclosed", "please acknowledge
receipt", "Yours faithfully", "may be downloaded from our website"), addresses and telephone numbers, and the lists
of circulars a master circular consolidates or repeals.

Its score (higher first; ties: earlier in the document) adds, to 1 for the deontic verb, the strongest figure (an
amount, rate or period 2, a date alone 1), 1 for a **subject** who must act (:data:`SUBJECT`: banks, NBFCs,
branches, authorised persons, regulated entities …), 1 for a **deadline** ("not later than", "within", "on or
before") and 1 for a **penalty** (penalty, penal interest, compensation, fine). The text given to the rule finder is
the briefing's, in which sentences addressed to an AI assistant are already blanked
(:func:`prism.index.injection.mask_injections`), so none of them becomes a rule point.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from prism.answering.briefing.circulars import DATE_RE
from prism.answering.briefing.facts import NOT_CIRCULAR_TYPES, DocumentText, Fact
from prism.index.sentences import split_sentences
from prism.types import BriefingBullet, DocumentProfile
from prism.vocabulary import months, number_words, units

MAX_RULES = 3
"""Rule points a circular's briefing leads with."""
MAX_RULE_CHARS = 300
"""A longer rule sentence is cut at a clause boundary after its figure and ends with "…"."""

DEONTIC = re.compile(
    r"\b(?:shall|must|should|ought\s+to)\b"
    r"|\b(?:is|are|will\s+be|shall\s+be)\s+(?:required|expected|obliged|directed|advised|instructed|mandated|"
    r"prohibited|not\s+permitted|not\s+allowed|permitted|allowed|liable|entitled|eligible)\b"
    r"|\b(?:is|are)\s+(?:mandatory|compulsory)\b|\b(?:is|are)\s+(?:hereby\s+)?(?:requested|advised)\s+to\b"
    r"|\bwill\s+(?:have\s+to|attract|be\s+(?:paid|charged|levied|imposed|credited|payable|treated|reckoned|"
    r"classified|deducted|refunded))\b"
    r"|\b(?:may|can)\s+not\b|\bcannot\b|\bnot\s+later\s+than\b|\bno\s+later\s+than\b",
    re.IGNORECASE)
"""A verb that obliges, forbids or entitles (RFC 2119's key words with the forms Indian regulators use)."""

SUBJECT = re.compile(
    r"\b(?:(?:agency|pension\s+paying|commercial|scheduled|co-?operative|small\s+finance|payments?|foreign|"
    r"member|sponsor|lending|the)\s+)?(?:banks?|NBFCs?|UCBs?|branch(?:es)?|lenders?|regulated\s+entit(?:y|ies)|"
    r"REs?|authori[sz]ed\s+(?:persons?|dealers?)|AD\s+(?:Category|banks?)|entit(?:y|ies)|institutions?|"
    r"compan(?:y|ies)|borrowers?|applicants?|pensioners?|customers?|issuers?|operators?|PSPs?|participants?|"
    r"intermediar(?:y|ies)|importers?|exporters?|remitters?|licensees?)\b",
    re.IGNORECASE)
"""Who a rule binds or protects."""

DEADLINE = re.compile(r"\b(?:not|no)\s+later\s+than\b|\bwithin\b|\bon\s+or\s+before\b|\bby\s+the\s+end\s+of\b"
                      r"|\bbefore\s+the\s+(?:due|end)\b|\bdue\s+date\b", re.IGNORECASE)
PENALTY = re.compile(r"\bpenal(?:ty|ties|\s+interest|\s+charges?)\b|\bcompensat(?:e|ion)\b|\bfines?\b"
                     r"|\bmonetary\s+penalt", re.IGNORECASE)

BOILERPLATE = re.compile(
    r"\bcopy\b[^.]{0,80}\benclosed\b|\benclosed\s+(?:herewith|for\s+your)\b|\backnowledge\s+(?:the\s+)?receipt\b"
    r"|\byours\s+faithfully\b|\bdear\s+sir\b|\bmadam\b|\bplease\s+refer\s+to\b|\bdownloaded\s+from\b"
    r"|\b(?:website|e-?mail|telephone|fax\s+no)\b|\bwww\.|https?://"
    r"|\bconsolidates?\b[^.]{0,120}\b(?:instructions|circulars)\b|\b(?:list|number)\s+of\s+(?:the\s+)?circulars\b"
    r"|\bcirculars?\s+(?:listed|consolidated|repealed|superseded)\b|\bhas\s+been\s+(?:revised|updated)\b"
    r"|\bin\s+exercise\s+of\s+the\s+powers\s+conferred\b|\bstand\s+repealed\b",
    re.IGNORECASE)
"""A covering letter's, a preamble's or an address's sentence: never a rule point."""

_NUMBER_WORD = rf"(?:{number_words.CARDINAL_RE}|half|a\s+hundred)"
"""A number written in words (:data:`prism.vocabulary.number_words.CARDINAL_RE`; its scale words, "thousand",
"lakh", "crore", come from :mod:`prism.vocabulary.units`)."""
_SCALE = units.WORD_RE
_UNIT = (rf"(?:per\s*cent(?:age\s+points?)?|percent|%|basis\s+points?|bps|{_SCALE}|rupees|"
         r"(?:working\s+|calendar\s+|business\s+)?days?|weeks?|months?|years?|hours?|times)")
_NUMBER_WORDS = rf"{_NUMBER_WORD}(?:[\s-]+(?:and\s+)?(?:{_NUMBER_WORD}|{_SCALE}))*"
_AMOUNT = re.compile(
    rf"(?:₹|\bRs\.?|\bINR|\bUSD|\$)\s*\d[\d,]*(?:\.\d+)?(?:\s*(?:{_SCALE}))?"
    rf"|\b\d[\d,]*(?:\.\d+)?\s*{_UNIT}(?![a-z])"
    rf"|\b(?:₹|Rs\.?\s*)?{_NUMBER_WORDS}\s+{_UNIT}(?![a-z])",
    re.IGNORECASE)
_MONTH = rf"(?:{months.ANY_RE})\.?"
_DATE = DATE_RE
_REFERENCE_DATE = re.compile(r"\b(?:dated|issued\s+on|of|till|up\s*to|since)\s*$", re.IGNORECASE)
"""What precedes a date that names a document or a past span, not a deadline."""
_ENUMERATOR = re.compile(r"^\s*(?:\(?[ivxlc]{1,5}\)|\(?[a-z]\)|\(?\d{1,3}(?:\.\d{1,3})*\)?\.?)\s+", re.IGNORECASE)


def figure_spans(sentence: str) -> list[tuple[int, int, int]]:
    """``(start, end, strength)`` of each figure in ``sentence``, in order: an amount, rate or period (digits or
    words: "8 per cent", "seventy five per cent", "fifteen crore rupees", "30 days") is strength 2, a date 1; the
    date of a document referred to ("circular … dated April 26, 2018", "issued on …") is no figure."""
    spans = [(m.start(), m.end(), 2) for m in _AMOUNT.finditer(sentence)]
    spans += [(m.start(), m.end(), 1) for m in _DATE.finditer(sentence)
              if not any(s <= m.start() < e for s, e, _k in spans) and not _REFERENCE_DATE.search(sentence[:m.start()])]
    return sorted(spans)


@dataclass(frozen=True)
class Rule:
    """One operative rule: ``text`` (the sentence, enumerator removed, cut after its figure when long), ``offset``
    (where the sentence starts in the document's text), ``score`` (see the module docstring) and ``figure`` (its
    strongest figure as written, e.g. ``"8 per cent"``)."""

    text: str
    offset: int
    score: int
    figure: str


def rule_score(sentence: str) -> int:
    """The sentence's rule score (module docstring), 0 when it is no rule: no deontic verb, no figure or date, or
    boilerplate."""
    if not DEONTIC.search(sentence) or BOILERPLATE.search(sentence):
        return 0
    figures = figure_spans(_ENUMERATOR.sub("", sentence))
    if not figures:
        return 0
    return (1 + max(k for _s, _e, k in figures) + int(bool(SUBJECT.search(sentence)))
            + int(bool(DEADLINE.search(sentence))) + int(bool(PENALTY.search(sentence))))


def _shortened(sentence: str, max_chars: int = MAX_RULE_CHARS) -> str:
    """``sentence`` whole when at most ``max_chars``; else cut, ending in " …", at the first clause boundary (", ",
    "; ", " and ", " which " …) at least 40 characters after the end of its first strong figure (or of its first
    figure) and before ``max_chars``, else at the last such boundary after the figure, else at the last space
    before ``max_chars``."""
    if len(sentence) <= max_chars:
        return sentence
    figures = figure_spans(sentence)
    strong = [e for _s, e, k in figures if k == 2] or [e for _s, e, _k in figures] or [0]
    limit = max_chars - 2
    cuts = [m.start() for m in re.finditer(r",\s|;\s|\s(?:and|which|so\s+that|in\s+respect|without)\s", sentence)
            if strong[0] <= m.start() <= limit]
    end = next((c for c in cuts if c >= strong[0] + 40), cuts[-1] if cuts else sentence.rfind(" ", 0, limit))
    return sentence[: max(end, strong[0])].rstrip(" ,;") + " …"


_JOINS = re.compile(r"(?:[,(/-]|\b(?:and|or|the|of|to|for|in|at|by|with|from|on|a|an|as|be|is|are|shall|should|"
                    r"must|than|per|that|which|under|into))$")
"""How a line ends that a long sentence continues after (:func:`prism.index.sentences.split_sentences` cuts a
sentence of more than 400 characters at its line breaks)."""


def rule_sentences(text: str, max_chars: int = 1200) -> list[str]:
    """The sentences of ``text`` (:func:`prism.index.sentences.split_sentences`) with a long sentence that the
    splitter cut at its line breaks joined again: a piece is joined to the one before when it opens in lower case
    or the one before ends in a comma, a slash or a function word ("of", "the", "and" …), up to ``max_chars``."""
    out: list[str] = []
    for piece in split_sentences(text):
        if out and len(out[-1]) + len(piece) < max_chars and not re.search(r"[.!?:;][\"'”’)]*$", out[-1]) and (
                piece[:1].islower() or _JOINS.search(out[-1])):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


def locate(text: str, sentence: str, cursor: int) -> int:
    """Where ``sentence`` (its inner white space joined, as the sentence splitter joins a sentence's lines) starts
    in ``text`` at ``cursor`` or later, matching its first six words across any white space; -1 when it is not
    found."""
    pattern = r"\s+".join(re.escape(w) for w in sentence.split()[:6])
    m = re.compile(pattern).search(text, cursor) if pattern else None
    return m.start() if m else -1


def find_rules(text: str, limit: int = MAX_RULES) -> list[Rule]:
    """The ``limit`` best rule sentences of ``text`` (:func:`rule_sentences`) by :func:`rule_score` (ties: earlier
    first), each 40 to 1,200 characters and 6 words or more; a sentence repeated word for word is taken once."""
    found: list[Rule] = []
    seen: set[str] = set()
    cursor = 0
    for sentence in rule_sentences(text):
        at = locate(text, sentence, cursor)
        cursor = at if at >= 0 else cursor
        flat = " ".join(sentence.split())
        if not 40 <= len(flat) <= 1200 or len(flat.split()) < 6 or flat.lower() in seen:
            continue
        score = rule_score(flat)
        if score:
            seen.add(flat.lower())
            body = _ENUMERATOR.sub("", flat)
            body = body[:1].upper() + body[1:]
            best = max(figure_spans(body), key=lambda f: (f[2], -f[0]))
            found.append(Rule(_shortened(body), cursor, score, body[best[0]:best[1]].strip()))
    return sorted(found, key=lambda r: (-r.score, r.offset))[:limit]


def is_boilerplate(sentence: str) -> bool:
    """True for a covering letter's, a preamble's or an address's sentence (:data:`BOILERPLATE`)."""
    return bool(BOILERPLATE.search(sentence))


def is_circular(profile: DocumentProfile | None) -> bool:
    """True for a document read as a circular (every type but a filing's or a call's, and a document without a
    profile), as :func:`prism.answering.briefing.circulars.circular_facts` reads them."""
    return profile is None or profile.type not in NOT_CIRCULAR_TYPES


def rule_facts(doc: DocumentText, profile: DocumentProfile | None, limit: int = MAX_RULES) -> list[Fact]:
    """The circular's best ``limit`` rules (:func:`find_rules`) as facts of kind ``rule``, best first, each cited at
    the page where its sentence starts; none for filings and calls (:func:`is_circular`)."""
    if not is_circular(profile):
        return []
    rules = find_rules(doc.text, limit)
    return [Fact(BriefingBullet(rule.text, (doc.citation(rule.offset),), "rule")) for rule in rules]
