"""``python -m prism search QUERY [--mode MODE] [--top-k N] [--doc FILE_NAME ...] [--no-auto-scope]``: the
retriever alone, with every stage's score and rank, and the scope it ran in."""

from __future__ import annotations

import argparse
from typing import Any

from prism.cli import common
from prism.types import SCORE_STAGES


def _result_lines(result: Any, titles: dict[str, str]) -> list[str]:
    lines = []
    for r in result.results:
        pages = r.locator
        s = r.scores()
        parts = [f"{k} {s[k]:.3f} (#{s[k + '_rank']})" for k in SCORE_STAGES
                 if s[k] is not None and s.get(k + "_rank") is not None]
        name = common.titled(r.source, titles)
        lines.append(f"[{r.rank}] {name}{', ' + pages if pages else ''}  " + ", ".join(parts))
        lines.append("    " + " ".join(r.text.split())[:300])
    return lines


def cmd_search(args: argparse.Namespace) -> int:
    """Print the ranked chunks (or the stable search JSON)."""
    svc = common.service()
    result = svc.search(args.query, args.workspace, mode=args.mode, top_k=args.top_k,
                        sources=args.doc or None, auto_scope=not args.no_auto_scope)
    lines = [line] if (line := common.scope_line(result.scope)) else []
    if not result.reranker["enabled"]:
        lines.append(f"(rerank off: {result.reranker['reason']})")
    if result.message:
        lines.append(result.message)
    titles = svc.document_titles(args.workspace)
    lines += _result_lines(result, titles)
    data = result.to_dict()
    data["results"] = common.add_titles(data.get("results") or [], titles)
    common.emit(args, {**data, "embedder": svc.embedder_state()}, "\n".join(lines) or "(no results)")
    return common.EXIT_OK


def register(sub: Any, shared: argparse.ArgumentParser) -> None:
    """Add ``search`` to the CLI's sub-parsers."""
    p = sub.add_parser("search", parents=[shared], help="hybrid search in a workspace")
    p.add_argument("query", metavar="QUERY", help="the search text")
    p.add_argument("--mode", choices=common.mode_names(), default=None)
    p.add_argument("--top-k", type=int, default=None)
    p.add_argument("--doc", action="append", metavar="FILE_NAME", help="restrict to this document (repeatable)")
    p.add_argument("--no-auto-scope", action="store_true",
                   help="do not scope by the entities and periods the query names")
    p.set_defaults(func=cmd_search)
