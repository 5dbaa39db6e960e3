"""Line-end hyphenation undone: ``"regu-\nlatory"`` → ``"regulatory"``, while a real compound keeps its hyphen.

A justified PDF breaks words at line ends with a hyphen (``"submis-"`` / ``"sion"``); stored as is, neither half
matches "submission" in BM25 or reads as a word to the embedder. But a hyphen at a line end is just as often the
hyphen of a compound that happens to break there (``"employee-"`` / ``"driven"``, ``"non-"`` / ``"compliance"``):
in the FinanceBench 10-Ks most of them are (``bench/hyphens.py``), and there the hyphen belongs to the word.

The rule decides with the document's own vocabulary — every word that occurs in the document outside a line-end
break, hyphenated compounds both whole and by their parts (case-folded) — in this order:

1. **join** when the joined form occurs elsewhere in the document (``"regulatory"``) and the hyphenated form does
   not occur more often;
2. **keep** the hyphen (only the line break goes: ``"non-compliance"``) when the hyphenated form occurs elsewhere;
3. **keep** it when both halves are words of the document (``"employee"`` and ``"driven"``; a half counts when it
   occurs on its own or as a part of another compound, so ``"non"`` counts in a document that writes
   ``"non-cash"``): a syllable break leaves fragments (``"regu"``, ``"latory"``, ``"submis"``) that are no words;
4. otherwise **join**.

A break is a word ending in a lower-case letter, a hyphen (``-`` or U+2010) and a line break, followed by a word
that starts with a lower-case letter; anything else (``"FAA-"`` / ``"approved"``, ``"2018-"`` / ``"19"``, a dash
after a space) is left alone. The joined word takes the place of the first half and the line break follows it, so
lines keep their order. Measured on the FinanceBench and RBI PDFs against the usage of the whole corpus:
``bench/hyphens.py``.
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
    """Case-folded words of ``texts`` outside line-end breaks; a hyphenated compound counts as itself
    (``non-compliance``, U+2010 read as ``-``) and as each of its parts (``non``, ``compliance``)."""
    counts: Counter[str] = Counter()
    for text in texts:
        for word in _WORD.findall(BREAK.sub(" ", text)):
            word = word.casefold().replace("\u2010", "-")
            counts[word] += 1
            if "-" in word:
                counts.update(word.split("-"))
    return counts


def keeps_hyphen(left: str, right: str, vocab: Counter[str]) -> bool:
    """True when the break ``left-`` / ``right`` is a compound whose hyphen stays (rules 1–4 of the module
    docstring; ``left`` may hold hyphens of its own, its last part is the half)."""
    left = left.replace("\u2010", "-")
    joined = vocab[f"{left}{right}".casefold()]
    hyphenated = vocab[f"{left}-{right}".casefold()]
    if joined and hyphenated <= joined:
        return False
    if hyphenated:
        return True
    return vocab[left.rsplit("-", 1)[-1].casefold()] > 0 and vocab[right.casefold()] > 0


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
