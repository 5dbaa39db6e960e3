"""Make sure a workspace holds a dataset's documents before it is evaluated, reusing one that already does."""

from __future__ import annotations

import dis
import hashlib
import logging
from collections.abc import Iterator
from pathlib import Path
from types import CodeType
from typing import Any

from filelock import FileLock

from prism.errors import PrismError
from prism.evaluation.beir import ensure_corpus, has_corpus
from prism.evaluation.dataset_types import EvalDataset
from prism.evaluation.protocol import EvalService
from prism.fsutil import atomic_write_json, sha256_file
from prism.types import IngestItem, ProgressCallback

logger = logging.getLogger(__name__)

PIPELINE_MARKER = "eval_pipeline.json"
"""File in an evaluated workspace's folder naming the :func:`pipeline_fingerprint` its documents were read with."""
PREPARE_LOCK = "eval_prepare.lock"
"""Lock file in the workspace's folder held while it is checked, re-indexed and filled: two evaluations (or an
evaluation and a training run) preparing one workspace at once take turns, and the second finds it up to date."""
PIPELINE_PACKAGES = ("ingestion", "index")
"""The packages of ``prism`` that read documents into a workspace's chunks, tables and indexes; with every module of
``prism`` they import (:func:`pipeline_modules`), their code decides what an evaluated workspace holds."""


def _imported_names(code: CodeType) -> Iterator[str]:
    """Every module name a compiled module imports, at any depth of its functions and classes: ``import a.b`` gives
    ``a.b``, ``from a import b`` gives ``a`` and ``a.b`` (a relative import gives nothing)."""
    module = None
    for instruction in dis.get_instructions(code):
        if instruction.opname == "IMPORT_NAME":
            module = instruction.argval
            yield module
        elif instruction.opname == "IMPORT_FROM" and module:
            yield f"{module}.{instruction.argval}"
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _imported_names(const)


def pipeline_modules(root: Path) -> list[Path]:
    """The ``.py`` files of :data:`PIPELINE_PACKAGES` under ``root`` (a ``prism`` package folder) and of every module
    of the package they import, transitively (``import prism.x`` and ``from prism.x import y``, wherever in a file),
    sorted: a vocabulary module the reader alone uses (question words) is not among them, the tokenizer that writes
    the chunks' terms is.

    Imports are read from each file's bytecode (:func:`compile`, :mod:`dis`), not from :mod:`ast` objects: CPython
    3.11 fails two threads building AST objects at once ("AST constructor recursion depth mismatch",
    https://github.com/python/cpython/issues/106905), and Streamlit parses a page's script in its own thread while
    an evaluation started from the Eval page reads these files in another."""
    seen: set[Path] = set()
    todo = [path for package in PIPELINE_PACKAGES for path in (root / package).rglob("*.py")]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        try:
            code = compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
        except (OSError, SyntaxError, ValueError):
            continue
        for name in set(_imported_names(code)):
            parts = name.split(".")
            if parts[0] != root.name or len(parts) < 2:
                continue
            target = root.joinpath(*parts[1:])
            todo += [f for f in (target.with_suffix(".py"), target / "__init__.py") if f.is_file()]
    return sorted(seen)


def pipeline_fingerprint(root: Path | None = None) -> str:
    """sha256 over the path and bytes of every file of :func:`pipeline_modules` under ``root`` (the installed
    ``prism`` package by default), in path order: it changes whenever the code that reads documents does, so an
    evaluation never scores chunks an older parser wrote, and only then (a change to how questions are read
    re-indexes nothing)."""
    root = root or Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in pipeline_modules(root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _read_with(folder: Path) -> str | None:
    """The fingerprint recorded in a workspace folder's :data:`PIPELINE_MARKER`, or ``None``."""
    import json

    try:
        return json.loads((folder / PIPELINE_MARKER).read_text(encoding="utf-8")).get("fingerprint")
    except (OSError, ValueError, AttributeError):
        return None


def _find_file_workspace(service: EvalService, documents: set[tuple[str, str]]) -> str | None:
    """A workspace holding exactly these documents (content hash and file name), e.g. the sample workspace."""
    for info in service.workspaces():
        if {(d.doc_id, d.source) for d in service.documents(info.name)} == documents:
            return info.name
    return None


def _find_beir_workspace(service: EvalService, corpus_hash: str) -> str | None:
    """A workspace whose BEIR marker names this corpus."""
    for info in service.workspaces():
        if has_corpus(service.workspace_dir(info.name), corpus_hash):
            return info.name
    return None


def _prepare_beir(service: EvalService, dataset: EvalDataset, workspace: str | None,
                  progress: ProgressCallback | None) -> dict[str, Any]:
    if dataset.beir is None:
        raise PrismError(f"Dataset {dataset.name} has no BEIR corpus to ingest.")
    name = workspace or _find_beir_workspace(service, dataset.corpus_hash) or f"beir-{dataset.name}"
    before = len(service.documents(name)) if service.find_workspace(name) else 0
    ensure_corpus(service, dataset.beir, name, progress)
    after = len(service.documents(name))
    return {"name": name, "documents": after, "ingested": max(0, after - before),
            "extra_documents": max(0, after - len(dataset.documents))}


def prepare_workspace(service: EvalService, dataset: EvalDataset, workspace: str | None = None,
                      progress: ProgressCallback | None = None) -> dict[str, Any]:
    """Make sure a workspace holds the dataset's documents and return what was used.

    Without ``workspace``: a workspace already holding exactly the dataset's documents under the dataset's file
    names is reused (BEIR: one whose
    ``beir_corpus.json`` marker names the corpus hash); else ``eval-<name>`` (BEIR: ``beir-<name>``) is created.
    Documents already present (same content hash) are never ingested again; but when the workspace's documents
    were read by other ingestion code than today's (its :data:`PIPELINE_MARKER` names another
    :func:`pipeline_fingerprint`, or none), the workspace is re-indexed from its kept originals first. Another
    process preparing the same workspace is waited for (:data:`PREPARE_LOCK`).

    Returns:
        ``{"name", "documents", "ingested", "reindexed", "extra_documents"}`` (``reindexed``: how many documents
        were read again; ``extra_documents``: documents in the workspace that the dataset does not name — they
        compete in retrieval; logged at WARNING).

    Raises:
        PrismError: a document fails to ingest.
    """
    if dataset.granularity == "document":
        return _prepare_beir(service, dataset, workspace, progress)
    wanted = {sha256_file(d.path): d for d in dataset.documents if d.path is not None}
    named = {(doc_id, d.source) for doc_id, d in wanted.items()}
    name = workspace or _find_file_workspace(service, named) or f"eval-{dataset.name}"
    if service.find_workspace(name) is None:
        service.create_workspace(name)
    folder = service.workspace_dir(name)
    with FileLock(str(folder / PREPARE_LOCK)):
        return _fill(service, name, folder, wanted, dataset.name, progress)


def _fill(service: EvalService, name: str, folder: Path, wanted: dict[str, Any], dataset: str,
          progress: ProgressCallback | None) -> dict[str, Any]:
    """:func:`prepare_workspace`'s work on workspace ``name``, under its :data:`PREPARE_LOCK`: re-index it when
    other ingestion code read it, ingest the documents of ``wanted`` (content hash → document) it lacks."""
    fingerprint = pipeline_fingerprint()
    reindexed = 0
    if service.documents(name) and _read_with(folder) != fingerprint:
        logger.info("workspace %s was read by other ingestion code: re-indexing it from its originals", name)
        results = service.reindex(name, progress)
        reindexed = len(results)
        failed = [r for r in results if r.status == "failed"]
        if failed:
            raise PrismError(f"{failed[0].file} could not be read again in '{name}': {failed[0].error}")
    have = {d.doc_id for d in service.documents(name)}
    todo = [d for doc_id, d in wanted.items() if doc_id not in have]
    if todo:
        logger.info("ingesting %d document(s) of %s into workspace %s", len(todo), dataset, name)
        results = service.ingest([IngestItem(d.path, d.source) for d in todo if d.path is not None], name, progress,
                                 contextual=False, briefing=False)
        failed = [r for r in results if r.status == "failed"]
        if failed:
            raise PrismError(f"{failed[0].file} could not be ingested into '{name}': {failed[0].error}")
    atomic_write_json(folder / PIPELINE_MARKER, {"fingerprint": fingerprint})
    extra = len({d.doc_id for d in service.documents(name)} - set(wanted))
    if extra:
        logger.warning("workspace %s holds %d document(s) the dataset does not name", name, extra)
    return {"name": name, "documents": len(wanted) + extra, "ingested": len(todo), "reindexed": reindexed,
            "extra_documents": extra}
