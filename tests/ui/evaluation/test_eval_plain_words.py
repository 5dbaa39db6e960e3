"""The Eval page in plain words: every metric has a plain line beside it, a comparison of two runs
opens with a sentence computed from the runs' per-question records and per-type metrics, and the charts' axes and
legends say what they show. Two small TAT-QA-like runs are written in the test and read by the real page."""

from __future__ import annotations

import json

import pytest

from prism.evaluation.metrics import METRICS
from prism.evaluation.runs import RUN_KEYS, RunStore
from prism.types import MetricSpec
from prism.ui.charts import ablation_figure, latency_figure, metric_trend_figure
from prism.ui.evaluation.summary import comparison_sentence, glossary, opening_metric
from prism.ui.explain import literal
from tests.ui.apptest_helpers import no_exception, texts
from tests.ui.evaluation.test_eval_page import _open_eval_page, page_env  # noqa: F401  (page_env: a fixture)

OUTCOMES = {  # question → (type, right in A, right in B)
    "q1": ("arithmetic", False, True), "q2": ("arithmetic", False, True), "q3": ("arithmetic", False, True),
    "q4": ("span", False, True), "q5": ("span", True, False), "q6": ("span", True, True),
    "q7": ("arithmetic", True, True),
}
"""4 better (3 arithmetic, 1 span), 1 worse (span), 2 unchanged: arithmetic 1/4 → 4/4, span 2/3 → 2/3."""
SENTENCE_A_TO_B = ("Run B answers 3 more questions right than run A (4 better, 1 worse, 2 unchanged), mostly "
                   "arithmetic (3 of the 4 gains; arithmetic questions 0.250 → 1.000).")


def _run(run_id: str, created: str, side: int) -> dict:
    """A run record whose questions are right or wrong as :data:`OUTCOMES` says for ``side`` (1: A, 2: B)."""
    queries = [{"id": qid, "query": f"What is the figure of {qid}?", "type": o[0], "relevant": [], "retrieved": [],
                "metrics": {}, "answer": {"text": "…", "declined": False, "tatqa_match": bool(o[side])}}
               for qid, o in OUTCOMES.items()]
    right = {t: [q["answer"]["tatqa_match"] for q in queries if q["type"] == t] for t in ("arithmetic", "span")}
    run = {k: None for k in RUN_KEYS}
    run.update({
        "schema": 1, "id": run_id, "group": run_id, "variant": "hybrid", "version": run_id[:5], "tag": "",
        "created_at": created, "git_commit": "unknown",
        "dataset": {"name": "tatqa", "format": "tatqa", "split": "dev", "content_hash": "same"},
        "workspace": {"name": "tatqa"}, "options": {}, "config": {}, "environment": {},
        "metrics": {"tatqa_first_line": sum(q["answer"]["tatqa_match"] for q in queries) / len(queries)},
        "metrics_by_type": {t: {"tatqa_first_line": sum(v) / len(v)} for t, v in right.items()},
        "counts": {"queries": len(queries)}, "skipped": [], "latency_ms": {}, "queries": queries,
        "chunk_texts": {},
    })
    return run


RUN_A = _run("0.1.0_20260101T000000Z", "2026-01-01T00:00:00+00:00", 1)
RUN_B = _run("0.2.0_20260201T000000Z", "2026-02-01T00:00:00+00:00", 2)
FIRST_LINE = next(m for m in METRICS if m.name == "tatqa_first_line")


def test_every_metric_has_plain_words_and_a_win_clause():
    for m in METRICS:
        assert m.plain and m.plain.endswith((".", ")")), m.name
        assert "{n}" in m.win, m.name
        assert not any(w in m.plain.lower() for w in ("ndcg", "reciprocal", "token f1", "ranx")), m.name


def test_the_sentence_counts_questions_and_names_where_the_gains_are():
    assert comparison_sentence(RUN_A, RUN_B, FIRST_LINE) == SENTENCE_A_TO_B
    assert comparison_sentence(RUN_B, RUN_A, FIRST_LINE) == (
        "Run B answers 3 fewer questions right than run A (1 better, 4 worse, 2 unchanged), mostly arithmetic "
        "(3 of the 4 losses; arithmetic questions 1.000 → 0.250).")
    assert comparison_sentence(RUN_A, RUN_A, FIRST_LINE) == (
        "Run B and run A are even on tatqa_first_line: no question changed (0 better, 0 worse, 7 unchanged).")
    # A lower-is-better metric gains by falling; gains spread over types are listed, not called "mostly".
    declines = MetricSpec("false_declines", "", source="answers", lower_is_better=True, answer_key="declined",
                          win="wrongly declines {n}")
    a = {"queries": [{"id": f"d{i}", "type": t, "answer": {"declined": True}}
                     for i, t in enumerate(["span", "count", "arithmetic"])]}
    b = {"queries": [{"id": f"d{i}", "type": t, "answer": {"declined": False}}
                     for i, t in enumerate(["span", "count", "arithmetic"])]}
    assert comparison_sentence(a, b, declines) == ("Run B wrongly declines 3 fewer questions than run A (3 better, "
                                                   "0 worse, 0 unchanged), across span 1, count 1, arithmetic 1.")
    assert comparison_sentence({"queries": []}, b, declines) == ("Run A and run B have no question in common. Run B "
                                                                 "also has 3 new questions.")
    assert comparison_sentence(a, {"queries": []}, declines) == "Run A and run B have no question in common."


def test_the_comparison_opens_on_whether_answers_are_right():
    assert opening_metric(["ndcg@10", "answer_f1", "tatqa_first_line"]) == "tatqa_first_line"
    assert opening_metric(["ndcg@10", "mrr@10"]) == "ndcg@10"
    assert opening_metric(["recall@20"]) == "recall@20" and opening_metric([]) is None
    assert glossary(METRICS, ["hit@5", "nope"]) == [
        {"metric": "hit@5", "in plain words": "Share of questions with a right passage among the first 5 results."}]


def test_the_eval_page_opens_a_comparison_with_the_sentence_and_says_what_each_metric_means(page_env):  # noqa: F811
    store = RunStore(page_env)
    store.write(RUN_A)
    store.write(RUN_B)
    at = _open_eval_page()
    no_exception(at)
    shown = texts(at)
    assert f"**{literal(SENTENCE_A_TO_B)}**" in shown  # B (newest) against A
    assert f"tatqa\\_first\\_line: {literal(FIRST_LINE.plain)}" in shown  # beside the metric picked
    assert f"**tatqa\\_first\\_line** · {literal(FIRST_LINE.plain)}" in shown  # "What these numbers mean"
    # Swapping the runs rewrites the sentence from the same records.
    at.selectbox(key="prism.eval.run_a").set_value(RUN_B["id"])
    at.selectbox(key="prism.eval.run_b").set_value(RUN_A["id"]).run()
    no_exception(at)
    assert "Run B answers 3 fewer questions right than run A" in texts(at)
    trend = json.loads(at.get("plotly_chart")[0].proto.spec)["layout"]
    assert trend["xaxis"]["title"]["text"] == "Prism version · run date (UTC)"
    assert trend["yaxis"]["title"]["text"] == "tatqa_first_line (0 to 1, higher is better)"
    assert FIRST_LINE.plain in trend["title"]["text"] and trend["legend"]["title"]["text"] == "Retrieval setup"


def test_chart_axes_and_legends_say_what_they_show():
    runs = [{"variant": v, "metrics": {"ndcg@10": 0.8, "hit@5": 0.9}} for v in ("dense", "hybrid")]
    bars = ablation_figure(runs, ["ndcg@10", "hit@5"]).layout
    assert bars.yaxis.title.text == "score (0 to 1, higher is better)"
    assert bars.xaxis.title.text.startswith("metric") and bars.legend.title.text == "Retrieval setup"
    lat = latency_figure({"answer": {"total": {"p50": 900.0, "p95": 2400.0, "p99": 3100.0}}})
    assert [t.name for t in lat.data] == ["p50: half the questions are faster", "p95: 1 in 20 is slower",
                                          "p99: 1 in 100 is slower"]
    assert lat.layout.yaxis.title.text == "time per question (log scale)"
    assert lat.layout.xaxis.title.text == "part · stage of answering"
    falls = metric_trend_figure([{"id": "r", "version": "0.1", "metrics": {"false_declines": 0.1}}],
                                "false_declines", lower_is_better=True).layout
    assert falls.yaxis.title.text == "false_declines (0 to 1, lower is better)"


@pytest.mark.parametrize("spec", [m for m in METRICS if m.source == "answers"], ids=lambda m: m.name)
def test_each_answer_metric_reads_as_a_sentence(spec):
    a = {"queries": [{"id": "x", "type": "span", "answer": {spec.answer_key: 0.0}}]}
    b = {"queries": [{"id": "x", "type": "span", "answer": {spec.answer_key: 1.0}}]}
    if spec.questions == "negative":
        a["queries"][0]["type"] = b["queries"][0]["type"] = "negative"
    sentence = comparison_sentence(a, b, spec)  # the value rose: one more question "wins" (or, lower is better, loses)
    net = "0 better, 1 worse" if spec.lower_is_better else "1 better, 0 worse"
    assert sentence.startswith("Run B ") and " 1 more question " in sentence, sentence
    qtype = "negative" if spec.questions == "negative" else "span"
    what = "losses" if spec.lower_is_better else "gains"
    assert sentence.endswith(f"than run A ({net}, 0 unchanged), mostly {qtype} (1 of the 1 {what}).")
