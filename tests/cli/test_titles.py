"""The CLI shows documents by their titles (text output) and keeps file names as keys with a "title" field (JSON)."""

from __future__ import annotations

import json

import pytest

from prism.cli.common import EXIT_OK
from prism.cli.main import main
from prism.types import IngestItem
from tests.builders import HASH_NAME, PENSION_DISPLAY, hash_named_circular
from tests.conftest import offline_service


@pytest.fixture(scope="module")
def titled(tmp_path_factory, embedder):
    folder = tmp_path_factory.mktemp("titled_docs")
    svc = offline_service(tmp_path_factory.mktemp("titled_home"), embedder)
    results = svc.ingest([IngestItem(hash_named_circular(folder))], "rbi", briefing=False)
    assert results[0].status == "ingested", results[0].message
    return svc


@pytest.fixture
def cli(titled, monkeypatch):
    monkeypatch.setattr("prism.cli.common.service", lambda: titled)
    return titled


def test_docs_text_shows_the_title_with_the_file_name(cli, capsys):
    assert main(["docs", "--workspace", "rbi"]) == EXIT_OK
    line = capsys.readouterr().out.splitlines()[0]
    assert line.startswith(f"{PENSION_DISPLAY} ({HASH_NAME})  pages=2")


def test_docs_json_keeps_the_file_name_and_adds_the_title(cli, capsys):
    assert main(["docs", "--workspace", "rbi", "--json"]) == EXIT_OK
    [doc] = json.loads(capsys.readouterr().out)
    assert doc["source"] == HASH_NAME and doc["title"] == PENSION_DISPLAY
    assert doc["profile"]["title"] == PENSION_DISPLAY


def test_ask_cites_by_title(cli, capsys):
    question = "What compensation is paid for delayed pension?"
    assert main(["ask", question, "--workspace", "rbi"]) == EXIT_OK
    text = capsys.readouterr().out
    assert f"[1] {PENSION_DISPLAY} ({HASH_NAME}), page 2" in text
    assert main(["ask", question, "--workspace", "rbi", "--json"]) == EXIT_OK
    out = json.loads(capsys.readouterr().out)
    assert out["citations"][0]["source"] == HASH_NAME
    assert out["citations"][0]["title"] == PENSION_DISPLAY


def test_search_text_and_json_carry_the_title(cli, capsys):
    assert main(["search", "compensation delayed pension", "--workspace", "rbi"]) == EXIT_OK
    assert f"[1] {PENSION_DISPLAY} ({HASH_NAME})" in capsys.readouterr().out
    assert main(["search", "compensation delayed pension", "--workspace", "rbi", "--json"]) == EXIT_OK
    first = json.loads(capsys.readouterr().out)["results"][0]
    assert (first["source"], first["title"]) == (HASH_NAME, PENSION_DISPLAY)
