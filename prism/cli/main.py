"""``python -m prism``: the stable command-line interface.

Every command accepts ``--json``: then stdout carries exactly one JSON value (errors included, as
``{"error": "..."}`` with a non-zero exit); progress and logs go to stderr. Nothing ever prints a traceback: an
unexpected error is one line naming the command, its traceback goes to ``PRISM_HOME/logs/cli.log``
(:mod:`prism.cli.logs`).

Command groups register themselves explicitly, in the order of :data:`COMMAND_GROUPS`; each is a module with a
``register(sub_parsers, shared_parser)`` function.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from prism.cli import (
    answer,
    audit,
    common,
    compare,
    documents,
    evaluation,
    reference,
    reranker,
    search,
    seed,
    workspaces,
)
from prism.cli.logs import configure_logging, record_unexpected
from prism.errors import PrismError

COMMAND_GROUPS = (documents, workspaces, audit, search, answer, compare, evaluation, seed, reranker, reference)
"""The modules whose ``register`` adds sub-commands, in help order."""

def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m prism`` (usage errors raise :class:`~prism.errors.PrismError`)."""
    shared = argparse.ArgumentParser(add_help=False)
    shared.add_argument("--json", action="store_true", help="print JSON on stdout")
    shared.add_argument("--workspace", default=None, help="workspace name (default: 'default')")
    shared.add_argument("-v", "--verbose", action="store_true", help="log at INFO to stderr")
    parser = common.Parser(prog="python -m prism", description="Prism: cited answers over regulatory documents.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=common.Parser)
    for group in COMMAND_GROUPS:
        group.register(sub, shared)
    return parser


def _error(message: str, as_json: bool, prefix: str = "") -> None:
    if as_json:
        sys.stdout.write(json.dumps({"error": message}, ensure_ascii=False) + "\n")
    else:
        sys.stderr.write(f"{prefix}{message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 a file or command failed, 2 usage)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
    try:
        args = build_parser().parse_args(argv)
    except PrismError as exc:
        _error(str(exc), "--json" in argv)
        return common.EXIT_USAGE
    except Exception as exc:  # never a traceback, not even from building the parser
        _error(record_unexpected("python -m prism", exc), "--json" in argv, "error: ")
        return common.EXIT_FAILED
    try:
        configure_logging(args.verbose)
        return int(args.func(args))
    except PrismError as exc:
        _error(str(exc), args.json, "error: ")
        return common.EXIT_FAILED
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a bug or an unforeseen state: one line here, the traceback in the log file
        _error(record_unexpected(args.command, exc), args.json, "error: ")
        return common.EXIT_FAILED
