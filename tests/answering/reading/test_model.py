"""The operation model's cue words: the longest cue matched wins over a shorter cue of another operation inside or
across it; a yes/no question testing a direction reads as ``yes_no`` with the packaged model."""

from __future__ import annotations

import pytest

from prism.answering.reading.model import cue_hits
from prism.answering.reading.words import words_of
from tests.readings import read


@pytest.mark.parametrize(("question", "operation", "cue", "shadowed"), [
    ("What is the compound annual growth rate of revenue from 2022 to 2024?", "cagr", "compound annual growth",
     ("percent_change", "growth rate")),
    ("What was the percentage change in revenue?", "percent_change", "percentage change", ("change", "change")),
    ("What was the % increase in opex?", "percent_change", "% increase", ("change", "increase")),
])
def test_a_cue_inside_a_longer_cue_of_another_operation_does_not_count(question, operation, cue, shadowed):
    hits = cue_hits(words_of(question))
    assert cue in hits[operation]
    other, word = shadowed
    assert word not in hits[other]


def test_cues_of_the_same_length_both_count():
    hits = cue_hits(words_of("Did net income increase from 2023 to 2024?"))
    assert "increase" in hits["change"] and "increase" in hits["yes_no"]


@pytest.mark.parametrize("question", [
    "Did net income increase from 2023 to 2024?",
    "From 2023 to 2024, did net income rise?",
    "Was net income higher in 2024 than in 2023?",
])
def test_a_direction_asked_yes_or_no_reads_as_yes_no(question):
    reading = read(question)
    assert reading.operation == "yes_no" and reading.intent == "yes_no", reading.operations[:3]
