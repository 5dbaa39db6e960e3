"""A document's briefing as a card: shown under an upload's results and in the Workspaces page's document details, so
a briefing can be read again after the upload (its points with their pages, the questions it suggests, the Markdown
download)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from prism.service import briefing_markdown, document_title
from prism.types import WorkspaceInfo, briefing_points, count_phrase
from prism.ui import state
from prism.ui.explain import literal
from prism.ui.resources import get_service


def briefing_card(info: WorkspaceInfo, record: Any, name: str, key: str) -> None:
    """One document's briefing: its identity line, its points with their pages, 3 question buttons that open the Chat
    with that question, and a Markdown download."""
    with st.container(border=True):
        title = document_title(record) if record is not None else name
        st.markdown(f"**:material/description: {literal(title)}**")
        if title != name:
            st.caption(f"File: {literal(name)}")
        if record is None:
            st.caption("This document is no longer in the workspace.")
            return
        facts = [count_phrase(record.pages, "page") if record.pages else record.kind.upper(),
                 count_phrase(record.chunks, "chunk")]
        briefing = record.briefing or {}
        if briefing.get("mode") == "llm":
            facts.append(f"briefing by {literal(briefing.get('model') or 'the LLM')}")
        elif briefing:
            facts.append("built from the document's profile, tables and headings (no LLM)")
        st.caption(" · ".join(facts))
        identity, bullets = briefing_points(briefing)
        if identity is not None:
            st.caption(literal(identity.text) + identity.pages_note())
        if not bullets:
            st.caption("No briefing was written for this document.")
        else:
            st.markdown("\n".join(f"- {_labelled(b.label())}{literal(b.text)}{b.pages_note()}" for b in bullets))
            name = f"{record.source.rsplit('.', 1)[0]}_briefing.md"
            st.download_button("Download the briefing (Markdown)", briefing_markdown(record), file_name=name,
                               mime="text/markdown", key=f"briefing-md.{key}", icon=":material/download:",
                               on_click=state.record_export, args=(get_service(), info.name, "briefing", name))
        questions = briefing.get("questions") or []
        if questions:
            st.caption("Ask about it")
            for j, q in enumerate(questions):
                if st.button(literal(q), key=f"brief.{key}.{j}", icon=":material/forum:", width="stretch"):
                    state.ask_in_chat(info.id, q)
                    st.switch_page("pages/chat_page.py")


def _labelled(label: str) -> str:
    """``"**Applies to:** "`` before a point of a labelled kind (:meth:`prism.types.BriefingBullet.label`), else
    ``""``."""
    return f"**{literal(label)}:** " if label else ""
