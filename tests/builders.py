"""Small PDFs built inside the tests with fpdf2 and Pillow, so tests about Prism's behaviour need no file beside the
clone: text pages, an image-only (scanned) page, a page holding only a page number, and a long many-page circular.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from pathlib import Path

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
