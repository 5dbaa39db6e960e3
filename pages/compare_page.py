"""Compare: documents side by side, question by question; each cell answered from its own document only."""

from __future__ import annotations

import streamlit as st

from prism.errors import PrismError
from prism.ui import compare_view, widgets
from prism.ui.explain import literal

service, info = widgets.workspace_page("Compare")
widgets.page_header("Compare", f"Documents of **{literal(info.name)}** side by side · every cell answered from its "
                    "own document, with its citation")
try:
    compare_view.page(service, info)
except PrismError as e:
    st.error(literal(str(e)))
