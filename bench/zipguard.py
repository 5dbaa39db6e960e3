"""The ZIP guard's cost: how fast a decompression bomb is refused and what it takes in memory, and what the guard adds
to a real file's parse.

Each row runs in a fresh Python process (so the peak resident memory, ``ru_maxrss``, is that file's alone): the c60
case (a 747 KB DOCX whose ``word/document.xml`` inflates to 200 MB), a bomb built for XLSX (a 30 MiB sheet of spaces,
1,025 to 1) and for PPTX (110 MiB of comments in a slide), a lying header (a 5 MiB part declared as 2 KB), and, as the
guard's cost on real work, a 20,000-row workbook read whole, with the time of
``check_package`` alone beside it.

Usage: ``python bench/zipguard.py`` (prints a Markdown table; a run takes about a minute on 2 shared cores).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = r"""
import io, json, resource, sys, time, zipfile
sys.path.insert(0, sys.argv[1])
from prism.config import Settings
from prism.errors import PrismError
from prism.ingestion import parsing
from prism.ingestion.parsing.zipguard import check_package
path, name = sys.argv[2], sys.argv[3]
data = open(path, "rb").read()
settings = Settings(ocr_enabled=False)
t0 = time.perf_counter()
try:
    check_package(data, name, name[-5:], settings)
    guard = time.perf_counter() - t0
    t0 = time.perf_counter()
    doc = parsing.load(data, name, settings)
    verdict = f"read: {len(doc.pages)} page(s)"
except PrismError as exc:
    guard, verdict = time.perf_counter() - t0, "refused: " + str(exc).split(";")[0]
total = time.perf_counter() - t0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"guard_s": guard, "load_s": total, "rss_mb": rss, "verdict": verdict, "size_kb": len(data) / 1024}))
"""


def _files(folder: Path) -> list[tuple[str, Path]]:
    """The bench's inputs, built into ``folder`` with the test suite's builders."""
    sys.path.insert(0, str(ROOT))
    from tests.ingestion import office_files as files
    from tests.ingestion.parsing.test_zipguard import MIB, _declare_size, _rewrite

    sheet = b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/>'
    slide = b"<p:sld xmlns:p='http://schemas.openxmlformats.org/presentationml/2006/main'>"
    big = b"<w:document>" + b"<!-- padding -->" * (5 * MIB // 16) + b"</w:document>"
    built = {
        "bomb.xlsx": _rewrite(files.build_xlsx(), {"xl/worksheets/sheet1.xml": [sheet, *[b" " * MIB] * 30,
                                                                               b"</worksheet>"]}),
        "bomb.pptx": _rewrite(files.build_pptx(), {"ppt/slides/slide1.xml": [slide, *[b"<!---->" * (MIB // 7)] * 110,
                                                                            b"</p:sld>"]}),
        "lying_header.docx": _declare_size(_rewrite(files.build_docx(), {"word/document.xml": big}),
                                           "word/document.xml", 2_000),
        "rows_20k.xlsx": files.build_xlsx(rows=20_000),
    }
    out = [("c60_zipbomb.docx", ROOT / "tests" / "fixtures" / "cases" / "c60_zipbomb.docx")]
    for name, data in built.items():
        (folder / name).write_bytes(data)
        out.append((name, folder / name))
    return out


def main() -> None:
    """Print one row per file: size, guard seconds, whole load seconds, peak RSS, what happened."""
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for name, path in _files(Path(tmp)):
            run = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), str(path), name], capture_output=True,
                                 text=True, check=True)
            rows.append((name, json.loads(run.stdout.strip().splitlines()[-1])))
            print(f"{name}: done", file=sys.stderr)
    print("| file | size KB | guard s | load s (guard + parse) | peak RSS MB | result |")
    print("|---|---|---|---|---|---|")
    for name, r in rows:
        print(f"| {name} | {r['size_kb']:,.0f} | {r['guard_s']:.3f} | {r['load_s']:.3f} | {r['rss_mb']:,.0f} | "
              f"{r['verdict']} |")


if __name__ == "__main__":
    main()
