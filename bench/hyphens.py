"""Line-end hyphenation on the FinanceBench and RBI PDFs: how often Prism's rule joins a real compound.

Every page is read as Prism stores it (``prism.ingestion.parsing.pdf.text.page_text`` in layout mode, normalised);
every line-end break ``word-`` / ``word`` (:data:`prism.ingestion.parsing.pdf.hyphens.BREAK`) is decided by three rules:

* **always join** (``regu-latory`` → ``regulatory``, ``non-compliance`` → ``noncompliance``);
* **forms only**: keep the hyphen when the hyphenated form occurs elsewhere in the same document and the joined form
  does not, else join (rules 1, 2 and 4 of :mod:`prism.ingestion.parsing.pdf.hyphens`);
* **Prism** (:func:`prism.ingestion.parsing.pdf.hyphens.keeps_hyphen`): the same, and keep the hyphen when both halves
are
  words of the document (rule 3);
* **never join** (keep every hyphen).

The reference is the usage of the whole corpus (every PDF read here plus the SciFact abstracts, outside line-end
breaks): a break is a compound when its hyphenated form occurs more often than its joined form, a word when the
joined form occurs more often; when neither occurs it is undecided, and ``--sample N`` prints N of those for a check
by hand. A false join is a compound joined; a false keep is a word left hyphenated.

Usage: ``python bench/hyphens.py [--data ../shared/data] [--sample 30]`` (about 10 minutes on two shared cores).
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pypdf import PdfReader  # noqa: E402

from prism.ingestion.parsing.normalize import normalize_report  # noqa: E402
from prism.ingestion.parsing.pdf.hyphens import BREAK, keeps_hyphen, vocabulary  # noqa: E402
from prism.ingestion.parsing.pdf.text import page_text  # noqa: E402

logging.getLogger("pypdf").setLevel(logging.ERROR)
RULES = ("always join", "forms only", "Prism", "never join")


def read_pages(path: Path) -> list[str]:
    reader = PdfReader(path)
    pages = []
    for i in range(len(reader.pages)):
        try:
            pages.append(normalize_report(page_text(reader, i, mode="layout")).text)
        except Exception:  # a broken page: Prism skips it too
            pages.append("")
    return pages


def decide(rule: str, left: str, right: str, vocab: Counter[str]) -> str:
    if rule == "always join":
        return "join"
    if rule == "never join":
        return "keep"
    if rule == "forms only":
        joined, hyphenated = vocab[(left + right).casefold()], vocab[f"{left}-{right}".casefold()]
        return "keep" if hyphenated and not joined else "join"
    return "keep" if keeps_hyphen(left, right, vocab) else "join"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--sample", type=int, default=30)
    args = parser.parse_args()
    docs: dict[str, list[str]] = {}
    for folder in ("rbi/pdfs", "financebench-dev/pdfs"):
        for path in sorted((args.data / folder).glob("*.pdf")):
            docs[f"{folder.split('/')[0]}/{path.name}"] = read_pages(path)
            print(f"read {path.name}: {len(docs[list(docs)[-1]])} pages", file=sys.stderr)
    corpus = Counter()
    for pages in docs.values():
        corpus.update(vocabulary(pages))
    scifact = args.data / "scifact" / "corpus.jsonl"
    if scifact.exists():
        with scifact.open(encoding="utf-8") as f:
            corpus.update(vocabulary(json.loads(line)["text"] for line in f))
    rows = {s: Counter() for s in ("rbi", "financebench-dev")}
    undecided: list[tuple[str, str, str, str]] = []
    for name, pages in docs.items():
        vocab = vocabulary(pages)
        for text in pages:
            for m in BREAK.finditer(text):
                left, right = m.group(1), m.group(2)
                joined, hyphenated = corpus[(left + right).casefold()], corpus[f"{left}-{right}".casefold()]
                truth = "join" if joined > hyphenated else "keep" if hyphenated > joined else None
                row = rows[name.split("/")[0]]
                row["breaks"] += 1
                row["undecided"] += truth is None
                for rule in RULES:
                    got = decide(rule, left, right, vocab)
                    row[f"{rule} joins"] += got == "join"
                    if truth is not None and got != truth:
                        row[f"{rule} false {'joins' if got == 'join' else 'keeps'}"] += 1
                if truth is None:
                    undecided.append((name, left, right, decide("Prism", left, right, vocab)))
    print("| set | breaks | reference undecided | rule | joined | false joins | false keeps |")
    print("|---|---|---|---|---|---|---|")
    for set_name, row in rows.items():
        for rule in RULES:
            print(f"| {set_name} | {row['breaks']} | {row['undecided']} | {rule} | {row[f'{rule} joins']} | "
                  f"{row[f'{rule} false joins']} | {row[f'{rule} false keeps']} |")
    random.Random(0).shuffle(undecided)
    print(f"\n{min(args.sample, len(undecided))} of {len(undecided)} undecided breaks (Prism's decision):")
    for name, left, right, got in undecided[: args.sample]:
        print(f"- {name}: {left}- / {right} → {left + right if got == 'join' else left + '-' + right}")


if __name__ == "__main__":
    main()
