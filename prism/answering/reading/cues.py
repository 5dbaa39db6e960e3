"""Which of a question's words ask for an operation and which name a figure: the words the operation model reads.

"ratio" in a named ratio ("the capital adequacy ratio") names a metric, not a division; "minimum" of a rule's bound
names the figure the rule sets, not the least of a series; "average" of an average a table prints ("the weighted
average exercise price") is read, not computed; "percentage" of a change in a percentage figure asks for points.
:func:`cue_words` gives the model the question's words less these (mentions and retrieval keep every word).
:func:`conjoined` tells items joined by "and" as the parts of one figure from items set side by side.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prism.types.reading import Mention
from prism.vocabulary import question_words

__all__ = ["asks_proportion_ratio", "changes_a_percentage", "conjoined", "cue_words", "names_bound",
           "names_printed_average", "names_ratio"]

_NAMED_RATIO = re.compile(r"\b(?!(?:the|a|an|what|which|is|was|of|to|and|in)\b)[a-z][a-z0-9-]*\s+ratios?\b"
                          r"(?!\s+(?:of|between|for\s+\S+\s+(?:to|and))\b)", re.IGNORECASE)
"""A ratio the question names as a metric ("the capital adequacy ratio", "CET1 ratio", "the current ratio"): a word
before "ratio" and no "of A to B" after it. Such a ratio is read (a lookup), not computed from two figures."""
_OPERATION_RATIO = re.compile(r"\bratios?\s+(?:of|between)\b|\bdivided\s+by\b|\bto\s+\S+(?:\s+\S+)?\s+ratio\b|"
                              r"\btimes\b", re.IGNORECASE)
_BOUND = re.compile(r"\b(?:minimum|maximum|max|min)\b.*\b(?:required|requirements?|permitted|permissible|allowed|"
                    r"prescribed|mandated|mandatory|stipulated|limits?|caps?|ceiling|floor|regulatory|norms?)\b|"
                    r"\b(?:required|permitted|permissible|allowed|prescribed|mandated|regulatory)\s+"
                    r"(?:minimum|maximum)\b|\b(?:minimum|maximum|min\.|max\.|min|max)\s+(?:(?!(?:of|in|for|the|an?|and|or|to|between|over|"
                    r"during|at|with)\b)[a-z][a-z-]*\s+){0,2}(?:"
                    + "|".join(question_words.BOUND_NOUNS.split()) + r")\b", re.IGNORECASE)
"""A bound a rule sets ("the minimum capital adequacy ratio required", "the maximum permissible limit", "the
minimum balance", "the maximum loan amount": a bound noun of :data:`~prism.vocabulary.question_words.BOUND_NOUNS`
heading the phrase after "minimum"/"maximum", at most two words on): the figure the rule states, not the least or
greatest of a series."""


def names_ratio(text: str) -> bool:
    """Whether the question names a ratio as a metric ("What is the minimum capital adequacy ratio required?") and
    asks no division of two figures ("the ratio of A to B", "A divided by B", "A to B ratio")."""
    return bool(_NAMED_RATIO.search(text)) and not _OPERATION_RATIO.search(text)


def names_bound(text: str) -> bool:
    """Whether "minimum"/"maximum" name a bound a rule sets ("the maximum permissible limit", "the minimum CRAR
    required") rather than the least or greatest figure of a series."""
    return bool(_BOUND.search(text))


_PRINTED_AVERAGE = re.compile(r"\bweighted[\s-]+average\b|\baverage\s+(?:daily|monthly|balance|price|rate|cost|age|"
                              r"life|term|number|remaining|exercise|grant)\b", re.IGNORECASE)


def names_printed_average(text: str) -> bool:
    """Whether "average" names an average a table prints as its own row ("the weighted average exercise price",
    "the average remaining life of the leases") rather than asking for the mean of several figures."""
    return bool(_PRINTED_AVERAGE.search(text))


_RATIO_WORDS = frozenset({"ratio", "ratios"})
_BOUND_WORDS = frozenset({"minimum", "maximum", "min", "max"})
_AVERAGE_WORDS = frozenset({"average", "mean"})


_PERCENT_FIGURE = re.compile(r"\b(?:change|difference|increase|decrease|movement)\s+in\s+(?:the\s+)?"
                             r"(?:percentage|percent|%)\s+of\b", re.IGNORECASE)
"""A change in a figure that is a percentage ("the change in percentage of sales represented by gross profit"): the
percentage names the figure, not a percentage change."""


_PROPORTION_RATIO = re.compile(r"\bas\s+an?\s+proportion\s+of\b|\bproportion\s+of\b.+\bover\b", re.IGNORECASE)
"""A proportion asked as a fraction of another figure ("A as a proportion of B", "the proportion of A over B"; TAT-QA
answers these as a ratio, 0.86), not "what proportion of B came from A" (a share, in percent)."""


def asks_proportion_ratio(text: str) -> bool:
    """Whether the question asks for one figure as a proportion of another, a ratio ("the proportion of property,
    plant, and equipment over total assets", "employee termination costs as a proportion of total costs")."""
    return bool(_PROPORTION_RATIO.search(text))


def changes_a_percentage(text: str) -> bool:
    """Whether the question asks for the change in a figure that is itself a percentage ("the change in percentage
    of sales represented by gross profit"): its answer is in percentage points."""
    return bool(_PERCENT_FIGURE.search(text))


_HOW_MUCH_GROW = re.compile(r"\bhow\s+much\s+(?:did|has|have|had|does|do)\b[^?]*?\bgrow\s+(?:from|between|by|in|over|"
                            r"since|during)\b", re.IGNORECASE)
""""How much did the number of branches grow from …": the amount it grew by (not "how did the company grow revenue",
a means, nor "how many percent did it grow")."""


_PER = re.compile(r"\bper(?:(?P<compound>-(?!shares?\b)[a-z]+|\s+(?!shares?\b)[a-z]+\s+(?:"
                  + "|".join(question_words.VALUE_NOUNS.split()) + r")\b)|\s)", re.IGNORECASE)
""""per" as a word ("net income per share": a division) or as a rate's modifier, hyphenated or before the noun
naming the value (group ``compound``: "the per-transaction limit", "the per day cap", "a per-day fee" name the
figure, no division; "per share" and "per-share" ask one)."""


def cue_words(words: Sequence[str], text: str) -> list[str]:
    """``words`` less the words that name a metric or a rule's bound rather than an operation: "ratio" in a named
    ratio (:func:`names_ratio`), "per" of a hyphenated rate ("the per-transaction limit"), "minimum"/"maximum" of a
    bound (:func:`names_bound`), "average" of an average a
    table prints (:func:`names_printed_average`), "percentage" of a change in
    a percentage figure (:func:`changes_a_percentage`); "proportion" of a proportion that is a ratio
    (:func:`asks_proportion_ratio`) is read as "ratio", "grow" of "how much did X grow from …" as "grew". The
    operation model reads these; mentions and retrieval keep every word."""
    drop = (_RATIO_WORDS if names_ratio(text) else frozenset()) | (_BOUND_WORDS if names_bound(text) else frozenset())
    drop |= _AVERAGE_WORDS if names_printed_average(text) else frozenset()
    pers = [m.group("compound") for m in _PER.finditer(text)]
    drop |= {"per"} if pers and all(pers) else frozenset()
    out = [w for w in words if w not in drop]
    if asks_proportion_ratio(text):
        out = ["ratio" if w == "proportion" else w for w in out]
    if _HOW_MUCH_GROW.search(text):
        out = ["grew" if w == "grow" else w for w in out]
    if changes_a_percentage(text):
        out = [w for i, w in enumerate(out) if not (w in ("percentage", "percent", "%") and 0 < i < len(out) - 1
                                                    and out[i - 1] in ("in", "the") and out[i + 1] == "of")]
    return out


_CONJUNCTION = re.compile(r"\s+and\s+", re.IGNORECASE)
_JOINED = re.compile(r"\s*,?\s*and\s+(?:(?:the|other|of)\s+)*", re.IGNORECASE)
_PAIRED = re.compile(r"\b(?:between|both|either|respectively|each|versus|vs)\b", re.IGNORECASE)
"""Words that make "A and B" two figures set side by side (a difference, a list), not parts added up."""


def conjoined(text: str, mentions: Sequence[Mention]) -> bool:
    """Whether the question joins line items with "and" as parts of one figure ("the proportion of Grocery & Snacks
    and Refrigerated & Frozen net sales over total net sales", "other foreign borrowings and other domestic
    borrowings as a percentage of total debt"): a mention holds "and" between its words, or two mentions stand
    apart by "and" alone. Not when the question sets the items side by side ("between A and B", "both", "each",
    "respectively": :data:`_PAIRED`)."""
    if _PAIRED.search(text):
        return False
    if any(_CONJUNCTION.search(m.text) for m in mentions):
        return True
    return any(_JOINED.fullmatch(text[a.end:b.start]) for a, b in zip(mentions, mentions[1:], strict=False))
