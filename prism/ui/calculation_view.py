"""The work behind a derived figure under a Chat answer: the formula, its source and the inputs table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from prism.ui.explain import literal


def calculation_details(answer: Mapping[str, Any]) -> None:
    """An expander with the answer's ``calculation`` (``Answer.to_dict()["calculation"]``): metric, formula, where
    the definition comes from, and one row per input (line item, row label, period, value, unit, citation [n]);
    nothing when the answer computed no figure."""
    calc = answer.get("calculation")
    if not calc:
        return
    result = calc.get("result") or "not computed"
    with st.expander(f"Calculation: {calc.get('metric', '')} = {result}", icon=":material/calculate:"):
        st.markdown(f"**Formula:** {literal(calc.get('formula', ''))}")
        st.caption(f"Definition: {literal(calc.get('source', ''))}")
        inputs = calc.get("inputs") or []
        if inputs:
            st.table([{"line item": i.get("line_item"), "row": i.get("label"), "period": i.get("period"),
                       "value": i.get("value"), "unit": i.get("unit") or "", "cited": f"[{i.get('citation')}]"}
                      for i in inputs])
        if calc.get("missing"):
            st.warning("Not found: " + literal(", ".join(calc["missing"])), icon=":material/report:")
