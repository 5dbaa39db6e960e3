"""Chat: ask questions about the selected workspace and read cited answers."""

from __future__ import annotations

import streamlit as st

from prism.errors import PrismError
from prism.ui import chat_view, state, widgets
from prism.ui.explain import escape_markdown
from prism.ui.export import conversation_markdown

widgets.page_guard()
service = widgets.service()
info = widgets.current_workspace(service)
if info is None:
    widgets.page_header("Chat")
    widgets.no_workspace()
    st.stop()

try:
    docs = service.documents(info.name)
except PrismError as e:
    widgets.page_header("Chat")
    st.error(str(e))
    st.stop()

chosen = state.doc_filter(info.id)
scope = f"{len(chosen)} of {len(docs)} documents" if chosen else f"{len(docs)} document{'s' if len(docs) != 1 else ''}"
widgets.page_header("Chat", f"Answers from **{escape_markdown(info.name)}** · {scope} · every claim cited")

if not docs:
    widgets.empty_workspace(service, info)
    st.stop()

messages = state.chat(info.id)
typed = st.chat_input(f"Ask about {info.name}…", key="chat.input")
pending = state.pop_pending_question(info.id)
question = (typed or pending or "").strip()
if not messages and not question:
    widgets.suggested_questions(docs, info)

for i, msg in enumerate(messages):
    chat_view.message(service, info, msg, i)

if question:
    chat_view.ask(service, info, question, widgets.effective_options(), chosen)

if messages:
    st.divider()
    with st.container(horizontal=True):
        st.download_button("Export chat (Markdown)", conversation_markdown(info.name, messages),
                           file_name=f"prism-chat-{info.id}.md", mime="text/markdown", icon=":material/download:",
                           key="chat.export", on_click="ignore", help="The questions, answers and their sources.")
        if st.button("New chat", icon=":material/add_comment:", key="chat.clear"):
            state.clear_chat(info.id)
            st.rerun()
