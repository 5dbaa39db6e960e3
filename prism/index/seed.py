"""A seed: a ``PRISM_HOME`` built ahead of time (the Docker image builds the sample workspace into one), copied into
an empty ``PRISM_HOME`` at start so that nobody waits for the sample workspace to be built.

A Hugging Face Space mounts its persistent volume over ``/data`` (``PRISM_HOME``) at run time, so the image cannot
ship the workspace there; it ships it in a seed folder outside (``/opt/prism/seed``, ``PRISM_SEED_DIR``) instead.
:func:`install_seed` copies it in only when the home holds nothing of Prism's (a volume's ``lost+found`` does not
count), never over existing workspaces. The copy goes into a hidden folder inside the home first and its entries are
then renamed into place, under a file lock, so two processes starting together install once and a copy stopped
half-way is never taken for a home. Every path a home stores is relative to it (Chroma's files, the workspace
registry), which is what makes a copied home work.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

from filelock import FileLock, Timeout

from prism.errors import StoreError

logger = logging.getLogger(__name__)

LOCK_NAME = ".seed.lock"
INCOMING_NAME = ".seed-incoming"
IGNORED = frozenset({LOCK_NAME, INCOMING_NAME, "lost+found", "logs"})
"""Entries that do not make a home "not empty": the install's own lock and half-copied folder, the ``lost+found``
folder of a freshly formatted volume, and ``logs`` (where the CLI writes the details of an error)."""


def home_is_empty(home: Path) -> bool:
    """True when ``home`` is missing or holds nothing but the entries in :data:`IGNORED`."""
    home = Path(home)
    return not home.is_dir() or all(entry.name in IGNORED for entry in home.iterdir())


def install_seed(seed: Path, home: Path, timeout_s: float = 120.0) -> bool:
    """Copy the seed folder's contents into ``home`` when ``home`` is empty (:func:`home_is_empty`).

    Args:
        seed: a folder built by ``python -m prism seed build`` (a whole ``PRISM_HOME``).
        home: the ``PRISM_HOME`` to fill; created when missing.
        timeout_s: how long to wait for another process installing into the same home.

    Returns:
        True when the seed was copied in, False when ``home`` already held something (nothing is changed then)
        or the seed folder is missing or empty (logged).

    Raises:
        StoreError: the copy failed (disk full, permissions) or another process held the lock past ``timeout_s``;
            a partial copy is removed and the home stays empty.
    """
    seed, home = Path(seed), Path(home)
    if not home_is_empty(home):
        return False
    if not seed.is_dir() or home_is_empty(seed):
        logger.warning("seed folder %s is missing or empty; nothing installed", seed)
        return False
    try:
        home.mkdir(parents=True, exist_ok=True)
        with FileLock(str(home / LOCK_NAME), timeout=timeout_s):
            if not home_is_empty(home):  # another process installed it while this one waited
                return False
            incoming = home / INCOMING_NAME
            shutil.rmtree(incoming, ignore_errors=True)  # a copy stopped half-way by an earlier start
            shutil.copytree(seed, incoming, ignore=shutil.ignore_patterns(*IGNORED))
            for entry in sorted(incoming.iterdir()):
                entry.rename(home / entry.name)
            incoming.rmdir()
    except Timeout as exc:
        raise StoreError(f"Another process kept {home / LOCK_NAME} locked for {timeout_s:.0f} s while installing "
                         "the seed; start again, or remove the lock file if no Prism process is running.") from exc
    except OSError as exc:
        shutil.rmtree(home / INCOMING_NAME, ignore_errors=True)
        raise StoreError(f"Could not copy the seed {seed} into {home}: {exc}. Check the free space and that "
                         "PRISM_HOME is writable.") from exc
    logger.info("installed the seed %s into %s", seed, home)
    return True
