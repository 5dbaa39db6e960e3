"""``python -m prism audit [--home-log]``: a workspace's audit trail, newest first (:mod:`prism.index.audit`)."""

from __future__ import annotations

import argparse
from typing import Any

from prism.cli import common


def cmd_audit(args: argparse.Namespace) -> int:
    """Print the audit log of ``--workspace`` (or with ``--home-log`` the process-wide one: workspaces created,
    renamed and deleted), newest first: one ``time  actor  action  target`` line per entry, or with ``--json`` a list
    of ``{"time", "actor", "action", "target", "workspace", "workspace_id", "details"}``.

    Raises:
        WorkspaceNotFoundError: no such workspace.
    """
    svc = common.service()
    workspace = None if args.home_log else (args.workspace or svc.settings.default_workspace)
    entries = list(reversed(svc.audit(workspace)))
    lines = [f"{e.time}  {e.actor}  {e.label}  {e.target}" for e in entries]
    common.emit(args, [e.to_dict() for e in entries], "\n".join(lines) or "(nothing recorded yet)")
    return common.EXIT_OK


def register(sub: Any, shared: argparse.ArgumentParser) -> None:
    """Add ``audit`` to the CLI's sub-parsers."""
    p = sub.add_parser("audit", parents=[shared], help="who added, replaced, deleted, renamed or exported what")
    p.add_argument("--home-log", action="store_true",
                   help="the process-wide log (workspaces created, renamed, deleted) instead of one workspace's")
    p.set_defaults(func=cmd_audit)
