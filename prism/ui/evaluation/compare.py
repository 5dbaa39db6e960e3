"""The Eval page's comparison of two runs: a per-question diff (improved, regressed, same, new; the rank of the first
relevant passage in each run), the chunks each run retrieved for one question, and deep links.

A diff row's link (:func:`question_link`) is the Eval page URL with ``dataset``, ``run_a``, ``run_b`` and ``question``
as query parameters; opening it (:func:`apply_link`) sets the pickers once and shows the Compare tab first, so a
stakeholder can be sent straight to one question of one comparison. Clicking a row shows that question's chunks.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from prism.service import PrismService
from prism.service import metrics as metric_specs
from prism.types import SCORE_STAGES, MetricSpec, csv_bytes, locator_of
from prism.ui import state
from prism.ui.evaluation.summary import comparison_sentence, opening_metric
from prism.ui.evaluation.tables import compare_frame, display_order, load_run
from prism.ui.explain import literal

logger = logging.getLogger(__name__)

SELECTED = "prism.eval.compare_selected"
"""Session key: the question of the diff row selected last (so a selection sets the picker only once)."""
APPLIED = "prism.eval.applied_link"
"""Session key: the deep link (query parameters) applied last (so a link sets the pickers only once)."""
LINK_KEYS = ("dataset", "run_a", "run_b", "question")


def question_link(dataset: str, run_a: str, run_b: str, question: str) -> str:
    """The Eval page URL (relative to the app) that opens the comparison of ``run_a`` and ``run_b`` on ``question``:
    ``eval?dataset=…&run_a=…&run_b=…&question=…`` (query values URL-encoded)."""
    return "eval?" + urlencode({"dataset": dataset, "run_a": run_a, "run_b": run_b, "question": question})


def retrieved_heading(r: Mapping[str, Any]) -> str:
    """The Markdown (with one HTML ``<span>``) heading a retrieved chunk of an evaluation run: rank, file, locator,
    relevance mark, then its scores in grey.

    A run file is data written from documents: the file name and the locator (a sheet's name, a slide's title) go
    through :func:`~prism.ui.explain.literal` (Markdown-escaped, so no tag starts), the rank and scores through
    ``html.escape`` (OWASP XSS Prevention Cheat Sheet, rule 1: HTML-escape what goes into HTML), so an
    ``unsafe_allow_html`` sink never renders markup of theirs.
    """
    mark = "✅ relevant" if r.get("relevant") else "·"
    scores = r.get("scores") or {}
    parts = [f"{k} {_score(scores[k])}" for k in SCORE_STAGES if scores.get(k) is not None]
    return (f"**#{literal(str(r.get('rank')))}** {literal(str(r.get('source')))} {literal(locator_of(r))} — {mark}"
            f"  \n<span style='color:#64748B;font-size:.85rem'>{html.escape(' · '.join(parts))}</span>")


def _score(value: Any) -> str:
    return f"{value:.3f}" if isinstance(value, int | float) else str(value)


def _chunks(run: Mapping[str, Any], question: Mapping[str, Any]) -> None:
    texts = run.get("chunk_texts") or {}
    if question.get("answer"):
        ans = question["answer"]
        st.markdown("**Answer** " + ("(declined)" if ans.get("declined") else ""))
        st.caption(literal(str(ans.get("text", ""))[:1200]))
    for r in question.get("retrieved", []):
        st.markdown(retrieved_heading(r), unsafe_allow_html=True)
        st.caption(literal(texts.get(r.get("chunk_id"), r.get("text", ""))))


def compare(service: PrismService, entries: Sequence[Mapping[str, Any]]) -> None:
    """Pick two runs: a sortable per-question table of what got better or worse, and the chunks each retrieved."""
    if len(entries) < 2:
        st.info("Two runs are needed to compare.")
        return
    ids = [str(e["id"]) for e in reversed(list(entries))]
    left, right = st.columns(2)
    with left:
        a_id = st.selectbox("Run A (before)", ids, key="prism.eval.run_a", **picker_default("prism.eval.run_a", ids, 1))
    with right:
        b_id = st.selectbox("Run B (after)", ids, key="prism.eval.run_b", **picker_default("prism.eval.run_b", ids, 0))
    run_a, run_b = load_run(service, a_id), load_run(service, b_id)
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
    opening = st.container()  # the sentence opens the comparison; it follows the metric picked under it
    metric = st.selectbox("Metric", metrics, key="prism.eval.compare_metric",
                          **picker_default("prism.eval.compare_metric", metrics,
                                           metrics.index(opening_metric(metrics) or metrics[0])))
    spec = specs.get(metric) or MetricSpec(metric, "")
    with opening:
        st.markdown(f"**{literal(comparison_sentence(run_a, run_b, spec))}**")
    if spec.plain:
        st.caption(f"{literal(metric)}: {literal(spec.plain)}")
    frame = compare_frame(run_a, run_b, spec)
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
    dataset = str(run_b.get("dataset", {}).get("name") or "")
    view = view.assign(link=[question_link(dataset, a_id, b_id, q) for q in view["question"]])
    config: dict[str, Any] = {c: (st.column_config.NumberColumn(c, format="%d") if c.endswith("rank")
                                  else st.column_config.NumberColumn(c, format="%.3f"))
                              for c in view.columns if c.startswith(("A ", "B ", "change"))}
    config["link"] = st.column_config.LinkColumn(
        "link", display_text="open", help="A link to this question in this comparison (share it, or open it in a "
        "new tab); or click a row to see its chunks below.")
    event = st.dataframe(view, hide_index=True, width="stretch", column_config=config, on_select="rerun",
                         selection_mode="single-row", key="prism.eval.compare_table")
    _follow_selection(event, list(view["question"]))
    diff_csv = csv_bytes(list(frame.columns), frame.itertuples(index=False, name=None))  # no cell is a formula
    name = f"prism-diff-{a_id}-vs-{b_id}.csv"
    st.download_button("Export per-question diff (CSV)", diff_csv, file_name=name, mime="text/csv",
                       on_click=state.record_export, args=(service, None, "eval table", name),
                       key="prism.eval.compare_csv", icon=":material/download:")
    _question_detail(run_a, run_b, a_id, b_id, list(frame["question"]))


def _follow_selection(event: Any, questions: Sequence[str]) -> None:
    """Show the chunks of the row the analyst clicked: a newly selected row sets the question picker (once, so the
    picker stays free to change afterwards)."""
    rows = list(getattr(getattr(event, "selection", None), "rows", None) or [])
    picked = questions[rows[0]] if rows and 0 <= rows[0] < len(questions) else None
    if picked is not None and picked != st.session_state.get(SELECTED):
        st.session_state["prism.eval.compare_question"] = picked
    st.session_state[SELECTED] = picked


def _question_detail(run_a: Mapping[str, Any], run_b: Mapping[str, Any], a_id: str, b_id: str,
                     ids: Sequence[str]) -> None:
    """One question of the diff: its reference answer and the chunks each run retrieved (a new one: B only)."""
    a_questions = {q["id"]: q for q in run_a.get("queries", [])}
    b_questions = {q["id"]: q for q in run_b.get("queries", [])}
    questions = {**b_questions, **a_questions}
    options = [q for q in ids if q in b_questions]
    picker_default("prism.eval.compare_question", options, 0)
    qid = st.selectbox("Retrieved chunks of question", options, key="prism.eval.compare_question",
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


def picker_default(key: str, options: Sequence[str], index: int) -> dict[str, Any]:
    """A picker's default: ``{"index": index}`` (clamped to the options) unless the session already holds a valid
    value for ``key`` (set by a deep link or a row click); a held value that is not among ``options`` is dropped."""
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]
    return {} if key in st.session_state else {"index": min(index, max(len(options) - 1, 0))}


def apply_link(params: Mapping[str, str], entries: Sequence[Mapping[str, Any]]) -> bool:
    """Open a deep link (:func:`question_link`): set the dataset, the two runs and the question of the comparison
    from the page's query parameters, once per distinct link (the pickers stay free to change afterwards). Runs that
    are not in ``entries`` are ignored.

    Returns:
        True when the page was opened from a link (the Compare tab is then shown first).
    """
    link = {k: str(params[k]) for k in LINK_KEYS if params.get(k)}
    if not link.get("run_b"):
        return False
    ids = {str(e["id"]) for e in entries}
    if st.session_state.get(APPLIED) != link:
        st.session_state[APPLIED] = link
        if link.get("dataset"):
            st.session_state["prism.eval.view_dataset"] = link["dataset"]
        for key in ("run_a", "run_b"):
            if link.get(key) in ids:
                st.session_state[f"prism.eval.{key}"] = link[key]
        if link.get("question"):
            st.session_state["prism.eval.compare_question"] = link["question"]
    return True


