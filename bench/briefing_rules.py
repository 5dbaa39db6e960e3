"""Rule points of circular briefings (issue 31 §3): over the 12 RBI circulars in ``../shared/data/rbi``, how many
rule points each offline briefing has and whether its points include a figure-bearing rule sentence.

Every PDF of ``../shared/data/rbi/pdfs`` is ingested into one workspace of ``PRISM_HOME`` (briefings off; a second
run over the same home reuses the documents), then briefed offline (``service.brief``, no LLM). For each document
the table gives its title (``manifest.csv``'s ``title_guess``), the number of bullets of kind ``rule``, whether any
bullet is a *figure-bearing rule sentence* and the first rule point (else the first bullet after the identity line).
The figure-bearing test is the bench's own and deliberately simple, independent of the briefing's scorer: a bullet
with an obligation word (shall, must, should, required, not later than, penalty, compensation, entitled, eligible)
and a figure (a digit other than a bare clause number, or a number word such as "fifteen", "per cent").

Usage: ``PRISM_HOME=/tmp/rules_home python bench/briefing_rules.py [--json FILE]``.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prism.config import get_settings  # noqa: E402
from prism.service import PrismService  # noqa: E402
from prism.types import IngestItem  # noqa: E402

RBI = ROOT.parent / "shared" / "data" / "rbi"
WORKSPACE = "rbi-rules"
_OBLIGATION = re.compile(r"\b(?:shall|must|should|required|not\s+later\s+than|penalt(?:y|ies)|compensation|"
                         r"entitled|eligible)\b", re.IGNORECASE)
_FIGURE = re.compile(r"(?:₹|\bRs\.?|%|\bper\s+cent\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|"
                     r"eleven|twelve|fifteen|twenty|thirty|fifty|hundred)\b|(?<![\w.])\d[\d,]*(?:\.\d+)?"
                     r"(?![.)]\s|\.\d))", re.IGNORECASE)


def figure_rule(text: str) -> bool:
    """True for a sentence with an obligation word and a figure (see the module docstring)."""
    return bool(_OBLIGATION.search(text)) and bool(_FIGURE.search(re.sub(r"^\s*[\d.()a-z]{1,8}\s+", "", text)))


def _rows(svc: PrismService) -> list[dict]:
    titles = {r["file"]: r["title_guess"] for r in csv.DictReader((RBI / "manifest.csv").open(encoding="utf-8"))}
    rows = []
    for record in sorted(svc.documents(WORKSPACE), key=lambda r: r.source.lower()):
        brief = svc.brief(record.source, WORKSPACE)
        rules = [b for b in brief.bullets if b.kind == "rule"]
        first = rules[0] if rules else next((b for b in brief.bullets if b.kind != "identity"), None)
        rows.append({"file": record.source, "title": titles.get(record.source, ""), "rule_points": len(rules),
                     "figure_rule": any(figure_rule(b.text) for b in brief.bullets),
                     "first": f"{first.text}{first.pages_note()}" if first else "",
                     "bullets": [[b.kind, b.text, b.pages()] for b in brief.bullets]})
    return rows


def main() -> None:
    """Ingest (once), brief, print the table and the share."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, default=None, help="write the rows here")
    args = parser.parse_args()
    if not RBI.is_dir():
        raise SystemExit(f"needs {RBI} (../shared/data/rbi beside the checkout)")
    svc = PrismService(get_settings().model_copy(update={"groq_api_key": None}))  # offline
    have = {r.source for r in svc.documents(WORKSPACE)} if svc.find_workspace(WORKSPACE) else set()
    new = [IngestItem(p) for p in sorted((RBI / "pdfs").iterdir()) if p.name not in have]
    if new:
        svc.ingest(new, WORKSPACE, briefing=False)
    rows = _rows(svc)
    print("| file | title | rule points | figure-bearing rule | first rule point |")
    print("|---|---|---|---|---|")
    for r in rows:
        first = r["first"] if len(r["first"]) <= 160 else r["first"][:157] + "…"
        print(f"| {r['file'][:24]} | {r['title'][:50]} | {r['rule_points']} | {'yes' if r['figure_rule'] else 'no'}"
              f" | {first.replace('|', '/')} |")
    hits = sum(r["figure_rule"] for r in rows)
    print(f"\n{hits} of {len(rows)} briefings ({hits / max(1, len(rows)):.0%}) include a figure-bearing rule sentence")
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
