"""Training pairs for a local cross-encoder, made from the documents a workspace holds (no labelled
questions are needed: the pairs come from the documents' own tables, headings and the analysts' feedback).

Positives, each ``(query, passage)`` with a ``kind``:

- ``table``: a table row's label, a column's period (or the document's period) and the table's title or the
  document's entity → a templated question ("What was Net sales in 2022 in the Consolidated Statements of
  Operations?"), paired with the chunk holding the row.
- ``heading``: a heading line (short title-case or upper-case line, or "Item 7." style) → the text that follows it
  in its chunk (continued into the next chunk when the heading ends one), the heading removed from the passage.
- ``title``: a BEIR corpus document's title → its text (the same kind of signal as a heading).
- ``feedback``: an analyst's question → a passage marked relevant (or cited by an answer marked 👍).

Negatives for each positive query: the BM25 top hits (Robertson & Zaragoza 2009, :class:`prism.index.bm25.BM25Index`)
that are not the positive passage (``bm25_negative``) and random passages (``random_negative``).

Everything is deterministic for a seed: the same rows and seed give the same pairs and the same
:attr:`TrainingSet.sha256`. Evaluation questions and qrels are never an input here.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from prism.index.bm25 import BM25Index

POSITIVE_KINDS = ("table", "heading", "title", "feedback")
"""The kinds of positive pairs, in the order :func:`positive_pairs` tries them."""

TABLE_TEMPLATES = (
    "What was {label} in {period} in the {title}?",
    "{title}: {label} for {period}",
    "How much was {label} in {period}?",
    "What did {title} report as {label} for {period}?",
)
"""Question wordings of a table row (``{title}`` is the table's title, else the document's entity)."""

PASSAGE_CHARS = 1200
"""Longest passage kept (characters; the trainer truncates to its token window anyway)."""

_HEADING_ITEM = re.compile(r"^(item|part|note|section)\s+[0-9ivx]+[a-z]?\b", re.IGNORECASE)
_PERIOD = re.compile(r"\b(19|20)\d{2}\b|\bFY\s?\d{2,4}\b|\bQ[1-4]\b", re.IGNORECASE)


@dataclass(frozen=True)
class TrainingPair:
    """One labelled (query, passage) pair.

    Attributes:
        query: the pseudo-question.
        passage: the passage text (≤ :data:`PASSAGE_CHARS` characters).
        label: 1.0 for a positive, 0.0 for a negative.
        kind: a :data:`POSITIVE_KINDS` value, ``bm25_negative`` or ``random_negative``.
    """

    query: str
    passage: str
    label: float
    kind: str


@dataclass
class TrainingSet:
    """Pairs with their counts by kind and a content hash.

    Attributes:
        pairs: positives each followed by its negatives, in a seeded order.
        counts: ``{kind: n}``.
        sha256: sha256 hex of the pairs (query, passage, label, kind in order): the training data's identity.
    """

    pairs: list[TrainingPair]
    counts: dict[str, int] = field(default_factory=dict)
    sha256: str = ""


def is_heading(line: str) -> bool:
    """True for a short heading line: "Item 7." / "Note 3" style, or 1–10 words in title case or upper case that do
    not end like a sentence and hold no figure."""
    text = line.strip()
    words = text.split()
    if not 1 <= len(words) <= 10 or len(text) > 90:
        return False
    if _HEADING_ITEM.match(text):
        return True
    if text.endswith((".", ",", ";", ":")):
        return False
    if sum(ch.isdigit() for ch in text) > 2 or not any(ch.isalpha() for ch in text):
        return False
    capitals = [w for w in words if w[0].isupper()]
    small = {"and", "of", "the", "in", "for", "to", "on", "a", "an", "or", "by", "with", "from", "at", "&"}
    return text.isupper() or all(w[0].isupper() or w.lower() in small for w in words) and len(capitals) >= 1


def _clip(text: str) -> str:
    return " ".join(text.split())[:PASSAGE_CHARS]


def heading_pairs(rows: Sequence[Mapping[str, Any]], min_words: int = 25) -> list[tuple[str, str, str]]:
    """``(heading, passage, chunk_id)`` for each heading line of the chunk rows (one document's rows, in order)
    followed by at least ``min_words`` words: in its chunk, or, when the heading ends its chunk, the next chunk."""
    out = []
    for i, row in enumerate(rows):
        lines = str(row.get("text") or "").split("\n")
        for j, line in enumerate(lines):
            if not is_heading(line) or (j > 0 and lines[j - 1].strip() and not _HEADING_ITEM.match(line.strip())):
                continue  # a heading starts the chunk or follows a blank line
            rest = "\n".join(lines[j + 1:]).strip()
            target = row
            if not rest and i + 1 < len(rows):
                target, rest = rows[i + 1], str(rows[i + 1].get("text") or "")
            cut = rest.split("\n\n")[0] if len(rest.split("\n\n")[0].split()) >= min_words else rest
            if len(cut.split()) >= min_words and not is_heading(cut.split("\n")[0]):
                out.append((" ".join(line.split()), _clip(cut), str(target["chunk_id"])))
    return out


def _period_of(columns: Sequence[str], fallback: str | None, rng: random.Random) -> str | None:
    periods = [c.strip() for c in columns if c and _PERIOD.search(c) and len(c) <= 40]
    return rng.choice(periods) if periods else fallback


def table_pairs(rows: Iterable[Mapping[str, Any]], rng: random.Random) -> list[tuple[str, str, str]]:
    """``(question, chunk text, chunk_id)``: one templated question per table chunk, from one of its rows whose label
    has at least two letters-words, a period (a column header that names a year/quarter, else the document's
    period) and the table's title (else the document's entity). Chunks without these make none."""
    out = []
    for row in rows:
        table = row.get("table")
        if not table:
            continue
        labels = [r["label"].strip() for r in table.get("rows") or ()
                  if sum(w.isalpha() for w in str(r.get("label") or "").split()) >= 2 and len(r["label"]) <= 80]
        period = _period_of(table.get("columns") or (), row.get("period"), rng)
        title = table.get("title") or row.get("entity")
        if not labels or not period or not title:
            continue
        question = rng.choice(TABLE_TEMPLATES).format(label=rng.choice(labels), period=period,
                                                      title=" ".join(str(title).split()))
        out.append((question, _clip(str(row["text"])), str(row["chunk_id"])))
    return out


def feedback_pairs(lines: Iterable[Mapping[str, Any]], texts: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """``(question, passage, chunk_id)`` from feedback lines (:class:`prism.evaluation.feedback.FeedbackStore`):
    a citation marked ``relevant`` (its ``target.chunk_id``) and every chunk an answer marked ``up`` cites; the
    latest line for a question and chunk wins, so a later ``not_relevant`` removes the pair. Chunks no longer in
    ``texts`` (``{chunk_id: text}``) are skipped."""
    verdict: dict[tuple[str, str], bool] = {}
    for line in lines:
        question = str(line.get("question") or "").strip()
        if not question:
            continue
        if line.get("kind") == "citation":
            cid = str((line.get("target") or {}).get("chunk_id") or "")
            verdict[(question, cid)] = line.get("value") == "relevant"
        elif line.get("kind") == "answer":
            for cid in line.get("chunk_ids") or ():
                verdict[(question, str(cid))] = line.get("value") == "up"
    return [(q, _clip(texts[c]), c) for (q, c), good in verdict.items() if good and c in texts]


def title_pairs(corpus: Mapping[str, Mapping[str, str]]) -> list[tuple[str, str, str]]:
    """``(title, text, doc_id)`` for each BEIR corpus document (``{doc_id: {"title", "text"}}``) with both."""
    return [(" ".join(d["title"].split()), _clip(d["text"]), doc_id) for doc_id, d in corpus.items()
            if (d.get("title") or "").strip() and len((d.get("text") or "").split()) >= 10]


def positive_pairs(documents: Sequence[Sequence[Mapping[str, Any]]], rng: random.Random,
                   feedback: Iterable[Mapping[str, Any]] = ()) -> dict[str, list[tuple[str, str, str]]]:
    """The positives of each kind from a workspace's chunk rows (one list of rows per document, in chunk order)
    and its feedback lines: ``{kind: [(query, passage, chunk_id)]}`` (kinds ``table``, ``heading``, ``feedback``)."""
    texts = {str(r["chunk_id"]): str(r.get("text") or "") for rows in documents for r in rows}
    return {
        "table": [p for rows in documents for p in table_pairs(rows, rng)],
        "heading": [p for rows in documents for p in heading_pairs(rows)],
        "feedback": feedback_pairs(feedback, texts),
    }


def _take(positives: Mapping[str, list[tuple[str, str, str]]], cap: int, rng: random.Random
          ) -> list[tuple[str, tuple[str, str, str]]]:
    """Up to ``cap`` positives, every feedback pair first, then the other kinds round-robin in a seeded order, each
    (query, chunk) once."""
    pools = {k: rng.sample(v, len(v)) for k, v in positives.items() if v}
    chosen: list[tuple[str, tuple[str, str, str]]] = []
    seen: set[tuple[str, str]] = set()
    order = ["feedback"] + [k for k in POSITIVE_KINDS if k != "feedback"]
    while len(chosen) < cap and any(pools.values()):
        for kind in order:
            if pools.get(kind) and len(chosen) < cap:
                item = pools[kind].pop()
                if (item[0].lower(), item[2]) not in seen:
                    seen.add((item[0].lower(), item[2]))
                    chosen.append((kind, item))
    return chosen


def build_training_set(positives: Mapping[str, list[tuple[str, str, str]]], passages: Mapping[str, str],
                       tokens: Mapping[str, Sequence[str]] | None = None, *, max_pairs: int = 6000,
                       bm25_negatives: int = 1, random_negatives: int = 1, seed: int = 30) -> TrainingSet:
    """Positives with BM25 and random negatives, at most ``max_pairs`` pairs in all.

    Args:
        positives: ``{kind: [(query, passage, chunk_id)]}`` (:func:`positive_pairs`, :func:`title_pairs`).
        passages: ``{chunk_id: text}`` of every passage negatives may come from (the BM25 corpus).
        tokens: the chunks' stored BM25 tokens (``{chunk_id: tokens}``); default: tokenise ``passages``.
        max_pairs: cap on pairs (positives + negatives), ≥ 1 + negatives per positive.
        bm25_negatives, random_negatives: negatives per positive (a BM25 hit is skipped when it is the positive's
            chunk or holds the same text).
        seed: the random seed.

    Returns:
        The :class:`TrainingSet` (pairs grouped per positive, groups in a seeded order).

    Raises:
        ValueError: ``max_pairs`` leaves no room for one positive with its negatives, or there are no passages.
    """
    group = 1 + bm25_negatives + random_negatives
    if max_pairs < group or not passages:
        raise ValueError(f"max_pairs must be ≥ {group} and passages non-empty (got {max_pairs}, {len(passages)})")
    rng = random.Random(seed)
    ids = sorted(passages)
    index = (BM25Index(ids, tokens=[list(tokens[i]) for i in ids]) if tokens is not None
             else BM25Index(ids, texts=[passages[i] for i in ids]))
    pairs: list[TrainingPair] = []
    for kind, (query, passage, cid) in _take(positives, max_pairs // group, rng):
        pairs.append(TrainingPair(query, passage, 1.0, kind))
        hits = [h for h, _ in index.search(query, top_k=bm25_negatives + 5) if h != cid]
        hits = [h for h in hits if _clip(passages[h]) != passage][:bm25_negatives]
        pairs += [TrainingPair(query, _clip(passages[h]), 0.0, "bm25_negative") for h in hits]
        drawn: list[str] = []
        while len(drawn) < random_negatives and len(ids) > len(hits) + 1 + len(drawn):
            other = ids[rng.randrange(len(ids))]
            if other != cid and other not in hits and other not in drawn:
                drawn.append(other)
        pairs += [TrainingPair(query, _clip(passages[h]), 0.0, "random_negative") for h in drawn]
    digest = hashlib.sha256()
    for p in pairs:
        digest.update(json.dumps([p.query, p.passage, p.label, p.kind], ensure_ascii=False).encode() + b"\n")
    return TrainingSet(pairs, dict(Counter(p.kind for p in pairs)), digest.hexdigest())
