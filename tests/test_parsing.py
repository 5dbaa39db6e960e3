"""Tests of prism.ingestion.parsing on the shared bad-input cases, the hard PDFs, NPCI/RBI circulars and FinanceBench
filings.

Real files are read from ``../shared/data`` (never copied; those tests skip without it); the bad-input cases are
copied in ``tests/fixtures/cases``; other small fixtures are built in the tests. OCR tests are marked
``slow`` (about 3 s per page on two cores).
"""

from __future__ import annotations

import codecs
import json
import re
import socket
import threading
import time
import unicodedata
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pypdfium2 as pdfium
import pytest

from prism.config import Settings
from prism.errors import (
    CorruptDocumentError,
    DecodingError,
    EmptyFileError,
    EncryptedDocumentError,
    FetchError,
    FileTooLargeError,
    NoExtractableTextError,
    PrismError,
    UnsupportedFileError,
)
from prism.ingestion import parsing
from prism.ingestion.parsing import ocr
from prism.ingestion.parsing import pdf as pdf_module
from prism.ingestion.parsing.csv import sniff_delimiter
from prism.ingestion.parsing.normalize import normalize_report, normalize_text, repair_ligature_nuls
from prism.ingestion.parsing.text import decode_bytes
from prism.ingestion.parsing.url import strip_tags
from prism.types import Page, SkippedPage

from .conftest import CASES, DATA, needs_data

HARD = DATA / "hard-pdfs"
NPCI = DATA / "npci" / "pdfs"
RBI = DATA / "rbi" / "pdfs"
FINANCEBENCH = DATA / "financebench-dev"

NO_OCR = Settings(ocr_enabled=False)
WITH_OCR = Settings(ocr_enabled=True)


def _texts(doc) -> dict[int | None, str]:
    return {p.number: p.text for p in doc.pages}


# --- normalize_text ------------------------------------------------------------------------------------------------


def test_normalize_ligature_codepoints_become_letters():
    assert normalize_text("The O\ufb03ce \ufb01nance team, cash \ufb02ow. Di\ufb00erent") == (
        "The Office finance team, cash flow. Different"
    )


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("shut o\x00 the o\x00ce", "shut off the office"),  # what pypdf extracts from case 05b
        ("the \x00nance team", "the finance team"),
        ("net cash \x00ow", "net cash flow"),
        ("a di\x00erent e\x00ective rate", "a different effective rate"),
        ("operating pro\x00t and bene\x00ts", "operating profit and benefits"),
        ("e\x00cient tra\x00c O\x00cer", "efficient traffic Officer"),
        ("sta\x00 in\x00ation", "staff inflation"),
    ],
)
def test_normalize_nul_ligatures_are_repaired(raw, expected):
    assert normalize_text(raw) == expected


def test_normalize_nul_not_in_a_word_or_dense_is_dropped():
    assert normalize_text("a \x00 b") == "a b"
    # UTF-16 read as 8-bit: NULs are half the text, so they are not ligatures
    assert normalize_text("h\x00e\x00l\x00l\x00o\x00") == "hello"
    assert repair_ligature_nuls("h\x00e\x00l\x00l\x00o\x00") == ("h\x00e\x00l\x00l\x00o\x00", 0)
    assert repair_ligature_nuls("shut o\x00 the o\x00ce ") == ("shut off the office ", 2)


def test_normalize_surrogates():
    assert normalize_text("great service \ud800 thanks") == "great service thanks"
    assert normalize_text("lone low \udc00 too") == "lone low too"
    assert normalize_text("pair \ud83d\ude00 joined") == "pair \U0001f600 joined"


def test_normalize_keeps_currency_and_devanagari():
    assert normalize_text("Fee: ₹1,250 (approx. €14)") == "Fee: ₹1,250 (approx. €14)"
    hindi = unicodedata.normalize("NFC", "भारतीय रिज़र्व बैंक")
    assert normalize_text(hindi) == hindi
    # the precomposed nukta letter U+095B (a composition exclusion) comes out in its canonical form, same meaning
    precomposed = "रि\u095bर्व"
    assert normalize_text(precomposed) == unicodedata.normalize("NFC", precomposed) == "रि\u091c\u093cर्व"
    assert normalize_text("क\u200dष") == "क\u200dष"  # ZWJ kept: it shapes Indic conjuncts


def test_normalize_control_whitespace_and_newlines():
    assert normalize_text("a\x01b\x07c\x7fd") == "abcd"
    assert normalize_text("col1\t\tcol2   col3") == "col1 col2 col3"
    assert normalize_text("line one  \r\nline two\rline three") == "line one\nline two\nline three"
    assert normalize_text("para 1\n\n\n\n\npara 2\n \n \n \npara 3") == "para 1\n\npara 2\n\npara 3"
    assert normalize_text("  \n lead and trail \n  ") == "lead and trail"
    assert normalize_text("finan\u00adcial\u200b report\ufeff") == "financial report"
    assert normalize_text("a\u00a0b\u3000c") == "a b c"
    assert normalize_text("") == ""
    assert normalize_text("\x00\x01 \t\n") == ""


def test_normalize_counts_replacement_characters():
    report = normalize_report("bad \ufffd\ufffd bytes")
    assert report.text == "bad bytes"
    assert report.replacement_chars == 2
    assert normalize_report("shut o\x00 the o\x00ce").ligatures_repaired == 2


def test_normalize_is_idempotent():
    raw = "The O\ufb03ce\x00 \r\n\r\n\r\n₹1,250\t\ufffd \ud800 भारतीय"
    once = normalize_text(raw)
    assert normalize_text(once) == once


# --- sanitize_filename ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("../../etc/passwd", "passwd"),
        ("a\x00b.pdf", "ab.pdf"),
        ("C:\\x\\y.txt", "y.txt"),
        ("..\\..\\windows\\win.ini", "win.ini"),
        ("/abs/path/report.csv", "report.csv"),
        (".hidden.txt", "hidden.txt"),
        ("report..pdf", "report.pdf"),
        ("..", "document"),
        ("", "document"),
        ("   ", "document"),
        ("dir/", "document"),
        ("  Q3 results.pdf \n", "Q3 results.pdf"),
        ("invoice\u202efdp.txt", "invoicefdp.txt"),
        ("line\nbreak\r.txt", "linebreak.txt"),
        ("रिपोर्ट ₹.pdf", "रिपोर्ट ₹.pdf"),
    ],
)
def test_sanitize_filename_hostile_names(name, expected):
    assert parsing.sanitize_filename(name) == expected


def test_sanitize_filename_caps_length_keeping_extension():
    out = parsing.sanitize_filename("x" * 400 + ".pdf")
    assert len(out) == 255
    assert out.endswith("xxx.pdf")
    assert len(parsing.sanitize_filename("y" * 400)) == 255


@pytest.mark.parametrize("name", ["../../etc/passwd", "a\x00b.pdf", "C:\\x\\y.txt", "....//....//x", "\x00\x01"])
def test_sanitize_filename_is_always_safe(name):
    out = parsing.sanitize_filename(name)
    assert out and len(out) <= 255
    assert "/" not in out and "\\" not in out and ".." not in out
    assert not out.startswith(".")
    assert all(unicodedata.category(ch) != "Cc" for ch in out)


# --- load(): dispatch, size, names ---------------------------------------------------------------------------------


def test_load_bytes_need_a_filename():
    with pytest.raises(ValueError, match="filename is required"):
        parsing.load(b"hello")


def test_load_empty_bytes_and_paths(tmp_path):
    with pytest.raises(EmptyFileError, match=r"^notes\.txt is empty \(0 bytes\)$"):
        parsing.load(b"", "notes.txt", NO_OCR)
    (tmp_path / "empty.pdf").write_bytes(b"")  # as hard-pdfs/empty.pdf: a 0-byte file
    with pytest.raises(EmptyFileError, match=r"^empty\.pdf is empty \(0 bytes\)$"):
        parsing.load(tmp_path / "empty.pdf", settings=NO_OCR)


def test_load_too_large(tmp_path):
    small = Settings(max_upload_mb=1, ocr_enabled=False)
    data = b"a" * (1024 * 1024 + 1)
    with pytest.raises(FileTooLargeError, match=r"big\.txt is 1\.0 MB, over the 1 MB upload limit"):
        parsing.load(data, "big.txt", small)
    path = tmp_path / "big2.txt"
    path.write_bytes(b"b" * (3 * 1024 * 1024))
    with pytest.raises(FileTooLargeError, match=r"big2\.txt is 3\.0 MB, over the 1 MB upload limit"):
        parsing.load(path, settings=small)
    assert parsing.load(b"a" * (1024 * 1024), "fits.txt", small).pages[0].text == "a" * (1024 * 1024)


def test_load_sniffs_pdf_bytes_under_a_text_name():
    doc = parsing.load((CASES / "33_a_three_pages.pdf").read_bytes(), "notes.txt", NO_OCR)
    assert doc.kind == "pdf" and doc.total_pages == 3 and doc.source == "notes.txt"


def test_load_pdf_extension_without_pdf_header():
    with pytest.raises(CorruptDocumentError, match=r"^fake\.pdf is not a valid PDF"):
        parsing.load(b"just some text, not a PDF", "fake.pdf", NO_OCR)


def test_load_broken_pdf():
    data = (CASES / "33_a_three_pages.pdf").read_bytes()
    with pytest.raises(CorruptDocumentError, match=r"^cut\.pdf is damaged"):
        parsing.load(data[:1000], "cut.pdf", NO_OCR)


def test_load_unsupported_types():
    with pytest.raises(UnsupportedFileError, match=r"^report\.docx is not a supported file type.*\.pdf, \.txt"):
        parsing.load(b"PK\x03\x04rest", "report.docx", NO_OCR)
    with pytest.raises(UnsupportedFileError, match=r"^noext is not a supported file type"):
        parsing.load(b"plain words", "noext", NO_OCR)
    with pytest.raises(UnsupportedFileError, match=r"^table\.csv is a ZIP / Office"):
        parsing.load(b"PK\x03\x04\x14\x00\x06\x00", "table.csv", NO_OCR)


def test_load_path_str_and_sanitised_names(tmp_path):
    path = tmp_path / "memo.md"
    path.write_text("# Memo\n\nThe repo rate is 6.50 per cent.", encoding="utf-8")
    doc = parsing.load(str(path), settings=NO_OCR)
    assert (doc.source, doc.kind, doc.total_pages) == ("memo.md", "txt", 0)
    assert doc.pages == (Page(None, "# Memo\n\nThe repo rate is 6.50 per cent."),)
    assert parsing.load(b"hello world", "../../x/a\x00b.txt", NO_OCR).source == "ab.txt"
    assert parsing.load(path, "C:\\Users\\me\\renamed.txt", NO_OCR).source == "renamed.txt"


def test_load_missing_path_is_a_prism_error(tmp_path):
    with pytest.raises(PrismError, match=r"^nope\.pdf could not be read"):
        parsing.load(tmp_path / "nope.pdf", settings=NO_OCR)


# --- text files ----------------------------------------------------------------------------------------------------


def test_decode_gb2312():
    text, encoding = decode_bytes((CASES / "28_gb2312.txt").read_bytes(), "28_gb2312.txt")
    assert text == "退款政策：客户可以在购买后三十天内申请退款。\n"
    assert encoding == "gb18030"  # the superset of GB2312
    doc = parsing.load(CASES / "28_gb2312.txt", settings=NO_OCR)
    assert doc.pages[0].text == "退款政策:客户可以在购买后三十天内申请退款。"  # NFKC: full-width colon → ':'
    assert doc.warnings == ("28_gb2312.txt: text encoding detected as gb18030",)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (codecs.BOM_UTF8 + "₹ café".encode(), ("₹ café", "utf-8")),
        (codecs.BOM_UTF16_LE + "₹ café".encode("utf-16-le"), ("₹ café", "utf-16-le")),
        (codecs.BOM_UTF16_BE + "₹ café".encode("utf-16-be"), ("₹ café", "utf-16-be")),
        (codecs.BOM_UTF32_LE + "₹ café".encode("utf-32-le"), ("₹ café", "utf-32-le")),
        ("plain ₹ text".encode(), ("plain ₹ text", "utf-8")),
        ("no BOM utf16 text".encode("utf-16-le"), ("no BOM utf16 text", "utf-16-le")),
        ("Tea – café “special” €4".encode("cp1252"), ("Tea – café “special” €4", "cp1252")),
        (b"", ("", "utf-8")),
    ],
)
def test_decode_bytes(data, expected):
    assert decode_bytes(data, "f.txt") == expected


def test_decode_undecodable_and_binary():
    with pytest.raises(DecodingError, match=r"^blob\.txt "):
        decode_bytes(bytes(range(256)) * 4, "blob.txt")
    with pytest.raises(DecodingError, match=r"^bad\.txt could not be decoded as utf-16-le"):
        decode_bytes(codecs.BOM_UTF16_LE + b"abc", "bad.txt")
    with pytest.raises(DecodingError, match="binary"):
        decode_bytes(b"\x00\x01\x02\x03abc\x04\x05\x06" * 10, "bin.txt")


def test_text_cases_load_unpaged():
    doc = parsing.load(CASES / "14_txt_without_page_numbers.txt", settings=NO_OCR)
    assert (doc.kind, doc.total_pages, doc.skipped_pages, doc.warnings, doc.paged) == ("txt", 0, (), (), False)
    assert doc.pages == (Page(None, "Plain text notes. The meeting is on Tuesday."),)
    assert _texts(parsing.load(CASES / "12_policy_v2.txt", settings=NO_OCR))[None] == (
        "Refund policy v2.\n\nCustomers may request a refund within 30 days of purchase."
    )
    assert "7734-ALPHA" in parsing.load(CASES / "19_fact_after_256_wordpieces.txt", settings=NO_OCR).pages[0].text
    assert "15 euros" in parsing.load(CASES / "33_b_notes_without_pages.txt", settings=NO_OCR).pages[0].text
    assert "8:00-16:00" in parsing.load(CASES / "35_test02.txt", settings=NO_OCR).pages[0].text
    assert "9:00-17:00" in parsing.load(CASES / "35_test01.txt", settings=NO_OCR).pages[0].text
    text = parsing.load(CASES / "13_repeated_boilerplate_paragraph.txt", settings=NO_OCR).pages[0].text
    assert text.count("Confidential - do not distribute.") == 3


def test_punctuation_only_text_has_no_indexable_text():
    with pytest.raises(NoExtractableTextError, match=r"^16_punctuation_only\.txt has no indexable text"):
        parsing.load(CASES / "16_punctuation_only.txt", settings=NO_OCR)
    with pytest.raises(NoExtractableTextError, match="no indexable text"):
        parsing.load(b" \n\t \n", "blank.txt", NO_OCR)


def test_text_replacement_characters_are_removed_with_a_warning():
    doc = parsing.load("total \ufffd 42".encode(), "r.txt", NO_OCR)
    assert doc.pages[0].text == "total 42"
    assert doc.warnings == ("r.txt: 1 unreadable characters (U+FFFD) were removed",)


# --- CSV -----------------------------------------------------------------------------------------------------------


def test_csv_encodings():
    cp1252 = parsing.load(CASES / "28b_cp1252.csv", settings=NO_OCR)
    assert cp1252.kind == "csv" and cp1252.total_pages == 0
    assert cp1252.pages[0].text == (
        "item: Tea – green; price: €4; note: café “special”\n\nitem: Coffee; price: €3; note: naïve"
    )
    assert cp1252.warnings == ("28b_cp1252.csv: text encoding detected as cp1252",)
    utf16 = parsing.load(CASES / "28c_utf16le_bom_rupee.csv", settings=NO_OCR)
    utf8 = parsing.load(CASES / "28d_utf8_rupee.csv", settings=NO_OCR)
    assert utf16.pages[0].text == utf8.pages[0].text == "item: Tea; price: ₹120\n\nitem: Coffee; price: ₹90"
    assert utf8.warnings == ()
    for doc in (cp1252, utf16, utf8):
        assert "\ufffd" not in doc.pages[0].text


def test_csv_semicolons_with_commas_in_fields():
    doc = parsing.load(CASES / "30_semicolon_with_commas_in_fields.csv", settings=NO_OCR)
    rows = doc.pages[0].text.split("\n\n")
    assert len(rows) == 4
    assert rows[0] == (
        "id: 1; has_data: False; is_sort: False; cost: 62.25; group: ['345']; sub_group: ['10']; merge: UNKNOWN"
    )
    assert rows[2] == (
        "id: 3; has_data: False; is_sort: False; cost: 46.50; group: ['112', '112']; sub_group: ['765', '766']; "
        "merge: UNKNOWN"
    )


@pytest.mark.parametrize(
    ("text", "delimiter"),
    [
        ("a,b,c\n1,2,3\n", ","),
        ("a;b\n1,5;2\n3,5;4\n", ";"),
        ("a\tb\n1\t2\n", "\t"),
        ("a|b|c\n1|2|3\n", "|"),
        ('name,note\n"Smith; J",ok\n"Roe; K",fine\n', ","),
        ("single\nvalue\n", ","),
    ],
)
def test_sniff_delimiter(text, delimiter):
    assert sniff_delimiter(text) == delimiter


def test_csv_inconsistent_fields_name_the_line():
    with pytest.raises(CorruptDocumentError, match=r"^bad\.csv is not a consistent CSV: line 3 has 4 fields"):
        parsing.load(b"a,b,c\n1,2,3\n4,5,6,7\n8,9,10\n", "bad.csv", NO_OCR)
    with pytest.raises(CorruptDocumentError, match=r"^quote\.csv could not be read as CSV"):
        parsing.load(b'a,b\n1,2\n"open,3\n', "quote.csv", NO_OCR)


def test_csv_long_cells_are_split_not_rejected():
    settings = Settings(csv_max_cell_chars=50, ocr_enabled=False)
    note = " ".join(f"word{i:02d}" for i in range(20))  # 139 characters
    doc = parsing.load(f"id,note,amount\n1,{note},₹5\n".encode(), "long.csv", settings)
    lines = doc.pages[0].text.split("\n")
    assert lines[0] == "id: 1"
    assert [line.split(": ", 1)[0] for line in lines[1:-1]] == [
        "note (part 1 of 3)",
        "note (part 2 of 3)",
        "note (part 3 of 3)",
    ]
    pieces = [line.split(": ", 1)[1] for line in lines[1:-1]]
    assert all(len(p) <= 50 for p in pieces)
    assert " ".join(pieces) == note
    assert lines[-1] == "amount: ₹5"


def test_csv_headers_rows_and_special_forms():
    doc = parsing.load(b"sep=;\nx;;z\n1;2;\n\n;;\n", "excel.csv", NO_OCR)
    assert doc.pages[0].text == "x: 1; column 2: 2"  # empty header named, empty cells and blank rows left out
    tsv = parsing.load(b"Bank\tRate\nSBI\t6.5%\n", "rates.csv", NO_OCR)
    assert tsv.pages[0].text == "Bank: SBI; Rate: 6.5%"
    with pytest.raises(NoExtractableTextError, match=r"^header\.csv has no indexable text \(a header but no data rows"):
        parsing.load(b"a,b,c\n", "header.csv", NO_OCR)
    with pytest.raises(NoExtractableTextError, match="no indexable text"):
        parsing.load(b"a,b\n-,--\n", "dash.csv", NO_OCR)


# --- PDF: shared cases ---------------------------------------------------------------------------------------------


def test_pdf_aes_with_empty_password_opens():
    doc = parsing.load(CASES / "01_aes256_empty_user_password.pdf", settings=NO_OCR)
    assert doc.total_pages == 2
    assert doc.pages == (
        Page(1, "Quarterly report: revenue grew 12 percent."),
        Page(2, "Page two: costs fell 3 percent."),
    )


@pytest.mark.parametrize("path", [CASES / "01b_aes256_user_password_secret.pdf",
                                  pytest.param(HARD / "health_protected.pdf", marks=needs_data)])
def test_pdf_with_password_is_rejected(path):
    with pytest.raises(EncryptedDocumentError, match=rf"^{re.escape(path.name)} is a password-protected PDF; remove"):
        parsing.load(path, settings=NO_OCR)


def test_pdf_page_without_text_layer_is_skipped():
    doc = parsing.load(CASES / "04_page2_has_no_text_layer.pdf", settings=NO_OCR)
    assert doc.total_pages == 2
    assert doc.pages == (Page(1, "Page one: the warranty period is 24 months."),)
    assert doc.skipped_pages == (SkippedPage(2, "no extractable text (no text layer; OCR is turned off)"),)


@pytest.mark.slow
def test_pdf_page_without_text_layer_is_skipped_after_ocr_finds_nothing():
    doc = parsing.load(CASES / "04_page2_has_no_text_layer.pdf", settings=WITH_OCR)
    assert [p.number for p in doc.pages] == [1]
    assert doc.skipped_pages == (SkippedPage(2, "no extractable text (no text layer; OCR found no text)"),)
    assert doc.ocr_pages == []


def test_pdf_single_blank_page():
    with pytest.raises(
        NoExtractableTextError,
        match=r"^04b_single_blank_page\.pdf has no extractable text \(1 page checked: no text layer; OCR is turned off",
    ):
        parsing.load(CASES / "04b_single_blank_page.pdf", settings=NO_OCR)


def test_pdf_ligature_codepoints_and_rupee():
    text = parsing.load(CASES / "05_ligature_codepoints_and_rupee.pdf", settings=NO_OCR).pages[0].text
    assert text == (
        "The Office finance team reviewed the cash flow.\nFee: ₹1,250 (approx. €14). Different effective rates apply."
    )


def test_pdf_ligatures_mapped_to_nul():
    doc = parsing.load(CASES / "05b_ligatures_mapped_to_NUL.pdf", settings=NO_OCR)
    assert doc.pages == (Page(1, "shut off the office"),)
    assert doc.warnings == (
        "05b_ligatures_mapped_to_NUL.pdf: characters the PDF maps to NUL were read as ligatures (fi/ff/fl) on page 1",
    )


def test_pdf_lone_surrogate_is_cleaned():
    doc = parsing.load(CASES / "06_tounicode_lone_surrogate.pdf", settings=NO_OCR)
    assert doc.pages == (Page(1, "great service thanks"),)
    doc.pages[0].text.encode("utf-8")  # would raise on a surrogate


def test_pdf_pages_are_physical_and_one_based():
    doc = parsing.load(CASES / "33_a_three_pages.pdf", settings=NO_OCR)
    assert [(p.number, p.text[:8]) for p in doc.pages] == [(1, "[Page 7]"), (2, "[Page 8]"), (3, "[Page 9]")]


# --- PDF: hard PDFs ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "total", "numbers", "phrase_page", "phrase"),
    [
        ("assam.pdf", 1, [1], 1, "Annual Health Survey 2010-11"),
        ("budget.pdf", 1, [1], 1, "Budget Provisions, net of receipts and recoveries"),
        ("diesel_engines.pdf", 23, list(range(1, 24)), 23, "70 Bureau Veritas January 2020"),
        ("federal-register-2020-17221.pdf", 15, list(range(1, 16)), 1, "FEDERAL REGISTER"),
        ("multiple_tables.pdf", 1, [1], 1, "Ghfhbdhj"),
        ("scotus-transcript-p1.pdf", 1, [1], 1, "Supreme Court of the United States"),
        ("senate-expenditures.pdf", 1, [1], 1, "PAYEE NAME"),
    ],
)
@needs_data
def test_hard_pdfs_with_text(name, total, numbers, phrase_page, phrase):
    doc = parsing.load(HARD / name, settings=NO_OCR)
    assert (doc.source, doc.kind, doc.total_pages) == (name, "pdf", total)
    assert [p.number for p in doc.pages] == numbers
    assert doc.skipped_pages == ()
    assert phrase in _texts(doc)[phrase_page]
    assert all(p.text and not p.ocr for p in doc.pages)


@needs_data
def test_hard_pdf_only_page_number_is_not_a_page_of_text():
    with pytest.raises(NoExtractableTextError, match=r"text layer has only '13'; OCR is turned off"):
        parsing.load(HARD / "only_page_number.pdf", settings=NO_OCR)


@needs_data
def test_hard_pdf_image_without_ocr():
    with pytest.raises(NoExtractableTextError, match=r"^image\.pdf has no extractable text .*OCR is turned off"):
        parsing.load(HARD / "image.pdf", settings=NO_OCR)
    limited = Settings(ocr_enabled=True, ocr_max_pages=0)
    with pytest.raises(NoExtractableTextError, match=r"OCR limit of 0 pages reached"):
        parsing.load(HARD / "image.pdf", settings=limited)


@needs_data
def test_hard_pdf_image_when_ocr_is_unavailable(monkeypatch):
    monkeypatch.setattr(ocr, "_engine", None)
    monkeypatch.setattr(ocr, "_engine_error", "rapidocr-onnxruntime is not installed (test)")
    with pytest.raises(NoExtractableTextError, match=r"no text layer \(OCR unavailable: rapidocr-onnxruntime is not"):
        parsing.load(HARD / "image.pdf", settings=WITH_OCR)
    doc = parsing.load(CASES / "04_page2_has_no_text_layer.pdf", settings=WITH_OCR)
    assert doc.skipped_pages == (
        SkippedPage(2, "no text layer (OCR unavailable: rapidocr-onnxruntime is not installed (test))"),
    )
    assert doc.warnings[-1].startswith("04_page2_has_no_text_layer.pdf: pages without a text layer were skipped")


# --- PDF: page budgets ---------------------------------------------------------------------------------------------


def test_pdf_page_over_time_budget_is_skipped(monkeypatch):
    real = pdf_module._extract

    def slow_on_page_2(reader, index, **kwargs):
        if index == 1:
            time.sleep(1.0)
        return real(reader, index, **kwargs)

    monkeypatch.setattr(pdf_module, "_extract", slow_on_page_2)
    settings = Settings(pdf_page_timeout_s=0.2, ocr_enabled=False)
    doc = parsing.load(CASES / "33_a_three_pages.pdf", settings=settings)
    assert [p.number for p in doc.pages] == [1, 3]
    assert doc.skipped_pages == (SkippedPage(2, "text extraction took longer than 0.2 s"),)


def test_pdf_stops_after_too_many_timed_out_pages(monkeypatch):
    monkeypatch.setattr(pdf_module, "MAX_TIMED_OUT_PAGES", 1)
    monkeypatch.setattr(pdf_module, "_extract", lambda reader, index, **kwargs: time.sleep(0.5) or "never used")
    settings = Settings(pdf_page_timeout_s=0.1, ocr_enabled=False)
    with pytest.raises(NoExtractableTextError, match=r"took longer than 0\.1 s; not read: 1 earlier pages"):
        parsing.load(CASES / "33_a_three_pages.pdf", settings=settings)


def test_pdf_page_that_raises_is_skipped(monkeypatch):
    real = pdf_module._extract

    def broken_page_1(reader, index, **kwargs):
        if index == 0:
            raise KeyError("/Contents")
        return real(reader, index, **kwargs)

    monkeypatch.setattr(pdf_module, "_extract", broken_page_1)
    doc = parsing.load(CASES / "33_a_three_pages.pdf", settings=NO_OCR)
    assert [p.number for p in doc.pages] == [2, 3]
    assert doc.skipped_pages == (SkippedPage(1, "text extraction failed (KeyError: '/Contents')"),)


@needs_data
def test_pdf_page_over_size_budget_is_skipped():
    settings = Settings(pdf_page_max_chars=1000, ocr_enabled=False)
    doc = parsing.load(HARD / "federal-register-2020-17221.pdf", settings=settings)
    assert [p.number for p in doc.pages] == [7, 8, 9, 10, 11, 12, 13]
    assert [s.number for s in doc.skipped_pages] == [1, 2, 3, 4, 5, 6, 14, 15]
    assert doc.skipped_pages[0].reason.startswith("page text is implausibly long (6,")


def test_ocr_lines_in_reading_order():
    def box(x0, y0, x1, y1):
        return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]

    result = [
        [box(300, 12, 400, 32), "rate 6.5%", 0.9],
        [box(10, 60, 120, 80), "Second line", 0.9],
        [box(10, 10, 200, 30), "Repo", 0.9],
        [box(130, 62, 200, 81), "continues", 0.9],
        [box(10, 100, 50, 120), "  ", 0.9],
    ]
    assert ocr._lines_in_reading_order(result) == ["Repo rate 6.5%", "Second line continues"]


# --- NPCI circulars ------------------------------------------------------------------------------------------------


@needs_data
def test_npci_zero_byte_pdf():
    name = "RuPay-I-OC022-I-FY-23-24-I-RuPay-Credit-Card-Transaction-limit-for-linked-RuPay-Credit-Card-on-UPI.pdf"
    with pytest.raises(EmptyFileError, match=r"is empty \(0 bytes\)$"):
        parsing.load(NPCI / name, settings=NO_OCR)


@needs_data
def test_npci_text_pdf_with_empty_second_page():
    doc = parsing.load(NPCI / "UPI OC34-MCC Standardisation.pdf", settings=NO_OCR)
    assert doc.total_pages == 2
    assert [p.number for p in doc.pages] == [1]
    assert "NPCI/UPI/OC No. 34/2017-18" in doc.pages[0].text
    assert [s.number for s in doc.skipped_pages] == [2]


@needs_data
@pytest.mark.slow
def test_npci_scanned_pdf_is_read_by_ocr():
    t0 = time.perf_counter()
    doc = parsing.load(NPCI / "Circular-74-UPI_Compliance_guidelines.pdf", settings=WITH_OCR)
    seconds = time.perf_counter() - t0
    assert doc.total_pages == 1 and doc.ocr_pages == [1] and doc.pages[0].ocr
    text = doc.pages[0].text
    for word in ("UPI Compliance Guidelines", "All Member Banks", "Unified Payments Interface (UPI)", "NPCI/UPI/"):
        assert word in text
    assert doc.warnings == (
        "Circular-74-UPI_Compliance_guidelines.pdf: page 1 read by OCR (no text layer); check figures against the "
        "original",
    )
    assert seconds < 60


# --- page numbers against independent references -------------------------------------------------------------------


@needs_data
def test_rbi_phrase_is_on_the_right_page():
    path = RBI / "NT7871494C59CE3B455BBD0D18770BBB1408.pdf"
    phrase = "Submission of Balance Sheet"
    doc = parsing.load(path, settings=NO_OCR)
    assert doc.total_pages == 4
    assert [p.number for p in doc.pages if phrase in p.text] == [3]
    # pdfium, an independent extractor, agrees (0-based index 2 = page 3)
    reference = pdfium.PdfDocument(str(path))
    try:
        found = [i + 1 for i in range(len(reference)) if phrase in reference[i].get_textpage().get_text_range()]
    finally:
        reference.close()
    assert found == [3]


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9][a-z0-9,.]*[a-z0-9]", text.lower()) if len(w) >= 4}


@needs_data
@pytest.mark.parametrize("doc_name", ["FOOTLOCKER_2022_8K_dated_2022-08-19", "NETFLIX_2015_10K"])
def test_financebench_evidence_is_on_page_plus_one(doc_name):
    evidence = [
        e
        for line in (FINANCEBENCH / "questions.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
        for e in json.loads(line)["evidence"]
        if e["doc_name"] == doc_name
    ]
    assert evidence
    doc = parsing.load(FINANCEBENCH / "pdfs" / f"{doc_name}.pdf", settings=NO_OCR)
    pages = _texts(doc)
    for item in evidence:
        wanted = _words(item["text"])
        overlap = {n: len(wanted & _words(t)) / len(wanted) for n, t in pages.items()}
        best = max(overlap, key=overlap.get)
        assert best == item["page"] + 1, (best, item["page"])
        assert overlap[best] > 0.8
    if doc_name.startswith("FOOTLOCKER"):
        assert "Mary N. Dillon, 61" in pages[2]
    else:
        assert "6,779,511" in pages[40] and "CONSOLIDATED STATEMENTS OF" in pages[40]


# --- URLs ----------------------------------------------------------------------------------------------------------

ARTICLE = """<!doctype html><html><head><title>RBI keeps repo rate</title><style>p{color:red}</style>
<script>var tracking = "do not index";</script></head>
<body><nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>RBI keeps repo rate unchanged at 6.50 per cent</h1>
<p>The Monetary Policy Committee of the Reserve Bank of India voted to keep the policy repo rate unchanged at
6.50 per cent, citing persistent food inflation and steady growth in the current financial year.</p>
<p>The standing deposit facility rate remains at 6.25 per cent and the marginal standing facility rate and the
Bank Rate at 6.75 per cent. The committee will meet again in the second week of the next quarter.</p>
</article><footer>Copyright 2024 Example News</footer></body></html>"""


class _Handler(BaseHTTPRequestHandler):
    pdf_bytes = b""

    def log_message(self, *args):  # keep test output quiet
        pass

    def _send(self, status: int, body: bytes, content_type: str | None) -> None:
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (time-out test)
            pass

    def do_GET(self):  # noqa: N802 (http.server's name)
        routes = {
            "/article.html": (200, ARTICLE.encode("utf-8"), "text/html; charset=utf-8"),
            "/notes.txt": (200, "Fee ₹1,250 per quarter.".encode(), "text/plain; charset=utf-8"),
            "/latin.txt": (200, "Café fee €4".encode("cp1252"), "text/plain; charset=windows-1252"),
            "/rates.csv": (200, b"bank,rate\nSBI,6.5%\n", "text/csv"),
            "/doc.pdf": (200, self.pdf_bytes, "application/pdf"),
            "/untyped-pdf": (200, self.pdf_bytes, None),
            "/image.png": (200, b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "image/png"),
            "/blank.html": (200, b"<html><body><script>x=1</script>  </body></html>", "text/html"),
            "/empty": (200, b"", "text/plain"),
            "/big.txt": (200, b"a" * 5000, "text/plain"),
        }
        if self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/notes.txt")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if self.path == "/slow":
            time.sleep(2.0)
        status, body, content_type = routes.get(self.path, (404, b"not found", "text/plain"))
        self._send(status, body, content_type)


@pytest.fixture(scope="module")
def server():
    _Handler.pdf_bytes = (CASES / "33_a_three_pages.pdf").read_bytes()
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(autouse=True)
def _no_proxies(monkeypatch):
    for key in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(key, raising=False)


def test_url_html_main_text(server):
    url = f"{server}/article.html"
    doc = parsing.load(url, settings=NO_OCR)
    assert (doc.source, doc.kind, doc.total_pages, doc.paged) == (url, "url", 0, False)
    assert len(doc.pages) == 1 and doc.pages[0].number is None
    text = doc.pages[0].text
    assert "keep the policy repo rate unchanged at 6.50 per cent" in text
    assert "Bank Rate at 6.75 per cent" in text
    assert "<p>" not in text and "tracking" not in text and "color:red" not in text


def test_url_text_csv_redirect_and_bytes(server):
    assert parsing.load(f"{server}/notes.txt", settings=NO_OCR).pages[0].text == "Fee ₹1,250 per quarter."
    assert parsing.load(f"{server}/latin.txt", settings=NO_OCR).pages[0].text == "Café fee €4"
    redirected = parsing.load(f"{server}/redirect", settings=NO_OCR)
    assert redirected.source == f"{server}/redirect"
    assert redirected.pages[0].text == "Fee ₹1,250 per quarter."
    csv_doc = parsing.load(f"{server}/rates.csv", settings=NO_OCR)
    assert (csv_doc.kind, csv_doc.pages[0].text) == ("url", "bank: SBI; rate: 6.5%")
    doc, data = parsing.load_url_with_bytes(f"{server}/notes.txt", NO_OCR)
    assert data == "Fee ₹1,250 per quarter.".encode()
    assert doc.source == f"{server}/notes.txt"


@pytest.mark.parametrize("path", ["/doc.pdf", "/untyped-pdf"])
def test_url_pdf_keeps_pages(server, path):
    doc = parsing.load(f"{server}{path}", settings=NO_OCR)
    assert (doc.kind, doc.source, doc.total_pages) == ("pdf", f"{server}{path}", 3)
    assert [p.number for p in doc.pages] == [1, 2, 3]


def test_url_errors(server):
    with pytest.raises(FetchError, match=r"^Could not fetch URL: .*/missing \(HTTP 404 Not Found\)$"):
        parsing.load(f"{server}/missing", settings=NO_OCR)
    with pytest.raises(FetchError, match=r"content type image/png is not a web page, text or PDF"):
        parsing.load(f"{server}/image.png", settings=NO_OCR)
    with pytest.raises(FetchError, match=r"the server sent an empty page"):
        parsing.load(f"{server}/empty", settings=NO_OCR)
    with pytest.raises(FetchError, match=r"the page is 5,000 bytes; the limit is 1,024 bytes"):
        parsing.load(f"{server}/big.txt", settings=Settings(url_max_bytes=1024, ocr_enabled=False))
    with pytest.raises(NoExtractableTextError, match=r"blank\.html has no extractable text"):
        parsing.load(f"{server}/blank.html", settings=NO_OCR)


def test_url_timeout(server):
    t0 = time.perf_counter()
    with pytest.raises(FetchError, match=r"^Could not fetch URL: .*/slow \(timed out after 0\.3 s\)$"):
        parsing.load(f"{server}/slow", settings=Settings(url_timeout_s=0.3, ocr_enabled=False))
    assert time.perf_counter() - t0 < 1.5


def test_url_connection_refused():
    with socket.socket() as sock:  # a free loopback port that nothing listens on once closed
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}/report.html"
    with pytest.raises(FetchError, match=rf"^Could not fetch URL: {re.escape(url)} \(could not connect"):
        parsing.load(url, settings=Settings(url_timeout_s=2, ocr_enabled=False))


def test_strip_tags_fallback():
    html = "<html><head><title>t</title></head><body><p>Rate: 6.5%</p><script>x()</script><td>SBI</td></body></html>"
    assert normalize_text(strip_tags(html)) == "Rate: 6.5%\n\nSBI"


@needs_data
@pytest.mark.slow
def test_layout_mode_keeps_words_whole_that_plain_mode_splits():
    # Amazon's 10-K sets words as several positioned runs: pypdf's plain mode reads "absolu te dollars".
    amazon = FINANCEBENCH / "pdfs" / "AMAZON_2019_10K.pdf"
    sentence = "The increase in AWS operating income in absolute dollars in 2019, compared to the prior year"
    flat = lambda doc: " ".join(" ".join(p.text.split()) for p in doc.pages)  # noqa: E731
    plain = parsing.load(amazon, settings=Settings(ocr_enabled=False, pdf_text_mode="plain"))
    layout = parsing.load(amazon, settings=NO_OCR)
    assert sentence not in flat(plain) and "absolu te" in flat(plain)  # the premise
    assert sentence in flat(layout) and "absolu te" not in flat(layout)
    assert [p.number for p in layout.pages] == [p.number for p in plain.pages]


@needs_data
@pytest.mark.slow
def test_pages_layout_mode_cannot_read_keep_their_plain_text():
    # Costco's cover page comes back empty from pypdf's layout mode; assam.pdf's rotated title would be dropped.
    costco = parsing.load(FINANCEBENCH / "pdfs" / "COSTCO_2021_10K.pdf", settings=NO_OCR)
    assert costco.pages[0].number == 1 and "Costco Wholesale Corporation" in costco.pages[0].text
    assam = parsing.load(HARD / "assam.pdf", settings=NO_OCR)
    assert "Annual Health Survey 2010-11" in assam.pages[0].text
