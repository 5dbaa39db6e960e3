"""Where the training pairs come from: a workspace's chunk rows and feedback lines, and a BEIR corpus.

Evaluation questions and qrels are never read: a BEIR folder contributes its ``corpus.jsonl`` only.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from prism.errors import PrismError
from prism.retrieval.reranker_training.pairs import positive_pairs, title_pairs

BEIR_PREFIX = "beir:"
"""Prefix of a BEIR document's id among the passages (apart from a workspace's chunk ids)."""


def beir_corpus(directory: Path) -> dict[str, dict[str, str]]:
    """``{doc_id: {"title", "text"}}`` of a BEIR folder's ``corpus.jsonl`` (queries and qrels are not read).

    Raises:
        PrismError: the file is missing or a line is not a JSON object with an ``_id``.
    """
    path = Path(directory) / "corpus.jsonl"
    try:
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        return {str(r["_id"]): {"title": str(r.get("title") or ""), "text": str(r.get("text") or "")} for r in rows}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise PrismError(f"The BEIR corpus {path} cannot be read: {exc}") from exc


def collect(documents: Sequence[Sequence[Mapping[str, Any]]] = (), feedback: Sequence[Mapping[str, Any]] = (),
            corpus: Mapping[str, Mapping[str, str]] | None = None, seed: int = 30
            ) -> tuple[dict[str, list[tuple[str, str, str]]], dict[str, str]]:
    """The positives by kind and every passage negatives may be drawn from.

    Args:
        documents: a workspace's chunk rows, one list per document in chunk order.
        feedback: the workspace's feedback lines.
        corpus: a BEIR corpus (:func:`beir_corpus`), its ids prefixed with :data:`BEIR_PREFIX`.
        seed: the seed of the table questions' choices.

    Returns:
        ``({kind: [(query, passage, passage id)]}, {passage id: text})``.
    """
    positives = positive_pairs(documents, random.Random(seed), feedback) if documents else {}
    passages = {str(r["chunk_id"]): str(r.get("text") or "") for rows in documents for r in rows}
    if corpus:
        positives["title"] = [(q, p, BEIR_PREFIX + cid) for q, p, cid in title_pairs(corpus)]
        passages.update({BEIR_PREFIX + k: v["text"] for k, v in corpus.items() if v["text"].strip()})
    return positives, {k: v for k, v in passages.items() if v.strip()}
