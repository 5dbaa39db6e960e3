"""The Eval page with a TAT-QA run (under ``streamlit.testing.v1.AppTest``): ``tatqa_first_line`` in the runs table
beside the other metrics, and the by-type tab grouping it by answer type and by source. The run's values are
computed by the real matcher and aggregation over the TAT-QA-shaped fixture's questions."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from prism.evaluation.runs import RUN_KEYS, RunStore
from prism.evaluation.tatqa import aggregate, load_tatqa, score_answer
from prism.service import PrismService
from prism.ui import resources
from prism.ui.evaluation.tables import by_type_frame
from tests.conftest import REPO
from tests.ui.apptest_helpers import no_exception

FIXTURE = REPO / "tests" / "fixtures" / "tatqa" / "tatqa_dataset_fixture.json"


def _tatqa_run(tmp_path) -> dict:
    """A run whose answers state the gold for span questions only (``The answer is <gold>``)."""
    ds = load_tatqa(FIXTURE, tmp_path / "html")
    records = []
    for q in ds.queries:
        text = f"The answer is {q.reference_answer}. [1]" if q.type == "span" else "Other, 2019: 44.1 [1]"
        records.append({"id": q.id, "query": q.query, "type": q.type, "answer_from": q.gold["answer_from"],
                        "gold": q.gold["answer"], "metrics": {}, "retrieved": [], "relevant": [],
                        "answer": {"text": text, "declined": False, **score_answer(q, text, None, False)},
                        "latency_ms": {"retrieval": {}, "answer": {"total": 500.0}}})
    metrics, by_type = aggregate(records)
    run = {k: None for k in RUN_KEYS}
    run.update({"schema": 1, "id": "0.3.0_20261202T000000Z", "group": "0.3.0_20261202T000000Z", "variant": "hybrid",
                "version": "0.3.0", "tag": "tatqa-test", "created_at": "2026-12-02T00:00:00+00:00",
                "git_commit": "unknown", "dataset": {**ds.summary(), "evaluated_queries": len(records)},
                "workspace": {"name": "eval-tatqa"}, "options": {}, "config": {}, "environment": {},
                "metrics": metrics, "metrics_by_type": by_type, "counts": {"queries": len(records)}, "skipped": [],
                "latency_ms": {"answer": {"total": {"p50": 500.0, "p95": 500.0, "p99": 500.0, "n": len(records)}}},
                "queries": records, "chunk_texts": {}})
    return run


@pytest.fixture
def page_env(tmp_path, monkeypatch, embedder):
    eval_dir = tmp_path / "eval"
    empty = tmp_path / "no_samples"
    empty.mkdir()
    monkeypatch.setenv("PRISM_EVAL_DIR", str(eval_dir))
    monkeypatch.setenv("PRISM_SAMPLE_DIR", str(empty))
    monkeypatch.setattr(resources, "make_service",
                        lambda home: PrismService(resources.settings_from_secrets(), embedder=embedder))
    return eval_dir


def test_tatqa_run_groups_by_type_and_source(tmp_path):
    run = _tatqa_run(tmp_path)
    assert run["metrics"]["tatqa_first_line"] == pytest.approx(4 / 12)  # the 4 span questions
    frame = by_type_frame([run], "tatqa_first_line").set_index("question type")
    assert list(frame.index) == ["span", "multi-span", "arithmetic", "count", "from table", "from text",
                                 "from table-text", "all"]
    assert frame.loc["span", "hybrid"] == 1.0 and frame.loc["arithmetic", "hybrid"] == 0.0
    assert frame.loc["from text", "hybrid"] == pytest.approx(2 / 4)  # fx-q-6 and fx-q-8 are text spans
    assert list(frame["n"]) == [4, 2, 4, 2, 6, 4, 2, 12]


def test_eval_page_shows_the_tatqa_metric(page_env, tmp_path):
    RunStore(page_env).write(_tatqa_run(tmp_path))
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    at.run()
    at.switch_page("pages/eval_page.py").run()
    no_exception(at)
    runs = at.dataframe[0].value
    assert list(runs["dataset"]) == ["tatqa (fixture)"]
    assert runs["tatqa_first_line"].tolist() == pytest.approx([4 / 12])
    by_type = next(d.value for d in at.dataframe if "question type" in d.value.columns).set_index("question type")
    assert by_type.loc["from table-text", "hybrid"] == pytest.approx(1 / 2) and by_type.loc["from table", "n"] == 6
