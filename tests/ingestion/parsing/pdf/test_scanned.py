"""Scanned circulars: OCR glues words together and reads ₹ as "?"; the OCR'd text is repaired before it is stored
(prism.ingestion.parsing.pdf.scanned: symspellpy's word segmentation over its English frequency dictionary), so BM25
and the answerability gate see the words, while the page stays a scanned page (its citation shows the page image).

Pure repairs first; then an image-only circular built here (Pillow + fpdf2) through the real OCR (rapidocr), the
real service (embedder, Chroma, BM25, the gate, the extractive answer); then the scanned NPCI circulars of
``../shared/data/npci`` (their ``manifest.csv`` says which have no text layer), skipped when the folder is absent.
"""

from __future__ import annotations

import csv

import pytest

from prism.index.tokenizer import tokenize
from prism.ingestion.parsing.pdf.scanned import repair_ocr_text, split_glued
from prism.types import IngestItem
from prism.ui.preview import render_page_preview
from tests.builders import image_only_pdf
from tests.conftest import offline_service, require_data


@pytest.mark.parametrize(("ocr", "repaired"), [
    ("fornon-verifiedmerchants", "for non-verified merchants"),
    ("Members areherebyrequested to comply", "Members are hereby requested to comply"),
    ("NATIONALPAYMENTSCORPORATIONOFINDIA", "NATIONAL PAYMENTS CORPORATION OF INDIA"),
    ("NPCI has issuedmultiple circulars basedon the followingrequirementsrelated to UPI",
     "NPCI has issued multiple circulars based on the following requirements related to UPI"),
    ("lakhsfromimmediateeffect", "lakhs from immediate effect"),
])
def test_glued_words_are_split(ocr, repaired):
    assert split_glued(ocr) == repaired


@pytest.mark.parametrize("word", [
    "Aadhaar", "VishalAnandKanvaty", "BandraKurlaComplex", "onboarding", "chargebacks", "RuPay", "tokenisation",
    "NEFT", "TPAPs", "interoperability", "Thisenablement",  # names, payments words, acronyms, an unsure split
])
def test_names_payments_words_and_acronyms_are_left_as_written(word):
    assert split_glued(word) == word


@pytest.mark.parametrize(("ocr", "repaired"), [
    ("a fee of ?2,000 per day", "a fee of ₹2,000 per day"),
    ("the cap is ? 5 lakh", "the cap is ₹5 lakh"),
    ("a penalty (?1,50,000)", "a penalty (₹1,50,000)"),
    ("a fee of?2,000 applies", "a fee of ₹2,000 applies"),
    ("Is this right? 5 items follow.", "Is this right? 5 items follow."),  # a question mark, then a number
    ("Why? Because", "Why? Because"),
])
def test_the_rupee_sign_is_put_back_before_an_amount_only(ocr, repaired):
    assert repair_ocr_text(ocr) == repaired


def test_bm25_sees_the_repaired_words():
    tokens = tokenize(repair_ocr_text("The cap fornon-verifiedmerchants is ?2,000"))
    assert {"verifi", "merchant", "₹2000"} <= set(tokens)


CIRCULAR = ("NPCI/UPI/OC-208/2025-26 Operating circular",
            "The daily cap fornon-verifiedmerchants",
            "is ?2,000 per merchant from 1 May.",
            "Members areherebyrequested to comply.")


@pytest.fixture(scope="module")
def scanned(tmp_path_factory, embedder):
    root = tmp_path_factory.mktemp("scanned")
    pdf = image_only_pdf(root / "upi_oc_208_merchant_cap.pdf", CIRCULAR)
    svc = offline_service(root / "home", embedder, briefing_on_ingest=False)
    [result] = svc.ingest([IngestItem(pdf)], "npci")
    assert result.status == "ingested", result.error
    return svc, result, pdf


def test_the_scanned_page_is_stored_repaired_and_still_marked_scanned(scanned):
    svc, result, _pdf = scanned
    assert result.ocr_pages == [1]
    text = " ".join(r["text"] for _, rows in svc.chunk_rows("npci") for r in rows)
    assert "non-verified merchants" in text and "₹2,000" in text and "hereby requested" in text
    assert "fornon" not in text and "?2,000" not in text


def test_the_question_is_answered_from_the_scanned_page_and_cites_its_image(scanned):
    svc, _result, pdf = scanned
    answer = svc.ask("What is the daily cap for non-verified merchants?", "npci")
    assert not answer.declined, answer.answer
    assert "₹2,000" in answer.answer
    [citation] = answer.citations
    assert citation.page_start == 1
    preview = render_page_preview(pdf, 1, citation.text)
    assert preview.image and preview.message and "scanned page read by OCR" in preview.message


def _scanned_npci() -> list[str]:
    folder = require_data("npci")
    with (folder / "manifest.csv").open(encoding="utf-8") as fh:
        return [row["file"] for row in csv.DictReader(fh) if row["text_layer"].startswith("none")]


def test_a_scanned_npci_circular_is_searchable_by_its_unglued_words(tmp_path, embedder):
    folder = require_data("npci")
    name = "Circular-74-UPI_Compliance_guidelines.pdf"
    assert name in _scanned_npci()
    svc = offline_service(tmp_path / "home", embedder, briefing_on_ingest=False)
    [result] = svc.ingest([IngestItem(folder / "pdfs" / name)], "npci")
    assert result.ocr_pages == [1]
    text = " ".join(r["text"] for _, rows in svc.chunk_rows("npci") for r in rows)
    assert "NATIONAL PAYMENTS CORPORATION OF INDIA" in text
    assert "are hereby requested" in text and "issued multiple" in text
    hits = svc.search("members are hereby requested to ensure compliance", "npci", mode="bm25").results
    assert hits and hits[0].source == name
