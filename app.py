"""Prism: the Streamlit entry point (run with ``streamlit run app.py``).

Sets up logging and the page, asks for the access code when one is configured, builds the sample workspace on the
very first start, draws the shared sidebar and runs the selected page. No logic lives here.
"""

from __future__ import annotations

import logging

import streamlit as st

from prism.ui import widgets

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

st.set_page_config(page_title="Prism", page_icon="💠", layout="wide", initial_sidebar_state="expanded")

if not widgets.access_granted():
    st.navigation([st.Page(widgets.access_gate, title="Prism", url_path="access")], position="hidden").run()
    st.stop()

widgets.mark_entered()
service = widgets.service()
widgets.ensure_first_start(service)
widgets.sidebar(service)

st.navigation(
    [
        st.Page("pages/chat.py", title="Chat", icon=":material/forum:", default=True),
        st.Page("pages/upload.py", title="Upload", icon=":material/upload_file:"),
        st.Page("pages/workspaces.py", title="Workspaces", icon=":material/folder_open:"),
        st.Page("pages/eval.py", title="Evaluation", icon=":material/monitoring:"),
    ],
    position="top",
).run()
