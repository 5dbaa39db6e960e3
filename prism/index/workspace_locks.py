"""Locks on one workspace's folder that never bring a deleted workspace back.

A workspace is alive while ``workspaces.json`` lists its id. Deleting it (:meth:`prism.index.workspaces.
WorkspaceCatalog.remove`) holds the workspace's locks while it drops the collection, unlists the id and removes the
folder, so a writer waiting on a lock acquires it only afterwards. ``filelock`` re-creates the folder of a lock file
it opens, so a writer that finds its workspace unlisted once it holds the lock removes the folder it brought back
and stops with :class:`~prism.errors.WorkspaceDeletedError`: nothing is ever left under a deleted workspace's id.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

from prism.errors import StoreError, WorkspaceDeletedError
from prism.types import WorkspaceInfo

logger = logging.getLogger(__name__)

CATALOG_FILE = "workspaces.json"
"""The workspace list under ``PRISM_HOME``."""


def listed(home: Path, workspace_id: str) -> bool:
    """True while ``home/workspaces.json`` lists ``workspace_id`` (an unreadable or missing list lists nothing)."""
    try:
        data = json.loads((Path(home) / CATALOG_FILE).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return False
    return any(w.get("id") == workspace_id for w in data.get("workspaces", []))


def deleted_error(info: WorkspaceInfo) -> WorkspaceDeletedError:
    """The error of a write to a deleted workspace (the caller adds the file it was writing)."""
    return WorkspaceDeletedError(f"Workspace '{info.name}' was deleted; nothing more is written to it.")


def check_alive(home: Path, info: WorkspaceInfo) -> None:
    """Raise :class:`~prism.errors.WorkspaceDeletedError` when the workspace is no longer listed."""
    if not listed(home, info.id):
        raise deleted_error(info)


@contextmanager
def guarded(lock: FileLock, home: Path, info: WorkspaceInfo, folder: Path, busy: str) -> Iterator[None]:
    """Hold ``lock`` (a lock file inside ``folder``) while the workspace is alive.

    Args:
        lock: the file lock.
        home: ``PRISM_HOME``.
        info: the workspace.
        folder: the workspace's folder (removed again when acquiring the lock re-created it after a delete).
        busy: the message of the :class:`~prism.errors.StoreError` raised when the lock times out.

    Raises:
        WorkspaceDeletedError: the workspace was deleted before or while waiting for the lock (its folder removed
            under the waiting lock included: ``filelock`` then fails with ``FileNotFoundError``).
        StoreError: the lock was not acquired within its timeout, or the folder of a listed workspace is missing.
    """
    check_alive(home, info)
    try:
        lock.acquire()
    except Timeout as exc:
        raise StoreError(busy) from exc
    except FileNotFoundError as exc:  # the folder went while this writer waited: a delete held the lock
        if listed(home, info.id):
            raise StoreError(f"The folder of workspace '{info.name}' ({folder}) is missing; it cannot be written "
                             "to. Delete the workspace and create it again.") from exc
        logger.info("workspace %s was deleted while waiting for its lock (its folder is gone)", info.id)
        raise deleted_error(info) from exc
    try:
        if not listed(home, info.id):
            shutil.rmtree(folder, ignore_errors=True)  # what acquiring the lock re-created
            logger.info("workspace %s was deleted while waiting for its lock", info.id)
            raise deleted_error(info)
        yield
    finally:
        lock.release()
