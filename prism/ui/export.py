"""A chat as a Markdown document with its citations (no Streamlit here)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from prism.types import locator_of
from prism.ui.explain import snippet


def conversation_markdown(workspace: str, messages: Sequence[dict[str, Any]], now: datetime | None = None) -> str:
    """The chat as Markdown: a title, then per question the answer and its numbered sources.

    Args:
        workspace: the workspace's display name.
        messages: the session's chat (see :mod:`prism.ui.state`).
        now: the export time (default: now, local time).

    Returns:
        Markdown text. Each answer is followed by "Sources" (``[n] file, p. 3 — "quote…"``), web sources
        (``[Wn] title — url``) and flagged figures, when there are any.
    """
    stamp = (now or datetime.now()).strftime("%Y-%m-%d %H:%M")
    lines = [f"# Prism conversation — {workspace}", "", f"_Exported {stamp}_", ""]
    n = 0
    for msg in messages:
        if msg.get("role") != "assistant":
            continue
        n += 1
        lines += [f"## {n}. {msg.get('question', '').strip()}", ""]
        if msg.get("error"):
            lines += [f"_No answer: {msg['error']}_", ""]
            continue
        answer = msg.get("answer") or {}
        lines += [answer.get("answer", "").strip(), ""]
        if answer.get("mode") == "extractive":
            lines += ["_Extractive answer: sentences quoted from the documents._", ""]
        citations = answer.get("citations") or []
        if citations:
            lines += ["**Sources**", ""]
            for c in citations:
                pages = locator_of(c)
                where = f"{c.get('source', '')}" + (f", {pages}" if pages else "")
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
    if n == 0:
        lines += ["_No questions asked yet._", ""]
    return "\n".join(lines)
