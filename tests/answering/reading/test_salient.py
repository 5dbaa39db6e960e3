"""The gate's salient words: an operation named by its acronym is not a word the passages must hold."""

from __future__ import annotations

import pytest

from prism.answering.reading.salient import salient_words


def _all_held(_word: str) -> bool:
    return True


def test_an_operation_named_by_its_acronym_is_not_salient():
    assert salient_words("Revenue CAGR 2022 to 2024", _all_held) == (("2022", "period"), ("2024", "period"))


def test_an_acronym_naming_the_subject_stays_salient():
    assert ("NPA", "acronym") in salient_words("What was the gross NPA CAGR from FY2022 to FY2024?", _all_held)


@pytest.mark.parametrize("question", [
    "What was the difference in net profit between both FYs?",
    "Net profit for the two FYs",
    "What is revenue YTD?",
    "TTM revenue of the company",
    "How did net profit move over the last three FYs?",
])
def test_an_abbreviation_naming_periods_as_a_kind_is_not_salient(question):
    """"FYs", "YTD", "TTM": the question's periods, which a filing prints as "fiscal 2019" or "Nine Months Ended"."""
    assert not [w for w, kind in salient_words(question, _all_held) if kind == "acronym"]
    assert ("EBITDA", "acronym") in salient_words("EBITDA for both FYs", _all_held)


def test_a_superlative_is_not_salient_but_a_compound_that_only_starts_like_one_is():
    assert not [w for w, _ in salient_words("Which is the fastest-growing loan segment, the quickest?", _all_held)
                if w.lower().startswith(("fastest", "quickest"))]
    assert ("top-up", "compound") in salient_words("What is the top-up limit for a UPI Lite wallet?", _all_held)
