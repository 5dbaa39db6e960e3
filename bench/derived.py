"""Derived figures on FinanceBench: the seven dev questions that need a calculation, answered offline (issue 14 §2).

Ingests the seven filings into one workspace (``derived``; auto-scope picks the filing each question names), asks
each question through the service with no LLM (extractive: the calculation is done in code from cited table cells),
and prints one row per question: the reference, the computed value, whether it is within the reference's rounding
(half a unit of the reference's last decimal, after reading both in the same scale), the inputs found and missing,
and the work line. ``--home DIR`` keeps the workspace between runs (ingest once, ~1–3 min per filing on 2 shared
cores; a filing already in the workspace is skipped); without it a temporary ``PRISM_HOME`` is used and removed.

Usage: ``python bench/derived.py [--home DIR] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATA = ROOT.parent / "shared" / "data" / "financebench-dev"
WORKSPACE = "derived"
QUESTIONS = ("ADOBE_2015_10K", "AMERICANWATERWORKS_2021_10K", "KRAFTHEINZ_2019_10K", "MGMRESORTS_2020_10K",
             "NETFLIX_2015_10K", "NIKE_2018_10K", "WALMART_2020_10K")
"""The filings of the seven dev questions that need a calculation (one question each, ``metrics-generated``)."""


def reference_value(answer: str) -> tuple[float, int] | None:
    """The reference's number and its decimals: ``"$1832.00"`` → ``(1832.0, 2)``, ``"7.9%"`` → ``(7.9, 1)``."""
    m = re.search(r"-?\d[\d,]*(?:\.(\d+))?", answer)
    if m is None:
        return None
    return float(m.group(0).replace(",", "")), len(m.group(1) or "")


def within(computed: float | None, reference: tuple[float, int] | None) -> bool:
    """``computed`` rounds to the reference at the reference's decimals (half a unit of its last decimal)."""
    if computed is None or reference is None:
        return False
    value, decimals = reference
    return abs(computed - value) <= 0.5 * 10 ** (-decimals) + 1e-9


def _questions() -> list[dict]:
    rows = [json.loads(line) for line in (DATA / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line]
    return [r for r in rows if r["doc_name"] in QUESTIONS and r["question_type"] == "metrics-generated"]


def _row(svc, q: dict) -> dict:
    start = time.perf_counter()
    answer = svc.ask(q["question"], WORKSPACE, hyde=False, multi_query=False, web=False)
    seconds = time.perf_counter() - start
    calc = answer.calculation
    ref = reference_value(q["answer"])
    value = calc.value if calc is not None else None
    work = [line for line in answer.answer.splitlines() if " = " in line and "=" in line.split(" = ", 1)[1]]
    return {"id": q["id"], "filing": q["doc_name"], "reference": q["answer"], "computed": calc.result if calc else None,
            "value": value, "within": within(value, ref), "metric": calc.metric if calc else None,
            "found": len(calc.inputs) if calc else 0, "missing": list(calc.missing) if calc else [],
            "work": work[-1].lstrip("- ") if work else answer.answer.splitlines()[0],
            "unsupported": answer.unsupported_numbers, "seconds": round(seconds, 2), "answer": answer.answer}


def main() -> None:
    """Ingest the seven filings (once), ask the seven questions, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=None, help="PRISM_HOME to keep (and reuse) the workspace in")
    parser.add_argument("--json", type=Path, default=None, help="write the rows here")
    args = parser.parse_args()
    if not DATA.is_dir():
        raise SystemExit(f"needs {DATA} (the FinanceBench dev filings)")
    tmp = None if args.home else tempfile.TemporaryDirectory(prefix="prism-bench-derived-")
    os.environ["PRISM_HOME"] = str(args.home or tmp.name)  # type: ignore[union-attr]
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from prism.config import get_settings
    from prism.service import PrismService
    from prism.types import IngestItem

    svc = PrismService(get_settings())
    held = {d.source for d in svc.documents(WORKSPACE)} if svc.find_workspace(WORKSPACE) else set()
    todo = [DATA / "pdfs" / f"{name}.pdf" for name in QUESTIONS if f"{name}.pdf" not in held]
    for path in todo:
        start = time.perf_counter()
        result = svc.ingest([IngestItem(path)], WORKSPACE, briefing=False)[0]
        print(f"... ingested {path.name}: {result.status} in {time.perf_counter() - start:.0f} s", file=sys.stderr)
    rows = [_row(svc, q) for q in _questions()]
    print(f"{'filing':28} {'reference':>9} {'computed':>16} {'ok':>3} {'in':>3} {'miss':>4} {'s':>5}  work")
    for r in rows:
        print(f"{r['filing']:28} {r['reference']:>9} {str(r['computed']):>16} {'yes' if r['within'] else 'no':>3} "
              f"{r['found']:3d} {len(r['missing']):4d} {r['seconds']:5.1f}  {r['work']}")
    print(f"within the reference's rounding: {sum(r['within'] for r in rows)} of {len(rows)}")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
