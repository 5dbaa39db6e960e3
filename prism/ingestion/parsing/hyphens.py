"""Line-end hyphenation undone: ``"regu-\\nlatory"`` → ``"regulatory"``, while a real compound keeps its hyphen.

A justified PDF breaks words at line ends with a hyphen (``"submis-"`` / ``"sion"``); stored as is, neither half
matches "submission" in BM25 or reads as a word to the embedder. A hyphen at a line end is also how a compound that
happens to break at its own hyphen is set (``"non-"`` / ``"compliance"``), and there the hyphen belongs to the word.

The rule decides with the document's own vocabulary — every word, hyphenated compounds included, that occurs in
the document outside a line-end break (case-folded):

* the hyphen is **kept** (the line break removed, ``"non-compliance"``) when the hyphenated form occurs elsewhere in
  the document and the joined form does not;
* otherwise the halves are **joined** (``"regulatory"``): most line-end hyphens are syllable breaks, and a word such
  as "regulatory" usually does not occur elsewhere in a short circular to prove it.

A break is a word ending in a lower-case letter, a hyphen (``-`` or U+2010) and a line break, followed by a word
that starts with a lower-case letter; anything else (``"FAA-"`` / ``"approved"``, ``"2018-"`` / ``"19"``, a dash
after a space) is left alone. The joined word takes the place of the first half and the line break follows it, so
lines keep their order. Measured on the FinanceBench and RBI PDFs (``bench/hyphens.py``): false joins against the
usage of the whole corpus.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

BREAK = re.compile(r"(?<![\w\u2010-])((?:[A-Za-z]+[-\u2010])*[A-Za-z]*[a-z])[-\u2010]\n([a-z][A-Za-z]*)([ \t]+)?")
"""A line-end hyphen break: group 1 the word before the hyphen (with any inner hyphens), group 2 the word after,
group 3 the spaces after that (where the line break moves to)."""
_WORD = re.compile(r"[A-Za-z]+(?:[-\u2010][A-Za-z]+)*")


def vocabulary(texts: Iterable[str]) -> Counter[str]:
    """Case-folded words of ``texts`` outside line-end breaks, hyphenated compounds as one word (``non-compliance``
    with U+2010 read as ``-``)."""
    counts: Counter[str] = Counter()
    for text in texts:
        counts.update(w.casefold().replace("\u2010", "-") for w in _WORD.findall(BREAK.sub(" ", text)))
    return counts


def keeps_hyphen(left: str, right: str, vocab: Counter[str]) -> bool:
    """True when the break ``left-`` / ``right`` is a compound: its hyphenated form occurs in ``vocab`` and its joined
    form does not (the rule in the module docstring)."""
    left = left.replace("\u2010", "-")
    joined = f"{left}{right}".casefold()
    hyphenated = f"{left}-{right}".casefold()
    return vocab[hyphenated] > 0 and vocab[joined] == 0


def dehyphenate(text: str, vocab: Counter[str]) -> tuple[str, int]:
    """Undo the line-end hyphen breaks of ``text`` using ``vocab`` (see :func:`vocabulary`).

    Args:
        text: normalised page text (``\\n`` line breaks).
        vocab: the document's vocabulary.

    Returns:
        ``(text, joined)``: the text with every break joined (``"regulatory\\n"``) or closed up with its hyphen
        (``"non-compliance\\n"``) — the line break after the word, or dropped when punctuation follows it — and
        how many breaks were joined without their hyphen.

    Example:
        >>> dehyphenate("submit the regu-\\nlatory return", Counter())
        ('submit the regulatory\\nreturn', 1)
    """
    joined = 0

    def _fix(match: re.Match[str]) -> str:
        nonlocal joined
        left, right, space = match.group(1), match.group(2), match.group(3)
        tail = "\n" if space else ""  # the line break moves after the word (before punctuation: dropped)
        if keeps_hyphen(left, right, vocab):
            return f"{left}-{right}{tail}"
        joined += 1
        return f"{left}{right}{tail}"

    return BREAK.sub(_fix, text), joined
