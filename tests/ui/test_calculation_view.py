"""The Calculation expander under a Chat answer: formula, source, the inputs table, missing inputs."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script(calc):
    from prism.ui.calculation_view import calculation_details

    calculation_details({"calculation": calc})


def _page(calculation):
    return AppTest.from_function(_script, kwargs={"calc": calculation}).run()


def test_inputs_table_and_formula_are_shown():
    at = _page({"metric": "operating margin", "formula": "operating income / revenue", "source": "the question",
                "result": "11.9 %", "missing": [], "inputs": [
                    {"line_item": "operating income", "label": "Operating income", "period": "FY2023",
                     "value": "96,310", "unit": "thousands", "citation": 1},
                    {"line_item": "revenue", "label": "Revenues", "period": "FY2023", "value": "812,400",
                     "unit": "thousands", "citation": 2}]})
    assert not at.exception
    assert at.expander[0].label == "Calculation: operating margin = 11.9 %"
    assert at.markdown[0].value == "**Formula:** operating income / revenue"
    table = at.table[0].value
    assert list(table["value"]) == ["96,310", "812,400"] and list(table["cited"]) == ["[1]", "[2]"]


def test_missing_inputs_are_named_and_nothing_without_a_calculation():
    at = _page({"metric": "inventory turnover", "formula": "f", "source": "s", "result": None, "inputs": [],
                "missing": ["FY2020 inventory"]})
    assert at.expander[0].label == "Calculation: inventory turnover = not computed"
    assert at.warning[0].value == "Not found: FY2020 inventory"
    assert len(_page(None).expander) == 0
