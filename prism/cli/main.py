"""``python -m prism``: the stable command-line interface.

Every command accepts ``--json``: then stdout carries exactly one JSON value (errors included, as
``{"error": "..."}`` with a non-zero exit); progress and logs go to stderr. Bad input never prints a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from prism.errors import PrismError

logger = logging.getLogger(__name__)

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def _emit(args: argparse.Namespace, payload: Any, text: str) -> None:
    if args.json:
        sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(text + "\n")


def _progress_printer(args: argparse.Namespace) -> Callable[[float, str], None]:
    last = {"msg": ""}

    def show(fraction: float, message: str) -> None:
        if message != last["msg"]:
            last["msg"] = message
            sys.stderr.write(f"[{fraction * 100:5.1f}%] {message}\n")

    return show


def _service() -> Any:
    from prism.service import PrismService

    return PrismService()


# --- commands ---------------------------------------------------------------------------------------------------
def cmd_ingest(args: argparse.Namespace) -> int:
    from prism.ingestion.pipeline import IngestItem

    items = [IngestItem(p) if p.startswith(("http://", "https://")) else IngestItem(p, os.path.basename(p))
             for p in args.paths]
    results = _service().ingest(items, args.workspace, progress=_progress_printer(args))
    lines = []
    for r in results:
        pages = "" if not r.pages else f", {r.pages} page" + ("s" if r.pages != 1 else "")
        detail = r.error if r.status == "failed" else f"{r.chunks} chunk" + ("s" if r.chunks != 1 else "") + pages
        extra = ""
        if r.skipped_pages:
            extra += "; skipped pages " + ", ".join(f"{s['page']} ({s['reason']})" for s in r.skipped_pages)
        if r.ocr_pages:
            extra += "; OCR pages " + ", ".join(map(str, r.ocr_pages))
        lines.append(f"{r.status:9} {r.file}: {detail}{extra}")
    _emit(args, [r.to_dict() for r in results], "\n".join(lines))
    return EXIT_FAILED if any(r.status == "failed" for r in results) else EXIT_OK


def cmd_docs(args: argparse.Namespace) -> int:
    docs = _service().documents(args.workspace)
    text = "\n".join(
        f"{d.source}  pages={d.pages if d.pages is not None else '-'}  chunks={d.chunks}  {d.ingested_at}"
        for d in docs
    ) or "(no documents)"
    _emit(args, [d.to_dict() for d in docs], text)
    return EXIT_OK


def cmd_delete(args: argparse.Namespace) -> int:
    record = _service().delete_document(args.file_name, args.workspace)
    _emit(args, {"deleted": record.source, "doc_id": record.doc_id}, f"deleted {record.source}")
    return EXIT_OK


def cmd_workspaces(args: argparse.Namespace) -> int:
    svc = _service()
    action = args.action or "list"
    if action == "list":
        items = svc.workspaces()
        _emit(args, [w.to_dict() for w in items], "\n".join(w.name for w in items) or "(no workspaces)")
        return EXIT_OK
    needed = {"create": 1, "delete": 1, "rename": 2}.get(action)
    if needed is None or len(args.names) != needed:
        raise PrismError(
            "usage: python -m prism workspaces [list | create NAME | rename OLD NEW | delete NAME]"
        )
    if action == "create":
        info = svc.create_workspace(args.names[0])
        _emit(args, info.to_dict(), f"created workspace {info.name}")
    elif action == "rename":
        info = svc.rename_workspace(args.names[0], args.names[1])
        _emit(args, info.to_dict(), f"renamed to {info.name}")
    else:
        info = svc.delete_workspace(args.names[0])
        _emit(args, {"deleted": info.name}, f"deleted workspace {info.name}")
    return EXIT_OK


def cmd_reindex(args: argparse.Namespace) -> int:
    results = _service().reindex(args.workspace, progress=_progress_printer(args))
    _emit(
        args,
        [r.to_dict() for r in results],
        "\n".join(f"{r.status:9} {r.file}: {r.error or f'{r.chunks} chunks'}" for r in results) or "(no documents)",
    )
    return EXIT_FAILED if any(r.status == "failed" for r in results) else EXIT_OK


# --- parser -----------------------------------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so ``--json`` can report usage errors as JSON."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise PrismError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m prism``."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--json", action="store_true", help="print JSON on stdout")
    common.add_argument("--workspace", default=None, help="workspace name (default: 'default')")
    common.add_argument("-v", "--verbose", action="store_true", help="log at INFO to stderr")

    parser = _Parser(prog="python -m prism", description="Prism: cited answers over regulatory documents.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser("ingest", parents=[common], help="ingest files or URLs")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.set_defaults(func=cmd_ingest)
    p = sub.add_parser("docs", parents=[common], help="list a workspace's documents")
    p.set_defaults(func=cmd_docs)
    p = sub.add_parser("delete", parents=[common], help="delete a document by file name")
    p.add_argument("file_name", metavar="FILE_NAME")
    p.set_defaults(func=cmd_delete)
    p = sub.add_parser("workspaces", parents=[common], help="list, create, rename or delete workspaces")
    p.add_argument("action", nargs="?", choices=["list", "create", "rename", "delete"])
    p.add_argument("names", nargs="*", metavar="NAME")
    p.set_defaults(func=cmd_workspaces)
    p = sub.add_parser("reindex", parents=[common], help="re-chunk and re-embed a workspace from its originals")
    p.set_defaults(func=cmd_reindex)
    for register in _EXTENSIONS:
        register(sub, common)
    return parser


_EXTENSIONS: list[Callable[[Any, argparse.ArgumentParser], None]] = []
"""Functions adding further sub-commands (search, ask, eval) to the parser."""


def configure_logging(verbose: bool) -> None:
    """Log to stderr: INFO with ``-v``, else WARNING; quiet noisy libraries."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    for noisy in ("httpx", "chromadb", "sentence_transformers", "transformers", "urllib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit code (0 ok, 1 a file or command failed, 2 usage)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    want_json = "--json" in argv
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_NO_ADVISORY_WARNINGS", "1")
    try:
        args = build_parser().parse_args(argv)
    except PrismError as exc:
        if want_json:
            sys.stdout.write(json.dumps({"error": str(exc)}) + "\n")
        else:
            sys.stderr.write(f"{exc}\n")
        return EXIT_USAGE
    configure_logging(args.verbose)
    try:
        return int(args.func(args))
    except PrismError as exc:
        if args.json:
            sys.stdout.write(json.dumps({"error": str(exc)}, ensure_ascii=False) + "\n")
        else:
            sys.stderr.write(f"error: {exc}\n")
        return EXIT_FAILED
    except KeyboardInterrupt:
        return 130


def cmd_search(args: argparse.Namespace) -> int:
    from prism.service import PrismService

    result = PrismService().search(args.query, args.workspace, mode=args.mode, top_k=args.top_k,
                                   sources=args.doc or None)
    lines = []
    if not result.reranker["enabled"]:
        lines.append(f"(rerank off: {result.reranker['reason']})")
    if result.message:
        lines.append(result.message)
    for r in result.results:
        pages = "" if r.page_start is None else (
            f" p.{r.page_start}" if r.page_start == r.page_end else f" pp.{r.page_start}-{r.page_end}")
        s = r.scores()
        parts = [f"{k} {s[k]:.3f} (#{s[k + '_rank']})" for k in ("dense", "bm25", "rrf", "rerank")
                 if s[k] is not None and s.get(k + "_rank") is not None]
        lines.append(f"[{r.rank}] {r.source}{pages}  " + ", ".join(parts))
        lines.append("    " + " ".join(r.text.split())[:300])
    _emit(args, result.to_dict(), "\n".join(lines) or "(no results)")
    return EXIT_OK


def _register_search(sub: Any, common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("search", parents=[common], help="hybrid search in a workspace")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--mode", choices=["hybrid", "dense", "bm25"], default=None)
    p.add_argument("--top-k", type=int, default=None)
    p.add_argument("--doc", action="append", metavar="FILE_NAME", help="restrict to this document (repeatable)")
    p.set_defaults(func=cmd_search)


_EXTENSIONS.append(_register_search)


def _register_eval(sub: Any, common: argparse.ArgumentParser) -> None:
    from prism.cli.evaluation import register

    p = sub.add_parser("eval", help="evaluate retrieval and answers (eval run, eval beir)")
    esub = p.add_subparsers(dest="eval_command", required=True, parser_class=_Parser)
    register(esub, common)


_EXTENSIONS.append(_register_eval)

from prism.cli import answer as _cli_answer  # noqa: E402,F401 - registers ``ask`` on _EXTENSIONS
