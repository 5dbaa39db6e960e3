"""The Eval page in plain words: the sentence that opens a comparison of two runs ("Run B answers 41 more questions
right than run A …, mostly arithmetic …"), the metric a comparison opens on, and the glossary of the metrics shown.

Pure functions over run records (:mod:`prism.evaluation.runs`) and :class:`prism.types.MetricSpec`; the words for
each metric live beside its definition (:data:`prism.evaluation.metrics.METRICS`: ``plain`` and ``win``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from prism.types import MetricSpec
from prism.ui.evaluation.tables import compare_frame

OPENING_ORDER: tuple[str, ...] = ("tatqa_first_line", "judge_correctness", "numeric_match", "answer_f1",
                                  "declined_negatives", "ndcg@10", "hit@5", "hit@10", "mrr@10")
"""The metric a comparison opens on: the first of these both runs have (whether answers are right before how the
passages ranked), else the first shared metric in display order."""

MOSTLY = 0.5
"""A question type holding at least this share of the gains (or losses) is named as "mostly" that type."""


def opening_metric(shared: Sequence[str]) -> str | None:
    """The metric of :data:`OPENING_ORDER` that comes first among ``shared`` (the metrics both runs have, in display
    order), else ``shared[0]``; ``None`` when they share none."""
    return next((m for m in OPENING_ORDER if m in shared), shared[0] if shared else None)


def _questions(n: int, more: bool) -> str:
    return f"{n} {'more' if more else 'fewer'} question{'s' if n != 1 else ''}"


def _type_word(qtype: str) -> str:
    return str(qtype or "untyped").replace("_", " ")


def _by_type(run_a: Mapping[str, Any], run_b: Mapping[str, Any], qtype: str, metric: str) -> str:
    """``"; arithmetic 0.610 → 0.780"`` from the runs' per-type metrics, ``""`` when either lacks it."""
    va = ((run_a.get("metrics_by_type") or {}).get(qtype) or {}).get(metric)
    vb = ((run_b.get("metrics_by_type") or {}).get(qtype) or {}).get(metric)
    if va is None or vb is None:
        return ""
    return f"; {_type_word(qtype)} questions {float(va):.3f} → {float(vb):.3f}"


def _where(rows: Sequence[str], total: int, what: str, run_a: Mapping[str, Any], run_b: Mapping[str, Any],
           metric: str) -> str:
    """Where the gains (or losses) are: ``", mostly arithmetic (30 of the 52 gains; arithmetic …)"`` when one type
    holds :data:`MOSTLY` of them, else the three largest types (``", across span 12, count 9, arithmetic 8"``)."""
    counts = Counter(rows).most_common()
    if not counts or total == 0:
        return ""
    top, k = counts[0]
    if len(counts) == 1 or k / total >= MOSTLY:
        return f", mostly {_type_word(top)} ({k} of the {total} {what}{_by_type(run_a, run_b, top, metric)})"
    return ", across " + ", ".join(f"{_type_word(t)} {c}" for t, c in counts[:3])


def comparison_sentence(run_a: Mapping[str, Any], run_b: Mapping[str, Any], spec: MetricSpec) -> str:
    """One sentence that says what changed from run A to run B on ``spec``, from the runs' per-question records:
    the net count of questions that got better (improved minus regressed, :func:`compare_frame`), said with the
    metric's ``win`` clause; the counts behind it; and the question type most of the gains (or, when B is worse,
    the losses) fall in, with that type's metric in both runs when they record per-type metrics.

    Example: ``"Run B answers 41 more questions right than run A (52 better, 11 worse, 300 unchanged), mostly
    arithmetic (30 of the 52 gains; arithmetic questions 0.610 → 0.780)."``

    Returns:
        The sentence (Markdown-free plain text); for runs with no question in common, a sentence that says so.
    """
    frame = compare_frame(run_a, run_b, spec)
    verdicts = Counter(frame["verdict"]) if not frame.empty else Counter()
    better, worse, same, new = (verdicts.get(k, 0) for k in ("improved", "regressed", "same", "new"))
    added = f" Run B also has {new} new question{'s' if new != 1 else ''}." if new else ""
    if sum(verdicts.values()) == new:
        return "Run A and run B have no question in common." + added
    counts = f"{better} better, {worse} worse, {same} unchanged"
    if better == worse:
        even = "no question changed" if better == 0 else "as many questions got better as got worse"
        return f"Run B and run A are even on {spec.name}: {even} ({counts}).{added}"
    net = better - worse
    # a lower-is-better metric gains by falling: "wrongly declines 3 fewer questions"
    win = (spec.win or "scores higher on {n}").format(n=_questions(abs(net), (net > 0) != spec.lower_is_better))
    if net > 0:
        rows = list(frame.loc[frame["verdict"] == "improved", "type"])
        where = _where(rows, better, "gains", run_a, run_b, spec.name)
    else:
        rows = list(frame.loc[frame["verdict"] == "regressed", "type"])
        where = _where(rows, worse, "losses", run_a, run_b, spec.name)
    return f"Run B {win} than run A ({counts}){where}.{added}"


def glossary(specs: Sequence[MetricSpec], shown: Sequence[str]) -> list[dict[str, str]]:
    """Rows ``{"metric", "in plain words"}`` for the metrics ``shown`` (in that order) that have a spec."""
    by_name = {s.name: s for s in specs}
    return [{"metric": m, "in plain words": by_name[m].plain or by_name[m].description}
            for m in shown if m in by_name]
