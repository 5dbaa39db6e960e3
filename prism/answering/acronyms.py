"""Abbreviations and the words they stand for, in general: "AMC" is found where a passage says "asset management
company", "net interest income" where a passage says "NII".

An abbreviation in capitals is *spelled* by consecutive words of a text whose initials give its letters in order
(:func:`spells`): the parts of a hyphenated word count one by one ("non-banking financial company" → N-B-F-C) or,
after the first, not at all ("urban co-operative bank" → UCB); the function words of
:data:`prism.vocabulary.abbreviations.SKIPPABLE` may be left out inside it ("Reserve Bank of India" → RBI); stop
words other than :data:`~prism.vocabulary.abbreviations.COUNTABLE` ("are", "which") never give a letter, so "are
required to comply" does not spell ARC. Abbreviations whose letters do not spell the words ("PAT" → "net profit",
"bps" → "basis points") come from :data:`prism.vocabulary.abbreviations.FINANCE`. A passage that defines an
abbreviation ("asset management company (AMC)", "… (the 'AMC')") holds both forms, so both directions find it.

Abbreviations of two letters are read through the vocabulary only: two consecutive initials match by chance too
often ("must deposit" is no MD).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from prism.index.tokenizer import STOP_WORDS
from prism.vocabulary import abbreviations

_PART = re.compile(r"[A-Za-z]+|&")
_ACRONYM = re.compile(r"(?<![\w-])([A-Z](?:[A-Z]+|[a-z][A-Z]))(?:s|'s|’s)?(?![\w-])")
_MIN_SPELLED = 3


def acronym(word: str) -> str | None:
    """The abbreviation ``word`` writes, in capitals without plural or possessive ("AMCs", "AMC's" → "AMC"; "YoY"
    → "YOY"), or ``None`` for a word that is not one (lower case, one letter)."""
    bare = abbreviations.base(word)
    if re.fullmatch(r"[A-Z]{2,}", bare) or abbreviations.expansions(bare):
        return bare.upper()
    return None


def _parts(text: str) -> list[tuple[str, bool]]:
    """The words of ``text`` in lower case, hyphenated words split into parts: ``(part, follows a hyphen)``."""
    out: list[tuple[str, bool]] = []
    for m in _PART.finditer(text):
        out.append((m.group(0).lower(), m.start() > 0 and text[m.start() - 1] == "-"))
    return out


def _spelled_from(letters: str, parts: Sequence[tuple[str, bool]], i: int, j: int, skips: int = 0) -> int | None:
    """The end (exclusive) of the parts from ``j`` on that spell ``letters[i:]`` (``skips`` parts left out so far,
    at most as many as letters), or ``None``."""
    if i == len(letters):
        return j
    if j >= len(parts) or skips > len(letters):
        return None
    word, hyphenated = parts[j]
    counts = word[0] == letters[i] and (word not in STOP_WORDS or word in abbreviations.COUNTABLE)
    if counts and (end := _spelled_from(letters, parts, i + 1, j + 1, skips)) is not None:
        return end
    if i > 0 and (hyphenated or word in abbreviations.SKIPPABLE):
        return _spelled_from(letters, parts, i, j + 1, skips + 1)
    return None


def spells(abbreviation: str, text: str) -> bool:
    """True when consecutive words of ``text`` spell ``abbreviation`` by their initials (module docstring): "AMC"
    in "An asset management company shall …", "RBI" in "the Reserve Bank of India". Abbreviations shorter than
    three letters never are (read them through :func:`expands_in`)."""
    letters = abbreviation.lower()
    if len(letters) < _MIN_SPELLED or not letters.isalpha():
        return False
    parts = _parts(text)
    return any(part[0] == letters[0] and _spelled_from(letters, parts, 0, j) is not None
               for j, (part, _) in enumerate(parts))


@lru_cache(maxsize=512)
def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    """A phrase as a pattern: words apart by spaces, hyphens or a comma, the last in singular or plural."""
    words = re.findall(r"[a-z]+|&", phrase.lower())
    body = r"[\s,-]+".join(map(re.escape, words))
    return re.compile(rf"(?<![a-z]){body}(?:s|es)?(?![a-z])", re.IGNORECASE)


def expands_in(abbreviation: str, text: str) -> bool:
    """True when ``text`` writes one of the phrases the vocabulary gives for ``abbreviation`` ("PAT": "net
    profit", "profit after tax"; :func:`prism.vocabulary.abbreviations.expansions`)."""
    return any(_phrase_pattern(p).search(text) for p in abbreviations.expansions(abbreviation))


def mentioned(word: str, text: str) -> bool:
    """True when ``text`` states the abbreviation ``word`` spelled out: a phrase of the vocabulary or words whose
    initials spell it (:func:`spells`). Whether ``text`` has the abbreviation itself is the caller's token test."""
    name = acronym(word)
    return name is not None and (expands_in(name, text) or spells(name, text))


def abbreviations_in(text: str) -> list[str]:
    """The abbreviations ``text`` writes in capitals, in text order without repeats ("The NII of the AMCs" →
    ``["NII", "AMC"]``; "YoY" → ``["YOY"]``)."""
    found = (m.group(1).upper() for m in _ACRONYM.finditer(text))
    return list(dict.fromkeys(found))


def spelled_phrases(abbreviation: str, words: Sequence[str]) -> list[str]:
    """The runs of ``words`` (a question's, in order) that stand for ``abbreviation``: a vocabulary phrase among
    them, or consecutive words whose initials spell it; each run as its words joined by spaces. ``[]`` when none
    does ("NII", ``["net", "interest", "income"]`` → ``["net interest income"]``)."""
    text = " ".join(words)
    runs = [m.group(0) for p in abbreviations.expansions(abbreviation) for m in _phrase_pattern(p).finditer(text)]
    letters = abbreviation.lower()
    if len(letters) >= _MIN_SPELLED and letters.isalpha():
        parts = _parts(text)
        for j, (part, _) in enumerate(parts):
            if part[0] == letters[0] and (end := _spelled_from(letters, parts, 0, j)) is not None:
                runs.append(" ".join(p for p, _ in parts[j:end]))
    return list(dict.fromkeys(runs))


def initials_of(words: Iterable[str]) -> str:
    """The initials of the parts of ``words`` that give letters (stop words but :data:`COUNTABLE` dropped), upper
    case: "loan-to-value" → "LTV", "asset management company" → "AMC"."""
    parts = _parts(" ".join(words))
    return "".join(p[0] for p, _ in parts if p not in STOP_WORDS or p in abbreviations.COUNTABLE).upper()
