"""Grid exports head each column by the document's display title with its file name, and a title is
hostile text: one that starts with ``=`` is written as text in CSV and XLSX (OWASP "CSV Injection", case c62)."""

from __future__ import annotations

import csv
import io

import openpyxl
import pytest

from prism.types import CompareGrid, IngestItem
from tests.builders import HASH_NAME, PENSION_DISPLAY, hash_named_circular
from tests.conftest import offline_service

HOSTILE = "terms.md"
HOSTILE_TITLE = '=HYPERLINK("http://127.0.0.1:9/x","Pension terms")'
QUESTION = "What compensation is paid for delayed pension?"


@pytest.fixture(scope="module")
def exported(tmp_path_factory, embedder):
    folder = tmp_path_factory.mktemp("grid_docs")
    svc = offline_service(tmp_path_factory.mktemp("grid_home"), embedder, briefing_on_ingest=False)
    hostile = (f"# {HOSTILE_TITLE}\n\nPension arrears are credited within 30 days of the revision order.\n").encode()
    results = svc.ingest([IngestItem(hash_named_circular(folder)), IngestItem(hostile, HOSTILE)], "grid")
    assert [r.status for r in results] == ["ingested", "ingested"]
    docs = (HASH_NAME, HOSTILE)
    grid = CompareGrid("", "Pension", docs, (QUESTION,), tuple(svc.compare(list(docs), [QUESTION], "grid")))
    titles = svc.document_titles("grid")
    return svc, grid, titles


def test_titles_come_from_the_one_rule(exported):
    _svc, _grid, titles = exported
    assert titles == {HASH_NAME: PENSION_DISPLAY, HOSTILE: HOSTILE_TITLE}


def test_csv_headers_and_citations_name_the_title_and_no_header_is_a_formula(exported):
    svc, grid, titles = exported
    rows = list(csv.reader(io.StringIO(svc.export_grid(grid, "csv", titles).decode("utf-8-sig"), newline="")))
    assert rows[0] == ["question", f"{PENSION_DISPLAY} ({HASH_NAME})", f"'{HOSTILE_TITLE} ({HOSTILE})"]
    cell = rows[1][1]
    assert "8 % per annum" in cell and f"({PENSION_DISPLAY} p. 2)" in cell and HASH_NAME not in cell


def test_xlsx_and_markdown_headers(exported):
    svc, grid, titles = exported
    sheet = openpyxl.load_workbook(io.BytesIO(svc.export_grid(grid, "xlsx", titles))).active
    header = [c.value for c in sheet[1]]
    assert header == ["question", f"{PENSION_DISPLAY} ({HASH_NAME})", f"'{HOSTILE_TITLE} ({HOSTILE})"]
    assert all(c.data_type == "s" for row in sheet.iter_rows() for c in row)
    md = svc.export_grid(grid, "md", titles).decode()
    assert f"| question | {PENSION_DISPLAY} ({HASH_NAME}) |" in md
    # without titles the export is headed by file names, as before
    plain = list(csv.reader(io.StringIO(svc.export_grid(grid, "csv").decode("utf-8-sig"), newline="")))
    assert plain[0] == ["question", HASH_NAME, HOSTILE]
