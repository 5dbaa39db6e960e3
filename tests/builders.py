"""Small PDFs built inside the tests with fpdf2 and Pillow, so tests about Prism's behaviour need no file beside the
clone: text pages, an image-only (scanned) page, a page holding only a page number, and a long many-page circular.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from pathlib import Path

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fpdf import FPDF
from PIL import Image, ImageDraw, ImageFont

WORDS = ("bank", "branch", "capital", "credit", "customer", "exposure", "ledger", "limit", "liquidity", "loan",
         "margin", "policy", "provision", "quarter", "rate", "report", "return", "review", "risk", "settlement")


def text_pdf(path: Path, pages: Sequence[str], font_size: int = 11) -> Path:
    """A PDF with one page per text (Helvetica; ``\\n`` starts a line, long lines wrap). Latin-1 text only."""
    pdf = FPDF(unit="pt", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=font_size)
    for text in pages:
        pdf.add_page()
        pdf.set_xy(56, 56)
        pdf.multi_cell(w=483, h=font_size * 1.4, text=text)
    pdf.output(str(path))
    return path


def _box_font(chars: str) -> bytes:
    """A TrueType font (fontTools) with one box glyph per character of ``chars``, each mapped to its own code point,
    so a PDF written with it carries exactly those code points in its ToUnicode map (private-use ones included)."""
    names = [".notdef", *(f"u{ord(c):04X}" for c in chars)]
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder(names)
    builder.setupCharacterMap({ord(c): f"u{ord(c):04X}" for c in chars})
    glyphs = {}
    for name in names:
        pen = TTGlyphPen(None)
        if name not in (".notdef", "u0020"):
            pen.moveTo((50, 0))
            for point in ((50, 600), (450, 600), (450, 0)):
                pen.lineTo(point)
            pen.closePath()
        glyphs[name] = pen.glyph()
    builder.setupGlyf(glyphs)
    builder.setupHorizontalMetrics({name: (500, 50) for name in names})
    builder.setupHorizontalHeader(ascent=800, descent=-200)
    builder.setupNameTable({"familyName": "PrismBoxes", "styleName": "Regular"})
    builder.setupOS2(sTypoAscender=800, usWinAscent=800, usWinDescent=200)
    builder.setupPost()
    out = io.BytesIO()
    builder.save(out)
    return out.getvalue()


def symbol_bullets_pdf(path: Path, lines: Sequence[str]) -> Path:
    """A one-page PDF of ``lines`` whose text layer holds what Word's Symbol/Wingdings list bullets extract as:
    private-use code points (``"\\uf0b7 Merchants shall …"``; pypdf reads them back as written). Any printable ASCII
    and private-use characters may be used (a generated font has a glyph for each)."""
    chars = "".join(sorted({chr(c) for c in range(32, 127)} | {c for line in lines for c in line}))
    font = path.with_suffix(".ttf")
    font.write_bytes(_box_font(chars))
    pdf = FPDF(unit="pt", format="A4")
    pdf.add_font("PrismBoxes", fname=str(font))
    pdf.set_font("PrismBoxes", size=11)
    pdf.add_page()
    pdf.set_xy(56, 56)
    pdf.multi_cell(w=483, h=16, text="\n".join(lines))
    pdf.output(str(path))
    font.unlink()
    return path


def unicode_pdf(path: Path, pages: Sequence[str], font_size: int = 10) -> Path:
    """A PDF with one page per text, like :func:`text_pdf`, in any characters (₹, €, “ ”, —, •): a font generated
    for exactly the characters used (one box glyph each), so the text layer holds them as written."""
    chars = "".join(sorted({chr(c) for c in range(32, 127)} | {c for text in pages for c in text if c != "\n"}))
    font = path.with_suffix(".ttf")
    font.write_bytes(_box_font(chars))
    pdf = FPDF(unit="pt", format="A4")
    pdf.set_auto_page_break(False)
    pdf.add_font("PrismBoxes", fname=str(font))
    pdf.set_font("PrismBoxes", size=font_size)
    for text in pages:
        pdf.add_page()
        pdf.set_xy(40, 40)
        pdf.multi_cell(w=515, h=font_size * 1.4, text=text)
    pdf.output(str(path))
    font.unlink()
    return path


def image_only_pdf(path: Path, lines: Sequence[str]) -> Path:
    """A one-page PDF whose page is a picture of ``lines`` (black on white, 44 px type): no text layer, as a scan."""
    image = Image.new("L", (1240, 140 + 100 * len(lines)), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=44)
    for i, line in enumerate(lines):
        draw.text((60, 70 + 100 * i), line, font=font, fill=0)
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    pdf = FPDF(unit="pt", format="A4")
    pdf.add_page()
    pdf.image(io.BytesIO(buf.getvalue()), x=40, y=40, w=515)
    pdf.output(str(path))
    return path


def long_circular(path: Path, pages: int, seed: int = 7) -> Path:
    """A circular of ``pages`` dense pages (about 2,600 characters each: ~6 chunks a page), each with numbered
    clauses of varied words, so every chunk differs. ``seed`` fixes the text."""
    rng = random.Random(seed)
    texts = []
    for page in range(1, pages + 1):
        clauses = []
        for clause in range(1, 8):
            words = " ".join(rng.choice(WORDS) for _ in range(55))
            clauses.append(f"{page}.{clause} Clause {page}.{clause} on {words}.")
        texts.append("\n".join(clauses))
    return text_pdf(path, texts, font_size=9)


RULE_COVER = ("Reserve Bank of India, Department of Regulation, Central Office, Mumbai 400 001\n"
              "Telephone: (022) 2260 1000, e-mail: cgmdor@rbi.org.in\n"
              "RBI/2025-26/77 April 01, 2025\n\nAll Scheduled Commercial Banks\n\nMadam/Dear Sir\n\n"
              "Master Circular - Repayment of Deposits of Deceased Customers\n\n"
              "Please refer to our Master Circular RBI/2024-25/77 dated April 01, 2024 on the above subject. We have "
              "revised and updated the Master Circular which consolidates important instructions issued till "
              "March 31, 2025.\n\n2. A copy of the revised Master Circular is enclosed for your information. "
              "Please acknowledge receipt of this circular to our Regional Office.\n\nYours faithfully\n\n"
              "(A. Sharma)\nChief General Manager")
"""The covering letter of :func:`rule_circular`: every sentence boilerplate (addresses, "a copy is enclosed" …)."""
BURIED_RULE = ("3.4 Banks shall settle the claim of the nominee not later than fifteen days from the date of "
               "receipt of the claim, and shall pay compensation at the rate of 9 per cent per annum for the delay "
               "beyond that period.")
"""The operative rule of :func:`rule_circular`, buried on page 3 among clauses without a figure."""
WORDS_RULE = ("4.2 A bank whose deposits of deceased customers exceed fifteen crore rupees shall report them to the "
              "Regional Office every quarter.")
"""A rule of :func:`rule_circular` whose figure is written in words (page 4)."""


def rule_circular(path: Path, injection: str = "") -> Path:
    """A five-page master circular: the covering letter (:data:`RULE_COVER`), then pages of numbered clauses of
    varied words that oblige no one with a figure, with :data:`BURIED_RULE` in the middle of page 3 and
    :data:`WORDS_RULE` on page 4; ``injection`` (a sentence addressed to an AI) is put on page 2."""
    rng = random.Random(11)
    pages = [RULE_COVER]
    for page in range(2, 6):
        clauses = [f"{page}.{c} The {rng.choice(WORDS)} {rng.choice(WORDS)} of the bank is reviewed with care by the "
                   f"{rng.choice(WORDS)} committee in each {rng.choice(WORDS)} review." for c in range(1, 7)]
        if page == 2 and injection:
            clauses.insert(3, injection)
        if page == 3:
            clauses.insert(3, BURIED_RULE)
        if page == 4:
            clauses.insert(2, WORDS_RULE)
        pages.append("\n".join(clauses))
    return text_pdf(path, pages, font_size=10)


STATEMENT_ROWS = (
    ("Revenues", "$ 812,400", "$ 745,120", "$ 690,005"),
    ("Cost of revenues", "501,220", "468,310", "433,870"),
    ("Operating income", "96,310", "81,442", "(12,550)"),
    ("Interest expense", "(8,120)", "(7,960)", "(7,400)"),
    ("Net income", "$ 64,875", "$ 52,301", "$ (15,730)"),
)
"""The rows of :func:`statement_pdf`: label, then the 2023, 2022 and 2021 cells as printed (in thousands)."""


def _statement_page(pdf: FPDF, title: str, unit_line: str, span: str, columns: Sequence[str],
                    rows: Sequence[Sequence[str]], entity: str = "ACME WIDGETS, INC.") -> None:
    """One statement page: the entity, the statement's title and unit line, a column span heading, then the rows
    (label, then one cell per column) with the columns set at fixed positions."""
    pdf.add_page()
    for i, line in enumerate((entity, title, unit_line)):
        pdf.set_xy(56, 56 + 15 * i)
        pdf.cell(w=483, h=15, text=line)
    y = 107
    pdf.set_xy(300, y)
    pdf.cell(w=240, h=15, text=span, align="C")
    xs = (300, 380, 460)[:len(columns)]
    for row in (("", *columns), *rows):
        y += 16
        pdf.set_xy(56, y)
        pdf.cell(w=240, h=15, text=row[0])
        for x, cell in zip(xs, row[1:], strict=True):
            pdf.set_xy(x, y)
            pdf.cell(w=80, h=15, text=cell, align="R")


def _acme_pdf(statements: Sequence[tuple[str, str, str, Sequence[str], Sequence[Sequence[str]]]],
              entity: str = "ACME WIDGETS, INC.", business: str = "Acme Widgets makes industrial widgets",
              fiscal_year: int = 2023) -> FPDF:
    pdf = FPDF(unit="pt", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", size=11)
    pdf.add_page()
    pdf.set_xy(56, 56)
    pdf.multi_cell(w=483, h=15, text="UNITED STATES SECURITIES AND EXCHANGE COMMISSION\nFORM 10-K\nANNUAL REPORT "
                   "PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\nFor the fiscal year ended "
                   f"December 31, {fiscal_year}\n{entity}\n(Exact name of registrant as specified in its charter)\n"
                   f"{business} and sells them in North America and Europe.")
    for statement in statements:
        _statement_page(pdf, *statement, entity=entity)
    return pdf


_OPERATIONS = ("CONSOLIDATED STATEMENTS OF OPERATIONS", "(in thousands, except per share data)",
               "Year ended December 31,", ("2023", "2022", "2021"))


def statement_pdf(path: Path) -> Path:
    """A two-page 10-K of "Acme Widgets, Inc." (fiscal year ended December 31, 2023): a cover page, then its
    consolidated statement of operations "(in thousands, except per share data)" with the columns 2023, 2022 and
    2021 set at fixed positions (:data:`STATEMENT_ROWS`)."""
    _acme_pdf([(*_OPERATIONS, STATEMENT_ROWS)]).output(str(path))
    return path


BOLT_ROWS = (
    ("Revenues", "$ 402,900", "$ 388,000", "$ 350,100"),
    ("Operating income", "41,200", "39,800", "30,000"),
    ("Net income", "$ 27,310", "$ 25,004", "$ 19,870"),
)
"""The statement of operations of :func:`bolt_statement_pdf` (in thousands; 2023, 2022, 2021)."""


def bolt_statement_pdf(path: Path) -> Path:
    """A second company's two-page 10-K, "Bolt Gears, Inc." (fiscal year ended December 31, 2023): a cover page and
    its statement of operations (:data:`BOLT_ROWS`, in thousands), laid out as :func:`statement_pdf`'s."""
    _acme_pdf([(*_OPERATIONS, BOLT_ROWS)], entity="BOLT GEARS, INC.",
              business="Bolt Gears makes gearboxes").output(str(path))
    return path


BALANCE_ROWS = (
    ("Inventories", "62", "58"),
    ("Total current assets", "310", "290"),
    ("Total current liabilities", "150", "140"),
)
"""The balance sheet of :func:`statements_pdf` (in millions; December 31, 2023 and 2022)."""

CASH_FLOW_ROWS = (
    ("Net cash provided by operating activities", "120,600", "101,250", "40,100"),
    ("Depreciation and amortization", "35,190", "33,000", "30,020"),
    ("Capital expenditures", "(48,740)", "(44,707)", "(34,500)"),
)
"""The cash flow statement of :func:`statements_pdf` (in thousands; 2023, 2022, 2021)."""


def statements_pdf(path: Path) -> Path:
    """Acme's 10-K with three statements, one per page after the cover: operations (:data:`STATEMENT_ROWS`, in
    thousands), the balance sheet (:data:`BALANCE_ROWS`, in millions: inputs of one formula in two units) and cash
    flows (:data:`CASH_FLOW_ROWS`, in thousands)."""
    _acme_pdf([
        (*_OPERATIONS, STATEMENT_ROWS),
        ("CONSOLIDATED BALANCE SHEETS", "(in millions)", "December 31,", ("2023", "2022"), BALANCE_ROWS),
        ("CONSOLIDATED STATEMENTS OF CASH FLOWS", "(in thousands)", "Year ended December 31,",
         ("2023", "2022", "2021"), CASH_FLOW_ROWS),
    ]).output(str(path))
    return path


PENSION_TITLE = "Master Circular - Disbursement of Government Pension by Agency Banks"
"""The title line :func:`hash_named_circular` prints (shown with an en dash: :data:`PENSION_DISPLAY`)."""
PENSION_DISPLAY = "Master Circular – Disbursement of Government Pension by Agency Banks"
HASH_NAME = "05MC010420252ED8A74EE428468287D815016A33587F.pdf"
"""A file name as RBI serves it: a hash that names nothing."""


def hash_named_circular(folder: Path, name: str = HASH_NAME) -> Path:
    """A two-page RBI-style master circular saved under a hash name: the title after the salutation on page 1, a
    figure-bearing rule (compensation at 8 % per annum for delayed pension) on page 2."""
    page1 = ("RESERVE BANK OF INDIA\nRBI/2025-26/05\nCO.DGBA.GBD.No.S1/31.02.007/2025-26 April 01, 2025\n"
             f"All Agency Banks\nMadam/Dear Sir\n{PENSION_TITLE}\nPlease refer to our Master Circular on the above "
             "subject. We have revised and updated the Master Circular which consolidates important instructions.")
    page2 = ("Compensation for delayed pension\nAgency banks shall pay compensation at 8 % per annum for any delay in "
             "crediting the revised pension or arrears beyond the due date, to the pensioner's account.")
    return text_pdf(folder / name, [page1, page2])


def rd_10k_pdf(path: Path, entity: str, rd_label: str, rd_values: tuple[str, str], definition: str,
               fiscal_year: int = 2015) -> Path:
    """A 10-K of ``entity`` for the fiscal year ended December 31, ``fiscal_year``: a cover page, a page of text
    with ``definition`` (a sentence that defines research and development without an amount), then its statement
    of operations "(in thousands, except per share data)" whose research and development row is labelled
    ``rd_label`` (``rd_values`` for ``fiscal_year`` and the year before)."""
    rows = (("Revenues", "$ 6,779,511", "$ 5,504,656"), (rd_label, *rd_values),
            ("Operating income", "305,826", "402,648"), ("Net income", "$ 122,641", "$ 266,799"))
    columns = (str(fiscal_year), str(fiscal_year - 1))
    pdf = _acme_pdf([], entity=entity, business=f"{entity.title()} reports its results", fiscal_year=fiscal_year)
    pdf.add_page()
    pdf.set_xy(56, 56)
    pdf.multi_cell(w=483, h=15, text=f"Critical Accounting Policies\n{definition}")
    _statement_page(pdf, "CONSOLIDATED STATEMENTS OF OPERATIONS", "(in thousands, except per share data)",
                    "Year ended December 31,", columns, rows, entity=entity)
    pdf.output(str(path))
    return path


FILING_PAGES = (
    "FORM 10-K\nANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
    "For the fiscal year ended December 31, 2023\nACME WIDGETS, INC.",
    "TABLE OF CONTENTS\nPART I\nItem 1. Business 3\nItem 1A. Risk Factors 4\nPART II\n"
    "Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations 5\n"
    "Item 8. Financial Statements and Supplementary Data 6\nPART IV\nItem 15. Exhibits 8",
    "PART I\nItem 1. Business\nAcme Widgets makes industrial widgets in Ohio and sells them in North America. "
    "At year end we had 1,240 full-time employees, none of them covered by collective bargaining agreements.",
    "Item 1A. Risk Factors\nDemand for our widgets depends on industrial production. A downturn in manufacturing "
    "activity would reduce our sales, and the loss of our two largest customers would hurt our results.",
    "PART II\nItem 7. Management's Discussion and Analysis of Financial Condition and Results of Operations\n"
    "Revenue grew 8 percent in 2023, driven by higher widget volumes in North America and price increases taken "
    "in the second quarter; the gross margin narrowed because steel costs rose.",
    "Item 8. Financial Statements and Supplementary Data\nCONSOLIDATED BALANCE SHEETS\n(in thousands)\n"
    "Accounts payable 1,240 1,105\nTotal current liabilities 3,310 2,980",
    "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS\nNote 1. Significant accounting policies. Revenue is recognized "
    "when control of the widgets passes to the customer, normally on shipment.",
    "PART IV\nItem 15. Exhibits\nThe exhibits listed below are filed with this report. Exhibit 99.1 holds the "
    "financial statements of our unconsolidated joint venture.",
    "Exhibit 99.1\nFOXTROT HOLDINGS, LLC\nCONSOLIDATED BALANCE SHEETS\n(in thousands)\n"
    "Accounts payable 25,758 24,950\nTotal current liabilities 61,200 58,310",
)
"""The pages of :func:`filing_pdf`: a cover, a table of contents, one page per Item (Business, Risk Factors, MD&A,
Financial Statements), the notes, the exhibits list, and Exhibit 99.1: another entity's balance sheet."""


FILING_FILLER = " This paragraph is padding so that the page holds several chunks of its own."
"""Appended eight times to every page of :func:`filing_pdf` but the contents, so each page has chunks of its own."""


def filing_pdf(path: Path) -> Path:
    """A nine-page 10-K of "Acme Widgets, Inc." laid out by Item (:data:`FILING_PAGES`, each page but the contents
    padded with :data:`FILING_FILLER`)."""
    return text_pdf(path, [p if i == 1 else p + "\n" + FILING_FILLER * 8 for i, p in enumerate(FILING_PAGES)],
                    font_size=9)
