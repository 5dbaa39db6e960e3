"""A table row quoted from a PDF page is written with its table's column headers: one row, each figure named by its
column, its notes kept; prose, rows Prism rendered already and rows run together are quoted as they are."""

from __future__ import annotations

import pytest

from prism.answering.row_quotes import columns_of_chunk, with_columns
from prism.types import RetrievedChunk

HEADERS = ("Per transaction", "Per day (aggregate)", "Master Circular para")


@pytest.mark.parametrize(("sentence", "written"), [
    ("P2M – general merchants ₹1,00,000 ₹2,00,000 9.1",
     "P2M – general merchants — Per transaction: ₹1,00,000; Per day (aggregate): ₹2,00,000; Master Circular para: 9.1"),
    ("UPI Lite (on-device wallet) ₹500 ₹4,000 (spends) 9.2",
     "UPI Lite (on-device wallet) — Per transaction: ₹500; Per day (aggregate): ₹4,000 (spends); "
     "Master Circular para: 9.2"),
    ("Credit line on UPI ₹ 50,000 ₹ 1,00,000 9.4",
     "Credit line on UPI — Per transaction: ₹50,000; Per day (aggregate): ₹1,00,000; Master Circular para: 9.4"),
    ("Meridian ATMs 5 5 Unlimited", "Meridian ATMs — Per transaction: 5; Per day (aggregate): 5; Master Circular para: "
     "Unlimited"),  # a cell stated in a word
])
def test_a_row_is_written_with_its_columns(sentence, written):
    assert with_columns(sentence, HEADERS) == written


@pytest.mark.parametrize("sentence", [
    "UPI Lite spends are capped at ₹4,000 per day.",  # prose
    "column 1: Products; 2019: $29,816; 2018: $34,066",  # rendered with its headers already
    "Annual fee ₹250 ₹500",  # two figures under three headers
    "Meridian ATMs 5 5 Unlimited Other banks, metro 3 3 5",  # rows run together
    "2,000 3,000 4,000",  # no label
    "Premium card Free Free Unlimited",  # no figure: words a label may end with
])
def test_anything_else_is_quoted_as_it_is(sentence):
    assert with_columns(sentence, HEADERS) == sentence


def test_only_a_table_chunk_has_columns():
    table = RetrievedChunk(chunk_id="c1", doc_id="d", source="limits.pdf", text="P2P 1 2 3", metadata={
        "table_id": "d/t1", "table_columns": " | ".join(HEADERS)})
    prose = RetrievedChunk(chunk_id="c2", doc_id="d", source="limits.pdf", text="Limits apply.",
                           metadata={"table_columns": "A | B"})
    assert (columns_of_chunk(table), columns_of_chunk(prose)) == (list(HEADERS), [])


def test_a_table_with_a_unit_is_written_with_its_headers_only_when_a_header_states_the_unit():
    deposits = ("Outstanding (₹ crore)", "Share of deposits", "YoY growth")
    assert with_columns("Total deposits 4,41,600 100.0% 13.6%", deposits, "crore") == (
        "Total deposits — Outstanding (₹ crore): 4,41,600; Share of deposits: 100.0%; YoY growth: 13.6%")
    # "(In millions)" above year columns: the headers do not say it, so the row is left for the unit to be added
    assert with_columns("Net sales 5,213 4,990", ("2019", "2018"), "millions") == "Net sales 5,213 4,990"
    assert with_columns("Net sales 5,213 4,990", ("2019", "2018")) == "Net sales — 2019: 5,213; 2018: 4,990"
    # the header states the unit as an annual report's column note does ("$'000"), read by the units reader
    assert with_columns("Revenue 5,213 4,990", ("2019 $'000", "2018 $'000"), "thousands") == (
        "Revenue — 2019 $'000: 5,213; 2018 $'000: 4,990")
    # a header that names another unit, or the unit's letters inside a word ("Crore-linked"), does not state it
    assert with_columns("Total deposits 4,41,600 13.6%", ("Outstanding (₹ lakh)", "YoY growth"), "crore") == (
        "Total deposits 4,41,600 13.6%")
    assert with_columns("Bonds 4,41,600 13.6%", ("Thousandsfold", "YoY growth"), "thousands") == (
        "Bonds 4,41,600 13.6%")
    # lakh crore is its own unit: stated by "(₹ lakh crore)", which states no crore
    assert with_columns("FY2025 10.50 28.6%", ("Value (₹ lakh crore)", "YoY growth"), "lakh crore") == (
        "FY2025 — Value (₹ lakh crore): 10.50; YoY growth: 28.6%")
    assert with_columns("FY2025 10.50 28.6%", ("Value (₹ lakh crore)", "YoY growth"), "crore") == (
        "FY2025 10.50 28.6%")
