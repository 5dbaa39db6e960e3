"""``python -m prism workspaces [list | create NAME | rename OLD NEW | delete NAME]``."""

from __future__ import annotations

import argparse
from typing import Any

from prism.cli import common
from prism.errors import PrismError

USAGE = "usage: python -m prism workspaces [list | create NAME | rename OLD NEW | delete NAME]"
NAMES_NEEDED = {"create": 1, "delete": 1, "rename": 2}


def cmd_workspaces(args: argparse.Namespace) -> int:
    """List, create, rename or delete workspaces.

    Raises:
        PrismError: an unknown action or the wrong number of names (the usage line).
    """
    svc = common.service()
    action = args.action or "list"
    if action == "list":
        items = svc.workspaces()
        common.emit(args, [w.to_dict() for w in items], "\n".join(w.name for w in items) or "(no workspaces)")
        return common.EXIT_OK
    needed = NAMES_NEEDED.get(action)
    if needed is None or len(args.names) != needed:
        raise PrismError(USAGE)
    if action == "create":
        info = svc.create_workspace(args.names[0], actor=common.actor())
        common.emit(args, info.to_dict(), f"created workspace {info.name}")
    elif action == "rename":
        info = svc.rename_workspace(args.names[0], args.names[1], actor=common.actor())
        common.emit(args, info.to_dict(), f"renamed to {info.name}")
    else:
        info = svc.delete_workspace(args.names[0], actor=common.actor())
        common.emit(args, {"deleted": info.name}, f"deleted workspace {info.name}")
    return common.EXIT_OK


def register(sub: Any, shared: argparse.ArgumentParser) -> None:
    """Add ``workspaces`` to the CLI's sub-parsers."""
    p = sub.add_parser("workspaces", parents=[shared], help="list, create, rename or delete workspaces")
    p.add_argument("action", nargs="?", choices=["list", *NAMES_NEEDED], help="what to do (default: list)")
    p.add_argument("names", nargs="*", metavar="NAME", help="create/delete: NAME; rename: OLD NEW")
    p.set_defaults(func=cmd_workspaces)
