"""Evaluation datasets: three formats behind one interface, :func:`load_dataset` →
:class:`~prism.evaluation.dataset_types.EvalDataset`.

- ``prism``: Prism's ground truth, a JSON list of ``{"id", "query", "reference_answer", "type", "relevant":
  [{"source", "page"?, "evidence"?}]}`` with ``type`` one of :data:`QUESTION_TYPES`; negative questions have no
  relevant entries. The documents are the files the entries name, looked up in ``documents_dir`` (default: the
  JSON file's folder when it holds them all, else ``Settings.sample_dir``). Pages are 1-based.
- ``beir``: a BEIR folder (Thakur et al., "BEIR: A Heterogeneous Benchmark for Zero-shot Evaluation of Information
  Retrieval Models", NeurIPS 2021): ``corpus.jsonl`` (``_id``, ``title``, ``text``), ``queries.jsonl`` (``_id``,
  ``text``) and ``qrels/<split>.tsv`` (``query-id``, ``corpus-id``, ``score`` with a header line). Relevance is by
  document: each corpus entry is ingested as one document named by its ``_id`` (:mod:`prism.evaluation.beir`).
- ``financebench``: FinanceBench (Islam et al., "FinanceBench: A New Benchmark for Financial Question Answering",
  2023) as ``questions.jsonl`` (``id``, ``question``, ``answer``, ``question_type``, ``evidence: [{"doc_name",
  "page", "text"}]``) beside a ``pdfs/`` folder holding ``<doc_name>.pdf`` (without one, the public filings in
  ``<eval data dir>/financebench-dev/pdfs``: a question set kept in the repository, such as
  ``data/ground_truth/financebench_generated``, uses them without copying them). Relevance is the evidence page of the
  evidence document; FinanceBench pages are 0-based and are converted to Prism's 1-based pages here.
- ``tatqa``: TAT-QA (Zhu et al., ACL 2021) ``tatqa_dataset_*.json`` or its folder; each context becomes one HTML
  page and each question is scoped to it (:mod:`prism.evaluation.tatqa`).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Any

from prism.errors import PrismError
from prism.evaluation.beir import beir_to_eval, load_beir
from prism.evaluation.dataset_types import (
    EvalDataset,
    EvalDocument,
    EvalQuery,
    display_name,
    files_hash,
    read_jsonl,
)
from prism.evaluation.relevance import RelevantSpec
from prism.fsutil import sha256_file

logger = logging.getLogger(__name__)

QUESTION_TYPES: tuple[str, ...] = ("factoid", "numeric", "multi_hop", "comparative", "negative")
"""Question types of the ``prism`` format."""

FORMATS: tuple[str, ...] = ("prism", "beir", "financebench", "tatqa")


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
        specs.append(RelevantSpec(display_name(e["source"]), page, evidence))
    keywords = item.get("keywords") or []
    return EvalQuery(qid, query.strip(), qtype, tuple(specs), item.get("reference_answer"),
                     tuple(str(k) for k in keywords))


parse_pair = _parse_pair
"""Check and read one pair of the prism format (``item``, its 1-based position, the file it is in for messages);
raises ``PrismError`` naming the item and what is wrong."""


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
    corpus_hash = files_hash([(d.source, d.path) for d in docs if d.path])
    content_hash = hashlib.sha256(f"{corpus_hash}\0{sha256_file(path)}".encode()).hexdigest()
    logger.info("ground truth %s: %d questions over %d documents in %s", path.name, len(queries), len(docs), folder)
    return EvalDataset(path.stem, "prism", str(path), "chunk", docs, tuple(queries), content_hash, corpus_hash)


# --- FinanceBench -----------------------------------------------------------------------------------------------
FINANCEBENCH_PDFS = Path("financebench-dev") / "pdfs"
"""Where the FinanceBench filings are under the evaluation data folder (``Settings.eval_data_dir``): the PDFs of a
``questions.jsonl`` that has no ``pdfs/`` folder beside it."""


def _financebench_pdfs(eval_data_dir: Path | None) -> Path:
    """The shared FinanceBench PDFs folder, ``eval_data_dir / FINANCEBENCH_PDFS`` (default
    ``Settings.eval_data_dir``)."""
    if eval_data_dir is None:
        from prism.config import get_settings

        eval_data_dir = get_settings().eval_data_dir
    return Path(eval_data_dir) / FINANCEBENCH_PDFS


def _require_pdfs(paths: Iterable[Path], pdf_dir: Path, away_from: Path | None) -> None:
    """Raise ``PrismError`` naming the folder (and, when it is the shared one, the questions file without a
    ``pdfs/`` folder beside it) when any of ``paths`` is not a file."""
    missing = sorted(p.name for p in paths if not p.is_file())
    if missing:
        where = f" (no pdfs/ folder beside {away_from})" if away_from else ""
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        raise PrismError(f"FinanceBench PDFs missing in {pdf_dir}{where}: {', '.join(missing[:5])}{more}.")


def load_financebench(path: Path, rename_documents: bool = False, eval_data_dir: Path | None = None) -> EvalDataset:
    """Load FinanceBench ``questions.jsonl`` (or its folder) with the ``pdfs/`` folder beside it, or, when there is
    none, the PDFs in ``eval_data_dir / "financebench-dev" / "pdfs"`` (:data:`FINANCEBENCH_PDFS`).

    Every evidence entry becomes ``RelevantSpec("<doc_name>.pdf", page + 1)`` (0-based → 1-based; duplicates
    dropped). FinanceBench's evidence text is not used (its extraction differs from pypdf's); relevance is the page.

    Args:
        path: ``questions.jsonl`` or its folder.
        rename_documents: ingest the filings under opaque names ``doc01.pdf`` … ``docNN.pdf`` (numbered in the
            order of their real names) instead of ``<doc_name>.pdf``, so that nothing can be learned from a file
            name. The relevance rule then names the renamed file; the dataset is called ``<folder>-renamed`` (its
            own default workspace) and its summary lists the renaming (``renamed_documents``: new → real name).
        eval_data_dir: the public evaluation data folder, read only when no ``pdfs/`` folder is beside the questions
            (default ``Settings.eval_data_dir``).

    Raises:
        PrismError: the file is missing or malformed, or an evidence document has no PDF in the folder used (the
            message names that folder).
    """
    qfile = Path(path) / "questions.jsonl" if Path(path).is_dir() else Path(path)
    if not qfile.is_file():
        raise PrismError(f"FinanceBench questions file not found: {qfile}.")
    beside = qfile.parent / "pdfs"
    pdf_dir = beside if beside.is_dir() else _financebench_pdfs(eval_data_dir)
    rows = read_jsonl(qfile)
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
            source = display_name(f"{doc}.pdf")
            needed[source] = pdf_dir / f"{doc}.pdf"
            spec = RelevantSpec(source, page0 + 1)
            if spec not in specs:
                specs.append(spec)
        queries.append(EvalQuery(qid, question.strip(), str(row.get("question_type") or "financebench"),
                                 tuple(specs), row.get("answer")))
    _require_pdfs(needed.values(), pdf_dir, None if pdf_dir == beside else qfile)
    name = qfile.parent.name + ("-renamed" if rename_documents else "")
    renamed = {real: f"doc{i:02d}.pdf" for i, real in enumerate(sorted(needed), start=1)} if rename_documents else {}
    if renamed:
        needed = {renamed[real]: p for real, p in needed.items()}
        queries = [replace(q, relevant=tuple(replace(s, source=renamed[s.source]) for s in q.relevant))
                   for q in queries]
    docs = tuple(EvalDocument(s, p) for s, p in sorted(needed.items()))
    corpus_hash = files_hash([(d.source, d.path) for d in docs if d.path])
    content_hash = hashlib.sha256(f"{corpus_hash}\0{sha256_file(qfile)}".encode()).hexdigest()
    logger.info("FinanceBench %s: %d questions over %d PDFs", name, len(queries), len(docs))
    return EvalDataset(name, "financebench", str(qfile), "chunk", docs, tuple(queries), content_hash, corpus_hash,
                       renamed_documents=tuple((new, real) for real, new in renamed.items()))


# --- one entry point --------------------------------------------------------------------------------------------
def detect_format(path: Path) -> str:
    """``beir`` for a folder with ``corpus.jsonl``, ``financebench`` for ``questions.jsonl`` (or a folder with one),
    ``tatqa`` for ``tatqa_dataset_*.json`` (or a folder with one), else ``prism`` for a ``.json`` file.

    Raises:
        PrismError: nothing recognisable at ``path``.
    """
    path = Path(path)
    if path.is_dir():
        if (path / "corpus.jsonl").is_file():
            return "beir"
        if (path / "questions.jsonl").is_file():
            return "financebench"
        if any(path.glob("tatqa_dataset_*.json")):
            return "tatqa"
    elif path.suffix == ".jsonl":
        return "financebench"
    elif path.suffix == ".json":
        return "tatqa" if path.name.startswith("tatqa_dataset_") else "prism"
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
    rename_documents: bool = False,
    sample: int | None = None,
    seed: int = 29,
    eval_data_dir: str | Path | None = None,
    half: str | None = None,
) -> EvalDataset:
    """Load any supported dataset.

    Args:
        path: a ground-truth JSON file, a BEIR folder, or FinanceBench ``questions.jsonl`` / its folder.
        format: ``prism``, ``beir`` or ``financebench`` (default: detected, see :func:`detect_format`).
        documents_dir: ``prism``: the folder holding the documents; ``tatqa``: where the HTML pages are written.
        queries_file, qrels_file: ``beir`` only: other queries / qrels files.
        rename_documents: ``financebench`` only: the filings under opaque names (see :func:`load_financebench`).
        sample, seed: ``tatqa`` only: a seeded random sample of the questions
            (:func:`prism.evaluation.tatqa.dataset.load_tatqa`).
        half: ``tatqa`` only: one half (``tuning`` or ``frozen``) of the committed split by context.
        eval_data_dir: ``financebench`` only: the public evaluation data folder whose ``financebench-dev/pdfs`` holds
            the filings of a questions file without ``pdfs/`` beside it (default ``Settings.eval_data_dir``).

    Raises:
        PrismError: unknown format, missing or malformed files, or ``rename_documents`` for another format.
    """
    p = Path(path)
    if not p.exists():
        raise PrismError(f"Dataset not found: {p}.")
    fmt = format or detect_format(p)
    if rename_documents and fmt != "financebench":
        raise PrismError(f"--rename-documents applies to FinanceBench datasets only, not to {fmt!r}.")
    if (sample is not None or half is not None) and fmt != "tatqa":
        raise PrismError(f"--sample and --half apply to TAT-QA datasets only, not to {fmt!r}.")
    if fmt == "prism":
        return load_prism(p, Path(documents_dir) if documents_dir else None)
    if fmt == "beir":
        return beir_to_eval(load_beir(p, Path(queries_file) if queries_file else None,
                                      Path(qrels_file) if qrels_file else None), str(p))
    if fmt == "financebench":
        return load_financebench(p, rename_documents, Path(eval_data_dir) if eval_data_dir else None)
    if fmt == "tatqa":
        from prism.evaluation.tatqa.dataset import load_tatqa

        return load_tatqa(p, Path(documents_dir) if documents_dir else None, sample, seed, half)
    raise PrismError(f"Unknown dataset format {fmt!r}; use one of {', '.join(FORMATS)}.")
