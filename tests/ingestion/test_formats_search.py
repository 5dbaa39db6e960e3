"""Every new format and reading-order fix end to end: ingested by the real service (real embedder, Chroma, BM25),
the fact found by search or asked for, and cited with its locator; the passage shown in the text of its slide,
sheet or document; the CLI ingests the new types too."""

from __future__ import annotations

import json

import pytest

from prism.cli.main import main
from prism.service import PrismService
from prism.types import IngestItem
from prism.ui.preview import render_page_preview
from tests.conftest import CASES, offline_service
from tests.ingestion import office_files as files
from tests.ingestion.parsing.pdf.test_reading_order import NOTE, margin_note_pdf

WS = "formats"


@pytest.fixture(scope="module")
def svc(tmp_path_factory, embedder) -> PrismService:
    service = offline_service(tmp_path_factory.mktemp("formats_home"), embedder, ocr_enabled=False)
    items = [
        IngestItem(files.build_docx(), "board_note.docx"),
        IngestItem(files.build_xlsx(), "branches.xlsx"),
        IngestItem(files.build_pptx(), "results_deck.pptx"),
        IngestItem(files.build_html(), "dispute_rules.html"),
        IngestItem(CASES / "36_two_column_policy_note.pdf"),
        IngestItem(CASES / "37_hyphenated_line_breaks.pdf"),
        IngestItem(CASES / "38_page_labels_roman_front_matter.pdf"),
        IngestItem(CASES / "42_markdown_with_base64_image.md"),
        IngestItem(margin_note_pdf("The board approved the liquidity framework for the quarter. " * 8),
                   "board_minutes.pdf"),
        IngestItem(files.encrypt_office(files.build_docx()), "locked.docx"),
    ]
    results = service.ingest(items, WS, briefing=False)
    assert [r.status for r in results] == ["ingested"] * 9 + ["failed"]
    assert results[-1].error == ("locked.docx is a password-protected Word document; remove the password and upload "
                                 "it again")
    return service


def _top(svc: PrismService, query: str, mode: str = "hybrid", source: str | None = None):
    results = svc.search(query, WS, mode=mode, sources=[source] if source else None).results
    assert results, query
    return results[0]


def test_docx_fact_is_found_and_cited_by_file(svc):
    top = _top(svc, "escrow threshold for merchant nodal accounts")
    assert top.source == "board_note.docx" and "Rs. 7,25,000" in top.text
    assert (top.page_start, top.locator) == (None, "")  # a Word file has no fixed pages: the file is the locator
    table = _top(svc, "Corporate deposits Q3 FY25", source="board_note.docx")
    assert "Segment: Corporate; Q2 FY25: 2,950; Q3 FY25: 2,870" in table.text


def test_xlsx_fact_is_cited_with_its_sheet_and_row(svc):
    answer = svc.ask("What were the deposits of the Nashik Road branch?", WS)
    cited = [c for c in answer.citations if "Nashik Road" in c.text]
    assert cited and cited[0].source == "branches.xlsx" and "1234" in answer.answer
    c = cited[0]
    assert c.page_start == 1 and c.locator.startswith("Sheet 'Q3' row")
    first, _, last = c.locator.removeprefix("Sheet 'Q3' rows ").removeprefix("Sheet 'Q3' row ").partition("–")
    assert int(first) <= 14 <= int(last or first)
    assert c.to_dict()["locator"] == c.locator


def test_pptx_speaker_note_is_cited_with_its_slide(svc):
    top = _top(svc, "EBITDA margin excludes the one-off treasury gain")
    assert (top.source, top.page_start, top.locator) == ("results_deck.pptx", 2, "Slide 2")
    assert files.PPTX_NOTE in top.text
    answer = svc.ask("What does the EBITDA margin exclude?", WS)
    assert any(c.locator == "Slide 2" and c.source == "results_deck.pptx" for c in answer.citations)


def test_html_article_is_found_and_navigation_is_not(svc):
    top = _top(svc, "settlement of disputed UPI transactions deadline")
    assert top.source == "dispute_rules.html" and files.HTML_FACT in top.text
    assert not [r for r in svc.search("Subscribe now sign in cookies", WS, mode="bm25").results
                if r.source == "dispute_rules.html"]


def test_case_36_answer_quotes_the_crr_sentence_whole(svc):
    answer = svc.ask("What was the cash reserve ratio reduced to?", WS)
    flat = " ".join(answer.answer.split())
    assert "the cash reserve ratio of all scheduled banks was reduced by 50 basis points to 4.00 per cent of net " \
           "demand and time liabilities from the next reporting fortnight" in flat
    assert "kept the Separately" not in flat and "per all scheduled" not in flat
    assert answer.citations[0].source == "36_two_column_policy_note.pdf"


@pytest.mark.parametrize("word", ["regulatory", "submission", "non-compliance"])
def test_case_37_bm25_finds_the_words_hyphenated_across_lines(svc, word):
    """The word split "regu-" / "latory" in the PDF is indexed whole: BM25 matches it in that document (other
    documents of the workspace use some of these words too, so the search is scoped to the case's PDF)."""
    top = _top(svc, word, mode="bm25", source="37_hyphenated_line_breaks.pdf")
    assert top.bm25_score and top.bm25_score > 0 and word in top.text


def test_case_38_citation_shows_the_printed_label_and_the_preview_opens_the_pdf_page(svc):
    answer = svc.ask("What is the annual fee for the premium credit card?", WS)
    c = answer.citations[0]
    assert (c.source, c.page_start, c.locator) == ("38_page_labels_roman_front_matter.pdf", 4, "p. 2 (PDF p. 4)")
    assert "Rs. 1,499" in answer.answer
    path = svc.original_path(WS, c.source)
    preview = render_page_preview(path, c.page_start, c.text)
    assert preview.page == 4 and preview.image and preview.located > 0.8


def test_rotated_margin_note_is_found_by_bm25(svc):
    top = _top(svc, "escrow threshold margin note", mode="bm25", source="board_minutes.pdf")
    assert NOTE in top.text and top.locator == "page 1"


def test_case_42_markdown_image_is_one_short_chunk_without_base64(svc):
    chunks = next(rows for record, rows in svc.chunk_rows(WS) if record.source == "42_markdown_with_base64_image.md")
    assert 1 <= len(chunks) <= 2 and "[image: floor plan]" in chunks[0]["text"]
    for query in ("floor plan image", "iVBORw0KGgo base64 png", "locker room hours"):
        for r in svc.search(query, WS).results:
            assert "base64" not in r.text and "data:image" not in r.text


def test_passage_view_shows_the_slide_and_the_sheet_rows_with_the_passage_marked(svc):
    slide = _top(svc, "EBITDA margin excludes the one-off treasury gain")
    view = svc.passage(slide.source, slide.chunk_id, WS)
    assert view.locator == "Slide 2" and view.text[view.start : view.end] == slide.text
    assert view.text.startswith("Profitability") and not view.clipped
    row = _top(svc, "Nashik Road deposits", source="branches.xlsx")
    view = svc.passage(row.source, row.chunk_id, WS)
    assert view.text[view.start : view.end] == row.text and view.locator == row.locator
    assert "Item: Source" not in view.text, "only the rows of the passage's sheet"
    assert svc.passage(row.source, "no-such-chunk", WS) is None


def test_cli_ingests_the_new_types(tmp_path, embedder, monkeypatch, capsys):
    service = offline_service(tmp_path / "cli_home", embedder)
    monkeypatch.setattr("prism.cli.common.service", lambda: service)
    deck = tmp_path / "deck.pptx"
    deck.write_bytes(files.build_pptx())
    book = tmp_path / "book.xlsx"
    book.write_bytes(files.build_xlsx())
    old = tmp_path / "old.rtf"
    old.write_text("{\\rtf1 hello}")
    code = main(["ingest", str(deck), str(book), str(old), "--workspace", "cli", "--json"])
    out = json.loads(capsys.readouterr().out)
    status = {o["file"]: o["status"] for o in out}
    assert status == {"deck.pptx": "ingested", "book.xlsx": "ingested", "old.rtf": "failed"} and code != 0
    error = next(o["error"] for o in out if o["file"] == "old.rtf")
    assert "upload PDF, DOCX, XLSX, PPTX, HTML, TXT, MD or CSV files" in error
    assert next(o["pages"] for o in out if o["file"] == "deck.pptx") == 3
