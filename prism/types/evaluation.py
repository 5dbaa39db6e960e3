"""Value types of evaluation: the description of a metric."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True)
class MetricSpec:
    """One evaluation metric (registry: :data:`prism.evaluation.metrics.METRICS`).

    Attributes:
        name: Prism's name (``ndcg@10``, ``answer_f1``), the key in run files, ``index.json`` and tables.
        description: one line on what it measures.
        source: who computes it: ``ranx`` (ranked retrieval), ``relevance`` (lenient precision) or ``answers``.
        granularities: for retrieval metrics, the dataset granularities it is computed on (``chunk``, ``document``).
        headline: shown in the CLI summary, the runs table and the ablation bars.
        lower_is_better: a drop is an improvement (e.g. ``false_declines``).
        answer_key: for answer metrics, the key of a question's answer record that holds its value.
        questions: for answer metrics, the questions it is averaged over: ``all``, ``positive`` (not negative) or
            ``negative``.
        plain: the same in plain words for a reader who does not know the jargon (the Eval page shows it beside
            the metric).
        win: what a question that got better under this metric gained, as a clause around ``{n}`` ("answers {n}
            right", with ``{n}`` = "41 more questions"), for the sentence that opens a comparison of two runs.
    """

    name: str
    description: str
    source: Literal["ranx", "relevance", "answers"] = "ranx"
    granularities: tuple[str, ...] = ()
    headline: bool = False
    lower_is_better: bool = False
    answer_key: str | None = None
    questions: Literal["all", "positive", "negative"] = "all"
    plain: str = ""
    win: str = "scores higher on {n}"

    def value(self, question: Mapping[str, Any]) -> float | None:
        """One question's value in a run file: ``question["metrics"][name]``, else for an answer metric its answer
        record's ``answer_key`` (a bool as 0/1); ``None`` when absent or when the metric leaves out this kind of
        question (``questions``)."""
        metrics = question.get("metrics") or {}
        if metrics.get(self.name) is not None:
            return float(metrics[self.name])
        answer = question.get("answer") or {}
        if self.answer_key is None or answer.get(self.answer_key) is None:
            return None
        negative = question.get("type") == "negative"
        if (self.questions == "negative" and not negative) or (self.questions == "positive" and negative):
            return None
        return float(answer[self.answer_key])
