"""Chat: ask questions about the workspace in use and read cited answers; the conversation is saved."""

from __future__ import annotations

import streamlit as st

from prism.errors import PrismError
from prism.service import document_title
from prism.ui import chat_view, sources_view, state, widgets
from prism.ui.explain import literal

service, info = widgets.workspace_page("Chat")

# Everything above the chat input is in one container, so the input's fragment keeps its place (and its id) however
# many turns the page draws: Enter then reruns that fragment alone.
with st.container():
    try:
        docs = service.documents(info.name)
        conversation = chat_view.open_conversation(service, info)
    except PrismError as e:
        widgets.page_header("Chat")
        st.error(literal(str(e)))
        st.stop()

    chosen = state.doc_filter(info.id)
    scope = (f"{len(chosen)} of {len(docs)} documents" if chosen
             else f"{len(docs)} document{'s' if len(docs) != 1 else ''}")
    title = f" · {literal(conversation.info.title)}" if conversation else ""
    widgets.page_header("Chat", f"Answers from **{literal(info.name)}** · {scope} · every claim cited{title}")
    if not docs:
        widgets.empty_workspace(service, info)
        st.stop()
    turns = conversation.turns if conversation else ()
    chat_view.history(service, info, turns, sources_view.ids_of(docs))

chat_view.live_turns(service, info, docs, chosen, conversation.info.id if conversation else None, len(turns))
if conversation and turns:
    st.divider()
    chat_view.conversation_footer(service, info, conversation, {d.source: document_title(d) for d in docs},
                                  {d.source: d.doc_id for d in docs})
