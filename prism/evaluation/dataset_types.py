"""The common form of evaluation datasets: :class:`EvalDataset` of :class:`EvalQuery` and :class:`EvalDocument`
(and the raw :class:`BeirDataset`), with the file helpers the loaders share."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from prism.errors import PrismError
from prism.evaluation.relevance import RelevantSpec
from prism.fsutil import sanitize_filename, sha256_file

logger = logging.getLogger(__name__)

Granularity = Literal["chunk", "document"]


@dataclass(frozen=True)
class BeirDataset:
    """A BEIR dataset in memory.

    Attributes:
        name: folder name.
        corpus: ``{doc_id: text}`` where text is ``title + "\\n\\n" + text`` (title omitted when empty).
        queries: ``{query_id: text}`` for the queries that have at least one relevant document.
        qrels: ``{query_id: {doc_id: relevance ≥ 1}}``.
        content_hash: sha256 of the corpus file's bytes (identifies the corpus for workspace reuse).
        split: the qrels file's stem (``test``, ``train``, ...).
        judgements_hash: sha256 of the queries file's bytes followed by the qrels file's bytes.
    """

    name: str
    corpus: dict[str, str]
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]
    content_hash: str
    split: str = ""
    judgements_hash: str = ""


@dataclass(frozen=True)
class EvalDocument:
    """A document the dataset needs in the workspace: a file (``path``) or, for BEIR, a text."""

    source: str
    path: Path | None = None
    text: str | None = None


@dataclass(frozen=True)
class EvalQuery:
    """One question.

    Attributes:
        id: unique within the dataset.
        query: the question text.
        type: one of :data:`QUESTION_TYPES` (``prism``), FinanceBench's ``question_type``, or ``"beir"``.
        relevant: the relevant entries (empty for a negative question).
        reference_answer: the expected answer, when the format has one.
        keywords: terms for the lenient P@5 (default: the evidence strings).
        grades: for document-level datasets, ``{doc_id: relevance ≥ 1}`` (graded BEIR judgements).
        scope: the document file names the question is asked in (its ``sources``), ``()`` for the whole workspace.
        gold: the format's own gold fields (TAT-QA: ``{"answer", "scale", "answer_from", "derivation"}``), else
            ``None``.
    """

    id: str
    query: str
    type: str
    relevant: tuple[RelevantSpec, ...] = ()
    reference_answer: str | None = None
    keywords: tuple[str, ...] = ()
    grades: dict[str, int] = field(default_factory=dict)
    scope: tuple[str, ...] = ()
    gold: dict[str, Any] | None = None

    @property
    def negative(self) -> bool:
        """True for a question the documents do not answer (no relevant entry)."""
        return not self.relevant


@dataclass(frozen=True)
class EvalDataset:
    """A dataset ready to evaluate.

    Attributes:
        name: short name (file stem or folder name), used for default workspace names and in run files.
        format: ``prism``, ``beir`` or ``financebench``.
        path: what was loaded.
        granularity: ``chunk`` (relevance by the chunk rule of :mod:`prism.evaluation.relevance`) or ``document``
            (BEIR: documents ranked by their best chunk).
        documents: what must be in the workspace.
        queries: the questions, in evaluation order (``--limit N`` takes the first N).
        content_hash: sha256 identifying documents and judgements together (recorded in runs).
        corpus_hash: sha256 identifying the documents only (workspace reuse).
        split: the BEIR split, else ``""``.
        beir: the underlying BEIR dataset (for :func:`prism.evaluation.beir.ensure_corpus`), else ``None``.
        renamed_documents: ``(ingested name, real name)`` pairs when the loader renamed the documents (FinanceBench
            ``rename_documents``), else ``()``.
    """

    name: str
    format: str
    path: str
    granularity: Granularity
    documents: tuple[EvalDocument, ...]
    queries: tuple[EvalQuery, ...]
    content_hash: str
    corpus_hash: str
    split: str = ""
    beir: BeirDataset | None = None
    renamed_documents: tuple[tuple[str, str], ...] = ()

    def summary(self) -> dict[str, Any]:
        """``{"name", "format", "path", "split", "granularity", "content_hash", "corpus_hash", "size": {...}}``, plus
        ``"renamed_documents": {ingested name: real name}`` when the documents were renamed."""
        out: dict[str, Any] = {
            "name": self.name,
            "format": self.format,
            "path": self.path,
            "split": self.split,
            "granularity": self.granularity,
            "content_hash": self.content_hash,
            "corpus_hash": self.corpus_hash,
            "size": {
                "documents": len(self.documents),
                "queries": len(self.queries),
                "judged_queries": sum(1 for q in self.queries if not q.negative),
                "negative_queries": sum(1 for q in self.queries if q.negative),
            },
        }
        if self.renamed_documents:
            out["renamed_documents"] = dict(self.renamed_documents)
        return out



def read_jsonl(path: Path) -> list[dict]:
    """The objects of a JSON-lines file (blank lines skipped).

    Raises:
        PrismError: a line is not valid JSON (the file and line are named).
    """
    rows = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise PrismError(f"{path.name} line {n} is not valid JSON: {exc.msg}") from exc
    return rows


def files_hash(files: Sequence[tuple[str, Path]]) -> str:
    """sha256 over ``(name, sha256 of the file)`` pairs in name order: identifies a set of documents."""
    h = hashlib.sha256()
    for name, path in sorted(files):
        h.update(f"{name}\0{sha256_file(path)}\n".encode())
    return h.hexdigest()


def display_name(name: str) -> str:
    """A document's display name as ingestion gives it (:func:`prism.fsutil.sanitize_filename`)."""
    return sanitize_filename(name)
