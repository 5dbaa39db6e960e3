"""The Eval page's pieces: runs table, metric trends with published anchors, ablation bars, latency percentiles,
a two-run per-question comparison with the retrieved chunks, and "Run now" on the sample set.

Runs are read from ``Settings.eval_dir`` (``index.json`` for the table and trends; run files only for the runs a
view needs). "Run now" evaluates in a background thread owned by the analyst's session (:class:`EvalJob` in
``st.session_state``); a file lock in the runs folder keeps two evaluations from running at once across sessions and
processes (two shared cores).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st
from filelock import FileLock, Timeout

from prism.errors import PrismError
from prism.service import PrismService, published_anchors
from prism.service import metrics as metric_specs
from prism.types import SCORE_STAGES, MetricSpec, locator_of
from prism.ui import charts, eval_tables, state
from prism.ui.eval_tables import compare_frame
from prism.ui.explain import literal

logger = logging.getLogger(__name__)

JOB = "prism.eval.job"
TREND_DEFAULTS = 3
"""Metrics charted by default on the Trends tab: the first headline metrics the dataset's runs have."""


# --- pure helpers -----------------------------------------------------------------------------------------------
def headline(specs: Sequence[MetricSpec]) -> list[str]:
    """The names of the headline metrics, in display order."""
    return [m.name for m in specs if m.headline]


def runs_frame(entries: Sequence[Mapping[str, Any]], metrics: Sequence[str] | None = None) -> pd.DataFrame:
    """The runs table, newest first: run, version, tag, date, dataset, variant, questions and the ``metrics``
    columns (default: every metric the entries have, in first-seen order) that any run has."""
    if metrics is None:
        metrics = list(dict.fromkeys(m for e in entries for m in (e.get("metrics") or {})))
    shown = [m for m in metrics if any(m in (x.get("metrics") or {}) for x in entries)]
    rows = []
    for e in reversed(list(entries)):
        values = e.get("metrics") or {}
        dataset = str(e.get("dataset") or "")
        if e.get("split"):
            dataset += f" ({e['split']})"
        row = {"run": e.get("id"), "version": e.get("version"), "tag": e.get("tag") or "",
               "date (UTC)": str(e.get("created_at") or "")[:16].replace("T", " "), "dataset": dataset,
               "variant": e.get("variant"), "questions": e.get("queries")}
        row.update({m: values.get(m) for m in shown})
        rows.append(row)
    return pd.DataFrame(rows)


def display_order(names: Iterable[str], order: Sequence[str]) -> list[str]:
    """``names`` sorted by their place in ``order`` (the registry's display order), unknown names last by name."""
    return sorted(names, key=lambda m: (order.index(m) if m in order else len(order), m))


# --- run now ----------------------------------------------------------------------------------------------------
@dataclass
class EvalJob:
    """A background evaluation started from the page (thread-safe snapshot fields)."""

    fraction: float = 0.0
    message: str = "starting"
    done: bool = False
    error: str | None = None
    run_ids: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def progress(self, fraction: float, message: str) -> None:
        with self._lock:
            self.fraction = min(max(float(fraction), 0.0), 1.0)
            self.message = message

    def finish(self, run_ids: list[str] | None = None, error: str | None = None) -> None:
        with self._lock:
            self.run_ids = list(run_ids or [])
            self.error = error
            self.done = True
            self.fraction = 1.0

    def snapshot(self) -> tuple[float, str, bool, str | None, list[str]]:
        with self._lock:
            return self.fraction, self.message, self.done, self.error, list(self.run_ids)


def run_sample_evaluation(service: PrismService, job: EvalJob, limit: int | None = None,
                          choice: Any = None, workspace: str | None = None) -> None:
    """Evaluate a dataset (default: the sample ground truth, ``settings.eval_ground_truth``; a ``workspace`` choice
    is that workspace's own ground truth over the workspace itself) with the product's settings and record the
    outcome on ``job``; never raises (the thread must always finish the job). ``choice``: a
    :class:`prism.evaluation.choices.DatasetChoice` from :meth:`PrismService.dataset_choices`."""
    lock = FileLock(str(Path(service.settings.eval_dir) / ".run-now.lock"), timeout=0)
    try:
        Path(service.settings.eval_dir).mkdir(parents=True, exist_ok=True)
        with lock:
            job.progress(0.0, "loading the ground truth")
            if choice is not None and choice.format == "workspace":
                dataset = service.workspace_dataset(workspace)
            else:
                dataset = service.load_dataset(choice.path if choice else service.settings.eval_ground_truth,
                                               choice.format if choice else "prism")
                workspace = None
            written = service.evaluate(dataset, limit=limit, tag="run-now", progress=job.progress,
                                       workspace=workspace)
        job.finish([run["id"] for run, _ in written])
    except Timeout:
        job.finish(error="Another evaluation is running; try again when it has finished.")
    except PrismError as exc:
        job.finish(error=str(exc))
    except Exception as exc:  # the worker must always finish its job with a message
        logger.exception("evaluation job crashed")
        job.finish(error=f"The evaluation failed ({type(exc).__name__}); see the server log.")


def run_now(service: PrismService) -> None:
    """The "Run now" button and, while a run is going, its progress bar (refreshed every second)."""
    job: EvalJob | None = st.session_state.get(JOB)
    if job is None:
        workspace = eval_tables.workspace_name(service)
        choices = service.dataset_choices(workspace)
        present = {c.label: c for c in choices if c.present}
        label = st.selectbox("Dataset", list(present), key="prism.eval.dataset")
        st.caption("Evaluates the dataset with the current settings and adds a run to the charts (minutes; "
                   "FinanceBench: longer, it ingests 16 filings once).")
        for c in choices:
            if not c.present:
                st.caption(f":material/block: {literal(c.label)}: {literal(c.reason)}")
        limit = st.number_input("Questions (0 = all)", min_value=0, value=0, step=5, key="prism.eval.limit")
        if st.button("Run now", type="primary", icon=":material/play_arrow:", key="prism.eval.run",
                     disabled=label is None):
            job = EvalJob()
            st.session_state[JOB] = job
            threading.Thread(target=run_sample_evaluation,
                             args=(service, job, int(limit) or None, present[label], workspace),
                             name="prism-eval", daemon=True).start()
            st.rerun()
        return
    _job_progress()


@st.fragment(run_every=1.0)
def _job_progress() -> None:
    job: EvalJob | None = st.session_state.get(JOB)
    if job is None:
        return
    fraction, message, done, error, run_ids = job.snapshot()
    if not done:
        st.progress(fraction, text=f"Evaluating: {message}")
        return
    st.session_state.pop(JOB, None)
    if error:
        state.flash(error, "error")
    else:
        state.flash(f"New run {', '.join(run_ids)} added.", "success")
    st.rerun(scope="app")


# --- views ------------------------------------------------------------------------------------------------------
def _load(service: PrismService, run_id: str) -> dict[str, Any] | None:
    try:
        return service.run(run_id)
    except PrismError as exc:
        st.error(literal(str(exc)))
        return None


def runs_table(service: PrismService, entries: Sequence[Mapping[str, Any]]) -> None:
    """All runs, newest first, with the headline metrics."""
    shown = headline(metric_specs())
    frame = runs_frame(entries, shown)
    metric_cols = [c for c in frame.columns if c in shown]
    st.dataframe(frame, hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(c, format="%.4f") for c in metric_cols})


def trends(service: PrismService, entries: Sequence[Mapping[str, Any]]) -> None:
    """Each chosen metric across versions for one dataset, with published anchors where there are some."""
    datasets = sorted({str(e.get("dataset")) for e in entries})
    dataset = st.selectbox("Dataset", datasets, key="prism.eval.trend_dataset")
    chosen = [e for e in entries if str(e.get("dataset")) == dataset]
    order = [m.name for m in metric_specs()]
    available = display_order({m for e in chosen for m in (e.get("metrics") or {})}, order)
    default = [m for m in headline(metric_specs()) if m in available][:TREND_DEFAULTS] or available[:1]
    metrics = st.multiselect("Metrics", available, default=default, key=f"prism.eval.trend_metrics.{dataset}")
    split, published = published_anchors(dataset)
    if published:
        splits = sorted({str(e.get("split") or "?") for e in chosen})
        st.caption(f"Dashed lines: published {dataset} results on the **{split}** split. Prism's runs here "
                   f"use the **{', '.join(splits)}** split, which is easier or harder by a few points: compare trends, "
                   "not decimals.")
    for metric in metrics:
        anchors = published.get(metric, {})
        fig = charts.metric_trend_figure(list(chosen), metric, anchors,
                                         f" (published, {split} split)" if anchors else "",
                                         {m.name: m.description for m in metric_specs()}.get(metric, ""))
        st.plotly_chart(fig, width="stretch", key=f"prism.eval.trend.{dataset}.{metric}")


def ablation(service: PrismService, entries: Sequence[Mapping[str, Any]]) -> None:
    """Grouped bars of an ablation group (runs sharing ``group``), with the variants that were skipped and why."""
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for e in entries:
        groups.setdefault(str(e.get("group") or e.get("id")), []).append(e)
    multi = {g: runs for g, runs in groups.items() if len(runs) > 1}
    if not multi:
        st.info("No ablation group yet. Run `python -m prism eval run data/ground_truth/eval_pairs.json --ablation`.",
                icon=":material/info:")
        return
    names = list(reversed(list(multi)))
    group = st.selectbox("Ablation group", names, key="prism.eval.group",
                         format_func=lambda g: f"{g} · {multi[g][0].get('dataset')} · {len(multi[g])} variants")
    runs = multi[group]
    metrics = [m for m in headline(metric_specs()) if any(m in (r.get("metrics") or {}) for r in runs)]
    st.plotly_chart(charts.ablation_figure(list(runs), metrics, {m.name: m.description for m in metric_specs()}),
                    width="stretch",
                    key=f"prism.eval.ablation.{group}")
    first = _load(service, str(runs[0]["id"]))
    for s in (first or {}).get("skipped", []):
        st.caption(f"Skipped **{literal(s['variant'])}**: {literal(s['reason'])}")


def latency(service: PrismService, entries: Sequence[Mapping[str, Any]]) -> None:
    """Latency percentiles per stage of one run."""
    ids = [str(e["id"]) for e in reversed(list(entries))]
    run_id = st.selectbox("Run", ids, key="prism.eval.latency_run")
    run = _load(service, run_id)
    if run is None:
        return
    lat = run.get("latency_ms") or {}
    if not any(lat.values()):
        st.info("This run recorded no latency.")
        return
    st.plotly_chart(charts.latency_figure(lat), width="stretch", key=f"prism.eval.latency.{run_id}")
    rows = [{"part": part, "stage": stage, **{k: v.get(k) for k in ("p50", "p95", "p99", "n")}}
            for part, stages in lat.items() for stage, v in stages.items()]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch",
                 column_config={k: st.column_config.NumberColumn(f"{k} (ms)", format="%.1f")
                                for k in ("p50", "p95", "p99")})


def _chunks(run: Mapping[str, Any], question: Mapping[str, Any]) -> None:
    texts = run.get("chunk_texts") or {}
    if question.get("answer"):
        ans = question["answer"]
        st.markdown("**Answer** " + ("(declined)" if ans.get("declined") else ""))
        st.caption(literal(str(ans.get("text", ""))[:1200]))
    for r in question.get("retrieved", []):
        mark = "✅ relevant" if r.get("relevant") else "·"
        pages = locator_of(r)
        scores = r.get("scores") or {}
        parts = [f"{k} {scores[k]:.3f}" for k in SCORE_STAGES if scores.get(k) is not None]
        st.markdown(f"**#{r.get('rank')}** {literal(str(r.get('source')))} {pages} — {mark}  \n"
                    f"<span style='color:#64748B;font-size:.85rem'>{' · '.join(parts)}</span>",
                    unsafe_allow_html=True)
        st.caption(literal(texts.get(r.get("chunk_id"), r.get("text", ""))))


def compare(service: PrismService, entries: Sequence[Mapping[str, Any]]) -> None:
    """Pick two runs: a sortable per-question table of what got better or worse, and the chunks each retrieved."""
    if len(entries) < 2:
        st.info("Two runs are needed to compare.")
        return
    ids = [str(e["id"]) for e in reversed(list(entries))]
    left, right = st.columns(2)
    with left:
        a_id = st.selectbox("Run A (before)", ids, index=1, key="prism.eval.run_a")
    with right:
        b_id = st.selectbox("Run B (after)", ids, index=0, key="prism.eval.run_b")
    run_a, run_b = _load(service, a_id), _load(service, b_id)
    if run_a is None or run_b is None:
        return
    if run_a.get("dataset", {}).get("content_hash") != run_b.get("dataset", {}).get("content_hash"):
        st.warning("The two runs used different datasets (or dataset versions): only questions with the same id are "
                   "compared.")
    specs = {m.name: m for m in metric_specs()}
    metrics = display_order(set(run_a.get("metrics") or {}) & set(run_b.get("metrics") or {}), list(specs))
    if not metrics:
        st.info("These runs share no metric.")
        return
    metric = st.selectbox("Metric", metrics, key="prism.eval.compare_metric")
    frame = compare_frame(run_a, run_b, specs.get(metric, metric))
    if frame.empty:
        st.info("The runs have no question in common.")
        return
    counts = frame["verdict"].value_counts()
    better, worse, same, new = (int(counts.get(k, 0)) for k in ("improved", "regressed", "same", "new"))
    mean_a, mean_b = (run_a.get("metrics") or {}).get(metric), (run_b.get("metrics") or {}).get(metric)
    st.markdown(f"**{metric}**: A {mean_a:.4f} → B {mean_b:.4f} · **{better} improved**, **{worse} regressed**, "
                f"{same} unchanged" + (f", **{new} new**" if new else ""))
    show = st.segmented_control("Show", ["all", "improved", "regressed", "new"], default="all",
                                key="prism.eval.compare_show")
    view = frame if show in (None, "all") else frame[frame["verdict"] == show]
    st.dataframe(view, hide_index=True, width="stretch",
                 column_config={c: (st.column_config.NumberColumn(c, format="%d") if c.endswith("rank")
                                    else st.column_config.NumberColumn(c, format="%.3f"))
                                for c in view.columns if c.startswith(("A ", "B ", "change"))})
    st.download_button("Export per-question diff (CSV)", frame.to_csv(index=False).encode("utf-8-sig"),
                       file_name=f"prism-diff-{a_id}-vs-{b_id}.csv", mime="text/csv", on_click="ignore",
                       key="prism.eval.compare_csv", icon=":material/download:")
    _question_detail(run_a, run_b, a_id, b_id, list(frame["question"]))


def _question_detail(run_a: Mapping[str, Any], run_b: Mapping[str, Any], a_id: str, b_id: str,
                     ids: Sequence[str]) -> None:
    """One question of the diff: its reference answer and the chunks each run retrieved (a new one: B only)."""
    a_questions = {q["id"]: q for q in run_a.get("queries", [])}
    b_questions = {q["id"]: q for q in run_b.get("queries", [])}
    questions = {**b_questions, **a_questions}
    qid = st.selectbox("Retrieved chunks of question", [q for q in ids if q in b_questions],
                       key="prism.eval.compare_question",
                       format_func=lambda q: f"{q} · {questions[q]['query'][:90]}")
    if not qid:
        return
    ref = questions[qid].get("reference_answer")
    if ref:
        st.caption(f"Reference answer: {literal(ref)}")
    col_a, col_b = st.columns(2)
    with col_a:
        st.markdown(f"**A** · {literal(a_id)}")
        if qid in a_questions:
            _chunks(run_a, a_questions[qid])
        else:
            st.caption("Not in run A: a question added since.")
    with col_b:
        st.markdown(f"**B** · {literal(b_id)}")
        _chunks(run_b, b_questions[qid])


def page(service: PrismService) -> None:
    """The whole Eval page below its header."""
    top, action = st.columns([3, 1], gap="large")
    with action:
        run_now(service)
    entries = service.runs()
    with top:
        if not entries:
            st.info(f"No evaluation runs in {service.settings.eval_dir} yet. Press **Run now**, or run "
                    "`python -m prism eval run data/ground_truth/eval_pairs.json`.", icon=":material/insights:")
            st.subheader("Workspace ground truth", anchor=False)
            eval_tables.ground_truth(service)
            return
        st.subheader("Runs", anchor=False)
        runs_table(service, entries)
    tab_trend, tab_ablation, tab_types, tab_latency, tab_compare, tab_truth = st.tabs(
        ["Trends", "Ablation", "By question type", "Latency", "Compare runs", "Workspace ground truth"])
    with tab_types:
        eval_tables.by_type(service, entries)
    with tab_truth:
        eval_tables.ground_truth(service)
    with tab_trend:
        trends(service, entries)
    with tab_ablation:
        ablation(service, entries)
    with tab_latency:
        latency(service, entries)
    with tab_compare:
        compare(service, entries)
