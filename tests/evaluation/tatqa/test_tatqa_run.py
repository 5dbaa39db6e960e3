"""TAT-QA end to end on a small TAT-QA-shaped fixture (tests/fixtures/tatqa, two contexts, twelve questions of every
answer type and source, written in TAT-QA's JSON shape): the HTML pages, real ingestion into a real workspace,
scoped offline answers, the first-line metric by type and source, and the run file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from prism.errors import PrismError
from prism.evaluation.datasets import detect_format, load_dataset
from prism.evaluation.runner import run_evaluation
from prism.evaluation.runs import RunStore
from prism.evaluation.tatqa import aggregate, context_html, first_line, load_tatqa, score_answer
from tests.conftest import REPO

FIXTURE = REPO / "tests" / "fixtures" / "tatqa" / "tatqa_dataset_fixture.json"


def test_context_html_is_a_report_page_with_everything_escaped() -> None:
    ctx = {"table": {"table": [["", "2019 <i>", "2018"], ["Sales \"x\"", "<b>1</b>", "2"]]},
           "paragraphs": [{"order": 2, "text": "Second </p><script>alert(1)</script>"}, {"order": 1, "text": "First"}]}
    page = context_html(ctx, "Extract <1>")
    assert "<title>Extract &lt;1&gt;</title>" in page
    assert "<thead><tr><th></th><th>2019 &lt;i&gt;</th><th>2018</th></tr></thead>" in page
    assert "<tr><td>Sales &quot;x&quot;</td><td>&lt;b&gt;1&lt;/b&gt;</td><td>2</td></tr>" in page
    assert page.index("<p>First</p>") < page.index("<p>Second &lt;/p&gt;&lt;script&gt;")
    assert "<script>" not in page and "<b>" not in page


def test_loader_writes_one_page_per_context_and_scopes_each_question(tmp_path) -> None:
    assert detect_format(FIXTURE) == "tatqa"
    ds = load_dataset(FIXTURE, documents_dir=tmp_path)
    assert (ds.format, ds.split, len(ds.documents), len(ds.queries)) == ("tatqa", "fixture", 2, 12)
    assert [d.source for d in ds.documents] == ["ctx-0001.html", "ctx-0002.html"]
    assert {q.scope for q in ds.queries} == {("ctx-0001.html",), ("ctx-0002.html",)}
    q3 = next(q for q in ds.queries if q.id == "fx-q-3")
    assert (q3.type, q3.gold["answer"], q3.gold["scale"], q3.gold["answer_from"]) == ("arithmetic", -12.6, "million",
                                                                                       "table")
    sampled = load_tatqa(FIXTURE, tmp_path, sample=5, seed=7)
    assert len(sampled.queries) == 5 and sampled.split == "fixture, sample 5 seed 7"
    assert [q.id for q in load_tatqa(FIXTURE, tmp_path, sample=5, seed=7).queries] == [q.id for q in sampled.queries]


def test_bad_contexts_are_refused_by_name(tmp_path) -> None:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    data[1]["questions"][2]["answer_type"] = "guess"
    bad = tmp_path / "tatqa_dataset_bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PrismError, match=r"tatqa_dataset_bad.json context 2 question 3 \(fx-q-9\) has answer_type"):
        load_tatqa(bad, tmp_path / "html")
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(PrismError, match="tatqa_dataset_bad.json is not valid JSON"):
        load_tatqa(bad, tmp_path / "html")
    with pytest.raises(PrismError, match=r"^--sample and --half apply to TAT-QA datasets only, not to 'prism'\.$"):
        load_dataset(REPO / "data" / "ground_truth" / "eval_pairs.json", sample=3)


def test_first_line_skips_the_extractive_heading_and_the_calculation_counts(tmp_path) -> None:
    text = "Extractive answer (no LLM configured):\n\n- Other, 2019: 44.1 [1]\n- Other, 2018: 56.7 [1]"
    assert first_line(text) == "Other, 2019: 44.1 [1]"
    ds = load_tatqa(FIXTURE, tmp_path)
    q3 = next(q for q in ds.queries if q.id == "fx-q-3")
    assert score_answer(q3, text, None, False)["tatqa_match"] is False
    scored = score_answer(q3, text, {"result": "-12.6 million"}, False)
    assert (scored["first_line_match"], scored["computed_match"], scored["tatqa_match"]) == (False, True, True)
    assert score_answer(q3, "The change is -12.6 [1]", None, True)["tatqa_match"] is False  # a decline never matches


def test_fixture_through_real_ingest_and_scoped_answers(service, tmp_path) -> None:
    ds = load_tatqa(FIXTURE, tmp_path / "html")
    ((run, path),) = run_evaluation(service, ds, tag="fixture", store=RunStore(tmp_path / "eval"))
    assert path.is_file() and run["dataset"]["format"] == "tatqa" and run["workspace"]["documents"] == 2
    by_id = {q["id"]: q for q in run["queries"]}
    # each answer cites only its own page (the question is scoped to it)
    source_of = {row["chunk_id"]: doc.source for doc, rows in service.chunk_rows(run["workspace"]["name"])
                 for row in rows}
    for q in run["queries"]:
        assert {source_of[c] for c in q["answer"]["citations"]} <= {q["source"]}
    matched = {qid for qid, q in by_id.items() if q["answer"]["tatqa_match"]}
    # offline: table cells and answering sentences quoted first; changes, percentage changes and averages of a row
    # computed in code; the counts of listed items are still declined
    assert matched == {"fx-q-1", "fx-q-3", "fx-q-4", "fx-q-6", "fx-q-7", "fx-q-8", "fx-q-9", "fx-q-10", "fx-q-12"}
    assert by_id["fx-q-3"]["answer"]["first_line"].endswith("Change in Other, 2018 to 2019: -12.6 (-22.22 %)")
    assert by_id["fx-q-8"]["answer"]["first_line"].startswith(
        "$1.2 million: The allowance for doubtful accounts was $1.2 million")
    assert run["metrics"]["tatqa_first_line"] == pytest.approx(9 / 12)
    assert run["metrics"]["tatqa_computed"] == pytest.approx(4 / 12)
    by = run["metrics_by_type"]
    assert {k: (by[k]["questions"], round(by[k]["tatqa_first_line"], 4)) for k in by} == {
        "span": (4, 1.0), "multi-span": (2, 0.5), "arithmetic": (4, 1.0), "count": (2, 0.0),
        "from table": (6, round(5 / 6, 4)), "from text": (4, 0.5), "from table-text": (2, 1.0)}
    assert aggregate(run["queries"]) == (run["metrics"], run["metrics_by_type"])
    stored = RunStore(tmp_path / "eval").list()[-1]
    assert stored["format"] == "tatqa" and stored["metrics"]["tatqa_first_line"] == pytest.approx(9 / 12)


def test_cli_eval_run_tatqa_sample(embedder, prism_home, tmp_path, monkeypatch, capsys) -> None:
    import prism.service as service_module
    from prism.cli.main import main
    from prism.config import Settings

    service = service_module.PrismService(Settings(eval_dir=tmp_path / "default_eval"), embedder=embedder)
    monkeypatch.setattr(service_module, "PrismService", lambda *a, **k: service)
    args = ["eval", "run", str(FIXTURE), "--format", "tatqa", "--sample", "3", "--seed", "10", "--docs",
            str(tmp_path / "html"), "--eval-dir", str(tmp_path / "eval"), "--tag", "cli", "--json"]
    code = main(args)
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["dataset"]["split"] == "fixture, sample 3 seed 10"
    run = out["runs"][0]
    stored = json.loads(Path(run["file"]).read_text(encoding="utf-8"))
    ids = [q.id for q in load_tatqa(FIXTURE, tmp_path, 3, 10).queries]
    assert [q["id"] for q in stored["queries"]] == ids and run["counts"]["queries"] == 3
    # scoped answers do not depend on the other pages: the same matches as the full fixture run
    matched = {"fx-q-1", "fx-q-3", "fx-q-4", "fx-q-6", "fx-q-7", "fx-q-8", "fx-q-9", "fx-q-10", "fx-q-12"}
    assert ids == ["fx-q-1", "fx-q-7", "fx-q-10"]  # pages of both contexts
    assert run["metrics"]["tatqa_first_line"] == pytest.approx(len(matched & set(ids)) / 3) == pytest.approx(1.0)
    assert sorted(p.name for p in (tmp_path / "html").iterdir()) == sorted({q["source"] for q in stored["queries"]})
    code = main(["eval", "run", str(REPO / "data" / "ground_truth" / "eval_pairs.json"), "--sample", "2", "--json"])
    error = json.loads(capsys.readouterr().out)["error"]
    assert code == 1 and error == "--sample and --half apply to TAT-QA datasets only, not to 'prism'."
