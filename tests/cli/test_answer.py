"""``python -m prism ask``: the response object with --json, the text rendering, options and errors."""

from __future__ import annotations

import json

import pytest

from prism.cli.common import EXIT_FAILED, EXIT_OK
from prism.cli.main import main
from prism.config import Settings
from prism.types import IngestItem
from tests.conftest import REPO, offline_service

UPI_PDF = REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf"
SEED = "What was the total UPI transaction volume in FY2024?"
ANSWER_KEYS = {"answer", "mode", "declined", "citations", "retrieved", "web", "condensed_query",
               "unsupported_numbers", "timings_ms", "notes", "message", "scope", "embedder", "calculation",
               "understood"}
BLOCK_KEYS = {"n", "chunk_id", "source", "page_start", "page_end", "text", "scores", "rank", "locator", "profile",
              "read_beside", "title"}


@pytest.fixture(scope="module")
def ingested(tmp_path_factory, embedder):
    svc = offline_service(tmp_path_factory.mktemp("cli_home"), embedder)
    svc.ingest([IngestItem(UPI_PDF)], "cli", briefing=False)
    return svc


@pytest.fixture
def cli_service(ingested, monkeypatch):
    service = ingested
    calls = []
    real_ask = service.ask

    def ask(question, workspace=None, **kwargs):
        calls.append({"question": question, "workspace": workspace, **kwargs})
        return real_ask(question, workspace, **kwargs)

    monkeypatch.setattr(service, "ask", ask)
    monkeypatch.setattr("prism.cli.common.service", lambda: service)
    return calls


def test_ask_json_is_the_response_object(cli_service, capsys):
    code = main(["ask", SEED, "--workspace", "cli", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK
    assert set(out) == ANSWER_KEYS
    # the figure is quoted from the annexure's table cell in the unit its row label states
    assert out["mode"] == "extractive" and out["declined"] is False
    assert out["answer"] == ("Extractive answer (no LLM configured):\n\n- Volume (crore transactions), FY2024: 612 "
                             "crore transactions (Annexure A – UPI Volumes Processed by Meridian Bank) [1]")
    assert out["citations"] and all(set(c) == BLOCK_KEYS for c in out["citations"] + out["retrieved"])
    assert set(out["timings_ms"]) == {"condense", "read", "expand", "retrieve", "rerank", "program", "web",
                                      "first_token", "total"}
    backend = Settings().embed_backend  # the session's embedder is on the configured backend
    assert out["embedder"] == {"backend": backend, "configured": backend, "reason": "", "loaded": True}
    assert out["condensed_query"] == SEED and out["web"] == [] and out["unsupported_numbers"] == []
    assert out["calculation"] is None  # a figure read as stated, not derived
    # what the reader understood: this question, the period it names
    assert out["understood"]["question"] == SEED and out["understood"]["periods"] == ["FY2024"]
    assert out["notes"][0] == {"kind": "extractive", "text": "extractive answer (no LLM configured)."}
    assert out["message"] == " ".join(n["text"] for n in out["notes"])
    assert cli_service[0]["hyde"] is None and cli_service[0]["multi_query"] is None and cli_service[0]["web"] is None
    # the sample workspace's documents have no FY2024 in their profiles; "FY2024" is the period named
    assert out["scope"]["periods"] == ["FY2024"] and out["scope"]["entities"] == []
    assert cli_service[0]["auto_scope"] is True


def test_ask_text_lists_sources_and_passes_options(cli_service, capsys):
    code = main(["ask", SEED, "--workspace", "cli", "--doc", UPI_PDF.name, "--no-hyde", "--no-multi-query", "--web"])
    text = capsys.readouterr().out
    assert code == EXIT_OK
    assert text.startswith("Extractive answer (no LLM configured):")
    # a cited document by its title, the file name in brackets
    assert ("Sources:\n  [1] Unified Payments Interface (UPI) – transaction limits, merchant charges, dispute "
            "resolution, fraud reporting and customer liability "
            "(meridian_bank_upi_operating_circular.pdf), page") in text
    assert "Note: extractive answer (no LLM configured). Web search is off: no Tavily API key" in text
    assert "(searched for:" not in text  # the standalone query equals the question
    call = cli_service[0]
    assert (call["sources"], call["hyde"], call["multi_query"], call["web"]) == ([UPI_PDF.name], False, False, True)


def test_ask_errors_are_reported_as_json(cli_service, capsys):
    code = main(["ask", SEED, "--workspace", "cli", "--doc", "missing.pdf", "--json"])
    assert code == EXIT_FAILED
    assert "missing.pdf" in json.loads(capsys.readouterr().out)["error"]
    code = main(["ask", SEED, "--workspace", "nowhere", "--json"])
    assert code == EXIT_FAILED and "no workspace named 'nowhere'" in json.loads(capsys.readouterr().out)["error"]


def test_ask_no_auto_scope(cli_service, capsys):
    code = main(["ask", SEED, "--workspace", "cli", "--json", "--no-auto-scope"])
    out = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK
    assert cli_service[0]["auto_scope"] is False
    assert out["scope"] == {"entities": [], "periods": [], "documents": [], "auto": False}



def test_search_json_carries_the_scope(ingested, monkeypatch, capsys):
    monkeypatch.setattr("prism.cli.common.service", lambda: ingested)
    query = "Meridian Bank's P2P limit in FY2024"
    assert main(["search", query, "--workspace", "cli", "--json"]) == EXIT_OK
    out = json.loads(capsys.readouterr().out)
    assert out["scope"] == {"entities": ["Meridian Bank Ltd"], "periods": ["FY2024"], "documents": [UPI_PDF.name],
                            "auto": True}
    assert main(["search", query, "--workspace", "cli", "--json", "--no-auto-scope"]) == EXIT_OK
    out = json.loads(capsys.readouterr().out)
    assert out["scope"] == {"entities": [], "periods": [], "documents": [], "auto": False}
    assert main(["search", query, "--workspace", "cli"]) == EXIT_OK
    assert capsys.readouterr().out.startswith("Scope: Meridian Bank Ltd · FY2024 · auto\n")


def test_search_json_says_which_embedder_made_the_vectors(ingested, monkeypatch, capsys):
    monkeypatch.setattr("prism.cli.common.service", lambda: ingested)
    assert main(["search", "UPI transaction limit", "--workspace", "cli", "--json"]) == EXIT_OK
    out = json.loads(capsys.readouterr().out)
    assert out["results"] and out["embedder"]["loaded"] is True
    assert out["embedder"]["backend"] == ingested.embedder.backend == out["embedder"]["configured"]
    assert out["embedder"]["reason"] == ""
