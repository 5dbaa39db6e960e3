"""Numbers written in words and in Indian notation are figures everywhere: the reader of number phrases
(:mod:`prism.vocabulary.number_words`), the number check (:mod:`prism.answering.figures`), the evidence check
(:mod:`prism.answering.evidence`), the calculator's cells (:mod:`prism.answering.programs.numbers`) and the offline
engine over a small circular (hand-checked values)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from prism.answering.evidence import holds_evidence
from prism.answering.figures import extract_figures, supported, unsupported_numbers, with_digits
from prism.answering.programs.numbers import cell_number, read_number_words
from prism.config import Settings
from prism.service import PrismService
from prism.types import IngestItem, RetrievedChunk
from prism.vocabulary.number_words import find_number_phrases
from tests.readings import target_of


@pytest.mark.parametrize(("phrase", "value"), [
    ("fifteen", Decimal(15)),
    ("seventy five", Decimal(75)),
    ("seventy-five", Decimal(75)),
    ("Seventy-Five", Decimal(75)),
    ("one hundred and five", Decimal(105)),
    ("one hundred five", Decimal(105)),
    ("twenty-one", Decimal(21)),
    ("two and a half", Decimal("2.5")),
    ("fifteen crore", Decimal(150_000_000)),
    ("two lakh crore", Decimal(2 * 10 ** 12)),
    ("one crore twenty lakh", Decimal(12_000_000)),
    ("two and a half crore", Decimal(25_000_000)),
    ("one hundred thousand", Decimal(100_000)),
    ("nineteen hundred", Decimal(1900)),
    ("1,23,456", Decimal(123456)),
    ("123,456", Decimal(123456)),
    ("2.5 crore", Decimal(25_000_000)),
    ("5 lakh", Decimal(500_000)),
    ("2:1", Decimal(2)),
    ("1:4", Decimal("0.25")),
    ("two-thirds", Decimal(2) / Decimal(3)),
    ("three quarters", Decimal("0.75")),
    ("half", Decimal("0.5")),
    ("a third", Decimal(1) / Decimal(3)),
])
def test_a_number_phrase_reads_as_its_exact_value(phrase, value):
    assert read_number_words(phrase) == value


def test_one_third_is_a_third():
    assert read_number_words("one-third") == Decimal(1) / Decimal(3)
    assert read_number_words("one third") == Decimal(1) / Decimal(3)


@pytest.mark.parametrize("phrase", ["", "crore", "third", "five five", "twenty fifteen", "one and", "two and three",
                                    "fifteen rupees", "2:0", "Nil", "the third quarter"])
def test_what_is_not_one_number_is_none(phrase):
    assert read_number_words(phrase) is None


def test_phrases_are_found_in_running_text_with_their_scale():
    text = ("A penalty of fifteen crore rupees, within thirty days; the third quarter; a third party; two-thirds of "
            "it; seven and eight")
    found = [(text[p.start:p.end], p.value, p.mantissa, p.scales, p.fraction) for p in find_number_phrases(text)]
    assert found == [
        ("fifteen crore", Decimal(150_000_000), Decimal(15), ("crore",), False),
        ("thirty", Decimal(30), Decimal(30), (), False),
        ("two-thirds", Decimal(2) / Decimal(3), Decimal(2) / Decimal(3), (), True),
        ("seven", Decimal(7), Decimal(7), (), False),
        ("eight", Decimal(8), Decimal(8), (), False),
    ]


def test_a_hostile_run_of_number_words_is_read_in_one_pass():
    """10,000 words: the reader walks them once (no backtracking regex), so this returns at once."""
    words = " ".join(["seventy five and"] * 3334)
    assert len(find_number_phrases(words)) == 3334
    assert read_number_words(" ".join(["one"] * 10_000)) is None
    assert read_number_words("-".join(["hundred"] * 10_000)) is None


# --- the number check -----------------------------------------------------------------------------------------
CIRCULAR = ("The penalty for a delay shall not exceed fifteen crore rupees. The bank shall refund seventy five per "
            "cent of the charge, and one-third of the fee goes to the customer.")


@pytest.mark.parametrize("stated", ["₹15 crore", "₹150,000,000", "Rs. 15 crore", "₹15,00,00,000", "15 crore",
                                    "fifteen crore rupees", "75%", "seventy-five percent", "33.3%", "33%",
                                    "one-third"])
def test_a_figure_in_digits_is_supported_by_its_words(stated):
    figures = extract_figures(stated)
    assert len(figures) == 1 and supported(figures[0], CIRCULAR)


@pytest.mark.parametrize("stated", ["₹16 crore", "$15 crore", "₹15 lakh", "76%", "34%", "seventy four per cent"])
def test_a_wrong_figure_is_still_unsupported(stated):
    figures = extract_figures(stated)
    assert len(figures) == 1 and not supported(figures[0], CIRCULAR)


def test_figures_in_words_are_read_in_order_and_bare_numbers_are_not_figures():
    figures = extract_figures(CIRCULAR + " Pay within thirty days; one of the banks; the third quarter.")
    assert [(f.text, f.value, f.kind, f.currency, f.units) for f in figures] == [
        ("fifteen crore rupees", 1.5e8, "amount", "INR", ("crore",)),
        ("seventy five per cent", 75.0, "percent", None, ()),
        ("one-third", pytest.approx(100 / 3), "percent", None, ()),
    ]
    assert [f.text for f in extract_figures("Net sales ₹ fifteen lakh and $5 million")] == [
        "₹ fifteen lakh", "$5 million"]


def test_the_answer_check_reads_words_both_ways():
    assert unsupported_numbers("The maximum penalty is ₹15 crore [1].", {"1": CIRCULAR}) == []
    assert unsupported_numbers("The maximum penalty is ₹16 crore [1].", {"1": CIRCULAR}) == ["₹16 crore"]
    assert unsupported_numbers("It is fifteen crore rupees [1].", {"1": "The penalty is ₹15 crore."}) == []
    assert unsupported_numbers("It is sixteen crore rupees [1].", {"1": "The penalty is ₹15 crore."}) == [
        "sixteen crore rupees"]
    assert unsupported_numbers("Limit: Rs. 5 lakh [1].", {"1": "A limit of Rs. 5,00,000 applies."}) == []


def test_a_figure_in_words_is_stated_in_digits_first():
    assert with_digits("The penalty shall not exceed fifteen crore rupees.") == (
        "The penalty shall not exceed ₹15 crore (fifteen crore rupees).")
    assert with_digits("Refund seventy-five per cent of it.") == "Refund 75% (seventy-five per cent) of it."
    assert with_digits("Rs. two and a half lakh") == "₹2.5 lakh (Rs. two and a half lakh)"
    unchanged = "One-third is paid within thirty days; ₹15 crore stays; one of the banks."
    assert with_digits(unchanged) == unchanged


# --- the evidence check ---------------------------------------------------------------------------------------
def _chunk(text: str) -> RetrievedChunk:
    return RetrievedChunk(chunk_id="c1", doc_id="d1", source="penalty_circular.txt", text=text,
                          metadata={"entity": "Meridian Bank Ltd"})


def test_a_value_in_words_is_a_quantity():
    target = target_of("What is the maximum penalty for a delay?")
    assert target is not None and target.answer_type == "quantity"
    assert holds_evidence(target, [_chunk("The penalty for a delay shall not exceed fifteen crore rupees.")])
    assert not holds_evidence(target, [_chunk("The penalty for a delay is one of the measures the bank applies.")])
    assert not holds_evidence(target, [_chunk("The penalty for a delay is set by the board.")])
    refund = target_of("What is the time limit for a refund?")
    assert holds_evidence(refund, [_chunk("The time limit for a refund is thirty days from the complaint.")])
    assert not holds_evidence(refund, [_chunk("The time limit for a refund is set by the board.")])


def test_a_count_in_words_is_a_count():
    target = target_of("How many ATMs does Meridian Bank operate?")
    assert holds_evidence(target, [_chunk("The Bank operates twelve ATMs and four branches.")])
    assert not holds_evidence(target, [_chunk("The Bank operates ATMs in every town.")])


# --- the calculator's cells -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("cell", "value"), [
    ("1,23,456", Decimal(123456)), ("₹ 1,23,456", Decimal(123456)), ("fifteen", Decimal(15)),
    ("₹ seventy-five", Decimal(75)), ("2:1", Decimal(2)), ("(1,837)", Decimal(-1837)), ("3.40%", Decimal("3.40")),
    ("Nil", None), ("n/m", None), ("2019 2018", None), ("one of two", None), ("fifteen crore", None),
    ("Rs. 5 lakh", None), ("", None),
])
def test_a_cell_in_words_or_indian_grouping_is_its_number(cell, value):
    assert cell_number(cell) == value


# --- end to end -----------------------------------------------------------------------------------------------
def test_a_penalty_in_words_is_answered_offline(tmp_path, embedder):
    doc = tmp_path / "penalty_circular.txt"
    doc.write_text("Circular on payment delays\n\nThe penalty for a delay shall not exceed fifteen crore rupees. "
                   "Banks shall report each delay to the regulator within thirty days.\n", encoding="utf-8")
    settings = Settings(home=tmp_path / "prism", groq_api_key=None, tavily_api_key=None, briefing_on_ingest=False)
    svc = PrismService(settings, embedder=embedder)
    assert [r.status for r in svc.ingest([IngestItem(doc)], "words")] == ["ingested"]
    answer = svc.ask("What is the maximum penalty for a delay?", "words")
    assert not answer.declined
    assert "₹15 crore (fifteen crore rupees)" in answer.answer
    assert answer.unsupported_numbers == []
