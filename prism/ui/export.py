"""A saved conversation as a Markdown document: what the chat showed, its notes and citations (no Streamlit here).

The export is what the analyst saw: the notes the chat draws under an answer (:func:`shown_notes`, the chat's own
choice: an answer cut off, citation markers removed, a feature that was off …), the scope it was searched in, a
calculation's formula, and each source as it stands now — a cited document deleted from the workspace since (or
replaced by a new version) is marked so, as the chat marks it ("no longer in the workspace").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from prism.types import ChatTurn, locator_of
from prism.ui.explain import snippet

EXTRACTIVE_NOTE = "_Extractive answer: sentences quoted from the documents._"
SHOWN_ELSEWHERE = frozenset({"declined", "extractive", "unsupported_figures"})
"""Note kinds the chat does not repeat under the answer: the declined message is the answer itself, the extractive
label is in the footer, flagged figures have their own warning (the export writes each of those in its own way)."""
REMOVED = "no longer in the workspace: deleted since this answer"
REPLACED = "no longer in the workspace: its document was replaced by a new version since this answer"


def shown_notes(answer: Mapping[str, Any]) -> list[str]:
    """The texts of the answer's notes the chat shows under it (every kind but :data:`SHOWN_ELSEWHERE`), in order."""
    return [str(n.get("text", "")) for n in answer.get("notes") or [] if n.get("kind") not in SHOWN_ELSEWHERE]


def conversation_markdown(workspace: str, turns: Sequence[ChatTurn], title: str | None = None,
                          now: datetime | None = None, titles: Mapping[str, str] | None = None,
                          doc_ids: Mapping[str, str] | None = None) -> str:
    """The conversation as Markdown: a title, then per question how it was searched, the answer and its sources.

    Args:
        workspace: the workspace's display name.
        turns: the conversation's turns, oldest first.
        title: the conversation's title (shown under the heading when given).
        now: the export time (default: now, local time).
        titles: ``{file name: display title}`` (:meth:`prism.service.PrismService.document_titles`); a document is
            written by its title with its file name in brackets (``Master Circular – … (05MC….pdf)``), by its file
            name when it has no title. Given, it is the workspace's documents now: a cited file not in it is marked
            :data:`REMOVED`.
        doc_ids: ``{file name: doc_id}`` of the workspace's documents now; given, a cited passage of a file whose
            document is another version now (its chunk id is not the document's) is marked :data:`REPLACED`.

    Returns:
        Markdown text. Each question is followed by the search it ran as (``Searched for: …`` when the follow-up was
        rewritten into a standalone query, ``Documents: a.pdf, b.pdf`` when a document filter was active, the scope
        and the retrieval mode), the answer, a note for an extractive answer (never for a decline), "Notes" (the
        chat's, :func:`shown_notes`), the calculation, "Sources" (``[n] title (file), page 3 — "quote…"``, marked
        when gone), web sources (``[Wn] title — url``) and flagged figures.
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
        lines += _answer_lines(turn.answer, titles, doc_ids)
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
    scope = (turn.answer or {}).get("scope") or {}
    scoped = [str(p) for p in [*scope.get("entities", []), *scope.get("periods", [])]]
    if scope.get("auto") and scoped:
        parts.append("Scope: " + ", ".join(scoped) + " (read from the question)")
    if scope.get("removed"):
        parts.append("asked again without " + ", ".join(str(r) for r in scope["removed"]) + " in the scope")
    parts.append(f"Retrieval: {turn.retrieval_mode}")
    return [f"_{' · '.join(parts)}_", ""]


def _gone(c: Mapping[str, Any], titles: Mapping[str, str] | None, doc_ids: Mapping[str, str] | None) -> str:
    """Why a cited passage is no longer in the workspace (:data:`REMOVED`, :data:`REPLACED`), or ``""``."""
    source = str(c.get("source", ""))
    if titles is not None and source not in titles:
        return REMOVED
    if doc_ids is not None and source in doc_ids and not str(c.get("chunk_id", "")).startswith(doc_ids[source][:16]):
        return REPLACED
    return ""


def _answer_lines(answer: dict, titles: Mapping[str, str] | None, doc_ids: Mapping[str, str] | None) -> list[str]:
    lines = [str(answer.get("answer", "")).strip(), ""]
    declined = any(n.get("kind") == "declined" for n in answer.get("notes") or [])
    if answer.get("mode") == "extractive" and not declined:
        lines += [EXTRACTIVE_NOTE, ""]
    notes = shown_notes(answer)
    if notes:
        lines += ["**Notes**", "", *(f"- {n}" for n in notes), ""]
    calc = answer.get("calculation")
    if calc:
        lines += [f"_Calculation: {calc.get('metric', '')} = {calc.get('result') or 'not computed'} · Formula: "
                  f"{calc.get('formula', '')}_" + (f" _Not found: {', '.join(calc['missing'])}_"
                                                    if calc.get("missing") else ""), ""]
    citations = answer.get("citations") or []
    if citations:
        lines += ["**Sources**", ""]
        for c in citations:
            pages = locator_of(c)
            where = _named(str(c.get("source", "")), titles or {}) + (f", {pages}" if pages else "")
            gone = _gone(c, titles, doc_ids)
            lines.append(f"- [{c.get('n')}] {where}" + (f" ({gone})" if gone else "")
                         + f" — “{snippet(c.get('text', ''), 160)}”")
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
