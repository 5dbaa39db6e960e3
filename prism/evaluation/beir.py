"""BEIR specifics: load a BEIR folder, give it the common form, ingest its corpus once per workspace (one document per
``_id``), and the retriever that ranks enough chunks to rank :data:`DOCS_TO_RANK` documents by their best chunk."""

from __future__ import annotations

import hashlib
import logging
import time
from pathlib import Path

from prism.errors import PrismError
from prism.evaluation.dataset_types import BeirDataset, EvalDataset, EvalDocument, EvalQuery, read_jsonl
from prism.evaluation.protocol import EvalService
from prism.evaluation.relevance import RelevantSpec
from prism.fsutil import atomic_write_json
from prism.retrieval.retriever import HybridRetriever
from prism.types import ProgressCallback

logger = logging.getLogger(__name__)

DOCS_TO_RANK = 100
"""Documents ranked per query (enough for recall@100 and map@100)."""

CHUNKS_PER_SIDE = 300
"""Chunks taken per side so that about DOCS_TO_RANK distinct documents survive (documents have ~1–6 chunks)."""

MARKER = "beir_corpus.json"
"""File in the workspace folder recording which corpus (by ``content_hash``) it holds."""


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
    for row in read_jsonl(corpus_path):
        title = (row.get("title") or "").strip()
        text = (row.get("text") or "").strip()
        corpus[str(row["_id"])] = f"{title}\n\n{text}" if title else text
    all_queries = {str(r["_id"]): r["text"] for r in read_jsonl(queries_path)}
    import pandas as pd  # imported on use: the app starts without it

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
    judgements = hashlib.sha256(queries_path.read_bytes() + b"\0" + qrels_path.read_bytes()).hexdigest()
    logger.info("BEIR %s: %d documents, %d judged queries", directory.name, len(corpus), len(queries))
    return BeirDataset(directory.name, corpus, queries, qrels, hashlib.sha256(corpus_bytes).hexdigest(),
                       qrels_path.stem, judgements)


def beir_to_eval(ds: BeirDataset, path: str = "") -> EvalDataset:
    """The common form of a BEIR dataset: queries ordered by ``(len(id), id)`` (numeric order for numeric ids)."""
    qids = sorted(ds.queries, key=lambda q: (len(q), q))
    queries = tuple(
        EvalQuery(qid, ds.queries[qid], "beir", tuple(RelevantSpec(d) for d in sorted(ds.qrels[qid])),
                  grades=dict(ds.qrels[qid]))
        for qid in qids
    )
    docs = tuple(EvalDocument(doc_id, text=text) for doc_id, text in ds.corpus.items())
    content_hash = hashlib.sha256(f"{ds.content_hash}\0{ds.judgements_hash}".encode()).hexdigest()
    return EvalDataset(ds.name, "beir", path, "document", docs, queries, content_hash, ds.content_hash, ds.split, ds)


def has_corpus(folder: Path, corpus_hash: str) -> bool:
    """True when the workspace folder's :data:`MARKER` names this corpus hash."""
    marker = folder / MARKER
    return marker.is_file() and f'"{corpus_hash}"' in marker.read_text(encoding="utf-8")


def ensure_corpus(service: EvalService, dataset: BeirDataset, workspace: str,
                  progress: ProgressCallback | None = None) -> None:
    """Ingest the corpus into ``workspace`` unless its :data:`MARKER` names this corpus's ``content_hash`` (sha256
    of ``corpus.jsonl``); the marker is written once the whole corpus is in."""
    if service.find_workspace(workspace) is None:
        service.create_workspace(workspace)
    folder = service.workspace_dir(workspace)
    if has_corpus(folder, dataset.content_hash):
        logger.info("workspace %s already holds corpus %s", workspace, dataset.name)
        return
    t0 = time.perf_counter()
    results = service.ingest_texts(list(dataset.corpus.items()), workspace, progress)
    failed = [r for r in results if r.status == "failed"]
    if failed:
        logger.warning("%d corpus documents failed to ingest (e.g. %s: %s)", len(failed), failed[0].file,
                       failed[0].error)
    atomic_write_json(folder / MARKER, {"dataset": dataset.name, "content_hash": dataset.content_hash,
                                        "documents": len(dataset.corpus),
                                        "seconds": round(time.perf_counter() - t0, 1)})


def eval_retriever(service: EvalService, workspace: str) -> HybridRetriever:
    """A retriever over the workspace whose side depths rank at least :data:`DOCS_TO_RANK` documents."""
    return service.retriever(workspace, dense_top_k=CHUNKS_PER_SIDE, bm25_top_k=CHUNKS_PER_SIDE)
