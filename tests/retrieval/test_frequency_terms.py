"""A frequency asked as an adjective meets the table that states it with "per": "the daily limit" and a column headed
"Per day", "the annual fee" and "per annum" (prism/index/frequencies.py, through the one tokenizer).

Unit cases, then the full pipeline over the four fictional sample PDFs of the built-in sample workspace (real Chroma,
the packaged embedder, BM25, the extractive engine): the UPI limits table carries the merchants' per-day limit, while
the fee schedule's MDR table names general merchants too.
"""

from __future__ import annotations

import pytest

from prism.config import Settings
from prism.index.frequencies import frequency_nouns
from prism.index.tokenizer import tokenize
from prism.service import PrismService
from prism.types import IngestItem
from tests.conftest import REPO

SAMPLE = REPO / "data" / "sample"


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


@pytest.fixture(scope="module")
def sample(tmp_path_factory, embedder) -> PrismService:
    service = PrismService(Settings(home=tmp_path_factory.mktemp("frequency_home")), embedder=embedder)
    results = service.ingest([IngestItem(path) for path in sorted(SAMPLE.glob("*.pdf"))], "sample")
    assert [r.status for r in results] == ["ingested"] * 4, [r.error for r in results]
    return service


def test_a_daily_limit_is_found_in_the_table_whose_column_says_per_day(sample):
    """The MDR table names general merchants more often; the limits table's "Per day" column now counts for "daily",
    so its chunk is among the five the answer reads, and the answer quotes the per-day limit under its header."""
    question = "What is the daily limit for general merchants?"
    top = sample.search(question, "sample").results[:5]
    [limits] = [r for r in top if "P2M – general merchants ₹1,00,000 ₹2,00,000" in r.text]
    assert limits.page_start == 2 and limits.scores()["bm25_rank"] <= 5
    answer = sample.ask(question, "sample")
    assert "Per day (aggregate): ₹2,00,000" in answer.answer.split("\n- ")[1], answer.answer
    assert answer.citations[0].source == "meridian_bank_upi_operating_circular.pdf"
