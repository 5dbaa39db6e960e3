"""``python -m prism ingest`` prints what the analyst should know about each file (the warnings used to be only in
``docs --json``): tracked changes (c53), formula cells without saved values (c55), a sentence addressed to an AI
(c66), each indented under its file's line; a duplicate names the document it duplicates."""

from __future__ import annotations

import json
import shutil

import pytest

from prism.cli.common import EXIT_OK
from prism.cli.main import main
from tests.conftest import CASES, offline_service

FILES = ["c53_tracked_changes.docx", "c55_formulas_nocache.xlsx", "c66_injected_circular.md"]


@pytest.fixture
def cli(tmp_path, embedder, monkeypatch):
    svc = offline_service(tmp_path / "home", embedder, briefing_on_ingest=False)
    monkeypatch.setattr("prism.cli.common.service", lambda: svc)
    return svc


def _blocks(out: str) -> dict[str, list[str]]:
    """The summary's lines by file: ``{file: [its line, the indented lines under it]}``."""
    blocks: dict[str, list[str]] = {}
    current = ""
    for line in out.splitlines():
        if line.startswith(" "):
            blocks[current].append(line)
        elif line.strip():
            current = line.split()[1].rstrip(":")
            blocks[current] = [line]
    return blocks


def test_ingest_summary_prints_each_files_warnings(cli, capsys):
    assert main(["ingest", *(str(CASES / f) for f in FILES), "--workspace", "w"]) == EXIT_OK
    blocks = _blocks(capsys.readouterr().out)
    assert list(blocks) == FILES
    docx, xlsx, md = (blocks[f] for f in FILES)
    assert docx[0].startswith("ingested  c53_tracked_changes.docx: 1 chunk")
    assert len(docx) == 2 and "has tracked changes (2 insertions, 1 deletion)" in docx[1]
    assert len(xlsx) == 2 and "3 formula cells had no value saved by Excel" in xlsx[1]
    assert not xlsx[1].strip().removeprefix("- ").startswith("c55_")  # the line already names the file
    assert len(md) == 2 and "addressed to an AI assistant (possible prompt injection" in md[1]
    # the same notes as the JSON (and docs --json) carries
    assert main(["docs", "--workspace", "w", "--json"]) == EXIT_OK
    docs = {d["source"]: d["warnings"] for d in json.loads(capsys.readouterr().out)}
    assert all(len(docs[f]) == 1 for f in FILES)


def test_duplicate_names_the_document_it_duplicates(cli, capsys, tmp_path):
    original, copy = tmp_path / "13_original.txt", tmp_path / "13_copy.txt"
    shutil.copy(CASES / "13_repeated_boilerplate_paragraph.txt", original)
    shutil.copy(original, copy)
    assert main(["ingest", str(original), "--workspace", "w"]) == EXIT_OK
    capsys.readouterr()
    assert main(["ingest", str(copy), str(original), "--workspace", "w"]) == EXIT_OK
    assert capsys.readouterr().out.splitlines() == [
        "duplicate 13_copy.txt: same content as 13_original.txt, already indexed; not added again",
        "duplicate 13_original.txt: already indexed; not added again",
    ]
    assert main(["ingest", str(copy), "--workspace", "w", "--json"]) == EXIT_OK
    [result] = json.loads(capsys.readouterr().out)
    assert result["status"] == "duplicate"
    assert result["warnings"] == ["same content as 13_original.txt, already indexed; not added again"]
