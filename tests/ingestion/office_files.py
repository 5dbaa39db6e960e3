"""Builders of the Office and HTML test files (python-docx, openpyxl, python-pptx, msoffcrypto-tool): no binary
blobs in the repository. ``bench/formats.py`` builds its files with the same functions.

Each builder writes a small document an analyst could have: a board note (DOCX: headings, paragraphs, a table with a
header row, a bulleted list), a branch workbook (XLSX: sheet ``Q3`` with a header row and 20 branches, sheet
``Notes``), a results deck (PPTX: title slide, bullets with speaker notes, a table slide) and a saved web page (HTML:
script, style, navigation, cookie banner and footer around one article with a table). The facts the tests search for
are the module constants below.
"""

from __future__ import annotations

import datetime as dt
import io

DOCX_FACT = "The escrow threshold for merchant nodal accounts is Rs. 7,25,000 per account."
XLSX_FACT_BRANCH = "Nashik Road"
"""The branch on row 14 of sheet ``Q3`` (the header is row 1)."""
PPTX_NOTE = "Mention that the EBITDA margin of 18.2 per cent excludes the one-off treasury gain."
HTML_FACT = "Settlement of disputed UPI transactions must complete within T+5 working days."

_BRANCHES = [
    ("West", "Pune Camp"), ("West", "Thane"), ("West", "Nagpur"), ("South", "Chennai Anna Nagar"),
    ("South", "Bengaluru MG Road"), ("South", "Kochi"), ("North", "Delhi Karol Bagh"), ("North", "Jaipur"),
    ("North", "Lucknow"), ("East", "Kolkata Park Street"), ("East", "Bhubaneswar"), ("East", "Guwahati"),
    ("West", XLSX_FACT_BRANCH), ("South", "Hyderabad Banjara Hills"), ("North", "Chandigarh"), ("East", "Patna"),
    ("West", "Surat"), ("South", "Coimbatore"), ("North", "Amritsar"), ("East", "Ranchi"),
]  # fmt: skip


def build_docx(sections: int = 1) -> bytes:
    """A board note: Heading 1, paragraphs, a Heading 2 per section, a 3-column table with a header row, a bulleted
    list and a page header ("Confidential") — ``sections`` times the body (for speed runs)."""
    from docx import Document

    doc = Document()
    doc.sections[0].header.paragraphs[0].text = "Confidential - board use only"
    doc.add_heading("Board note: liquidity review Q3 FY25", level=1)
    doc.add_paragraph("The board reviewed the liquidity coverage ratio, which stood at 134 per cent at the end of "
                      "the quarter, well above the regulatory minimum of 100 per cent.")
    for n in range(1, sections + 1):
        suffix = f" (part {n})" if sections > 1 else ""
        doc.add_heading(f"Deposits by segment{suffix}", level=2)
        doc.add_paragraph("Retail deposits grew faster than corporate deposits; the table gives the balances in "
                          "crore of rupees.")
        table = doc.add_table(rows=1, cols=3)
        table.style = "Table Grid"
        for cell, text in zip(table.rows[0].cells, ("Segment", "Q2 FY25", "Q3 FY25"), strict=True):
            cell.text = text
        for row in (("Retail", "4,210", "4,480"), ("Corporate", "2,950", "2,870"), ("Government", "1,120", "1,190")):
            cells = table.add_row().cells
            for cell, text in zip(cells, row, strict=True):
                cell.text = text
        doc.add_heading(f"Merchant accounts{suffix}", level=2)
        doc.add_paragraph(DOCX_FACT)
        for item in ("Reconcile nodal balances daily.", "Report breaches to the compliance officer within a day."):
            doc.add_paragraph(item, style="List Bullet")
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def build_xlsx(rows: int = 20) -> bytes:
    """A branch workbook: sheet ``Q3`` (header row: Region, Branch, Deposits (₹ crore), Advances (₹ crore), CASA
    share, Audit date; then ``rows`` branches, the 13th being :data:`XLSX_FACT_BRANCH` on sheet row 14) and sheet
    ``Notes`` (Item, Note)."""
    from openpyxl import Workbook

    wb = Workbook()
    sheet = wb.active
    sheet.title = "Q3"
    sheet.append(["Region", "Branch", "Deposits (₹ crore)", "Advances (₹ crore)", "CASA share", "Audit date"])
    for i in range(rows):
        region, branch = _BRANCHES[i % len(_BRANCHES)]
        if i >= len(_BRANCHES):
            branch = f"{branch} {i // len(_BRANCHES) + 1}"
        deposits = 1234 if branch == XLSX_FACT_BRANCH else 800 + 37 * i
        sheet.append([region, branch, deposits, round(deposits * 0.71, 1), 0.25 + i / 200,
                      dt.date(2024, 12, 1 + i % 28)])
        sheet.cell(row=sheet.max_row, column=5).number_format = "0.0%"
        sheet.cell(row=sheet.max_row, column=6).number_format = "yyyy-mm-dd"
    notes = wb.create_sheet("Notes")
    notes.append(["Item", "Note"])
    notes.append(["Source", "Branch MIS as of 31 December 2024"])
    notes.append(["Owner", "Treasury operations"])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def build_pptx(slides: int = 3) -> bytes:
    """A results deck: a title slide, a bullet slide whose speaker notes hold :data:`PPTX_NOTE`, and a table slide
    (Segment, Revenue (₹ crore)) — slides 2 and 3 repeated to make ``slides`` slides (for speed runs)."""
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    first = deck.slides.add_slide(deck.slide_layouts[0])
    first.shapes.title.text = "Q3 FY25 results"
    first.placeholders[1].text = "Meridian Bank investor call"
    made = 1
    while made < slides:
        bullets = deck.slides.add_slide(deck.slide_layouts[1])
        bullets.shapes.title.text = "Profitability"
        body = bullets.placeholders[1].text_frame
        body.text = "EBITDA margin rose to 18.2 per cent"
        body.add_paragraph().text = "Net interest margin held at 3.4 per cent"
        bullets.notes_slide.notes_text_frame.text = PPTX_NOTE
        made += 1
        if made >= slides:
            break
        table_slide = deck.slides.add_slide(deck.slide_layouts[5])
        table_slide.shapes.title.text = "Revenue by segment"
        shape = table_slide.shapes.add_table(3, 2, Inches(1), Inches(2), Inches(6), Inches(1.5))
        for r, row in enumerate((("Segment", "Revenue (₹ crore)"), ("Retail", "1,842"), ("Wholesale", "1,215"))):
            for c, text in enumerate(row):
                shape.table.cell(r, c).text = text
        made += 1
    buf = io.BytesIO()
    deck.save(buf)
    return buf.getvalue()


def build_html(articles: int = 1) -> bytes:
    """A saved web page: style, script, navigation, cookie banner and footer around one article (h1, paragraphs,
    an h2, a table with a header row, an inline data-URI image) — the article ``articles`` times (for speed runs)."""
    body = "".join(
        f"""<h2>Dispute resolution{f' ({n})' if articles > 1 else ''}</h2>
<p>{HTML_FACT} Banks that miss the deadline pay compensation of Rs. 100 per day of delay to the customer.</p>
<table><thead><tr><th>Transaction type</th><th>Turn-around time</th></tr></thead>
<tbody><tr><td>Failed debit, account debited</td><td>T+1 day</td></tr>
<tr><td>Merchant refund not credited</td><td>T+5 days</td></tr></tbody></table>
<p>Customers may escalate unresolved complaints to the bank's nodal officer and then to the ombudsman.</p>"""
        for n in range(1, articles + 1)
    )
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>UPI dispute rules | PayNews</title>
<style>body {{ font-family: sans-serif; }} .menu {{ color: red; }}</style>
<script>window.dataLayer = []; function track() {{ console.log("tracking pixel loaded"); }}</script></head>
<body><header><nav class="menu"><a href="/">Home</a> <a href="/markets">Markets</a> <a href="/login">Sign in</a>
<a href="/subscribe">Subscribe now</a></nav></header>
<div class="cookie">We use cookies to improve your experience. Accept all cookies?</div>
<main><article><h1>New UPI dispute rules take effect</h1>
<p>The payments regulator has tightened the timelines for resolving disputed UPI transactions, effective from the
first of next month, after a review of customer complaints.</p>
<img alt="chart of complaints" src="data:image/png;base64,{'iVBORw0KGgo' * 40}">
{body}</article></main>
<footer><p>Copyright 2025 PayNews. All rights reserved.</p><a href="/privacy">Privacy policy</a></footer>
<script>track();</script></body></html>""".encode()


def save(document: object) -> bytes:
    """The bytes of a python-docx ``Document``, openpyxl ``Workbook`` or python-pptx ``Presentation``."""
    buf = io.BytesIO()
    document.save(buf)  # type: ignore[attr-defined]
    return buf.getvalue()


def encrypt_office(data: bytes, password: str = "secret") -> bytes:
    """``data`` (an OOXML file) encrypted with ``password`` by msoffcrypto-tool (Agile encryption, as Office does)."""
    from msoffcrypto.format.ooxml import OOXMLFile

    out = io.BytesIO()
    OOXMLFile(io.BytesIO(data)).encrypt(password, out)
    return out.getvalue()
