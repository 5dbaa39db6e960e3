"""Checks questions.jsonl against the documents' own page text (pypdf, plain extraction).

For every question: the evidence excerpt occurs verbatim on the stated page (whitespace collapsed), every operand's
printed value occurs on its page, a computed answer's `derivation` re-evaluates to `value` (within rounding), and the
fields have the expected types. Needs the shared data folder (default ../shared/data next to the worktree root, or
$SHARED_DATA) and pypdf.

    python data/ground_truth/analyst/verify.py [--shared /path/to/shared/data]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

KINDS = {"lookup", "change", "percent_change", "ratio", "share", "margin", "sum", "average", "max", "min", "which",
         "count", "yes_no", "rule", "decline"}
UNITS = {"USD million", "INR crore", "%", "bps", "count", "date", None}
KEYS = ["id", "document", "page", "question", "kind", "answer", "value", "unit", "operands", "evidence"]


def norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def main() -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.environ.get("SHARED_DATA", "/work/shared/data"))
    args = ap.parse_args()
    import pypdf

    shared = Path(args.shared)
    pages: dict[tuple[str, int], str] = {}
    readers: dict[str, pypdf.PdfReader] = {}

    def page(doc: str, n: int) -> str:
        if (doc, n) not in pages:
            if doc not in readers:
                readers[doc] = pypdf.PdfReader(str(shared / doc))
            pages[(doc, n)] = norm(readers[doc].pages[n - 1].extract_text() or "")
        return pages[(doc, n)]

    problems = []
    rows = [json.loads(line) for line in (here / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line]
    ids = [r["id"] for r in rows]
    if len(set(ids)) != len(ids):
        problems.append("duplicate ids")
    for r in rows:
        rid = r["id"]
        missing = [k for k in KEYS if k not in r]
        if missing:
            problems.append(f"{rid}: missing {missing}")
            continue
        if r["kind"] not in KINDS:
            problems.append(f"{rid}: kind {r['kind']!r}")
        if r["unit"] not in UNITS:
            problems.append(f"{rid}: unit {r['unit']!r}")
        if r["value"] is not None and not isinstance(r["value"], (int, float)):
            problems.append(f"{rid}: value not a number")
        if r["kind"] == "decline" and r["value"] is not None:
            problems.append(f"{rid}: decline with a value")
        if r["evidence"] and norm(r["evidence"]) not in page(r["document"], r["page"]):
            problems.append(f"{rid}: evidence not on page {r['page']}: {r['evidence'][:80]!r}")
        for o in r["operands"]:
            if norm(o["value"]) not in page(r["document"], o["page"]):
                problems.append(f"{rid}: operand {o['label']!r} value {o['value']!r} not on page {o['page']}")
        if not r.get("derivation") and isinstance(r["value"], (int, float)) and r["operands"]:
            # a figure read off the page: it must be one of the operands as printed (in thousands or dollars at most)
            nums = []
            for o in r["operands"]:
                m = re.search(r"[0-9][0-9,]*\.?[0-9]*", o["value"])
                if m:
                    nums.append(float(m.group().replace(",", "")))
            if not any(abs(n - r["value"] * f) < 1e-6 * max(1.0, n) for n in nums for f in (1, 1000, 1e6)):
                problems.append(f"{rid}: value {r['value']} is none of the operands {nums}")
        d = r.get("derivation")
        if d:
            if not re.fullmatch(r"[0-9eE.+\-*/() ]+", d):
                problems.append(f"{rid}: derivation is not plain arithmetic")
            else:
                got = eval(d)  # plain arithmetic only, checked above
                if r["value"] is None or abs(got - r["value"]) > 0.0051:
                    problems.append(f"{rid}: derivation {d} = {got}, value {r['value']}")
    for p in problems:
        print(p)
    print(f"{len(rows)} questions, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
