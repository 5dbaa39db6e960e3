"""The comparison grid: documents (columns) × questions (rows), each cell answered from its own document only.

Every cell is one :meth:`prism.answering.engine.AnswerEngine.ask` with the document filter set to that one document,
so it gets the Chat pipeline whole: auto-scope for the periods the question names, figures checked against their
passages and units, and the answerability gate. A declined answer is a ``not_found`` cell that keeps the closest
passage; anything else is ``found``, cut to a short answer (:func:`short_answer`) with its citations (file, page).
A ``PrismError`` while asking becomes an ``error`` cell that says what happened, and an answer the LLM could not
give (rate-limited after its retries) keeps its extractive stand-in with a ``note`` saying so: a cell is never
silently empty. With an LLM, every call is paced to the provider's rate budgets (:mod:`prism.answering.pacing`).

**Templates.** :data:`TEMPLATES` hold ready questions for filings and circulars. A question's placeholders
(``{period}``, ``{entity}`` …) are filled from each document's own profile (:mod:`~.templates`: "What was total
revenue in FY2022?"), and the cell names the period; an unknown placeholder is refused before anything is asked, a
placeholder a document's profile has no value for makes that cell a ``not_found`` that says so in words
(:func:`~.templates.missing_text`).

**Figures.** A cell has no figure logic of its own: the reader reads the question as asked, and the programs
(:func:`prism.answering.programs.answer.choose` through :class:`prism.answering.figure_step.FigureStep`) compute or
look up its figure, exactly as for the same question in Chat; the cell is that answer cut short
(:func:`short_answer`), its work kept in ``full["calculation"]``.

**Cache.** Cells are cached by (document id, question as asked, :func:`settings_key`): reopening a grid costs
nothing, and a document replaced since (new bytes, so a new id) is the only column asked again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from prism.answering.compare.templates import check_placeholders, fill_question, missing_text, resolve_question
from prism.errors import PrismError
from prism.types import Answer, CancelToken, CellCitation, Citation, CompareCell, DocumentRecord

__all__ = ["MAX_DOCUMENTS", "NOT_FOUND_TEXT", "TEMPLATES", "CellCache", "Template", "cell_from_answer",
           "compare_cells", "resolve_question", "settings_key", "short_answer", "template_questions"]

logger = logging.getLogger(__name__)

MAX_DOCUMENTS = 12
"""Most columns a grid has."""
SHORT_CHARS = 300
"""Longest short answer of a cell (cut at a word boundary with "…")."""
NOT_FOUND_TEXT = "Not found in this document."


@dataclass(frozen=True)
class Template:
    """A ready question of a template list: its row ``label`` and the ``question`` asked (may hold ``{period}``,
    filled with " in <the document's fiscal period>")."""

    label: str
    question: str


TEMPLATES: dict[str, tuple[Template, ...]] = {
    "filings": (
        Template("Revenue", "What was total revenue{period}?"),
        Template("Net income", "What was net income{period}?"),
        Template("Operating margin", "What was the operating margin{period}?"),
        Template("Capex", "What were capital expenditures{period}?"),
        Template("Key risks", "What are the key risk factors?"),
    ),
    "circulars": (
        Template("Applies to", "Who does this circular apply to?"),
        Template("Effective date", "What is the effective date of this circular?"),
        Template("Key limits", "What are the key transaction limits?"),
        Template("Penalty", "What is the penalty for non-compliance?"),
    ),
}
"""Template lists by name (the Compare page's and ``compare --template``'s choices)."""


def template_questions(name: str) -> list[str]:
    """The questions of template list ``name`` (:data:`TEMPLATES`), ``{period}`` slots kept.

    Raises:
        PrismError: no template list has that name (the message lists them).
    """
    if name not in TEMPLATES:
        raise PrismError(f"There is no question template '{name}'; choose one of: {', '.join(TEMPLATES)}.")
    return [t.question for t in TEMPLATES[name]]


_LABEL_LINE = re.compile(r"^\s*extractive answer\b.*:\s*$", re.IGNORECASE)
_MARKER = re.compile(r"\[(\d+)\]")


def _is_heading(line: str) -> bool:
    """True for a quoted section heading ("10. Effective Date and Review [1]", "4.2 Category-wise limits:"): a line
    ending in ":", or at most 6 words with no sentence end and no figure once its section number is dropped."""
    bare = re.sub(r"^[A-Z]?[\d.]+\s+", "", _MARKER.sub("", line).strip())
    if bare.endswith(":"):
        return True
    return len(bare.split()) <= 6 and not bare.endswith((".", "?", "!", ";")) and not re.search(r"\d", bare)


def short_answer(text: str, max_chars: int = SHORT_CHARS) -> str:
    """The first lines of an answer, at most ``max_chars`` characters: the extractive label line is dropped, list
    dashes are removed, quoted headings (:func:`_is_heading`) are dropped unless nothing else is left, lines are
    joined with spaces, and a cut ends at a word boundary with "…". Markers ``[n]`` stay (they name the
    citations)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not _LABEL_LINE.match(ln)]
    lines = [ln[2:].strip() if ln.startswith(("- ", "* ")) else ln for ln in lines]
    lines = [ln for ln in lines if not _is_heading(ln)] or lines
    out = ""
    for ln in lines:
        joined = f"{out} {ln}".strip()
        if len(joined) > max_chars:
            if not out:
                out = joined[: max_chars - 1].rsplit(" ", 1)[0] + "…"
            break
        out = joined
    return out


def _cell_citation(c: Citation) -> CellCitation:
    return CellCitation(c.source, c.page_start, c.locator, c.chunk_id, c.n)


def cell_from_answer(answer: Answer, record: DocumentRecord, question: str, asked: str,
                     period: str | None) -> CompareCell:
    """The cell of one answer (the Chat answer to ``asked`` from ``record`` alone): ``not_found``
    (:data:`NOT_FOUND_TEXT`, with the closest passage) for a declined answer; else ``found`` with the short answer
    (:func:`short_answer`) and the citations its markers name (all citations when it names none); a ``degraded``
    note of the answer (the LLM failed, e.g. rate-limited after its retries, and an extractive answer stands in)
    becomes the cell's ``note``. ``full`` keeps the whole answer (:meth:`prism.types.Answer.to_dict`, its
    ``calculation`` included)."""
    full = answer.to_dict()
    short = short_answer(answer.answer)
    if answer.declined:
        closest_of = answer.retrieved or answer.citations
        closest = _cell_citation(closest_of[0]) if closest_of else None
        return CompareCell(record.source, question, asked, "not_found", NOT_FOUND_TEXT, (), period, closest,
                           record.doc_id, full)
    named = {int(n) for n in _MARKER.findall(short)}
    cited = [c for c in answer.citations if c.n in named] or list(answer.citations)
    note = " ".join(n.text for n in answer.notes if n.kind == "degraded") or None
    return CompareCell(record.source, question, asked, "found", short, tuple(_cell_citation(c) for c in cited),
                       period, None, record.doc_id, full, note=note)


def settings_key(settings: Mapping[str, Any]) -> str:
    """A short stable key of the answer settings a cell depends on (sha256 of their sorted JSON, 16 hex digits)."""
    text = json.dumps(dict(settings), sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def cell_key(doc_id: str, asked: str, settings: str) -> str:
    """The cache key of one cell: sha256 of (document id, question as asked, settings key), 32 hex digits."""
    return hashlib.sha256(json.dumps([doc_id, asked, settings]).encode("utf-8")).hexdigest()[:32]


class CellCache(Protocol):
    """Where answered cells are kept between runs (:class:`prism.answering.compare.store.GridStore`)."""

    def cached_cell(self, key: str) -> CompareCell | None: ...

    def cache_cell(self, key: str, cell: CompareCell) -> None: ...


AskOne = Callable[[str, str], Answer]
"""Answer a question (second argument) from one document (first argument: its file name)."""


def compare_cells(ask: AskOne, records: Sequence[DocumentRecord], questions: Sequence[str], settings: str,
                  cache: CellCache | None = None, cancel: CancelToken | None = None) -> Iterator[CompareCell]:
    """Answer every (question, document) cell, row by row, yielding each cell as it is done.

    Args:
        ask: answers a question from one document (the Chat pipeline with that document as the filter).
        records: the columns (at most :data:`MAX_DOCUMENTS`).
        questions: the rows (template questions may hold ``{period}``).
        settings: :func:`settings_key` of the answer settings.
        cache: cells answered before are read from it (``cached`` True) and new ones written to it.
        cancel: checked before each cell; once cancelled nothing more is asked.

    Raises:
        PrismError: more than :data:`MAX_DOCUMENTS` documents, or none, or no question; a question with an unknown
            placeholder (:func:`~prism.answering.compare.templates.check_placeholders`), before any cell is asked.
    """
    if not records or not [q for q in questions if q.strip()]:
        raise PrismError("A comparison needs at least one document and one question.")
    if len(records) > MAX_DOCUMENTS:
        raise PrismError(f"A comparison grid has at most {MAX_DOCUMENTS} documents; {len(records)} were chosen.")
    for question in questions:
        check_placeholders(question)  # before any cell is asked
    for question in (q.strip() for q in questions if q.strip()):
        for record in records:
            if cancel is not None and cancel.cancelled:
                return
            filled = fill_question(question, record)
            asked, period = filled.asked, filled.period
            if filled.missing:
                yield CompareCell(record.source, question, asked, "not_found", missing_text(filled.missing), (),
                                  period, None, record.doc_id)
                continue
            key = cell_key(record.doc_id, asked, settings)
            hit = cache.cached_cell(key) if cache is not None else None
            if hit is not None:
                yield hit.as_cached()
                continue
            try:
                cell = cell_from_answer(ask(record.source, asked), record, question, asked, period)
            except PrismError as exc:
                logger.warning("compare: cell failed for %s: %s", record.doc_id[:12], type(exc).__name__)
                yield CompareCell(record.source, question, asked, "error", str(exc), (), period, None, record.doc_id)
                continue
            if cache is not None and cell.note is None:  # a degraded cell is asked again next time
                cache.cache_cell(key, cell)
            yield cell
