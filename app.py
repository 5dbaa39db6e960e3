"""Prism: the Streamlit entry point (run with ``streamlit run app.py``).

Sets up logging and the page, asks for the access code when one is configured, builds the sample workspace on the
very first start, draws the shared sidebar and runs the selected page. No logic lives here.
"""

from __future__ import annotations

import logging

import streamlit as st

from prism.ui import resources, widgets

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

st.set_page_config(page_title="Prism", page_icon="💠", layout="wide", initial_sidebar_state="expanded")

if not widgets.access_granted():
    st.navigation([st.Page(widgets.access_gate, title="Prism", url_path="access")], position="hidden").run()
    st.stop()

widgets.mark_entered()
service = widgets.service()
widgets.ensure_first_start(service)
widgets.sidebar(service)

# url_path differs from each file's name on purpose: Streamlit's legacy pages/ routing (and AppTest, which uses it)
# then never runs a page script alone, so every run draws the sidebar and the page from one state.
navigation = st.navigation(
    [
        st.Page("pages/chat_page.py", title="Chat", icon=":material/forum:", url_path="chat", default=True),
        st.Page("pages/compare_page.py", title="Compare", icon=":material/grid_on:", url_path="compare"),
        st.Page("pages/upload_page.py", title="Upload", icon=":material/upload_file:", url_path="upload"),
        st.Page("pages/workspaces_page.py", title="Workspaces", icon=":material/folder_open:", url_path="workspaces"),
        st.Page("pages/eval_page.py", title="Evaluation", icon=":material/monitoring:", url_path="eval"),
    ],
    position="top",
)
try:
    navigation.run()
finally:
    resources.warm_up()  # the models load in the background once the first page is drawn
