"""The question's salient words, for the answerability gate: words a passage must hold for it to answer.

A word is salient when it names a fiscal period or year (``FY2021``, ``Q3``, ``2019``), is an acronym (``SWIFT``,
``NRI``, ``ATMs``), a hyphenated compound (``loan-to-value``) or a word the embedder's vocabulary does not hold
whole (``cryptocurrency``: rare in general English). Common words ("many", "earlier") are a question's scaffolding
and never salient, nor is a word that names an operation the question asks for ("CAGR", "avg": the registry's cues),
which no passage needs to hold: the program computes it, nor an abbreviation naming periods as a kind ("both FYs",
"YTD": :data:`~prism.vocabulary.question_words.PERIOD_ABBREVIATIONS`), nor a superlative ("quickest",
"fastest-growing": the extreme asked). A quarter or half of a fiscal year ("Q3
FY25") is also kept as one phrase, which a passage must name as one. The gate (:mod:`prism.answering.answerability`)
looks these up in the passages.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import regex

from prism.answering.programs.registry import OPERATIONS
from prism.answering.reading.kinds import polarity
from prism.index.period_codes import PERIOD_CODE_RE, code_of
from prism.vocabulary import question_words

__all__ = ["quarters", "salient_words"]

_WORD = re.compile(r"[^\W_](?:[\w'’-]*[^\W_])?")
_PERIOD_WORD = re.compile(r"FY\d{2,4}|Q[1-4]|H[12]|(?:19|20)\d\d", re.IGNORECASE)
_OPERATION_WORDS = frozenset(cue for op in OPERATIONS.values() for cue in op.cues if " " not in cue)
"""One-word cues of the registry's operations ("cagr", "avg", "yoy"): the question's operation, not its subject."""
_QUARTER = re.compile(r"\b([QH][1-4])\s?FY\s?'?(\d{2}|\d{4})\b", re.IGNORECASE)


def _kind(word: str, in_vocabulary: Callable[[str], bool]) -> str | None:
    """Why ``word`` is salient (``period``, ``acronym``, ``compound``, ``rare``) or ``None``."""
    base = re.sub(r"['’]s$", "", word)
    first = base.split("-")[0]
    if base.lower() in _OPERATION_WORDS or base.lower() in question_words.PERIOD_ABBREVIATIONS \
            or (polarity(first) is not None and (first == base or first.lower().endswith("est"))):
        return None  # "quickest", "fastest-growing": which is highest, not the subject ("top-up" is one)
    if _PERIOD_WORD.fullmatch(base):
        return "period"
    if re.fullmatch(r"[A-Z]{2,}s?", base) and base.rstrip("s").isupper():
        return "acronym"
    if "-" in base and re.fullmatch(r"[A-Za-z]+(?:-[A-Za-z]+)+", base):
        return "compound"
    if base.isalpha() and base.islower() and len(base) >= 4 and not in_vocabulary(base):
        return "rare"
    return None


def _compact_periods(question: str) -> str:
    """``question`` with each period code written as one word: "FY 2024-25" → "FY2025", "Q3 FY 2023-24" → "Q3
    FY2024" (a split fiscal year's "FY" is no acronym of its own)."""
    def compact(m: regex.Match[str]) -> str:
        return " ".join(f"{kind}{part} FY{year}" if part else f"FY{year}" for kind, part, year in code_of(m))
    return PERIOD_CODE_RE.sub(compact, question)


def salient_words(question: str, in_vocabulary: Callable[[str], bool]) -> tuple[tuple[str, str], ...]:
    """``((word, kind), …)``: the question's salient words as written (a period code as one word), in order,
    without repeats."""
    out = []
    for word in dict.fromkeys(_WORD.findall(_compact_periods(question))):
        kind = _kind(word, in_vocabulary)
        if kind is not None:
            out.append((word, kind))
    return tuple(out)


def quarters(question: str) -> tuple[tuple[str, str, str], ...]:
    """``((as written, "Q3", "25"), …)``: the quarters and halves of a fiscal year the question names, each with its
    part and the last two digits of its year."""
    return tuple((m.group(0), m.group(1).lower(), m.group(2)[-2:]) for m in _QUARTER.finditer(question))
