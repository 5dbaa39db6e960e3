"""The Eval page under ``streamlit.testing.v1.AppTest``: two runs in a temporary runs folder (table, trends with the
published SciFact anchors, latency, the per-question comparison and the retrieved chunks), and "Run now" on a tiny
ground truth (real ingest, retrieval and extractive answers), whose new run appears on the page."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from prism.evaluation.runs import RUN_KEYS, RunStore
from prism.service import PrismService
from prism.ui import resources
from prism.ui.charts import ablation_figure, latency_figure
from prism.ui.evaluation.compare import question_link
from prism.ui.evaluation.tables import by_type_frame, compare_frame
from prism.ui.evaluation.view import runs_frame
from prism.ui.explain import literal
from tests.conftest import REPO
from tests.ui.apptest_helpers import no_exception as _no_exception
from tests.ui.apptest_helpers import run_until
from tests.ui.apptest_helpers import texts as _texts

UPI = REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf"
TIMEOUT = 120


def _question(qid: str, ndcg: float, relevant_first: bool, f1: float) -> dict:
    chunk = f"{qid}-c1"
    return {
        "id": qid, "query": f"Question {qid} about the UPI limits?", "type": "numeric",
        "relevant": [chunk], "relevant_entries": [{"source": "c.pdf", "page": 2}],
        "reference_answer": f"Reference answer of {qid}.",
        "retrieved": [
            {"rank": 1, "chunk_id": chunk if relevant_first else f"{qid}-c9", "source": "c.pdf", "page_start": 2,
             "page_end": 2, "relevant": relevant_first,
             "scores": {"dense": 0.61, "dense_rank": 1, "bm25": 7.2, "bm25_rank": 2, "rrf": 0.0163, "rrf_rank": 1,
                        "rerank": None, "rerank_rank": None}},
        ],
        "metrics": {"ndcg@10": ndcg, "mrr@10": ndcg, "hit@5": 1.0},
        "answer": {"text": f"Answer to {qid} [1].", "declined": False, "f1": f1},
        "latency_ms": {"retrieval": {"total": 40.0}, "answer": {"total": 900.0}},
    }


def _run(run_id: str, version: str, created: str, ndcgs: list[float]) -> dict:
    queries = [_question(f"q{i + 1}", v, v > 0, 0.2 + 0.1 * i) for i, v in enumerate(ndcgs)]
    run = {k: None for k in RUN_KEYS}
    run.update({
        "schema": 1, "id": run_id, "group": run_id, "variant": "hybrid", "version": version, "tag": f"tag-{version}",
        "created_at": created, "git_commit": "unknown",
        "dataset": {"name": "scifact", "format": "beir", "split": "train", "content_hash": "same"},
        "workspace": {"name": "beir-scifact"}, "options": {}, "config": {}, "environment": {},
        "metrics": {"ndcg@10": sum(ndcgs) / len(ndcgs), "mrr@10": 0.5, "hit@5": 1.0, "answer_f1": 0.3},
        "metrics_by_type": {}, "counts": {"queries": len(ndcgs)}, "skipped": [],
        "latency_ms": {"retrieval": {"dense": {"p50": 20.0, "p95": 30.0, "p99": 35.0, "n": 3},
                                     "total": {"p50": 40.0, "p95": 55.0, "p99": 60.0, "n": 3}},
                       "answer": {"total": {"p50": 900.0, "p95": 1500.0, "p99": 1800.0, "n": 3}}},
        "queries": queries,
        "chunk_texts": {q["retrieved"][0]["chunk_id"]: f"Chunk text of {q['id']}: P2P transfers ₹1,00,000."
                        for q in queries},
    })
    return run


RUN_A = _run("0.1.0_20260101T000000Z", "0.1.0", "2026-01-01T00:00:00+00:00", [1.0, 0.0, 0.5])
RUN_B = _run("0.2.0_20260201T000000Z", "0.2.0", "2026-02-01T00:00:00+00:00", [1.0, 1.0, 0.0])


@pytest.fixture
def page_env(tmp_path, monkeypatch, embedder) -> Path:
    """A runs folder, no sample documents (no first-start build) and a service sharing the session's embedder."""
    eval_dir = tmp_path / "eval"
    empty = tmp_path / "no_samples"
    empty.mkdir()
    monkeypatch.setenv("PRISM_EVAL_DIR", str(eval_dir))
    monkeypatch.setenv("PRISM_SAMPLE_DIR", str(empty))
    monkeypatch.setattr(resources, "make_service",
                        lambda home: PrismService(resources.settings_from_secrets(), embedder=embedder))
    return eval_dir


def _open_eval_page() -> AppTest:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT)
    at.run()
    at.switch_page("pages/eval_page.py").run()
    return at


def _run_until(at: AppTest, predicate: Callable[[AppTest], bool], timeout: float = 180) -> AppTest:
    return run_until(at, predicate, timeout, 0.5)


def test_compare_frame_marks_improved_and_regressed_with_first_relevant_ranks():
    frame = compare_frame(RUN_A, RUN_B, "ndcg@10")
    assert list(frame["verdict"]) == ["same", "improved", "regressed"]
    assert list(frame["A first relevant rank"].fillna(0)) == [1, 0, 1]  # q2 of A retrieved no relevant chunk
    assert list(frame["B first relevant rank"].fillna(0)) == [1, 1, 0]
    assert list(frame["change (B − A)"]) == [0.0, 1.0, -0.5]
    assert list(frame["A answer F1"]) == pytest.approx([0.2, 0.3, 0.4])
    grown = {**RUN_B, "queries": [*RUN_B["queries"], _question("w001", 1.0, True, 0.5)]}  # a pair added since A
    frame = compare_frame(RUN_A, grown, "ndcg@10")
    assert list(frame["verdict"]) == ["same", "improved", "regressed", "new"]
    assert frame["A ndcg@10"].isna().tolist()[-1] and list(frame["B first relevant rank"].fillna(0))[-1] == 1
    table = runs_frame([{"id": "r1", "metrics": {"ndcg@10": 0.5}, "created_at": "2026-01-01T10:00:00+00:00"},
                        {"id": "r2", "metrics": {"ndcg@10": 0.7}, "created_at": "2026-01-02T10:00:00+00:00"}])
    assert list(table["run"]) == ["r2", "r1"] and list(table["ndcg@10"]) == [0.7, 0.5]


def test_eval_page_with_two_runs(page_env):
    store = RunStore(page_env)
    store.write(RUN_A)
    store.write(RUN_B)
    at = _open_eval_page()
    _no_exception(at)
    text = _texts(at)
    assert "Evaluation" in [t.value for t in at.title]
    table = at.dataframe[0].value
    assert list(table["run"]) == [RUN_B["id"], RUN_A["id"]]
    assert list(table["tag"]) == ["tag-0.2.0", "tag-0.1.0"] and list(table["dataset"]) == ["scifact (train)"] * 2
    # trends: the SciFact anchors are labelled as published test-split numbers, ours as train
    assert "published scifact results on the **test** split" in text and "**train** split" in text
    charts = at.get("plotly_chart")
    assert len(charts) >= 3  # trend(s), latency
    trend = json.loads(charts[0].proto.spec)
    labels = " ".join(a.get("text", "") for a in trend["layout"].get("annotations", []))
    assert "BM25 (BEIR paper) 0.665" in labels and "bge-small-en-v1.5 dense (MTEB) 0.713" in labels
    assert "test split" in labels
    assert [tuple(t["y"]) for t in trend["data"]] == [(0.5, 2 / 3)]
    # ablation: two single runs form no group
    assert "No ablation group yet" in text
    # compare: B (newest) against A, per question; it opens on the answers (answer F1), here the same in both
    assert literal("Run B and run A are even on answer_f1: no question changed (0 better, 0 worse, 3 unchanged).") \
        in text
    at.selectbox(key="prism.eval.compare_metric").set_value("ndcg@10").run()
    _no_exception(at)
    text = _texts(at)
    assert literal("Run B and run A are even on ndcg@10: as many questions got better as got worse (1 better, 1 worse, "
                   "1 unchanged).") in text
    assert "**1 improved**, **1 regressed**, 1 unchanged" in text
    per_question = next(d.value for d in at.dataframe if "verdict" in d.value.columns)
    assert list(per_question["verdict"]) == ["same", "improved", "regressed"]
    assert "Export per-question diff (CSV)" in [b.label for b in at.get("download_button")]
    assert f"Reference answer: {literal('Reference answer of q1.')}" in text
    assert literal("Chunk text of q1: P2P transfers ₹1,00,000.") in text
    assert "✅ relevant" in text
    at.selectbox(key="prism.eval.compare_question").set_value("q3").run()
    _no_exception(at)
    assert "Chunk text of q3" in _texts(at)


def test_a_question_link_opens_that_comparison(page_env):
    store = RunStore(page_env)
    store.write(RUN_A)
    store.write(RUN_B)
    link = question_link("scifact", RUN_A["id"], RUN_B["id"], "q3")
    assert link == f"eval?dataset=scifact&run_a={RUN_A['id']}&run_b={RUN_B['id']}&question=q3"
    at = _open_eval_page()
    per_question = next(d.value for d in at.dataframe if "verdict" in d.value.columns)
    assert list(per_question["link"]) == [question_link("scifact", RUN_A["id"], RUN_B["id"], q)
                                          for q in ("q1", "q2", "q3")]
    assert "Chunk text of q1" in _texts(at) and "Chunk text of q3" not in _texts(at)
    # the link swaps the runs and names q3: the page opens on that comparison
    for key, value in {"dataset": "scifact", "run_a": RUN_B["id"], "run_b": RUN_A["id"], "question": "q3"}.items():
        at.query_params[key] = value
    at.run()
    _no_exception(at)
    assert at.selectbox(key="prism.eval.run_a").value == RUN_B["id"]
    assert at.selectbox(key="prism.eval.run_b").value == RUN_A["id"]
    assert at.selectbox(key="prism.eval.compare_question").value == "q3"
    assert "Chunk text of q3" in _texts(at)
    # once applied, the pickers stay free: choosing another question is not undone by the link
    at.selectbox(key="prism.eval.compare_question").set_value("q1").run()
    _no_exception(at)
    assert at.selectbox(key="prism.eval.compare_question").value == "q1"


def test_the_tabs_show_the_chosen_dataset_only(page_env):
    store = RunStore(page_env)
    store.write(RUN_A)
    store.write(RUN_B)
    other = _run("0.2.0_20260301T000000Z", "0.2.0", "2026-03-01T00:00:00+00:00", [0.5, 0.5, 0.5])
    other["dataset"] = {"name": "sample", "format": "prism", "split": None, "content_hash": "other"}
    other["group"] = other["id"]
    store.write(other)
    at = _open_eval_page()
    _no_exception(at)
    assert at.selectbox(key="prism.eval.view_dataset").value == "sample"  # the newest run's dataset
    assert "Two runs are needed to compare." in _texts(at)  # one sample run
    assert list(at.selectbox(key="prism.eval.latency_run").options) == [other["id"]]
    at.selectbox(key="prism.eval.view_dataset").set_value("scifact").run()
    _no_exception(at)
    assert list(at.selectbox(key="prism.eval.run_b").options) == [RUN_B["id"], RUN_A["id"]]
    assert [o.split(" · ")[0] for o in at.selectbox(key="prism.eval.type_group").options] == [RUN_B["id"],
                                                                                             RUN_A["id"]]


def test_eval_page_without_runs_explains(page_env):
    at = _open_eval_page()
    _no_exception(at)
    assert "No evaluation runs" in _texts(at)
    assert any(b.label == "Run now" for b in at.button)


def test_run_now_adds_a_run(page_env, tmp_path, monkeypatch):
    folder = tmp_path / "gt"
    folder.mkdir()
    shutil.copy(UPI, folder / UPI.name)
    pairs = [
        {"id": "n1", "query": "What is the toll-free number of the UPI contact centre?", "type": "factoid",
         "reference_answer": "1800-210-4455.",
         "relevant": [{"source": UPI.name, "page": 3, "evidence": "toll-free contact centre 1800-210-4455"}]},
        {"id": "n2", "query": "Which firm is the bank's statutory auditor?", "type": "negative",
         "reference_answer": "The documents do not say.", "relevant": []},
    ]
    gt = folder / "mini.json"
    gt.write_text(json.dumps(pairs), encoding="utf-8")
    monkeypatch.setenv("PRISM_EVAL_GROUND_TRUTH", str(gt))
    at = _open_eval_page()
    next(b for b in at.button if b.label == "Run now").click().run()
    _no_exception(at)
    at = _run_until(at, lambda a: any("New run" in str(s.value) for s in a.success) or bool(a.error))
    _no_exception(at)
    assert not at.error, [e.value for e in at.error]
    assert any("New run" in str(s.value) for s in at.success)
    table = at.dataframe[0].value
    assert list(table["tag"]) == ["run-now"] and list(table["dataset"]) == ["mini"]
    index = json.loads((page_env / "index.json").read_text())
    assert len(index["runs"]) == 1 and index["runs"][0]["queries"] == 2


def test_by_type_frame_has_a_row_per_question_type_and_a_column_per_variant():
    queries = [{"type": "factoid"}, {"type": "numeric"}, {"type": "numeric"}]
    runs = [{"variant": "hybrid", "metrics": {"ndcg@10": 0.833}, "queries": queries,
             "metrics_by_type": {"factoid": {"ndcg@10": 0.9}, "numeric": {"ndcg@10": 0.7}}},
            {"variant": "bm25", "metrics": {"ndcg@10": 0.86}, "queries": queries,
             "metrics_by_type": {"factoid": {"ndcg@10": 0.95}, "numeric": {"ndcg@10": 0.8}}}]
    frame = by_type_frame(runs, "ndcg@10")
    assert list(frame.columns) == ["question type", "hybrid", "bm25", "n"]
    assert list(frame["question type"]) == ["factoid", "numeric", "all"]
    assert list(frame["hybrid"]) == [0.9, 0.7, 0.833] and list(frame["bm25"]) == [0.95, 0.8, 0.86]
    assert list(frame["n"]) == [1, 2, 3]


def test_charts_are_readable():
    runs = [{"variant": v, "metrics": {"ndcg@10": 0.83 + i / 100, "hit@5": 0.9, "mrr@10": 1.04}}
            for i, v in enumerate(["dense", "bm25", "hybrid", "+rerank", "+hyde", "+multi"])]
    fig = ablation_figure(runs, ["ndcg@10", "hit@5", "mrr@10"], {"ndcg@10": "NDCG of the top 10"})
    assert all(t.textposition == "inside" and t.textangle == -90 for t in fig.data)  # labels inside their own bar
    assert fig.layout.yaxis.range[1] == pytest.approx(1.04 * 1.08)  # the tallest bar is not cut
    assert fig.data[0].customdata[0] == "NDCG of the top 10" and "%{customdata}" in fig.data[0].hovertemplate
    assert fig.layout.legend.x > 1  # beside the plot, never over the (rotated) x-axis labels
    older = ablation_figure(runs, ["ndcg@10", "declined_negatives", "hit@5"])  # a metric these runs predate
    assert list(older.data[0].x) == ["ndcg@10", "hit@5"]
    lat = latency_figure({"retrieval": {"dense": {"p50": 4.0, "p95": 9.0, "p99": 12.0}},
                          "answer": {"total": {"p50": 900.0, "p95": 2400.0, "p99": 3100.0}}})
    assert list(lat.layout.yaxis.ticktext) == ["2 ms", "5 ms", "10 ms", "20 ms", "50 ms", "100 ms", "200 ms",
                                               "500 ms", "1 s", "2 s", "5 s"]
    assert lat.layout.yaxis.type == "log" and lat.layout.yaxis.tickvals[8] == 1000.0


def test_runs_of_dataset_follows_the_dataset_selected_to_run(page_env, tmp_path, monkeypatch):
    """"Runs of dataset" defaults to the dataset selected to run, not to the newest run's, and follows
    a new selection; a view picked by hand stays until the run selection changes."""
    data = tmp_path / "public"
    (data / "scifact").mkdir(parents=True)  # present: SciFact can be selected to run
    gt = tmp_path / "gt" / "eval_pairs.json"
    gt.parent.mkdir()
    gt.write_text("[]", encoding="utf-8")
    monkeypatch.setenv("PRISM_EVAL_DATA_DIR", str(data))
    monkeypatch.setenv("PRISM_EVAL_GROUND_TRUTH", str(gt))
    store = RunStore(page_env)
    sample = _run("0.2.0_20260101T000000Z", "0.2.0", "2026-01-01T00:00:00+00:00", [0.5, 0.5, 0.5])
    sample["dataset"] = {"name": "eval_pairs", "format": "prism", "split": None, "content_hash": "s"}
    store.write(sample)
    store.write(RUN_B)  # the newest run is SciFact's
    at = _open_eval_page()
    _no_exception(at)
    assert at.selectbox(key="prism.eval.dataset").value == "Sample set (eval_pairs.json)"
    assert at.selectbox(key="prism.eval.view_dataset").value == "eval_pairs"  # not the newest run's "scifact"
    at.selectbox(key="prism.eval.dataset").set_value("SciFact (BEIR)").run()
    _no_exception(at)
    assert at.selectbox(key="prism.eval.view_dataset").value == "scifact"
    at.selectbox(key="prism.eval.view_dataset").set_value("eval_pairs").run()
    at.run()
    assert at.selectbox(key="prism.eval.view_dataset").value == "eval_pairs"  # picked by hand: it stays
