"""Plotly figures for the app (no Streamlit here)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from prism.ui.explain import STAGES, Scores

ACCENT = "#4F46E5"
MUTED = "#CBD5E1"


def score_figure(scores: Scores, ranges: Mapping[str, tuple[float, float]]) -> go.Figure:
    """One small bar per retrieval stage (dense, BM25, RRF, rerank), each on its own axis.

    Args:
        scores: the chunk's scores object (see :mod:`prism.ui.explain`).
        ranges: axis range per stage (:func:`prism.ui.explain.stage_ranges` over the answer's blocks), so a bar's
            height reads against the other blocks of the same answer.

    Returns:
        A 4-column figure, 190 px high; a stage that did not see the chunk shows "not ranked" instead of a bar.
        Bars are labelled with the score and the rank (``0.712 · #3``).
    """
    fig = make_subplots(rows=1, cols=len(STAGES), subplot_titles=[label for _, label, _ in STAGES],
                        horizontal_spacing=0.07)
    for col, (key, label, meaning) in enumerate(STAGES, start=1):
        value = scores.get(key)
        rank = scores.get(f"{key}_rank")
        lo, hi = ranges.get(key, (0.0, 1.0))
        if value is None:
            fig.add_trace(go.Bar(x=[label], y=[0], marker_color=MUTED, hoverinfo="skip"), row=1, col=col)
            fig.add_annotation(text="not ranked", x=label, y=(lo + hi) / 2, showarrow=False,
                               font={"size": 11, "color": "#64748B"}, row=1, col=col)
        else:
            shown = max(float(value), lo)
            digits = 4 if key == "rrf" else 2
            text = f"{float(value):.{digits}f}" + (f" · #{int(rank)}" if rank is not None else "")
            fig.add_trace(
                go.Bar(x=[label], y=[shown], marker_color=ACCENT, text=[text], textposition="outside",
                       cliponaxis=False, hovertemplate=f"{label}: %{{y}}<br>{meaning}<extra></extra>"),
                row=1, col=col,
            )
        pad = (hi - lo) * 0.25
        fig.update_yaxes(range=[lo, hi + pad], showticklabels=False, showgrid=False, zeroline=True,
                         zerolinecolor="#E2E8F0", row=1, col=col)
        fig.update_xaxes(showticklabels=False, row=1, col=col)
    fig.update_layout(height=190, showlegend=False, margin={"l": 4, "r": 4, "t": 28, "b": 4},
                      plot_bgcolor="rgba(0,0,0,0)", paper_bgcolor="rgba(0,0,0,0)", bargap=0.35)
    fig.update_annotations(font_size=12)
    return fig


# --- evaluation charts ------------------------------------------------------------------------------------------
BETTER = {False: "0 to 1, higher is better", True: "0 to 1, lower is better"}
"""How an axis of scores says which way is better, by ``lower_is_better``."""
SETUP_LEGEND = "Retrieval setup"
"""The legend title of lines and bars that are a run's variant (``hybrid``, ``bm25``, ``+rerank`` …)."""
PERCENTILES = {"p50": "p50: half the questions are faster", "p95": "p95: 1 in 20 is slower",
               "p99": "p99: 1 in 100 is slower"}
"""The latency chart's legend: each percentile in words."""
EVAL_COLORS = ("#4F46E5", "#0EA5E9", "#F59E0B", "#10B981", "#EF4444", "#8B5CF6", "#64748B", "#EC4899")
ANCHOR_COLOR = "#94A3B8"


def _eval_layout(fig: go.Figure, height: int, title: str | None = None) -> go.Figure:
    fig.update_layout(height=height, margin={"l": 8, "r": 8, "t": 40 if title else 16, "b": 8},
                      title={"text": title, "font": {"size": 14}} if title else None,
                      plot_bgcolor="rgba(0,0,0,0)", paper_bgcolor="rgba(0,0,0,0)",
                      # beside the plot: a legend below it is drawn over long or rotated x-axis labels, which do
                      # not push it down (plotly/plotly.js#7415)
                      legend={"orientation": "v", "yanchor": "top", "y": 1, "xanchor": "left", "x": 1.01})
    fig.update_yaxes(gridcolor="#E2E8F0", zeroline=False)
    return fig


def metric_trend_figure(
    runs: list[Mapping[str, object]],
    metric: str,
    anchors: Mapping[str, float] | None = None,
    anchor_note: str = "",
    explanation: str = "",
    lower_is_better: bool = False,
) -> go.Figure:
    """One metric across runs, one line per variant, with optional published reference lines.

    Args:
        runs: index entries (``id``, ``version``, ``created_at``, ``variant``, ``metrics``), oldest first; runs
            without the metric are skipped.
        metric: e.g. ``ndcg@10``.
        anchors: ``{label: value}`` drawn as dashed horizontal lines, labelled ``label value`` + ``anchor_note``.
        anchor_note: e.g. ``" (published, test split)"``.
        explanation: the metric's one-line explanation in plain words, shown on hover and under the title.
        lower_is_better: the metric improves as it falls (the y axis title says which way is better).

    Returns:
        A line chart: x = ``version · date`` of each run (in run order, axis "Prism version · run date (UTC)"),
        y = the metric in [0, 1] (axis: the metric and which way is better), one line per variant (legend
        "Retrieval setup").
    """
    fig = go.Figure()
    xs_all: list[str] = []
    lines: dict[str, tuple[list[str], list[float], list[str]]] = {}
    for run in runs:
        metrics = run.get("metrics") or {}
        if not isinstance(metrics, Mapping) or metrics.get(metric) is None:
            continue
        x = f"{run.get('version', '?')} · {str(run.get('created_at', ''))[:16].replace('T', ' ')}"
        if x not in xs_all:
            xs_all.append(x)
        xs, ys, ids = lines.setdefault(str(run.get("variant") or "run"), ([], [], []))
        xs.append(x)
        ys.append(float(metrics[metric]))
        ids.append(str(run.get("id", "")))
    for i, (variant, (xs, ys, ids)) in enumerate(lines.items()):
        fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines+markers", name=variant, customdata=ids,
                                 line={"color": EVAL_COLORS[i % len(EVAL_COLORS)], "width": 2},
                                 hovertemplate=f"{variant}<br>%{{customdata}}<br>{metric} %{{y:.4f}}"
                                               f"{'<br>' + explanation if explanation else ''}<extra></extra>"))
    for label, value in (anchors or {}).items():
        fig.add_hline(y=value, line_dash="dash", line_color=ANCHOR_COLOR, line_width=1,
                      annotation_text=f"{label} {value:.3f}{anchor_note}", annotation_position="top left",
                      annotation_font={"size": 10, "color": "#475569"})
    fig.update_xaxes(categoryorder="array", categoryarray=xs_all, type="category",
                     title="Prism version · run date (UTC)")
    fig.update_yaxes(title=f"{metric} ({BETTER[lower_is_better]})", rangemode="tozero")
    fig.update_layout(legend_title_text=SETUP_LEGEND)
    title = f"{metric}<br><sup>{explanation}</sup>" if explanation else metric
    return _eval_layout(fig, 340, title)


def ablation_figure(runs: list[Mapping[str, object]], metrics: list[str],
                    explanations: Mapping[str, str] | None = None) -> go.Figure:
    """Grouped bars: one group per metric, one bar per variant of an ablation group.

    Labels never overlap: each value is written vertically inside its own bar (a bar too short for its label hides
    the label; the hover still gives it). The y axis reaches 8 % above the tallest bar (at least 1.0), so no bar is
    cut. Hovering a bar gives the variant, the value and the metric's one-line explanation.

    Args:
        runs: run records or index entries with ``variant`` and ``metrics``.
        metrics: the metrics to show; one that no run has is left out (an older group predates it), one that
            some runs lack is drawn as 0 with no label for them.
        explanations: metric name → one line on what it measures (:attr:`prism.types.MetricSpec.plain`).

    Axes and legend say what they show: "metric", "score (0 to 1, higher is better)", "Retrieval setup".
    """
    fig = go.Figure()
    held: list[Any] = [run.get("metrics") or {} for run in runs]
    metrics = [m for m in metrics if any(h.get(m) is not None for h in held)]
    notes = [(explanations or {}).get(m, "") for m in metrics]
    top = 1.0
    for i, run in enumerate(runs):
        values: Any = run.get("metrics") or {}
        ys = [float(values.get(m) or 0.0) for m in metrics]
        top = max(top, *ys)
        fig.add_trace(go.Bar(x=metrics, y=ys, name=str(run.get("variant")), text=[f"{y:.3f}" if y else "" for y in ys],
                             textposition="inside", textangle=-90, insidetextanchor="end",
                             customdata=notes, marker_color=EVAL_COLORS[i % len(EVAL_COLORS)],
                             hovertemplate=f"{run.get('variant')}<br>%{{x}} %{{y:.4f}}<br>%{{customdata}}"
                                           "<extra></extra>"))
    fig.update_layout(barmode="group", bargap=0.25, uniformtext={"minsize": 9, "mode": "hide"},
                      legend_title_text=SETUP_LEGEND)
    fig.update_yaxes(range=[0, top * 1.08], title=f"score ({BETTER[False]})")
    fig.update_xaxes(title="metric (hover a bar for what it measures)")
    return _eval_layout(fig, 380)


def log_ticks(lo_ms: float, hi_ms: float) -> tuple[list[float], list[str]]:
    """Tick values at 1, 2, 5 × 10^k ms from just below ``lo_ms`` to just above ``hi_ms``, labelled "5 ms",
    "200 ms", "1 s", "100 s" (:func:`duration_label`)."""
    lo, hi = max(lo_ms, 0.1), max(hi_ms, lo_ms, 0.1)
    ticks: list[float] = []
    exponent = int(math.floor(math.log10(lo)))
    while True:
        for m in (1, 2, 5):
            v = m * 10.0 ** exponent
            if v > hi * 2:
                return ticks, [duration_label(t) for t in ticks]
            if v >= lo / 2:
                ticks.append(v)
        exponent += 1


def duration_label(ms: float) -> str:
    """``"0.5 ms"``, ``"20 ms"``, ``"1 s"``, ``"100 s"``, ``"20 min"``: a tick label (seconds up to 10 minutes)."""
    if ms < 1000:
        return f"{ms:g} ms"
    if ms < 600_000:
        return f"{ms / 1000:g} s"
    return f"{ms / 60_000:.3g} min"


def latency_figure(latency: Mapping[str, Mapping[str, Mapping[str, float]]]) -> go.Figure:
    """Latency percentiles per stage: x = ``part · stage`` (retrieval / answer), bars p50, p95, p99 on a log axis
    whose ticks are labelled in ms and s (:func:`log_ticks`), so stages of 5 ms and 5 s both read; the legend says
    each percentile in words (:data:`PERCENTILES`).

    Args:
        latency: a run's ``latency_ms``: ``{"retrieval": {stage: {"p50", "p95", "p99", "n"}}, "answer": {...}}``.
    """
    xs: list[str] = []
    points: dict[str, list[float]] = {"p50": [], "p95": [], "p99": []}
    for part, stages in latency.items():
        for stage, values in stages.items():
            xs.append(f"{part} · {stage}")
            for p in points:
                points[p].append(float(values.get(p, 0.0)))
    fig = go.Figure()
    for i, (p, ys) in enumerate(points.items()):
        fig.add_trace(go.Bar(x=xs, y=ys, name=PERCENTILES[p], marker_color=EVAL_COLORS[i],
                             hovertemplate=f"%{{x}}<br>{p} %{{y:.1f}} ms<extra></extra>"))
    fig.update_layout(barmode="group", bargap=0.2, legend_title_text="Time per question")
    positive = [y for ys in points.values() for y in ys if y > 0]
    tickvals, ticktext = log_ticks(min(positive, default=1.0), max(positive, default=1.0))
    fig.update_yaxes(type="log", title="time per question (log scale)", tickvals=tickvals, ticktext=ticktext)
    fig.update_xaxes(tickangle=-30, title="part · stage of answering")
    return _eval_layout(fig, 380)
