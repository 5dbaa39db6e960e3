"""``python -m prism seed build DIR`` and ``python -m prism seed install [--from DIR]``.

``build`` makes a seed: the sample workspace built into an empty folder DIR (a whole ``PRISM_HOME``, with the ONNX
model export when that backend is configured). ``install`` copies a seed into ``PRISM_HOME`` when it is empty and
does nothing otherwise; the service does the same by itself at start when ``PRISM_SEED_DIR`` is set (the Docker
image sets it), so ``install`` is for installing by hand.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prism.cli import common
from prism.config import get_settings
from prism.errors import PrismError

if TYPE_CHECKING:
    from prism.service import PrismService


def builder(home: Path) -> PrismService:
    """The service that builds a seed into ``home`` (settings from the environment; tests replace this function)."""
    from prism.service import PrismService

    return PrismService(get_settings().model_copy(update={"home": home, "seed_dir": None}))


def cmd_seed(args: argparse.Namespace) -> int:
    """Build a seed into an empty folder, or install one into ``PRISM_HOME``.

    Raises:
        PrismError: ``build`` into a folder that is not empty, ``install`` without a seed folder, or a failed copy.
    """
    from prism.service import install_seed

    settings = get_settings()
    if args.action == "build":
        if not args.dir:
            raise PrismError("usage: python -m prism seed build DIR (an empty or new folder)")
        dest = Path(args.dir).resolve()
        if dest.is_dir() and any(dest.iterdir()):
            raise PrismError(f"{dest} is not empty; a seed is built into an empty or new folder.")
        results = builder(dest).restore_sample_workspace(None if args.json else common.progress_printer())
        failed = [r.file for r in results if r.status == "failed"]
        if failed or not results:
            raise PrismError(f"The sample workspace could not be built into {dest} (failed: {failed or 'no files'}; "
                             f"sample documents in {settings.sample_dir}).")
        chunks = sum(r.chunks for r in results)
        common.emit(args, {"seed": str(dest), "documents": len(results), "chunks": chunks},
                    f"seed built in {dest}: {len(results)} documents, {chunks} chunks")
        return common.EXIT_OK
    seed = Path(args.source) if args.source else settings.seed_dir
    if seed is None:
        raise PrismError("No seed folder: pass --from DIR or set PRISM_SEED_DIR.")
    installed = install_seed(seed, settings.home)
    text = f"installed {seed} into {settings.home}" if installed else f"{settings.home} is not empty: nothing installed"
    common.emit(args, {"installed": installed, "seed": str(seed), "home": str(settings.home)}, text)
    return common.EXIT_OK


def register(sub: Any, shared: argparse.ArgumentParser) -> None:
    """Add ``seed`` to the CLI's sub-parsers."""
    p = sub.add_parser("seed", parents=[shared], help="build a PRISM_HOME with the sample workspace, or install one")
    p.add_argument("action", choices=["build", "install"], help="build a seed into DIR, or install one")
    p.add_argument("dir", nargs="?", default=None, metavar="DIR", help="build: the (empty) folder to build into")
    p.add_argument("--from", dest="source", default=None, metavar="DIR", help="install: the seed folder")
    p.set_defaults(func=cmd_seed)
