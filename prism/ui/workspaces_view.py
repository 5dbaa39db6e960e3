"""The Workspaces page's pieces: create, rename, delete (confirmed), the document table with profiles (details and
corrections: :mod:`prism.ui.profile_view`), delete a document."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import streamlit as st

from prism.errors import PrismError
from prism.service import PrismService
from prism.types import DocumentRecord, WorkspaceInfo
from prism.ui import profile_view, state
from prism.ui.explain import escape_markdown, strip_source


def _when(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%d %b %Y, %H:%M")
    except ValueError:
        return iso


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / 1024 / 1024:.1f} MB"
    return f"{max(1, round(n / 1024))} KB"


def document_rows(docs: list[DocumentRecord]) -> list[dict[str, Any]]:
    """One row per document for the table: name, entity, document type, period (its profile, corrections
    applied), file type, pages, chunks, date, size, warnings, briefing."""
    rows = []
    for d in docs:
        notes = [strip_source(w, d.source) for w in d.warnings]
        if d.skipped_pages:
            notes.append(f"{len(d.skipped_pages)} page(s) skipped")
        if d.ocr_pages:
            notes.append(f"{len(d.ocr_pages)} page(s) read by OCR")
        briefing = d.briefing or {}
        bullets = briefing.get("bullets") or []
        rows.append({
            "Document": d.source,
            **profile_view.profile_columns(d),
            "Type": d.kind.upper(),
            "Pages": d.pages,
            "Chunks": d.chunks,
            "Added": _when(d.ingested_at),
            "Size": _size(d.size_bytes),
            "Warnings": "; ".join(notes),
            "Briefing": bullets[0] if bullets else "—",
        })
    return rows


def create_form(service: PrismService) -> None:
    """A small form to create a workspace (and select it)."""
    with st.form("ws.create", clear_on_submit=True, border=True):
        st.markdown("**New workspace**")
        name = st.text_input("Name", placeholder="e.g. Q3 regulatory review", key="ws.create.name")
        if st.form_submit_button("Create workspace", type="primary", icon=":material/create_new_folder:"):
            try:
                info = service.create_workspace(name or "")
            except PrismError as e:
                st.error(str(e))
                return
            state.select_workspace(info.id)
            state.flash(f"Workspace **{escape_markdown(info.name)}** created and selected. Add documents on the "
                        "Upload page.")
            st.rerun()


def overview(service: PrismService, current: WorkspaceInfo) -> None:
    """All workspaces with their document counts; a button to switch to each."""
    infos = service.workspaces()
    with st.container(border=True):
        st.markdown(f"**All workspaces** · {len(infos)}")
        for i in infos:
            try:
                n = len(service.documents(i.name))
            except PrismError:
                n = 0
            count = f"{n} document{'s' if n != 1 else ''}"
            if i.id == current.id:
                st.markdown(f":material/check_circle: **{escape_markdown(i.name)}**  \n:gray[{count} · selected]")
            elif st.button(f"{i.name} · {count}", key=f"ws.open.{i.id}", type="tertiary",
                           icon=":material/folder:", help="Open this workspace"):
                state.select_workspace(i.id)
                st.rerun()


def manage(service: PrismService, info: WorkspaceInfo) -> None:
    """Rename or delete the selected workspace (delete asks for confirmation)."""
    with st.form("ws.rename", clear_on_submit=False, border=False):
        new = st.text_input("Rename to", value=info.name, key=f"ws.rename.{info.id}")
        if st.form_submit_button("Rename", icon=":material/edit:"):
            if (new or "").strip() == info.name:
                st.info("That is already its name.")
            else:
                try:
                    renamed = service.rename_workspace(info.name, new or "")
                except PrismError as e:
                    st.error(str(e))
                else:
                    state.flash(f"Renamed to **{escape_markdown(renamed.name)}**.")
                    st.rerun()

    confirm = st.session_state.get(state.CONFIRM)
    if confirm == ("workspace", info.id):
        st.warning(f"Delete **{escape_markdown(info.name)}** with all its documents, indexes and briefings? This "
                   "cannot be undone.", icon=":material/warning:")
        yes, no, _ = st.columns([1, 1, 2])
        if yes.button("Yes, delete it", type="primary", key="ws.delete.yes"):
            st.session_state.pop(state.CONFIRM, None)
            try:
                service.delete_workspace(info.name)
            except PrismError as e:
                st.error(str(e))
                return
            st.session_state.setdefault(state.CHATS, {}).pop(info.id, None)
            state.select_workspace(None)
            state.flash(f"Workspace **{escape_markdown(info.name)}** deleted.")
            st.rerun()
        if no.button("Cancel", key="ws.delete.no"):
            st.session_state.pop(state.CONFIRM, None)
            st.rerun()
    elif st.button("Delete workspace…", key="ws.delete", icon=":material/delete:"):
        st.session_state[state.CONFIRM] = ("workspace", info.id)
        st.rerun()


def documents(service: PrismService, info: WorkspaceInfo) -> None:
    """The workspace's document table and deleting one document (confirmed)."""
    try:
        docs = service.documents(info.name)
    except PrismError as e:
        st.error(str(e))
        return
    if not docs:
        st.info("No documents yet. Add some on the Upload page.", icon=":material/inbox:")
        st.page_link("pages/upload.py", label="Upload documents", icon=":material/upload_file:")
        return
    pages = sum(d.pages or 0 for d in docs)
    chunks = sum(d.chunks for d in docs)
    st.caption(f"{len(docs)} documents · {pages} pages · {chunks} chunks")
    st.dataframe(
        document_rows(docs), hide_index=True, width="stretch",
        column_config={
            "Document": st.column_config.TextColumn(width="medium"),
            "Pages": st.column_config.NumberColumn(format="%d"),
            "Chunks": st.column_config.NumberColumn(format="%d"),
            "Warnings": st.column_config.TextColumn(width="medium"),
            "Briefing": st.column_config.TextColumn("Briefing (first point)", width="large"),
        },
    )
    with st.expander("Document profiles, corrections and removed running lines", icon=":material/badge:"):
        profile_view.details(service, info, docs)
    sources = [d.source for d in docs]
    confirm = st.session_state.get(state.CONFIRM)
    if isinstance(confirm, tuple) and confirm[:2] == ("document", info.id) and confirm[2] in sources:
        source = confirm[2]
        st.warning(f"Delete **{escape_markdown(source)}** from {escape_markdown(info.name)}? Its passages will no "
                   "longer be searched.", icon=":material/warning:")
        yes, no, _ = st.columns([1, 1, 2])
        if yes.button("Yes, delete it", type="primary", key="doc.delete.yes"):
            st.session_state.pop(state.CONFIRM, None)
            try:
                service.delete_document(source, info.name)
            except PrismError as e:
                st.error(str(e))
                return
            state.flash(f"Deleted **{escape_markdown(source)}**.")
            st.rerun()
        if no.button("Cancel", key="doc.delete.no"):
            st.session_state.pop(state.CONFIRM, None)
            st.rerun()
        return
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    with left:
        chosen = st.selectbox("Remove a document", sources, index=None, placeholder="Choose a document…",
                              key=f"doc.pick.{info.id}")
    with right:
        if st.button("Delete…", key="doc.delete", icon=":material/delete:", disabled=chosen is None,
                     width="stretch"):
            st.session_state[state.CONFIRM] = ("document", info.id, chosen)
            st.rerun()
