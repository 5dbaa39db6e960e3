"""How long an XLSX sheet takes to read, by the data it holds or by its declared used range.

One formatted empty cell at row 1,048,576 or column XFD inflates a sheet's declared dimension; openpyxl's read-only
worksheet trusts it and pads every row to it. This bench reads the project's two cases (``c58_used_range_rows``:
``A1:J1048576``, ``c58_used_range_wide``: ``A1:XFD1048576``, four real rows each) and a 5,000-row sheet built with
openpyxl, each ``--repeat`` times, with:

- **Prism load**: :func:`prism.ingestion.parsing.load`, the whole loader (page text, table, normalisation);
- **Prism read_sheet**: :func:`prism.ingestion.parsing.excel.read_sheet` alone (the cells that hold a value, rows
  counted by the data they hold), comparable with the next;
- **read-only iter_rows**: the previous reader, ``openpyxl`` ``read_only=True`` ``iter_rows()`` over the declared
  range (run once per file with ``--old``, since the wide case takes over a minute).

Prints one row per (file, reader): declared dimension, rows with data, median seconds, and whether a "more than N
rows" warning was raised. Usage: ``python bench/sheets.py [--repeat 3] [--old]``.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from prism.config import Settings  # noqa: E402
from prism.ingestion import parsing  # noqa: E402

CASES = REPO / "tests" / "fixtures" / "cases"


def _big_sheet(rows: int = 5000) -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.append(["Branch", "Deposits", "Advances", "CASA share"])
    for i in range(rows):
        ws.append([f"Branch {i}", 1000 + i, 800.5 + i, 0.3])
        ws.cell(i + 2, 4).number_format = "0.0%"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _prism(data: bytes, name: str) -> tuple[int, bool]:
    doc = parsing.load(data, name, Settings(ocr_enabled=False))
    return sum(len(t.rows) + 1 for t in doc.tables), any("more than" in w for w in doc.warnings)


def _cells(data: bytes, name: str) -> tuple[int, bool]:
    from openpyxl import load_workbook

    from prism.ingestion.parsing.excel import read_sheet

    book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    sheet = read_sheet(book, book.worksheets[0], Settings().sheet_max_rows)
    book.close()
    return len(sheet.rows()), sheet.cut


def _read_only(data: bytes, name: str) -> tuple[int, bool]:
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    held, cut, limit = 0, False, Settings().sheet_max_rows
    for number, row in enumerate(book.worksheets[0].iter_rows(), start=1):
        if number > limit:
            cut = True
            break
        held += any(c.value is not None for c in row)
    book.close()
    return held, cut


def _dimension(data: bytes) -> str:
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(data), read_only=True)
    try:
        return book.worksheets[0].calculate_dimension()
    finally:
        book.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--old", action="store_true", help="also time the read-only iter_rows reader (once)")
    args = parser.parse_args()
    files = [(p.name, p.read_bytes()) for p in sorted(CASES.glob("c58_*.xlsx"))] + [("5000_rows.xlsx", _big_sheet())]
    print("| file | declared range | reader | rows with data | median s | 'more than N rows' warning |")
    print("|---|---|---|---|---|---|")
    for name, data in files:
        readers = [("Prism load", _prism, args.repeat), ("Prism read_sheet", _cells, args.repeat)]
        readers += [("read-only iter_rows", _read_only, 1)] if args.old else []
        for label, read, repeat in readers:
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                held, cut = read(data, name)
                times.append(time.perf_counter() - start)
            print(f"| {name} | {_dimension(data)} | {label} | {held:,} | {statistics.median(times):.3f} | "
                  f"{'yes' if cut else 'no'} |")


if __name__ == "__main__":
    main()
