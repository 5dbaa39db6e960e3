"""The gate's salient words: an operation named by its acronym is not a word the passages must hold."""

from __future__ import annotations

from prism.answering.reading.salient import salient_words


def _all_held(_word: str) -> bool:
    return True


def test_an_operation_named_by_its_acronym_is_not_salient():
    assert salient_words("Revenue CAGR 2022 to 2024", _all_held) == (("2022", "period"), ("2024", "period"))


def test_an_acronym_naming_the_subject_stays_salient():
    assert ("NPA", "acronym") in salient_words("What was the gross NPA CAGR from FY2022 to FY2024?", _all_held)
