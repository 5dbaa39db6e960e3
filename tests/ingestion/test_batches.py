"""Batches that never lose or repeat a file, through the service with the real pipeline, embedder and
Chroma: same-name files of one batch (case 44), the same name across batches (replace, with the date of the replaced
version), cancelling a running batch, and a workspace deleted while a file (case 45) is being added — by another
thread of this process and by another process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

from prism.config import Settings
from prism.service import PrismService
from prism.types import CancelToken, IngestItem
from tests.conftest import CASES, REPO

LONG = CASES / "45_long_minutes.txt"


def _consistent(service: PrismService, workspace: str) -> list[str]:
    """Registry, chunk rows, originals and vectors agree, no write-ahead marker is left; returns the sources."""
    handle = service.open(workspace)
    docs = handle.workspace.documents()
    assert handle.store.count() == sum(d.chunks for d in docs)
    assert handle.workspace.pending() == []
    assert {p.name for p in (handle.workspace.dir / "originals").iterdir()} == {d.doc_id for d in docs}
    assert {p.name for p in (handle.workspace.dir / "chunks").iterdir()} == {f"{d.doc_id}.jsonl" for d in docs}
    return [d.source for d in docs]


# --- same name ------------------------------------------------------------------------------------------------
def test_two_files_with_one_name_in_one_batch_are_both_kept(service):
    a, b = CASES / "44_company_a" / "annual_report.txt", CASES / "44_company_b" / "annual_report.txt"
    results = service.ingest([IngestItem(a), IngestItem(b)], "44")  # as the CLI passes them: two paths
    assert [(r.file, r.status) for r in results] == [("annual_report.txt", "ingested"),
                                                     ("annual_report (2).txt", "ingested")]
    assert results[1].warnings[0] == ("Another file in this batch is also named 'annual_report.txt'; this one is "
                                      "kept as 'annual_report (2).txt'.")
    assert _consistent(service, "44") == ["annual_report.txt", "annual_report (2).txt"]
    for question, figure, source in (("What was Company A revenue?", "410", "annual_report.txt"),
                                     ("What was Company B revenue?", "275", "annual_report (2).txt")):
        answer = service.ask(question, "44")
        line = next(li for li in answer.answer.splitlines() if f"revenue for the year was {figure}" in li)
        n = int(line.rsplit("[", 1)[1].rstrip("]"))
        assert answer.citations[n - 1].n == n and answer.citations[n - 1].source == source
        assert answer.citations[0].source == source  # the first cited passage is the one asked about


def test_the_same_name_in_a_later_batch_replaces_and_says_when_the_old_one_was_added(service):
    [first] = service.ingest([IngestItem(CASES / "12_policy_v1.txt", "refund_policy.txt")], "12")
    added = service.documents("12")[0].ingested_at
    [second] = service.ingest([IngestItem(CASES / "12_policy_v2.txt", "refund_policy.txt")], "12")
    assert (first.status, second.status) == ("ingested", "replaced")
    assert second.replaced_added_at == added and first.replaced_added_at is None
    assert second.to_dict()["replaced_added_at"] == added
    assert _consistent(service, "12") == ["refund_policy.txt"]


# --- cancel ---------------------------------------------------------------------------------------------------
def test_cancel_stops_the_batch_and_keeps_what_was_committed(service):
    token = CancelToken()
    seen: list[str] = []

    def progress(_fraction: float, message: str) -> None:
        seen.append(message)
        if message.startswith(f"{LONG.name}: embedding"):
            token.cancel()  # the analyst presses Cancel while the long file is being embedded

    items = [IngestItem(CASES / "35_test01.txt"), IngestItem(LONG), IngestItem(CASES / "35_test02.txt")]
    results = service.ingest(items, "c", progress, cancel=token)
    assert [r.status for r in results] == ["ingested", "cancelled", "cancelled"]
    assert results[1].error == f"{LONG.name} was not added: the batch was cancelled before it was stored."
    assert results[1].doc_id is None and results[1].chunks == 0
    assert f"{LONG.name}: embedding 0/" in "\n".join(seen)  # it was stopped mid-document, not before it
    assert _consistent(service, "c") == ["35_test01.txt"]  # committed stays, nothing half-written
    again = service.ingest([IngestItem(LONG)], "c")  # and the cancelled file ingests cleanly later
    assert again[0].status == "ingested" and again[0].chunks > 100


# --- workspace deleted mid-ingest -----------------------------------------------------------------------------
def _no_internals(message: str, home) -> None:
    assert "Traceback" not in message and str(home) not in message and "FileNotFoundError" not in message


def test_workspace_deleted_by_another_thread_while_a_file_is_added(service, prism_home, embedder):
    info = service.create_workspace("minutes")
    embedding = threading.Event()
    results = []

    def progress(_fraction: float, message: str) -> None:
        if "embedding" in message:
            embedding.set()

    worker = threading.Thread(target=lambda: results.extend(
        service.ingest([IngestItem(LONG), IngestItem(CASES / "35_test01.txt")], "minutes", progress, create=False)))
    worker.start()
    assert embedding.wait(120)
    other_session = PrismService(Settings(home=prism_home), embedder=embedder)
    other_session.delete_workspace("minutes")
    worker.join(120)
    assert [r.status for r in results] == ["failed", "failed"]
    assert results[0].error == (f"{LONG.name} was not added: workspace 'minutes' was deleted while it was being "
                                "added. Nothing of it was kept; create the workspace again to add it.")
    _no_internals(results[0].error, prism_home)
    assert not (prism_home / "workspaces" / info.id).exists()
    assert service.find_workspace("minutes") is None
    assert service.workspaces() == []


CLI_DELETE = [sys.executable, "-m", "prism", "workspaces", "delete", "minutes", "--json"]


def test_workspace_deleted_by_another_process_while_a_file_is_added(service, prism_home):
    info = service.create_workspace("minutes")
    env = {**os.environ, "PRISM_HOME": str(prism_home), "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"}
    deleted: list[subprocess.CompletedProcess] = []

    def progress(_fraction: float, message: str) -> None:
        if "embedding" in message and not deleted:  # another process deletes the workspace, then we go on
            deleted.append(subprocess.run(CLI_DELETE, env=env, cwd=REPO, capture_output=True, text=True,
                                          timeout=180))

    [result] = service.ingest([IngestItem(LONG)], "minutes", progress, create=False)
    assert deleted and deleted[0].returncode == 0, deleted[0].stderr[-2000:]
    assert json.loads(deleted[0].stdout) == {"deleted": "minutes"}
    assert result.status == "failed"
    assert "workspace 'minutes' was deleted while it was being added" in result.error
    _no_internals(result.error, prism_home)
    assert not (prism_home / "workspaces" / info.id).exists()  # no orphan folder
    assert service.workspaces() == []


def test_a_delete_waits_for_a_commit_in_progress(service, prism_home, embedder):
    """The delete takes the workspace's write lock: a commit holding it finishes first, then everything goes."""
    service.ingest([IngestItem(CASES / "35_test01.txt")], "w")
    handle = service.open("w")
    order: list[str] = []
    with handle.workspace.write_lock():
        deleter = threading.Thread(target=lambda: (PrismService(Settings(home=prism_home), embedder=embedder)
                                                   .delete_workspace("w"), order.append("deleted")))
        deleter.start()
        deleter.join(1.0)
        assert deleter.is_alive() and order == []  # waiting for the lock
        order.append("commit done")
    deleter.join(60)
    assert order == ["commit done", "deleted"]
    assert not handle.workspace.dir.exists()
