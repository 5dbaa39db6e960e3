"""Paraphrase agreement: does every wording of a figure question get its canonical question's program and figure?

Reads the families of ``data/ground_truth/paraphrases/*.json`` (:mod:`prism.evaluation.paraphrases`): those over the
fixture 10-K beside them (``northwind_10k.html``, workspace ``fixture``) and those over the sample workspace's
documents (``data/sample/*.pdf``, workspace ``sample``). Both are ingested with the real pipeline into an offline
service (no LLM, no web search; the packaged embedder), every canonical question and wording is asked, and a
wording *agrees* when it gets the same program (operation and operands) and the same first-line figures as its
canonical question.

Prints a Markdown table of the agreement per operation and per wording kind, the overall figure, whether each
canonical question got the operation its family names, the share of paraphrases that got the family's operation
(whatever the canonical got), and every disagreement (wording, expected program, program
chosen). Exit status 0 always (a bench, not a gate). ``--home DIR`` keeps the workspaces between runs (ingested once);
``--json FILE`` writes every outcome; ``--only fixture|sample`` runs one set.

Usage: ``python bench/paraphrase.py [--home DIR] [--json FILE] [--only fixture|sample]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from prism.evaluation.paraphrases import (  # noqa: E402
    FAMILIES_DIR,
    KINDS,
    Family,
    Outcome,
    load_families,
    recording_programs,
    run_question,
)

SAMPLE_DIR = ROOT / "data" / "sample"
FIXTURE = FAMILIES_DIR / "northwind_10k.html"


def _service(home: Path):
    from prism.config import Settings
    from prism.index.embedder import PrismEmbedding
    from prism.service import PrismService

    settings = Settings(home=home, groq_api_key=None, tavily_api_key=None, briefing_on_ingest=False)
    return PrismService(settings, embedder=PrismEmbedding.from_settings(settings))


def _ingest(svc, home: Path, workspaces: set[str]) -> None:
    from prism.types import IngestItem

    marker = home / "paraphrase-ingested.json"
    done = set(json.loads(marker.read_text())) if marker.exists() else set()
    for name in sorted(workspaces - done):
        if name == "fixture":
            copy = home / FIXTURE.name
            shutil.copy(FIXTURE, copy)
            paths = [copy]
        else:
            paths = sorted(SAMPLE_DIR.glob("*.pdf"))
        results = svc.ingest([IngestItem(p) for p in paths], name)
        print(f"ingested {name}: " + ", ".join(f"{r.file} {r.status}" for r in results), file=sys.stderr)
        done.add(name)
        marker.write_text(json.dumps(sorted(done)))


def _describe(o: Outcome) -> str:
    parts = []
    for p in o.programs:
        if p[0] in ("text",):
            parts.append("text")
        elif p[0] == "metric":
            parts.append(f"metric({p[1]})")
        else:
            parts.append(f"{p[0]}(" + ", ".join(f"{label} {period or ''}".strip() for label, period in p[1]) + ")")
    return "; ".join(parts)


def run(families: list[Family], home: Path) -> list[dict]:
    """Every family asked through the offline service over ``home``: one row per wording (the canonical's too)."""
    svc = _service(home)
    _ingest(svc, home, {f.workspace for f in families})
    rows: list[dict] = []
    with recording_programs() as seen:
        for family in families:
            def ask(text: str, workspace: str = family.workspace):
                return svc.ask(text, workspace, hyde=False, multi_query=False, web=False)

            canonical = run_question(ask, family.canonical, seen)
            rows.append(_row(family, "canonical", canonical, canonical))
            for w in family.wordings:
                rows.append(_row(family, w.kind, run_question(ask, w.text, seen), canonical))
    return rows


def _row(family: Family, kind: str, o: Outcome, canonical: Outcome) -> dict:
    return {"family": family.id, "workspace": family.workspace, "operation": family.operation, "kind": kind,
            "question": o.question, "program": _describe(o), "expected": _describe(canonical),
            "chosen_operation": o.operation, "read_as": o.read_as, "first_line": o.first_line,
            "figures": list(o.figures), "expected_figures": list(canonical.figures), "agrees": o.agrees(canonical),
            "canonical_as_named": canonical.operation == family.operation}


def _share(rows: list[dict]) -> str:
    return f"{sum(r['agrees'] for r in rows) / len(rows):.0%} ({sum(r['agrees'] for r in rows)}/{len(rows)})" \
        if rows else "–"


def report(rows: list[dict]) -> str:
    """The Markdown report: agreement per operation × kind, overall, canonical checks, and the disagreements."""
    paraphrases = [r for r in rows if r["kind"] != "canonical"]
    kinds = [k for k in KINDS[1:] if any(r["kind"] == k for r in paraphrases)]
    by_op: dict[str, list[dict]] = defaultdict(list)
    for r in paraphrases:
        by_op[r["operation"]].append(r)
    out = ["| operation | " + " | ".join(kinds) + " | all |", "|---|" + "---|" * (len(kinds) + 1)]
    for op, group in by_op.items():
        cells = [_share([r for r in group if r["kind"] == k]) for k in kinds]
        out.append(f"| {op} | " + " | ".join(cells) + f" | {_share(group)} |")
    out.append("| **all** | " + " | ".join(_share([r for r in paraphrases if r["kind"] == k]) for k in kinds)
               + f" | **{_share(paraphrases)}** |")
    named = [dict(r, agrees=r["chosen_operation"] == r["operation"]) for r in paraphrases]
    out.append("| *family's operation chosen* | " + " | ".join(_share([r for r in named if r["kind"] == k])
                                                        for k in kinds) + f" | *{_share(named)}* |")
    for ws in sorted({r["workspace"] for r in rows}):
        out.append(f"\n{ws}: {_share([r for r in paraphrases if r['workspace'] == ws])} of paraphrases agree")
    canon = [r for r in rows if r["kind"] == "canonical"]
    out.append(f"\ncanonical questions answered with the operation their family names: "
               f"{sum(r['canonical_as_named'] for r in canon)}/{len(canon)}")
    for r in canon:
        if not r["canonical_as_named"]:
            out.append(f"- {r['family']}: expected {r['operation']}, got {r['program']} — {r['question']!r}")
    failures = [r for r in paraphrases if not r["agrees"]]
    if failures:
        out.append("\n| kind | family | wording | expected program | program chosen | first line |")
        out.append("|---|---|---|---|---|---|")
        for r in sorted(failures, key=lambda r: (r["kind"], r["family"])):
            out.append(f"| {r['kind']} | {r['family']} | {r['question']} | {r['expected']} "
                       f"{tuple(r['expected_figures'])} | {r['program']} {tuple(r['figures'])} | "
                       f"{r['first_line'][:90]} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--home", type=Path, help="keep the workspaces here between runs")
    ap.add_argument("--json", type=Path, help="write every outcome to this file")
    ap.add_argument("--only", choices=("fixture", "sample"))
    args = ap.parse_args()
    families = [f for f in load_families() if args.only in (None, f.workspace)]
    home = args.home or Path(tempfile.mkdtemp(prefix="prism-paraphrase-"))
    home.mkdir(parents=True, exist_ok=True)
    try:
        rows = run(families, home)
    finally:
        if args.home is None:
            shutil.rmtree(home, ignore_errors=True)
    print(report(rows))
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
