"""Document-profile precision: entity and fiscal year of the FinanceBench dev filings read under opaque names,
RBI references and dates against the RBI manifest, and the NPCI and sample PDFs for inspection.

Usage::

    python bench/profiles.py [--data DIR] [--skip-financebench] [--skip-rbi] [--skip-others]

Each PDF is read the way Prism reads it (``prism.ingestion.parsing.load``: pypdf per page, normalised text, OCR for
pages without a text layer) and passed to :func:`prism.ingestion.profiles.read.extract_profile` with its pages *before*
running headers and footers are removed. FinanceBench filings are parsed and profiled as ``doc01.pdf`` … ``doc16.pdf``
(sorted by real name), so no real file name reaches the parser or the profile. Truth: the hand-written
``data/ground_truth/profiles.json`` (FinanceBench) and ``rbi/manifest.csv`` (``rbi_ref``, ``date``).

A filing is right when entity, period and fiscal year end all equal the truth (exact strings; an 8-K's period is
its date of report and it has no fiscal year end). An RBI PDF is right when its date equals the manifest's and its
"RBI/…" reference equals ``rbi_ref`` (an empty ``rbi_ref`` expects no "RBI/…" reference: the FEMA notification and
the accessibility statement have none). Targets: ≥ 15 of 16 filings, ≥ 11 of 12 RBI PDFs. Parse time is the
machine's (2 shared cores); profile time is :func:`extract_profile` alone.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from datetime import datetime
from pathlib import Path

import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from prism.config import Settings  # noqa: E402
from prism.errors import PrismError  # noqa: E402
from prism.ingestion import parsing  # noqa: E402
from prism.ingestion.profiles.read import extract_profile  # noqa: E402
from prism.types import DocumentProfile  # noqa: E402

DEFAULT_DATA = REPO.parent / "shared" / "data"
TRUTH = REPO / "data" / "ground_truth" / "profiles.json"
SAMPLES = REPO / "data" / "sample"


def table(rows: list[dict[str, object]], cols: list[str]) -> str:
    """A Markdown table of ``rows`` with the columns ``cols`` (``None`` shown as ``–``)."""
    out = ["| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for r in rows:
        out.append("| " + " | ".join("–" if r.get(c) is None else str(r[c]).replace("|", "/") for c in cols) + " |")
    return "\n".join(out)


def profile_pdf(path: Path, name: str, settings: Settings) -> tuple[DocumentProfile | None, float, float, str]:
    """``(profile, parse seconds, profile milliseconds, error)`` of one PDF parsed under the display name ``name``."""
    t0 = time.perf_counter()
    try:
        doc = parsing.load(path, name, settings)
    except PrismError as exc:
        return None, time.perf_counter() - t0, 0.0, str(exc)
    parse_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    profile = extract_profile([(p.number, p.text) for p in doc.pages], file_name=name)
    return profile, parse_s, (time.perf_counter() - t0) * 1000, ""


def _v(value: object) -> str:
    return "–" if value is None else str(value)


def _src(profile: DocumentProfile, name: str) -> str | None:
    src = profile.sources.get(name)
    return None if src is None else f"p{src.page}"


def financebench(data: Path, settings: Settings) -> None:
    """Print the FinanceBench table and its counts."""
    truth = json.loads(TRUTH.read_text(encoding="utf-8"))["financebench"]
    rows, right, fields_right = [], 0, {k: 0 for k in ("entity", "ticker", "type", "period", "currency", "unit")}
    parse_total = 0.0
    for t in truth:
        profile, parse_s, ms, error = profile_pdf(data / "financebench-dev" / "pdfs" / t["file"], t["doc"], settings)
        parse_total += parse_s
        print(f"  {t['doc']} parsed in {parse_s:.1f} s", file=sys.stderr, flush=True)
        if profile is None:
            rows.append({"doc": t["doc"], "file": t["file"], "right": f"no ({error})"})
            continue
        ok = (profile.entity == t["entity"] and profile.period == t["period"]
              and profile.fiscal_year_end == t["fiscal_year_end"])
        right += ok
        for k in fields_right:
            fields_right[k] += getattr(profile, k) == t[k]
        rows.append({
            "doc": t["doc"], "file": t["file"],
            "expected entity": t["entity"], "entity": f"{profile.entity} ({_src(profile, 'entity')})",
            "expected period / FY end": f"{t['period']} / {t['fiscal_year_end'] or '–'}",
            "period / FY end": f"{_v(profile.period)} / {_v(profile.fiscal_year_end)} ({_src(profile, 'period')})",
            "ticker": f"{profile.ticker} ({_src(profile, 'ticker')})" if profile.ticker else None,
            "type": profile.type, "unit": f"{_v(profile.currency)} {_v(profile.unit)}",
            "profile ms": f"{ms:.0f}", "right": "yes" if ok else "**no**",
        })
    n = len(truth)
    print(f"\n## FinanceBench dev filings read as doc01.pdf … doc{n:02d}.pdf\n")
    print(table(rows, ["doc", "file", "expected entity", "entity", "expected period / FY end", "period / FY end",
                       "ticker", "type", "unit", "profile ms", "right"]))
    print(f"\nentity AND fiscal year right: **{right} / {n}** (target ≥ 15)")
    print("per field: " + ", ".join(f"{k} {v}/{n}" for k, v in fields_right.items()) + f"; parse {parse_total:.0f} s")


def _iso(text: str) -> str | None:
    return datetime.strptime(text.strip(), "%B %d, %Y").date().isoformat() if isinstance(text, str) else None


def rbi(data: Path, settings: Settings) -> None:
    """Print the RBI table against the manifest."""
    manifest = pd.read_csv(data / "rbi" / "manifest.csv", dtype=str, keep_default_na=False)
    rows, right = [], 0
    for i, rec in enumerate(manifest.itertuples(index=False), start=1):
        name = f"rbi{i:02d}.pdf"
        profile, _, ms, error = profile_pdf(data / "rbi" / "pdfs" / rec.file, name, settings)
        if profile is None:
            rows.append({"file": rec.file, "right": f"no ({error})"})
            continue
        ref = profile.reference if (profile.reference or "").startswith("RBI/") else None
        expected_date = _iso(rec.date)
        ok = ref == (rec.rbi_ref or None) and profile.date == expected_date
        right += ok
        rows.append({
            "file": rec.file[:24], "manifest ref": rec.rbi_ref or None, "reference": profile.reference,
            "manifest date": expected_date, "date": f"{_v(profile.date)} ({_src(profile, 'date')})",
            "type": profile.type, "entity": profile.entity,
            "currency / unit": f"{_v(profile.currency)} / {_v(profile.unit)}",
            "right": "yes" if ok else "**no**",
        })
    print(f"\n## RBI PDFs (../shared/data/rbi), read as rbi01.pdf … rbi{len(manifest):02d}.pdf\n")
    print(table(rows, ["file", "manifest ref", "reference", "manifest date", "date", "type", "entity",
                       "currency / unit", "right"]))
    print(f"\nreference and date match the manifest: **{right} / {len(manifest)}** (target ≥ 11)")


def inspect(paths: list[Path], title: str, settings: Settings) -> None:
    """Print every profile field (with its page) of ``paths``, for inspection."""
    rows = []
    for path in paths:
        profile, _, _, error = profile_pdf(path, path.name, settings)
        if profile is None:
            rows.append({"file": path.name[:40], "entity": f"({error[:70]})"})
            continue
        rows.append({
            "file": path.name[:40], "type": profile.type, "entity": profile.entity,
            "reference": profile.reference,
            "period": f"{profile.period} ({_src(profile, 'period')})" if profile.period else None,
            "FY end": profile.fiscal_year_end, "date": profile.date,
            "currency / unit": f"{_v(profile.currency)} / {_v(profile.unit)}",
        })
    print(f"\n## {title}\n")
    print(table(rows, ["file", "type", "entity", "reference", "period", "FY end", "date", "currency / unit"]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the shared data folder")
    ap.add_argument("--skip-financebench", action="store_true")
    ap.add_argument("--skip-rbi", action="store_true")
    ap.add_argument("--skip-others", action="store_true", help="skip the NPCI and sample PDFs")
    args = ap.parse_args()
    settings = Settings()
    if not args.skip_financebench:
        financebench(args.data, settings)
    if not args.skip_rbi:
        rbi(args.data, settings)
    if not args.skip_others:
        inspect(sorted((args.data / "npci" / "pdfs").glob("*.pdf")), "NPCI circulars (../shared/data/npci)", settings)
        inspect(sorted(SAMPLES.glob("*.pdf")), "Sample PDFs (data/sample)", settings)


if __name__ == "__main__":
    main()
