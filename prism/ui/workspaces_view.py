"""The Workspaces page's pieces: create, rename, switch, delete (confirmed), the document table with profiles
(details and corrections: :mod:`prism.ui.profile_view`), delete a document.

Workspace actions are widget callbacks (:mod:`prism.ui.state`): the sidebar drawn in the same run already shows them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import streamlit as st

from prism.errors import PrismError
from prism.service import PrismService, document_title
from prism.types import AuditEntry, DocumentRecord, WorkspaceInfo, briefing_points, count_phrase
from prism.ui import profile_view, state, widgets
from prism.ui.explain import injection_flag, literal, strip_source


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
    applied), file type, pages, chunks, date, size, warnings, sentences addressed to an AI assistant
    (:func:`~prism.ui.explain.injection_flag`), briefing."""
    rows = []
    for d in docs:
        notes = [strip_source(w, d.source) for w in d.warnings]
        if d.skipped_pages:
            notes.append(f"{count_phrase(len(d.skipped_pages), 'page')} skipped")
        if d.ocr_pages:
            notes.append(f"{count_phrase(len(d.ocr_pages), 'page')} read by OCR")
        _identity, bullets = briefing_points(d.briefing)
        rows.append({
            "Document": document_title(d),
            "File": d.source,
            **profile_view.profile_columns(d),
            "Type": d.kind.upper(),
            "Pages": str(d.pages) if d.pages else "—",
            "Chunks": d.chunks,
            "Added": _when(d.ingested_at),
            "Size": _size(d.size_bytes),
            "Warnings": "; ".join(notes),
            "Addressed to an AI": injection_flag(d.injections),
            "Briefing": bullets[0].text if bullets else "—",
        })
    return rows


def _titled(titles: dict[str, str], source: str) -> str:
    """``"title (file name)"``, or the file name alone when it is the title."""
    title = titles.get(source, source)
    return source if title == source else f"{title} ({source})"


# --- actions (widget callbacks: they run before the script draws, so the sidebar and every page agree) -------
def _create(service: PrismService) -> None:
    try:
        info = service.create_workspace(str(st.session_state.get("ws.create.name") or ""), actor=state.actor())
    except PrismError as e:
        state.flash(literal(str(e)), "error")
        return
    state.select_workspace(info.id)
    state.flash(f"Workspace **{literal(info.name)}** created and selected. Add documents on the Upload page.")


def _rename(service: PrismService, ws_id: str) -> None:
    info = next((w for w in service.workspaces() if w.id == ws_id), None)
    new = " ".join(str(st.session_state.get(f"ws.rename.{ws_id}") or "").split())
    if info is None:
        state.flash("That workspace no longer exists (it was deleted).", "error")
    elif new == info.name:
        state.flash("That is already its name.", "info")
    else:
        try:
            renamed = service.rename_workspace(info.name, new, actor=state.actor())
        except PrismError as e:
            state.flash(literal(str(e)), "error")
            return
        state.select_workspace(renamed.id)
        state.flash(f"Renamed to **{literal(renamed.name)}**.")


def _delete(service: PrismService, ws_id: str) -> None:
    st.session_state.pop(state.CONFIRM, None)
    info = next((w for w in service.workspaces() if w.id == ws_id), None)
    if info is None:
        state.flash("That workspace was already deleted.", "info")
        return
    try:
        service.delete_workspace(info.name, actor=state.actor())
    except PrismError as e:
        state.flash(literal(str(e)), "error")
        return
    state.forget_workspace(info.id)
    if state.workspace_id() == info.id:
        state.select_workspace(None)  # the next run shows the sample workspace (or the first one)
    state.flash(f"Workspace **{literal(info.name)}** deleted.")


def _confirm(value: tuple[str, ...] | None) -> None:
    if value is None:
        st.session_state.pop(state.CONFIRM, None)
    else:
        st.session_state[state.CONFIRM] = value


# --- drawing --------------------------------------------------------------------------------------------------
def create_form(service: PrismService) -> None:
    """A small form to create a workspace (and use it)."""
    with st.form("ws.create", clear_on_submit=True, border=True):
        st.markdown("**New workspace**")
        st.text_input("Name", placeholder="e.g. Q3 regulatory review", key="ws.create.name")
        st.form_submit_button("Create workspace", type="primary", icon=":material/create_new_folder:",
                              on_click=_create, args=(service,))


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
            count = count_phrase(n, "document")
            if i.id == current.id:
                st.markdown(f":material/check_circle: **{literal(i.name)}**  \n:gray[{count} · in use]")
            else:
                st.button(f"{literal(i.name)} · {count}", key=f"ws.open.{i.id}", type="tertiary",
                          icon=":material/folder:", help="Use this workspace", on_click=state.select_workspace,
                          args=(i.id,))


def manage(service: PrismService, info: WorkspaceInfo) -> None:
    """Rename or delete the workspace in use (delete asks for confirmation)."""
    with st.form(f"ws.rename.form.{info.id}", clear_on_submit=False, border=False):
        st.text_input("Rename to", value=info.name, key=f"ws.rename.{info.id}")
        st.form_submit_button("Rename", icon=":material/edit:", on_click=_rename, args=(service, info.id))

    if st.session_state.get(state.CONFIRM) == ("workspace", info.id):
        st.warning(f"Delete **{literal(info.name)}** with all its documents, indexes, briefings and saved "
                   "conversations? This cannot be undone.", icon=":material/warning:")
        yes, no, _ = st.columns([1, 1, 2])
        yes.button("Yes, delete it", type="primary", key="ws.delete.yes", on_click=_delete, args=(service, info.id))
        no.button("Cancel", key="ws.delete.no", on_click=_confirm, args=(None,))
    else:
        st.button("Delete workspace…", key="ws.delete", icon=":material/delete:", on_click=_confirm,
                  args=(("workspace", info.id),))


def _no_documents(service: PrismService, info: WorkspaceInfo) -> None:
    """An empty workspace: point to Upload; an empty sample workspace can be rebuilt from the sample documents."""
    st.info("No documents yet. Add some on the Upload page.", icon=":material/inbox:")
    st.page_link("pages/upload_page.py", label="Upload documents", icon=":material/upload_file:")
    if info.name.casefold() == service.settings.sample_workspace.casefold():
        widgets.restore_sample_button(f"ws.sample.{info.id}", "Rebuild the sample workspace")


def documents(service: PrismService, info: WorkspaceInfo) -> None:
    """The workspace's document table and deleting one document (confirmed)."""
    try:
        docs = service.documents(info.name)
    except PrismError as e:
        st.error(literal(str(e)))
        return
    if not docs:
        _no_documents(service, info)
        return
    pages = sum(d.pages or 0 for d in docs)
    chunks = sum(d.chunks for d in docs)
    st.caption(" · ".join([count_phrase(len(docs), "document"), count_phrase(pages, "page"),
                           count_phrase(chunks, "chunk")]))
    st.dataframe(
        document_rows(docs), hide_index=True, width="stretch",
        column_config={
            "Document": st.column_config.TextColumn(width="medium"),
            "Period": st.column_config.TextColumn(width=95),  # "Q2 FY2023" whole (auto width cut "FY201…")
            "Pages": st.column_config.TextColumn(width="small"),
            "Chunks": st.column_config.NumberColumn(format="%d"),
            "Warnings": st.column_config.TextColumn(width="medium"),
            "Briefing": st.column_config.TextColumn("Briefing (first point)", width="large"),
        },
    )
    with st.expander("Each document: its briefing, profile, corrections and removed running lines",
                     icon=":material/badge:"):
        profile_view.details(service, info, docs)
    sources = [d.source for d in docs]
    confirm = st.session_state.get(state.CONFIRM)
    if isinstance(confirm, tuple) and confirm[:2] == ("document", info.id) and confirm[2] in sources:
        source = confirm[2]
        st.warning(f"Delete **{literal(source)}** from {literal(info.name)}? Its passages will no "
                   "longer be searched.", icon=":material/warning:")
        yes, no, _ = st.columns([1, 1, 2])
        if yes.button("Yes, delete it", type="primary", key="doc.delete.yes"):
            st.session_state.pop(state.CONFIRM, None)
            try:
                service.delete_document(source, info.name, actor=state.actor())
            except PrismError as e:
                st.error(literal(str(e)))
                return
            state.flash(f"Deleted **{literal(source)}**.")
            st.rerun()
        if no.button("Cancel", key="doc.delete.no"):
            st.session_state.pop(state.CONFIRM, None)
            st.rerun()
        return
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    with left:
        titles = {d.source: document_title(d) for d in docs}
        chosen = st.selectbox("Remove a document", sources, index=None, placeholder="Choose a document…",
                              key=f"doc.pick.{info.id}", format_func=lambda s: _titled(titles, s))
    with right:
        if st.button("Delete…", key="doc.delete", icon=":material/delete:", disabled=chosen is None,
                     width="stretch"):
            st.session_state[state.CONFIRM] = ("document", info.id, chosen)
            st.rerun()


def audit_rows(entries: list[AuditEntry]) -> list[dict[str, str]]:
    """The audit table's rows, newest first: ``{"Time", "Who", "Action", "Target"}`` (plain text: a data frame
    shows it literally, so a file name with Markdown or HTML in it stays what it is)."""
    return [{"Time": _when(e.time), "Who": e.actor, "Action": e.label, "Target": e.target}
            for e in reversed(entries)]


def audit_trail(service: PrismService, info: WorkspaceInfo) -> None:
    """The workspace's audit log (:meth:`PrismService.audit`): who added, replaced or deleted a document, renamed
    the workspace, gave feedback or exported something, newest first."""
    try:
        entries = service.audit(info.name)
    except PrismError as e:
        st.error(literal(str(e)))
        return
    if not entries:
        st.caption("Nothing recorded yet.")
        return
    st.caption(f"{count_phrase(len(entries), 'event')} · Who: the browser session that did it, or cli and the shell "
               "user for the command line.")
    st.dataframe(audit_rows(entries), hide_index=True, width="stretch", key=f"ws.audit.{info.id}",
                 column_config={"Target": st.column_config.TextColumn(width="large")})


def index_notice(service: PrismService, info: WorkspaceInfo) -> None:
    """When the workspace's vector index is damaged on disk, or was built by another embedding model or backend
    than the one configured (e.g. a workspace built on torch, opened with ``PRISM_EMBED_BACKEND=onnx-int8``), say
    why it cannot be searched and offer to rebuild it (:meth:`PrismService.reindex`): a damaged one from its stored
    chunks, another model's from its kept originals."""
    try:
        damaged = service.index_damage(info.name)
        reason = damaged or service.index_mismatch(info.name)
    except PrismError as e:
        st.error(literal(str(e)))
        return
    if reason is None:
        return
    st.warning(literal(reason), icon=":material/sync_problem:")
    what = ("Re-embed every document's stored chunks (nothing is parsed again)" if damaged else
            "Re-chunk and re-embed every document from its kept original with the embedder configured now")
    if not st.button("Reindex this workspace", key=f"ws.reindex.{info.id}", type="primary",
                     icon=":material/autorenew:", help=f"{what}. Chats, briefings and profile corrections are kept."):
        return
    with st.status(f"Re-indexing {info.name}…", expanded=True) as box:
        bar = st.progress(0.0, text="Starting")
        def show(fraction: float, message: str) -> None:
            bar.progress(min(max(fraction, 0.0), 1.0), text=message)

        try:
            results = service.reindex(info.name, progress=show, from_chunks=damaged is not None)
        except PrismError as e:
            box.update(label="Re-indexing failed", state="error")
            st.error(literal(str(e)))
            return
        box.update(label="Re-indexed", state="complete", expanded=False)
    failed = [r for r in results if r.status == "failed"]
    note = f"; {count_phrase(len(failed), 'document')} failed: " + ", ".join(r.file for r in failed) if failed else ""
    state.flash(f"Re-indexed **{literal(info.name)}**: {count_phrase(len(results) - len(failed), 'document')}{note}.",
                "warning" if failed else "success")
    st.rerun()
