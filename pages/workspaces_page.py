"""Workspaces: create, rename and delete workspaces; see and remove their documents."""

from __future__ import annotations

import streamlit as st

from prism.ui import widgets, workspaces_view
from prism.ui.explain import literal

widgets.page_guard()
service = widgets.service()
info = widgets.current_workspace(service)
widgets.page_header("Workspaces", "Each workspace has its own documents, indexes and chats.")

left, right = st.columns([3, 1], gap="large")
with right:
    workspaces_view.create_form(service)
    if info is not None:
        workspaces_view.overview(service, info)
with left:
    if info is None:
        widgets.no_workspace()
        st.stop()
    st.subheader(literal(info.name), anchor=False)
    workspaces_view.index_notice(service, info)
    workspaces_view.documents(service, info)
    with st.expander("Rename or delete this workspace", icon=":material/settings:"):
        workspaces_view.manage(service, info)
    with st.expander("Audit trail: who added, deleted, renamed or exported what", icon=":material/history:"):
        workspaces_view.audit_trail(service, info)
