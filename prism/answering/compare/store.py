"""Saved comparison grids and the cell cache of one workspace, under its folder::

    workspaces/<workspace id>/grids/g-<12 hex>.json     one saved grid (CompareGrid.to_dict())
    workspaces/<workspace id>/grids/cache/<key>.json    one answered cell (CompareCell.to_dict(full=True))

Cache files are keyed by :func:`prism.answering.compare.grid.cell_key` (document id, question as asked, settings) and
written atomically; two sessions answering the same cell write the same content, so the last one wins harmlessly.
Grid changes hold a file lock (threads and processes) and replace the file atomically. The folder is inside the
workspace's, so deleting the workspace deletes its grids.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock

from prism.errors import PrismError
from prism.fsutil import atomic_write_json
from prism.index.workspace_locks import guarded
from prism.index.workspaces import Workspace
from prism.types import CompareCell, CompareGrid

__all__ = ["GridStore"]

logger = logging.getLogger(__name__)

_GRID_ID = re.compile(r"g-[0-9a-f]{12}")
_KEY = re.compile(r"[0-9a-f]{32}")


class GridStore:
    """The saved grids and cached cells of one workspace.

    Args:
        workspace: the workspace's files (its folder, name and liveness check).
        lock_timeout_s: how long a grid change waits for another.
    """

    def __init__(self, workspace: Workspace, lock_timeout_s: float = 60.0):
        self.workspace = workspace
        self.dir = workspace.dir / "grids"
        self._lock = FileLock(str(self.dir / ".lock"), timeout=lock_timeout_s)

    # --- the cell cache (prism.answering.compare.grid.CellCache) ---------------------------------------------------
    def cached_cell(self, key: str) -> CompareCell | None:
        """The cell cached under ``key``, or ``None`` (an unreadable cache file counts as missing)."""
        if not _KEY.fullmatch(key):
            return None
        data = _read(self.dir / "cache" / f"{key}.json")
        return CompareCell.from_dict(data) if data is not None else None

    def cache_cell(self, key: str, cell: CompareCell) -> None:
        """Keep ``cell`` under ``key`` (an error cell is never cached: it is asked again next time).

        Raises:
            WorkspaceDeletedError: the workspace was deleted.
        """
        if cell.status == "error" or not _KEY.fullmatch(key):
            return
        self.workspace.check_alive()
        atomic_write_json(self.dir / "cache" / f"{key}.json", cell.to_dict(full=True), compact=True)

    # --- grids --------------------------------------------------------------------------------------------------
    def list(self) -> list[CompareGrid]:
        """Every saved grid, most recently updated first (cells included)."""
        grids = [CompareGrid.from_dict(d) for p in sorted(self.dir.glob("g-*.json")) if (d := _read(p))]
        return sorted(grids, key=lambda g: (g.updated_at, g.id), reverse=True)

    def get(self, grid_id: str) -> CompareGrid:
        """The saved grid.

        Raises:
            PrismError: no such grid in this workspace.
        """
        data = _read(self._path(grid_id)) if _GRID_ID.fullmatch(grid_id or "") else None
        if data is None:
            raise PrismError(f"There is no saved comparison grid '{grid_id}' in workspace "
                             f"'{self.workspace.name}' (it may have been deleted); build it again.")
        return CompareGrid.from_dict(data)

    def save(self, grid: CompareGrid) -> CompareGrid:
        """Save ``grid`` (a new id when it has none), stamped with the time; returns it as saved.

        Raises:
            WorkspaceDeletedError, StoreError: the workspace was deleted, or the lock was not acquired.
        """
        now = datetime.now(UTC).isoformat(timespec="microseconds")
        grid = replace(grid, id=grid.id or f"g-{secrets.token_hex(6)}", created_at=grid.created_at or now,
                       updated_at=now, title=" ".join(grid.title.split()) or "Untitled grid")
        with self._locked():
            atomic_write_json(self._path(grid.id), grid.to_dict())
        logger.info("workspace %s: grid %s saved (%d cells)", self.workspace.info.id, grid.id, len(grid.cells))
        return grid

    def delete(self, grid_id: str) -> None:
        """Delete a saved grid (nothing happens when it is already gone)."""
        if not _GRID_ID.fullmatch(grid_id or ""):
            return
        with self._locked():
            self._path(grid_id).unlink(missing_ok=True)

    # --- files --------------------------------------------------------------------------------------------------
    def _path(self, grid_id: str) -> Path:
        return self.dir / f"{grid_id}.json"

    def _locked(self) -> Any:
        return guarded(self._lock, self.workspace.home, self.workspace.info, self.workspace.dir,
                       f"The comparison grids of workspace '{self.workspace.name}' are busy; try again shortly.")


def _read(path: Path) -> dict[str, Any] | None:
    """The file's JSON object, ``None`` when it is missing or unreadable (logged)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, json.JSONDecodeError) as exc:
        logger.warning("unreadable grid file %s: %s", path.name, type(exc).__name__)
        return None
    return data if isinstance(data, dict) else None

