"""The financial vocabulary (prism/vocabulary/): its words, the views derived from them, and the modules that now
read them from there (hand-checked values)."""

from __future__ import annotations

import re
from decimal import Decimal

from prism.answering.briefing.sections import _COMPANY_RE
from prism.answering.metrics.calc import present
from prism.evaluation.answers import asked_scale, numeric_match
from prism.index.sentences import split_sentences
from prism.ingestion.profiles.read import short_name
from prism.ingestion.tables.stored_text import currency_of, unit_of
from prism.vocabulary import currencies, legal, months, statements, units


def test_every_written_unit_form_has_its_house_word_and_scale():
    assert units.CANONICAL["mn"] == "millions" and units.CANONICAL["lacs"] == "lakh"
    assert units.CANONICAL["000's"] == "thousands" and units.CANONICAL["cr"] == "crore"
    assert units.SCALE["crore"] == Decimal(10) ** 7 and units.SCALE["lakh"] == Decimal(100000)
    assert units.LAKH_CRORE_SCALE == Decimal(10) ** 12
    assert units.SPOKEN == {"thousands": "thousand", "millions": "million", "billions": "billion", "lakh": "lakh",
                            "crore": "crore"}
    assert "trillions" not in units.SCALE and units.SPOKEN_OF["tn"] == "trillion"


def test_unit_fragments_match_whole_words_longest_first():
    word = re.compile(rf"\b(?:{units.WORD_RE})\b", re.IGNORECASE)
    assert [m.group(0) for m in word.finditer("Rs. in Crores; 5 lacs; thousands; 3 mn")] == ["Crores", "lacs",
                                                                                            "thousands"]
    assert re.fullmatch(units.LAKH_CRORE_RE, "lakhs crores") and not re.fullmatch(units.LAKH_CRORE_RE, "lakh")
    header = re.compile(rf"(?:{units.HEADER_WORD_RE})\b", re.IGNORECASE)
    assert header.match("millions") and not header.match("million barrels")


def test_currency_marks_read_as_iso_codes():
    assert [currencies.code_of(m) for m in ("Rs.", "₹", "US$", "£", "dollars", "", None, "yen")] == [
        "INR", "INR", "USD", "GBP", "USD", None, None, None]
    assert currencies.SYMBOL == {"USD": "$", "INR": "₹", "EUR": "€", "GBP": "£"}
    assert currency_of("Amount (£ in thousands)") == "GBP" and currency_of("(Rs. in crore)") == "INR"
    assert unit_of("(₹ in lakh)") == "lakh" and unit_of("figures in 000's") == "thousands"


def test_months_by_name_and_abbreviation():
    assert months.NUMBER["sept"] == 9 and months.NUMBER["may"] == 5 and months.NUMBER["december"] == 12
    assert len(months.NUMBER) == 24 and re.fullmatch(months.ANY_RE, "september")


def test_legal_views_come_from_one_list():
    assert legal.ABBREVIATIONS == {"inc", "corp", "co", "ltd", "pvt"}
    assert legal.NOT_TICKERS == {"INC", "CO", "LLC", "LP"}  # "SE" and "AG" are real tickers
    assert short_name("Acme Pvt Ltd") == "Acme" and short_name("JPMorgan Chase & Co.") == "JPMorgan Chase"
    assert _COMPANY_RE.search("Leasing Company II, LLC Nevada") and not _COMPANY_RE.search("S.A.13 Overview")
    assert split_sentences("Meridian Bank Ltd. reported a loss. It paid Rs. 5,000.") == [
        "Meridian Bank Ltd. reported a loss.", "It paid Rs. 5,000."]


def test_statement_views():
    heading = re.compile(statements.HEADING_RE, re.IGNORECASE)
    assert heading.search("Standalone Statement of Profit and Loss")
    assert heading.search("CONSOLIDATED STATEMENTS OF CHANGES IN SHAREHOLDERS' EQUITY")
    source = re.compile(statements.FIGURE_SOURCE_RE, re.IGNORECASE)
    assert source.search("Consolidated Statements of Operations")
    assert not source.search("Consolidated Statements of Stockholders' Equity")
    key_rows = [statements.ITEMS[key].row for _, key in statements.KEY_FIGURES]
    assert all(key_rows) and re.match(key_rows[1], "net income attributable to 3m")


def test_derived_amounts_convert_with_the_vocabulary_scales():
    assert present(Decimal(25), "amount", 0, unit="crore", from_unit="lakh") == Decimal("0")
    assert present(Decimal(250), "amount", 1, unit="crore", from_unit="lakh") == Decimal("2.5")


def test_asked_scale_knows_lakh_and_crore():
    """evaluation/answers.py learned the Indian units: a reference's bare amounts are read in the scale asked."""
    assert asked_scale("What was net profit? Answer in Rs crore.") == 1e7
    assert asked_scale("Give it in ₹ lakh crore") == 1e12
    assert asked_scale("in lakhs") == 1e5 and asked_scale("Answer in USD millions.") == 1e6
    assert asked_scale("What was revenue?") == 1.0
    assert numeric_match("Net profit was ₹4,750 crore.", "₹4750.00", question="Answer in ₹ crore.") == 1.0
    assert numeric_match("Net profit was ₹4,750 crore.", "₹4750.00") == 0.0
