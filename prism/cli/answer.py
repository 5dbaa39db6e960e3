"""``python -m prism ask QUESTION [--doc FILE_NAME ...] [--no-hyde] [--no-multi-query] [--web]``: answer a question
over a workspace with citations.

Prints the answer, its cited sources with their scores, the web sources and any figures the number check could not
find; with ``--json`` the response object (:meth:`prism.types.Answer.to_dict`).
"""

from __future__ import annotations

import argparse
from typing import Any

from prism.cli import common
from prism.errors import PrismError
from prism.types import SCORE_STAGES, Answer, Citation


def _scores(c: Citation) -> str:
    if c.read_beside:
        return f"not retrieved: the rest of the table of retrieved passage #{c.read_beside}, read for the calculation"
    return ", ".join(f"{key} {c.scores[key]:.3f}" for key in SCORE_STAGES if c.scores.get(key) is not None)


def _where(c: Citation, titles: dict[str, str]) -> str:
    return common.titled(c.source, titles) + (f", {c.locator}" if c.locator else "")


def format_answer(answer: Answer, question: str = "", titles: dict[str, str] | None = None) -> str:
    """The plain-text rendering of an answer for the terminal (the standalone query is shown when it differs from
    the question); a cited document by its title and file name (``titles``: ``{file name: display title}``)."""
    titles = titles or {}
    lines = [answer.answer.strip()]
    if answer.condensed_query.strip() and answer.condensed_query.strip() != question.strip():
        lines += ["", f"(searched for: {answer.condensed_query})"]
    if line := common.scope_line(answer.scope):
        lines += ["", line]
    if answer.citations:
        lines += ["", "Sources:"]
        lines += [f"  [{c.n}] {_where(c, titles)}  ({_scores(c)})" for c in answer.citations]
    if answer.web:
        lines += ["", "Web sources:"]
        lines += [f"  [W{w.n}] {w.title} <{w.url}>" for w in answer.web]
    if answer.retrieved:
        lines += ["", "Closest passages (they do not answer it):" if answer.declined else "Also retrieved (not cited):"]
        lines += [f"  [{c.n}] {_where(c, titles)}" for c in answer.retrieved]
    if answer.unsupported_numbers:
        lines += ["", "Figures not found in their cited sources: " + ", ".join(answer.unsupported_numbers)]
    if answer.message and answer.message.strip() != answer.answer.strip():
        lines += ["", f"Note: {answer.message}"]
    return "\n".join(lines)


def cmd_ask(args: argparse.Namespace) -> int:
    """Run ``ask``: one question, no conversation history."""
    svc = common.service()
    answer = svc.ask(
        args.question,
        args.workspace,
        sources=args.doc or None,
        hyde=False if args.no_hyde else None,
        multi_query=False if args.no_multi_query else None,
        web=True if args.web else None,
        auto_scope=not args.no_auto_scope,
    )
    if not isinstance(answer, Answer):  # without stream=True the service returns the finished answer
        raise PrismError(f"ask returned {type(answer).__name__}, not an answer")
    titles = svc.document_titles(args.workspace)
    data = answer.to_dict()
    for key in ("citations", "retrieved"):
        data[key] = common.add_titles(data.get(key) or [], titles)
    common.emit(args, {**data, "embedder": svc.embedder_state()}, format_answer(answer, args.question, titles))
    return common.EXIT_OK


def register(sub: Any, shared: argparse.ArgumentParser) -> None:
    """Add ``ask`` to the CLI's sub-parsers."""
    p = sub.add_parser("ask", parents=[shared], help="answer a question with citations")
    p.add_argument("question", metavar="QUESTION", help="the question, in quotes")
    p.add_argument("--doc", action="append", metavar="FILE_NAME", help="only this document (repeatable)")
    p.add_argument("--no-hyde", action="store_true", help="turn HyDE off")
    p.add_argument("--no-multi-query", action="store_true", help="turn multi-query expansion off")
    p.add_argument("--web", action="store_true", help="also search the web (needs TAVILY_API_KEY)")
    p.add_argument("--no-auto-scope", action="store_true",
                   help="do not scope by the entities and periods the question names")
    p.set_defaults(func=cmd_ask)
