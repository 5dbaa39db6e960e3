"""The one display rule (prism/ingestion/titles.py display_title, prism.service.document_title)."""

from __future__ import annotations

import pytest

from prism.ingestion.titles import display_title, is_opaque
from prism.service import document_title
from prism.types import DocumentProfile, DocumentRecord
from tests.builders import HASH_NAME, PENSION_DISPLAY


@pytest.mark.parametrize("text, opaque", [
    ("05MC010420252ED8A74EE428468287D815016A33587F", True), ("2024", True), ("13", True), ("", True),
    ("2ed8a74e 1234", True), ("Master Circular – Pension", False), ("3M 2022 10K", False),
])
def test_is_opaque(text, opaque):
    assert is_opaque(text) is opaque


def test_display_rule_order():
    assert display_title(HASH_NAME, PENSION_DISPLAY) == PENSION_DISPLAY
    assert display_title(HASH_NAME, "  Master   Circular ") == "Master Circular"
    assert display_title(HASH_NAME, "2024") == HASH_NAME  # a number is no title
    assert display_title(HASH_NAME, "9F3A2B1C77DD") == HASH_NAME  # a hash is no title
    assert display_title("NETFLIX_2015_10K.pdf", None, "Netflix, Inc. 10-K FY2015") == "NETFLIX_2015_10K.pdf"
    assert display_title(HASH_NAME, None, "Netflix, Inc. 10-K FY2015") == "Netflix, Inc. 10-K FY2015"
    assert display_title(HASH_NAME, None, None) == HASH_NAME


def test_document_title_reads_the_effective_profile():
    profile = DocumentProfile("Reserve Bank of India", None, "rbi_master_circular", None, None, "INR", None,
                              title=PENSION_DISPLAY)
    record = DocumentRecord(doc_id="a" * 64, source=HASH_NAME, kind="pdf", pages=2, chunks=2,
                            profile=profile.to_dict())
    assert document_title(record) == PENSION_DISPLAY
    corrected = DocumentRecord(doc_id="a" * 64, source=HASH_NAME, kind="pdf", pages=2, chunks=2,
                               profile=profile.to_dict(), profile_corrections={"title": "Pension circular"})
    assert document_title(corrected) == "Pension circular"
    bare = DocumentRecord(doc_id="b" * 64, source=HASH_NAME, kind="pdf", pages=2, chunks=2)
    assert document_title(bare) == HASH_NAME
