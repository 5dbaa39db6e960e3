"""More of the Eval page: the per-question diff of two runs (:func:`compare_frame`, with the first relevant rank),
metrics per question type across a group's variants, and the workspace's own ground truth (list, edit, delete its
pairs)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from prism.errors import PrismError
from prism.service import PrismService
from prism.types import MetricSpec
from prism.ui import state
from prism.ui.explain import literal

logger = logging.getLogger(__name__)

TYPE_METRICS: tuple[str, ...] = ("ndcg@10", "mrr@10", "hit@5", "answer_f1", "tatqa_first_line", "tatqa_computed")
"""Metrics of the per-question-type table (those a run has). TAT-QA runs group by answer type and by source
(``from table`` …, :mod:`prism.evaluation.tatqa.run`)."""


# --- pure helpers -----------------------------------------------------------------------------------------------
def display_order(names: Iterable[str], order: Sequence[str]) -> list[str]:
    """``names`` sorted by their place in ``order`` (the registry's display order), unknown names last by name."""
    return sorted(names, key=lambda m: (order.index(m) if m in order else len(order), m))


def first_relevant_rank(question: Mapping[str, Any]) -> int | None:
    """The 1-based rank of the first retrieved chunk judged relevant in a run's question record, or ``None``."""
    ranks = [int(r["rank"]) for r in question.get("retrieved") or [] if r.get("relevant") and r.get("rank")]
    return min(ranks) if ranks else None


def compare_frame(run_a: Mapping[str, Any], run_b: Mapping[str, Any], metric: str | MetricSpec) -> pd.DataFrame:
    """Per question of both runs (matched by id): the metric in A and B (:meth:`prism.types.MetricSpec.value`), the
    change B − A, ``improved`` / ``regressed`` / ``same`` (for a ``lower_is_better`` metric a drop is an
    improvement; ``new`` for a question only B has, e.g. a ground-truth pair added between the runs; questions only
    A has are left out) and the rank of the first relevant passage in each run (``None``: none retrieved). Answer F1 of
    both when present. A bare name is read from the questions' ``metrics``."""
    spec = metric if isinstance(metric, MetricSpec) else MetricSpec(metric, "")
    name = spec.name
    a_by_id = {q["id"]: q for q in run_a.get("queries", [])}
    b_by_id = {q["id"]: q for q in run_b.get("queries", [])}
    rows = []
    for qid in [*a_by_id, *(q for q in b_by_id if q not in a_by_id)]:
        qa, qb = a_by_id.get(qid), b_by_id.get(qid)
        if qb is None:
            continue
        va, vb = (spec.value(qa) if qa is not None else None), spec.value(qb)
        delta = None if va is None or vb is None else vb - va
        if qa is None:
            change = "new"
        elif delta is None:
            change = "n/a"
        elif abs(delta) < 1e-9:
            change = "same"
        else:
            change = "improved" if (delta > 0) != spec.lower_is_better else "regressed"
        first = qa or qb
        row = {"question": qid, "type": first.get("type", ""), "query": first.get("query", ""),
               f"A {name}": va, f"B {name}": vb, "change (B − A)": delta, "verdict": change,
               "A first relevant rank": first_relevant_rank(qa) if qa is not None else None,
               "B first relevant rank": first_relevant_rank(qb)}
        if (qa or {}).get("answer") is not None or qb.get("answer") is not None:
            row["A answer F1"] = ((qa or {}).get("answer") or {}).get("f1")
            row["B answer F1"] = (qb.get("answer") or {}).get("f1")
        rows.append(row)
    return pd.DataFrame(rows)


def by_type_frame(runs: Sequence[Mapping[str, Any]], metric: str) -> pd.DataFrame:
    """One row per question type (plus ``all``), one column per run's variant: the run's ``metric`` averaged over
    the questions of that type (``metrics_by_type``), and ``n``, the number of questions of the type."""
    types = list(dict.fromkeys(t for r in runs for t in (r.get("metrics_by_type") or {})))
    rows = []
    for t in [*types, "all"]:
        row: dict[str, Any] = {"question type": t}
        for r in runs:
            values = (r.get("metrics") or {}) if t == "all" else (r.get("metrics_by_type") or {}).get(t) or {}
            row[str(r.get("variant") or r.get("id"))] = values.get(metric)
        row["n"] = _type_count(runs[0], t) if runs else 0
        rows.append(row)
    return pd.DataFrame(rows)


def _type_count(run: Mapping[str, Any], qtype: str) -> int:
    """Questions in a group: its ``questions`` count when the run records one (TAT-QA's source groups), else the
    questions of that type."""
    queries = run.get("queries") or []
    recorded = ((run.get("metrics_by_type") or {}).get(qtype) or {}).get("questions")
    if recorded is not None:
        return int(recorded)
    return len(queries) if qtype == "all" else sum(1 for q in queries if q.get("type") == qtype)


def workspace_name(service: PrismService) -> str | None:
    """The name of the workspace in use (this session's choice), else the first workspace, else ``None``."""
    infos = service.workspaces()
    chosen = state.workspace_id()
    info = next((i for i in infos if i.id == chosen), infos[0] if infos else None)
    return info.name if info else None


# --- views ------------------------------------------------------------------------------------------------------
def load_run(service: PrismService, run_id: str) -> dict[str, Any] | None:
    """The run ``run_id`` (:meth:`PrismService.run`), or ``None`` after showing why it cannot be read."""
    try:
        return service.run(run_id)
    except PrismError as exc:
        st.error(literal(str(exc)))
        return None


def by_type(service: PrismService, entries: Sequence[Mapping[str, Any]]) -> None:
    """Metrics by question type for the variants of one run group (an ablation) or one run."""
    groups: dict[str, list[str]] = {}
    for e in entries:
        groups.setdefault(str(e.get("group") or e.get("id")), []).append(str(e["id"]))
    names = list(reversed(list(groups)))
    by_id = {str(e["id"]): e for e in entries}
    group = st.selectbox("Run group", names, key="prism.eval.type_group",
                         format_func=lambda g: f"{g} · {by_id[groups[g][0]].get('dataset')} · "
                                               f"{len(groups[g])} variant(s)")
    runs = []
    for run_id in groups.get(group, []):
        try:
            runs.append(service.run(run_id))
        except PrismError as e:
            st.error(literal(str(e)))
    if not runs:
        return
    metrics = [m for m in TYPE_METRICS if any(m in (r.get("metrics") or {}) for r in runs)]
    if not metrics:
        st.info("These runs have none of the per-type metrics.")
        return
    metric = st.segmented_control("Metric", metrics, default=metrics[0], key="prism.eval.type_metric") or metrics[0]
    frame = by_type_frame(runs, metric)
    variants = [c for c in frame.columns if c not in ("question type", "n")]
    st.dataframe(frame, hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(c, format="%.3f") for c in variants})
    st.caption("Each cell averages the metric over the questions of that type; `n` questions per type. "
               "Negative questions have no relevant passage, so retrieval metrics skip them.")


def _save_pair(service: PrismService, workspace: str, pair_id: str) -> None:
    try:
        service.ground_truth(workspace).update(
            pair_id, query=st.session_state.get(f"prism.gt.query.{pair_id}"),
            reference_answer=st.session_state.get(f"prism.gt.ref.{pair_id}"),
            qtype=st.session_state.get(f"prism.gt.type.{pair_id}"))
        state.flash(f"Pair {pair_id} saved.")
    except PrismError as e:
        state.flash(str(e), "error")


def _delete_pair(service: PrismService, workspace: str, pair_id: str) -> None:
    try:
        service.ground_truth(workspace).delete(pair_id)
        state.flash(f"Pair {pair_id} deleted.")
    except PrismError as e:
        state.flash(str(e), "error")


def ground_truth(service: PrismService) -> None:
    """The workspace's own ground truth: every pair, and one pair's question, type and reference answer to edit
    or delete. Run it with **Run now** (dataset "Ground truth of workspace …") or ``eval run workspace``."""
    workspace = workspace_name(service)
    if workspace is None:
        st.info("No workspace yet.")
        return
    try:
        pairs = service.ground_truth(workspace).pairs()
    except PrismError as e:
        st.error(literal(str(e)))
        return
    if not pairs:
        st.info(f"Workspace **{literal(workspace)}** has no ground truth yet: under an answer in Chat, mark the "
                "passages that answer it relevant and press **Add to ground truth**.", icon=":material/rule:")
        return
    st.markdown(f"**{len(pairs)} pair(s)** in workspace **{literal(workspace)}** · run them with **Run now** or "
                f"`python -m prism eval run workspace --workspace \"{literal(workspace)}\"`")
    table = pd.DataFrame([{"id": p["id"], "type": p.get("type"), "question": p.get("query"),
                           "relevant passages": "; ".join(f"{r['source']} p. {r.get('page')}"
                                                          for r in p.get("relevant") or []),
                           "reference answer": p.get("reference_answer") or ""} for p in pairs])
    st.dataframe(table, hide_index=True, width="stretch")
    ids = [p["id"] for p in pairs]
    pair_id = st.selectbox("Edit pair", ids, key="prism.gt.pick",
                           format_func=lambda i: f"{i} · {next(p['query'] for p in pairs if p['id'] == i)[:80]}")
    pair = next(p for p in pairs if p["id"] == pair_id)
    with st.form(f"prism.gt.form.{pair_id}", border=True):
        st.text_input("Question", value=pair.get("query", ""), key=f"prism.gt.query.{pair_id}")
        types = list(service.question_types())
        st.selectbox("Type", types, index=types.index(str(pair.get("type"))) if pair.get("type") in types else 0,
                     key=f"prism.gt.type.{pair_id}")
        st.text_area("Reference answer", value=pair.get("reference_answer") or "", key=f"prism.gt.ref.{pair_id}")
        st.form_submit_button("Save pair", on_click=_save_pair, args=(service, workspace, pair_id))
    st.button("Delete pair", key=f"prism.gt.delete.{pair_id}", icon=":material/delete:", on_click=_delete_pair,
              args=(service, workspace, pair_id))
