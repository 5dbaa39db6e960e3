"""Document profiles at ingest: read before running lines are removed, stored in the record and in every chunk's
metadata, printed by ``docs --json``, used as the title header; analyst corrections with ``tag`` (CLI and service)
kept apart from the extracted profile, applied to the chunks, and re-applied after ``reindex``."""

from __future__ import annotations

import json

import numpy as np
import pytest

from prism.cli.common import EXIT_FAILED, EXIT_OK
from prism.cli.main import main
from prism.types import PROFILE_METADATA_KEYS, IngestItem
from tests.conftest import REPO

MASTER = REPO / "data" / "sample" / "rbi_style_master_circular_digital_payments.pdf"
ENTITY = "Reserve Bank of India, Department of Payment and Settlement Systems"
PROFILE_KEYS = {"entity", "ticker", "type", "period", "fiscal_year_end", "currency", "unit", "reference", "date",
                "title", "aliases", "sources"}


@pytest.fixture
def cli(service, monkeypatch):
    """The CLI on the test's service; the master circular ingested under an opaque name."""
    monkeypatch.setattr("prism.cli.common.service", lambda: service)
    [result] = service.ingest([IngestItem(MASTER.read_bytes(), "05MC0104ABCDEF1234567890.pdf")], "p", briefing=False)
    assert result.status == "ingested"
    return service


def _metas(service, workspace: str) -> list[dict]:
    return service.open(workspace).store._col.get(include=["metadatas"])["metadatas"]


def test_profile_is_in_the_record_every_chunk_and_docs_json(cli, capsys):
    assert main(["docs", "--workspace", "p", "--json"]) == EXIT_OK
    [doc] = json.loads(capsys.readouterr().out)
    profile = doc["profile"]
    assert set(profile) == PROFILE_KEYS
    assert (profile["entity"], profile["type"], profile["period"], profile["currency"]) == (
        ENTITY, "rbi_master_circular", "2025-04-01", "INR")
    assert profile["sources"]["entity"]["page"] == 1 and profile["sources"]["entity"]["snippet"]
    assert doc["profile_corrections"] == {} and doc["tables"] == 1  # Annex III's numbered register of circulars
    assert {r["position"] for r in doc["running_lines"]} == {"header", "footer"}
    want = {"entity": ENTITY, "doc_type": "rbi_master_circular", "period": "2025-04-01", "currency": "INR"}
    for meta in _metas(cli, "p"):
        assert {k: meta.get(k) for k in want} == want and None not in meta.values()
        assert "unit" not in meta and "fiscal_year_end" not in meta  # keys without a value are left out
    # the opaque name gives no title; the profile does
    rows = cli.open("p").workspace.read_chunks(doc["doc_id"])
    title = f"{ENTITY} RBI master circular 2025-04-01 {profile['reference']}"
    assert all(r["index_text"].startswith(f"{title}\n\n") for r in rows)
    assert main(["docs", "--workspace", "p"]) == EXIT_OK
    assert f"{ENTITY} · RBI master circular · 2025-04-01" in capsys.readouterr().out


def test_tag_changes_the_chunks_and_survives_reindex(cli, embedder, capsys):
    name = "05MC0104ABCDEF1234567890.pdf"
    code = main(["tag", name, "--workspace", "p", "--entity", "Meridian Bank", "--type", "npci_circular",
                 "--period", "FY2025", "--unit", "crore", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK
    assert out["profile_corrections"] == {"entity": "Meridian Bank", "type": "npci_circular", "period": "FY2025",
                                          "unit": "crore"}
    assert out["profile"]["sources"]["entity"] == {"page": None, "snippet": "corrected by analyst"}
    assert out["profile"]["currency"] == "INR"  # not corrected: as extracted

    def check(service) -> None:
        record = service.documents("p")[0]
        assert record.profile["entity"] == ENTITY  # the extracted profile is kept apart
        assert record.effective_profile().line() == "Meridian Bank · NPCI circular · FY2025"
        want = {"entity": "Meridian Bank", "doc_type": "npci_circular", "period": "FY2025", "unit": "crore",
                "currency": "INR"}
        metas = _metas(service, "p")
        assert len(metas) == record.chunks
        assert all({k: m.get(k) for k in PROFILE_METADATA_KEYS.values() if k in want} == want for m in metas)
        rows = service.open("p").workspace.read_chunks(record.doc_id)
        assert all({k: r.get(k) for k in want} == want for r in rows)
        title = f"Meridian Bank NPCI circular FY2025 {record.profile['reference']}"
        assert all(r["index_text"] == f"{title}\n\n{r['text']}" for r in rows if "table" not in r)
        got = service.open("p").store._col.get(ids=[rows[0]["chunk_id"]], include=["embeddings"])
        assert abs(float(np.dot(got["embeddings"][0], embedder.embed([rows[0]["index_text"]])[0])) - 1) < 1e-4
        hits = service.search("Meridian Bank NPCI circular", "p", mode="bm25").results
        assert hits  # the new title's words are indexed

    check(cli)
    results = cli.reindex("p")
    assert [r.status for r in results] == ["ingested"]
    check(cli)
    # clearing one field, then undoing every correction
    cli.tag(name, "p", unit=None)
    assert cli.documents("p")[0].effective_profile().unit is None
    assert all("unit" not in m for m in _metas(cli, "p"))
    record = cli.tag(name, "p", reset=True)
    assert record.profile_corrections == {} and record.effective_profile().entity == ENTITY
    assert all(m["entity"] == ENTITY and m["doc_type"] == "rbi_master_circular" for m in _metas(cli, "p"))


def test_tag_rejects_unknown_values_and_documents(cli, capsys):
    assert main(["tag", "05MC0104ABCDEF1234567890.pdf", "--workspace", "p", "--type", "10K", "--json"]) == EXIT_FAILED
    assert "document type '10K' is not known; use one of 10-K" in json.loads(capsys.readouterr().out)["error"]
    assert main(["tag", "nope.pdf", "--workspace", "p", "--entity", "X"]) == EXIT_FAILED
    assert "There is no document named 'nope.pdf'" in capsys.readouterr().err
    assert main(["tag", "05MC0104ABCDEF1234567890.pdf", "--workspace", "p"]) == EXIT_FAILED  # nothing to correct
    assert "nothing to correct for 05MC0104ABCDEF1234567890.pdf" in capsys.readouterr().err
    assert cli.documents("p")[0].profile_corrections == {}
