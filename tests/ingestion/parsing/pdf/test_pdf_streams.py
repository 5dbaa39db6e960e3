"""Each content stream of a page is tokenised once for pypdf's plain, layout and rotated passes (pdf_streams), and the
text is the same as with pypdf's own tokenising on every page of real PDFs."""

from __future__ import annotations

import contextlib
import io
import threading

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

import prism.ingestion.parsing.pdf.text as pdf_text
from prism.ingestion.parsing.pdf.streams import parsed_once
from tests.conftest import CASES, DATA, needs_data
from tests.ingestion.parsing.pdf.test_reading_order import NOTE, margin_note_pdf

FINANCEBENCH = DATA / "financebench-dev" / "pdfs"


@pytest.fixture
def tokenised(monkeypatch):
    """Counts the streams pypdf tokenises, by their bytes."""
    seen: list[int] = []
    original = ContentStream._parse_content_stream

    def counting(self, stream):
        seen.append(len(stream.getvalue()))
        return original(self, stream)

    monkeypatch.setattr(ContentStream, "_parse_content_stream", counting)
    return seen


def _texts(data: bytes, shared: bool) -> list[str]:
    reader = PdfReader(io.BytesIO(data), strict=False)
    context = parsed_once if shared else contextlib.nullcontext
    original = pdf_text.parsed_once
    pdf_text.parsed_once = context
    try:
        return [pdf_text.page_text(reader, i, mode="layout") for i in range(len(reader.pages))]
    finally:
        pdf_text.parsed_once = original


def test_plain_layout_and_rotated_passes_tokenise_the_page_once(tokenised):
    data = margin_note_pdf()  # rotated text: plain, layout and the rotated pass all read the page
    text = _texts(data, shared=True)[0]
    assert text.endswith(NOTE)
    assert len(tokenised) == 1
    tokenised.clear()
    assert _texts(data, shared=False)[0] == text
    assert len(tokenised) == 3  # pypdf alone: once per pass


def test_outside_the_context_pypdf_tokenises_as_usual(tokenised):
    reader = PdfReader(io.BytesIO(margin_note_pdf()))
    reader.pages[0].extract_text()
    reader.pages[0].extract_text(extraction_mode="layout")
    assert len(tokenised) == 2


def test_the_memo_belongs_to_one_thread(tokenised):
    data = margin_note_pdf()
    with parsed_once():
        PdfReader(io.BytesIO(data)).pages[0].extract_text()
        other = threading.Thread(target=lambda: PdfReader(io.BytesIO(data)).pages[0].extract_text())
        other.start()
        other.join()
        PdfReader(io.BytesIO(data)).pages[0].extract_text()
    assert len(tokenised) == 2  # this thread once, the other thread once (no memo there)


@pytest.mark.parametrize("name", ["36_two_column_policy_note.pdf", "37_hyphenated_line_breaks.pdf",
                                  "05_ligature_codepoints_and_rupee.pdf", "38_page_labels_roman_front_matter.pdf"])
def test_same_text_as_pypdf_alone_on_the_cases(name):
    data = (CASES / name).read_bytes()
    assert _texts(data, shared=True) == _texts(data, shared=False)


@needs_data
@pytest.mark.parametrize("name", ["3M_2022_10K.pdf", "NETFLIX_2015_10K.pdf"])
def test_same_text_as_pypdf_alone_on_every_page_of_a_10k(name, tokenised):
    data = (FINANCEBENCH / name).read_bytes()
    shared = _texts(data, shared=True)
    once = len(tokenised)
    tokenised.clear()
    assert shared == _texts(data, shared=False)
    assert once * 1.9 < len(tokenised)  # at least the plain and layout passes each tokenised every page before

