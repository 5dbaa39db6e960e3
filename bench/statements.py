"""What the statement-vocabulary bridge adds to BM25: evidence-page ranks with and without the ``statement:<kind>``
terms, on FinanceBench questions over the filings a workspace holds.

For each FinanceBench question whose filing is in the workspace, BM25 (the workspace's chunk rows, each tokenised
from its ``index_text``: title header, table header, text) ranks every chunk twice: with the tokenizer as it is
(statement terms on) and with :func:`prism.index.statements.statement_tokens` switched off. A hit is a chunk of the
question's filing on an evidence page (FinanceBench pages are 0-based; Prism's 1-based). Prints each question's
first evidence rank per variant and hit@5 / MRR@10 over the questions. BM25 only: the dense side does not change.

Usage: ``PRISM_HOME=/tmp/home python bench/statements.py --workspace fb4
[--questions ../shared/data/financebench-dev/questions.jsonl]`` (ingest the filings into the workspace first).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import prism.index.tokenizer as tokenizer_module  # noqa: E402
from prism.config import get_settings  # noqa: E402
from prism.index.bm25 import BM25Index  # noqa: E402
from prism.index.statements import statement_tokens  # noqa: E402
from prism.service import PrismService  # noqa: E402

DEFAULT_QUESTIONS = ROOT.parent / "shared" / "data" / "financebench-dev" / "questions.jsonl"


def _first_hit(index: BM25Index, question: str, evidence: set[str], top_k: int = 100) -> int | None:
    for rank, (chunk_id, _score) in enumerate(index.search(question, top_k=top_k), start=1):
        if chunk_id in evidence:
            return rank
    return None


def _index(rows: list[dict], bridge: bool) -> BM25Index:
    tokenizer_module.statement_tokens = statement_tokens if bridge else (lambda _text: [])
    tokenizer_module._cache.clear()
    texts = [r.get("index_text") or r["text"] for r in rows]
    return BM25Index([r["chunk_id"] for r in rows], texts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workspace", required=True)
    parser.add_argument("--questions", type=Path, default=DEFAULT_QUESTIONS)
    args = parser.parse_args()
    svc = PrismService(get_settings())
    rows: list[dict] = []
    pages: dict[str, dict[int, list[str]]] = {}
    for record, doc_rows in svc.chunk_rows(args.workspace):
        rows.extend(doc_rows)
        by_page = pages.setdefault(Path(record.source).stem, {})
        for r in doc_rows:
            for p in range(r.get("page_start") or 0, (r.get("page_end") or r.get("page_start") or 0) + 1):
                by_page.setdefault(p, []).append(r["chunk_id"])
    questions = [q for q in map(json.loads, args.questions.read_text(encoding="utf-8").splitlines())
                 if q["doc_name"] in pages]
    indexes = {"without": _index(rows, False), "with": _index(rows, True)}
    print(f"{len(questions)} questions, {len(rows)} chunks of {len(pages)} documents; BM25 only\n")
    print("| question | type | evidence rank without | with |\n|---|---|---|---|")
    totals = {name: [0, 0.0] for name in indexes}
    for q in questions:
        evidence = {c for e in q["evidence"] for c in pages[q["doc_name"]].get(e["page"] + 1, [])}
        ranks = {}
        for name, index in indexes.items():
            tokenizer_module.statement_tokens = statement_tokens if name == "with" else (lambda _text: [])
            tokenizer_module._cache.clear()
            ranks[name] = _first_hit(index, q["question"], evidence)
            rank = ranks[name]
            totals[name][0] += rank is not None and rank <= 5
            totals[name][1] += 1 / rank if rank is not None and rank <= 10 else 0.0
        print(f"| {q['id']} | {q['question_type']} | {ranks['without']} | {ranks['with']} |")
    n = max(len(questions), 1)
    print("\n| variant | hit@5 | MRR@10 |\n|---|---|---|")
    for name, (hits, rr) in totals.items():
        print(f"| {name} statement terms | {hits / n:.3f} | {rr / n:.3f} |")
    tokenizer_module.statement_tokens = statement_tokens


if __name__ == "__main__":
    main()
