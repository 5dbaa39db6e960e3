"""PDF text in the order a person reads it: two-column pages (case 36, the Federal Register), line-end hyphenation
(case 37), rotated text (a margin note built with fpdf2), printed page labels (case 38)."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from fpdf import FPDF
from pypdf import PageObject, PdfReader

import prism.ingestion.parsing.pdf.text as pdf_text
from prism.config import Settings
from prism.ingestion import parsing
from prism.ingestion.chunking import chunk_document
from prism.ingestion.parsing.pdf.columns import column_blocks
from prism.ingestion.parsing.pdf.hyphens import dehyphenate, keeps_hyphen, vocabulary
from tests.conftest import CASES, DATA, needs_data

NO_OCR = Settings(ocr_enabled=False)
CRR = ("Separately, the cash reserve ratio of all scheduled banks was reduced by 50 basis points to 4.00 per cent of "
       "net demand and time liabilities from the next reporting fortnight.")
NOTE = "Margin note: the escrow threshold is Rs. 7,25,000 per account."


def _flat(text: str) -> str:
    return " ".join(text.split())


def margin_note_pdf(body: str = "The board approved the liquidity framework for the quarter. ") -> bytes:
    """One page of body text with :data:`NOTE` set at 90° in the right margin (fpdf2 rotation)."""
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=9)
    pdf.set_xy(20, 20)
    pdf.multi_cell(150, 4.5, body * 8)
    with pdf.rotation(90, x=195, y=150):
        pdf.set_xy(195, 150)
        pdf.cell(text=NOTE)
    return bytes(pdf.output())


# --- two columns -----------------------------------------------------------------------------------------------------
def test_case_36_two_columns_are_read_column_by_column():
    doc = parsing.load(CASES / "36_two_column_policy_note.pdf", settings=NO_OCR)
    text = doc.pages[0].text
    assert CRR in _flat(text)
    assert "kept the Separately" not in _flat(text) and "per all scheduled" not in _flat(text)
    assert _flat(text).index("The Monetary Policy Committee") < _flat(text).index("Separately")
    layout = PdfReader(CASES / "36_two_column_policy_note.pdf").pages[0].extract_text(extraction_mode="layout")
    assert column_blocks(layout) == 1 and CRR not in _flat(layout)  # the premise: layout mode welds the columns


def test_single_column_pages_and_tables_are_not_columns():
    statement = "\n".join(f"{label:<40}{a:>12}{b:>12}" for label, a, b in (
        ("Net revenues", "122,641", "266,799"), ("Cost of revenues", "(81,233)", "(98,100)"),
        ("Operating income", "41,408", "168,699"), ("Net income", "32,110", "120,555")))
    assert column_blocks(statement) == 0
    prose = "\n".join(["The board reviewed the liquidity coverage ratio at the end of the quarter."] * 6)
    assert column_blocks(prose) == 0
    labels = "\n".join(f"{name:<30}{role}" for name, role in (
        ("Jane Roe", "Chief Executive Officer"), ("John Doe", "Chief Financial Officer"),
        ("Asha Rao", "General Counsel"), ("Ravi Iyer", "Chief Risk Officer")))
    assert column_blocks(labels) == 0, "short label/value pairs are a table, not prose columns"
    phrases = "\n".join(f"{a:<55}{b:<32}{c}" for a, b, c in (
        ("P2P: customer debited, beneficiary not credited", "Auto-reversal by T+1", "₹100 per day of delay beyond T+1"),
        ("P2M: customer debited, merchant not credited", "Auto-reversal by T+5", "₹100 per day of delay beyond T+5"),
        ("Beneficiary bank unable to credit the beneficiary", "Return to remitter by T+1", "₹100 per day of delay"),
        ("UPI Lite top-up debited, wallet not loaded", "Reversal by T+1", "₹100 per day of delay beyond T+1")))
    assert column_blocks(phrases) == 0, "a table whose cells are phrases: no line goes on with a sentence"


@needs_data
def test_federal_register_three_columns_read_in_order():
    doc = parsing.load(DATA / "hard-pdfs" / "federal-register-2020-17221.pdf", settings=NO_OCR)
    flat = {p.number: _flat(p.text) for p in doc.pages}
    sentence = ("Hatta International Airport in Jakarta, Indonesia, resulting in 189 fatalities. Investigation of the "
                "accident has been completed by the Indonesian authorities")
    assert sentence in flat[2]
    assert "Jakarta, altitude disagree alert" not in flat[2]  # the welded line of layout mode
    assert all("jbell on DSKJLSW7X2PROD with PROPOSALS" in flat[n] for n in flat), "the rotated margin line"


# --- hyphenation -----------------------------------------------------------------------------------------------------
def test_case_37_line_end_hyphens_are_undone_and_compounds_keep_theirs():
    doc = parsing.load(CASES / "37_hyphenated_line_breaks.pdf", settings=NO_OCR)
    text = doc.pages[0].text
    assert text == ("Every regulated entity shall submit the regulatory\nreturn on large exposures within fifteen\n"
                    "days of the end of each quarter. Late submission\nattracts a penalty of Rs. 5,000 per day of\n"
                    "delay, and repeated non-compliance\nmay lead to supervisory action against the\n"
                    "entity and its principal officer.")


@pytest.mark.parametrize(("text", "seen", "expected", "joined"), [
    ("the regu-\nlatory return", "", "the regulatory\nreturn", 1),
    ("repeated non-\ncompliance may", "Any non-compliance is reported.", "repeated non-compliance\nmay", 0),
    ("repeated non-\ncompliance may", "", "repeated noncompliance\nmay", 1),
    ("repeated non-\ncompliance may", "non-compliance and noncompliance", "repeated noncompliance\nmay", 1),
    ("the FAA-\napproved MEL", "", "the FAA-\napproved MEL", 0),
    ("in 2018-\n19 the", "", "in 2018-\n19 the", 0),
    ("a dash -\nthen", "", "a dash -\nthen", 0),
    ("the submis-\nsion, then", "", "the submission, then", 1),
    ("self-regu-\nlatory body", "", "self-regulatory\nbody", 1),
    ("the employee-\ndriven growth", "employee costs were driven by", "the employee-driven\ngrowth", 0),
    ("repeated non-\ncompliance", "non-cash items and compliance costs", "repeated non-compliance", 0),
])
def test_dehyphenate(text, seen, expected, joined):
    vocab = vocabulary([text, seen])
    assert dehyphenate(text, vocab) == (expected, joined)


def test_the_vocabulary_never_counts_the_halves_of_a_break():
    vocab = vocabulary(["submit the regu-\nlatory return", "the non-compliance"])
    assert vocab == Counter({"submit": 1, "the": 2, "return": 1, "non-compliance": 1, "non": 1, "compliance": 1})
    assert keeps_hyphen("non", "compliance", vocab) and not keeps_hyphen("regu", "latory", vocab)


# --- rotated text ----------------------------------------------------------------------------------------------------
def test_rotated_margin_note_is_kept_after_the_body():
    data = margin_note_pdf()
    reader = PdfReader(io.BytesIO(data))
    assert NOTE not in reader.pages[0].extract_text(extraction_mode="layout")  # the premise: layout mode drops it
    doc = parsing.load(data, "minutes.pdf", NO_OCR)
    text = doc.pages[0].text
    assert text.endswith("\n\n" + NOTE) and text.startswith("The board approved the liquidity framework")
    assert doc.warnings == ()


def test_rotated_text_that_cannot_be_read_marks_the_page_partly_unread(monkeypatch):
    real = PageObject.extract_text

    def no_rotated(self, *args, orientations=(0, 90, 180, 270), **kwargs):
        if 0 not in orientations:
            raise KeyError("/Font")
        return real(self, *args, orientations=orientations, **kwargs)

    monkeypatch.setattr(PageObject, "extract_text", no_rotated)
    long_body = margin_note_pdf("The board approved the liquidity framework for the quarter. " * 8)
    doc = parsing.load(long_body, "minutes.pdf", NO_OCR)  # the note is under 2 % of the page: layout text is kept
    assert NOTE not in doc.pages[0].text
    assert doc.warnings == ("minutes.pdf: page 1 partly unread (its rotated text could not be read (KeyError))",)
    unread: list[str] = []
    pdf_text.page_text(PdfReader(io.BytesIO(long_body)), 0, mode="layout", unread=unread)
    assert unread == ["its rotated text could not be read (KeyError)"]
    short = parsing.load(margin_note_pdf(), "short.pdf", NO_OCR)  # a larger share: plain text, note included
    assert NOTE in short.pages[0].text and short.warnings == ()


# --- page labels -----------------------------------------------------------------------------------------------------
def test_case_38_pages_keep_their_printed_labels_and_chunks_cite_them():
    doc = parsing.load(CASES / "38_page_labels_roman_front_matter.pdf", settings=NO_OCR)
    assert [(p.number, p.label) for p in doc.pages] == [(1, "i"), (2, "ii"), (3, "1"), (4, "2"), (5, "3")]
    chunks = chunk_document(doc, "ab" * 32, chunk_size=500, chunk_overlap=50)
    fee = [c for c in chunks if "annual fee for the premium credit card" in c.text]
    assert len(fee) == 1 and (fee[0].page_start, fee[0].label_start) == (4, "2")
    assert fee[0].locator == "p. 2 (PDF p. 4)"
    assert fee[0].metadata()["label_start"] == "2" and fee[0].metadata()["page_start"] == 4
    first = next(c for c in chunks if c.page_start == 1)
    assert first.locator == "p. i (PDF p. 1)"


def test_pdfs_without_page_labels_have_none():
    doc = parsing.load(CASES / "33_a_three_pages.pdf", settings=NO_OCR)
    assert [p.label for p in doc.pages] == [None, None, None]
    chunks = chunk_document(doc, "ab" * 32, chunk_size=500, chunk_overlap=50)
    assert chunks[0].locator.startswith("page") and "label_start" not in chunks[0].metadata()
