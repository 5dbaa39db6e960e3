"""prism.ingestion.parsing.load: dispatch by bytes and extension, size limits, names, text and CSV files
(bad-input cases copied in ``tests/fixtures/cases``)."""

from __future__ import annotations

import codecs

import pytest

from prism.config import Settings
from prism.errors import (
    CorruptDocumentError,
    DecodingError,
    EmptyFileError,
    FileTooLargeError,
    NoExtractableTextError,
    PrismError,
    UnsupportedFileError,
)
from prism.ingestion import parsing
from prism.ingestion.parsing.csv import sniff_delimiter
from prism.ingestion.parsing.text import decode_bytes
from prism.types import Page
from tests.conftest import CASES

NO_OCR = Settings(ocr_enabled=False)


def _texts(doc) -> dict[int | None, str]:
    return {p.number: p.text for p in doc.pages}

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
    with pytest.raises(UnsupportedFileError, match=r"^report\.doc is not a supported file type.*\.pdf, \.docx"):
        parsing.load(b"some bytes", "report.doc", NO_OCR)
    with pytest.raises(CorruptDocumentError, match=r"^report\.docx is not a valid Word document \(it is not an Office"):
        parsing.load(b"PK\x03\x04rest", "report.docx", NO_OCR)
    with pytest.raises(UnsupportedFileError, match=r"^noext is not a supported file type"):
        parsing.load(b"plain words", "noext", NO_OCR)
    with pytest.raises(UnsupportedFileError, match=r"^table\.csv is a ZIP archive file, not CSV"):
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
    assert doc.warnings == ("r.txt: 1 unreadable character (U+FFFD) was removed",)
    two = parsing.load("a \ufffd b \ufffd".encode(), "r2.txt", NO_OCR)
    assert two.warnings == ("r2.txt: 2 unreadable characters (U+FFFD) were removed",)


# --- CSV -----------------------------------------------------------------------------------------------------------


def test_csv_encodings():
    cp1252 = parsing.load(CASES / "28b_cp1252.csv", settings=NO_OCR)
    assert cp1252.kind == "csv" and cp1252.total_pages == 0
    assert cp1252.pages[0].text == (
        "item: Tea – green; price: €4; note: café “special”\nitem: Coffee; price: €3; note: naïve"
    )
    assert cp1252.warnings == ("28b_cp1252.csv: text encoding detected as cp1252",)
    utf16 = parsing.load(CASES / "28c_utf16le_bom_rupee.csv", settings=NO_OCR)
    utf8 = parsing.load(CASES / "28d_utf8_rupee.csv", settings=NO_OCR)
    assert utf16.pages[0].text == utf8.pages[0].text == "item: Tea; price: ₹120\nitem: Coffee; price: ₹90"
    assert utf8.warnings == ()
    for doc in (cp1252, utf16, utf8):
        assert "\ufffd" not in doc.pages[0].text


def test_csv_semicolons_with_commas_in_fields():
    doc = parsing.load(CASES / "30_semicolon_with_commas_in_fields.csv", settings=NO_OCR)
    rows = doc.pages[0].text.split("\n")
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
