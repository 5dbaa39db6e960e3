"""Running headers and footers (prism.ingestion.parsing.running): found on real PDFs, removed before chunking, body
kept."""

from __future__ import annotations

from prism.config import Settings
from prism.ingestion import parsing
from prism.ingestion.parsing.running import line_key, strip_running_lines
from prism.types import IngestItem, Page, ParsedDocument
from tests.conftest import DATA, REPO, needs_data

NO_OCR = Settings(ocr_enabled=False)
KNOBS = dict(zone=2, min_share=0.5, min_pages=4, max_chars=120)
CIRCULAR = REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf"
RBI_NBFC = DATA / "rbi" / "pdfs" / "NT150D4BEA3889CD42F794F124D97AEB5B69.PDF"


def _doc(*texts: str) -> ParsedDocument:
    return ParsedDocument("t.pdf", "pdf", tuple(Page(i, t) for i, t in enumerate(texts, start=1)), len(texts))


def test_line_key_masks_digits_case_and_spaces():
    assert line_key("  Page 3 of   5 ") == line_key("PAGE 12 of 40") == "page # of #"


def test_bank_circular_loses_its_header_and_page_footer_but_keeps_its_body():
    doc = parsing.load(CIRCULAR, settings=NO_OCR)
    assert all(p.text.splitlines()[-1].startswith("Page ") for p in doc.pages)  # the premise: "Page n of 5" runs
    stripped, found = strip_running_lines(doc, **KNOBS)
    assert found.bottom == ("page # of #",)
    assert len(found.top) == 1 and found.top[0].startswith("meridian bank ltd · upi operating circular")
    assert found.lines_removed == 2 * len(doc.pages)
    assert [p.number for p in stripped.pages] == [p.number for p in doc.pages]
    for before, after in zip(doc.pages, stripped.pages, strict=True):
        assert "Page " not in after.text.splitlines()[-1] and "Fictional sample document" not in after.text
        assert after.text == "\n".join(before.text.splitlines()[1:-1]).strip()  # exactly the two lines, no more
    # the circular number stays where the body states it
    assert "Circular No. MBL/2025-26/OPS/017 · Dated 12 June 2025" in stripped.pages[0].text


@needs_data
def test_rbi_master_circular_loses_its_short_title_and_page_numbers():
    doc = parsing.load(RBI_NBFC, settings=NO_OCR)
    stripped, found = strip_running_lines(doc, **KNOBS)
    # pypdf's layout mode reads this header after the body (the PDF draws it last), plain mode first: either way
    running = found.top + found.bottom
    assert "dor – mc – bank finance to nbfcs, #" in running and "#" in running
    assert not any(line_key(line) == "dor – mc – bank finance to nbfcs, #"
                   for p in stripped.pages[1:] for line in p.text.splitlines())
    assert "Reserve Bank of India has been regulating" in " ".join(" ".join(p.text.split()) for p in stripped.pages)


def test_short_documents_rare_lines_and_unpaged_sources_are_left_alone():
    three = _doc("Header\nbody one", "Header\nbody two", "Header\nbody three")
    assert strip_running_lines(three, **KNOBS)[0] is three  # a 3-page letter: every letterhead line repeats
    rare = _doc("Intro line\na", "Other\nb", "Intro line\nc", "More\nd", "Else\ne", "Last\nf", "Yet\ng")
    assert strip_running_lines(rare, **KNOBS)[0] is rare  # on 2 of 7 pages: content
    unpaged = ParsedDocument("n.txt", "txt", (Page(None, "x\ny"),), 0)
    assert strip_running_lines(unpaged, **KNOBS)[0] is unpaged


def test_footer_page_numbers_are_not_removed_from_the_top_and_all_furniture_pages_are_kept():
    words = ["revenue rose", "margins fell", "cash grew", "debt was repaid", "capex doubled"]
    pages = [f"Acme 10-K\n{w}\nnote on {w.split()[0]}\n{i}" for i, w in enumerate(words, start=1)]
    pages.append("Acme 10-K\n2024\ntable row\n6")  # a year opening a table: a number at the top is content
    pages.append("Acme 10-K\n7")  # nothing but furniture: kept as it was
    stripped, found = strip_running_lines(_doc(*pages), **KNOBS)
    assert found.top == ("acme #-k",) and found.bottom == ("#",)
    assert stripped.pages[0].text == "revenue rose\nnote on revenue"
    assert stripped.pages[5].text == "2024\ntable row"
    assert stripped.pages[6].text == "Acme 10-K\n7"


def test_ingested_chunks_carry_no_running_lines_and_the_setting_turns_it_off(service, prism_home):
    from prism.service import PrismService

    result = service.ingest([IngestItem(CIRCULAR)], "clean", briefing=False)[0]
    rows = service.open("clean").workspace.read_chunks(result.doc_id)
    assert rows and not any("Page " in r["text"] and " of 5" in r["text"] for r in rows)
    assert not any("Fictional sample document" in r["text"] for r in rows)
    # page 3 ends mid-sentence: its last chunk ends with the body's words, not with "Page 3 of 5"
    last = [r for r in rows if r["page_end"] == 3][-1]
    assert last["text"].rstrip().endswith("credit cards with a limit")

    kept = PrismService(Settings(running_lines_strip=False), embedder=service.embedder)
    result = kept.ingest([IngestItem(CIRCULAR)], "raw", briefing=False)[0]
    raw = kept.open("raw").workspace.read_chunks(result.doc_id)
    assert sum("Fictional sample document" in r["text"] for r in raw) >= 5
