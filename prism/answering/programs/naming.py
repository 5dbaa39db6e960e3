"""How a question names a table row: its label's words as written, through an abbreviation ("NII" for "Net
interest income", "opex" for "operating expenses") or a word cut short ("pers." for "Personal loans"); and the share
of a label the question names. :mod:`prism.answering.programs.binding` picks rows by it, the ranker's features
(:mod:`prism.answering.programs.features`) weigh it."""

from __future__ import annotations

import re
from functools import lru_cache

from prism.answering import acronyms
from prism.answering.programs.evidence import Row
from prism.answering.reading.words import phrase_in, words_of
from prism.index.tokenizer import tokenize
from prism.types.reading import Reading
from prism.vocabulary import abbreviations

__all__ = ["equivalent_tokens", "label_share", "named_tokens", "question_words", "shortened_tokens"]


@lru_cache(maxsize=2048)
def _equivalents(label: str, question_words: tuple[str, ...], abbreviated: tuple[str, ...]) -> frozenset[str]:
    """The index tokens of a row ``label`` the question states in another form: the label's words an abbreviation
    of the question stands for ("PAT" → "Profit after tax"; ``abbreviated``: the reader's acronyms of the question),
    and the label's abbreviation when the question writes its words ("net interest income" → "NII"). Empty when
    none (:mod:`prism.answering.acronyms`)."""
    found: set[str] = set()
    words = re.findall(r"[A-Za-z]+(?:-[A-Za-z]+)*|&", label)
    for name in abbreviated:
        found |= {t for run in acronyms.spelled_phrases(name, words) for t in tokenize(run)}
    for name in acronyms.abbreviations_in(label):
        if acronyms.spelled_phrases(name, question_words):
            found |= set(tokenize(name))
    return frozenset(found)


@lru_cache(maxsize=256)
def question_words(text: str) -> tuple[str, ...]:
    """:func:`~prism.answering.reading.words.words_of` of a question, kept: every row and candidate of a question
    is matched against the same words (thousands of times per question)."""
    return tuple(words_of(text))


def equivalent_tokens(label: str, reading: Reading) -> frozenset[str]:
    """The index tokens of ``label`` the question states in another form, through an abbreviation either way
    (:func:`_equivalents`: "Gross NPA %" for "gross non-performing assets", "Profit after tax" for "PAT") or a word
    cut short with a full stop (:func:`_truncations`: "gross adv." for "Gross advances")."""
    if not label:
        return frozenset()
    abbreviated = tuple(abbreviations.base(w) for w, kind in reading.salient if kind == "acronym")
    return _equivalents(label, question_words(reading.text), abbreviated) | _truncations(label, reading.shortened)


def _shortens(cut: str, word: str) -> bool:
    """Whether ``cut`` is ``word`` written short: its first two letters, then the rest of its letters in order
    ("adv" of "advances", "govt" of "government", "mgmt" of "management")."""
    if len(word) <= len(cut) or word[:2] != cut[:2]:
        return False
    rest = iter(word[2:])
    return all(ch in rest for ch in cut[2:])


@lru_cache(maxsize=2048)
def _truncations(label: str, truncated: tuple[str, ...]) -> frozenset[str]:
    """The index tokens of the words of ``label`` that a word the question wrote short stands for ("adv." →
    "advances", "govt." → "government")."""
    return frozenset(t for word in re.findall(r"[a-z]+", label.lower()) for cut in truncated
                     if _shortens(cut, word) for t in tokenize(word))


@lru_cache(maxsize=2048)
def _cuts_of(label: str, truncated: tuple[str, ...]) -> frozenset[str]:
    """The index tokens of the words the question wrote short (``truncated``) that stand for a word of ``label``
    ("pers" for "Personal loans"): the question's own terms :func:`_truncations` matched."""
    words = re.findall(r"[a-z]+", label.lower())
    return frozenset(t for cut in truncated if any(_shortens(cut, w) for w in words) for t in tokenize(cut))


def shortened_tokens(label: str, reading: Reading) -> frozenset[str]:
    """The question's index tokens of words it wrote short that name a word of ``label`` ("pers." → ``{"per"}``
    for "Personal loans"): the tokens the label answers though it writes them in full."""
    return _cuts_of(label, reading.shortened) if reading.shortened else frozenset()


def named_tokens(row: Row, reading: Reading) -> frozenset[str]:
    """The row label's index tokens the question names, as written or through an abbreviation
    (:func:`equivalent_tokens`)."""
    return row.tokens & (reading.tokens | equivalent_tokens(row.label, reading))


def label_share(row: Row, reading: Reading) -> float:
    """The share of a row label's index tokens the question names (:func:`named_tokens`), in [0, 1]; a label of
    common words only ("Other") 1 when the question writes it whole, else 0."""
    if not row.tokens:
        return 1.0 if row.label and phrase_in(row.label.lower(), question_words(reading.text)) else 0.0
    return len(named_tokens(row, reading)) / len(row.tokens)
