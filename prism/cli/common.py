"""What every command module shares: output (``--json`` or text), the service, progress lines, and an argparse
that reports usage errors instead of exiting.

Imports only the ground floor at module level; the service (and with it the models) is imported when a command
runs, so ``python -m prism --help`` stays quick.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from prism.errors import PrismError

if TYPE_CHECKING:
    from prism.service import PrismService

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def emit(args: argparse.Namespace, payload: Any, text: str) -> None:
    """Print ``payload`` as indented JSON (``--json``) or ``text``, on stdout, with a final newline."""
    if args.json:
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(text + "\n")


def titled(source: str, titles: dict[str, str]) -> str:
    """``"title (file name)"`` for the terminal, or the file name when it is its own title (``titles`` from
    :meth:`prism.service.PrismService.document_titles`)."""
    title = titles.get(source, source)
    return source if title == source else f"{title} ({source})"


def add_titles(rows: list[dict[str, Any]], titles: dict[str, str], key: str = "source") -> list[dict[str, Any]]:
    """``rows`` (JSON objects keyed by the file name under ``key``) each with a ``"title"`` field: the display title,
    the file name when the document has none or is gone."""
    return [{**row, "title": titles.get(str(row.get(key, "")), str(row.get(key, "")))} for row in rows]


def progress_printer() -> Callable[[float, str], None]:
    """A progress callback writing ``[ 42.0%] message`` to stderr whenever the message changes."""
    last = {"msg": ""}

    def show(fraction: float, message: str) -> None:
        if message != last["msg"]:
            last["msg"] = message
            sys.stderr.write(f"[{fraction * 100:5.1f}%] {message}\n")

    return show


def service() -> PrismService:
    """The service for one command (settings from the environment). Tests replace this function."""
    from prism.service import PrismService

    return PrismService()


def actor() -> str:
    """Who runs this command, for the audit log: ``"cli:<user>"`` (the login name, :func:`getpass.getuser`;
    ``"cli:unknown"`` when the system names none)."""
    import getpass

    try:
        return f"cli:{getpass.getuser()}"
    except (OSError, KeyError):
        return "cli:unknown"


def mode_names() -> list[str]:
    """The retrieval modes ``--mode`` accepts, from the retrieval registry (through the service module)."""
    from prism import service as facade

    return [mode.name for mode in facade.retrieval_modes()]


def file_types() -> str:
    """``"PDF, TXT, MD or CSV files"``: the upload types (through the service module), for help texts."""
    from prism import service as facade
    from prism.types import file_types_phrase

    return file_types_phrase(facade.supported_file_types())


def headline_metrics() -> list[str]:
    """The headline metric names in display order (through the service module), for summary tables."""
    from prism import service as facade

    return [m.name for m in facade.metrics() if m.headline]


def dataset_formats() -> list[str]:
    """The dataset formats ``eval run --format`` accepts (through the service module)."""
    from prism import service as facade

    return list(facade.dataset_formats())


class Parser(argparse.ArgumentParser):
    """argparse that raises :class:`~prism.errors.PrismError` instead of exiting, so ``--json`` can report usage
    errors as JSON."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise PrismError(f"{self.prog}: {message}")


def scope_line(scope: Any) -> str | None:
    """``"Scope: 3M Company · FY2018 · auto"`` (entities, periods, documents when no entity names them, ``auto``
    when the question set it), or ``None`` when the search ran over the whole workspace with nothing named."""
    if scope is None:
        return None
    parts = [*scope.entities, *scope.periods]
    if not scope.entities:
        parts += list(scope.documents)
    if not parts:
        return None
    return "Scope: " + " · ".join(parts + (["auto"] if scope.auto else []))
