"""Briefings per document: how long the offline briefing takes, what it holds, and whether its suggested questions
are answered (issue 14 §1, issue 17's 2 s per document).

For every document of each workspace named, the script writes the offline briefing (``service.brief``, timed, the
embedder warmed up first), then asks each suggested question through the real answer engine over the whole
workspace (extractive, auto scope, as the Chat asks a briefing's question) and records whether it was answered (not
declined) and whether an answer citation is of that document at a page the question was made from
(``question_pages``). The briefing's time is wall-clock and CPU (``time.process_time``, all threads of the
process): on a shared machine the wall time grows with the load, the CPU time much less. Prints one row per
document and a total per workspace; ``--json`` writes the rows.

Usage: ``PRISM_HOME=/tmp/home python bench/briefings.py WORKSPACE [WORKSPACE ...] [--docs DIR ...] [--json FILE]``;
``--docs`` ingests a folder's PDFs into the first workspace first (duplicates are skipped).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prism.config import get_settings  # noqa: E402
from prism.service import PrismService  # noqa: E402
from prism.types import IngestItem  # noqa: E402


def _asked(svc: PrismService, workspace: str, source: str, question: str, pages: list[int]) -> dict:
    answer = svc.ask(question, workspace, hyde=False, multi_query=False, web=False)
    cited = [(c.source, c.page_start, c.page_end) for c in answer.citations]
    own = [c for c in cited if c[0] == source]
    on_page = any(any((a or 0) <= p <= (b or a or 0) for p in pages) for _s, a, b in own)
    return {"question": question, "pages": pages, "declined": answer.declined, "cites_document": bool(own),
            "cites_page": on_page, "cited": cited[:5]}


def _document_row(svc: PrismService, workspace: str, source: str, doc_type: str | None) -> dict:
    start, cpu = time.perf_counter(), time.process_time()
    brief = svc.brief(source, workspace)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    asked = [_asked(svc, workspace, source, q, p) for q, p in zip(brief.questions, brief.question_pages, strict=True)]
    kinds = [b.kind for b in brief.bullets]
    return {"workspace": workspace, "document": source, "type": doc_type, "seconds": round(seconds, 3),
            "cpu_seconds": round(cpu, 3), "bullets": len(brief.bullets), "figures": kinds.count("figure"),
            "cited_bullets": sum(bool(b.pages()) for b in brief.bullets), "questions": asked,
            "bullet_texts": [b.text for b in brief.bullets]}


def _counts(questions: list[dict]) -> tuple[int, int, int]:
    """``(answered, citing the document, citing the page)``."""
    return (sum(not q["declined"] for q in questions), sum(q["cites_document"] for q in questions),
            sum(q["cites_page"] for q in questions))


def _table(rows: list[dict]) -> None:
    print(f"{'workspace':10} {'document':46} {'type':20} {'s':>5} {'cpu s':>5} {'bul':>3} {'cit':>3} {'fig':>3} "
          f"{'asked':>5} {'answ':>4} {'doc':>4} {'page':>4}")
    for r in rows:
        answered, on_doc, on_page = _counts(r["questions"])
        print(f"{r['workspace'][:10]:10} {r['document'][:46]:46} {str(r['type'])[:20]:20} {r['seconds']:5.2f} "
              f"{r['cpu_seconds']:5.2f} {r['bullets']:3d} {r['cited_bullets']:3d} {r['figures']:3d} "
              f"{len(r['questions']):5d} {answered:4d} {on_doc:4d} {on_page:4d}")
    for ws in dict.fromkeys(r["workspace"] for r in rows):
        part = [r for r in rows if r["workspace"] == ws]
        qs = [q for r in part for q in r["questions"]]
        answered, on_doc, on_page = _counts(qs)
        secs, cpus, n = [r["seconds"] for r in part], [r["cpu_seconds"] for r in part], max(1, len(qs))
        print(f"TOTAL {ws}: {len(part)} documents; briefing s median {statistics.median(secs):.2f} max "
              f"{max(secs):.2f}, CPU s median {statistics.median(cpus):.2f} max {max(cpus):.2f}; questions "
              f"{len(qs)}: answered {answered} ({answered / n:.0%}), citing the document {on_doc} ({on_doc / n:.0%}),"
              f" citing the page {on_page} ({on_page / n:.0%})")


def main() -> None:
    """Parse the arguments, brief and ask, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspaces", nargs="+")
    parser.add_argument("--docs", type=Path, default=None, help="ingest this folder's PDFs first")
    parser.add_argument("--json", type=Path, default=None, help="write the rows here")
    args = parser.parse_args()
    svc = PrismService(get_settings())
    if args.docs is not None:
        files = sorted(p for p in args.docs.iterdir() if p.suffix.lower() == ".pdf")  # not a folder's README.md
        svc.ingest([IngestItem(p) for p in files], args.workspaces[0], briefing=False)
    svc.embedder.embed(["warm up"])
    rows = []
    for ws in args.workspaces:
        for record in svc.documents(ws):
            profile = record.effective_profile()
            rows.append(_document_row(svc, ws, record.source, profile.type if profile else None))
            print(f"... {ws} {record.source}: {rows[-1]['seconds']:.2f} s", file=sys.stderr, flush=True)
    _table(rows)
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
