"""Evaluation datasets: three formats behind one interface, :func:`load_dataset` → :class:`EvalDataset`.

- ``prism``: Prism's ground truth, a JSON list of ``{"id", "query", "reference_answer", "type", "relevant":
  [{"source", "page"?, "evidence"?}]}`` with ``type`` one of :data:`QUESTION_TYPES`; negative questions have no
  relevant entries. The documents are the files the entries name, looked up in ``documents_dir`` (default: the
  JSON file's folder when it holds them all, else ``Settings.sample_dir``). Pages are 1-based.
- ``beir``: a BEIR folder (Thakur et al., "BEIR: A Heterogeneous Benchmark for Zero-shot Evaluation of Information
  Retrieval Models", NeurIPS 2021): ``corpus.jsonl`` (``_id``, ``title``, ``text``), ``queries.jsonl`` (``_id``,
  ``text``) and ``qrels/<split>.tsv`` (``query-id``, ``corpus-id``, ``score`` with a header line). Relevance is by
  document: each corpus entry is ingested as one document named by its ``_id``.
- ``financebench``: FinanceBench (Islam et al., "FinanceBench: A New Benchmark for Financial Question Answering",
  2023) as ``questions.jsonl`` (``id``, ``question``, ``answer``, ``question_type``, ``evidence: [{"doc_name",
  "page", "text"}]``) beside a ``pdfs/`` folder holding ``<doc_name>.pdf``. Relevance is the evidence page of the
  evidence document; FinanceBench pages are 0-based and are converted to Prism's 1-based pages here.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import pandas as pd

from prism.errors import PrismError
from prism.evaluation.relevance import RelevantSpec
from prism.fsutil import sha256_file

logger = logging.getLogger(__name__)

QUESTION_TYPES: tuple[str, ...] = ("factoid", "numeric", "multi_hop", "comparative", "negative")
"""Question types of the ``prism`` format."""

FORMATS: tuple[str, ...] = ("prism", "beir", "financebench")
Granularity = Literal["chunk", "document"]


# --- BEIR (kept as its own type: bench/retrieval.py and ``ensure_corpus`` use it directly) -----------------------
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
    judgements = hashlib.sha256(queries_path.read_bytes() + b"\0" + qrels_path.read_bytes()).hexdigest()
    logger.info("BEIR %s: %d documents, %d judged queries", directory.name, len(corpus), len(queries))
    return BeirDataset(directory.name, corpus, queries, qrels, hashlib.sha256(corpus_bytes).hexdigest(),
                       qrels_path.stem, judgements)


# --- the common interface ---------------------------------------------------------------------------------------
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
    """

    id: str
    query: str
    type: str
    relevant: tuple[RelevantSpec, ...] = ()
    reference_answer: str | None = None
    keywords: tuple[str, ...] = ()
    grades: dict[str, int] = field(default_factory=dict)

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

    def summary(self) -> dict[str, Any]:
        """``{"name", "format", "path", "split", "granularity", "content_hash", "corpus_hash", "size": {...}}``."""
        return {
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



def _files_hash(files: Sequence[tuple[str, Path]]) -> str:
    h = hashlib.sha256()
    for name, path in sorted(files):
        h.update(f"{name}\0{sha256_file(path)}\n".encode())
    return h.hexdigest()


def _display_name(name: str) -> str:
    from prism.ingestion.parsing import sanitize_filename

    return sanitize_filename(name)


# --- prism ------------------------------------------------------------------------------------------------------
def _parse_pair(item: Any, n: int, path: Path) -> EvalQuery:
    where = f"{path.name} item {n}"
    if not isinstance(item, dict):
        raise PrismError(f"{where} is not an object.")
    qid, query, qtype = item.get("id"), item.get("query"), item.get("type")
    if not isinstance(qid, str) or not qid.strip():
        raise PrismError(f"{where} needs a non-empty string 'id'.")
    if not isinstance(query, str) or not query.strip():
        raise PrismError(f"{where} ({qid}) needs a non-empty 'query'.")
    if qtype not in QUESTION_TYPES:
        raise PrismError(f"{where} ({qid}) has type {qtype!r}; use one of {', '.join(QUESTION_TYPES)}.")
    relevant = item.get("relevant", [])
    if not isinstance(relevant, list):
        raise PrismError(f"{where} ({qid}): 'relevant' must be a list.")
    if qtype == "negative" and relevant:
        raise PrismError(f"{where} ({qid}) is negative but lists relevant entries; negatives have none.")
    if qtype != "negative" and not relevant:
        raise PrismError(f"{where} ({qid}) has no relevant entries; only negative questions may have none.")
    specs = []
    for e in relevant:
        if not isinstance(e, dict) or not isinstance(e.get("source"), str) or not e["source"].strip():
            raise PrismError(f"{where} ({qid}): each relevant entry needs a 'source' file name.")
        page = e.get("page")
        if page is not None and (not isinstance(page, int) or isinstance(page, bool) or page < 1):
            raise PrismError(f"{where} ({qid}): page {page!r} is not a 1-based page number.")
        evidence = e.get("evidence")
        if evidence is not None and (not isinstance(evidence, str) or not evidence.strip()):
            raise PrismError(f"{where} ({qid}): 'evidence' must be a non-empty string when given.")
        specs.append(RelevantSpec(_display_name(e["source"]), page, evidence))
    keywords = item.get("keywords") or []
    return EvalQuery(qid, query.strip(), qtype, tuple(specs), item.get("reference_answer"),
                     tuple(str(k) for k in keywords))


def load_prism(path: Path, documents_dir: Path | None = None, fallback_dir: Path | None = None) -> EvalDataset:
    """Load Prism's ground-truth format (see the module docstring).

    Args:
        path: the JSON file.
        documents_dir: folder holding the documents the entries name.
        fallback_dir: where to look when ``documents_dir`` is not given and the JSON's folder lacks them (default
            ``Settings.sample_dir``).

    Raises:
        PrismError: the file is unreadable or malformed, ids repeat, or a named document is missing.
    """
    path = Path(path)
    try:
        items = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PrismError(f"Cannot read the ground truth {path}: {exc.strerror or exc}.") from exc
    except json.JSONDecodeError as exc:
        raise PrismError(f"{path.name} is not valid JSON (line {exc.lineno}: {exc.msg}).") from exc
    if not isinstance(items, list) or not items:
        raise PrismError(f"{path.name} must be a non-empty JSON list of question objects.")
    queries = [_parse_pair(item, n, path) for n, item in enumerate(items, start=1)]
    seen: set[str] = set()
    for q in queries:
        if q.id in seen:
            raise PrismError(f"{path.name}: question id {q.id!r} appears more than once.")
        seen.add(q.id)
    sources = sorted({s.source for q in queries for s in q.relevant})
    if documents_dir is not None:
        candidates = [Path(documents_dir)]
    else:
        if fallback_dir is None:
            from prism.config import get_settings

            fallback_dir = get_settings().sample_dir
        candidates = [path.parent, Path(fallback_dir)]
    folder = next((d for d in candidates if all((d / s).is_file() for s in sources)), None)
    if folder is None:
        missing = [s for s in sources if not (candidates[-1] / s).is_file()]
        raise PrismError(
            f"The documents of {path.name} were not found (missing in {candidates[-1]}: {', '.join(missing[:5])}); "
            "pass the folder that holds them (--docs DIR)."
        )
    docs = tuple(EvalDocument(s, folder / s) for s in sources)
    corpus_hash = _files_hash([(d.source, d.path) for d in docs if d.path])
    content_hash = hashlib.sha256(f"{corpus_hash}\0{sha256_file(path)}".encode()).hexdigest()
    logger.info("ground truth %s: %d questions over %d documents in %s", path.name, len(queries), len(docs), folder)
    return EvalDataset(path.stem, "prism", str(path), "chunk", docs, tuple(queries), content_hash, corpus_hash)


# --- BEIR as EvalDataset ----------------------------------------------------------------------------------------
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


# --- FinanceBench -----------------------------------------------------------------------------------------------
def load_financebench(path: Path) -> EvalDataset:
    """Load FinanceBench ``questions.jsonl`` (or its folder) with the ``pdfs/`` folder beside it.

    Every evidence entry becomes ``RelevantSpec("<doc_name>.pdf", page + 1)`` (0-based → 1-based; duplicates
    dropped). FinanceBench's evidence text is not used (its extraction differs from pypdf's); relevance is the page.

    Raises:
        PrismError: the file is missing or malformed, or an evidence document has no PDF.
    """
    path = Path(path)
    qfile = path / "questions.jsonl" if path.is_dir() else path
    if not qfile.is_file():
        raise PrismError(f"FinanceBench questions file not found: {qfile}.")
    pdf_dir = qfile.parent / "pdfs"
    rows = _read_jsonl(qfile)
    queries = []
    needed: dict[str, Path] = {}
    for n, row in enumerate(rows, start=1):
        qid = str(row.get("id") or row.get("financebench_id") or "")
        question = row.get("question")
        evidence = row.get("evidence")
        if not qid or not isinstance(question, str) or not isinstance(evidence, list) or not evidence:
            raise PrismError(f"{qfile.name} line {n} needs 'id', 'question' and a non-empty 'evidence' list.")
        specs: list[RelevantSpec] = []
        for ev in evidence:
            doc = ev.get("doc_name") or row.get("doc_name")
            page0 = ev.get("page", ev.get("evidence_page_num"))
            if not doc or not isinstance(page0, int) or page0 < 0:
                raise PrismError(f"{qfile.name} line {n}: evidence needs 'doc_name' and a 0-based 'page'.")
            source = _display_name(f"{doc}.pdf")
            needed[source] = pdf_dir / f"{doc}.pdf"
            spec = RelevantSpec(source, page0 + 1)
            if spec not in specs:
                specs.append(spec)
        queries.append(EvalQuery(qid, question.strip(), str(row.get("question_type") or "financebench"),
                                 tuple(specs), row.get("answer")))
    missing = [str(p) for p in needed.values() if not p.is_file()]
    if missing:
        raise PrismError(f"FinanceBench PDFs missing: {', '.join(missing[:5])}.")
    docs = tuple(EvalDocument(s, p) for s, p in sorted(needed.items()))
    corpus_hash = _files_hash([(d.source, d.path) for d in docs if d.path])
    content_hash = hashlib.sha256(f"{corpus_hash}\0{sha256_file(qfile)}".encode()).hexdigest()
    logger.info("FinanceBench %s: %d questions over %d PDFs", qfile.parent.name, len(queries), len(docs))
    return EvalDataset(qfile.parent.name, "financebench", str(qfile), "chunk", docs, tuple(queries), content_hash,
                       corpus_hash)


# --- one entry point --------------------------------------------------------------------------------------------
def detect_format(path: Path) -> str:
    """``beir`` for a folder with ``corpus.jsonl``, ``financebench`` for ``questions.jsonl`` (or a folder with one),
    else ``prism`` for a ``.json`` file.

    Raises:
        PrismError: nothing recognisable at ``path``.
    """
    path = Path(path)
    if path.is_dir():
        if (path / "corpus.jsonl").is_file():
            return "beir"
        if (path / "questions.jsonl").is_file():
            return "financebench"
    elif path.suffix == ".jsonl":
        return "financebench"
    elif path.suffix == ".json":
        return "prism"
    raise PrismError(
        f"Cannot tell the dataset format of {path}: expected a ground-truth .json file, a BEIR folder (corpus.jsonl) "
        "or a FinanceBench questions.jsonl; name it with --format."
    )


def load_dataset(
    path: str | Path,
    format: str | None = None,
    *,
    documents_dir: str | Path | None = None,
    queries_file: str | Path | None = None,
    qrels_file: str | Path | None = None,
) -> EvalDataset:
    """Load any supported dataset.

    Args:
        path: a ground-truth JSON file, a BEIR folder, or FinanceBench ``questions.jsonl`` / its folder.
        format: ``prism``, ``beir`` or ``financebench`` (default: detected, see :func:`detect_format`).
        documents_dir: ``prism`` only: the folder holding the documents.
        queries_file, qrels_file: ``beir`` only: other queries / qrels files.

    Raises:
        PrismError: unknown format, missing or malformed files.
    """
    p = Path(path)
    if not p.exists():
        raise PrismError(f"Dataset not found: {p}.")
    fmt = format or detect_format(p)
    if fmt == "prism":
        return load_prism(p, Path(documents_dir) if documents_dir else None)
    if fmt == "beir":
        return beir_to_eval(load_beir(p, Path(queries_file) if queries_file else None,
                                      Path(qrels_file) if qrels_file else None), str(p))
    if fmt == "financebench":
        return load_financebench(p)
    raise PrismError(f"Unknown dataset format {fmt!r}; use one of {', '.join(FORMATS)}.")
