"""``python -m prism ingest | docs | tag | delete | reindex``: a workspace's documents."""

from __future__ import annotations

import argparse
import os
from typing import Any

from prism.cli import common
from prism.errors import DocumentNotFoundError, PrismError
from prism.types import DocumentRecord, IngestItem, IngestResult


def _ingest_line(r: IngestResult) -> str:
    """``"<status> <file>: <chunks, pages | error | what it duplicates>"``, then each further note of the file
    (:meth:`IngestResult.notes`: tracked changes, formulas without values, sentences addressed to an AI …) on its
    own line, indented under it."""
    notes = r.notes()
    pages = "" if not r.pages else f", {r.pages} page" + ("s" if r.pages != 1 else "")
    detail = r.error if r.status == "failed" else f"{r.chunks} chunk" + ("s" if r.chunks != 1 else "") + pages
    same = [n for n in notes if n.endswith("already indexed; not added again")]  # commit.duplicate_result's note
    if r.status == "duplicate" and same:
        detail = same[0]
        notes.remove(detail)
    extra = ""
    if r.skipped_pages:
        extra += "; skipped pages " + ", ".join(f"{s['page']} ({s['reason']})" for s in r.skipped_pages)
    if r.ocr_pages:
        extra += "; OCR pages " + ", ".join(map(str, r.ocr_pages))
    return "\n".join([f"{r.status:9} {r.file}: {detail}{extra}", *(f"{'':10}- {note}" for note in notes)])


def cmd_ingest(args: argparse.Namespace) -> int:
    """``ingest FILE_OR_URL...``: one line (or JSON object) per file; exit 1 when any file failed."""
    items = [IngestItem(p) if p.startswith(("http://", "https://")) else IngestItem(p, os.path.basename(p))
             for p in args.paths]
    results = common.service().ingest(items, args.workspace, progress=common.progress_printer(),
                                      actor=common.actor())
    common.emit(args, [r.to_dict() for r in results], "\n".join(_ingest_line(r) for r in results))
    return common.EXIT_FAILED if any(r.status == "failed" for r in results) else common.EXIT_OK


def _profile_line(record: DocumentRecord) -> str:
    profile = record.effective_profile()
    return (profile.line() if profile is not None else "") or "-"


def cmd_docs(args: argparse.Namespace) -> int:
    """``docs``: the workspace's documents, each with its profile (corrections applied)."""
    svc = common.service()
    docs = svc.documents(args.workspace)
    titles = svc.document_titles(args.workspace)
    text = "\n".join(
        f"{common.titled(d.source, titles)}  pages={d.pages if d.pages is not None else '-'}  chunks={d.chunks}  "
        f"tables={d.tables}  "
        f"{_profile_line(d)}  {d.ingested_at}"
        for d in docs
    ) or "(no documents)"
    common.emit(args, common.add_titles([d.to_public_dict() for d in docs], titles), text)
    return common.EXIT_OK


TAG_FIELDS = ("entity", "ticker", "type", "period", "fiscal_year_end", "currency", "unit", "reference", "date",
              "title")
"""The profile fields ``tag`` can correct (``--fiscal-year-end`` for ``fiscal_year_end``)."""


def cmd_tag(args: argparse.Namespace) -> int:
    """``tag FILE_NAME --entity … --period … --type …``: correct a document's profile (``""`` clears a field)."""
    fields = {name: (value or None) for name in TAG_FIELDS if (value := getattr(args, name)) is not None}
    if not fields and not args.reset:
        flags = " / ".join(f"--{name.replace('_', '-')}" for name in TAG_FIELDS)
        raise PrismError(f"nothing to correct for {args.file_name}: give {flags} or --reset")
    record = common.service().tag(args.file_name, args.workspace, reset=args.reset, **fields)
    profile = record.effective_profile()
    payload = {"file": record.source, "doc_id": record.doc_id, "profile": profile.to_dict() if profile else None,
               "profile_corrections": record.profile_corrections}
    common.emit(args, payload, f"tagged {record.source}: {_profile_line(record)}")
    return common.EXIT_OK


def cmd_delete(args: argparse.Namespace) -> int:
    """``delete FILE_NAME``: purge one document everywhere."""
    record = common.service().delete_document(args.file_name, args.workspace, actor=common.actor())
    common.emit(args, {"deleted": record.source, "doc_id": record.doc_id}, f"deleted {record.source}")
    return common.EXIT_OK


def cmd_reindex(args: argparse.Namespace) -> int:
    """``reindex [--from-chunks]``: re-chunk and re-embed from the kept originals (a document that fails is restored
    from its stored chunks), or only re-embed the stored chunks (the repair of a damaged vector index); exit 1 when
    any document failed."""
    results = common.service().reindex(args.workspace, progress=common.progress_printer(),
                                       from_chunks=args.from_chunks)
    common.emit(
        args,
        [r.to_dict() for r in results],
        "\n".join(f"{r.status:9} {r.file}: {r.error or f'{r.chunks} chunks'}" + "".join(f" ({w})" for w in r.notes())
                  for r in results) or "(no documents)",
    )
    return common.EXIT_FAILED if any(r.status == "failed" for r in results) else common.EXIT_OK


def cmd_brief(args: argparse.Namespace) -> int:
    """``brief FILE_NAME [--rewrite]``: a document's briefing as Markdown (``--json``: ``{"file", "briefing"}``);
    ``--rewrite`` writes it again first (with the LLM when one is configured)."""
    from prism.service import briefing_markdown  # the facade is imported when a command needs it (fast --help)

    svc = common.service()
    if args.rewrite:
        svc.brief(args.file_name, args.workspace)
    record = next((d for d in svc.documents(args.workspace) if d.source == args.file_name), None)
    if record is None:
        raise DocumentNotFoundError(f"No document named '{args.file_name}' in workspace '{args.workspace}'; "
                         "`python -m prism docs` lists them.")
    common.emit(args, {"file": record.source, "briefing": record.briefing}, briefing_markdown(record))
    return common.EXIT_OK


def register(sub: Any, shared: argparse.ArgumentParser) -> None:
    """Add ``ingest``, ``docs``, ``brief``, ``tag``, ``delete`` and ``reindex`` to the CLI's sub-parsers."""
    p = sub.add_parser("ingest", parents=[shared], help=f"ingest {common.file_types()} or web page URLs")
    p.add_argument("paths", nargs="+", metavar="PATH", help="a file or an http(s) URL (repeatable)")
    p.set_defaults(func=cmd_ingest)
    p = sub.add_parser("docs", parents=[shared], help="list a workspace's documents")
    p.set_defaults(func=cmd_docs)
    p = sub.add_parser("brief", parents=[shared], help="a document's briefing as Markdown (export)")
    p.add_argument("file_name", metavar="FILE_NAME", help="the document's file name, as `docs` lists it")
    p.add_argument("--rewrite", action="store_true", help="write the briefing again first")
    p.set_defaults(func=cmd_brief)
    p = sub.add_parser("tag", parents=[shared], help="correct a document's profile (entity, type, period, ...)")
    p.add_argument("file_name", metavar="FILE_NAME", help="the document's file name, as `docs` lists it")
    for name in TAG_FIELDS:
        p.add_argument(f"--{name.replace('_', '-')}", dest=name, default=None, metavar="VALUE",
                       help=f"the document's {name.replace('_', ' ')} ('' clears it)")
    p.add_argument("--reset", action="store_true", help="drop the earlier corrections first")
    p.set_defaults(func=cmd_tag)
    p = sub.add_parser("delete", parents=[shared], help="delete a document by file name")
    p.add_argument("file_name", metavar="FILE_NAME", help="the document's file name, as `docs` lists it")
    p.set_defaults(func=cmd_delete)
    p = sub.add_parser("reindex", parents=[shared], help="re-chunk and re-embed a workspace from its originals")
    p.add_argument("--from-chunks", action="store_true",
                   help="only re-embed the stored chunks (no parsing): rebuilds a damaged vector index")
    p.set_defaults(func=cmd_reindex)
