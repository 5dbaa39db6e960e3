"""The TAT-QA format: ``tatqa_dataset_*.json`` (Zhu et al., ACL 2021) as an
:class:`~prism.evaluation.dataset_types.EvalDataset` whose documents are one HTML page per context.

A TAT-QA file is a JSON list of contexts, each ``{"table": {"uid", "table": [[cell, ...], ...]}, "paragraphs":
[{"uid", "order", "text"}], "questions": [{"uid", "question", "answer", "answer_type", "answer_from", "scale",
"derivation", ...}]}``. Each context is written as one HTML file, the way a saved report page looks: the table as
``<table>`` with its first row as the header (``<th>``), then the paragraphs as ``<p>`` in their ``order``. Every
text is HTML-escaped (``html.escape`` with quotes), so a hostile cell or paragraph stays text. Each question is
scoped to its own context's file.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import random
from pathlib import Path
from typing import Any

from prism.config import PROJECT_ROOT
from prism.errors import PrismError
from prism.evaluation.dataset_types import EvalDataset, EvalDocument, EvalQuery, files_hash
from prism.evaluation.relevance import RelevantSpec
from prism.fsutil import sha256_file

logger = logging.getLogger(__name__)

ANSWER_TYPES: tuple[str, ...] = ("span", "multi-span", "arithmetic", "count")
"""TAT-QA's answer types (its ``answer_type``)."""

ANSWER_FROM: tuple[str, ...] = ("table", "text", "table-text")
"""Where TAT-QA's answers come from (its ``answer_from``)."""

SCALES: tuple[str, ...] = ("", "thousand", "million", "billion", "percent")
"""TAT-QA's ``scale`` values."""

HALVES: tuple[str, ...] = ("tuning", "frozen")
"""The two halves of a split by context: answering is tuned on ``tuning`` only; ``frozen`` is reported untouched."""

SPLIT_FILE = PROJECT_ROOT / "data" / "ground_truth" / "tatqa" / "dev_split.json"
"""The committed split of TAT-QA dev by context (its ``seed``, ``method`` and each half's context and question
uids): contexts shuffled once with a fixed seed, so a half never shares a report's table with the other."""


def half_questions(half: str, split_file: Path = SPLIT_FILE) -> frozenset[str]:
    """The question uids of one half of the committed split.

    Raises:
        PrismError: ``half`` is not one of :data:`HALVES`, or the split file is missing or malformed.
    """
    if half not in HALVES:
        raise PrismError(f"--half must be one of {', '.join(HALVES)} (got {half!r}).")
    try:
        split = json.loads(Path(split_file).read_text(encoding="utf-8"))
        return frozenset(str(q) for q in split["halves"][half]["questions"])
    except OSError as exc:
        raise PrismError(f"Cannot read the TAT-QA split {split_file}: {exc.strerror or exc}.") from exc
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise PrismError(f"{Path(split_file).name} is not a TAT-QA split (halves → questions): {exc}.") from exc


def context_html(context: dict[str, Any], title: str) -> str:
    """One context as an HTML page: ``<h1>`` title, the table (first row ``<th>``, the rest ``<td>``), then the
    paragraphs as ``<p>`` by ``order``. All text is escaped.

    Raises:
        PrismError: the table is not a list of rows of cells, or a paragraph has no text.
    """
    rows = (context.get("table") or {}).get("table")
    if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
        raise PrismError(f"{title}: 'table.table' must be a list of rows, each a list of cells.")
    esc = lambda v: html.escape(str(v), quote=True)  # noqa: E731
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">', f"<title>{esc(title)}</title>",
           "</head><body>", f"<h1>{esc(title)}</h1>"]
    if rows:
        out.append("<table>")
        out.append("<thead><tr>" + "".join(f"<th>{esc(c)}</th>" for c in rows[0]) + "</tr></thead><tbody>")
        out += ["<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>" for row in rows[1:]]
        out.append("</tbody></table>")
    paragraphs = context.get("paragraphs") or []
    for p in sorted(paragraphs, key=lambda p: p.get("order", 0) if isinstance(p, dict) else 0):
        if not isinstance(p, dict) or not isinstance(p.get("text"), str):
            raise PrismError(f"{title}: each paragraph needs a 'text' string.")
        out.append(f"<p>{esc(p['text'])}</p>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _query(q: Any, where: str, source: str) -> EvalQuery:
    """One TAT-QA question as an :class:`EvalQuery` (type = ``answer_type``, gold fields in ``gold``)."""
    if not isinstance(q, dict) or not isinstance(q.get("question"), str) or not q["question"].strip():
        raise PrismError(f"{where} needs a non-empty 'question'.")
    qid = str(q.get("uid") or "").strip()
    if not qid:
        raise PrismError(f"{where} needs a 'uid'.")
    kind, origin, scale = q.get("answer_type"), q.get("answer_from"), q.get("scale", "")
    if kind not in ANSWER_TYPES:
        raise PrismError(f"{where} ({qid}) has answer_type {kind!r}; expected one of {', '.join(ANSWER_TYPES)}.")
    if origin not in ANSWER_FROM:
        raise PrismError(f"{where} ({qid}) has answer_from {origin!r}; expected one of {', '.join(ANSWER_FROM)}.")
    if scale not in SCALES:
        raise PrismError(f"{where} ({qid}) has scale {scale!r}; expected one of {', '.join(map(repr, SCALES))}.")
    answer = q.get("answer")
    if answer is None or answer == [] or answer == "" or isinstance(answer, bool | dict):
        raise PrismError(f"{where} ({qid}) has no usable 'answer'.")
    reference = "; ".join(map(str, answer)) if isinstance(answer, list) else str(answer)
    gold = {"answer": answer, "scale": scale, "answer_from": origin, "derivation": str(q.get("derivation") or "")}
    return EvalQuery(qid, q["question"].strip(), kind, (RelevantSpec(source),), reference, scope=(source,),
                     gold=gold)


def _read(path: Path) -> list[Any]:
    try:
        contexts = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PrismError(f"Cannot read the TAT-QA file {path}: {exc.strerror or exc}.") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise PrismError(f"{path.name} is not valid JSON: {exc}.") from exc
    if not isinstance(contexts, list) or not contexts:
        raise PrismError(f"{path.name} must be a non-empty JSON list of TAT-QA contexts.")
    return contexts


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return path


def _json_file(path: Path) -> Path:
    if path.is_dir():
        found = sorted(path.glob("tatqa_dataset_*.json"))
        if not found:
            raise PrismError(f"No tatqa_dataset_*.json in {path}.")
        return found[0]
    return path


def load_tatqa(path: Path, html_dir: Path | None = None, sample: int | None = None,
               seed: int = 29, half: str | None = None) -> EvalDataset:
    """Load a TAT-QA file (or a folder holding one ``tatqa_dataset_*.json``) and write its contexts as HTML.

    Args:
        path: the JSON file or its folder.
        html_dir: where the HTML pages go (default ``Settings.home / "eval-data" / "tatqa-<hash>"``), one file
            ``ctx-NNNN.html`` per context (1-based, file order), rewritten only when its text changed.
        sample: evaluate a random sample of this many questions (``random.Random(seed).sample``, kept in file
            order); only the contexts they need are documents. ``None``: every question.
        seed: the sample's seed.
        half: keep only the questions of one half of the committed split (:data:`HALVES`,
            :func:`half_questions`), before any sample is drawn.

    Raises:
        PrismError: the file is unreadable or malformed (the context or question is named), ids repeat,
            ``sample`` is below 1, or ``half`` is unknown.
    """
    qfile = _json_file(Path(path))
    contexts = _read(qfile)
    digest = sha256_file(qfile)
    if html_dir is None:
        from prism.config import get_settings

        html_dir = get_settings().home / "eval-data" / f"tatqa-{digest[:12]}"
    html_dir = Path(html_dir)
    html_dir.mkdir(parents=True, exist_ok=True)
    pages: dict[str, str] = {}
    queries: list[EvalQuery] = []
    for n, ctx in enumerate(contexts, start=1):
        where = f"{qfile.name} context {n}"
        if not isinstance(ctx, dict) or not isinstance(ctx.get("questions"), list):
            raise PrismError(f"{where} needs a 'questions' list.")
        source = f"ctx-{n:04d}.html"
        pages[source] = context_html(ctx, f"Extract {n}")
        queries += [_query(q, f"{where} question {k}", source) for k, q in enumerate(ctx["questions"], start=1)]
    if len({q.id for q in queries}) != len(queries):
        raise PrismError(f"{qfile.name}: question uids repeat.")
    split = qfile.stem.removeprefix("tatqa_dataset_")
    if half is not None:
        keep_ids = half_questions(half)
        queries = [q for q in queries if q.id in keep_ids]
        split += f", {half} half"
    if sample is not None:
        if sample < 1:
            raise PrismError(f"--sample must be at least 1 (got {sample}).")
        keep = set(random.Random(seed).sample(range(len(queries)), min(sample, len(queries))))
        queries = [q for i, q in enumerate(queries) if i in keep]
        split += f", sample {len(queries)} seed {seed}"
    needed = sorted({q.scope[0] for q in queries})
    docs = tuple(EvalDocument(s, _write(html_dir, s, pages[s])) for s in needed)
    corpus_hash = files_hash([(d.source, d.path) for d in docs if d.path])
    ids = "\n".join(q.id for q in queries)
    content_hash = hashlib.sha256(f"{corpus_hash}\0{digest}\0{ids}".encode()).hexdigest()
    name = qfile.parent.name if Path(path).is_dir() or qfile.parent.name.startswith("tatqa") else qfile.stem
    logger.info("TAT-QA %s: %d questions over %d contexts (HTML in %s)", name, len(queries), len(docs), html_dir)
    return EvalDataset(name, "tatqa", str(qfile), "chunk", docs, tuple(queries), content_hash, corpus_hash,
                       split=split)
