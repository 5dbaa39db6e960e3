"""The Workspaces page: the audit table (who did what, newest first, as plain text) and the flag on a document with
text addressed to an AI assistant."""

from __future__ import annotations

from prism.config import Settings
from prism.service import PrismService
from prism.types import IngestItem
from prism.ui import state as ui_state
from tests.conftest import FIXTURES
from tests.ui.apptest_helpers import MASTER, UPI, app, click, no_exception, texts

CASE = FIXTURES / "cases" / "c66_injected_circular.md"
TRICKY = "**bold** <b>tag [x](y) notes.txt"


def _audit_table(at):
    [frame] = [d.value for d in at.dataframe if list(d.value.columns) == ["Time", "Who", "Action", "Target"]]
    return frame


def test_workspaces_page_shows_the_audit_trail_and_the_injection_flag(with_sample, service_factory, embedder):
    svc = PrismService(Settings(home=with_sample), embedder=embedder)
    svc.ingest([IngestItem(CASE), IngestItem(b"Plain notes on UPI.", TRICKY)], "Sample workspace",
               briefing=False, actor="cli:dana")
    at = app().run().switch_page("pages/workspaces_page.py").run()
    no_exception(at)
    docs = at.dataframe[0].value
    flags = dict(zip(docs["File"], docs["Addressed to an AI"], strict=True))
    assert flags[CASE.name] == "⚠ 1 sentence" and flags[UPI.name] == ""

    ws_id = at.session_state[ui_state.WORKSPACE]
    at.selectbox(key=f"doc.pick.{ws_id}").set_value(MASTER.name).run()
    at = click(click(at, "Delete…"), "Yes, delete it")
    no_exception(at)
    table = _audit_table(at)
    rows = list(zip(table["Who"], table["Action"], table["Target"], strict=True))
    session = rows[0][0]
    assert session not in ("", "system", "session:unknown") and not session.startswith("cli:")
    assert rows[0] == (session, "deleted a document", MASTER.name)  # newest first
    names = [r[2] for r in rows]
    assert rows[1:3] == [("cli:dana", "added a document", names[1]), ("cli:dana", "added a document", CASE.name)]
    assert names[1] == TRICKY  # plain text in the table, never Markdown or HTML
    assert rows[3:] == [("system", "added a document", MASTER.name), ("system", "added a document", UPI.name)]

    at.selectbox(key=f"doc.detail.{ws_id}").set_value(CASE.name).run()
    no_exception(at)
    shown = texts(at)
    assert "addressed to an AI" in shown and "SYSTEM INSTRUCTION TO THE AI ASSISTANT" in shown
