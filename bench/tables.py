"""Table extraction: Prism's stored-text tables against pdfplumber, on the truth set data/ground_truth/tables.json.

For every truth page and every prose page the script runs, interleaved page by page (the machine is shared, so
alternatives are timed in the same run and their order rotates):

* **parse**: Prism's per-page parse (pypdf plain + layout extraction, the better kept, pdfium's text where pypdf's
  is garbled, normalised: ``_extract`` + ``readable_text`` + ``normalize_report``), the time table detection is
  compared with;
* **stored text**: :func:`prism.ingestion.tables.finders.page_tables` on that stored page text: tables of figures, their
  column headers read from the PDF page's word positions when the text gives none, and numbered tables of text;
* **pdfplumber text**: ``page.extract_tables`` with the text strategy (columns from word alignment);
* **pdfplumber lines**: ``page.extract_tables`` with its default ruling-line strategy.

A truth cell is right when one table found on its page has a row whose label equals the cell's row label and, under a
column header that names the cell's column, the cell's value (labels and values compared after folding case,
dashes, quotes, whitespace and currency signs; a header names a column when the header's words contain the column's
words or the other way round, and no other column of that truth table). False tables: tables found on the 20 prose
pages. s/page: mean seconds per page over all pages; share of parse: that over the parse's seconds per page.

Usage: ``python bench/tables.py [--data ../shared/data] [--repeat 3] [--detail] [--prism-only]``
"""

from __future__ import annotations

import argparse
import io
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

try:  # pdfplumber is only compared here; Prism does not depend on it
    import pdfplumber
except ImportError:  # pragma: no cover
    pdfplumber = None
from pypdf import PdfReader  # noqa: E402

from prism.ingestion.parsing.normalize import normalize_report  # noqa: E402
from prism.ingestion.parsing.pdf.garbled import readable_text  # noqa: E402
from prism.ingestion.parsing.pdf.read import _extract  # noqa: E402
from prism.ingestion.tables.finders import page_tables  # noqa: E402
from prism.ingestion.tables.pdf_words import PdfTableHeaders  # noqa: E402

METHODS = ("stored text", "pdfplumber text", "pdfplumber lines") if pdfplumber else ("stored text",)
"""Compared methods; without pdfplumber installed (``pip install pdfplumber==0.11.10``) only Prism's own."""
_DASHES = re.compile(r"[‐‑‒–—―−-]+")
_VALUE = re.compile(r"^\(?-?[$₹]?\d[\d,]*(\.\d+)?%?\)?$|^[-.…]+$")


def norm_label(text: str) -> str:
    text = _DASHES.sub("-", text.casefold()).replace("’", "'").replace("‘", "'")
    return " ".join(text.split()).strip(" :.")


def norm_value(text: str) -> str:
    text = _DASHES.sub("-", text).replace("$", "").replace("₹", "")
    return "".join(text.split())


def words(text: str) -> list[str]:
    return re.findall(r"\w+(?:[-/]\w+)*|&", _DASHES.sub("-", text.casefold()))


def _contains(big: list[str], small: list[str]) -> bool:
    return bool(small) and any(big[i : i + len(small)] == small for i in range(len(big) - len(small) + 1))


def names_column(header: str, column: str, columns: list[str]) -> bool:
    """True when ``header`` names ``column`` and no other of the truth table's ``columns``."""

    def hit(col: str) -> bool:
        h, c = words(header), words(col)
        return _contains(h, c) or _contains(c, h)

    return hit(column) and sum(hit(c) for c in columns) == 1


# --- each method's tables as [(headers, [(label, cells)])] -----------------------------------------------------------


def stored_text(reader: PdfReader, number: int, data: bytes, name: str) -> str:
    """Page ``number``'s text as Prism stores it: pypdf's (layout unless it loses letters), pdfium's where pypdf's
    is garbled, normalised (the parse of :mod:`prism.ingestion.parsing.pdf.read`, without its thread and budgets)."""
    return normalize_report(readable_text(_extract(reader, number - 1, mode="layout"), data, number - 1, name)).text


def from_stored(text: str, page: int, data: bytes) -> list[tuple[list[str], list[tuple[str, list[str]]]]]:
    """Prism's tables of a page (:func:`prism.ingestion.tables.finders.page_tables`), column headers read from the PDF
    where the text gives none; the PDF is opened for this page alone (the pipeline opens it once per document)."""
    reader = PdfTableHeaders(data)
    try:
        tables = page_tables(text, page, reader)
    finally:
        reader.close()
    return [(list(t.column_headers), [(r.label, list(r.cells)) for r in t.rows]) for t in tables]


def from_plumber(rows: list[list[str | None]]) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """A pdfplumber table: header rows until the first row with a value; label = first non-empty cell."""
    grid = [[" ".join((c or "").split()) for c in row] for row in rows]
    first = next((i for i, r in enumerate(grid) if any(_VALUE.match(c) for c in r[1:] if c)), len(grid))
    width = max((len(r) for r in grid), default=0)
    headers = [" ".join(r[j] for r in grid[:first] if j < len(r) and r[j]) for j in range(width)]
    out: list[tuple[str, list[str]]] = []
    for row in grid[first:]:
        filled = [j for j, c in enumerate(row) if c]
        if not filled:
            continue
        label_col = filled[0]
        out.append((row[label_col], [c if j != label_col else "" for j, c in enumerate(row)]))
    return headers, out


def score(found: list, truth: dict, by_position: bool = False) -> int:
    """Truth cells found; ``by_position`` ignores header text: the k-th value of the row must be in truth column k."""
    right = 0
    for cell in truth["cells"]:
        label, value = norm_label(cell["row"]), norm_value(cell["value"])
        column = truth["column_headers"].index(cell["column"])
        ok = False
        for headers, rows in found:
            for row_label, cells in rows:
                if norm_label(row_label) != label:
                    continue
                if by_position:  # meant for statements, whose rows fill every column
                    values = [c for c in cells if c and c.strip() not in ("$", "₹")]
                    ok |= column < len(values) and norm_value(values[column]) == value
                    continue
                for j, c in enumerate(cells):
                    header = headers[j] if j < len(headers) else ""
                    if c and norm_value(c) == value and names_column(header, cell["column"], truth["column_headers"]):
                        ok = True
        right += ok
    return right


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per page and method (median kept)")
    parser.add_argument("--detail", action="store_true", help="print cells right per truth table and method")
    parser.add_argument("--prism-only", action="store_true", help="skip the pdfplumber methods (slow)")
    args = parser.parse_args()
    global METHODS
    if args.prism_only:
        METHODS = ("stored text",)
    truth = json.loads((ROOT / "data" / "ground_truth" / "tables.json").read_text(encoding="utf-8"))
    if not args.data.is_dir():
        sys.exit(f"{args.data} is missing: pass --data pointing at the shared data folder")
    pages = [(t["file"], t["page"], t) for t in truth["tables"]] + [
        (p["file"], p["page"], None) for p in truth["prose_pages"]
    ]
    settings = {"pdfplumber text": {"vertical_strategy": "text", "horizontal_strategy": "text"}, "pdfplumber lines": {}}
    seconds: dict[str, list[float]] = defaultdict(list)
    right: dict[str, dict[str, int]] = defaultdict(dict)
    by_position: dict[str, dict[str, int]] = defaultdict(dict)
    false_tables: dict[str, int] = defaultdict(int)
    blobs: dict[str, bytes] = {}
    for n, (file, number, table) in enumerate(pages):
        data = blobs.setdefault(file, (args.data / file).read_bytes())
        reader = PdfReader(io.BytesIO(data))
        plumber = pdfplumber.open(io.BytesIO(data)) if pdfplumber and len(METHODS) > 1 else None
        found: dict[str, list] = {}
        stored = ""
        order = ["parse", *METHODS]
        order = order[n % len(order) :] + order[: n % len(order)]
        times: dict[str, list[float]] = defaultdict(list)
        for _ in range(args.repeat):
            for name in order:
                if name == "stored text" and not stored:
                    stored = stored_text(reader, number, data, file)
                t0 = time.perf_counter()
                if name == "parse":
                    stored = stored_text(reader, number, data, file)
                elif name == "stored text":
                    found[name] = from_stored(stored, number, data)
                else:
                    page = plumber.pages[number - 1]  # type: ignore[union-attr]
                    found[name] = [from_plumber(t) for t in page.extract_tables(settings[name])]
                    page.flush_cache()
                times[name].append(time.perf_counter() - t0)
        if plumber is not None:
            plumber.close()
        for name, values in times.items():
            seconds[name].append(statistics.median(values))
        for name in METHODS:
            if table is None:
                false_tables[name] += sum(1 for headers, rows in found[name] if len(rows) >= 2)
            else:
                right[name][table["id"]] = score(found[name], table)
                by_position[name][table["id"]] = score(found[name], table, by_position=True)
    report(truth, right, by_position, false_tables, seconds, len(truth["prose_pages"]), args.detail)


def report(
    truth: dict, right: dict, by_position: dict, false_tables: dict, seconds: dict, n_prose: int, detail: bool
) -> None:
    cells = {t["id"]: len(t["cells"]) for t in truth["tables"]}
    fb = [t["id"] for t in truth["tables"] if t["file"].startswith("financebench")]
    total, total_fb = sum(cells.values()), sum(cells[i] for i in fb)
    parse = statistics.mean(seconds["parse"])
    print(
        f"{len(cells)} truth tables ({total} cells; {len(fb)} FinanceBench statements, {total_fb} cells), "
        f"{n_prose} prose pages; Prism's parse {parse * 1000:.1f} ms/page"
    )
    print()
    print(
        "| method | cells right | FinanceBench cells | other cells | FinanceBench, header ignored | false tables "
        "| ms/page | share of parse |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name in METHODS:
        got = sum(right[name].values())
        got_fb = sum(right[name][i] for i in fb)
        other = total - total_fb
        pos_fb = sum(by_position[name][i] for i in fb)
        s = statistics.mean(seconds[name])
        print(
            f"| {name} | {got / total:.1%} ({got}/{total}) | {got_fb / total_fb:.1%} | "
            f"{(got - got_fb) / other:.1%} | {pos_fb / total_fb:.1%} | {false_tables[name]} on {n_prose} pages | "
            f"{s * 1000:.1f} | {s / parse:.1%} |"
        )
    if detail:
        print()
        print("| table | cells | " + " | ".join(METHODS) + " |")
        print("|---|---|" + "---|" * len(METHODS))
        for tid, n in cells.items():
            print(f"| {tid} | {n} | " + " | ".join(str(right[m][tid]) for m in METHODS) + " |")


if __name__ == "__main__":
    main()
