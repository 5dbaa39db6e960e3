"""The segments a question asks about: "the gross NPA ratio of the home loan segment", "the retail division's
revenue". Part of the question reader, read from its mentions' index tokens (no pattern over
the text): a figure, or a quoted sentence, answers such a question only when it is of that segment
(:meth:`prism.answering.programs.answer.Choice.segment_unnamed`, :func:`prism.answering.extractive.extractive_lines`).
"""

from __future__ import annotations

from prism.answering.reading.words import words_of
from prism.index.tokenizer import tokenize
from prism.types.reading import Reading

__all__ = ["SEGMENT_WORDS", "names_segments", "segments"]

SEGMENT_WORDS = frozenset(tokenize("segment division"))
"""Index tokens after which a mention names a segment of the company ("home loan segment", "retail division");
not "business" or "portfolio", which qualify more than they name ("a capital-intensive business", "standard
business operations", "investment portfolio")."""
_NAMING = 3
"""Most words before a segment word that name the segment."""
_NOT_NAMING = frozenset(tokenize("total other net overall whole entire operating reportable reporting each all both"
                                 " every largest smallest biggest main business businesses geographic geographical"
                                 " principal major key"))
"""Words that name no segment of their own ("operating segments", "business segments", "geographic segments")."""
_NOT_FIGURE_INTENTS = frozenset({"reason", "description", "table_subject"})
"""The intents asking a sentence: a question asking what a segment is ("How were operating segments defined?") or why
asks no segment's figure."""


def segments(reading: Reading) -> tuple[frozenset[str], ...]:
    """The index tokens naming each segment the question asks about: up to :data:`_NAMING` tokens before a
    :data:`SEGMENT_WORDS` token in one mention, after its owner ("Meridian Bank's home loan segment" →
    ``{"home", "loan"}``), less the words that
    name none (:data:`_NOT_NAMING`); ``()`` for a question naming no segment or asking a
    cause or a description."""
    if reading.intent in _NOT_FIGURE_INTENTS:
        return ()
    found: list[frozenset[str]] = []
    for mention in reading.mentions:
        written = words_of(mention.text)
        for at, word in enumerate(written):
            if not SEGMENT_WORDS & set(tokenize(word)):
                continue
            owner = max((i for i in range(at) if written[i].endswith(("'s", "’s"))), default=-1)  # "JPM's"
            before = written[max(owner + 1, at - _NAMING):at]
            naming = frozenset(t for w in before for t in tokenize(w)) - _NOT_NAMING - SEGMENT_WORDS
            if naming and naming not in found:
                found.append(naming)
    return tuple(found)


def names_segments(text: str, reading: Reading) -> bool:
    """Whether ``text`` (a sentence, a row) names every segment the question asks about: all the words naming
    each (:func:`segments`) are among its index tokens. ``True`` for a question naming none."""
    named = segments(reading)
    if not named:
        return True
    tokens = set(tokenize(text))
    return all(words <= tokens for words in named)
