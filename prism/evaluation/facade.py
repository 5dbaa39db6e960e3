"""The evaluation half of the facade: :class:`EvaluationFacade` (mixed into :class:`prism.service.PrismService`) and
the evaluation vocabularies the UI and CLI read through :mod:`prism.service` (metrics, published anchors, formats).

Everything here reads ``self.settings`` only; the runner gets the whole service as an
:class:`~prism.evaluation.protocol.EvalService`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from prism.config import Settings
from prism.types import MetricSpec


class EvaluationFacade:
    """Datasets, evaluation and versioned runs, for a class that has ``settings`` and is an ``EvalService``."""

    settings: Settings

    def load_dataset(self, path: str | Path, format: str | None = None, **files: Any) -> Any:
        """An evaluation dataset; arguments as :func:`prism.evaluation.datasets.load_dataset` (raises
        ``PrismError`` for a missing path, an unknown format or a malformed file). FinanceBench filings that are not
        beside their questions are looked up under ``settings.eval_data_dir``."""
        from prism.evaluation.datasets import load_dataset

        files.setdefault("eval_data_dir", self.settings.eval_data_dir)
        return load_dataset(path, format, **files)

    def evaluate(self, dataset: Any, *, eval_dir: str | Path | None = None,
                 **options: Any) -> list[tuple[dict[str, Any], Path]]:
        """Evaluate a dataset (:meth:`load_dataset`), writing its runs to ``eval_dir`` (default
        ``settings.eval_dir``); options and return value as :func:`prism.evaluation.runner.run_evaluation`."""
        from prism.evaluation.runner import run_evaluation
        from prism.evaluation.runs import RunStore

        return run_evaluation(self, dataset, store=RunStore(Path(eval_dir or self.settings.eval_dir)),  # type: ignore[arg-type]
                              **options)

    def train_reader(self, dataset: Any, *, out: str | Path | None = None, progress: Any = None) -> dict[str, Any]:
        """Train the question reader and the program ranker on a TAT-QA dataset (its tuning half) and write their
        weights (:func:`prism.evaluation.training.run.train_reader`; raises ``PrismError`` for another format)."""
        from prism.evaluation.training.run import train_reader

        return train_reader(self, dataset, out=Path(out) if out else None, progress=progress)  # type: ignore[arg-type]

    def runs(self) -> list[dict[str, Any]]:
        """The evaluation runs listed in ``settings.eval_dir/index.json``, oldest first."""
        from prism.evaluation.runs import RunStore

        return RunStore(self.settings.eval_dir).list()

    def run(self, run_id: str) -> dict[str, Any]:
        """One evaluation run's full record (raises ``PrismError`` when missing or unreadable)."""
        from prism.evaluation.runs import RunStore

        return RunStore(self.settings.eval_dir).load(run_id)


def metrics() -> tuple[MetricSpec, ...]:
    """Every evaluation metric in display order, headline ones first, from :data:`prism.evaluation.metrics.METRICS`."""
    from prism.evaluation.metrics import METRICS

    return METRICS


def published_anchors(dataset: str) -> tuple[str, dict[str, dict[str, float]]]:
    """Published results to draw beside a dataset's runs: ``(split they were measured on, {metric: {system:
    value}})`` (``{}`` when there are none)."""
    from prism.evaluation.metrics import ANCHOR_SPLIT, PUBLISHED_ANCHORS

    return ANCHOR_SPLIT, {metric: dict(v) for metric, v in PUBLISHED_ANCHORS.get(dataset.lower(), {}).items()}


def dataset_formats() -> tuple[str, ...]:
    """The evaluation dataset formats :meth:`EvaluationFacade.load_dataset` reads."""
    from prism.evaluation.datasets import FORMATS

    return FORMATS
