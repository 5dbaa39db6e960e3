"""Multi-part questions read apart: :func:`split_question` cuts "X, and who is Y?" into its questions and
:func:`resolve_part` gives a later part's pronoun the earlier part's company. Part of the question reader: nothing
after it parses the question's text; :mod:`prism.answering.multipart` asks the parts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prism.answering.reading.followups import own_names
from prism.answering.reading.words import words_of
from prism.index.tokenizer import tokenize
from prism.vocabulary.question_words import FRAME_WORDS

__all__ = ["MAX_PARTS", "resolve_part", "split_question"]

MAX_PARTS = 4
"""Most parts a question is split into; a question with more "and"s is asked whole."""
_ASKING = (r"who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|can|could|has|have|had|will"
           r"|would|should")
_SPLIT = re.compile(rf"(?:\?\s+|;\s*|,\s*and\s+|\s+and\s+)(?=(?:{_ASKING})\b)", re.IGNORECASE)
_OPENS_ASKING = re.compile(rf"^\W*(?:{_ASKING})\b", re.IGNORECASE)
_POSSESSIVE_PRONOUN = re.compile(r"\b(?:its|their)\b", re.IGNORECASE)
_PRONOUN = re.compile(r"\b(?:it|they|them)\b", re.IGNORECASE)
_REFERS_BACK = re.compile(r"\b(?:that|this|those|these|such|the same)\b(?!\s+(?:is|are|was|were)\b)", re.IGNORECASE)
"""A later part that points at the earlier part's answer ("… which paragraph does the rule follow, and what cap does
that paragraph set?"): it cannot be asked alone, so the question is asked whole."""


def split_question(question: str) -> list[str]:
    """The parts of a multi-part question, each ending in "?", or ``[question]`` when it is one question.

    A cut is made before a question word or auxiliary verb that follows ", and", " and", ";" or "?"; it is
    kept only when both halves are questions: the first opens with a question word too, and each has at least one
    content token (:func:`prism.index.tokenizer.tokenize`). "What are the P2P and P2M limits?" stays whole (no
    question word after "and"); so does a question of more than :data:`MAX_PARTS` parts, and one whose later part
    points at the earlier part's answer ("what cap does that paragraph set?", :data:`_REFERS_BACK`).

    Returns:
        The parts in order, stripped, e.g. ``["What was Netflix's total debt-to-equity ratio?", "who is its CEO?"]``.
    """
    text = question.strip()
    pieces = [p.strip(" ,;") for p in _SPLIT.split(text)]
    if len(pieces) < 2 or len(pieces) > MAX_PARTS or not _OPENS_ASKING.match(pieces[0]):
        return [text]
    if any(not tokenize(p) for p in pieces) or any(_REFERS_BACK.search(p) for p in pieces[1:]):
        return [text]
    return [p[0].upper() + p[1:].rstrip(" ?.") + "?" for p in pieces]


def resolve_part(part: str, before: Sequence[str]) -> str:
    """``part`` with a pronoun referring back replaced by the last name an earlier part gives.

    "who is its CEO?" after "What was Netflix's total debt-to-equity ratio?" → "who is Netflix's CEO?"; "it" /
    "they" / "them" become the name, "its" / "their" its possessive. A part that names its own company, or whose
    earlier parts name none (:func:`prism.answering.reading.followups.own_names`), is returned unchanged. A part
    that names nothing but what is asked ("what was the difference?" after "Which was higher, vehicle loans or
    personal loans?") carries the earlier part's words, as a condensed follow-up does: "What was the difference
    (vehicle loans personal loans)?".
    """
    if before and _names_nothing(part):
        return _with_subject(part, before[-1])
    if own_names(part):
        return part
    names = [n for p in before for n in own_names(p)]
    if not names:
        return part
    name = names[-1]
    resolved = _POSSESSIVE_PRONOUN.sub(f"{name}'s", part, count=1)
    if resolved == part:
        resolved = _PRONOUN.sub(name, part, count=1)
    return resolved


_FRAME_TOKENS = frozenset(t for w in FRAME_WORDS for t in tokenize(w))


def _names_nothing(part: str) -> bool:
    """Whether a part's words are all the frame of a question ("what was the difference", "how much was it"): it
    asks about what the earlier part names."""
    return not set(tokenize(part)) - _FRAME_TOKENS


def _with_subject(part: str, before: str) -> str:
    """``part`` with the words of ``before`` that name something (not a question's frame) carried at its end in
    parentheses, as :func:`prism.answering.reading.followups.condense_heuristic` carries a follow-up's context."""
    carried = [w for w in words_of(before) if set(tokenize(w)) - _FRAME_TOKENS]
    return f"{part.rstrip(' ?.')} ({' '.join(carried)})?" if carried else part


_MARKER = re.compile(r"\[(W?)(\d+)\]")
