"""The Upload page through AppTest, with the real pipeline on fixture files: every type the CLI takes
(``.md`` included), a fresh picker after each batch (a failed file is never submitted again), clean counts, progress
with chunks and time left, Cancel, same-name files of one batch (case 44), "replaced the version added on …", a
workspace deleted while a file is added (case 45), and the briefing that opens the Chat with a question."""

from __future__ import annotations

import re
from datetime import datetime

from pypdf import PdfReader
from streamlit.testing.v1 import AppTest

from prism.config import Settings
from prism.ingestion.jobs import JobView
from prism.service import PrismService, supported_file_types
from prism.types import IngestResult
from prism.ui import state as ui_state
from prism.ui.explain import literal
from prism.ui.upload_view import progress_line
from tests.conftest import CASES, REPO
from tests.ui.apptest_helpers import UPI, run_until
from tests.ui.apptest_helpers import app as _app
from tests.ui.apptest_helpers import click as _click
from tests.ui.apptest_helpers import no_exception as _no_exception
from tests.ui.apptest_helpers import texts as _texts

FEES = REPO / "data" / "sample" / "meridian_fee_schedule_tables.pdf"  # not in the sample home
LONG = CASES / "45_long_minutes.txt"
ADD = "Add to Sample workspace"


def _upload_page() -> AppTest:
    at = _app().run().switch_page("pages/upload_page.py").run()
    _no_exception(at)
    return at


def _picker(at: AppTest):
    [uploader] = at.file_uploader
    return uploader


def _url(at: AppTest):
    return at.text_input(key=f"upload.url.{_round(at)}")


def _round(at: AppTest) -> int:
    try:
        return int(at.session_state[ui_state.UPLOADER])
    except KeyError:
        return 0


def _done(at: AppTest) -> bool:
    return bool(at.dataframe) or bool(at.exception)


def _table(at: AppTest, n: int = 0) -> list[dict]:
    return at.dataframe[n].value.to_dict("records")


def _progress_texts(at: AppTest) -> list[str]:
    return [p.proto.text for p in at.get("progress")]


# --- types, results, briefing ---------------------------------------------------------------------------------
def test_the_picker_takes_every_type_the_cli_takes_and_a_markdown_file_is_added(with_sample, service_factory):
    at = _upload_page()
    assert sorted(_picker(at).allowed_type) == sorted(e for t in supported_file_types() for e in t.extensions)
    assert ".md" in _picker(at).allowed_type
    md = CASES / "42_markdown_with_base64_image.md"
    _picker(at).upload(md.name, md.read_bytes(), "text/markdown")
    at = _click(at, ADD)
    at = run_until(at, _done, 90)
    _no_exception(at)
    [row] = _table(at)
    assert (row["File"], row["Result"], row["Pages"]) == (md.name, "Added", "—")
    assert row["Chunks"].isdigit() and int(row["Chunks"]) >= 1


def test_upload_a_pdf_to_result_table_and_briefing_then_ask(with_sample, service_factory):
    at = _upload_page()
    assert at.title[0].value == "Upload documents" and "Add files to **Sample workspace**" in _texts(at)
    _picker(at).upload(FEES.name, FEES.read_bytes(), "application/pdf")
    at = _click(at, ADD)
    at = run_until(at, lambda a: any(m.value == "##### Briefings" for m in a.markdown) or bool(a.exception), 120)
    _no_exception(at)
    assert any(s.value == "1 document added and searchable." for s in at.success)
    [row] = _table(at)
    pages = len(PdfReader(FEES).pages)
    assert (row["File"], row["Result"], row["Pages"]) == (FEES.name, "Added", str(pages))
    assert row["Chunks"].isdigit() and int(row["Chunks"]) > 0
    assert "None" not in str(row.values())
    # where the time went, per stage, in pipeline order (a text PDF: no OCR)
    stages = [part.rsplit(" ", 2)[0] for part in row["Time per stage"].split(" · ")]
    assert stages == ["parse", "profile", "chunk", "embed", "store", "BM25", "briefing"], row["Time per stage"]
    card = next(c.value for c in at.caption if "chunks" in c.value and "pages" in c.value)
    assert card.startswith(f"{pages} pages · {row['Chunks']} chunks")
    bullets = [m.value for m in at.markdown if m.value.startswith("- ")]
    assert bullets and bullets[0].count("\n- ") >= 2  # several key points
    questions = [b for b in at.button if b.key and b.key.startswith("brief.")]
    assert len(questions) == 3

    at.run()  # rerunning never re-ingests
    assert len(at.dataframe) == 1 and _table(at)[0]["Result"] == "Added"

    question = questions[0].label
    questions[0].click().run()  # a suggested question opens the chat with that question asked
    _no_exception(at)
    assert at.title[0].value == "Chat" and "3 documents" in _texts(at)
    assert at.chat_message[0].markdown[0].value == question
    assert any(e.label.startswith("[1] ") for e in at.expander)


def test_uploading_the_same_file_twice_reports_a_duplicate(with_sample, service_factory):
    at = _upload_page()
    _picker(at).upload("copy.pdf", UPI.read_bytes(), "application/pdf")
    at = run_until(_click(at, ADD), _done, 60)
    _no_exception(at)
    [row] = _table(at)
    assert row["Result"] == "Already in workspace" and UPI.name in row["Details"]
    assert not at.error, [e.value for e in at.error]  # neutral, not red
    assert any(literal("copy.pdf") in i.value and literal(f"same content as {UPI.name}, already indexed") in i.value
               for i in at.info), [i.value for i in at.info]  # names the document it duplicates, as the CLI does
    assert (row["Pages"], row["Chunks"]) == ("5", str(PrismService(Settings()).documents("Sample workspace")[0]
                                                       .chunks))


def test_failed_files_are_cleared_and_never_submitted_again(with_sample, service_factory, monkeypatch):
    monkeypatch.setenv("PRISM_MAX_UPLOAD_MB", "1")
    at = _upload_page()
    uploader = _picker(at)
    uploader.upload("huge.pdf", b"%PDF-1.4\n" + b"0" * (1024 * 1024 + 10), "application/pdf")
    uploader.upload("broken.pdf", b"this is not a pdf at all", "application/pdf")
    uploader.upload("empty.txt", b"", "text/plain")
    at = run_until(_click(at, ADD), _done, 60)
    _no_exception(at)
    results = {r["File"]: (r["Result"], r["Pages"], r["Chunks"]) for r in _table(at)}
    assert results == {"huge.pdf": ("Not uploaded", "—", "—"), "broken.pdf": ("Failed", "—", "—"),
                       "empty.txt": ("Failed", "—", "—")}
    errors = [e.value for e in at.error]
    assert any(literal("huge.pdf is 1.0 MB, over the 1 MB upload limit") in e for e in errors)
    assert any(e.startswith(literal("broken.pdf")) for e in errors)
    assert not any("Traceback" in e for e in errors)

    # The picker is a new, empty one: a later web address is submitted alone.
    assert _round(at) == 1 and _picker(at).key == "upload.files.1"
    _url(at).set_value("not a url")
    at = _click(at, ADD)
    _no_exception(at)
    newest = _table(at, 0)
    assert [r["File"] for r in newest] == ["not a url"]
    assert [len(b["job_ids"]) for b in at.session_state[ui_state.BATCHES]] == [2, 0]


def test_upload_without_files_explains(with_sample, service_factory):
    at = _click(_upload_page(), ADD)
    assert any("Choose one or more files" in w.value for w in at.warning)
    assert _round(at) == 0


# --- same name, replace ---------------------------------------------------------------------------------------
def test_two_files_with_one_name_in_one_batch_are_both_kept(with_sample, service_factory):
    at = _upload_page()
    for company in ("a", "b"):
        path = CASES / f"44_company_{company}" / "annual_report.txt"
        _picker(at).upload(path.name, path.read_bytes(), "text/plain")  # the browser gives base names only
    at = run_until(_click(at, ADD), lambda a: _done(a) and len(_table(a)) == 2, 90)
    _no_exception(at)
    rows = _table(at)
    assert [(r["File"], r["Result"]) for r in rows] == [("annual_report.txt", "Added"),
                                                        ("annual_report (2).txt", "Added")]
    at.switch_page("pages/chat_page.py").run()
    at.chat_input[0].set_value("What was Company A revenue?").run()
    _no_exception(at)
    answer = at.chat_message[1].markdown[0].value
    assert "410" in answer
    assert any(e.label.startswith(f"[1] {literal('annual_report.txt')}") for e in at.expander)


def test_replacing_a_document_says_when_the_old_version_was_added(with_sample, service_factory, embedder):
    at = _upload_page()
    _picker(at).upload("refund_policy.txt", (CASES / "12_policy_v1.txt").read_bytes(), "text/plain")
    at = run_until(_click(at, ADD), _done, 60)
    added = next(d for d in PrismService(Settings(), embedder=embedder).documents("Sample workspace")
                 if d.source == "refund_policy.txt").ingested_at
    _picker(at).upload("refund_policy.txt", (CASES / "12_policy_v2.txt").read_bytes(), "text/plain")
    at = run_until(_click(at, ADD), lambda a: len(a.dataframe) == 2, 60)
    _no_exception(at)
    assert _table(at, 0)[0]["Result"] == "Replaced older version"
    when = datetime.fromisoformat(added).astimezone().strftime("%d %b %Y, %H:%M")
    assert any(i.value == f"**{literal('refund_policy.txt')}** replaced the version added on {when}."
               for i in at.info)


# --- progress, cancel, deleted workspace ----------------------------------------------------------------------
PROGRESS = re.compile(r"indexing: embedding (\d+)/(\d+) chunks")


def _embedding(at: AppTest) -> bool:
    return any(PROGRESS.search(t) for t in _progress_texts(at)) or _done(at)


def test_progress_shows_chunks_and_cancel_stops_the_batch(with_sample, service_factory, embedder):
    at = _upload_page()
    _picker(at).upload(LONG.name, LONG.read_bytes(), "text/plain")
    _picker(at).upload("35_test01.txt", (CASES / "35_test01.txt").read_bytes(), "text/plain")
    at = run_until(_click(at, ADD), _embedding, 120)
    assert not at.dataframe, "the long file finished before it could be cancelled"
    long_line = next(t for t in _progress_texts(at) if PROGRESS.search(t))
    done, total = map(int, PROGRESS.search(long_line).groups())
    assert long_line.startswith(literal(LONG.name)) and 0 <= done < total and total > 300
    assert any(t.endswith("waiting for the previous file") for t in _progress_texts(at))
    at = _click(at, "Cancel")
    assert any("Cancelling 2 files" in i.value for i in at.info)
    at = run_until(at, _done, 120)
    _no_exception(at)
    assert [(r["File"], r["Result"], r["Chunks"]) for r in _table(at)] == [(LONG.name, "Cancelled", "—"),
                                                                        ("35_test01.txt", "Cancelled", "—")]
    svc = PrismService(Settings(), embedder=embedder)
    assert [d.source for d in svc.documents("Sample workspace")] == [UPI.name, "rbi_style_master_circular_"
                                                                     "digital_payments.pdf"]
    assert svc.open("Sample workspace").workspace.pending() == []


def test_workspace_deleted_while_a_file_is_added_ends_with_a_message(with_sample, service_factory, embedder):
    svc = PrismService(Settings(home=with_sample), embedder=embedder)
    doomed = svc.create_workspace("Doomed")
    at = _app()
    at.query_params[ui_state.QUERY_WORKSPACE] = doomed.id
    at.run().switch_page("pages/upload_page.py").run()
    assert "Add files to **Doomed**" in _texts(at)
    _picker(at).upload(LONG.name, LONG.read_bytes(), "text/plain")
    at = run_until(_click(at, "Add to Doomed"), _embedding, 120)
    svc.delete_workspace("Doomed")  # another session deletes it
    at = run_until(at, _done, 120)
    _no_exception(at)
    shown = _texts(at)
    assert "Add files to **Sample workspace**" in shown  # the deleted workspace is not shown
    assert "→ **Doomed** · added at" in shown and "that workspace was deleted" in shown
    [row] = _table(at)
    assert row["Result"] == "Failed"
    assert row["Details"].startswith(f"{LONG.name} was not added: workspace 'Doomed' was deleted while it was being "
                                     "added.")
    assert "Traceback" not in shown and str(with_sample) not in shown
    assert not (with_sample / "workspaces" / doomed.id).exists()


# --- the progress line ----------------------------------------------------------------------------------------
def _view(**changes) -> JobView:
    base = JobView("j", "w", "WS", "minutes_2024.txt", "k", "running", 0.5, "embedding 200/400 chunks", None, 0.0,
                   started_at=100.0, chunks_done=200, chunks_total=400)
    return JobView(**{**base.__dict__, **changes})


def test_time_left_while_embedding_counts_from_the_embedding_rate():
    # 100 chunks were embedded while the file parsed; 100 more in the 10 s since embedding began: 200 left → 20 s
    embedding = _view(embed_started_at=140.0, embed_base=100)
    assert embedding.eta_s(now=150.0) == 20.0
    assert _view(embed_started_at=149.0, embed_base=200).eta_s(now=150.0) is None  # no slice done yet
    assert _view().eta_s(now=150.0) == 50.0  # before embedding: from the fraction done


def test_progress_line_names_the_step_chunks_and_time_left():
    name = literal("minutes_2024.txt")
    assert progress_line(_view(), now=150.0) == (0.5, f"{name} — indexing: embedding 200/400 chunks · about 50 s "
                                                      "left")
    assert progress_line(_view(fraction=0.25), now=400.0) == (0.25, f"{name} — indexing: embedding 200/400 "
                                                                     "chunks · about 15 min left")
    assert progress_line(_view(step="briefing", fraction=1.0)) == (
        1.0, f"{name} — indexed (400 chunks); writing the briefing")
    assert progress_line(_view(status="queued", started_at=None)) == (0.0, f"{name} — waiting for the previous file")
    assert progress_line(_view(fraction=0.02, chunks_done=None, chunks_total=None, stage="parsing"), now=101.0) == (
        0.02, f"{name} — indexing: parsing")
    done = _view(status="done", result=IngestResult("minutes_2024.txt", "cancelled"))
    assert progress_line(done) == (1.0, f"{name} — Cancelled")
    added = IngestResult("minutes_2024.txt", "ingested", ocr_pages=[1, 2], stage_seconds={"parse": 0.2, "ocr": 12.0,
                                                                                          "embed": 1.5})
    assert progress_line(_view(status="done", result=added)) == (
        1.0, f"{name} — Added · parse 200 ms · OCR 12.0 s (2 pages, 10.0 pages/min) · embed 1.5 s")
    assert progress_line(_view(cancel_requested=True)) == (0.5, f"{name} — cancelling…")


def test_the_same_bytes_under_two_names_in_one_batch_are_never_silently_dropped(with_sample, service_factory):
    """dupA.txt and dupB.txt with the same content: one job, and the second file has its own row saying so."""
    at = _upload_page()
    body = b"Escrow threshold for merchant nodal accounts is Rs. 7,25,000 per quarter."
    _picker(at).upload("dupA.txt", body, "text/plain")
    _picker(at).upload("dupB.txt", body, "text/plain")
    at = run_until(_click(at, ADD), _done, 90)
    _no_exception(at)
    rows = {r["File"]: r for r in _table(at)}
    assert set(rows) == {"dupA.txt", "dupB.txt"}
    assert rows["dupA.txt"]["Result"] == "Added"
    assert rows["dupB.txt"]["Result"] == "Same file twice in batch"
    infos = [i.value for i in at.info]  # a handled duplicate is a neutral status, never red
    assert any(literal("dupB.txt has the same content as dupA.txt in this batch; it is added once, as dupA.txt.")
               in i for i in infos), infos
    assert not at.error, [e.value for e in at.error]


def test_chosen_files_are_named_as_not_added_yet_until_the_button_is_pressed(with_sample, service_factory):
    """The page says "3 files chosen — not added yet" beside the button; once added, the line goes."""
    at = _upload_page()
    assert "not added yet" not in _texts(at)
    for name in ("a.txt", "b.txt", "c.txt"):
        _picker(at).upload(name, f"Escrow threshold note {name}.".encode(), "text/plain")
    at.run()
    _no_exception(at)
    assert "3 files chosen — not added yet" in _texts(at)
    _url(at).set_value("https://127.0.0.1:9/notice.html")
    at.run()
    assert "3 files and a web page chosen — not added yet" in _texts(at)
    _url(at).set_value("")
    at.run()
    at = _click(at, ADD)
    _no_exception(at)
    assert "not added yet" not in _texts(at)
