"""The new file types in the app (AppTest): the Upload page accepts a .docx from the one registry and refuses a
password-protected one with its message; a chat citation of a workbook names the sheet and rows, and its preview
shows the passage in the sheet's rows."""

from __future__ import annotations

import pytest

from prism.config import Settings
from prism.service import PrismService
from prism.types import IngestItem
from prism.ui.explain import literal
from tests.ingestion import office_files as files
from tests.ui.apptest_helpers import app as _app
from tests.ui.apptest_helpers import click as _click
from tests.ui.apptest_helpers import no_exception, open_sources, texts
from tests.ui.apptest_helpers import run_until as _run_until


@pytest.mark.usefixtures("empty_sample_dir", "service_factory")
def test_upload_page_accepts_office_files_and_citations_name_sheet_and_rows(prism_home, embedder):
    svc = PrismService(Settings(home=prism_home), embedder=embedder)
    assert svc.ingest([IngestItem(files.build_xlsx(), "branches.xlsx")], "Formats", briefing=False)[0].status == \
        "ingested"
    at = _app().run().switch_page("pages/upload_page.py").run()
    no_exception(at)
    [uploader] = at.file_uploader  # keyed per batch: a fresh picker after each
    assert uploader.label == "PDF, DOCX, XLSX, PPTX, HTML, TXT, MD or CSV files"
    uploader.upload("board_note.docx", files.build_docx(), "application/vnd.openxmlformats-officedocument."
                                                           "wordprocessingml.document")
    uploader.upload("locked.xlsx", files.encrypt_office(files.build_xlsx()), "application/vnd.openxmlformats-"
                                                                              "officedocument.spreadsheetml.sheet")
    at = _click(at, "Add to Formats")  # the only workspace is the one in use
    at = _run_until(at, lambda a: bool(a.dataframe) or bool(a.exception), 90)
    no_exception(at)
    table = at.dataframe[0].value
    assert dict(zip(table["File"], table["Result"], strict=True)) == {"board_note.docx": "Added",
                                                                      "locked.xlsx": "Failed"}
    assert any(literal("locked.xlsx is a password-protected Excel workbook; remove the password and upload it again")
               in e.value for e in at.error)

    at.switch_page("pages/chat_page.py").run()
    at.chat_input[0].set_value("What were the deposits of the Nashik Road branch?").run()
    no_exception(at)
    labels = [e.label for e in at.expander if e.label.startswith("[")]
    assert any(f"{literal('branches.xlsx')} · Sheet 'Q3' row" in label for label in labels), labels
    at = open_sources(at)
    no_exception(at)
    popovers = [p.proto.popover.label for p in at.get("popover")]
    assert any(label.startswith("In context (Sheet 'Q3' row") for label in popovers), popovers
    html = [h.value for h in at.get("html") if "prism-passage" in h.value]
    assert html and any("<mark" in h and "Nashik Road" in h for h in html)
    assert "1234" in texts(at)
