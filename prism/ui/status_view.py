"""The sidebar's status lines: how answers are made (LLM or extractive), the reranker, and the embedder's backend
(with the reason when it fell back to torch). Nothing here loads a model: the states are read as they are."""

from __future__ import annotations

import streamlit as st

from prism.service import PrismService


def status(service: PrismService) -> None:
    """Draw the status captions of the sidebar."""
    llm = service.llm_status()
    if llm.get("mode") == "llm":
        st.caption(f":green[●] LLM answers · `{llm.get('model', '')}`")
    else:
        st.caption(":gray[●] Extractive answers — no LLM configured")
    reranker = service.reranker_state()
    if reranker.enabled:
        st.caption(f":green[●] Reranker · `{reranker.model.rsplit('/', 1)[-1]}`")
    else:
        st.caption(":gray[●] Reranker off — fusion order is kept")
    embedder = service.embedder_state()
    loading = "" if embedder["loaded"] else " (loading)"
    if embedder["reason"]:
        st.caption(f":orange[●] Embedder · `{embedder['backend']}`", help=embedder["reason"])
    else:
        st.caption(f":green[●] Embedder · `{embedder['backend']}`{loading}")
