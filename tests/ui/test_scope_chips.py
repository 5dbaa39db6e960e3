"""Chat's scope chips: the scope an answer was searched in is shown as chips, and removing one asks
the question again without it (AppTest on the sample workspace, real ingest, real embedder)."""

from __future__ import annotations

from tests.ui.apptest_helpers import app, no_exception, texts

QUESTION = "What is Meridian Bank's P2P collect request limit?"


def _chips(at):
    return [g for g in at.get("button_group") if g.key and g.key.endswith("-scope")]


def test_scope_chips_show_the_scope_and_removing_one_asks_again_without_it(with_sample, service_factory):
    service_factory()
    at = app().run()
    no_exception(at)
    at.chat_input[0].set_value(QUESTION).run()
    no_exception(at)
    [chips] = _chips(at)
    assert chips.value == ["Meridian Bank Ltd", "auto"]  # the entity the question names, and auto-scope itself

    chips.unselect("Meridian Bank Ltd").run()  # the callback queues the question again; the page asks it
    no_exception(at)
    assert len(at.chat_message) == 4 and at.chat_message[2].markdown[0].value.endswith(QUESTION.split()[-1])
    assert "Asked again without Meridian Bank Ltd in the scope." in texts(at)
    [first] = _chips(at)  # the new answer names no scoped entity: only the first answer has chips, all selected
    assert first.value == ["Meridian Bank Ltd", "auto"]

    at.run()  # the saved conversation redraws the same two turns, nothing asked again
    no_exception(at)
    assert len(at.chat_message) == 4


def test_removing_auto_searches_the_whole_workspace(with_sample, service_factory):
    service_factory()
    at = app().run()
    at.chat_input[0].set_value(QUESTION).run()
    [chips] = _chips(at)
    chips.unselect("auto").run()
    no_exception(at)
    assert len(at.chat_message) == 4
    assert "Asked again without Meridian Bank Ltd in the scope." in texts(at)
