"""The feedback half of the facade: :class:`FeedbackFacade`, mixed into :class:`prism.service.PrismService`: a
workspace's feedback log, its own ground truth, and that ground truth as a dataset to evaluate."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from prism.config import Settings
from prism.evaluation.choices import DatasetChoice, dataset_choices
from prism.evaluation.dataset_types import EvalDataset
from prism.evaluation.datasets import QUESTION_TYPES
from prism.evaluation.feedback import FeedbackStore, WorkspaceTruth
from prism.index.catalog import WorkspaceCatalog
from prism.index.workspaces import Workspace

__all__ = ["FeedbackFacade"]


class FeedbackFacade:
    """Feedback and workspace ground truth, for a class that has ``settings``, ``catalog`` and the audit trail's
    ``record`` (:meth:`prism.index.audit.AuditFacade.record`)."""

    settings: Settings
    catalog: WorkspaceCatalog
    record: Callable[..., Any]

    @staticmethod
    def question_types() -> tuple[str, ...]:
        """The question types of a ground-truth pair (:data:`prism.evaluation.datasets.QUESTION_TYPES`)."""
        return QUESTION_TYPES

    def _workspace_files(self, workspace: str | None) -> Workspace:
        info = self.catalog.get(workspace or self.settings.default_workspace)
        return Workspace(self.settings.home, info, self.settings.lock_timeout_s)

    def feedback(self, workspace: str | None = None, *, actor: str | None = None) -> FeedbackStore:
        """The workspace's append-only feedback log; each mark added through it is recorded in the audit log as
        ``actor``'s. Raises ``WorkspaceNotFoundError``."""
        files = self._workspace_files(workspace)

        def audit(line: dict[str, Any]) -> None:
            details = {"kind": line["kind"], "value": line["value"], **({"chunk_id": line["target"].get("chunk_id")}
                                                                      if line.get("target") else {})}
            self.record(files.info, actor, "feedback", str(line["question"])[:200], details)

        return FeedbackStore(files, self.settings.lock_timeout_s, on_add=audit)

    def ground_truth(self, workspace: str | None = None) -> WorkspaceTruth:
        """The workspace's own ground-truth pairs; raises ``WorkspaceNotFoundError``."""
        return WorkspaceTruth(self._workspace_files(workspace), self.settings.lock_timeout_s)

    def dataset_choices(self, workspace: str | None = None) -> list[DatasetChoice]:
        """The datasets the Eval page offers (:func:`prism.evaluation.choices.dataset_choices`), with ``workspace``'s
        own ground truth when a workspace is given (and exists)."""
        pairs = 0
        if workspace is not None and self.catalog.find(workspace) is not None:
            pairs = len(self.ground_truth(workspace).pairs())
        return dataset_choices(self.settings, workspace if pairs or workspace else None, pairs)

    def workspace_dataset(self, workspace: str | None = None) -> EvalDataset:
        """The workspace's ground truth as a dataset over its own documents (evaluate it with
        ``evaluate(dataset, workspace=<the same name>)``: nothing is ingested again). Raises
        ``WorkspaceNotFoundError`` or ``PrismError`` (no pair yet, a pair names a document no longer there)."""
        files = self._workspace_files(workspace)
        originals = {d.source: files.original_path(d.doc_id) for d in files.documents()}
        return WorkspaceTruth(files, self.settings.lock_timeout_s).dataset(originals)
