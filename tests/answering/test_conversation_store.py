"""Saved conversations through the service: per workspace on disk, atomic, listed newest first,
renamed and deleted, never leaking into another workspace, gone with their workspace, surviving a restart (a new
service on the same PRISM_HOME), and never losing a turn when two threads or two processes append at once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from prism.config import Settings
from prism.errors import ConversationNotFoundError, WorkspaceDeletedError, WorkspaceNotFoundError
from prism.service import PrismService
from prism.types import ChatTurn, IngestItem
from tests.conftest import CASES, REPO


def _turn(q: str) -> ChatTurn:
    return ChatTurn(q, {"answer": f"answer to {q}", "condensed_query": f"standalone {q}"}, sources=("a.txt",))


def test_a_conversation_is_saved_listed_and_reopened_after_a_restart(service, prism_home, embedder):
    service.create_workspace("ws")
    store = service.conversations("ws")
    first = store.create()
    saved = store.append(first.id, _turn("What is the P2P limit?"))
    saved = store.append(first.id, _turn("And for P2M?"))
    assert saved.info.title == "What is the P2P limit?" and saved.info.turns == 2
    assert [t.question for t in saved.turns] == ["What is the P2P limit?", "And for P2M?"]
    assert all(t.asked_at for t in saved.turns)
    assert [m.standalone for m in saved.memory()] == ["standalone What is the P2P limit?", "standalone And for P2M?"]
    path = prism_home / "workspaces" / service.find_workspace("ws").id / "conversations" / f"{first.id}.json"
    on_disk = json.loads(path.read_text(encoding="utf-8"))
    assert on_disk["turns"][1]["answer"]["condensed_query"] == "standalone And for P2M?"
    assert on_disk["turns"][0]["sources"] == ["a.txt"]
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".") and p.suffix == ".tmp"] == []

    restarted = PrismService(Settings(home=prism_home), embedder=embedder)  # an app restart
    again = restarted.conversations("ws").get(first.id)
    assert again == saved


def test_listed_newest_first_renamed_deleted(service):
    service.create_workspace("ws")
    store = service.conversations("ws")
    a, b, c = store.create(), store.create(), store.create()
    store.append(a.id, _turn("first"))
    store.append(c.id, _turn("third"))
    store.append(b.id, _turn("second, most recent"))
    assert [i.id for i in store.list()] == [b.id, c.id, a.id]
    renamed = store.rename(a.id, "  Limits   review ")
    assert renamed.title == "Limits review"
    assert [i.id for i in store.list()] == [a.id, b.id, c.id]  # a rename is a change too
    with pytest.raises(ValueError, match="cannot be empty"):
        store.rename(a.id, "   ")
    store.delete(c.id)
    assert [i.id for i in store.list()] == [a.id, b.id]
    with pytest.raises(ConversationNotFoundError, match="deleted in another tab"):
        store.append(c.id, _turn("late"))
    with pytest.raises(ConversationNotFoundError):
        store.get("../../workspaces")  # ids are never paths
    store.delete(c.id)  # already gone: nothing happens


def test_conversations_never_leak_across_workspaces_and_go_with_their_workspace(service, prism_home):
    one, two = service.create_workspace("one"), service.create_workspace("two")
    c1 = service.conversations("one").create()
    service.conversations("one").append(c1.id, _turn("only in one"))
    assert service.conversations("two").list() == []
    with pytest.raises(ConversationNotFoundError):
        service.conversations("two").get(c1.id)
    service.rename_workspace("one", "one renamed")  # a rename keeps them
    assert [i.id for i in service.conversations("one renamed").list()] == [c1.id]
    service.delete_workspace("one renamed")
    assert not (prism_home / "workspaces" / one.id).exists()
    with pytest.raises(WorkspaceNotFoundError):
        service.conversations("one renamed")
    assert (prism_home / "workspaces" / two.id).is_dir()


def test_a_store_of_a_deleted_workspace_writes_nothing(service, prism_home):
    info = service.create_workspace("gone")
    store = service.conversations("gone")
    conv = store.create()
    service.delete_workspace("gone")
    with pytest.raises(WorkspaceDeletedError, match="'gone' was deleted"):
        store.append(conv.id, _turn("too late"))
    with pytest.raises(WorkspaceDeletedError):
        store.create()
    assert not (prism_home / "workspaces" / info.id).exists()  # the lock did not bring the folder back


def test_two_threads_appending_to_one_conversation_lose_no_turn(service):
    service.create_workspace("ws")
    conv = service.conversations("ws").create()
    start = threading.Barrier(8)

    def tab(i: int) -> None:
        store = service.conversations("ws")  # each tab has its own store object
        start.wait(timeout=30)
        for j in range(5):
            store.append(conv.id, _turn(f"tab {i} question {j}"))

    with ThreadPoolExecutor(max_workers=8) as pool:
        for f in [pool.submit(tab, i) for i in range(8)]:
            f.result(timeout=120)
    turns = service.conversations("ws").get(conv.id).turns
    assert len(turns) == 40
    assert sorted(t.question for t in turns) == sorted(f"tab {i} question {j}" for i in range(8) for j in range(5))
    for i in range(8):  # each tab's own turns keep their order
        mine = [t.question for t in turns if t.question.startswith(f"tab {i} ")]
        assert mine == [f"tab {i} question {j}" for j in range(5)]


APPEND_SCRIPT = """
import sys, time
from pathlib import Path
from prism.service import PrismService
from prism.types import ChatTurn
store = PrismService().conversations("ws")
print("ready", flush=True)
while not Path(sys.argv[4]).exists():
    time.sleep(0.01)
for j in range(int(sys.argv[2])):
    store.append(sys.argv[1], ChatTurn(f"process {sys.argv[3]} question {j}", {"answer": "a"}))
"""


def test_two_processes_appending_to_one_conversation_lose_no_turn(service, prism_home, tmp_path):
    service.create_workspace("ws")
    conv = service.conversations("ws").create()
    go = tmp_path / "go"
    env = {**os.environ, "PRISM_HOME": str(prism_home), "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"}
    procs = [subprocess.Popen([sys.executable, "-c", APPEND_SCRIPT, conv.id, "20", str(k), str(go)], env=env,
                              cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for k in range(2)]
    assert [p.stdout.readline().strip() for p in procs] == ["ready", "ready"]
    go.touch()  # all three start appending at once
    for j in range(20):
        service.conversations("ws").append(conv.id, _turn(f"this process question {j}"))
    for p in procs:
        assert p.wait(timeout=180) == 0, p.stderr.read()[-2000:]
    turns = service.conversations("ws").get(conv.id).turns
    assert len(turns) == 60
    for who in ("process 0", "process 1", "this process"):
        assert [t.question for t in turns if t.question.startswith(f"{who} ")] == [
            f"{who} question {j}" for j in range(20)]


def test_ask_uses_a_saved_conversation_as_memory(service):
    service.ingest([IngestItem(CASES / "12_policy_v2.txt")], "ws", briefing=False)
    store = service.conversations("ws")
    conv = store.create()
    first = service.ask("How many days do customers have to request a refund?", "ws")
    store.append(conv.id, ChatTurn("How many days do customers have to request a refund?", first.to_dict()))
    follow = service.ask("and is it the same online?", "ws", history=store.get(conv.id).memory())
    assert follow.condensed_query != "and is it the same online?"  # the follow-up was condensed with the memory
    assert "refund" in follow.condensed_query.lower()
