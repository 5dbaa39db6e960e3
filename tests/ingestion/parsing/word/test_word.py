"""Word fidelity (case c53 and its kind): tracked changes read as the document now reads, with a warning; content
controls, text boxes, footnotes, endnotes, headers and footers read or named in a warning, never silently lost.
Files are the case copy and DOCX files built here with python-docx, their body XML written by hand where python-docx
cannot write the construct (revisions, content controls, text boxes, notes)."""

from __future__ import annotations

import io
import zipfile

from prism.config import Settings
from prism.ingestion import parsing
from prism.types import IngestItem
from tests.conftest import CASES

SETTINGS = Settings(ocr_enabled=False)
_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_WML = "application/vnd.openxmlformats-officedocument.wordprocessingml."
_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _run(text: str) -> str:
    return f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r>'


def _p(*content: str) -> str:
    return f"<w:p>{''.join(content)}</w:p>"


def _docx(body: str, notes: dict[str, str] | None = None, header: str | None = None,
          footer: str | None = None) -> bytes:
    """A python-docx document whose body is ``body`` (WordprocessingML), with ``notes`` parts added by hand
    (``{"footnotes": xml, "endnotes": xml, "comments": xml}``) and a header and footer written by python-docx."""
    from docx import Document

    doc = Document()
    doc.add_paragraph("PLACEHOLDER")
    if header:
        doc.sections[0].header.paragraphs[0].text = header
    if footer:
        doc.sections[0].footer.paragraphs[0].text = footer
    buf = io.BytesIO()
    doc.save(buf)
    out = io.BytesIO()
    with zipfile.ZipFile(buf) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info).decode() if info.filename.endswith((".xml", ".rels")) else source.read(info)
            if info.filename == "word/document.xml":
                data = data.replace("<w:p><w:r><w:t>PLACEHOLDER</w:t></w:r></w:p>", body)
            for kind in notes or {}:
                if info.filename == "word/_rels/document.xml.rels":
                    data = data.replace("</Relationships>", f'<Relationship Id="rIdN{kind}" Type="{_RELS}{kind}" '
                                        f'Target="{kind}.xml"/></Relationships>')
                if info.filename == "[Content_Types].xml":
                    data = data.replace("</Types>", f'<Override PartName="/word/{kind}.xml" '
                                        f'ContentType="{_WML}{kind}+xml"/></Types>')
            target.writestr(info, data)
        for kind, xml in (notes or {}).items():
            target.writestr(f"word/{kind}.xml", f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n{xml}')
    return out.getvalue()


# --- c53: tracked changes ------------------------------------------------------------------------------------
def test_tracked_changes_read_as_the_document_now_reads_with_a_warning():
    doc = parsing.load(CASES / "c53_tracked_changes.docx", settings=SETTINGS)
    text = doc.pages[0].text
    assert "The revised repo-linked lending cap for Kestrel Small Finance Bank is Rs. 4,750 crore with effect from " \
           "1 April 2025." in text
    assert "3,900" not in text
    assert "The penal interest for a breach of the cap is 2.25 percent per annum" in text  # an inserted paragraph
    assert doc.warnings == ("c53_tracked_changes.docx has tracked changes (2 insertions, 1 deletion): the text is "
                            "read as the document now reads, insertions in and deletions out; accept or reject the "
                            "changes in Word and upload it again to be sure",)


def test_the_revised_cap_is_found_through_ingest_and_search(service):
    [result] = service.ingest([IngestItem(CASES / "c53_tracked_changes.docx")], "c53")
    assert result.status == "ingested"
    assert any("has tracked changes (2 insertions, 1 deletion)" in w for w in result.to_dict()["warnings"])
    found = service.search("the revised repo-linked lending cap for Kestrel Small Finance Bank", "c53", top_k=3)
    assert "Rs. 4,750 crore" in found.results[0].text
    assert all("3,900" not in r.text for r in found.results)


def test_moves_and_deleted_table_rows_resolve_to_the_current_text():
    row = "<w:tr>{}<w:tc><w:p>{}</w:p></w:tc><w:tc><w:p>{}</w:p></w:tc></w:tr>"
    body = (
        _p('<w:moveFrom w:id="1" w:author="A" w:date="2025-01-01T00:00:00Z">', _run("Old place of the clause."),
           "</w:moveFrom>")
        + _p(_run("Intro paragraph of the fee schedule."))
        + _p('<w:moveTo w:id="2" w:author="A" w:date="2025-01-01T00:00:00Z">', _run("Old place of the clause."),
             "</w:moveTo>")
        + "<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/></w:tblGrid>"
        + row.format("", _run("Fee"), _run("Amount"))
        + row.format('<w:trPr><w:del w:id="3" w:author="A" w:date="2025-01-01T00:00:00Z"/></w:trPr>',
                     _run("Withdrawn fee"), _run("Rs. 90"))
        + row.format("", _run("Card issue fee"), '<w:ins w:id="4" w:author="A"><w:r><w:t>Rs. 150</w:t></w:r></w:ins>'
                     '<w:del w:id="5" w:author="A"><w:r><w:delText>Rs. 120</w:delText></w:r></w:del>')
        + "</w:tbl>"
    )
    doc = parsing.load(_docx(body), "fees.docx", SETTINGS)
    text = doc.pages[0].text
    assert text.count("Old place of the clause.") == 1
    assert text.index("Intro paragraph") < text.index("Old place of the clause.")
    assert "Fee: Card issue fee; Amount: Rs. 150" in text
    assert "Withdrawn" not in text and "Rs. 120" not in text and "Rs. 90" not in text
    assert doc.warnings[0].startswith("fees.docx has tracked changes (2 insertions, 3 deletions)")


# --- content controls, text boxes, notes, headers, comments ---------------------------------------------------
def test_content_controls_and_text_boxes_are_read_once_in_order():
    box = ("<w:txbxContent>" + _p(_run("Sidebar: the escrow cap is Rs. 2 crore.")) + "</w:txbxContent>")
    body = (
        "<w:sdt><w:sdtPr><w:alias w:val=\"Borrower\"/></w:sdtPr><w:sdtContent>"
        + _p(_run("Borrower: Heron Microfinance Ltd."))
        + "</w:sdtContent></w:sdt>"
        + _p(_run("Sanctioned amount: "), "<w:sdt><w:sdtPr/><w:sdtContent>", _run("Rs. 35 crore"),
             "</w:sdtContent></w:sdt>", _run("."))
        + _p("<w:sdt><w:sdtPr><w:showingPlcHdr/></w:sdtPr><w:sdtContent>", _run("Click here to enter a date."),
             "</w:sdtContent></w:sdt>")
        + _p(_run("Body text before the box. "),
             '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:txbx>', box,
             "</wps:txbx></w:drawing></mc:Choice><mc:Fallback><w:pict><v:textbox>", box,
             "</v:textbox></w:pict></mc:Fallback></mc:AlternateContent></w:r>")
        + _p(_run("Closing paragraph."))
    )
    text = parsing.load(_docx(body), "sanction.docx", SETTINGS).pages[0].text
    assert text.split("\n\n") == ["Borrower: Heron Microfinance Ltd.", "Sanctioned amount: Rs. 35 crore.",
                                  "Body text before the box.", "Sidebar: the escrow cap is Rs. 2 crore.",
                                  "Closing paragraph."]


def test_footnotes_endnotes_and_headers_with_content_are_read_furniture_and_comments_named():
    separator = f'<w:footnote w:type="separator" w:id="-1">{_p(_run("----"))}</w:footnote>'
    notes = {
        "footnotes": f"<w:footnotes {_W}>{separator}<w:footnote w:id=\"1\">"
                     f"{_p(_run('The cap applies from 1 April 2025.'))}</w:footnote></w:footnotes>",
        "endnotes": f"<w:endnotes {_W}><w:endnote w:id=\"1\">{_p(_run('Source: Board minutes, item 4.'))}"
                    "</w:endnote></w:endnotes>",
        "comments": f"<w:comments {_W}><w:comment w:id=\"0\" w:author=\"R\">{_p(_run('Check this.'))}</w:comment>"
                    f"<w:comment w:id=\"1\" w:author=\"R\">{_p(_run('And this.'))}</w:comment></w:comments>",
    }
    header = ("Reserve Bank of India circular RBI/2024-25/117 DOR.STR.REC.61/21.04.048/2024-25 dated 12 March 2025 "
              "addressed to all small finance banks")
    doc = parsing.load(_docx(_p(_run("The lending cap is Rs. 4,750 crore.")), notes, header=header,
                             footer="Confidential"), "note.docx", SETTINGS)
    blocks = doc.pages[0].text.split("\n\n")
    assert blocks == ["The lending cap is Rs. 4,750 crore.", f"Page header: {header}",
                      "Footnote 1: The cap applies from 1 April 2025.", "Endnote 1: Source: Board minutes, item 4."]
    assert doc.warnings == ('note.docx: page header and footer text is not indexed (page furniture): "Confidential"',
                            "note.docx: 2 comments (reviewers' notes) are not indexed")
