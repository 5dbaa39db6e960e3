"""Value types of the audit trail: one record of who did what to a workspace (:class:`AuditEntry`) and the actions
it names (:data:`AUDIT_ACTIONS`). Written and read by :mod:`prism.index.audit`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

AUDIT_ACTIONS: dict[str, str] = {
    "document.add": "added a document",
    "document.replace": "replaced a document",
    "document.delete": "deleted a document",
    "workspace.create": "created the workspace",
    "workspace.rename": "renamed the workspace",
    "workspace.delete": "deleted the workspace",
    "feedback": "gave feedback",
    "export": "exported",
}
"""Each audited action's id and how the Workspaces page says it."""


@dataclass(frozen=True)
class AuditEntry:
    """One line of an audit log (JSON Lines, append-only).

    Attributes:
        time: when, ISO 8601 UTC with seconds (``2025-03-03T10:15:00+00:00``).
        actor: who: the Streamlit session id, ``"cli:<user>"``, or ``"system"`` (the app itself, e.g. the sample
            workspace on first start).
        action: one of :data:`AUDIT_ACTIONS`.
        target: what it was done to: a file name, a workspace name, an export's file name, a question.
        workspace: the workspace's display name at the time; workspace_id: its id (stays across renames).
        details: what else is worth knowing (document id, chunk count, old name, export format …).
    """

    time: str
    actor: str
    action: str
    target: str
    workspace: str = ""
    workspace_id: str = ""
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """``{"time", "actor", "action", "target", "workspace", "workspace_id", "details"}`` (the JSON line)."""
        return {"time": self.time, "actor": self.actor, "action": self.action, "target": self.target,
                "workspace": self.workspace, "workspace_id": self.workspace_id, "details": dict(self.details)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AuditEntry:
        """The entry of one parsed JSON line (missing keys empty; every value read as text but ``details``)."""
        details = data.get("details")
        time, actor, action, target, workspace, workspace_id = (
            str(data.get(k) or "") for k in ("time", "actor", "action", "target", "workspace", "workspace_id"))
        return cls(time, actor, action, target, workspace, workspace_id, details if isinstance(details, dict) else {})

    @property
    def label(self) -> str:
        """The action in words (:data:`AUDIT_ACTIONS`), or its id when unknown."""
        return AUDIT_ACTIONS.get(self.action, self.action)
