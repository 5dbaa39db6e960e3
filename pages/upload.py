"""Upload: add documents (the types the service lists) or a web page to the selected workspace."""

from __future__ import annotations

import streamlit as st

from prism.service import supported_file_types
from prism.types import file_types_phrase
from prism.ui import upload_view, widgets
from prism.ui.explain import escape_markdown

widgets.page_guard()
service = widgets.service()
info = widgets.current_workspace(service)
if info is None:
    widgets.page_header("Upload documents")
    widgets.no_workspace()
    st.stop()

limit = service.settings.max_upload_mb
widgets.page_header(
    "Upload documents",
    f"Add files to **{escape_markdown(info.name)}**. Each document is indexed in the background and searchable as "
    "soon as it is done; you get a short briefing for every new one.",
)

file_types = supported_file_types()
with st.form("upload.form", clear_on_submit=True, border=True):
    files = st.file_uploader(
        file_types_phrase(file_types), type=[ext.lstrip(".") for t in file_types for ext in t.extensions],
        accept_multiple_files=True, key="upload.files",
        help=f"Up to {limit} MB per file. Scanned PDF pages are read with OCR.",
    )
    url = st.text_input("…or a web page", placeholder="https://www.rbi.org.in/…", key="upload.url")
    submitted = st.form_submit_button("Add to workspace", type="primary", icon=":material/add:")

if submitted:
    batch = upload_view.submit(service, info, files or [], url)
    if batch is None:
        st.warning("Choose one or more files, or enter a web address, then press **Add to workspace**.")

upload_view.batches_section(service, info)
upload_view.workspace_summary(service, info)
