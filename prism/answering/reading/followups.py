"""Follow-up questions read without an LLM: whether a question leans on the previous turn, and its standalone
rewrite (:func:`condense_heuristic`): a comparison with another period asks the previous question over both, a
sibling code ("P2M" after "P2P") is substituted, otherwise the previous question's key terms are carried in
brackets. The names a question gives of its own (:func:`own_names`) decide whether it has its own subject. Part of
the question reader: nothing after it parses the question's text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prism.answering.reading.entities import ABBREVIATIONS, GENERIC_WORDS
from prism.index.tokenizer import tokenize
from prism.retrieval.periods import find_periods
from prism.types import Turn

__all__ = ["condense_comparison", "condense_heuristic", "has_own_subject", "is_followup", "own_names"]

_FOLLOWUP_LEAD = re.compile(
    r"^\s*(what about|how about|and|also|same for|what if|then|so|why|how come|but)\b", re.IGNORECASE
)
_PRONOUNS = frozenset("it its it's they them their theirs this that these those he she his her such".split())
_QUESTION_VERBS = frozenset(
    "work works mean means apply applies say says state states explain tell describe define".split()
)
_WORD = re.compile(r"[\w₹$%][\w₹$%./&'-]*\w|[\w₹$%]")
MAX_FOLLOWUP_TERMS = 2
"""A question with at most this many content tokens (after :func:`tokenize`) is treated as a follow-up."""


_NAME = re.compile(r"(?<![\w'’])[A-Z][\w&.-]*(?:['’]s)?")
_NOT_NAMES = frozenset(w.lower() for w in ABBREVIATIONS) | GENERIC_WORDS
MIN_OWN_SUBJECT_TERMS = 1
"""Fewest content tokens besides its names a question needs to have a subject of its own ("Who is Netflix's CEO?");
one more when it opens like an ellipsis ("And Adobe's revenue?" leans on the previous question's period)."""


def own_names(question: str) -> list[str]:
    """The names a question gives of its own (a company, issuer or product), as written, possessive dropped.

    A name is a capitalised word that is not the question's first word (unless possessive: "Netflix's …") and not a
    common abbreviation or generic word (:data:`prism.answering.reading.entities.ABBREVIATIONS`, ``GENERIC_WORDS``:
    "CEO", "FY", "Bank" name nothing on their own); codes with digits ("FY2023", "P2M") are periods or products.
    """
    names = []
    for m in _NAME.finditer(question):
        word = m.group(0)
        possessive = word.endswith(("'s", "’s"))
        bare = word[:-2] if possessive else word
        first = not question[:m.start()].strip(" \"'“(")
        if (first and not possessive) or any(c.isdigit() for c in bare) or bare.lower() in _NOT_NAMES:
            continue
        names.append(bare)
    return names


def has_own_subject(question: str) -> bool:
    """True when a question names its own entity and at least :data:`MIN_OWN_SUBJECT_TERMS` content tokens besides
    it (one more after an ellipsis opening: "and", "what about" …): "What was Netflix's total debt-to-equity ratio,
    and who is its CEO?" (its "its" refers back inside the question), "Who is Netflix's CEO?"; "What about Adobe?"
    names an entity but nothing to ask of it."""
    names = own_names(question)
    if not names:
        return False
    name_tokens = {t for n in names for t in tokenize(n)}
    rest = [t for t in tokenize(question) if t not in name_tokens and t not in _QUESTION_VERBS]
    return len(rest) >= MIN_OWN_SUBJECT_TERMS + (1 if _FOLLOWUP_LEAD.match(question) else 0)


def is_followup(question: str) -> bool:
    """True for a question that leans on the previous turn: a pronoun referring back ("What is its cooling
    period?"), an ellipsis ("and in 2014?", "what about Adobe?") or no subject of its own (at most
    :data:`MAX_FOLLOWUP_TERMS` content tokens). A question that names its own entity and subject
    (:func:`has_own_subject`) is standalone whatever its pronouns and conjunctions  ("…, and who is its CEO?" after
    a circular's question must not be searched with the circular's words)."""
    if has_own_subject(question):
        return False
    if _FOLLOWUP_LEAD.match(question):
        return True
    words = {w.lower() for w in re.findall(r"[A-Za-z']+", question)}
    if words & _PRONOUNS:
        return True
    return len(tokenize(question)) <= MAX_FOLLOWUP_TERMS


def _siblings(a: str, b: str) -> bool:
    """Two codes that differ in one character and contain a digit or are acronyms (P2P/P2M, FY2024/FY2023)."""
    if len(a) != len(b) or len(a) < 2 or a.lower() == b.lower():
        return False
    code = (any(c.isdigit() for c in a) and any(c.isdigit() for c in b)) or (a.isupper() and b.isupper())
    return code and sum(x != y for x, y in zip(a.lower(), b.lower(), strict=True)) == 1


_COMPARE = re.compile(r"\b(?:compare[sd]?|comparison|versus|vs\.?|relative\s+to|against)\b", re.IGNORECASE)
_PRIOR = re.compile(r"\b(?:prior|previous|preceding|last|earlier)\s+(?:fiscal\s+)?year\b|\byear\s+(?:before|earlier)\b"
                    r"|\ba\s+year\s+(?:ago|earlier)\b", re.IGNORECASE)


def _year_before(text: str, year: int) -> str:
    """A period as written (``"2015"``, ``"FY2015"``, ``"FY24"``, ``"Q3 FY24"``) one fiscal year earlier."""
    if str(year) in text:
        return text.replace(str(year), str(year - 1), 1)
    short = f"{year % 100:02d}"
    if short not in text:
        return str(year - 1)
    return re.sub(rf"{short}(?!.*{short})", f"{(year - 1) % 100:02d}", text, count=1)


def condense_comparison(question: str, previous: str) -> str | None:
    """A comparison follow-up rewritten as the previous question over both periods, or ``None``.

    "And how did that compare with the prior year?" after "What was Netflix's net income in 2015?" →
    "What was Netflix's net income in 2015 and 2014?": a follow-up naming the prior / previous / last year (or "a
    year earlier") adds, after the previous question's last period, the same period one year earlier; a follow-up
    with "compare", "versus", "vs" or "relative to" that names periods of its own ("How does that compare with
    2013?") adds those. The entity and line item come from the previous question unchanged.
    """
    mentions = find_periods(previous)
    if not mentions:
        return None
    last = max(mentions, key=lambda m: m.end)
    added: list[str] = []
    if _PRIOR.search(question):
        added.append(_year_before(previous[last.start:last.end], last.year))
    elif _COMPARE.search(question):
        known = {(m.kind, m.part, m.year) for m in mentions}
        added.extend(m.text for m in find_periods(question) if (m.kind, m.part, m.year) not in known)
    if not added:
        return None
    return f"{previous[:last.end]} and {' and '.join(added)}{previous[last.end:]}"


def condense_heuristic(question: str, turns: Sequence[Turn], max_terms: int = 6) -> str:
    """Standalone query without an LLM.

    A follow-up (:func:`is_followup`) after a previous turn is rewritten from the previous standalone question:

    * a comparison with another period ("And how did that compare with the prior year?") asks the previous
      question over both periods (:func:`condense_comparison`);
    * if a term of the follow-up is a *sibling* of a term of the previous question (codes one character apart:
      ``P2M`` vs ``P2P``, ``FY2023`` vs ``FY2024``), the previous question is repeated with the term substituted:
      "What about P2M?" after "What is the P2P limit for UPI?" → "What is the P2M limit for UPI?";
    * otherwise the previous question's key terms (words with index tokens not already in the follow-up, in order,
      at most ``max_terms``) are appended in parentheses: "What is its cooling period (UPI Lite)?".

    Anything else is returned unchanged (stripped).
    """
    question = question.strip()
    if not turns or not question or not is_followup(question):
        return question
    previous = turns[-1].standalone.strip()
    compared = condense_comparison(question, previous)
    if compared is not None:
        return compared
    follow_words = _WORD.findall(question)
    prev_words = _WORD.findall(previous)
    for fw in follow_words:
        for pw in prev_words:
            if _siblings(fw, pw):
                return re.sub(rf"(?<!\w){re.escape(pw)}(?!\w)", fw, previous, count=1)
    have = set(tokenize(question))
    carried: list[str] = []
    seen: set[str] = set()
    for w in prev_words:
        toks = tokenize(w)
        if w.lower() in _QUESTION_VERBS or not toks or all(t in have or t in seen for t in toks):
            continue
        seen.update(toks)
        carried.append(w)
        if len(carried) >= max_terms:
            break
    if not carried:
        return question
    core = question.rstrip(" ?.!")
    return f"{core} ({' '.join(carried)})?"
