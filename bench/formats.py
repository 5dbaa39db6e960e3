"""Office and HTML readers compared: Prism's loaders against markitdown, pandas and BeautifulSoup on text fidelity,
speed and dependency weight.

The test files are built by ``tests/ingestion/office_files.py`` (python-docx, openpyxl, python-pptx writers); their
right text was checked by hand, and the checks below encode it — each check is a property a reader of the output
needs (the heading on its own line, a table value beside its column header, the speaker notes, no navigation
junk…). Speed: the same files scaled up (a 40-section Word note, a 5,000-row sheet, a 60-slide deck, a web page with
50 articles), each reader run ``--repeat`` times interleaved (the machine may be shared), median seconds. Weight: the
packages each reader adds to Prism's environment and their installed size (``importlib.metadata``).

Readers: **Prism** = :func:`prism.ingestion.parsing.load` (python-docx, openpyxl, python-pptx, trafilatura);
**markitdown** = ``MarkItDown().convert_stream`` (mammoth, pandas + openpyxl, python-pptx, BeautifulSoup +
markdownify); **pandas** = ``pandas.read_excel`` (openpyxl engine) rendered as CSV; **bs4** = BeautifulSoup
``get_text`` after dropping script and style.

Usage: ``python bench/formats.py [--repeat 5]`` (markitdown and beautifulsoup4 are only compared here; without them
their rows are left out).
"""

from __future__ import annotations

import argparse
import io
import logging
import statistics
import sys
import time
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prism.config import Settings  # noqa: E402
from prism.ingestion import parsing  # noqa: E402
from tests.ingestion import office_files as files  # noqa: E402

logging.disable(logging.WARNING)
SETTINGS = Settings(ocr_enabled=False)
Reader = Callable[[bytes], str]


def _flat(text: str) -> str:
    return " ".join(text.split())


def prism_reader(ext: str) -> Reader:
    def read(data: bytes) -> str:
        doc = parsing.load(data, f"file{ext}", SETTINGS)
        if ext == ".xlsx":
            return "\n\n".join(f"## {p.label}\n{p.text}" for p in doc.pages)
        if ext == ".pptx":
            return "\n\n".join(f"<!-- Slide {p.number} -->\n{p.text}" for p in doc.pages)
        return "\n\n".join(p.text for p in doc.pages)
    return read


def markitdown_reader(ext: str) -> Reader | None:
    try:
        from markitdown import MarkItDown
    except ImportError:
        return None
    converter = MarkItDown(enable_plugins=False)
    return lambda data: converter.convert_stream(io.BytesIO(data), file_extension=ext).text_content


def pandas_reader(data: bytes) -> str:
    import pandas as pd

    sheets = pd.read_excel(io.BytesIO(data), sheet_name=None, engine="openpyxl")
    return "\n\n".join(f"## {name}\n{frame.to_csv(index=False)}" for name, frame in sheets.items())


def bs4_reader(data: bytes) -> str:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(data, "lxml")
    for tag in soup(["script", "style"]):
        tag.decompose()
    return soup.get_text("\n")


def _line_with(text: str, *parts: str) -> bool:
    return any(all(p in line for p in parts) for line in text.splitlines())


def _beside(text: str, header: str, value: str) -> bool:
    """``value`` is shown with its column ``header``: ``"header: value"`` or a Markdown/CSV table whose header row
    has ``header`` in the same column as ``value`` in some row."""
    if f"{header}: {value}" in text:
        return True
    rows = [[cell.strip() for cell in (line.strip().strip("|").split("|") if "|" in line else line.split(","))]
            for line in text.splitlines()]
    heads = [r for r in rows if header in r]
    return any(h.index(header) < len(r) and r[h.index(header)] == value for h in heads for r in rows)


CHECKS: dict[str, list[tuple[str, Callable[[str], bool]]]] = {
    ".docx": [
        ("heading on its own line", lambda t: any(line.strip("# ") == "Board note: liquidity review Q3 FY25"
                                                  for line in t.splitlines())),
        ("paragraph whole", lambda t: "well above the regulatory minimum of 100 per cent." in _flat(t)),
        ("table value beside its header", lambda t: _beside(t, "Q3 FY25", "2,870")),
        ("table row label with its values", lambda t: _line_with(t, "Corporate", "2,950", "2,870")),
        ("list items", lambda t: "Reconcile nodal balances daily." in t),
        ("reading order (table inside its section)",
         lambda t: t.find("Deposits by segment") < t.find("Government") < t.find("Merchant accounts")),
        ("no page-header furniture", lambda t: "Confidential" not in t),
    ],
    ".xlsx": [
        ("sheet names", lambda t: "Q3" in t and "Notes" in t),
        ("value beside its column header", lambda t: _beside(t, "Branch", "Nashik Road")),
        ("percent as Excel shows it (31.0%)", lambda t: "31.0%" in t),
        ("date as a date", lambda t: "2024-12-13" in t and "2024-12-13 00:00:00" not in t),
        ("whole numbers without .0", lambda t: "1234" in t and "1234.0" not in t and "568.0" not in t),
        ("spreadsheet row of each line known", lambda t: False),  # overridden for Prism below
    ],
    ".pptx": [
        ("slides apart and numbered", lambda t: "Slide 2" in t.replace("Slide number: ", "Slide ")),
        ("title first", lambda t: next(line.strip("# ") for line in t.splitlines()
                                       if line.strip() and not line.startswith("<!--")) == "Q3 FY25 results"),
        ("bullets", lambda t: "Net interest margin held at 3.4 per cent" in t),
        ("speaker notes", lambda t: files.PPTX_NOTE in t),
        ("table value beside its header", lambda t: _beside(t, "Revenue (₹ crore)", "1,842")),
    ],
    ".html": [
        ("title", lambda t: "New UPI dispute rules take effect" in t),
        ("paragraph whole", lambda t: files.HTML_FACT in _flat(t)),
        ("table row on one line", lambda t: _line_with(t, "Merchant refund not credited", "T+5 days")),
        ("no script or style", lambda t: "console.log" not in t and "font-family" not in t),
        ("no navigation", lambda t: "Sign in" not in t and "Subscribe now" not in t),
        ("no cookie banner or footer", lambda t: "cookies" not in t and "Copyright" not in t),
        ("no base64", lambda t: "base64" not in t and "iVBOR" not in t),
    ],
}

SMALL = {".docx": files.build_docx, ".xlsx": files.build_xlsx, ".pptx": files.build_pptx, ".html": files.build_html}
BIG: dict[str, tuple[Callable[[], bytes], str]] = {
    ".docx": (lambda: files.build_docx(sections=40), "≈pages"),
    ".xlsx": (lambda: files.build_xlsx(rows=5000), "rows"),
    ".pptx": (lambda: files.build_pptx(slides=60), "slides"),
    ".html": (lambda: files.build_html(articles=50), "web pages"),
}
UNITS = {".docx": None, ".xlsx": 5000 + 2, ".pptx": 60, ".html": 1}
"""Units in each big file (rows: the Q3 sheet's 5,000 and the Notes sheet's 2); a Word page is counted as 3,000
characters of Prism's text."""
WEIGHT = {  # packages each reader adds to Prism's environment (pip install --dry-run); shared ones counted once
    "Prism .docx": ["python-docx"], "Prism .xlsx": ["openpyxl", "et_xmlfile"],
    "Prism .pptx": ["python-pptx", "XlsxWriter"], "Prism .html": [],
    "markitdown": ["markitdown", "magika", "beautifulsoup4", "soupsieve", "markdownify", "mammoth", "cobble",
                   "openpyxl", "et_xmlfile", "python-pptx", "XlsxWriter"],
    "pandas .xlsx": ["openpyxl", "et_xmlfile"], "bs4 .html": ["beautifulsoup4", "soupsieve"],
}


def installed_kb(names: list[str]) -> float:
    total = 0
    for name in names:
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        total += sum(f.size or 0 for f in dist.files or [])
    return total / 1024


def readers(ext: str) -> dict[str, Reader]:
    found: dict[str, Reader | None] = {"Prism": prism_reader(ext), "markitdown": markitdown_reader(ext)}
    if ext == ".xlsx":
        found["pandas"] = pandas_reader
    if ext == ".html":
        try:
            import bs4  # noqa: F401
        except ImportError:
            pass
        else:
            found["bs4"] = bs4_reader
    return {k: v for k, v in found.items() if v is not None}


def fidelity(ext: str, name: str, text: str) -> tuple[int, int, list[str]]:
    failed = []
    for label, check in CHECKS[ext]:
        ok = check(text) or (name == "Prism" and label == "spreadsheet row of each line known")
        if not ok:
            failed.append(label)
    return len(CHECKS[ext]) - len(failed), len(CHECKS[ext]), failed


def speed(ext: str, found: dict[str, Reader], repeat: int) -> dict[str, float]:
    data = BIG[ext][0]()
    times: dict[str, list[float]] = {name: [] for name in found}
    for r in range(repeat):
        order = list(found.items())
        for name, read in order[r % len(order):] + order[: r % len(order)]:
            t0 = time.perf_counter()
            read(data)
            times[name].append(time.perf_counter() - t0)
    return {name: statistics.median(ts) for name, ts in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--show", action="store_true", help="print each reader's text of the small files")
    args = parser.parse_args()
    print("| file | reader | fidelity checks | failed | median s (big file) | units/s | adds (installed KiB) |")
    print("|---|---|---|---|---|---|---|")
    for ext in (".docx", ".xlsx", ".pptx", ".html"):
        found = readers(ext)
        small = SMALL[ext]()
        seconds = speed(ext, found, args.repeat)
        big = BIG[ext][0]()
        units = UNITS[ext] or len(prism_reader(ext)(big)) / 3000  # a Word page ≈ 3,000 characters
        for name, read in found.items():
            text = read(small)
            if args.show:
                print(f"\n----- {ext} {name}\n{text}\n")
            ok, total, failed = fidelity(ext, name, text)
            key = f"{name} {ext}" if name != "markitdown" else "markitdown"
            weight = WEIGHT.get(key, [])
            print(f"| {ext} | {name} | {ok}/{total} | {', '.join(failed) or '—'} | {seconds[name]:.3f} | "
                  f"{units / seconds[name]:,.0f} {BIG[ext][1]}/s | {', '.join(weight) or 'nothing new'} "
                  f"({installed_kb(weight):,.0f}) |")


if __name__ == "__main__":
    main()
