"""The datasets the Eval page offers to run: each one present, or listed as missing with the reason.

:data:`PUBLIC_DATASETS` names the public sets by their folder under ``settings.eval_data_dir``; the sample set is
``settings.eval_ground_truth``; a workspace's own ground truth (:mod:`prism.evaluation.feedback`) is offered when it
has pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from prism.config import Settings

__all__ = ["PUBLIC_DATASETS", "DatasetChoice", "dataset_choices"]


@dataclass(frozen=True)
class DatasetChoice:
    """One dataset the Eval page can run.

    Attributes:
        label: how it is shown ("FinanceBench dev (financebench)").
        path: what :func:`prism.evaluation.datasets.load_dataset` loads (``""`` for the workspace's ground truth).
        format: ``prism``, ``beir``, ``financebench``, ``tatqa`` or ``workspace``.
        present: whether its data is here.
        reason: why it cannot be run ("" when present).
    """

    label: str
    path: str
    format: str
    present: bool
    reason: str = ""


PUBLIC_DATASETS: tuple[tuple[str, str, str], ...] = (
    ("FinanceBench dev: 16 filings, their questions", "financebench-dev", "financebench"),
    ("SciFact (BEIR)", "scifact", "beir"),
    ("TAT-QA dev: report extracts, table and text questions", "tatqa-dev", "tatqa"),
)
"""(label, folder under ``settings.eval_data_dir``, format) of the public datasets."""


def dataset_choices(settings: Settings, workspace: str | None = None, workspace_pairs: int = 0) -> list[DatasetChoice]:
    """Every dataset the page knows, present ones first in this order: the sample set, the workspace's own ground
    truth, the public sets (a missing one says which path is missing)."""
    sample = Path(settings.eval_ground_truth)
    out = [DatasetChoice(f"Sample set ({sample.name})", str(sample), "prism", sample.is_file(),
                         "" if sample.is_file() else f"{sample} is missing")]
    if workspace is not None:
        out.append(DatasetChoice(f"Ground truth of workspace '{workspace}' ({workspace_pairs} pairs)", "",
                                 "workspace", workspace_pairs > 0,
                                 "" if workspace_pairs else "no pairs yet: mark passages relevant in Chat and "
                                 "press 'Add to ground truth'"))
    for label, folder, fmt in PUBLIC_DATASETS:
        path = Path(settings.eval_data_dir) / folder
        out.append(DatasetChoice(label, str(path), fmt, path.is_dir(), "" if path.is_dir() else f"{path} is missing"))
    return sorted(out, key=lambda c: not c.present)
