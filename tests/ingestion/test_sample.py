"""The sample workspace's build (prism/ingestion/sample.py): a build stopped part-way (the first browser tab closed
while it ran, the process killed) is finished on the next start; a completed build is never seeded again, whatever
the analyst deleted afterwards; the build runs on a thread of its own."""

from __future__ import annotations

import shutil

import pytest

from prism.errors import PrismError
from prism.ingestion.sample import STATE_FILE, SampleBuild, read_state
from prism.types import IngestItem
from tests.conftest import REPO, offline_service

SAMPLE = REPO / "data" / "sample"
FIRST, SECOND = "meridian_bank_upi_operating_circular.pdf", "meridian_fee_schedule_tables.pdf"
WS = "Sample workspace"


class TabClosed(BaseException):
    """What Streamlit raises in a script whose session ended (its ``StopException`` is a ``BaseException``)."""


@pytest.fixture
def samples(tmp_path):
    """A sample folder of two of the sample PDFs."""
    d = tmp_path / "samples"
    d.mkdir()
    for name in (FIRST, SECOND):
        shutil.copy(SAMPLE / name, d / name)
    return d


def _stop_when(prefix: str):
    """A progress callback that stops the build at the first message starting with ``prefix``."""

    def progress(_fraction: float, message: str) -> None:
        if message.startswith(prefix):
            raise TabClosed(message)

    return progress


def _sources(service) -> list[str]:
    return sorted(d.source for d in service.documents(WS))


@pytest.mark.parametrize("stop_at", [FIRST, SECOND], ids=["workspace-created-no-document", "one-of-two-documents"])
def test_an_interrupted_sample_build_is_finished_on_the_next_start(tmp_path, samples, embedder, stop_at):
    home = tmp_path / "home"
    first = offline_service(home, embedder, sample_dir=samples)
    with pytest.raises(TabClosed):
        first.ensure_sample_workspace(_stop_when(stop_at))
    assert [w.name for w in first.workspaces()] == [WS]  # the workspace exists, the sample set is not all there
    assert len(_sources(first)) == (0 if stop_at == FIRST else 1)
    assert read_state(home) == "building"

    nxt = offline_service(home, embedder, sample_dir=samples)  # the next start
    assert nxt.sample_build_needed()
    results = nxt.ensure_sample_workspace()
    assert sorted(r.file for r in results) == [FIRST, SECOND]
    assert [r.status for r in results].count("duplicate") == (0 if stop_at == FIRST else 1)
    assert _sources(nxt) == [FIRST, SECOND]
    assert read_state(home) == "complete"
    assert not nxt.sample_build_needed() and nxt.ensure_sample_workspace() == []


def test_a_completed_sample_build_is_never_seeded_again_after_the_analyst_deletes(tmp_path, samples, embedder):
    home = tmp_path / "home"
    service = offline_service(home, embedder, sample_dir=samples)
    assert service.sample_build_needed()  # a fresh home
    assert [r.status for r in service.ensure_sample_workspace()] == ["ingested", "ingested"]
    assert read_state(home) == "complete"

    service.delete_document(FIRST, WS)
    later = offline_service(home, embedder, sample_dir=samples)
    assert not later.sample_build_needed() and later.ensure_sample_workspace() == []
    assert _sources(later) == [SECOND]
    later.delete_document(SECOND, WS)
    assert offline_service(home, embedder, sample_dir=samples).ensure_sample_workspace() == []
    assert _sources(later) == []
    later.delete_workspace(WS)  # no workspace at all, but the build was completed: not built again by itself
    again = offline_service(home, embedder, sample_dir=samples)
    assert again.ensure_sample_workspace() == [] and again.workspaces() == []

    # The analyst's explicit rebuild (the Workspaces page, the empty states) brings it back, complete.
    assert [r.status for r in again.restore_sample_workspace()] == ["ingested", "ingested"]
    assert _sources(again) == [FIRST, SECOND] and read_state(home) == "complete"


def test_a_home_from_before_the_state_file(tmp_path, samples, embedder):
    """Earlier versions recorded nothing: their first-start build left an empty sample workspace when its tab
    closed. Such a workspace is finished; one whose documents the analyst deleted, or another workspace, is not."""
    home = tmp_path / "home"
    service = offline_service(home, embedder, sample_dir=samples)
    service.create_workspace(WS)
    assert not (home / STATE_FILE).exists()
    assert service.sample_build_needed()
    assert [r.status for r in service.ensure_sample_workspace()] == ["ingested", "ingested"]

    other = tmp_path / "other"
    old = offline_service(other, embedder, sample_dir=samples)
    old.ingest([IngestItem(samples / FIRST)], WS)
    old.delete_document(FIRST, WS)  # the analyst emptied it
    assert not (other / STATE_FILE).exists()
    assert not old.sample_build_needed() and old.ensure_sample_workspace() == []
    old.delete_workspace(WS)
    old.create_workspace("Mine")  # workspaces, none of them the sample one: nothing
    assert not old.sample_build_needed()
    assert not offline_service(other, embedder, sample_dir=tmp_path / "none").sample_build_needed()


def test_the_build_runs_on_its_own_thread_and_reports_progress_and_errors(tmp_path, samples, embedder):
    home = tmp_path / "home"
    service = offline_service(home, embedder, sample_dir=samples)
    build = SampleBuild(service.ensure_sample_workspace).start()
    assert build.wait(300) and build.finished and build.error is None
    assert [r.status for r in build.results] == ["ingested", "ingested"]
    assert build.progress()[0] == 1.0
    assert _sources(service) == [FIRST, SECOND]

    def broken(_progress):
        raise PrismError("PRISM_HOME is not writable.")

    def bug(_progress):
        raise KeyError("x")

    failed = SampleBuild(broken).start()
    assert failed.wait(10) and failed.error == "PRISM_HOME is not writable."
    crashed = SampleBuild(bug).start()
    assert crashed.wait(10) and crashed.error is not None and "KeyError" in crashed.error
    assert "Traceback" not in crashed.error
