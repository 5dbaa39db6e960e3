"""Where an ingest's time goes: each file's result carries seconds per stage
(:data:`prism.types.INGEST_STAGES`), OCR apart for scanned pages, which are read at their scan's own resolution
(:func:`prism.ingestion.parsing.pdf.ocr.page_dpi`); the Upload page's words for them (:func:`stage_times`)."""

from __future__ import annotations

import time

import pypdfium2 as pdfium
import pytest

from prism.config import Settings
from prism.ingestion import parsing
from prism.ingestion.parsing.pdf.ocr import MIN_OCR_DPI, native_dpi, ocr_pdf_pages, page_dpi
from prism.types import INGEST_STAGES, IngestItem
from prism.ui.explain import stage_times
from tests.builders import image_only_pdf
from tests.conftest import CASES

LINES = ["UPI collect requests above Rs 2,000 are declined.", "Reason code U30 is returned to the payer."]
SCAN_DPI = 1240 * 72 / 515
""":func:`image_only_pdf` draws a 1240-pixel-wide picture 515 points wide: a 173 dpi scan."""


def _page(path):
    pdf = pdfium.PdfDocument(str(path))
    return pdf, pdf[0]


def test_a_scan_is_read_at_its_own_resolution_within_the_setting(tmp_path):
    pdf, page = _page(image_only_pdf(tmp_path / "scan.pdf", LINES))
    try:
        assert native_dpi(page) == pytest.approx(SCAN_DPI)
        assert page_dpi(page, 200) == int(SCAN_DPI)  # finer than the scan adds pixels, not detail
        assert page_dpi(page, 600) == int(SCAN_DPI)
        assert page_dpi(page, 120) == 120  # the setting is the finest allowed
    finally:
        pdf.close()
    pdf, page = _page(CASES / "33_a_three_pages.pdf")  # a text page: no image, the setting's resolution
    try:
        assert native_dpi(page) is None and page_dpi(page, 200) == 200
    finally:
        pdf.close()


def test_a_coarse_scan_is_still_rendered_at_the_floor(tmp_path):
    from fpdf import FPDF
    from PIL import Image

    image = tmp_path / "coarse.png"
    Image.new("L", (300, 100), 255).save(image)
    doc = FPDF(unit="pt", format="A4")
    doc.add_page()
    doc.image(str(image), x=40, y=40, w=432)  # 300 px over 6 inches: 50 dpi
    doc.output(str(tmp_path / "coarse.pdf"))
    pdf, page = _page(tmp_path / "coarse.pdf")
    try:
        assert native_dpi(page) == pytest.approx(50.0)
        assert page_dpi(page, 200) == MIN_OCR_DPI
    finally:
        pdf.close()


def test_ocr_reports_the_resolution_and_the_parser_the_seconds(tmp_path):
    path = image_only_pdf(tmp_path / "scan.pdf", LINES)
    [page] = list(ocr_pdf_pages(path.read_bytes(), [1], 200, path.name))
    assert page.error is None and page.dpi == int(SCAN_DPI) and "declined" in page.text
    doc = parsing.load(path, settings=Settings(ocr_enabled=True))
    assert doc.ocr_pages == [1] and doc.ocr_seconds > 0
    assert parsing.load(CASES / "33_a_three_pages.pdf", settings=Settings(ocr_enabled=True)).ocr_seconds == 0.0


def test_each_file_reports_its_time_per_stage_and_ocr_apart(service, tmp_path):
    scan = image_only_pdf(tmp_path / "scan.pdf", LINES)
    t0 = time.perf_counter()
    text, scanned = service.ingest([IngestItem(CASES / "33_a_three_pages.pdf"), IngestItem(scan)], "timing",
                                   briefing=True)
    wall = time.perf_counter() - t0
    assert (text.status, scanned.status) == ("ingested", "ingested")
    assert list(text.stage_seconds) == [s for s in INGEST_STAGES if s != "ocr"]  # in pipeline order
    assert list(scanned.stage_seconds) == list(INGEST_STAGES)  # the scan adds OCR
    assert scanned.stage_seconds["ocr"] > 0 and all(v >= 0 for v in scanned.stage_seconds.values())
    # the stages of both files fit in the batch's wall time (OCR may overlap the previous file's embedding)
    spent = sum(v for r in (text, scanned) for k, v in r.stage_seconds.items() if k != "ocr")
    assert spent <= wall + 0.05
    assert text.to_dict()["stage_seconds"] == text.stage_seconds


def test_the_upload_page_says_each_stage_in_words():
    assert stage_times({}) == ""
    assert stage_times({"briefing": 0.4, "parse": 0.41, "ocr": 6.0, "bm25": 0.005}, ocr_pages=2) == (
        "parse 410 ms · OCR 6.0 s (2 pages, 20.0 pages/min) · BM25 5 ms · briefing 400 ms")


def test_a_document_of_text_pages_and_a_scanned_page_reports_its_ocr_apart(service, tmp_path):
    """One PDF, three text pages then a scanned one: only the scan is OCR'd, its seconds are the ``ocr`` stage (not
    ``parse``), its words are stored, and the Upload page's line names OCR with its one page."""
    mixed = pdfium.PdfDocument(str(CASES / "33_a_three_pages.pdf"))
    scan = pdfium.PdfDocument(str(image_only_pdf(tmp_path / "scan.pdf", LINES)))
    try:
        mixed.import_pages(scan)
        mixed.save(str(tmp_path / "mixed.pdf"))
    finally:
        scan.close()
        mixed.close()
    [result] = service.ingest([IngestItem(tmp_path / "mixed.pdf")], "mixed", briefing=False)
    assert result.status == "ingested" and result.pages == 4 and result.ocr_pages == [4]
    seconds = result.stage_seconds
    assert [s for s in INGEST_STAGES if s in seconds] == list(seconds)  # in pipeline order
    assert {"parse", "ocr", "embed", "store"} <= set(seconds) and "briefing" not in seconds
    assert seconds["ocr"] > 0
    # the page without a text layer went to OCR, not to the parse of the three text layers
    assert seconds["ocr"] > seconds["parse"]
    words = " ".join(r["text"] for _, rows in service.chunk_rows("mixed") for r in rows)
    assert "declined" in words and "U30" in words  # the scan's words, stored with the text pages'
    line = stage_times(seconds, ocr_pages=len(result.ocr_pages))
    assert "OCR " in line and "(1 page, " in line and line.startswith("parse ")
