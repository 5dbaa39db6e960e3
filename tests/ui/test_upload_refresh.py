"""A refresh during an upload (found by ``bench/load.py``: the refreshed Upload page lost its batch, its progress and
its briefing, because a refresh is a new session and batches lived only in ``st.session_state``). The page's address
names its batches (``?b=``); a new session on that address draws them again from the job registry, as they were."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from prism.ui import state as ui_state
from prism.ui.explain import literal
from tests.conftest import CASES, REPO
from tests.ui.apptest_helpers import app as _app
from tests.ui.apptest_helpers import click as _click
from tests.ui.apptest_helpers import no_exception as _no_exception
from tests.ui.apptest_helpers import run_until

FEES = REPO / "data" / "sample" / "meridian_fee_schedule_tables.pdf"  # not in the sample home
LONG = CASES / "45_long_minutes.txt"
ADD = "Add to Sample workspace"
TITLE = "**2 files** → **Sample workspace**"


def _upload_page(query: dict[str, str] | None = None) -> AppTest:
    at = _app()
    for key, value in (query or {}).items():
        at.query_params[key] = value
    at = at.run().switch_page("pages/upload_page.py").run()
    _no_exception(at)
    return at


def _batch_titles(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith(TITLE)]


def _progress(at: AppTest) -> list[str]:
    return [p.proto.text for p in at.get("progress")]


def _finished(at: AppTest) -> bool:
    return any(m.value == "##### Briefings" for m in at.markdown) or bool(at.exception)


def _bullets(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith("- ")]


def test_a_refresh_during_an_upload_draws_the_batch_and_then_its_briefing_again(with_sample, service_factory):
    at = _upload_page()
    [picker] = at.file_uploader
    picker.upload(LONG.name, LONG.read_bytes(), "text/plain")
    picker.upload(FEES.name, FEES.read_bytes(), "application/pdf")
    at = _click(at, ADD)
    batch_id = at.query_params[ui_state.QUERY_BATCHES]
    assert ui_state.BATCH_ID.fullmatch(batch_id), batch_id
    ws_id = at.session_state[ui_state.WORKSPACE]

    # The refresh: a new session on the same address, while the first file is indexed and the second waits.
    address = {ui_state.QUERY_WORKSPACE: ws_id, ui_state.QUERY_BATCHES: batch_id}
    refreshed = _upload_page(address)
    assert len(_batch_titles(refreshed)) == 1 and "of 2 done" in _batch_titles(refreshed)[0]
    lines = _progress(refreshed)
    assert [line.split(" — ")[0] for line in lines] == [literal(LONG.name), literal(FEES.name)], lines
    assert lines[1].endswith("waiting for the previous file"), lines
    assert refreshed.query_params[ui_state.QUERY_BATCHES] == batch_id

    at = run_until(at, _finished, 240)
    refreshed = run_until(refreshed, _finished, 60)
    _no_exception(at)
    _no_exception(refreshed)
    original = at.dataframe[0].value.to_dict("records")
    assert [(r["File"], r["Result"]) for r in original] == [(LONG.name, "Added"), (FEES.name, "Added")]
    assert refreshed.dataframe[0].value.to_dict("records") == original
    assert _batch_titles(refreshed) == _batch_titles(at)
    assert any(s.value == "2 documents added and searchable." for s in refreshed.success)
    assert _bullets(at) and _bullets(refreshed) == _bullets(at)  # the briefings, point for point

    # A refresh after the briefing draws it again, as it was.
    again = _upload_page(address)
    assert again.dataframe[0].value.to_dict("records") == original and _bullets(again) == _bullets(at)

    # A session without the address, or with an address that names no batch of this process, draws no batch.
    assert _batch_titles(_upload_page({ui_state.QUERY_WORKSPACE: ws_id})) == []
    for forged in ("0" * 16, "../../etc/passwd", f"{batch_id}x", ""):
        other = _upload_page({ui_state.QUERY_WORKSPACE: ws_id, ui_state.QUERY_BATCHES: forged})
        assert _batch_titles(other) == [] and not other.dataframe, forged
