"""Analyst feedback and the workspace's own ground truth, under the workspace's folder::

    workspaces/<workspace id>/feedback/feedback.jsonl   append-only: one JSON object per line, oldest first
    workspaces/<workspace id>/ground_truth.json         pairs in the format of data/ground_truth/eval_pairs.json

**Feedback** (:class:`FeedbackStore`): 👍 / 👎 on an answer (``kind`` ``answer``, ``value`` ``up`` / ``down``) and
"relevant" / "not relevant" on a cited passage (``kind`` ``citation``, ``value`` ``relevant`` / ``not_relevant``),
each with the question, the answer text, the settings it ran with and the chunk ids. Lines are only ever appended,
under a file lock (threads and processes), so concurrent sessions never interleave or lose a line; a later line for
the same question and target supersedes an earlier one (:meth:`FeedbackStore.latest`).

**Ground truth** (:class:`WorkspaceTruth`): "Add to ground truth" turns a question, the passages marked relevant
(document, page, evidence text) and an optional reference answer into a pair ``{"id": "w001", "query",
"reference_answer", "type", "relevant": [{"source", "page", "evidence"}]}``. A question asked again (same words,
case and spacing aside) updates its pair instead of adding one. Pairs are listed, edited and deleted on the Eval
page and evaluated like any prism-format dataset (:meth:`WorkspaceTruth.dataset`; ``eval run workspace``).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock

from prism.errors import PrismError
from prism.evaluation.dataset_types import EvalDataset, EvalDocument, files_hash
from prism.evaluation.datasets import QUESTION_TYPES, parse_pair
from prism.fsutil import atomic_write_json, read_json_lines, sha256_file
from prism.index.workspace_locks import guarded
from prism.index.workspaces import Workspace

__all__ = ["EVIDENCE_CHARS", "FEEDBACK_VALUES", "FeedbackStore", "WorkspaceTruth", "evidence_of", "question_key"]

logger = logging.getLogger(__name__)

FEEDBACK_VALUES: dict[str, tuple[str, ...]] = {"answer": ("up", "down"), "citation": ("relevant", "not_relevant")}
"""Feedback kinds and the values each takes."""
EVIDENCE_CHARS = 200
"""Longest evidence text taken from a passage marked relevant (cut at a word boundary)."""


def question_key(question: str) -> str:
    """The form two questions are "the same" in: white space collapsed, case-folded."""
    return " ".join(question.split()).casefold()


def evidence_of(text: str, max_chars: int = EVIDENCE_CHARS) -> str:
    """The evidence kept for a passage: its text with white space collapsed, cut to ``max_chars`` at a word
    boundary (a substring of the chunk once normalised, so :mod:`prism.evaluation.relevance` finds it)."""
    flat = " ".join(text.split())
    if len(flat) <= max_chars:
        return flat
    return flat[:max_chars].rsplit(" ", 1)[0]


def _entry(e: dict[str, Any]) -> dict[str, Any]:
    """A relevant entry as stored: ``{"source", "page"?, "evidence"?}`` (evidence from ``text`` when not given)."""
    out: dict[str, Any] = {"source": e["source"]}
    if e.get("page") is not None:
        out["page"] = int(e["page"])
    evidence = e.get("evidence") or evidence_of(str(e.get("text") or ""))
    if evidence:
        out["evidence"] = evidence
    return out


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


class _WorkspaceFile:
    """A file in a workspace's folder and the file lock of its changes, which never brings a deleted workspace
    back (:func:`prism.index.workspace_locks.guarded`)."""

    def __init__(self, workspace: Workspace, path: Path, lock_name: str, what: str, lock_timeout_s: float):
        self.workspace = workspace
        self.path = path
        self._lock = FileLock(str(workspace.dir / "feedback" / lock_name), timeout=lock_timeout_s)
        self._busy = f"The {what} of workspace '{workspace.name}' are busy; try again shortly."

    def _locked(self) -> Any:
        return guarded(self._lock, self.workspace.home, self.workspace.info, self.workspace.dir, self._busy)


class FeedbackStore(_WorkspaceFile):
    """The append-only feedback log of one workspace (``workspace``: its files; ``lock_timeout_s``: how long an
    append waits for another; ``on_add(line)``: called after each line is appended, e.g. to audit it)."""

    def __init__(self, workspace: Workspace, lock_timeout_s: float = 60.0,
                 on_add: Callable[[dict[str, Any]], Any] | None = None):
        super().__init__(workspace, workspace.dir / "feedback" / "feedback.jsonl", ".lock", "feedback",
                         lock_timeout_s)
        self.on_add = on_add

    def add(self, kind: str, value: str, *, question: str, answer: str = "", settings: dict[str, Any] | None = None,
            chunk_ids: Sequence[str] = (), target: dict[str, Any] | None = None) -> dict[str, Any]:
        """Append one feedback line and return it.

        Args:
            kind: ``answer`` or ``citation`` (:data:`FEEDBACK_VALUES`).
            value: ``up`` / ``down`` for an answer, ``relevant`` / ``not_relevant`` for a citation.
            question: the question as asked; answer: the answer's text.
            settings: what the answer ran with (retrieval mode, document filter, answer mode …).
            chunk_ids: the chunks the answer cites (an answer) or the one passage (a citation).
            target: for a citation, ``{"chunk_id", "source", "page", "n"}``.

        Raises:
            PrismError: an unknown kind or value. WorkspaceDeletedError, StoreError: as the lock.
        """
        if value not in FEEDBACK_VALUES.get(kind, ()):
            raise PrismError(f"Feedback '{kind}' takes {', '.join(FEEDBACK_VALUES.get(kind, ())) or 'nothing'}, "
                             f"not '{value}'.")
        line = {"at": _now(), "kind": kind, "value": value, "question": question, "answer": answer,
                "settings": dict(settings or {}), "chunk_ids": list(chunk_ids), "target": dict(target or {})}
        text = json.dumps(line, ensure_ascii=False) + "\n"
        with self._locked():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as fh:
                fh.write(text)
        logger.info("workspace %s: %s feedback %s", self.workspace.info.id, kind, value)
        if self.on_add is not None:
            self.on_add(line)
        return line

    def all(self) -> list[dict[str, Any]]:
        """Every feedback line, oldest first (a line that is not valid JSON — a crash mid-write — is skipped)."""
        try:
            lines, skipped = read_json_lines(self.path)
        except OSError as exc:
            raise PrismError(f"The feedback of workspace '{self.workspace.name}' is unreadable ({exc}).") from exc
        if skipped:
            logger.warning("workspace %s: %d feedback line(s) not JSON; skipped", self.workspace.info.id, skipped)
        return lines

    def latest(self, question: str) -> dict[str, str]:
        """The last value given for each target of ``question``: ``{"answer": "up", "<chunk_id>": "relevant"}``."""
        key = question_key(question)
        out: dict[str, str] = {}
        for line in self.all():
            if question_key(str(line.get("question", ""))) == key:
                target = "answer" if line.get("kind") == "answer" else str((line.get("target") or {}).get("chunk_id"))
                out[target] = str(line.get("value"))
        return out


class WorkspaceTruth(_WorkspaceFile):
    """The ground-truth pairs of one workspace, a JSON list in the format of ``data/ground_truth/eval_pairs.json``
    (``workspace``: its files; ``lock_timeout_s``: how long a change waits for another)."""

    def __init__(self, workspace: Workspace, lock_timeout_s: float = 60.0):
        super().__init__(workspace, workspace.dir / "ground_truth.json", ".truth.lock", "ground truth", lock_timeout_s)

    def pairs(self) -> list[dict[str, Any]]:
        """Every pair, in the order they were added."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, json.JSONDecodeError) as exc:
            raise PrismError(f"The ground truth of workspace '{self.workspace.name}' ({self.path.name}) is "
                             f"unreadable ({exc}); fix or delete it.") from exc
        return data if isinstance(data, list) else []

    def add(self, question: str, relevant: Sequence[dict[str, Any]], reference_answer: str = "",
            qtype: str = "factoid") -> tuple[dict[str, Any], bool]:
        """Add a pair, or update the pair of the same question (:func:`question_key`): its relevant entries become
        the union of both (by source, page, evidence), a non-empty ``reference_answer`` replaces the old one.

        Args:
            question: the question as asked.
            relevant: ``[{"source", "page", "evidence"}]``, the passages marked relevant (an entry with ``"text"``
                instead of ``"evidence"`` gets :func:`evidence_of` that text).
            reference_answer: the analyst's answer ("" keeps none / the old one).
            qtype: one of the prism question types (``negative`` takes no relevant passage).

        Returns:
            ``(pair, created)``: the pair as saved, and False when an existing pair was updated.

        Raises:
            PrismError: an invalid pair (no relevant passage for a non-negative type, an unknown type …).
        """
        with self._locked():
            pairs = self.pairs()
            key = question_key(question)
            old = next((p for p in pairs if question_key(str(p.get("query", ""))) == key), None)
            entries = [*(old or {}).get("relevant", []), *(_entry(e) for e in relevant)]
            unique = list({(e["source"], e.get("page"), e.get("evidence")): e for e in entries}.values())
            pair = {"id": (old or {}).get("id") or self._next_id(pairs), "query": " ".join(question.split()),
                    "reference_answer": reference_answer.strip() or (old or {}).get("reference_answer") or "",
                    "type": qtype, "relevant": [] if qtype == "negative" else unique}
            self._write([pair if p is old else p for p in pairs] if old else [*pairs, pair])
        return pair, old is None

    def update(self, pair_id: str, *, query: str | None = None, reference_answer: str | None = None,
               qtype: str | None = None) -> dict[str, Any]:
        """Edit a pair's question, reference answer or type; raises ``PrismError`` when there is no such pair or
        the edit makes it invalid."""
        with self._locked():
            pairs = self.pairs()
            pair = next((p for p in pairs if p.get("id") == pair_id), None)
            if pair is None:
                raise PrismError(f"There is no ground-truth pair '{pair_id}' in workspace '{self.workspace.name}'.")
            if query is not None:
                pair["query"] = " ".join(query.split())
            if reference_answer is not None:
                pair["reference_answer"] = reference_answer.strip()
            if qtype is not None:
                pair["type"] = qtype
            self._write(pairs)
        return pair

    def delete(self, pair_id: str) -> None:
        """Delete a pair (nothing happens when there is none)."""
        with self._locked():
            pairs = self.pairs()
            kept = [p for p in pairs if p.get("id") != pair_id]
            if len(kept) != len(pairs):
                self._write(kept)

    def dataset(self, originals: dict[str, Path]) -> EvalDataset:
        """The pairs as a prism-format dataset over the workspace's own documents.

        Args:
            originals: file name → the kept original of each document in the workspace.

        Raises:
            PrismError: no pair yet, or a pair names a document the workspace no longer holds.
        """
        pairs = self.pairs()
        if not pairs:
            raise PrismError(f"Workspace '{self.workspace.name}' has no ground truth yet: mark passages relevant "
                             "under an answer in Chat and press 'Add to ground truth'.")
        queries = tuple(parse_pair(p, n, self.path) for n, p in enumerate(pairs, start=1))
        sources = sorted({s.source for q in queries for s in q.relevant})
        missing = [s for s in sources if s not in originals]
        if missing:
            raise PrismError(f"The ground truth of workspace '{self.workspace.name}' names documents it no longer "
                             f"holds: {', '.join(missing[:5])}; delete those pairs or upload the documents again.")
        docs = tuple(EvalDocument(s, originals[s]) for s in sources)
        corpus = files_hash([(d.source, d.path) for d in docs if d.path])
        content = hashlib.sha256(f"{corpus}\0{sha256_file(self.path)}".encode()).hexdigest()  # as load_prism
        return EvalDataset(f"workspace-{self.workspace.name}", "prism", str(self.path), "chunk", docs, queries,
                           content, corpus)

    def _next_id(self, pairs: Sequence[dict[str, Any]]) -> str:
        numbers = [int(str(p.get("id", ""))[1:]) for p in pairs if str(p.get("id", "")).startswith("w")
                   and str(p.get("id", ""))[1:].isdigit()]
        return f"w{max(numbers, default=0) + 1:03d}"

    def _write(self, pairs: list[dict[str, Any]]) -> None:
        for n, p in enumerate(pairs, start=1):
            if p.get("type") not in QUESTION_TYPES:
                raise PrismError(f"Question type {p.get('type')!r}; use one of {', '.join(QUESTION_TYPES)}.")
            parse_pair(p, n, self.path)  # the loader's own checks: a pair that could not be evaluated is refused
        self.workspace.check_alive()
        atomic_write_json(self.path, pairs)
