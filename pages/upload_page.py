"""Upload: add documents (the types the service lists) or a web page to the workspace in use, which the page names."""

from __future__ import annotations

import streamlit as st

from prism.service import supported_file_types
from prism.types import file_types_phrase
from prism.ui import upload_view, widgets
from prism.ui.explain import literal

service, info = widgets.workspace_page("Upload documents")

limit = service.settings.max_upload_mb
widgets.page_header(
    "Upload documents",
    f"Add files to **{literal(info.name)}**. Each document is indexed in the background and searchable as soon as "
    "it is done; you get a short briefing for every new one. Two files with the same name in one batch are both kept "
    "(the second as “name (2)”); a file named like one already in the workspace replaces it.",
)

file_types = supported_file_types()
with st.container(border=True):  # no form: choosing files reruns the page, so the "not added yet" line shows
    st.file_uploader(
        file_types_phrase(file_types), type=[ext.lstrip(".") for t in file_types for ext in t.extensions],
        accept_multiple_files=True, key=upload_view.files_key(),
        help=f"Up to {limit} MB per file. Scanned PDF pages are read with OCR.",
    )
    st.text_input("…or a web page", placeholder="https://www.rbi.org.in/…", key=upload_view.url_key())
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button(f"Add to {literal(info.name)}", type="primary", icon=":material/add:", key="upload.add",
                  on_click=upload_view.on_submit, args=(service, info))
        upload_view.staged_status()

upload_view.batches_section(service, info)
upload_view.workspace_summary(service, info)
