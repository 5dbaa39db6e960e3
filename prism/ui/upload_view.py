"""The Upload page's logic: queue files for background ingestion, live progress with a Cancel button, result tables
and briefings.

A batch is submitted by the form's callback, so the files go to the workspace the page named when the analyst pressed
the button; the file picker and the address field are then replaced by empty ones (:func:`prism.ui.state.
uploader_round`), so no file of a finished batch — a failed one included — is submitted again with a later one.
Files of one batch that share a name are all kept, the later ones as ``name (2).ext``
(:func:`prism.service.upload_names`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import streamlit as st

from prism.errors import PrismError
from prism.service import JobView, PrismService, upload_names
from prism.types import WorkspaceInfo, count_phrase, page_label
from prism.ui import state
from prism.ui.briefing_view import briefing_card
from prism.ui.explain import injection_flag, literal, shorten, stage_times
from prism.ui.resources import ingest_jobs

logger = logging.getLogger(__name__)

STATUS_LABELS = {  # plain words: the table is drawn on a canvas, where emoji need fonts a server may not have
    "ingested": "Added",
    "replaced": "Replaced older version",
    "duplicate": "Already in workspace",
    "failed": "Failed",
    "cancelled": "Cancelled",
    "rejected": "Not uploaded",
    "same_in_batch": "Same file twice in batch",
}
SHOWN_BATCHES = 5
"""Batches drawn on the page, newest first."""


def files_key() -> str:
    """The file picker's widget key in this round (a new round is a new, empty picker)."""
    return f"upload.files.{state.uploader_round()}"


def url_key() -> str:
    """The address field's widget key in this round."""
    return f"upload.url.{state.uploader_round()}"


def on_submit(service: PrismService, info: WorkspaceInfo) -> None:
    """The form's callback: queue the chosen files and address into ``info`` and start a fresh picker."""
    files = list(st.session_state.get(files_key()) or [])
    url = str(st.session_state.get(url_key()) or "")
    batch = submit(service, info, files, url)
    if batch is None:
        state.flash("Choose one or more files, or enter a web address, then press **Add to workspace**.", "warning")
        return
    state.next_uploader_round()


def submit(service: PrismService, info: WorkspaceInfo, files: Sequence[Any], url: str) -> dict[str, Any] | None:
    """Queue uploaded files (objects with ``name`` and ``getvalue()``) and an optional URL as one batch.

    Files over the size limit, URLs that are not web addresses and a second copy of the same bytes in the batch are
    set aside here with a reason (they appear in the batch's table); everything else is queued. Returns the batch,
    or ``None`` when there was nothing to add.
    """
    limit_mb = service.settings.max_upload_mb
    jobs = ingest_jobs()
    job_ids: list[str] = []
    rejected: list[dict[str, str]] = []
    first_name: dict[str, str] = {}
    for f, name in zip(files, upload_names([f.name for f in files]), strict=True):
        data = f.getvalue()
        if max(len(data), int(getattr(f, "size", 0) or 0)) > service.settings.max_upload_bytes:
            rejected.append({"file": name, "reason": f"{name} is {len(data) / 1024 / 1024:.1f} MB, over the "
                                                     f"{limit_mb} MB upload limit. Split it or compress it."})
            continue
        job_id = jobs.submit(service, info, name, data, actor=state.actor())
        if job_id in first_name:  # the same bytes twice in one batch are one job: say so, never drop a row
            rejected.append({"file": name, "kind": "duplicate",
                             "reason": f"{name} has the same content as {first_name[job_id]} in this batch; it is "
                                       f"added once, as {first_name[job_id]}."})
            continue
        first_name[job_id] = name
        job_ids.append(job_id)
    url = (url or "").strip()
    if url:
        if url.startswith(("http://", "https://")) and " " not in url:
            job_ids.append(jobs.submit(service, info, url, url, actor=state.actor()))
        else:
            rejected.append({"file": url, "reason": "That is not a web address: it must start with https://."})
    if not job_ids and not rejected:
        return None
    batch = {"id": state.new_batch_id(), "workspace_id": info.id, "workspace": info.name, "job_ids": job_ids,
             "rejected": rejected, "created": time.time()}
    state.batches().append(batch)
    jobs.remember_batch(batch)
    logger.info("upload batch %s: %d queued, %d rejected", batch["id"], len(job_ids), len(rejected))
    return batch


def restore_batches() -> None:
    """A new session (a refresh during or after an upload) takes back the batches its address names (``?b=``, see
    :func:`prism.ui.state.address_batch_ids`) from the job registry, oldest first, so they are drawn as they were.
    Ids the registry does not know (another process, or dropped) are skipped."""
    jobs = ingest_jobs()
    known = {b["id"] for b in state.batches()}
    for batch_id in state.address_batch_ids(SHOWN_BATCHES):
        batch = jobs.batch(batch_id)
        if batch is not None and batch_id not in known:
            state.batches().append(batch)
    state.batches().sort(key=lambda b: b["created"])


def batches_section(service: PrismService, info: WorkspaceInfo) -> None:
    """Draw this session's recent batches for the workspace (and those whose workspace was deleted meanwhile, so
    their message is read), restored after a refresh (:func:`restore_batches`) and named in the address; refreshes
    itself every second while any is running."""
    restore_batches()
    alive = {w.id for w in service.workspaces()}
    mine = [b for b in state.batches() if b["workspace_id"] == info.id or b["workspace_id"] not in alive]
    mine = mine[-SHOWN_BATCHES:]
    if not mine:
        return
    state.show_batches_in_address([b["id"] for b in mine])
    jobs = ingest_jobs()
    drawn = [v.done for b in mine for v in jobs.views(b["job_ids"])]
    running = not all(drawn)

    @st.fragment(run_every=1.0 if running else None)
    def live() -> None:
        views_by_batch = [(b, jobs.views(b["job_ids"])) for b in mine]
        if running and sum(v.done for _, views in views_by_batch for v in views) > sum(drawn):
            st.rerun()  # a document was added: the whole app, so the sidebar's chips and every count show it
        for n, (batch, views) in enumerate(reversed(views_by_batch)):
            _batch(service, info, batch, views, newest=n == 0)

    live()


def _cancel(job_ids: list[str]) -> None:
    n = ingest_jobs().cancel(job_ids)
    state.flash(f"Cancelling {count_phrase(n, 'file')}: documents already added stay; the one being added stops "
                "before anything of it is stored." if n else "Nothing left to cancel.", "info")


def _batch(service: PrismService, info: WorkspaceInfo, batch: dict[str, Any], views: list[JobView],
           newest: bool) -> None:
    done = all(v.done for v in views)
    count = len(views) + len(batch["rejected"])
    when = time.strftime("%H:%M", time.localtime(batch["created"]))
    with st.container(border=True):
        title = f"**{count_phrase(count, 'file')}** → **{literal(batch['workspace'])}** · added at {when}"
        if batch["workspace_id"] != info.id:
            title += " · :red[that workspace was deleted]"
        if not done:
            finished = sum(v.done for v in views)
            st.markdown(f"{title} · :blue[{finished} of {len(views)} done]")
            for v in views:
                _progress_row(v)
            st.button("Cancel", key=f"upload.cancel.{batch['id']}", icon=":material/cancel:",
                      disabled=all(v.done or v.cancel_requested for v in views), on_click=_cancel,
                      args=([v.id for v in views],), help="Stop adding the rest of this batch; documents already "
                                                           "added stay.")
            st.caption("You can keep working — open **Chat** now; each document becomes searchable as soon as it "
                       "is indexed.")
            return
        st.markdown(title)
        rows = result_rows(views, batch["rejected"])
        bad = [r for r in rows if r["Result"] in (STATUS_LABELS["failed"], STATUS_LABELS["rejected"])]
        added = [r for r in rows if r["Result"] in (STATUS_LABELS["ingested"], STATUS_LABELS["replaced"])]
        if added:
            st.success(f"{count_phrase(len(added), 'document')} added and searchable.",
                       icon=":material/check_circle:")
        for r in bad:
            st.error(literal(r["Details"]), icon=":material/error:")
        _duplicates(views, batch["rejected"])
        for v in views:
            if v.result is not None and v.result.status == "replaced":
                st.info(f"**{literal(v.result.file)}** replaced the version added on "
                        f"{_when(v.result.replaced_added_at)}.", icon=":material/published_with_changes:")
        st.dataframe(rows, hide_index=True, width="stretch",
                     column_config={"File": st.column_config.TextColumn(width="medium"),
                                    "Details": st.column_config.TextColumn(width="large"),
                                    "Pages": st.column_config.TextColumn(width="small"),
                                    "Chunks": st.column_config.TextColumn(width="small")})
        if batch["workspace_id"] == info.id and (newest or len(views) <= 3):
            _briefings(service, info, batch, views)


def _duplicates(views: list[JobView], rejected: list[dict[str, str]]) -> None:
    """Handled duplicates as a neutral status (``st.info``, never red): a file already in the workspace with the same
    content (named, as the CLI's ingest summary names it: "same content as 13_original.txt, already indexed; not
    added again"), and a second copy of the same bytes in the batch. Nothing went wrong; nothing needs doing."""
    for r in (v.result for v in views if v.result is not None and v.result.status == "duplicate"):
        note = next((n for n in r.notes() if n.endswith("not added again")), "already indexed; not added again")
        st.info(f"**{literal(r.file)}**: {literal(note)}.", icon=":material/content_copy:")
    for rej in rejected:
        if rej.get("kind") == "duplicate":
            st.info(literal(rej["reason"]), icon=":material/content_copy:")


def staged_line(files: Sequence[Any], url: str) -> str:
    """What is chosen but not added yet, for beside the "Add to …" button: ``"3 files chosen — not added yet"``,
    ``"1 file and a web page chosen — not added yet"``, ``"a web page entered — not added yet"``, or ``""`` when
    nothing is (staged files are not added files: the analyst must not take them for indexed)."""
    has_url = bool((url or "").strip())
    if not files and not has_url:
        return ""
    if not files:
        return "a web page entered — not added yet"
    page = " and a web page" if has_url else ""
    return f"{count_phrase(len(files), 'file')}{page} chosen — not added yet"


def staged_status() -> None:
    """:func:`staged_line` of this round's picker and address field, as a caption (nothing when nothing is chosen)."""
    line = staged_line(list(st.session_state.get(files_key()) or []), str(st.session_state.get(url_key()) or ""))
    if line:
        st.markdown(f":material/pending: **{line}**")


def _when(iso: str | None) -> str:
    try:
        return datetime.fromisoformat(iso or "").astimezone().strftime("%d %b %Y, %H:%M")
    except ValueError:
        return "an earlier date"


def _eta(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 60:
        return f" · about {max(5, round(seconds / 5) * 5)} s left"
    return f" · about {round(seconds / 60)} min left"


def progress_line(v: JobView, now: float | None = None) -> tuple[float, str]:
    """A job's progress bar: ``(fraction, text)``: "indexing: <stage>" (with ``chunks done/total`` while embedding
    and the time left when it can be told), then "indexed (N chunks); writing the briefing" (not numbered steps: a
    "step 1 of 2" read as the first of two files); Markdown, names escaped."""
    name = literal(shorten(v.filename, 60))
    if v.done and v.result is not None:
        times = stage_times(v.result.stage_seconds, len(v.result.ocr_pages))
        return 1.0, f"{name} — {STATUS_LABELS.get(v.result.status, v.result.status)}" + (f" · {times}" if times else "")
    if v.status == "queued":
        return 0.0, f"{name} — waiting for the previous file"
    if v.cancel_requested:
        return max(v.fraction, 0.02), f"{name} — cancelling…"
    if v.step == "briefing":
        indexed = f" ({count_phrase(v.chunks_total, 'chunk')})" if v.chunks_total else ""
        return 1.0, f"{name} — indexed{indexed}; writing the briefing"
    chunks = f" {v.chunks_done}/{v.chunks_total} chunks" if v.chunks_total is not None else ""
    stage = "embedding" if chunks else literal(v.stage)
    return max(v.fraction, 0.02), f"{name} — indexing: {stage}{chunks}{_eta(v.eta_s(now))}"


def _progress_row(v: JobView) -> None:
    fraction, text = progress_line(v)
    st.progress(fraction, text=text)


def _pages_text(pages: Sequence[dict[str, Any]]) -> str:
    if not pages:
        return ""
    shown = ", ".join(f"{page_label(p.get('page'), None)} ({p.get('reason', '')})" for p in pages[:4])
    return shown + (f" and {len(pages) - 4} more" if len(pages) > 4 else "")


def result_rows(views: list[JobView], rejected: list[dict[str, str]]) -> list[dict[str, Any]]:
    """One table row per file: ``File``, ``Result``, ``Pages``, ``Chunks`` (text: ``"—"`` where there is none, never
    ``None``), ``Skipped pages``, ``OCR pages``, ``Details``, ``Addressed to an AI`` (:func:`injection_flag`), ``Time
    per stage`` (:func:`~prism.ui.explain.stage_times`)."""
    rows = []
    for v in views:
        r = v.result
        if r is None:
            continue
        stored = r.status in ("ingested", "replaced", "duplicate")
        rows.append({
            "File": r.file,
            "Result": STATUS_LABELS.get(r.status, r.status),
            "Pages": str(r.pages) if r.pages else "—",
            "Chunks": str(r.chunks) if stored else "—",
            "Skipped pages": _pages_text(r.skipped_pages),
            "OCR pages": ", ".join(str(p) for p in r.ocr_pages),
            "Details": r.error or "; ".join(r.notes()),
            "Addressed to an AI": injection_flag(r.injections),
            "Time per stage": stage_times(r.stage_seconds, len(r.ocr_pages)),
        })
    for rej in rejected:
        result = STATUS_LABELS["same_in_batch" if rej.get("kind") == "duplicate" else "rejected"]
        rows.append({"File": rej["file"], "Result": result, "Pages": "—", "Chunks": "—",
                     "Skipped pages": "", "OCR pages": "", "Details": rej["reason"], "Addressed to an AI": "",
                     "Time per stage": ""})
    return rows


def _briefings(service: PrismService, info: WorkspaceInfo, batch: dict[str, Any], views: list[JobView]) -> None:
    new = [v.result for v in views if v.result is not None and v.result.status in ("ingested", "replaced")]
    if not new:
        return
    try:
        records = {d.doc_id: d for d in service.documents(info.name)}
    except PrismError as e:
        st.error(literal(str(e)))
        return
    st.markdown("##### Briefings")
    cols = st.columns(2) if len(new) > 1 else [st.container()]
    for i, result in enumerate(new):
        record = records.get(result.doc_id or "")
        with cols[i % len(cols)]:
            briefing_card(info, record, result.file, key=f"{batch['id']}.{(result.doc_id or str(i))[:12]}")


def workspace_summary(service: PrismService, info: WorkspaceInfo) -> None:
    """One line on what the workspace already holds, with a link to manage it."""
    try:
        docs = service.documents(info.name)
    except PrismError as e:
        st.error(literal(str(e)))
        return
    pages = sum(d.pages or 0 for d in docs)
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption(f"{literal(info.name)} holds {count_phrase(len(docs), 'document')}"
                   f"{' · ' + count_phrase(pages, 'page') if pages else ''}.")
        st.page_link("pages/workspaces_page.py", label="Manage documents", icon=":material/folder_open:")
