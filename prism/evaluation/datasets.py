"""Evaluation dataset loaders.

BEIR folders (Thakur et al., "BEIR: A Heterogeneous Benchmark for Zero-shot Evaluation of Information Retrieval
Models", NeurIPS 2021): ``corpus.jsonl`` (``_id``, ``title``, ``text``), ``queries.jsonl`` (``_id``, ``text``) and
``qrels/<split>.tsv`` (``query-id``, ``corpus-id``, ``score`` with a header line).
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from prism.errors import PrismError

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class BeirDataset:
    """A BEIR dataset in memory.

    Attributes:
        name: folder name.
        corpus: ``{doc_id: text}`` where text is ``title + "\\n\\n" + text`` (title omitted when empty).
        queries: ``{query_id: text}`` for the queries that have at least one relevant document.
        qrels: ``{query_id: {doc_id: relevance ≥ 1}}``.
        content_hash: sha256 of the corpus file's bytes (identifies the corpus for workspace reuse).
    """

    name: str
    corpus: dict[str, str]
    queries: dict[str, str]
    qrels: dict[str, dict[str, int]]
    content_hash: str


def _read_jsonl(path: Path) -> list[dict]:
    rows = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise PrismError(f"{path.name} line {n} is not valid JSON: {exc.msg}") from exc
    return rows


def load_beir(directory: Path, queries_file: Path | None = None, qrels_file: Path | None = None) -> BeirDataset:
    """Load a BEIR folder.

    Args:
        directory: folder with ``corpus.jsonl``.
        queries_file: default ``directory/queries.jsonl``.
        qrels_file: default ``directory/qrels/test.tsv``, else ``train.tsv``.

    Raises:
        PrismError: a file is missing or malformed.
    """
    directory = Path(directory)
    corpus_path = directory / "corpus.jsonl"
    queries_path = Path(queries_file) if queries_file else directory / "queries.jsonl"
    if qrels_file:
        qrels_path = Path(qrels_file)
    else:
        qrels_path = directory / "qrels" / "test.tsv"
        if not qrels_path.exists():
            qrels_path = directory / "qrels" / "train.tsv"
    for p in (corpus_path, queries_path, qrels_path):
        if not p.exists():
            raise PrismError(f"BEIR folder {directory}: {p.name} is missing ({p}).")
    corpus_bytes = corpus_path.read_bytes()
    corpus = {}
    for row in _read_jsonl(corpus_path):
        title = (row.get("title") or "").strip()
        text = (row.get("text") or "").strip()
        corpus[str(row["_id"])] = f"{title}\n\n{text}" if title else text
    all_queries = {str(r["_id"]): r["text"] for r in _read_jsonl(queries_path)}
    try:
        frame = pd.read_csv(qrels_path, sep="\t", dtype={"query-id": str, "corpus-id": str, "score": int})
    except (ValueError, pd.errors.ParserError) as exc:
        raise PrismError(f"{qrels_path.name} is not a BEIR qrels file: {exc}") from exc
    if not {"query-id", "corpus-id", "score"} <= set(frame.columns):
        raise PrismError(f"{qrels_path.name} needs the columns query-id, corpus-id and score.")
    qrels: dict[str, dict[str, int]] = {}
    for qid, did, score in frame[["query-id", "corpus-id", "score"]].itertuples(index=False):
        if score > 0 and qid in all_queries:
            qrels.setdefault(qid, {})[did] = int(score)
    queries = {qid: all_queries[qid] for qid in qrels}
    logger.info("BEIR %s: %d documents, %d judged queries", directory.name, len(corpus), len(queries))
    return BeirDataset(directory.name, corpus, queries, qrels, hashlib.sha256(corpus_bytes).hexdigest())
