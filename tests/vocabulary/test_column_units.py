"""The unit a column header notes for its cells ("2019 $’000", "2019 €m"): read when the table states none, so a
cell is quoted with its scale ("-$9,819 thousand"), never as a bare number the reader must scale."""

from __future__ import annotations

import pytest

from prism.vocabulary.units import column_unit


@pytest.mark.parametrize(("header", "unit"), [
    ("2019 $’000", "thousands"), ("2018 $’000 RESTATED3", "thousands"), ("RMB'000", "thousands"),
    ("Expressed in US $000's", "thousands"), ("$000s", "thousands"), ("(in thousands)", "thousands"),
    ("2019 €m", "millions"), ("RMB’Million", "millions"), ("US$ mn", "millions"), ("F19 $m 53 WEEKS", "millions"),
    ("£bn", "billions"), ("₹ crore", "crore"), ("(₹ lakh)", "lakh"),
    ("2019", None), ("Change (%)", None), ("December 31, 2019", None), ("Year 2000", None), ("Total 000", None),
    ("Amount Billed 2019", None),
])
def test_a_column_header_notes_its_unit(header, unit):
    assert column_unit(header) == unit
