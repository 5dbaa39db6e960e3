"""The one export sanitiser (prism.types.spreadsheets): OWASP CSV Injection triggers, numbers, XLSX string cells."""

from __future__ import annotations

import csv
import io
import math

import numpy as np
import openpyxl
import pytest

from prism.types import csv_bytes, spreadsheet_text, xlsx_bytes


@pytest.mark.parametrize(("value", "written"), [
    ("=1+1", "'=1+1"),
    ("+91 22 2266 0000", "'+91 22 2266 0000"),
    ("-5", "'-5"),
    ("@SUM(A1)", "'@SUM(A1)"),
    ("\t=cmd", "'\t=cmd"),
    ("\r=cmd", "'\r=cmd"),
    ("  =HYPERLINK(1)", "'  =HYPERLINK(1)"),
    ("\n@x", "'\n@x"),
    ("Rs. 4,750 crore", "Rs. 4,750 crore"),
    ("a=b", "a=b"),
    ("'quoted", "'quoted"),
    ("", ""),
    (None, ""),
    (-5, "'-5"),
])
def test_spreadsheet_text(value, written):
    assert spreadsheet_text(value) == written


def test_csv_keeps_genuine_numbers_numeric_and_neutralises_text():
    data = csv_bytes(["=head", "n"], [["-5", -0.25], ["@x", np.int64(-3)], ["ok", math.nan], [None, True]])
    assert data.startswith("\ufeff".encode())
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert rows == [["'=head", "n"], ["'-5", "-0.25"], ["'@x", "-3"], ["ok", ""], ["", "True"]]


def test_xlsx_every_cell_is_a_string():
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx_bytes("A" * 40, ["=h", "x"], [["=1+1", 7], ["-5", None]]))).active
    assert sheet.title == "A" * 31
    assert [[c.value for c in row] for row in sheet.iter_rows()] == [["'=h", "x"], ["'=1+1", "7"], ["'-5", None]]
    assert {c.data_type for row in sheet.iter_rows() for c in row if c.value is not None} == {"s"}
    assert sheet["A2"].quotePrefix and not sheet["B2"].quotePrefix and sheet["A1"].font.bold
