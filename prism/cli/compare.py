"""``python -m prism compare --doc A --doc B … --question Q … [--template filings|circulars]``: a comparison grid,
each cell answered from its own document only.

With ``--json`` prints ``{"columns": [file names], "rows": [questions], "cells": [{"document", "question", "asked",
"period", "answer", "status": "found"|"not_found"|"error", "citations": [{"file", "page", "locator", "chunk_id",
"n"}], "closest", "doc_id"}]}`` (cells row by row); otherwise one block per question. ``--out FILE`` also writes
the grid as CSV, XLSX or Markdown (by the file's extension). Cells come from the workspace's cache when answered
before with the same settings (``--no-cache`` asks again).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from prism.cli import common
from prism.errors import PrismError
from prism.types import EXPORT_FORMATS, CompareCell, CompareGrid


def format_grid(grid: CompareGrid, titles: dict[str, str] | None = None) -> str:
    """The plain-text rendering: per question, one line per document (by its title and file name, ``titles``:
    ``{file name: display title}``) with its answer and citations."""
    titles = titles or {}
    lines: list[str] = []
    for q in grid.questions:
        lines += ["", q]
        for doc in grid.documents:
            cell = grid.cell(doc, q)
            if cell is None:
                continue
            where = cell.citation_labels(titles) or (f"closest: {cell.closest.label(titles)}" if cell.closest else "")
            period = f" [{cell.period}]" if cell.period else ""
            lines.append(f"  {common.titled(doc, titles)}{period}: {cell.answer}" + (f"  ({where})" if where else ""))
    return "\n".join(lines).strip()


def cmd_compare(args: argparse.Namespace) -> int:
    """Run ``compare``: answer every cell (progress on stderr), print the grid, optionally export it."""
    svc = common.service()
    questions = list(args.question or []) + (svc.template_questions(args.template) if args.template else [])
    docs = list(dict.fromkeys(args.doc or []))
    total = max(len(docs) * len(questions), 1)
    show = common.progress_printer()
    cells: list[CompareCell] = []
    for cell in svc.compare(docs, questions, args.workspace, use_cache=not args.no_cache,
                            auto_scope=not args.no_auto_scope):
        cells.append(cell)
        show(len(cells) / total, f"{cell.document}: {cell.status}" + (" (cached)" if cell.cached else ""))
    grid = CompareGrid("", args.title or "Comparison", tuple(docs), tuple(q.strip() for q in questions if q.strip()),
                       tuple(cells))
    titles = svc.document_titles(args.workspace)
    if args.out:
        out = Path(args.out)
        try:
            out.write_bytes(svc.export_grid(grid, out.suffix, titles))
        except OSError as exc:
            raise PrismError(f"Could not write {out}: {exc.strerror or exc}.") from exc
        svc.record_export(args.workspace or svc.settings.default_workspace, "grid", out.name, common.actor())
        sys.stderr.write(f"grid written to {out}\n")
    payload = {"columns": list(grid.documents), "titles": {d: titles.get(d, d) for d in grid.documents},
               "rows": list(grid.questions),
               "cells": common.add_titles([c.to_dict() for c in cells], titles, "document")}
    common.emit(args, payload, format_grid(grid, titles))
    return common.EXIT_OK


def register(sub: Any, shared: argparse.ArgumentParser) -> None:
    """Add ``compare`` to the CLI's sub-parsers."""
    p = sub.add_parser("compare", parents=[shared], help="compare documents question by question (a grid)")
    p.add_argument("--doc", action="append", metavar="FILE_NAME", required=True,
                   help="a document (a column; repeatable, at most 12)")
    p.add_argument("--question", action="append", metavar="Q", help="a question (a row; repeatable)")
    p.add_argument("--template", metavar="NAME", help="add a template's questions: filings or circulars")
    p.add_argument("--title", help="the grid's title (exports)")
    p.add_argument("--out", metavar="FILE",
                   help="also write the grid as " + ", ".join(f".{f.key}" for f in EXPORT_FORMATS))
    p.add_argument("--no-cache", action="store_true", help="ask every cell again")
    p.add_argument("--no-auto-scope", action="store_true",
                   help="do not scope by the entities and periods the question names")
    p.set_defaults(func=cmd_compare)
