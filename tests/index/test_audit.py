"""The audit trail: a real service in a temp PRISM_HOME records who added, replaced and deleted a document, gave
feedback, exported, renamed and deleted the workspace, in order, in logs that only ever grow."""

from __future__ import annotations

import json
import threading

from prism.cli.common import EXIT_OK
from prism.cli.main import main
from prism.index.audit import AUDIT_FILE, AuditLog
from prism.types import AuditEntry, IngestItem

ALICE, BOB = "5f1c0d9e-session-alice", "cli:bob"


def test_every_change_is_recorded_in_order_and_the_logs_only_grow(service, prism_home):
    service.create_workspace("Deals", actor=ALICE)
    info = service.find_workspace("Deals")
    log = prism_home / "workspaces" / info.id / AUDIT_FILE
    seen: list[bytes] = []

    def grew() -> None:  # every earlier state of the file is a prefix of the next: nothing is rewritten
        data = log.read_bytes()
        assert not seen or (data.startswith(seen[-1]) and len(data) > len(seen[-1]))
        seen.append(data)

    grew()
    [added] = service.ingest([IngestItem(b"The fee is Rs. 500 per card.", "fees.txt")], "Deals", actor=ALICE,
                             briefing=False)
    grew()
    service.ingest([IngestItem(b"The fee is Rs. 700 per card.", "fees.txt")], "Deals", actor=BOB, briefing=False)
    grew()
    service.ingest([IngestItem(b"The fee is Rs. 700 per card.", "fees.txt")], "Deals", actor=BOB, briefing=False)
    assert log.read_bytes() == seen[-1]  # a duplicate changes nothing and is not recorded
    service.feedback("Deals", actor=ALICE).add("answer", "up", question="What is the fee?", answer="Rs. 700")
    grew()
    service.record_export("Deals", "grid", "prism-fees.csv", ALICE, format="csv")
    grew()
    service.delete_document("fees.txt", "Deals", actor=BOB)
    grew()
    service.rename_workspace("Deals", "Deals 2025", actor=ALICE)
    grew()
    entries = service.audit("Deals 2025")
    assert [(e.actor, e.action, e.target) for e in entries] == [
        (ALICE, "workspace.create", "Deals"),
        (ALICE, "document.add", "fees.txt"),
        (BOB, "document.replace", "fees.txt"),
        (ALICE, "feedback", "What is the fee?"),
        (ALICE, "export", "prism-fees.csv"),
        (BOB, "document.delete", "fees.txt"),
        (ALICE, "workspace.rename", "Deals 2025"),
    ]
    assert entries[1].details["doc_id"] == added.doc_id and entries[1].details["chunks"] == 1
    assert entries[3].details == {"kind": "answer", "value": "up"}
    assert entries[4].details == {"what": "grid", "format": "csv"}
    assert entries[6].details == {"from": "Deals", "to": "Deals 2025"} and entries[6].workspace_id == info.id
    assert all(e.time.endswith("+00:00") and e.time[:4].isdigit() for e in entries)  # ISO 8601, UTC
    lines = log.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7 and all(json.loads(x)["workspace_id"] == info.id for x in lines)

    home_log = prism_home / AUDIT_FILE
    before = home_log.read_bytes()
    service.delete_workspace("Deals 2025", actor=BOB)
    assert not log.exists() and home_log.read_bytes().startswith(before)
    home = service.audit()
    assert [(e.actor, e.action, e.target) for e in home] == [
        (ALICE, "workspace.create", "Deals"), (ALICE, "workspace.rename", "Deals 2025"),
        (BOB, "workspace.delete", "Deals 2025")]
    assert home[-1].workspace_id == info.id  # the deletion survives the workspace


def test_concurrent_appends_never_lose_or_mix_a_line(tmp_path):
    log = AuditLog(tmp_path / AUDIT_FILE)

    def write(n: int) -> None:
        for i in range(25):
            log.append(AuditEntry("2025-03-03T10:00:00+00:00", f"s{n}", "export", f"{n}-{i}-" + "x" * 300))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    entries = log.entries()
    assert len(entries) == 100 and {e.target for e in entries} == {f"{n}-{i}-" + "x" * 300 for n in range(4)
                                                                    for i in range(25)}
    for n in range(4):  # each writer's lines stay in its order
        mine = [e.target for e in entries if e.actor == f"s{n}"]
        assert mine == [f"{n}-{i}-" + "x" * 300 for i in range(25)]


def test_a_torn_line_is_skipped(tmp_path):
    log = AuditLog(tmp_path / AUDIT_FILE)
    log.append(AuditEntry("2025-03-03T10:00:00+00:00", "s1", "export", "a.csv"))
    with (tmp_path / AUDIT_FILE).open("a", encoding="utf-8") as fh:
        fh.write('{"time": "2025-03-03T10:00:01+00:00", "act')
    assert [e.target for e in log.entries()] == ["a.csv"]


def test_cli_records_its_user_and_prints_the_log(service, monkeypatch, capsys):
    monkeypatch.setattr("prism.cli.common.service", lambda: service)
    monkeypatch.setattr("getpass.getuser", lambda: "carol")
    assert main(["workspaces", "create", "Ops", "--json"]) == EXIT_OK
    assert main(["ingest", "--workspace", "Ops", "--json", "-"]) != EXIT_OK  # a missing file is not recorded
    capsys.readouterr()
    service.ingest([IngestItem(b"UPI Lite limit is Rs. 500.", "lite.txt")], "Ops", briefing=False, actor="web-1")
    assert main(["delete", "lite.txt", "--workspace", "Ops"]) == EXIT_OK
    capsys.readouterr()
    assert main(["audit", "--workspace", "Ops", "--json"]) == EXIT_OK
    out = json.loads(capsys.readouterr().out)
    assert [(e["actor"], e["action"], e["target"]) for e in out] == [
        ("cli:carol", "document.delete", "lite.txt"), ("web-1", "document.add", "lite.txt"),
        ("cli:carol", "workspace.create", "Ops")]  # newest first
    assert main(["audit", "--workspace", "Ops"]) == EXIT_OK
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith("  cli:carol  deleted a document  lite.txt")
    assert main(["audit", "--home-log", "--json"]) == EXIT_OK
    assert [e["action"] for e in json.loads(capsys.readouterr().out)] == ["workspace.create"]
