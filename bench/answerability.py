"""The answerability gate's features per question: how they separate answerable questions from negatives.

For every question of a Prism ground-truth file (``type`` ``negative`` = the documents do not answer) the script runs
the engine's first plain retrieval in a workspace holding the set's documents and prints the gate's named features
(:mod:`prism.answering.answerability`): ``relevance``, ``coverage``, ``salient``, ``missing``, ``evidence`` (1 a
sentence or table row holds the focus with a value of the expected answer type, 0 none does, -1 not checked), the
answer type and focus (:mod:`prism.answering.evidence`), the missing words and the verdict with the current
settings. Then a summary per question type (min / median / max of each feature) and, with ``--sweep``, the declined
counts over a grid of thresholds (old / new negatives and answerable questions declined).

Usage: ``PRISM_HOME=/tmp/home python bench/answerability.py [data/ground_truth/eval_pairs.json] [--docs data/sample]
[--workspace sample] [--sweep] [--detail]``; the documents are ingested once (duplicates are skipped).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prism.answering.answerability import assess  # noqa: E402
from prism.answering.extractive import relevance  # noqa: E402
from prism.config import get_settings  # noqa: E402
from prism.service import PrismService  # noqa: E402
from prism.types import IngestItem  # noqa: E402

FEATURES = ("relevance", "coverage", "salient", "missing", "evidence")


def _retrievals(truth: Path, docs: Path, workspace: str) -> tuple[PrismService, list[tuple[dict, list, float]]]:
    """Each question with the engine's first plain retrieval and its relevance."""
    settings = get_settings()
    svc = PrismService(settings)
    files = sorted(p for p in docs.iterdir() if p.suffix.lower() in (".pdf", ".txt", ".md", ".csv"))
    svc.ingest([IngestItem(p) for p in files], workspace)
    retriever = svc.open(workspace).retriever
    out = []
    for q in json.loads(truth.read_text(encoding="utf-8")):
        found = retriever.search(q["query"]).results
        out.append((q, found, relevance(q["query"], found, svc.embedder, settings.extractive_lexical_weight)))
    return svc, out


def _rows(svc: PrismService, workspace: str, retrievals: list, min_relevance: float, min_idf: float) -> list[dict]:
    retriever = svc.open(workspace).retriever
    rows = []
    for q, found, rel in retrievals:
        verdict = assess(q["query"], found, rel, retriever.idf, lambda w: svc.embedder.count_tokens(w) == 3,
                         min_relevance=min_relevance, min_salient_idf=min_idf)
        rows.append({"id": q["id"], "type": q["type"], "query": q["query"], **verdict.features(),
                     "salient_words": verdict.salient, "missing_words": verdict.missing,
                     "target": (f"{verdict.target.answer_type}: {' '.join(verdict.target.focus)}"
                                if verdict.target else ""),
                     "answerable": verdict.answerable})
    return rows


def _summary(rows: list[dict]) -> None:
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        groups["negative" if r["type"] == "negative" else "answerable"].append(r)
    print("\n| questions | n | declined | " + " | ".join(f"{f} min / median / max" for f in FEATURES) + " |")
    print("|---|---|---|" + "---|" * len(FEATURES))
    for name, group in sorted(groups.items()):
        cells = []
        for f in FEATURES:
            values = [r[f] for r in group]
            cells.append(f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}")
        declined = sum(not r["answerable"] for r in group)
        print(f"| {name} | {len(group)} | {declined} | " + " | ".join(cells) + " |")


def _sweep(svc: PrismService, workspace: str, retrievals: list, old: set[str]) -> None:
    print("\n| answer_min_relevance | gate_min_salient_idf | old negatives declined | new negatives declined | "
          "answerable declined |\n|---|---|---|---|---|")
    for min_relevance in (0.4, 0.5, 0.6):
        for min_idf in (0.5, 0.6, 0.7, 0.8, 0.9, 1.0):
            rows = _rows(svc, workspace, retrievals, min_relevance, min_idf)
            neg = [r for r in rows if r["type"] == "negative"]
            pos = [r for r in rows if r["type"] != "negative"]
            old_d = sum(not r["answerable"] for r in neg if r["id"] in old)
            new_d = sum(not r["answerable"] for r in neg if r["id"] not in old)
            pos_d = sum(not r["answerable"] for r in pos)
            print(f"| {min_relevance:.2f} | {min_idf:.2f} | {old_d}/{sum(r['id'] in old for r in neg)} | "
                  f"{new_d}/{sum(r['id'] not in old for r in neg)} | {pos_d}/{len(pos)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("truth", nargs="?", default=str(ROOT / "data" / "ground_truth" / "eval_pairs.json"))
    parser.add_argument("--docs", default=str(ROOT / "data" / "sample"))
    parser.add_argument("--workspace", default="sample")
    parser.add_argument("--sweep", action="store_true")
    parser.add_argument("--old", nargs="*", default=[f"q{i:03d}" for i in range(65, 73)],
                        help="ids of the negatives that existed before the gate was tuned (q065-q072)")
    parser.add_argument("--detail", action="store_true", help="one line per question")
    args = parser.parse_args()
    settings = get_settings()
    svc, retrievals = _retrievals(Path(args.truth), Path(args.docs), args.workspace)
    rows = _rows(svc, args.workspace, retrievals, settings.answer_min_relevance, settings.gate_min_salient_idf)
    if args.detail:
        header = "| id | type | " + " | ".join(FEATURES) + " | verdict | salient (missing) | answer type: focus |"
        print(header + "\n|---|---|" + "---|" * (len(FEATURES) + 3))
        for r in rows:
            print(f"| {r['id']} | {r['type']} | " + " | ".join(f"{r[f]:.2f}" for f in FEATURES)
                  + f" | {'answer' if r['answerable'] else 'decline'} | {', '.join(r['salient_words'])} "
                  f"({', '.join(r['missing_words'])}) | {r['target']} |")
    _summary(rows)
    if args.sweep:
        _sweep(svc, args.workspace, retrievals, set(args.old))


if __name__ == "__main__":
    main()
