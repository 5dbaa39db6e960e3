"""Feedback and the workspace's own ground truth on a real workspace (the sample UPI circular): the append-only log
under concurrent writers, a pair made from passages marked relevant (never duplicated for a question asked again),
edits and deletes, and ``eval run workspace`` evaluating the pairs over the workspace itself."""

from __future__ import annotations

import json
import threading

import pytest

from prism.cli.common import EXIT_FAILED, EXIT_OK
from prism.cli.main import main
from prism.errors import PrismError
from prism.evaluation.feedback import evidence_of, question_key
from prism.evaluation.relevance import contains_evidence
from prism.service import PrismService
from prism.types import IngestItem
from tests.conftest import REPO, offline_service

UPI = REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf"
QUESTION = "What is the maximum amount of a P2P collect request?"


@pytest.fixture(scope="module")
def svc(tmp_path_factory, embedder) -> PrismService:
    service = offline_service(tmp_path_factory.mktemp("feedback_home"), embedder, briefing_on_ingest=False,
                              eval_dir=tmp_path_factory.mktemp("feedback_eval"))
    assert [r.status for r in service.ingest([IngestItem(UPI)], "fb")] == ["ingested"]
    return service


def test_feedback_is_appended_by_concurrent_writers_and_the_latest_mark_wins(svc):
    store = svc.feedback("fb")
    store.path.unlink(missing_ok=True)

    def write(i: int) -> None:
        for j in range(10):
            store.add("citation", "relevant" if (i + j) % 2 else "not_relevant", question=f"q{i}",
                      chunk_ids=[f"c{j}"], target={"chunk_id": f"c{j}"})

    threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = store.path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 40 and all(json.loads(x)["kind"] == "citation" for x in lines)
    store.add("answer", "up", question="  Q1 ", answer="A [1]", chunk_ids=["c0"], settings={"retrieval_mode": "bm25"})
    store.add("answer", "down", question="q1", answer="A [1]")
    latest = store.latest("q1")
    assert latest["answer"] == "down" and latest["c0"] == "relevant" and latest["c1"] == "not_relevant"
    assert store.all()[-2]["settings"] == {"retrieval_mode": "bm25"} and store.all()[-2]["chunk_ids"] == ["c0"]
    with pytest.raises(PrismError, match="takes up, down, not 'meh'"):
        store.add("answer", "meh", question="q1")


def test_a_pair_from_marked_passages_is_not_duplicated_and_can_be_edited_and_deleted(svc):
    answer = svc.ask(QUESTION, "fb")
    cited = answer.citations[0]
    truth = svc.ground_truth("fb")
    pair, created = truth.add(QUESTION, [{"source": cited.source, "page": cited.page_start, "text": cited.text}])
    assert created and pair["id"] == "w001" and pair["type"] == "factoid" and pair["reference_answer"] == ""
    [entry] = pair["relevant"]
    assert entry["source"] == UPI.name and entry["page"] == cited.page_start
    assert contains_evidence(cited.text, entry["evidence"]) and len(entry["evidence"]) <= 200
    again, created = truth.add("what is the maximum amount of a  P2P collect request?",
                               [{"source": cited.source, "page": cited.page_start, "text": cited.text}],
                               "₹2,000 per request.")
    assert not created and again["id"] == "w001" and len(again["relevant"]) == 1
    assert [p["reference_answer"] for p in truth.pairs()] == ["₹2,000 per request."]
    second, _ = truth.add("Which is the cooling period?", [], qtype="negative")
    assert second["id"] == "w002" and second["relevant"] == []
    with pytest.raises(PrismError, match="has no relevant entries"):
        truth.add("A question without passages?", [])
    assert len(truth.pairs()) == 2  # a refused pair is not written
    truth.update("w002", query="What is the SWIFT charge?")
    assert truth.pairs()[1]["query"] == "What is the SWIFT charge?"
    with pytest.raises(PrismError, match="no ground-truth pair 'w009'"):
        truth.update("w009", query="x")
    truth.delete("w002")
    assert [p["id"] for p in truth.pairs()] == ["w001"]


def test_eval_run_workspace_evaluates_the_pairs_over_the_workspace(svc, monkeypatch, capsys):
    if not svc.ground_truth("fb").pairs():
        test_a_pair_from_marked_passages_is_not_duplicated_and_can_be_edited_and_deleted(svc)
    monkeypatch.setattr("prism.cli.common.service", lambda: svc)
    before = {d.doc_id for d in svc.documents("fb")}
    code = main(["eval", "run", "workspace", "--workspace", "fb", "--no-answers", "--json"])
    payload = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK, payload
    assert payload["workspace"]["name"] == "fb" and payload["workspace"]["ingested"] == 0
    assert payload["dataset"]["name"] == "workspace-fb" and payload["runs"][0]["counts"]["queries"] == 1
    assert payload["runs"][0]["metrics"]["hit@5"] == 1.0  # the marked passage is retrieved again
    assert {d.doc_id for d in svc.documents("fb")} == before
    svc.create_workspace("empty-gt")
    assert main(["eval", "run", "workspace", "--workspace", "empty-gt", "--json"]) == EXIT_FAILED
    assert "has no ground truth yet" in json.loads(capsys.readouterr().out)["error"]


def test_dataset_choices_list_missing_ones_with_the_reason(svc, tmp_path):
    settings = svc.settings.model_copy(update={"eval_data_dir": tmp_path})
    (tmp_path / "scifact").mkdir()
    service = PrismService(settings, embedder=svc.embedder)
    choices = {c.label: c for c in service.dataset_choices("fb")}
    assert choices["SciFact (BEIR)"].present and choices["Sample set (eval_pairs.json)"].present
    finance = next(c for c in choices.values() if c.format == "financebench")
    assert not finance.present and finance.reason == f"{tmp_path / 'financebench-dev'} is missing"
    assert [c.present for c in choices.values()] == sorted((c.present for c in choices.values()), reverse=True)


def test_question_key_and_evidence():
    assert question_key("  What IS\tthe limit? ") == "what is the limit?"
    assert evidence_of("a  b\nc") == "a b c" and evidence_of("word " * 60, 20) == "word word word word"
