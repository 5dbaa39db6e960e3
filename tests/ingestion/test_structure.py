"""Tables at ingest: table chunks cut only between rows, indexed under the table's title, periods and unit, with the
table's id, columns, unit and rows in the chunk metadata; unit lines and statement headings kept by running-line
removal; CSV files chunked as tables. Real parsers, the real embedder, a real Chroma in a temp dir."""

from __future__ import annotations

import re

import pytest
from fpdf import FPDF

from prism.config import Settings
from prism.ingestion import parsing
from prism.ingestion.chunking import chunk_document, document_text
from prism.ingestion.parsing.running import find_running_lines, strip_running_lines
from prism.ingestion.prepare import chunk, index_text, read_profile, strip_running, title_for
from prism.types import DocumentProfile, IngestItem
from tests.conftest import require_data

NO_OCR = Settings(ocr_enabled=False, parse_in_subprocess=False)
ROWS = [(f"Item {i} expense", f"{1000 + i * 37:,}", f"{900 + i * 31:,}", f"{800 + i * 29:,}") for i in range(1, 41)]
HEADER = "CONSOLIDATED STATEMENTS OF OPERATIONS | 2015 | 2014 | 2013 | in thousands"


def _line(pdf: FPDF, label: str, values: tuple[str, ...] = ()) -> None:
    pdf.cell(100, 5, label)
    for v in values:
        pdf.cell(30, 5, v, align="R")
    pdf.cell(0, 5, "", new_x="LMARGIN", new_y="NEXT")


def statement_pdf(path, prose: bool = True) -> None:
    """One page: a paragraph of prose, then a 40-row income statement in thousands for 2015, 2014, 2013."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=9)
    pdf.add_page()
    if prose:
        pdf.multi_cell(0, 5, "Management's discussion. Revenues grew because more members joined the streaming "
                             "service in every region, and marketing spending rose with them. " * 3)
        pdf.ln(5)
    for line in ("ACME Holdings, Inc.", "CONSOLIDATED STATEMENTS OF OPERATIONS",
                 "(in thousands, except per share data)"):
        pdf.cell(0, 5, line, new_x="LMARGIN", new_y="NEXT", align="C")
    _line(pdf, "Year ended December 31,")
    _line(pdf, "", ("2015", "2014", "2013"))
    for label, *values in ROWS:
        _line(pdf, label, tuple(values))
    pdf.output(str(path))


def test_a_table_page_is_cut_between_rows_and_indexed_under_its_header(service, embedder, tmp_path):
    pdf = tmp_path / "acme_2015_annual_report.pdf"
    statement_pdf(pdf)
    [result] = service.ingest([IngestItem(pdf)], "tables", briefing=False)
    handle = service.open("tables")
    rows = handle.workspace.read_chunks(result.doc_id)
    table_rows = [r for r in rows if "table_id" in r]
    prose_rows = [r for r in rows if "table_id" not in r]
    assert prose_rows and prose_rows[0]["text"].startswith("Management's discussion.")
    assert len(table_rows) >= 3  # 40 rows of ~34 characters do not fit one 500-character chunk
    row_lines = {" ".join((label, *values)) for label, *values in ROWS}
    title = title_for(pdf.name, service.settings, service.documents("tables")[0].effective_profile())
    assert title and title.endswith("acme 2015 annual report")
    seen = []
    for r in table_rows:
        lines = r["text"].split("\n")
        body = [ln for ln in lines if ln.startswith("Item ")]
        assert all(ln in row_lines for ln in body), lines  # whole rows only
        seen += body
        assert (r["table_id"], r["table_title"], r["table_columns"], r["table_unit"]) == (
            "p1-t1", "CONSOLIDATED STATEMENTS OF OPERATIONS", "2015 | 2014 | 2013", "thousands")
        assert r["index_text"] == f"{title}\n\n{HEADER}\n{r['text']}"
        assert embedder.count_tokens(r["index_text"]) <= embedder.max_tokens
        for row in r["table"]["rows"]:  # offsets into the chunk's own text
            assert r["text"][row["start"]:row["end"]].startswith(row["label"])
            assert [r["text"][a:b] for a, b in row["cell_spans"]] == row["cells"]
    assert seen == [" ".join((label, *values)) for label, *values in ROWS]  # every row once, in order
    assert table_rows[0]["text"].startswith("CONSOLIDATED STATEMENTS OF OPERATIONS\n(in thousands")
    # the store keeps the chunk's own text, with the table keys in its metadata (no None anywhere)
    got = handle.store._col.get(ids=[r["chunk_id"] for r in table_rows], include=["documents", "metadatas"])
    for cid, text, meta in zip(got["ids"], got["documents"], got["metadatas"], strict=True):
        row = next(r for r in table_rows if r["chunk_id"] == cid)
        assert text == row["text"] and None not in meta.values()
        assert meta["table_columns"] == "2015 | 2014 | 2013" and meta["table_unit"] == "thousands"
    assert handle.workspace.documents()[0].tables == 1
    # the stored text is the document text: chunking the parsed pages again gives the same spans
    parsed, _ = strip_running(parsing.load(pdf, settings=NO_OCR), NO_OCR)
    text, _ = document_text(parsed)
    for r in rows:
        assert text[r["char_start"]:r["char_end"]] == r["text"]


def test_chunks_keep_every_character_and_never_overlap_a_table(embedder, tmp_path):
    pdf = tmp_path / "statement.pdf"
    statement_pdf(pdf)
    doc = parsing.load(pdf, settings=NO_OCR)
    chunks = chunk_document(doc, "ab" * 32, chunk_size=500, chunk_overlap=50, count_tokens=embedder.count_tokens,
                               max_tokens=200)
    text, _ = document_text(doc)
    assert [c.chunk_index for c in chunks] == list(range(len(chunks)))
    assert all(text[c.char_start:c.char_end] == c.text for c in chunks)
    tables = [c for c in chunks if c.table]
    assert all(embedder.count_tokens(index_text(None, c)) <= 200 for c in chunks)
    assert all(a.char_end <= b.char_start for a, b in zip(tables, tables[1:], strict=False))  # no overlap
    covered = "".join(text[c.char_start:c.char_end] for c in tables)
    assert all(" ".join((label, *values)) in covered for label, *values in ROWS)
    assert all(c.table.column_headers == ("2015", "2014", "2013") for c in tables)
    # without tables the same text is chunked as prose, across the statement
    plain = chunk_document(doc, "ab" * 32, chunk_size=500, chunk_overlap=50, find=False)
    assert not any(c.table for c in plain) and all(text[c.char_start:c.char_end] == c.text for c in plain)


def test_netflix_2015_income_statement_chunk_carries_its_periods_and_unit(embedder):
    path = require_data("financebench-dev", "pdfs", "NETFLIX_2015_10K.pdf")
    doc = parsing.load(path, settings=NO_OCR)
    _, profile = read_profile(doc)
    stripped, _ = strip_running(doc, Settings())
    chunks = chunk(stripped, "cd" * 32, None, embedder, Settings(), profile.metadata())
    income = [c for c in chunks if c.page_start == 40 and c.table and "Net income" in c.text]
    assert income, [c.text[:80] for c in chunks if c.page_start == 40]
    c = income[0]
    meta = c.metadata()
    assert meta["table_columns"] == "2015 | 2014 | 2013" and meta["table_unit"] == "thousands"
    assert meta["table_title"] == "CONSOLIDATED STATEMENTS OF OPERATIONS"
    assert (meta["entity"], meta["doc_type"], meta["period"]) == ("Netflix, Inc.", "10-K", "FY2015")
    assert "CONSOLIDATED STATEMENTS OF OPERATIONS | 2015 | 2014 | 2013 | in thousands" in index_text(None, c)
    net = next(r for r in c.table.rows if r.label == "Net income")
    assert net.cells == ("122,641", "266,799", "112,403")
    assert [c.text[a:b].lstrip("$ ") for a, b in net.cell_spans] == ["122,641", "266,799", "112,403"]


BODIES = ("Cash rose as customers paid faster.", "Inventories fell after the warehouse sale.",
          "Receivables grew with the new contracts.", "Debt was refinanced at a lower rate.",
          "Goodwill is tested for impairment every year.")


def _running_pdf(path, pages: int = 5) -> None:
    """Every page: a running title, a statement heading and a unit line on top, a page footer at the bottom."""
    pdf = FPDF()
    pdf.set_font("Helvetica", size=10)
    pdf.set_auto_page_break(False)
    for n in range(1, pages + 1):
        pdf.add_page()
        for line in ("ACME Corp Annual Report 2024", "CONSOLIDATED BALANCE SHEETS", "(In millions)"):
            pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
        pdf.multi_cell(0, 6, f"{BODIES[n % len(BODIES)]} This is page {n} of the balance sheet notes.")
        pdf.set_y(-20)
        pdf.cell(0, 6, f"Page {n} of {pages}", align="C")
    pdf.output(str(path))


def test_unit_lines_and_statement_headings_survive_running_line_removal(service, tmp_path):
    pdf = tmp_path / "acme_balance_sheets.pdf"
    _running_pdf(pdf)
    doc = parsing.load(pdf, settings=NO_OCR)
    top, bottom = find_running_lines(doc.pages, zone=3, min_share=0.5, max_chars=120)
    assert top == {"acme corp annual report #"} and bottom == {"page # of #"}  # never the heading or the unit
    stripped, removed = strip_running_lines(doc, zone=3, min_share=0.5, min_pages=4, max_chars=120)
    for page in stripped.pages:
        assert page.text.startswith("CONSOLIDATED BALANCE SHEETS\n(In millions)\n")
        assert "ACME Corp Annual Report" not in page.text and "Page " not in page.text
    assert [(r.text, r.position, r.pages) for r in removed.removed] == [
        ("ACME Corp Annual Report 2024", "header", 5), ("Page 1 of 5", "footer", 5)]
    # through ingestion (default zone of two lines): the record lists what was removed, the unit line stays
    [result] = service.ingest([IngestItem(pdf)], "running", briefing=False)
    record = service.documents("running")[0]
    assert record.running_lines == [{"text": "ACME Corp Annual Report 2024", "position": "header", "pages": 5},
                                    {"text": "Page 1 of 5", "position": "footer", "pages": 5}]
    rows = service.open("running").workspace.read_chunks(result.doc_id)
    joined = "\n".join(r["text"] for r in rows)
    assert joined.count("(In millions)") == 5 and joined.count("CONSOLIDATED BALANCE SHEETS") == 5
    assert "ACME Corp Annual Report" not in joined


def test_a_csv_becomes_a_table_chunked_by_rows(service, embedder):
    header = "Bank,FY2024 (₹ crore),FY2023 (₹ crore)\n"
    body = "".join(f'Member bank number {i} of the network,"{i * 101:,}","{i * 97:,}"\n' for i in range(1, 31))
    [result] = service.ingest([IngestItem((header + body).encode(), "bank_loans.csv")], "csv", briefing=False)
    assert result.status == "ingested" and result.chunks >= 3
    rows = service.open("csv").workspace.read_chunks(result.doc_id)
    assert all(r["table_id"] == "t1" for r in rows)
    assert all(r["table_columns"] == "FY2024 (₹ crore) | FY2023 (₹ crore)" for r in rows)
    assert all(r["table_unit"] == "crore" for r in rows)
    lines = [ln for r in rows for ln in r["text"].split("\n")]
    assert lines == [f"Bank: Member bank number {i} of the network; FY2024 (₹ crore): {i * 101:,}; "
                     f"FY2023 (₹ crore): {i * 97:,}" for i in range(1, 31)]  # whole rows, each once, in order
    assert all(r["index_text"].endswith(f"FY2024 (₹ crore) | FY2023 (₹ crore) | in crore\n{r['text']}")
               for r in rows)
    assert all(embedder.count_tokens(r["index_text"]) <= embedder.max_tokens for r in rows)
    first = rows[0]["table"]["rows"][0]
    assert (first["label"], first["cells"]) == ("Member bank number 1 of the network", ["101", "97"])
    assert [rows[0]["text"][a:b] for a, b in first["cell_spans"]] == ["FY2024 (₹ crore): 101", "FY2023 (₹ crore): 97"]


@pytest.mark.parametrize("name", ["doc01.pdf", "scan_0003.pdf", "document (2).pdf"])
def test_numbered_generic_file_names_give_no_title(name):
    assert title_for(name, Settings(title_source="file_name")) is None
    assert re.fullmatch(r"3M 2022 10K", title_for("3M_2022_10K.pdf", Settings(title_source="file_name")) or "")


def test_auto_title_is_the_informative_file_name_else_the_profile():
    """The default title source: a well-named file keeps its name's title (the profile's words on every chunk of
    such files cost the sample set 0.036 NDCG@10); an opaque name gets the profile's."""
    profile = DocumentProfile.from_dict({"entity": "Netflix, Inc.", "type": "10-K", "period": "FY2015"})
    auto = Settings()
    assert auto.title_source == "auto"
    assert title_for("3M_2022_10K.pdf", auto, profile) == "3M 2022 10K"
    assert title_for("doc01.pdf", auto, profile) == "Netflix, Inc. 10-K FY2015"
    assert title_for("doc01.pdf", auto, None) is None
    both = Settings(title_source="both")
    assert title_for("3M_2022_10K.pdf", both, profile) == "Netflix, Inc. 10-K FY2015 | 3M 2022 10K"
