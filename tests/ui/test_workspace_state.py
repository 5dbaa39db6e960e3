"""The workspace in use has one source of truth: create, rename, click in the list, switch in the
sidebar and delete — from the Workspaces page or another session — change the sidebar picker, every page and the
address (``?ws=``) in the same run; a deleted workspace is never shown; the Upload page names the target."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from prism.config import Settings
from prism.service import PrismService
from prism.ui import state as ui_state
from prism.ui.explain import literal
from tests.ui.apptest_helpers import MASTER, UPI
from tests.ui.apptest_helpers import app as _app
from tests.ui.apptest_helpers import click as _click
from tests.ui.apptest_helpers import no_exception as _no_exception
from tests.ui.apptest_helpers import texts as _texts


def _shown(at: AppTest) -> tuple[str, list[str]]:
    """The sidebar picker's workspace name and every name it offers."""
    picker = at.sidebar.selectbox(key=ui_state.PICKER)
    return picker.format_func(picker.value), [picker.format_func(o) for o in picker.options]


def _in_use(at: AppTest) -> str:
    return at.session_state[ui_state.WORKSPACE]


def _workspaces_page(at: AppTest | None = None) -> AppTest:
    return (at or _app().run()).switch_page("pages/workspaces_page.py").run()


def test_create_selects_the_new_workspace_everywhere_in_the_same_run(with_sample, service_factory):
    at = _workspaces_page()
    _no_exception(at)
    assert at.dataframe[0].value["File"].tolist() == [UPI.name, MASTER.name]
    assert at.dataframe[0].value["Pages"].tolist() == ["5", "4"]
    sample_id = _in_use(at)

    at.text_input(key="ws.create.name").set_value("Q3 review")
    at = _click(at, "Create workspace")
    _no_exception(at)
    new_id = _in_use(at)
    assert new_id != sample_id
    assert any("Workspace **Q3 review** created and selected" in s.value for s in at.success)
    assert _shown(at) == ("Q3 review", ["Sample workspace", "Q3 review"])  # the sidebar of this very run
    assert [h.value for h in at.subheader] == ["Q3 review"]
    assert at.query_params[ui_state.QUERY_WORKSPACE] == new_id

    at.switch_page("pages/upload_page.py").run()
    assert "Add files to **Q3 review**" in _texts(at)
    assert any(b.label == "Add to Q3 review" for b in at.button)
    assert _shown(at)[0] == "Q3 review"
    at.switch_page("pages/chat_page.py").run()
    assert "**Q3 review** has no documents yet" in _texts(at)

    # A taken name is an error message, and nothing changes.
    at = _workspaces_page(at)
    at.text_input(key="ws.create.name").set_value("sample workspace")
    at = _click(at, "Create workspace")
    _no_exception(at)
    assert any("already exists" in e.value for e in at.error)
    assert _in_use(at) == new_id


def test_the_first_rename_works_right_after_create(with_sample, service_factory):
    at = _workspaces_page()
    at.text_input(key="ws.create.name").set_value("Draft")
    at = _click(at, "Create workspace")
    ws_id = _in_use(at)
    at.text_input(key=f"ws.rename.{ws_id}").set_value("Q3 review (final)")
    at = _click(at, "Rename")
    _no_exception(at)
    assert any(f"Renamed to **{literal('Q3 review (final)')}**." in s.value for s in at.success)
    assert [h.value for h in at.subheader] == [literal("Q3 review (final)")]
    assert _shown(at) == ("Q3 review (final)", ["Sample workspace", "Q3 review (final)"])
    assert _in_use(at) == ws_id and at.query_params[ui_state.QUERY_WORKSPACE] == ws_id
    at.switch_page("pages/upload_page.py").run()
    assert f"Add files to **{literal('Q3 review (final)')}**" in _texts(at)


def test_clicking_a_workspace_in_the_list_uses_it(with_sample, service_factory, embedder):
    PrismService(Settings(home=with_sample), embedder=embedder).create_workspace("Other")
    at = _workspaces_page()
    assert _shown(at)[0] == "Sample workspace"
    at = _click(at, "Other · 0 documents")
    _no_exception(at)
    assert _shown(at)[0] == "Other" and [h.value for h in at.subheader] == ["Other"]
    assert any("**Other** · in use" in m.value or "**Other**" in m.value for m in at.markdown)
    at = _click(at, "Sample workspace · 2 documents")
    assert _shown(at)[0] == "Sample workspace"
    at.switch_page("pages/chat_page.py").run()
    assert "Answers from **Sample workspace**" in _texts(at)


def test_switching_in_the_sidebar_moves_every_page(with_sample, service_factory, embedder):
    other = PrismService(Settings(home=with_sample), embedder=embedder).create_workspace("Other")
    at = _app().run()
    at.sidebar.selectbox(key=ui_state.PICKER).select(other.id).run()
    _no_exception(at)
    assert _in_use(at) == other.id and at.query_params[ui_state.QUERY_WORKSPACE] == other.id
    assert "**Other** has no documents yet" in _texts(at)
    at.switch_page("pages/upload_page.py").run()
    assert "Add files to **Other**" in _texts(at)
    at.switch_page("pages/workspaces_page.py").run()
    assert [h.value for h in at.subheader] == ["Other"]


def test_deleted_workspace_is_never_shown(with_sample, service_factory):
    at = _workspaces_page()
    at.text_input(key="ws.create.name").set_value("Short lived")
    at = _click(at, "Create workspace")
    ws_id = _in_use(at)
    at = _click(at, "Delete workspace…")
    assert any("cannot be undone" in w.value for w in at.warning)
    at = _click(at, "Cancel")
    assert not at.warning and _in_use(at) == ws_id
    at = _click(at, "Delete workspace…")
    at = _click(at, "Yes, delete it")
    _no_exception(at)
    assert any("Workspace **Short lived** deleted." in s.value for s in at.success)
    assert [h.value for h in at.subheader] == ["Sample workspace"]  # the sample workspace takes its place
    assert _shown(at) == ("Sample workspace", ["Sample workspace"])
    assert _in_use(at) != ws_id and at.query_params.get(ui_state.QUERY_WORKSPACE) != ws_id
    assert not (with_sample / "workspaces" / ws_id).exists()


def test_a_workspace_deleted_by_another_session_disappears(with_sample, service_factory, embedder):
    other = PrismService(Settings(home=with_sample), embedder=embedder)
    doomed = other.create_workspace("Doomed")
    at = _app().run()
    at.sidebar.selectbox(key=ui_state.PICKER).select(doomed.id).run()
    assert _shown(at)[0] == "Doomed"
    other.delete_workspace("Doomed")  # another session (or process)
    at.switch_page("pages/upload_page.py").run()
    _no_exception(at)
    assert _shown(at) == ("Sample workspace", ["Sample workspace"])
    assert "Add files to **Sample workspace**" in _texts(at) and "Doomed" not in _texts(at)


def test_a_refresh_or_shared_link_opens_the_workspace_in_the_address(with_sample, service_factory, embedder):
    other = PrismService(Settings(home=with_sample), embedder=embedder).create_workspace("Linked")
    at = _app()
    at.query_params[ui_state.QUERY_WORKSPACE] = other.id
    at.run()
    _no_exception(at)
    assert _shown(at)[0] == "Linked" and "**Linked** has no documents yet" in _texts(at)
    stale = _app()
    stale.query_params[ui_state.QUERY_WORKSPACE] = "deadbeef"  # a link to a deleted workspace
    stale.run()
    _no_exception(stale)
    assert _shown(stale)[0] == "Sample workspace"
    assert any("That workspace no longer exists; showing **Sample workspace**." in w.value for w in stale.warning)
