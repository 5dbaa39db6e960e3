"""No data column is dropped because its header cell is empty (case c56's kind, for DOCX, PPTX and HTML tables): an
empty header cell is named by its position, a merged header cell names every column it spans. Files built here with
python-docx, python-pptx and by hand."""

from __future__ import annotations

import io

from prism.config import Settings
from prism.ingestion import parsing
from prism.ingestion.parsing.blocks import PageBuilder

SETTINGS = Settings(ocr_enabled=False)
_INTRO = ("The bank reports its segment results for the year ended 31 March 2024 below, in crore of rupees, for each "
          "of its segments.")


def test_the_page_builder_keeps_values_under_empty_and_missing_header_cells():
    builder = PageBuilder(None)
    builder.table(["Segment", "", "Revenue"], [["Retail", "8.5%", "1,210", "231"], ["Corporate", "", "980", ""]])
    text, (table,) = builder.build()
    assert text == ("Segment: Retail; column 2: 8.5%; Revenue: 1,210; column 4: 231\n"
                    "Segment: Corporate; Revenue: 980")
    assert table.column_headers == ("column 2", "Revenue", "column 4")
    assert [r.cells for r in table.rows] == [("8.5%", "1,210", "231"), ("", "980", "")]
    empty = PageBuilder(None)
    empty.table(["", ""], [["Retail", "1,210"]])  # a header row without any text: every column named
    assert empty.build()[0] == "column 1: Retail; column 2: 1,210"


def test_docx_table_with_empty_and_merged_header_cells_keeps_every_column():
    from docx import Document

    doc = Document()
    doc.add_paragraph(_INTRO)
    table = doc.add_table(rows=3, cols=4)
    header = table.rows[0].cells
    header[0].text = "Segment"
    header[1].merge(header[2]).text = "Revenue"
    for row, values in zip(table.rows[1:], (("Retail", "1,210", "8.5%", "231"), ("MSME", "640", "5.1%", "98")),
                           strict=True):
        for cell, value in zip(row.cells, values, strict=True):
            cell.text = value
    buf = io.BytesIO()
    doc.save(buf)
    parsed = parsing.load(buf.getvalue(), "segments.docx", SETTINGS)
    assert parsed.pages[0].text.split("\n\n")[1] == ("Segment: Retail; Revenue: 1,210; Revenue: 8.5%; column 4: 231\n"
                                                      "Segment: MSME; Revenue: 640; Revenue: 5.1%; column 4: 98")
    assert parsed.tables[0].column_headers == ("Revenue", "Revenue", "column 4")


def test_pptx_table_with_empty_and_merged_header_cells_keeps_every_column():
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Segment results FY2024"
    table = slide.shapes.add_table(3, 4, Inches(0.5), Inches(1.5), Inches(8), Inches(2)).table
    table.cell(0, 0).text = "Segment"
    table.cell(0, 1).merge(table.cell(0, 2))
    table.cell(0, 1).text = "Revenue"
    for r, values in enumerate((("Retail", "1,210", "8.5%", "231"), ("MSME", "640", "5.1%", "98")), start=1):
        for c, value in enumerate(values):
            table.cell(r, c).text = value
    buf = io.BytesIO()
    deck.save(buf)
    parsed = parsing.load(buf.getvalue(), "segments.pptx", SETTINGS)
    assert parsed.pages[0].text.split("\n\n")[1] == ("Segment: Retail; Revenue: 1,210; Revenue: 8.5%; column 4: 231\n"
                                                      "Segment: MSME; Revenue: 640; Revenue: 5.1%; column 4: 98")
    assert parsed.tables[0].column_headers == ("Revenue", "Revenue", "column 4")


def test_html_table_with_empty_and_spanning_header_cells_names_every_column():
    html = (f"<!doctype html><html><body><article><h1>Segment results FY2024</h1><p>{_INTRO}</p><table>"
            "<tr><th>Segment</th><th colspan='2'>Revenue</th><th></th></tr>"
            "<tr><td>Retail</td><td>1,210</td><td>8.5%</td><td>231</td></tr>"
            "<tr><td>MSME</td><td>640</td><td>5.1%</td><td>98</td></tr></table>"
            "<p>The retail segment grew the fastest of the segments in the year, helped by its deposits.</p>"
            "</article></body></html>")
    doc = parsing.load(html.encode(), "segments.html", SETTINGS)
    lines = doc.pages[0].text.splitlines()
    head = lines.index("Segment: Retail; Revenue: 1,210; Revenue: 8.5%; column 4: 231")
    assert lines[head + 1] == "Segment: MSME; Revenue: 640; Revenue: 5.1%; column 4: 98"
    (table,) = doc.tables
    assert table.column_headers == ("Revenue", "Revenue", "column 4") and [r.label for r in table.rows] == [
        "Retail", "MSME"]


def test_html_tables_without_a_header_row_or_with_full_headers_are_left_as_they_are():
    from prism.ingestion.parsing.htmlfile import name_header_cells

    plain = "<table><tr><td>Retail</td><td></td></tr></table>"  # a first row of data cells is no header
    full = "<table><thead><tr><th>Segment</th><th>Revenue</th></tr></thead></table>"
    assert name_header_cells(plain) == plain and name_header_cells(full) == full
    assert "<td>column 2</td>" in name_header_cells("<table><thead><tr><td>Segment</td><td> </td></tr></thead></table>")
