"""A saved conversation as a Markdown document with its citations (no Streamlit here)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from prism.types import ChatTurn, locator_of
from prism.ui.explain import snippet

EXTRACTIVE_NOTE = "_Extractive answer: sentences quoted from the documents._"


def conversation_markdown(workspace: str, turns: Sequence[ChatTurn], title: str | None = None,
                          now: datetime | None = None, titles: Mapping[str, str] | None = None) -> str:
    """The conversation as Markdown: a title, then per question how it was searched, the answer and its sources.

    Args:
        workspace: the workspace's display name.
        turns: the conversation's turns, oldest first.
        title: the conversation's title (shown under the heading when given).
        now: the export time (default: now, local time).
        titles: ``{file name: display title}`` (:meth:`prism.service.PrismService.document_titles`); a document is
            written by its title with its file name in brackets (``Master Circular – … (05MC….pdf)``), by its file
            name when it has no title or is not in ``titles``.

    Returns:
        Markdown text. Each question is followed by the search it ran as (``Searched for: …`` when the follow-up was
        rewritten into a standalone query, ``Documents: a.pdf, b.pdf`` when a document filter was active, and the
        retrieval mode), the answer, a note for an extractive answer (never for a decline), "Sources"
        (``[n] title (file), page 3 — "quote…"``), web sources (``[Wn] title — url``) and flagged figures.
    """
    stamp = (now or datetime.now()).strftime("%Y-%m-%d %H:%M")
    lines = [f"# Prism conversation — {workspace}", ""]
    if title:
        lines += [f"**{title}**", ""]
    lines += [f"_Exported {stamp}_", ""]
    for n, turn in enumerate(turns, start=1):
        lines += [f"## {n}. {turn.question.strip()}", ""]
        lines += _search_lines(turn, titles or {})
        if turn.error or not turn.answer:
            lines += [f"_No answer: {turn.error or 'not saved'}_", ""]
            continue
        lines += _answer_lines(turn.answer, titles or {})
    if not turns:
        lines += ["_No questions asked yet._", ""]
    return "\n".join(lines)


def _named(source: str, titles: Mapping[str, str]) -> str:
    """``"title (file name)"``, or the file name when it is its own title."""
    title = titles.get(source, source)
    return source if title == source else f"{title} ({source})"


def _search_lines(turn: ChatTurn, titles: Mapping[str, str]) -> list[str]:
    """How the question was searched: the rewritten follow-up, the document filter, the retrieval mode."""
    parts = []
    condensed = turn.condensed_query.strip()
    if condensed and condensed.casefold() != turn.question.strip().casefold():
        parts.append(f"Searched for: {condensed}")
    named = ", ".join(_named(s, titles) for s in turn.sources)
    parts.append("Documents: " + (named if turn.sources else "all in the workspace"))
    parts.append(f"Retrieval: {turn.retrieval_mode}")
    return [f"_{' · '.join(parts)}_", ""]


def _answer_lines(answer: dict, titles: Mapping[str, str]) -> list[str]:
    lines = [str(answer.get("answer", "")).strip(), ""]
    declined = any(n.get("kind") == "declined" for n in answer.get("notes") or [])
    if answer.get("mode") == "extractive" and not declined:
        lines += [EXTRACTIVE_NOTE, ""]
    citations = answer.get("citations") or []
    if citations:
        lines += ["**Sources**", ""]
        for c in citations:
            pages = locator_of(c)
            where = _named(str(c.get("source", "")), titles) + (f", {pages}" if pages else "")
            lines.append(f"- [{c.get('n')}] {where} — “{snippet(c.get('text', ''), 160)}”")
        lines.append("")
    web = answer.get("web") or []
    if web:
        lines += ["**Web sources**", ""]
        lines += [f"- [W{w.get('n')}] {w.get('title', '')} — {w.get('url', '')}" for w in web]
        lines.append("")
    flagged = answer.get("unsupported_numbers") or []
    if flagged:
        lines += [f"_Check these figures (not found in the cited sources): {', '.join(flagged)}_", ""]
    return lines
