"""The segments a question asks about: "the gross NPA ratio of the home loan segment", "the cloud business's
revenue", "the retail division". Part of the question reader, read from its mentions' index tokens (no pattern over
the text): a figure, or a quoted sentence, answers such a question only when it is of that segment
(:meth:`prism.answering.programs.answer.Choice.segment_unnamed`, :func:`prism.answering.extractive.extractive_lines`).
"""

from __future__ import annotations

from prism.index.tokenizer import tokenize
from prism.types.reading import Reading

__all__ = ["SEGMENT_WORDS", "names_segments", "segments"]

SEGMENT_WORDS = frozenset(tokenize("segment division business portfolio"))
"""Index tokens after which a mention names a segment of the company ("home loan segment")."""
_NAMING = 3
"""Most words before a segment word that name the segment."""
_NOT_NAMING = frozenset(tokenize("total other net overall whole entire operating reportable reporting each all both"
                                 " every largest smallest biggest main"))
"""Words that name no segment of their own ("the total business", "operating segments")."""
_NOT_FIGURE_INTENTS = frozenset({"reason", "description", "table_subject"})
"""The intents asking a sentence: a question asking what a segment is ("How were operating segments defined?") or why
asks no segment's figure."""


def segments(reading: Reading) -> tuple[frozenset[str], ...]:
    """The index tokens naming each segment the question asks about: up to :data:`_NAMING` tokens before a
    :data:`SEGMENT_WORDS` token in one mention ("home loan segment" → ``{"home", "loan"}``), less the words that
    name none (:data:`_NOT_NAMING`); ``()`` for a question naming no segment or asking a
    cause or a description."""
    if reading.intent in _NOT_FIGURE_INTENTS:
        return ()
    found: list[frozenset[str]] = []
    for mention in reading.mentions:
        words = list(mention.tokens)
        for at, word in enumerate(words):
            naming = frozenset(words[max(at - _NAMING, 0):at]) - _NOT_NAMING - SEGMENT_WORDS
            if word in SEGMENT_WORDS and naming and naming not in found:
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
