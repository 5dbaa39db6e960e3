"""The Compare page under ``streamlit.testing.v1.AppTest`` on a copy of the sample home (two sample circulars; real
retrieval and extractive answers): a grid runs, each cell holds a cited answer or "not found", the grid is saved,
exported and reopened from the saved-grid picker in a new session."""

from __future__ import annotations

from prism.ui.explain import literal
from tests.ui.apptest_helpers import MASTER, MASTER_TITLE, UPI, UPI_TITLE
from tests.ui.apptest_helpers import app as _app
from tests.ui.apptest_helpers import click as _click
from tests.ui.apptest_helpers import no_exception as _no_exception
from tests.ui.apptest_helpers import texts as _texts

COOLING = "What is the cooling period after registering UPI on a new device?"
PENALTY = "What is the penalty for non-compliance?"


def _compare_page():
    at = _app().run()
    _no_exception(at)
    at.switch_page("pages/compare_page.py").run()
    _no_exception(at)
    return at


def test_compare_grid_runs_saves_exports_and_reopens(with_sample, service_factory):
    at = _compare_page()
    assert "Choose documents and questions" in _texts(at)
    [run] = [b for b in at.button if b.label == "Run grid"]
    assert run.disabled  # nothing chosen yet
    ws = [k for k in (w.key for w in at.multiselect) if k.startswith("compare.docs.")][0].rsplit(".", 1)[1]
    at.multiselect(key=f"compare.docs.{ws}").set_value([UPI.name, MASTER.name])
    at.text_area(key=f"compare.questions.{ws}").set_value(f"{COOLING}\n{PENALTY}")
    at.text_input(key=f"compare.title.{ws}").set_value("Cooling periods")
    at = _click(at.run(), "Run grid")
    _no_exception(at)
    text = _texts(at)
    assert "Grid 'Cooling periods' saved: 4 cells." in text
    assert text.count("Not found in this document.") == 2  # the penalty row, in both columns
    assert literal(f"{UPI_TITLE} p. ") in text and literal(f"{MASTER_TITLE} p. 1") in text  # by title
    headers = [m for m in at.markdown if m.value in (f"**{literal(UPI_TITLE)}**", f"**{literal(MASTER_TITLE)}**")]
    assert len(headers) == 2
    assert "24 hours" in text
    assert [b.label for b in at.get("download_button")] == ["Export CSV", "Export XLSX", "Export Markdown"]
    assert [p.proto.popover.label for p in at.get("popover")].count("Sources") == 2
    assert [p.proto.popover.label for p in at.get("popover")].count("Closest passages") == 2

    # A template adds its questions to the box.
    at.selectbox(key=f"compare.template.{ws}").set_value("circulars")
    at = _click(at.run(), "Add template questions")
    questions = at.text_area(key=f"compare.questions.{ws}").value.splitlines()
    assert questions[:2] == [COOLING, PENALTY] and "What is the effective date of this circular?" in questions
    assert len(questions) == 5  # the template's penalty question is the one already there

    # A new session reopens the saved grid, cells and all, without asking again.
    again = _compare_page()
    picker = again.selectbox(key=f"compare.saved.{ws}")
    [saved] = [o for o in picker.options if o != "New grid"]
    assert saved.startswith("Cooling periods (2 × 2, ")
    picker.select_index(1).run()
    _no_exception(again)
    assert _texts(again).count("Not found in this document.") == 2 and "24 hours" in _texts(again)
    assert again.multiselect(key=f"compare.docs.{ws}").value == [UPI.name, MASTER.name]
