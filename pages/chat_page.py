"""Chat: ask questions about the workspace in use and read cited answers; the conversation is saved."""

from __future__ import annotations

import streamlit as st

from prism.errors import PrismError
from prism.service import document_title
from prism.ui import chat_view, conversations_view, state, widgets
from prism.ui.explain import literal
from prism.ui.export import conversation_markdown

service, info = widgets.workspace_page("Chat")

try:
    docs = service.documents(info.name)
    conversation = chat_view.open_conversation(service, info)
except PrismError as e:
    widgets.page_header("Chat")
    st.error(literal(str(e)))
    st.stop()

chosen = state.doc_filter(info.id)
scope = f"{len(chosen)} of {len(docs)} documents" if chosen else f"{len(docs)} document{'s' if len(docs) != 1 else ''}"
title = f" · {literal(conversation.info.title)}" if conversation else ""
widgets.page_header("Chat", f"Answers from **{literal(info.name)}** · {scope} · every claim cited{title}")

if not docs:
    widgets.empty_workspace(service, info)
    st.stop()

turns = conversation.turns if conversation else ()
typed = st.chat_input(f"Ask about {info.name}…", key="chat.input")
pending = None if typed else state.pop_pending_question(info.id)
question = (typed or (pending or {}).get("question") or "").strip()
scoped = {k: pending[k] for k in ("auto_scope", "scope_removed")} if pending else {}
if not turns and not question:
    widgets.suggested_questions([d for d in docs if d.source in chosen] if chosen else docs, info)  # filtered

for i, turn in enumerate(turns):
    chat_view.turn_messages(service, info, turn, i)

if question:
    saved = chat_view.ask(service, info, conversation, question, {**widgets.effective_options(), **scoped},
                          chosen)
    if saved is not None and conversation is None:
        st.rerun()  # a new conversation: the sidebar lists it
    conversation = saved or conversation

if conversation and conversation.turns:
    st.divider()
    with st.container(horizontal=True):
        st.download_button("Export chat (Markdown)",
                           conversation_markdown(info.name, conversation.turns, conversation.info.title,
                                                 titles={d.source: document_title(d) for d in docs},
                                                 doc_ids={d.source: d.doc_id for d in docs}),
                           file_name=f"prism-chat-{info.id}-{conversation.info.id}.md", mime="text/markdown",
                           icon=":material/download:", key="chat.export", on_click=state.record_export,
                           args=(service, info.name, "conversation",
                                 f"prism-chat-{info.id}-{conversation.info.id}.md"),
                           help="What the chat shows: the questions, how each was searched, the answers with their "
                                "notes and their sources (marked when no longer in the workspace).")
        st.button("New chat", icon=":material/add_comment:", key="chat.clear", on_click=conversations_view.new_chat,
                  args=(info.id,))
    st.caption(conversations_view.SHARED_NOTE)
