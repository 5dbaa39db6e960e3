"""The Eval page's pieces: runs table, metric trends with published anchors, ablation bars, latency percentiles,
the two-run per-question comparison (:mod:`prism.ui.evaluation.compare`) and "Run now" on any dataset present; one
dataset picker above the tabs chooses whose runs they show.

Runs are read from ``Settings.eval_dir`` (``index.json`` for the table and trends; run files only for the runs a
view needs). "Run now" evaluates in a background thread owned by the analyst's session (:class:`EvalJob` in
``st.session_state``); a file lock in the runs folder keeps two evaluations from running at once across sessions and
processes (two shared cores).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st
from filelock import FileLock, Timeout

import prism.ui.evaluation.tables as eval_tables
from prism.errors import PrismError
from prism.service import PrismService, published_anchors
from prism.service import metrics as metric_specs
from prism.types import MetricSpec
from prism.ui import charts, state
from prism.ui.evaluation.compare import apply_link, compare, picker_default
from prism.ui.evaluation.summary import glossary
from prism.ui.evaluation.tables import display_order, load_run
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


def run_now(service: PrismService) -> str | None:
    """The "Run now" button and, while a run is going, its progress bar (refreshed every second). Returns the
    ``dataset`` name the runs of the dataset selected to run are recorded under (``None`` while a run is going or
    when none can be run)."""
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
        return present[label].run_dataset(workspace) if label is not None else None
    _job_progress()
    return None


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
def runs_table(service: PrismService, entries: Sequence[Mapping[str, Any]]) -> None:
    """All runs, newest first, with the headline metrics; each metric's plain words on its column's help and in
    "What these numbers mean" under the table."""
    specs = metric_specs()
    shown = headline(specs)
    frame = runs_frame(entries, shown)
    metric_cols = [c for c in frame.columns if c in shown]
    plain = {m.name: m.plain or m.description for m in specs}
    st.dataframe(frame, hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(c, format="%.4f", help=plain.get(c))
                                for c in metric_cols})
    with st.expander("What these numbers mean", icon=":material/help:"):
        for row in glossary(specs, metric_cols):
            st.markdown(f"**{literal(row['metric'])}** · {literal(row['in plain words'])}")


def trends(service: PrismService, chosen: Sequence[Mapping[str, Any]], dataset: str) -> None:
    """Each chosen metric across versions of ``dataset`` (``chosen``: its runs), with published anchors where there
    are some."""
    order = [m.name for m in metric_specs()]
    available = display_order({m for e in chosen for m in (e.get("metrics") or {})}, order)
    default = [m for m in headline(metric_specs()) if m in available][:TREND_DEFAULTS] or available[:1]
    metrics = st.multiselect("Metrics", available, default=default, key=f"prism.eval.trend_metrics.{dataset}")
    specs = {m.name: m for m in metric_specs()}
    split, published = published_anchors(dataset)
    if published:
        splits = sorted({str(e.get("split") or "?") for e in chosen})
        st.caption(f"Dashed lines: published {dataset} results on the **{split}** split. Prism's runs here "
                   f"use the **{', '.join(splits)}** split, which is easier or harder by a few points: compare trends, "
                   "not decimals.")
    for metric in metrics:
        anchors = published.get(metric, {})
        spec = specs.get(metric)
        fig = charts.metric_trend_figure(list(chosen), metric, anchors,
                                         f" (published, {split} split)" if anchors else "",
                                         spec.plain or spec.description if spec else "",
                                         bool(spec and spec.lower_is_better))
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
    st.plotly_chart(charts.ablation_figure(list(runs), metrics, {m.name: m.plain or m.description
                                                                 for m in metric_specs()}),
                    width="stretch",
                    key=f"prism.eval.ablation.{group}")
    first = load_run(service, str(runs[0]["id"]))
    for s in (first or {}).get("skipped", []):
        st.caption(f"Skipped **{literal(s['variant'])}**: {literal(s['reason'])}")


def latency(service: PrismService, entries: Sequence[Mapping[str, Any]]) -> None:
    """Latency percentiles per stage of one run."""
    ids = [str(e["id"]) for e in reversed(list(entries))]
    run_id = st.selectbox("Run", ids, key="prism.eval.latency_run")
    run = load_run(service, run_id)
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


FOLLOWED = "prism.eval.view_follows"
"""Session key: the dataset selected to run when "Runs of dataset" last followed it."""


def follow_selected(selected: str | None, datasets: Sequence[str], linked: bool = False) -> None:
    """Make "Runs of dataset" show the dataset selected to run (so a run just made is on screen): on the first draw and
    whenever the run selection changes; a view picked by hand stays until the run selection changes again. A selected
    dataset with no runs yet leaves the view as it is; so does a deep link (``linked``), which names its own dataset."""
    if selected is None or selected not in datasets or st.session_state.get(FOLLOWED) == selected:
        return
    st.session_state[FOLLOWED] = selected
    if not linked:
        st.session_state["prism.eval.view_dataset"] = selected


def page(service: PrismService) -> None:
    """The whole Eval page below its header."""
    top, action = st.columns([3, 1], gap="large")
    with action:
        selected = run_now(service)
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
    linked = apply_link(dict(st.query_params), entries)
    datasets = sorted({str(e.get("dataset")) for e in entries})
    newest = datasets.index(str(entries[-1].get("dataset")))
    follow_selected(selected, datasets, linked)
    dataset = st.selectbox("Runs of dataset", datasets, key="prism.eval.view_dataset",
                           help="The tabs below show the runs of this dataset.",
                           **picker_default("prism.eval.view_dataset", datasets, newest))
    chosen = [e for e in entries if str(e.get("dataset")) == dataset]
    names = ["Trends", "Ablation", "By question type", "Latency", "Compare runs", "Workspace ground truth"]
    tab_trend, tab_ablation, tab_types, tab_latency, tab_compare, tab_truth = st.tabs(
        names, default="Compare runs" if linked else None)
    with tab_types:
        eval_tables.by_type(service, chosen)
    with tab_truth:
        eval_tables.ground_truth(service)
    with tab_trend:
        trends(service, chosen, dataset)
    with tab_ablation:
        ablation(service, chosen)
    with tab_latency:
        latency(service, chosen)
    with tab_compare:
        compare(service, chosen)
