"""Conversations that last, through AppTest: a chat is saved with its first question and listed in the
sidebar (newest first), survives a refresh (a new session with ``?ws=…&c=…``) and a restart, can be reopened,
renamed and deleted; "New chat" starts another; the list never shows another workspace's conversations; the page
says conversations are shared by everyone who opens the workspace."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from prism.config import Settings
from prism.service import PrismService
from prism.types import ChatTurn
from prism.ui import conversations_view
from prism.ui import state as ui_state
from prism.ui.explain import literal, shorten
from tests.ui.apptest_helpers import app as _app
from tests.ui.apptest_helpers import click as _click
from tests.ui.apptest_helpers import no_exception as _no_exception
from tests.ui.apptest_helpers import texts as _texts

Q1 = "What is the P2P collect request limit?"
Q2 = "What is the MDR for RuPay credit cards on UPI?"


def _listed(at: AppTest) -> list[str]:
    """The conversation titles in the sidebar, top to bottom (the open one is bold), as :func:`_short` gives them."""
    return [b.label.strip("*").replace("\\", "") for b in at.sidebar.button
            if b.key and b.key.startswith("conv.open.")]


def _short(title: str) -> str:
    return shorten(title, 38)


def _questions(at: AppTest) -> list[str]:
    return [m.markdown[0].value.replace("\\", "") for m in at.chat_message if m.name == "user"]


def test_a_chat_is_saved_listed_and_reopened_after_a_refresh(with_sample, service_factory, embedder):
    at = _app().run()
    assert _listed(at) == []
    assert any(conversations_view.SHARED_NOTE in c.value for c in at.sidebar.caption)
    at.chat_input[0].set_value(Q1).run()
    _no_exception(at)
    assert _listed(at) == [_short(Q1)]  # listed in the run that saved it
    ws_id = at.session_state[ui_state.WORKSPACE]
    conv_id = at.query_params[ui_state.QUERY_CONVERSATION]
    assert at.query_params[ui_state.QUERY_WORKSPACE] == ws_id and conv_id.startswith("c-")
    at.chat_input[0].set_value(Q2).run()
    assert _questions(at) == [Q1, Q2] and _listed(at) == [_short(Q1)]
    assert conversations_view.SHARED_NOTE in [c.value for c in at.caption]

    # A refresh (a new session on the same address) and an app restart (a new service) reopen it.
    refreshed = _app()
    refreshed.query_params[ui_state.QUERY_WORKSPACE] = ws_id
    refreshed.query_params[ui_state.QUERY_CONVERSATION] = conv_id
    refreshed.run()
    _no_exception(refreshed)
    assert _questions(refreshed) == [Q1, Q2]
    assert any(e.label.startswith("[1] ") for e in refreshed.expander)  # the sources come back with it
    saved = PrismService(Settings(home=with_sample), embedder=embedder).conversations("Sample workspace")
    assert [t.question for t in saved.get(conv_id).turns] == [Q1, Q2]

    # A session opened without the link starts a new chat and lists the saved one.
    other = _app().run()
    assert _questions(other) == [] and _listed(other) == [_short(Q1)]
    _click(other, literal(_short(Q1)))
    assert _questions(other) == [Q1, Q2]
    assert other.query_params[ui_state.QUERY_CONVERSATION] == conv_id


def test_new_chat_rename_and_delete_from_the_sidebar(with_sample, service_factory):
    at = _app().run()
    at.chat_input[0].set_value(Q1).run()
    first = at.query_params[ui_state.QUERY_CONVERSATION]
    at = _click(at, "New chat")
    assert _questions(at) == [] and ui_state.QUERY_CONVERSATION not in at.query_params
    at.chat_input[0].set_value(Q2).run()
    second = at.query_params[ui_state.QUERY_CONVERSATION]
    assert second != first and _listed(at) == [_short(Q2), _short(Q1)]  # newest first

    at.sidebar.text_input(key=f"conv.title.{first}").set_value("Collect limits")
    at.sidebar.button(key=f"conv.rename.{first}").click().run()
    _no_exception(at)
    assert any("Conversation renamed to **Collect limits**" in s.value for s in at.success)
    assert _listed(at) == ["Collect limits", _short(Q2)]  # renamed: now the most recent change
    assert _questions(at) == [Q2]  # the open conversation did not change

    at.sidebar.button(key=f"conv.delete.{second}").click().run()
    _no_exception(at)
    assert _listed(at) == ["Collect limits"]
    assert _questions(at) == [] and ui_state.QUERY_CONVERSATION not in at.query_params  # the open one was deleted

    # A link to a deleted conversation opens a new chat with a message.
    stale = _app()
    stale.query_params[ui_state.QUERY_WORKSPACE] = at.session_state[ui_state.WORKSPACE]
    stale.query_params[ui_state.QUERY_CONVERSATION] = second
    stale.run()
    _no_exception(stale)
    assert _questions(stale) == [] and any("no longer saved" in i.value for i in stale.info)


def test_conversations_belong_to_their_workspace(with_sample, service_factory, embedder):
    svc = PrismService(Settings(home=with_sample), embedder=embedder)
    other = svc.create_workspace("Other")
    store = svc.conversations("Other")
    conv = store.create()
    store.append(conv.id, ChatTurn("A question asked in Other", {"answer": "x"}))

    at = _app().run()
    assert _listed(at) == []  # the sample workspace has none
    at.chat_input[0].set_value(Q1).run()
    assert _listed(at) == [_short(Q1)]
    at.sidebar.selectbox(key=ui_state.PICKER).select(other.id).run()
    _no_exception(at)
    assert _listed(at) == ["A question asked in Other"]
    assert ui_state.QUERY_CONVERSATION not in at.query_params  # nothing open here yet
    # a conversation id of another workspace opens nothing in this one
    leak = _app()
    leak.query_params[ui_state.QUERY_WORKSPACE] = other.id
    leak.query_params[ui_state.QUERY_CONVERSATION] = svc.conversations("Sample workspace").list()[0].id
    leak.run()
    assert _questions(leak) == [] and "A question asked in Other" in _listed(leak)
    assert "Sample" not in _texts(leak).split("Answers from")[-1][:40]
