"""Generated figure questions over the tuning half's tables: does each program bind the cells a plain question names?

TAT-QA's own questions test one wording each; this asks the same few plain wordings of every row of every
tuning-half table with year columns (the frozen half is never read), so a miss is a kind of table or label the
binding does not read, not a wording. Per row, with its two latest years ``P1`` < ``P2`` (values ``v1``, ``v2``):

- ``lookup``: "What was the {row} in {P2}?" → ``v2``;
- ``change``: "What was the change in {row} from {P1} to {P2}?" → ``v2 − v1``;
- ``percent_change``: "What was the percentage change in {row} from {P1} to {P2}?" → ``(v2 − v1) / |v1| × 100``;
- ``average``: "What was the average {row} in {P1} and {P2}?" → ``(v1 + v2) / 2``;
- ``share``: "What percentage of {total row} was {row} in {P2}?" → ``v2 / total × 100`` (tables with a row labelled
  "Total …").

The expected figure is computed here from the cells (:func:`prism.answering.programs.numbers.cell_number`); the
answer's first line is right when it states a number within 0.01 of it, either sign (TAT-QA reports costs printed in
parentheses both ways). Rows whose label repeats in the table, and years named by two columns (an amount and a "% of
total"), are left out: the question cannot tell which is meant. The questions are asked as the TAT-QA evaluation asks
(each scoped to its own page, offline, in the dataset's evaluation workspace, ingested when missing).

Prints a Markdown table per operation (questions, right, share) and, with ``--misses``, every miss with the first
line. Exit status 0 always (a bench, not a gate).

Usage: ``python bench/generated_questions.py [DATASET_DIR] [--rows N] [--misses]`` (default
``../shared/data/tatqa-dev``, 150 rows drawn with a fixed seed).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from prism.answering.programs.numbers import cell_number  # noqa: E402
from prism.evaluation.tatqa.dataset import SPLIT_FILE  # noqa: E402

_YEAR = re.compile(r"(?:19|20)\d\d")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
TOLERANCE = Decimal("0.011")


def _rows(dataset: Path, seed: int, n: int) -> list[dict]:
    """The tuning half's table rows with two years' figures, shuffled with ``seed``, at most ``n``."""
    contexts = json.loads((dataset / "tatqa_dataset_dev.json").read_text(encoding="utf-8"))
    tuning = set(json.loads(SPLIT_FILE.read_text(encoding="utf-8"))["halves"]["tuning"]["contexts"])
    out = []
    for i, context in enumerate(contexts, start=1):
        if context["table"]["uid"] not in tuning:
            continue
        table = context["table"]["table"]
        header_at = next((k for k in range(min(3, len(table)))
                          if sum(bool(_YEAR.search(h)) for h in table[k]) >= 2), None)
        if header_at is None:
            continue
        years = [(j, m.group(0)) for j, h in enumerate(table[header_at]) if (m := _YEAR.search(h))]
        if len({y for _, y in years}) < len(years) or len(years) < 2:
            continue  # a year with two columns (an amount and its % of total): the question cannot tell which
        body = [r for r in table[header_at + 1:] if r and r[0].strip()]
        labels = Counter(r[0].strip().lower() for r in body)
        total = next((r for r in body if r[0].strip().lower().startswith("total")), None)
        for row in body:
            label = row[0].strip()
            if labels[label.lower()] > 1 or len(label) > 60:
                continue
            values = {y: v for j, y in years
                      if j < len(row) and (v := cell_number(row[j].replace("%", ""))) is not None}
            if len(values) < 2:
                continue
            y1, y2 = sorted(values)[-2:]
            whole = None
            if total is not None and total is not row:
                j = next(j for j, y in years if y == y2)
                whole = cell_number(total[j].replace("%", "")) if j < len(total) else None
            out.append({"source": f"ctx-{i:04d}.html", "label": label, "y1": y1, "y2": y2, "v1": values[y1],
                        "v2": values[y2], "total": total[0].strip() if total else None, "whole": whole})
    random.Random(seed).shuffle(out)
    return out[:n]


def _questions(row: dict) -> list[tuple[str, str, Decimal]]:
    """``(operation, question, expected figure)`` of one row."""
    label, y1, y2, v1, v2 = row["label"], row["y1"], row["y2"], row["v1"], row["v2"]
    out = [("lookup", f"What was the {label} in {y2}?", v2),
           ("change", f"What was the change in {label} from {y1} to {y2}?", v2 - v1),
           ("average", f"What was the average {label} in {y1} and {y2}?", (v1 + v2) / 2)]
    if v1 != 0:
        out.append(("percent_change", f"What was the percentage change in {label} from {y1} to {y2}?",
                    (v2 - v1) / abs(v1) * 100))
    if row["whole"] and not label.lower().startswith("total"):
        out.append(("share", f"What percentage of {row['total'].lower()} was {label.lower()} in {y2}?",
                    v2 / row["whole"] * 100))
    return out


def _states(line: str, expected: Decimal) -> bool:
    """Whether the line's figures (after its last ": ", the answer's own) hold ``expected``, either sign."""
    stated = line.rsplit(": ", 1)[-1]
    return any(abs(abs(Decimal(x.replace(",", ""))) - abs(expected)) <= TOLERANCE for x in _NUMBER.findall(stated))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", default=str(ROOT.parent / "shared" / "data" / "tatqa-dev"))
    parser.add_argument("--rows", type=int, default=150)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--misses", action="store_true")
    args = parser.parse_args()
    dataset = Path(args.dataset)
    if not (dataset / "tatqa_dataset_dev.json").is_file():
        print(f"no TAT-QA dev file in {dataset}: nothing to measure")
        return

    from prism.config import Settings
    from prism.evaluation.prepare import prepare_workspace
    from prism.service import PrismService

    svc = PrismService(Settings(groq_api_key=None, tavily_api_key=None))
    loaded = svc.load_dataset(str(dataset), "tatqa", half="tuning")
    workspace = prepare_workspace(svc, loaded, None, None)["name"]
    asked: Counter[str] = Counter()
    right: Counter[str] = Counter()
    misses = []
    for row in _rows(dataset, args.seed, args.rows):
        for operation, question, expected in _questions(row):
            answer = svc.ask(question, workspace, sources=[row["source"]])
            first = next((li for li in answer.answer.splitlines()
                          if li.strip() and not li.startswith("Extractive answer")), "")
            asked[operation] += 1
            if _states(first, expected):
                right[operation] += 1
            else:
                misses.append((operation, row["source"], question, round(expected, 2), first[:200]))
    print("| operation | questions | right | share |\n|---|---|---|---|")
    for operation in ("lookup", "change", "percent_change", "average", "share"):
        if asked[operation]:
            print(f"| {operation} | {asked[operation]} | {right[operation]} | "
                  f"{right[operation] / asked[operation]:.3f} |")
    total = sum(asked.values())
    print(f"| all | {total} | {sum(right.values())} | {sum(right.values()) / max(total, 1):.3f} |")
    if args.misses:
        for operation, source, question, expected, first in misses:
            print(f"- {operation} {source}: {question} (expected {expected})\n  {first}")


if __name__ == "__main__":
    main()
