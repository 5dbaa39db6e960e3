"""Value types of the audit trail: one record of who did what to a workspace (:class:`AuditEntry`) and the actions
it names (:data:`AUDIT_ACTIONS`), written and read by :mod:`prism.index.audit`; and what the access gate decided
about one client (:class:`AccessDecision`, :mod:`prism.index.access`)."""

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
    "access.granted": "entered the access code",
    "access.denied": "entered a wrong access code",
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


@dataclass(frozen=True)
class AccessDecision:
    """What the access gate says to one client (:class:`prism.index.access.AccessGuard`).

    Attributes:
        granted: the code given was right (always ``False`` for a status read without a code).
        wait_s: seconds before this client's next code is checked; 0.0 when it may try now. Never above the
            configured longest wait.
        tries_left: wrong codes the client may still enter before it has to wait (0 while it waits).
        scope: what the wait is for: ``""`` (no wait), ``"client"`` (this client's wrong codes) or ``"all"`` (the
            whole deployment's: every client waits).
        checked: the code given was compared (``False`` when it was refused unchecked during a wait).
    """

    granted: bool
    wait_s: float = 0.0
    tries_left: int = 0
    scope: str = ""
    checked: bool = True

    @property
    def message(self) -> str:
        """The sentence the gate shows while the client waits (``""`` when it may try)."""
        if self.wait_s <= 0:
            return ""
        left = wait_phrase(self.wait_s)
        if self.scope == "all":
            return (f"Too many wrong codes have been entered on this Prism, from all addresses together. Try again in "
                    f"{left}.")
        return f"Too many wrong codes from your address. Try again in {left}."


def wait_phrase(seconds: float) -> str:
    """``"45 s"``, ``"3 min 5 s"``, ``"1 h 2 min"``: a wait rounded up to the second."""
    total = max(1, int(-(-seconds // 1)))
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    if minutes:
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    return f"{secs} s"
