"""The Workspaces page's document profiles: the profile columns of the document table, and per document its profile
with where each field was read, the running lines that were removed, and a form to correct the profile."""

from __future__ import annotations

from typing import Any

import streamlit as st

from prism.errors import PrismError
from prism.service import PrismService, document_title
from prism.types import (
    CORRECTED_SNIPPET,
    DOCUMENT_TYPE_LABELS,
    DOCUMENT_TYPES,
    PAGE_UNITS,
    PROFILE_UNITS,
    DocumentRecord,
    count_phrase,
    page_label,
)
from prism.types import WorkspaceInfo as Info
from prism.ui import state
from prism.ui.briefing_view import briefing_card
from prism.ui.explain import literal

FIELD_LABELS: dict[str, str] = {
    "entity": "Entity", "ticker": "Ticker", "type": "Document type", "period": "Period",
    "fiscal_year_end": "Fiscal year end", "currency": "Currency", "unit": "Unit", "reference": "Reference",
    "date": "Date", "title": "Title",
}
"""Profile fields in display order, with their labels."""


def profile_columns(record: DocumentRecord) -> dict[str, str]:
    """The document table's profile columns: ``{"Entity", "Doc type", "Period"}`` (``"—"`` when unknown)."""
    profile = record.effective_profile()
    if profile is None:
        return {"Entity": "—", "Doc type": "—", "Period": "—"}
    kind = DOCUMENT_TYPE_LABELS.get(profile.type or "", profile.type or "")
    return {"Entity": profile.entity or "—", "Doc type": kind or "—", "Period": profile.period or "—"}


def profile_rows(record: DocumentRecord) -> list[dict[str, Any]]:
    """One row per profile field: its value, where it was read (page and snippet) or that the analyst set it."""
    profile = record.effective_profile()
    rows = []
    for name, label in FIELD_LABELS.items():
        value = getattr(profile, name) if profile is not None else None
        source = profile.sources.get(name) if profile is not None else None
        if source is not None and source.snippet == CORRECTED_SNIPPET:
            where = "corrected by analyst"
        elif source is not None:
            where = (f"page {source.page}: " if source.page is not None else "") + source.snippet
        else:
            where = "corrected by analyst" if name in record.profile_corrections else "—"
        rows.append({"Field": label, "Value": value if value is not None else "—", "Read from": where})
    return rows


def _form(service: PrismService, info: Info, record: DocumentRecord) -> None:
    """The correction form: every field prefilled with its value; only changed fields are sent."""
    profile = record.effective_profile()
    current = {name: (getattr(profile, name) if profile is not None else None) or "" for name in FIELD_LABELS}
    key = f"tag.{record.doc_id[:16]}"
    with st.form(key, border=True):
        st.markdown("**Correct the profile**")
        values: dict[str, str] = {}
        left, right = st.columns(2)
        for i, (name, label) in enumerate(FIELD_LABELS.items()):
            column = left if i % 2 == 0 else right
            if name in ("type", "unit"):
                options = ["", *(DOCUMENT_TYPES if name == "type" else PROFILE_UNITS)]
                index = options.index(current[name]) if current[name] in options else 0
                values[name] = column.selectbox(label, options, index=index, key=f"{key}.{name}",
                                                format_func=lambda o: DOCUMENT_TYPE_LABELS.get(o, o) or "—")
            else:
                values[name] = column.text_input(label, value=current[name], key=f"{key}.{name}")
        save = st.form_submit_button("Save corrections", type="primary", icon=":material/edit_note:")
    changed = {name: (value.strip() or None) for name, value in values.items() if value.strip() != current[name]}
    if save:
        _save(service, info, record, changed, reset=False)
    if record.profile_corrections and st.button("Undo my corrections", key=f"{key}.reset", icon=":material/undo:"):
        _save(service, info, record, {}, reset=True)


def _save(service: PrismService, info: Info, record: DocumentRecord, fields: dict[str, str | None],
          reset: bool) -> None:
    if not fields and not reset:
        st.info("Nothing was changed.")
        return
    try:
        updated = service.tag(record.source, info.name, reset=reset, **fields)
    except PrismError as e:
        st.error(literal(str(e)))
        return
    profile = updated.effective_profile()
    line = profile.line() if profile is not None else ""
    state.flash(f"Profile of **{literal(record.source)}** saved" + (f": {literal(line)}." if line else "."))
    st.rerun()


def details(service: PrismService, info: Info, docs: list[DocumentRecord]) -> None:
    """Pick a document: the sentences in it addressed to an AI assistant (flagged), its briefing, its profile and
    sources, the running lines removed from its pages, and the correction form."""
    by_name = {d.source: d for d in docs}
    chosen = st.selectbox("Document", list(by_name), index=0, key=f"doc.detail.{info.id}",
                          format_func=lambda s: f"{document_title(by_name[s])}" if s in by_name else s)
    record = by_name.get(chosen) if chosen else None
    if record is None:
        return
    if record.injections:
        st.warning(f"**This document has {count_phrase(len(record.injections), 'sentence')} addressed to an AI "
                   "assistant** "
                   "(possible prompt injection). Prism keeps them as document text only: they are never a briefing "
                   "point or quoted as an answer, and the LLM is told not to follow them.\n\n"
                   + "\n".join(f"- {page_label(f.get('page'), page_unit=PAGE_UNITS.get(record.kind))}"
                                f"{': ' if f.get('page') else ''}“{literal(str(f.get('text', '')))}”"
                                for f in record.injections), icon=":material/gpp_maybe:")
    briefing_card(info, record, record.source, key=f"details.{record.doc_id[:12]}")
    profile = record.effective_profile()
    if profile is None:
        st.caption("No profile: this document was indexed before Prism 0.3.0. Re-index the workspace "
                   "(python -m prism reindex --workspace NAME) to read one.")
    else:
        st.markdown(f"**{literal(profile.line() or 'No entity, type or period found')}**")
    st.dataframe(profile_rows(record), hide_index=True, width="stretch",
                 column_config={"Read from": st.column_config.TextColumn(width="large")})
    if record.running_lines:
        st.markdown("**Running headers and footers removed**")
        st.markdown("\n".join(f"- “{literal(r['text'])}”: the {r['position']} of "
                              f"{count_phrase(int(r['pages']), 'page')}" for r in record.running_lines))
    else:
        st.caption("No running header or footer lines were removed.")
    if record.tables:
        st.caption(f"{record.tables} table(s) found: their chunks are cut between rows and indexed under the "
                   "table's title, column headers and unit.")
    _form(service, info, record)
