"""A frequency asked as an adjective meets the table that states it with "per": "the daily limit" and a column headed
"Per day", "the annual fee" and "per annum" (prism/index/frequencies.py, through the one tokenizer). The full pipeline
over the sample workspace is tested in tests/answering/test_sample_tables.py."""

from __future__ import annotations

import pytest

from prism.index.frequencies import frequency_nouns
from prism.index.tokenizer import tokenize


@pytest.mark.parametrize(("text", "nouns"), [
    ("What is the daily limit?", ["day"]),
    ("Annual fee", ["year"]),
    ("₹499 per annum", ["year"]),
    ("interest at 12% p.a.", ["year"]),
    ("weekly, quarterly and yearly reports", ["week", "quarter", "year"]),
    ("the monthly rental, monthly", ["month"]),
    ("Per day (aggregate)", []),  # the noun itself: no adjective
    ("a day-to-day matter on the days after", []),
])
def test_the_noun_of_each_frequency_named_as_an_adjective(text, nouns):
    assert frequency_nouns(text) == nouns


def test_daily_and_per_day_share_a_term_and_monthly_is_not_counted_twice():
    assert set(tokenize("the daily limit")) & set(tokenize("Per day (aggregate)")) == {"day"}
    assert set(tokenize("annual fee")) & set(tokenize("₹499 per annum")) == {"year"}
    assert tokenize("monthly limit") == ["month", "limit"]  # stemming already joins "monthly" and "per month"
