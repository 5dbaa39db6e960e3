"""PDF parsing on the shared bad-input cases, PDFs built in the test (a scan, a page number alone, overlong pages),
the sample PDFs, and — where the real file is the point — the hard PDFs, NPCI/RBI circulars and FinanceBench filings.

Real files are read from ``../shared/data`` (never copied; those tests skip without it); the bad-input cases are
copied in ``tests/fixtures/cases``. OCR tests are marked ``slow`` (about 3 s per page on two cores).
"""

from __future__ import annotations

import json
import re
import time

import pypdfium2 as pdfium
import pytest

import prism.ingestion.parsing.pdf.ocr as ocr
import prism.ingestion.parsing.pdf.read as pdf_module
from prism.config import Settings
from prism.errors import (
    EmptyFileError,
    EncryptedDocumentError,
    NoExtractableTextError,
)
from prism.ingestion import parsing
from prism.types import IngestItem, Page, SkippedPage
from tests.builders import image_only_pdf, text_pdf
from tests.conftest import CASES, DATA, REPO, needs_data

HARD = DATA / "hard-pdfs"
NPCI = DATA / "npci" / "pdfs"
RBI = DATA / "rbi" / "pdfs"
FINANCEBENCH = DATA / "financebench-dev"

NO_OCR = Settings(ocr_enabled=False)
WITH_OCR = Settings(ocr_enabled=True)


def _texts(doc) -> dict[int | None, str]:
    return {p.number: p.text for p in doc.pages}

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


SCAN_LINES = ["Scanned circular: the repo rate", "is 6.5 percent from 1 April 2025."]


@pytest.fixture
def scan(tmp_path):
    """A one-page PDF that is only a picture of text (no text layer), built with Pillow and fpdf2."""
    return image_only_pdf(tmp_path / "image.pdf", SCAN_LINES)


def test_a_page_number_alone_is_not_a_page_of_text(tmp_path):
    path = text_pdf(tmp_path / "only_page_number.pdf", ["13"])
    with pytest.raises(NoExtractableTextError, match=r"text layer has only '13'; OCR is turned off"):
        parsing.load(path, settings=NO_OCR)


def test_image_only_pdf_without_ocr(scan):
    with pytest.raises(NoExtractableTextError, match=r"^image\.pdf has no extractable text .*OCR is turned off"):
        parsing.load(scan, settings=NO_OCR)
    limited = Settings(ocr_enabled=True, ocr_max_pages=0)
    with pytest.raises(NoExtractableTextError, match=r"OCR limit of 0 pages reached"):
        parsing.load(scan, settings=limited)


@pytest.mark.slow
def test_image_only_page_is_read_by_ocr(scan):
    """The optional OCR import (rapidocr) on a page built in the test: the words come back, marked as OCR."""
    doc = parsing.load(scan, settings=WITH_OCR)
    assert doc.total_pages == 1 and doc.ocr_pages == [1] and doc.pages[0].ocr
    assert doc.pages[0].text.split("\n") == SCAN_LINES
    assert doc.warnings == ("image.pdf: page 1 read by OCR (no text layer); check figures against the original",)


@pytest.mark.slow
def test_ocr_text_is_searchable_after_ingest(scan, service):
    [result] = service.ingest([IngestItem(scan)], "scans", briefing=False)
    assert (result.status, result.ocr_pages) == ("ingested", [1])
    hit = service.search("repo rate percent", "scans", mode="bm25").results[0]
    assert hit.source == "image.pdf" and hit.page_start == 1 and "6.5 percent" in hit.text


def test_image_only_pdf_when_ocr_is_unavailable(monkeypatch, scan):
    monkeypatch.setattr(ocr, "_engine", None)
    monkeypatch.setattr(ocr, "_engine_error", "rapidocr-onnxruntime is not installed (test)")
    with pytest.raises(NoExtractableTextError, match=r"no text layer \(OCR unavailable: rapidocr-onnxruntime is not"):
        parsing.load(scan, settings=WITH_OCR)
    doc = parsing.load(CASES / "04_page2_has_no_text_layer.pdf", settings=WITH_OCR)
    assert doc.skipped_pages == (
        SkippedPage(2, "no text layer (OCR unavailable: rapidocr-onnxruntime is not installed (test))"),
    )
    assert doc.warnings[-1].startswith("04_page2_has_no_text_layer.pdf: pages without a text layer were skipped")


# --- PDF: page budgets ---------------------------------------------------------------------------------------------


def _burn_cpu(seconds: float) -> None:
    """Compute (not wait) until this thread has used ``seconds`` of CPU time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        sum(range(1000))


def test_pdf_page_over_its_cpu_budget_is_skipped(monkeypatch):
    real = pdf_module._extract

    def slow_on_page_2(reader, index, **kwargs):
        if index == 1:
            _burn_cpu(1.0)
        return real(reader, index, **kwargs)

    monkeypatch.setattr(pdf_module, "_extract", slow_on_page_2)
    settings = Settings(pdf_page_timeout_s=0.2, ocr_enabled=False)
    doc = parsing.load(CASES / "33_a_three_pages.pdf", settings=settings)
    assert [p.number for p in doc.pages] == [1, 3]
    assert doc.skipped_pages == (SkippedPage(2, "text extraction took longer than 0.2 s"),)


def test_pdf_page_slow_on_the_clock_but_not_in_cpu_is_read(monkeypatch):
    """A busy machine slows a page down without it computing more: it is read, up to WALL_FACTOR × the budget."""
    real = pdf_module._extract

    def waits_on_page_2(reader, index, **kwargs):
        if index == 1:
            time.sleep(0.3)  # over the 0.2 s budget on the clock, ~0 s of CPU; the clock limit is 1.2 s
        return real(reader, index, **kwargs)

    monkeypatch.setattr(pdf_module, "_extract", waits_on_page_2)
    doc = parsing.load(CASES / "33_a_three_pages.pdf", settings=Settings(pdf_page_timeout_s=0.2, ocr_enabled=False))
    assert [p.number for p in doc.pages] == [1, 2, 3] and doc.skipped_pages == ()


def test_pdf_page_that_waits_past_the_clock_limit_is_skipped(monkeypatch):
    real = pdf_module._extract

    def hangs_on_page_2(reader, index, **kwargs):
        if index == 1:
            time.sleep(3.0)  # past WALL_FACTOR (6) × 0.1 s
        return real(reader, index, **kwargs)

    monkeypatch.setattr(pdf_module, "_extract", hangs_on_page_2)
    doc = parsing.load(CASES / "33_a_three_pages.pdf", settings=Settings(pdf_page_timeout_s=0.1, ocr_enabled=False))
    assert [p.number for p in doc.pages] == [1, 3]
    assert doc.skipped_pages == (SkippedPage(2, "text extraction took longer than 0.1 s"),)


def test_pdf_stops_after_too_many_timed_out_pages(monkeypatch):
    monkeypatch.setattr(pdf_module, "MAX_TIMED_OUT_PAGES", 1)
    monkeypatch.setattr(pdf_module, "_extract", lambda reader, index, **kwargs: _burn_cpu(0.5) or "never used")
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


def test_pdf_page_over_size_budget_is_skipped(tmp_path):
    long, short = "Long page with many words. " * 60, "A short page of text."
    path = text_pdf(tmp_path / "budget.pdf", [long, short, long, short])
    settings = Settings(pdf_page_max_chars=1000, ocr_enabled=False)
    doc = parsing.load(path, settings=settings)
    assert [p.number for p in doc.pages] == [2, 4]
    assert [s.number for s in doc.skipped_pages] == [1, 3]
    assert doc.skipped_pages[0].reason.startswith("page text is implausibly long (1,")


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


@pytest.mark.parametrize(("path", "phrase", "pages", "page"), [
    (REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf", "Merchant KYC", 5, 3),
    pytest.param(RBI / "NT7871494C59CE3B455BBD0D18770BBB1408.pdf", "Submission of Balance Sheet", 4, 3,
                 marks=needs_data),
])
def test_phrase_is_on_the_right_page(path, phrase, pages, page):
    doc = parsing.load(path, settings=NO_OCR)
    assert doc.total_pages == pages
    assert [p.number for p in doc.pages if phrase in " ".join(p.text.split())] == [page]
    # pdfium, an independent extractor, agrees (0-based index i = page i + 1)
    reference = pdfium.PdfDocument(str(path))
    try:
        found = [i + 1 for i in range(len(reference)) if phrase in reference[i].get_textpage().get_text_range()]
    finally:
        reference.close()
    assert found == [page]


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
