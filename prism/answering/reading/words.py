"""A question's words as the reader reads them: shorthand and symbols written out, then its mentions and frame.

:func:`normalise` writes out an analyst's shorthand (:data:`prism.vocabulary.question_words.SHORTHAND`: "avg opex
YoY" → "average operating expenses year over year") and the symbols between words
(:data:`~prism.vocabulary.question_words.SYMBOLS`: "revenue > $5bn" → "revenue greater than $5bn", "opex/revenue" →
"opex divided by revenue", but "net income/share" → "net income per share":
:data:`~prism.vocabulary.question_words.PER_UNIT_SLASH`) and an imperative division written verb first ("divide A by
B" → "A divided by B") and a word typed against the figure after it ("less than15,000" → "less than 15,000"),
keeping every other character as typed. :func:`mentions` finds the runs of words that name figures or items —
neither frame words (:data:`~prism.vocabulary.question_words.FRAME_WORDS`), stop words, periods, abbreviations
naming periods as a kind ("both FYs", "TTM revenue") nor entities — and :func:`frame` writes the question with each
mention as ``X`` and each period as ``P``, the shape of what is asked, compared with the operations' phrasings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prism.index.tokenizer import STOP_WORDS, tokenize
from prism.types import PeriodMention
from prism.types.reading import Mention
from prism.vocabulary import titles
from prism.vocabulary.question_words import (
    DIVIDE_VERBS,
    FRAME_WORDS,
    PER_UNIT_SLASH,
    PERIOD_ABBREVIATIONS,
    SHORTHAND,
    SYMBOLS,
)

__all__ = ["frame", "mentions", "normalise", "own_pairs", "own_words", "phrase_in", "title_tokens", "words_of"]

_WORD = re.compile(r"[^\W_][\w&'’.\-/]*[\w%]|[^\W_]|%", re.UNICODE)
_SLASH = re.compile(r"(?<=[A-Za-z]{2})\s*/\s*(?=[A-Za-z]{2})")
_SYMBOL = re.compile("|".join(re.escape(s) for s in sorted((k for k in SYMBOLS if k not in "/&+=%"),
                                                            key=len, reverse=True)))
_SHORT = re.compile(r"(?<![\w/&-])(" + "|".join(re.escape(k) for k in sorted(SHORTHAND, key=len, reverse=True))
                    + r")(?![\w/&]|-\w)", re.IGNORECASE)
_GLUED = re.compile(r"\b([a-z]{3,})(?=\d)")
""""than15,000": a lower-case word of three letters or more run into a figure (not "FY2024", "Q3", "CO2" or "x2")."""
_PLUS = re.compile(r"(?<=\S)\s+\+\s+(?=\S)")
"""A plus sign written between two words or figures ("Operating expenses 2023 + 2024"), not one inside a word
("A+", "60+")."""
_KEEP_SLASH = frozenset({"and/or", "n/a", "y/y", "q/q", "b/w"})
_PER_UNIT = re.compile(r"\s*(?:" + "|".join(sorted(PER_UNIT_SLASH, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_DIVIDE = re.compile(r"\b(?:" + "|".join(DIVIDE_VERBS) + r")\s+(.+?)\s+by\b", re.IGNORECASE)


_PERIOD = r"(?:[QH][1-4]\s?FY\s?'?\d{2,4}|FY\s?'?\d{2,4}|(?:19|20)\d\d)"
_ELLIPTICAL = re.compile(
    r"^(?!(?:what|which|how|why|when|who|whom|whose|where|is|are|was|were|did|does|do|has|have|had|can|could|"
    r"should|will|would|list|show|give|name|compare|change|difference)\b)(?P<figure>[A-Za-z][^?]{1,60}?)\s+"
    rf"(?P<span>from\s+{_PERIOD}\s+to\s+{_PERIOD}|between\s+{_PERIOD}\s+and\s+{_PERIOD})\s*\??$",
    re.IGNORECASE)
"""A figure and two periods, no verb ("Net income from 2014 to 2015?"): shorthand for the change in it (the figure's
words are no stop or frame words: a noun phrase, not a sentence)."""
_OPERATION_WORDS = frozenset({"growth", "change", "changes", "total", "sum", "combined", "average", "mean", "ratio",
                              "cagr", "percentage", "percent", "%", "difference", "increase", "decrease", "share",
                              "proportion", "each", "respectively", "and", "versus", "highest", "lowest", "trend"})
"""Words that name an operation themselves ("Revenue growth between FY2018 and FY2019"): no change is added."""


def normalise(question: str) -> str:
    """The question with shorthand and symbols written out (module docstring); whitespace collapsed; "the respective
    A and B" asked as "A and B … respectively". A figure and two periods with no verb ("Net income from 2014 to
    2015?") is written out as the change in it ("change in Net income from 2014 to 2015?")."""
    text = _GLUED.sub(r"\1 ", " ".join(question.split()))
    text = _SYMBOL.sub(lambda m: f" {SYMBOLS[m.group(0)]} ", text)
    text = _PLUS.sub(f" {SYMBOLS['+']} ", text)

    def slash(m: re.Match[str]) -> str:
        around = text[max(0, m.start() - 3):m.end() + 3].lower()
        if any(k in around for k in _KEEP_SLASH):
            return m.group(0)
        return " per " if _PER_UNIT.match(text, m.end()) else " divided by "

    text = _SLASH.sub(slash, text)
    text = _DIVIDE.sub(lambda m: f"{m.group(1)} divided by", text)
    text = _SHORT.sub(lambda m: SHORTHAND[m.group(1).lower()], text)
    text = " ".join(text.split())
    if _RESPECTIVE.search(text) and not _RESPECTIVELY.search(text):
        # "the respective sales and purchases for 2017": each item's figure, as "… for 2017 respectively" asks
        text = _RESPECTIVE.sub("", text).rstrip(" ?") + " respectively" + ("?" if text.rstrip().endswith("?") else "")
    m = _ELLIPTICAL.match(text)
    figure = set(words_of(m.group("figure"))) if m is not None else set()
    if m is None or figure & (_OPERATION_WORDS | FRAME_WORDS | STOP_WORDS) or len(figure) > 6:
        return text  # a sentence ("Tell me whether net income increased …") or an operation named
    return f"change in {m.group('figure')} {m.group('span')}?"


_RESPECTIVE = re.compile(r"\brespective\s+", re.IGNORECASE)
""""respective" before the items asked: a figure for each, in the order named."""
_RESPECTIVELY = re.compile(r"\brespectively\b", re.IGNORECASE)


def phrase_in(phrase: str, words: Sequence[str]) -> bool:
    """Whether ``phrase`` (lower-case words, or ``%``) occurs as consecutive whole words of ``words``."""
    parts = phrase.lower().replace("%", " % ").split()
    n = len(parts)
    if n == 0:
        return False
    first = parts[0]
    return any(words[i] == first and list(words[i:i + n]) == parts for i in range(len(words) - n + 1))


def phrase_spans(phrase: str, words: Sequence[str]) -> list[tuple[int, int]]:
    """Every ``(start, end)`` (word positions, end exclusive) where ``phrase`` occurs in ``words``
    (:func:`phrase_in`)."""
    parts = phrase.lower().replace("%", " % ").split()
    n = len(parts)
    return [(i, i + n) for i in range(len(words) - n + 1) if n > 0 and list(words[i:i + n]) == parts]


_SHORTENED = re.compile(r"(?<![\w.])([A-Za-z]{3,})\.(?=[\s,;:?)]|$)")
"""A word cut short and marked with a full stop ("gross adv.", "govt. securities", "exp.")."""


def shortened_words(question: str) -> tuple[str, ...]:
    """The words ``question`` writes short with a full stop, lower case, without the stop, in order ("gross adv."
    → ``("adv",)``); a sentence's last word before its full stop counts too (it matches a label word only when a
    label word is longer and begins with its letters)."""
    return tuple(dict.fromkeys(w.lower() for w in _SHORTENED.findall(question)))


def words_of(text: str) -> list[str]:
    """The lower-case words of ``text`` (``%`` a word of its own), for :func:`phrase_in`."""
    return [w.lower() for w in re.findall(r"[A-Za-z0-9]+(?:[.'’][A-Za-z0-9]+)*|%", text)]


def _covered(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(s <= start and end <= e or (start < e and s < end) for s, e in spans)


_ABBREVIATION = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")
"""An abbreviation written with full stops, as a word is read without its last one ("U.S", "U.K")."""


_PER = frozenset({"per", "each"})
_FIGURE_THEN_PER = re.compile(r"[\s,]*(?:for\s+)?(?:" + "|".join(sorted(_PER)) + r")\s*", re.IGNORECASE)
"""What stands between a figure's mention and its divisor written after it ("net income per share", "income, for
each share"); a divisor with anything else before it ("per share net income") names the figure that follows."""
_PER_UNITS = frozenset({"share", "shares"})
"""A frame word after "per" / "each" that names a figure's divisor ("net income per share", "for each share"):
it belongs to the mention, so a row that says it ("Net income per share") or a program that divides by it (shares
outstanding) covers the question and a bare "Net income" does not."""

_PERIOD_LEADS = frozenset({"in", "for", "during", "over", "across", "at", "as", "between", "from", "by"})
"""Words after "in total" that end it as an adverb ("A and B in total in 2019"), unlike a name going on ("in Total
Other", "in total revenue")."""


def mentions(text: str, periods: Sequence[PeriodMention], taken: Sequence[tuple[int, int]] = ()
             ) -> tuple[Mention, ...]:
    """The runs of words of ``text`` naming figures or items (module docstring): a word of its own index tokens,
    not a frame or stop word, not inside a period or a ``taken`` span (an entity's), not a number, not the "total"
    of "the total of A and B" or "A and B in total" (the sum asked; "Total revenue" names a row). A run goes on
    over "and", "of", "&" and commas between two content words ("property, plant and equipment"), and over an
    abbreviation's full stop ("U.S. government obligations") or a shortened word's before a lower-case word ("pers.
    loans")."""
    spans = [(p.start, p.end) for p in periods] + list(taken)
    out: list[Mention] = []
    run: list[re.Match[str]] = []
    divisor: list[Mention] = []  # "per share" written before its figure, kept until the figure's mention is read

    def close(unit: bool = False) -> None:
        if run:
            start, end = run[0].start(), run[-1].end()
            words = text[start:end]
            mention = Mention(words, tuple(tokenize(words)), start, end)
            run.clear()
            if unit and not (out and _FIGURE_THEN_PER.fullmatch(text, out[-1].end, start)):
                divisor.append(mention)  # "per share net income" names net income first, as "net income per share"
                return
            out.append(mention)
            out.extend(divisor)
            divisor.clear()

    previous = ""
    found = list(_WORD.finditer(text))
    for i, m in enumerate(found):
        word = m.group(0).lower().strip(".'’")
        unit = previous in _PER and word in _PER_UNITS  # "per share": the divisor is part of what is asked
        before, previous = previous, word
        follows = found[i + 1].group(0).lower() if i + 1 < len(found) else ""
        # "the total of A and B", "A and B in total in 2019": the sum asked, no item's name ("in total revenue" is)
        summed = word == "total" and (follows == "of" or before == "in" and (not follows or follows in _PERIOD_LEADS
                                                                           or follows[:1].isdigit()))
        content = ((unit or word not in FRAME_WORDS and word not in STOP_WORDS and word not in PERIOD_ABBREVIATIONS
                    and not summed)
                   and not _covered(m.start(), m.end(), spans) and bool(tokenize(word)) and not re.search(r"\d", word))
        if content:
            gap = text[run[-1].end():m.start()] if run else ""
            if run and (_ABBREVIATION.fullmatch(run[-1].group(0))
                        or _SHORTENED.fullmatch(text, run[-1].start(), run[-1].end() + 1) and m.group(0)[0].islower()):
                gap = gap.removeprefix(".")  # "U.S. government obligations", "pers. loans": a short form's full stop
            if run and not re.fullmatch(r"[\s,]*(?:(?:and|of|&|-)\s*)?", gap):
                close()
            run.append(m)
            if unit:
                close(unit=True)  # "per share net income": the divisor is a mention of its own
        elif word not in ("and", "of", "&"):
            close()
    close()
    return tuple(out + divisor)


def frame(text: str, periods: Sequence[PeriodMention], found: Sequence[Mention]) -> str:
    """``text`` lower-cased with each period written ``P`` and each mention ``X`` (a question mark and repeated
    spaces dropped): "what is the percentage change in X from P to P"."""
    spans = sorted([(p.start, p.end, "P") for p in periods] + [(m.start, m.end, "X") for m in found])
    out, last = [], 0
    for start, end, mark in spans:
        if start < last:
            continue
        out.append(text[last:start].lower())
        out.append(mark)
        last = end
    out.append(text[last:].lower())
    return " ".join("".join(out).replace("?", " ").split())


_CARRIED = re.compile(r"\s*\([^()]*\)\s*\??\s*$")
"""The context a condensed follow-up carries at its end ("And who must breaches be reported to (maximum exposure
bank take single NBFC)?"): left out of the phrase pairs, which are the question's own wording."""


def own_words(question: str) -> str:
    """The question without the context a condensed follow-up carries at its end (:data:`_CARRIED`)."""
    return _CARRIED.sub("", question)


def own_pairs(question: str) -> frozenset[tuple[str, str]]:
    """The question's consecutive index-token pairs, without the context a condensed follow-up carries."""
    tokens = tokenize(own_words(question))
    return frozenset(zip(tokens, tokens[1:], strict=False))


def title_tokens(question: str) -> frozenset[str]:
    """Index tokens of the officers' titles the question's abbreviations stand for ("CEO" → chief, executive,
    officer; :mod:`prism.vocabulary.titles`)."""
    return frozenset(t for w in re.findall(r"[A-Za-z]+", question) if (spelled := titles.spelled_out(w))
                     for t in tokenize(spelled))
