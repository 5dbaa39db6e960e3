"""Reading order of PDF text: pypdf plain, layout, layout read by columns, and plain where columns are found, against
poppler's ``pdftotext`` (which orders text by its own column analysis) as the reference.

For every page the words of each candidate (lower-cased ``\\w+`` runs) are cut into 4-grams; a welded line ("…kept
the Separately, the cash…") or a column read in the wrong place makes 4-grams the reference does not have, and loses
some it has. Reported per document set: 4-gram precision, recall and F1 against the reference (micro-averaged over
pages), pages where :func:`prism.ingestion.parsing.pdf.columns.column_blocks` found a multi-column block, and its cost
in ms per page. A FinanceBench/RBI page on which columns are found is a false detection unless the page really has
text columns (``--show`` prints them). Case 36 also reports whether the CRR sentence is read whole.

Usage: ``python bench/reading_order.py [--data ../shared/data] [--cases ../shared/cases] [--pages 40] [--show]``
(needs ``pdftotext`` from poppler-utils; the machine may be shared: the timings are indicative).
"""

from __future__ import annotations

import argparse
import logging
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pypdf import PdfReader  # noqa: E402

from prism.ingestion.parsing.pdf.columns import Gutter, _occupied, _pieces, column_blocks, prose_windows  # noqa: E402

logging.getLogger("pypdf").setLevel(logging.ERROR)
_WORD = re.compile(r"\w+")
CRR = ("the cash reserve ratio of all scheduled banks was reduced by 50 basis points to 4.00 per cent of net demand "
       "and time liabilities from the next reporting fortnight")
MODES = ("plain", "layout", "layout by columns", "plain where columns")


def _same(a: list[Gutter], b: list[Gutter]) -> bool:
    return len(a) == len(b) and all(x[0] < y[1] and y[0] < x[1] for x, y in zip(a, b, strict=True))


def line_gutters(lines: list[str]) -> list[list[Gutter]]:
    """Per line, the gutters of the prose windows holding it, each extended to the neighbouring lines blank across
    it (a column that ends early) up to two blank lines."""
    masks = [_occupied(line) for line in lines]
    found: list[list[Gutter]] = [[] for _ in lines]
    for window, gutters in prose_windows(lines):
        for i in window:
            found[i] += [g for g in gutters if not any(a < g[1] and g[0] < b for a, b in found[i])]
    for i in [i for i, m in enumerate(masks) if m]:
        for g in list(found[i]):
            gmask = ((1 << (g[1] - g[0])) - 1) << g[0]
            for step in (-1, 1):
                j, blank_run = i + step, 0
                while 0 <= j < len(lines) and not masks[j] & gmask and blank_run < 2:
                    blank_run = 0 if masks[j] else blank_run + 1
                    if masks[j] and not any(a < g[1] and g[0] < b for a, b in found[j]):
                        found[j].append(g)
                    j += step
    return [sorted(g) for g in found]


def read_columns(layout: str) -> str:
    """The layout text with each multi-column block emitted column by column (the alternative to plain mode that
    was measured and not kept): each line cut at its own gutters, each column top to bottom."""
    lines = layout.split("\n")
    per_line = line_gutters(lines)
    out: list[str] = []
    i = 0
    while i < len(lines):
        gutters = per_line[i]
        if not gutters:
            out.append(lines[i])
            i += 1
            continue
        j = i
        while j + 1 < len(lines) and (not lines[j + 1].strip() or _same(per_line[j + 1], gutters)):
            j += 1
        while j > i and not lines[j].strip():
            j -= 1
        columns: list[list[str]] = [[] for _ in range(len(gutters) + 1)]
        for k in range(i, j + 1):
            pieces = _pieces(lines[k], per_line[k]) if lines[k].strip() else [""] * len(columns)
            for column, piece in zip(columns, pieces, strict=True):
                column.append(piece)
        out.append("\n\n".join("\n".join(c).strip("\n") for c in columns))
        i = j + 1
    return "\n".join(out)


def grams(text: str, n: int = 4) -> Counter[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def reference(path: Path, page: int) -> str:
    done = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), str(path), "-"], capture_output=True,
                          text=True, check=True)
    return done.stdout


def candidates(reader: PdfReader, index: int) -> tuple[dict[str, str], int, float]:
    page = reader.pages[index]
    plain = page.extract_text() or ""
    layout = page.extract_text(extraction_mode="layout") or ""
    t0 = time.perf_counter()
    blocks = column_blocks(layout)
    seconds = time.perf_counter() - t0
    by_columns = read_columns(layout) if blocks else layout
    texts = {"plain": plain, "layout": layout, "layout by columns": by_columns,
             "plain where columns": plain if blocks else layout}
    return texts, blocks, seconds


def run_set(name: str, pages: list[tuple[Path, int]], show: bool) -> None:
    hits: dict[str, list[int]] = {m: [0, 0, 0] for m in MODES}  # shared, candidate total, reference total
    on_detected: dict[str, list[int]] = {m: [0, 0, 0] for m in MODES}  # the same on pages with columns found
    detected, seconds, crr = [], 0.0, {}
    readers: dict[Path, PdfReader] = {}
    for path, index in pages:
        reader = readers.setdefault(path, PdfReader(path))
        ref = grams(reference(path, index + 1))
        texts, blocks, spent = candidates(reader, index)
        seconds += spent
        if blocks:
            detected.append(f"{path.name} p.{index + 1}")
            if show:
                print(f"--- {path.name} page {index + 1}: {blocks} blocks\n{texts['layout by columns'][:1500]}\n")
        for mode, text in texts.items():
            got = grams(text)
            counts = (sum((got & ref).values()), sum(got.values()), sum(ref.values()))
            for table in (hits, on_detected) if blocks else (hits,):
                for k in range(3):
                    table[mode][k] += counts[k]
            if path.name.startswith("36_"):
                crr[mode] = CRR in " ".join(text.split())
    print(f"\n{name}: {len(pages)} pages, columns found on {len(detected)} "
          f"({', '.join(detected[:8])}{' …' if len(detected) > 8 else ''}); read_columns "
          f"{1000 * seconds / max(len(pages), 1):.2f} ms/page\n")
    print("| mode | 4-gram precision | 4-gram recall | F1 | F1 on pages with columns |"
          + (" CRR sentence whole |" if crr else ""))
    print("|---|---|---|---|---|" + ("---|" if crr else ""))
    for mode in MODES:
        (p, r, f1), (_, _, f1_detected) = _prf(hits[mode]), _prf(on_detected[mode])
        extra = f" {'yes' if crr.get(mode) else 'no'} |" if crr else ""
        print(f"| {mode} | {p:.3f} | {r:.3f} | {f1:.3f} | {f1_detected:.3f} |{extra}")


def _prf(counts: list[int]) -> tuple[float, float, float]:
    shared, total, ref_total = counts
    p, r = shared / max(total, 1), shared / max(ref_total, 1)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--cases", type=Path, default=ROOT / "tests" / "fixtures" / "cases")
    parser.add_argument("--pages", type=int, default=40, help="pages per FinanceBench/RBI filing at most")
    parser.add_argument("--show", action="store_true", help="print the pages where columns were found")
    args = parser.parse_args()
    if shutil.which("pdftotext") is None:
        sys.exit("pdftotext (poppler-utils) is needed as the reference")
    case = args.cases / "36_two_column_policy_note.pdf"
    run_set("case 36", [(case, 0)], args.show)
    fr = args.data / "hard-pdfs" / "federal-register-2020-17221.pdf"
    run_set("Federal Register (three columns)", [(fr, i) for i in range(len(PdfReader(fr).pages))], args.show)
    for folder in ("financebench-dev/pdfs", "rbi/pdfs"):
        files = sorted((args.data / folder).glob("*.pdf"))
        pages = [(f, i) for f in files for i in range(min(args.pages, len(PdfReader(f).pages)))]
        run_set(folder.split("/")[0], pages, args.show)


if __name__ == "__main__":
    main()
