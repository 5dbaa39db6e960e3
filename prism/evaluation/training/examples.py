"""Training examples: questions with their gold answers, read and retrieved as the answer engine does.

The gold answer labels both models without anyone writing programs by hand (learning from denotations: Liang,
Jordan & Klein, "Learning Dependency-Based Compositional Semantics", ACL 2011): a candidate program is right when its
result states the gold (TAT-QA's normalisation, :func:`prism.evaluation.tatqa.match.line_matches`); the question's
operation is the one its gold derivation's shape writes ("a − b" a change, "(a − b) / b" a percentage change,
"(a + b) / 2" an average …), else that of a right candidate, else a sentence answer (``text``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from prism.types import RetrievedChunk
from prism.types.reading import Reading

__all__ = ["Example", "operation_of"]

_NUMBER = r"\(?-?\$?\s?\d[\d,]*(?:\.\d+)?%?\)?"


@dataclass
class Example:
    """One question for training.

    Attributes:
        id: the question's id; group: the document it is asked of (folds never split a document).
        question: the question; answer, scale: its gold (TAT-QA's fields); derivation: the gold arithmetic, or "".
        answer_type: ``span``, ``multi-span``, ``arithmetic`` or ``count``; answer_from: ``table``, ``text`` …
        reading: the question as read; chunks: what retrieval returned for it (scoped to its document).
    """

    id: str
    group: str
    question: str
    answer: Any
    scale: str
    derivation: str
    answer_type: str
    answer_from: str
    reading: Reading | None = None
    chunks: Sequence[RetrievedChunk] = field(default_factory=tuple)


def _shape(derivation: str) -> str:
    """The derivation with every number written ``N`` and spaces dropped ("(44.1-56.7)/56.7" → "(N-N)/N")."""
    text = derivation.replace(" ", "").replace("[", "(").replace("]", ")")
    return re.sub(_NUMBER, "N", text)


def operation_of(example: Example) -> str | None:
    """The operation the gold derivation's shape writes, or ``None`` when it writes none of the registry's."""
    if example.answer_type == "count":
        return "count"
    if example.answer_type != "arithmetic":
        return None
    shape = _shape(example.derivation)
    shape = re.sub(r"^\((.*)\)$", r"\1", shape)
    if re.fullmatch(r"N-N", shape):
        return "change"
    if re.fullmatch(r"\(?N-N\)?/N(?:\*100)?|N/N-1|\(N/N\)-1", shape):
        return "percent_change"
    if re.fullmatch(r"-?\(?N(?:\+N)+\)?/N", shape):
        return "average"
    if re.fullmatch(r"N(?:\+N)+", shape):
        return "sum"
    if re.fullmatch(r"N/N(?:\*100)?", shape):
        return "share" if example.scale == "percent" else "ratio"
    return None
