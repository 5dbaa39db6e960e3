"""Generated figure questions over the tuning half's tables: does each program bind the cells a plain question names?

TAT-QA's own questions test one wording each; this asks the same few plain wordings of every row of every
tuning-half table with year columns (the frozen half is never read), so a miss is a kind of table or label the
binding does not read, not a wording. Per row, with its two latest years ``P1`` < ``P2`` (values ``v1``, ``v2``):

- ``lookup``: "What was the {row} in {P2}?" → ``v2``;
- ``change``: "What was the change in {row} from {P1} to {P2}?" → ``v2 − v1``;
- ``percent_change``: "What was the percentage change in {row} from {P1} to {P2}?" → ``(v2 − v1) / |v1| × 100``;
- ``average``: "What was the average {row} in {P1} and {P2}?" → ``(v1 + v2) / 2``;
- ``share``: "What percentage of {total row} was {row} in {P2}?" → ``v2 / total × 100`` (tables with a row labelled
  "Total …");
- ``list``: "What was the {row} in {P2} and {P1} respectively?" → both ``v2`` and ``v1`` (TAT-QA's multi-span
  questions).

With ``--wordings varied`` each row is asked instead one of four rephrasings per operation, in turn (:data:`VARIED`:
"avg {row} 2018-2019", "{row}: 2019 vs 2018 delta", "What share of {total} came from {row} in 2019?"), and three
questions of two rows of its table in ``P2``: their sum, their difference and their ratio. An analyst's rephrasing
should get the figure its plain wording gets: the two sets side by side measure what the wording costs.

The expected figure is computed here from the cells (:func:`prism.answering.programs.numbers.cell_number`); the
answer's first line is right when it states a number within 0.01 of it, either sign (TAT-QA reports costs printed in
parentheses both ways). Rows whose label repeats in the table, and years named by two columns (an amount and a "% of
total"), are left out: the question cannot tell which is meant. The questions are asked as the TAT-QA evaluation asks
(each scoped to its own page, offline, in the dataset's evaluation workspace, ingested when missing).

Prints a Markdown table per operation (questions, right, share) and, with ``--misses``, every miss with the first
line. Exit status 0 always (a bench, not a gate).

Usage: ``python bench/generated_questions.py [DATASET_DIR] [--rows N] [--wordings plain|varied] [--misses]`` (default
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
            other, other_label = _other_row(body, row, total, labels, years, y2)
            out.append({"source": f"ctx-{i:04d}.html", "label": label, "y1": y1, "y2": y2, "v1": values[y1],
                        "v2": values[y2], "total": total[0].strip() if total else None, "whole": whole,
                        "other": other, "other_label": other_label})
    random.Random(seed).shuffle(out)
    return out[:n]


PLAIN: dict[str, tuple[str, ...]] = {
    "lookup": ("What was the {r} in {y2}?",),
    "change": ("What was the change in {r} from {y1} to {y2}?",),
    "percent_change": ("What was the percentage change in {r} from {y1} to {y2}?",),
    "average": ("What was the average {r} in {y1} and {y2}?",),
    "share": ("What percentage of {t} was {r} in {y2}?",),
    "list": ("What was the {r} in {y2} and {y1} respectively?",),
}
"""One plain wording per operation (``{r}`` the row, ``{t}`` the total row, ``{y1}`` < ``{y2}`` the years)."""

VARIED: dict[str, tuple[str, ...]] = {
    "lookup": ("{r} {y2}?", "How much was {r} in fiscal {y2}", "Give me the {r} for {y2}.",
               "What did {r} amount to in {y2}?"),
    "change": ("By how much did {r} change between {y1} and {y2}?", "{r}: {y2} vs {y1} delta",
               "How much did {r} move from {y1} to {y2}", "What was the year-over-year change in {r} in {y2}?"),
    "percent_change": ("% change in {r} {y1} to {y2}", "By what percent did {r} change from {y1} to {y2}?",
                       "What was the YoY % change in {r} in {y2}?",
                       "How much did {r} change in percentage terms between {y1} and {y2}"),
    "average": ("avg {r} {y1}-{y2}", "Mean {r} over {y1} and {y2}?", "Average {r} for {y1} and {y2}",
                "What was {r} on average across {y1} and {y2}?"),
    "share": ("{r} as a % of {t} in {y2}", "What share of {t} came from {r} in {y2}?",
              "What portion of {t} did {r} represent in {y2}?", "In {y2}, what fraction of {t} was {r}, in percent?"),
    "list": ("{r} for {y1} and {y2}?", "Give me {r} in {y2} and {y1}", "What were the values of {r} in {y1} and {y2}?",
             "List {r} for {y1} and {y2}"),
    "sum": ("What was the total of {a} and {b} in {y2}?", "{a} plus {b} in {y2}",
            "What were {a} and {b} combined in {y2}?", "Add {a} and {b} for {y2}"),
    "difference": ("What was the difference between {a} and {b} in {y2}?", "{a} minus {b} in {y2}",
                   "How much higher was {a} than {b} in {y2}?", "By how much did {a} exceed {b} in {y2}?"),
    "ratio": ("What was the ratio of {a} to {b} in {y2}?", "{a} divided by {b} in {y2}",
              "{a} / {b} for {y2}", "What is {a} relative to {b} in {y2}, as a ratio?"),
}
"""Wordings an analyst rephrases a question with (terse, imperative, abbreviated, reordered, no question mark); a
row is asked one of each operation's, in turn. ``sum``, ``difference`` and ``ratio`` ask of two rows ``{a}`` and
``{b}`` of one table in ``{y2}``."""


def _other_row(body: list[list[str]], row: list[str], total: list[str] | None, labels: Counter[str],
               years: list[tuple[int, str]], year: str) -> tuple[Decimal | None, str | None]:
    """The next row below ``row`` (wrapping round) that is no total, has a label of its own and a figure in
    ``year``: ``(its figure, its label)``, or ``(None, None)``."""
    j = next(j for j, y in years if y == year)
    at = next(k for k, r in enumerate(body) if r is row)
    for r in body[at + 1:] + body[:at]:
        label = r[0].strip()
        if r is total or labels[label.lower()] > 1 or len(label) > 60 or label.lower().startswith("total"):
            continue
        value = cell_number(r[j].replace("%", "")) if j < len(r) else None
        if value is not None and label.lower() != row[0].strip().lower():
            return value, label
    return None, None


def _questions(row: dict, wordings: dict[str, tuple[str, ...]], turn: int
               ) -> list[tuple[str, str, Decimal | tuple[Decimal, ...]]]:
    """``(operation, question, expected figure)`` of one row, each operation's wording number ``turn`` (modulo
    how many it has); a list expects every figure of a tuple."""
    v1, v2, whole, other = row["v1"], row["v2"], row["whole"], row["other"]
    expected = {"lookup": v2, "change": v2 - v1, "average": (v1 + v2) / 2,
                "percent_change": (v2 - v1) / abs(v1) * 100 if v1 else None,
                "share": v2 / whole * 100 if whole and not row["label"].lower().startswith("total") else None,
                "sum": v2 + other if other is not None else None,
                "difference": v2 - other if other is not None else None,
                "ratio": v2 / other if other else None, "list": (v2, v1)}
    names = {"r": row["label"], "t": (row["total"] or "").lower(), "y1": row["y1"], "y2": row["y2"],
             "a": row["label"], "b": row["other_label"]}
    out = []
    for operation, phrasings in wordings.items():
        if expected.get(operation) is not None:
            phrasing = phrasings[turn % len(phrasings)]
            text = phrasing.format(**names)
            out.append((operation, text[0].upper() + text[1:], expected[operation]))
    return out


def _states(line: str, expected: Decimal | tuple[Decimal, ...]) -> bool:
    """Whether the line's figures (after its last ": ", the answer's own) hold ``expected``, either sign; for a
    tuple (a list), whether the line's figures after its first ": " hold every one."""
    if isinstance(expected, tuple):
        return all(_states(line.split(": ", 1)[-1].replace(": ", " "), e) for e in expected)
    stated = line.rsplit(": ", 1)[-1]
    return any(abs(abs(Decimal(x.replace(",", ""))) - abs(expected)) <= TOLERANCE for x in _NUMBER.findall(stated))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", nargs="?", default=str(ROOT.parent / "shared" / "data" / "tatqa-dev"))
    parser.add_argument("--rows", type=int, default=150)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--misses", action="store_true")
    parser.add_argument("--wordings", choices=("plain", "varied"), default="plain",
                        help="plain: one wording per operation (lookup, change, percentage change, average, share); "
                             "varied: four rephrasings each, and a sum, difference and ratio of two rows")
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
    wordings = PLAIN if args.wordings == "plain" else VARIED
    for turn, row in enumerate(_rows(dataset, args.seed, args.rows)):
        for operation, question, expected in _questions(row, wordings, turn):
            answer = svc.ask(question, workspace, sources=[row["source"]])
            first = next((li for li in answer.answer.splitlines()
                          if li.strip() and not li.startswith("Extractive answer")), "")
            asked[operation] += 1
            if _states(first, expected):
                right[operation] += 1
            else:
                shown = tuple(round(e, 2) for e in expected) if isinstance(expected, tuple) else round(expected, 2)
                misses.append((operation, row["source"], question, shown, first[:200]))
    print("| operation | questions | right | share |\n|---|---|---|---|")
    for operation in wordings:
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
