"""The Upload page's logic: queue files for background ingestion, draw live progress, result tables and briefings."""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Sequence
from typing import Any

import streamlit as st

from prism.errors import PrismError
from prism.service import PrismService
from prism.types import WorkspaceInfo, page_label
from prism.ui import state
from prism.ui.explain import bullet_markdown, escape_markdown, shorten, strip_source
from prism.ui.jobs import JobView
from prism.ui.resources import ingest_jobs

logger = logging.getLogger(__name__)

STATUS_LABELS = {  # plain words: the table is drawn on a canvas, where emoji need fonts a server may not have
    "ingested": "Added",
    "replaced": "Replaced older version",
    "duplicate": "Already in workspace",
    "failed": "Failed",
    "rejected": "Not uploaded",
}
SHOWN_BATCHES = 5
"""Batches drawn on the page, newest first."""


def submit(service: PrismService, info: WorkspaceInfo, files: Sequence[Any], url: str) -> dict[str, Any] | None:
    """Queue uploaded files (objects with ``name`` and ``getvalue()``) and an optional URL as one batch.

    Files over the size limit and URLs that are not web addresses are rejected here with a reason (they appear in
    the batch's table); everything else is queued. Returns the batch, or ``None`` when there was nothing to add.
    """
    limit_mb = service.settings.max_upload_mb
    jobs = ingest_jobs()
    job_ids: list[str] = []
    rejected: list[dict[str, str]] = []
    for f in files:
        size = int(getattr(f, "size", 0) or 0)
        if size > service.settings.max_upload_bytes:
            rejected.append({"file": f.name, "reason": f"{f.name} is {size / 1024 / 1024:.1f} MB, over the "
                                                       f"{limit_mb} MB upload limit. Split it or compress it."})
            continue
        data = f.getvalue()
        if len(data) > service.settings.max_upload_bytes:
            rejected.append({"file": f.name, "reason": f"{f.name} is {len(data) / 1024 / 1024:.1f} MB, over the "
                                                       f"{limit_mb} MB upload limit. Split it or compress it."})
            continue
        job_id = jobs.submit(service, info.name, f.name, data)
        if job_id not in job_ids:  # the same file twice in one batch is one job
            job_ids.append(job_id)
    url = (url or "").strip()
    if url:
        if url.startswith(("http://", "https://")) and " " not in url:
            job_ids.append(jobs.submit(service, info.name, url, url))
        else:
            rejected.append({"file": url, "reason": "That is not a web address: it must start with https://."})
    if not job_ids and not rejected:
        return None
    batch = {"id": uuid.uuid4().hex[:8], "workspace_id": info.id, "workspace": info.name, "job_ids": job_ids,
             "rejected": rejected, "created": time.time()}
    state.batches().append(batch)
    logger.info("upload batch %s: %d queued, %d rejected", batch["id"], len(job_ids), len(rejected))
    return batch


def batches_section(service: PrismService, info: WorkspaceInfo) -> None:
    """Draw this session's recent batches for the workspace; refreshes itself every second while any is running."""
    mine = [b for b in state.batches() if b["workspace_id"] == info.id][-SHOWN_BATCHES:]
    if not mine:
        return
    jobs = ingest_jobs()
    running = any(not v.done for b in mine for v in jobs.views(b["job_ids"]))

    @st.fragment(run_every=1.0 if running else None)
    def live() -> None:
        views_by_batch = [(b, jobs.views(b["job_ids"])) for b in mine]
        still = any(not v.done for _, views in views_by_batch for v in views)
        if running and not still:
            st.rerun()  # the whole app: the sidebar's document chips and every count pick up the new documents
        for n, (batch, views) in enumerate(reversed(views_by_batch)):
            _batch(service, info, batch, views, newest=n == 0)

    live()


def _batch(service: PrismService, info: WorkspaceInfo, batch: dict[str, Any], views: list[JobView],
           newest: bool) -> None:
    done = all(v.done for v in views)
    count = len(views) + len(batch["rejected"])
    when = time.strftime("%H:%M", time.localtime(batch["created"]))
    with st.container(border=True):
        title = f"**{count} file{'s' if count != 1 else ''}** · added at {when}"
        if not done:
            finished = sum(v.done for v in views)
            st.markdown(f"{title} · :blue[indexing {finished + 1} of {len(views)}]")
            for v in views:
                _progress_row(v)
            st.caption("You can keep working — open **Chat** now; each document becomes searchable as soon as it "
                       "is indexed.")
            return
        st.markdown(title)
        rows = _result_rows(views, batch["rejected"])
        failed = [r for r in rows if r["Result"] in (STATUS_LABELS["failed"], STATUS_LABELS["rejected"])]
        added = [r for r in rows if r["Result"] in (STATUS_LABELS["ingested"], STATUS_LABELS["replaced"])]
        if added:
            st.success(f"{len(added)} document{'s' if len(added) != 1 else ''} added and searchable.",
                       icon=":material/check_circle:")
        for r in failed:
            st.error(r["Details"], icon=":material/error:")
        st.dataframe(rows, hide_index=True, width="stretch",
                     column_config={"File": st.column_config.TextColumn(width="medium"),
                                    "Details": st.column_config.TextColumn(width="large"),
                                    "Pages": st.column_config.NumberColumn(format="%d"),
                                    "Chunks": st.column_config.NumberColumn(format="%d")})
        if newest or len(views) <= 3:
            _briefings(service, info, batch, views)


def _progress_row(v: JobView) -> None:
    name = shorten(v.filename, 60)
    if v.done and v.result is not None:
        label = STATUS_LABELS.get(v.result.status, v.result.status)
        st.progress(1.0, text=f"{name} — {label}")
    elif v.status == "queued":
        st.progress(0.0, text=f"{name} — waiting for the previous file")
    else:
        st.progress(max(v.fraction, 0.02), text=f"{name} — {v.stage}")


def _pages_text(pages: Sequence[dict[str, Any]]) -> str:
    if not pages:
        return ""
    shown = ", ".join(f"{page_label(p.get('page'), None)} ({p.get('reason', '')})" for p in pages[:4])
    return shown + (f" and {len(pages) - 4} more" if len(pages) > 4 else "")


def _result_rows(views: list[JobView], rejected: list[dict[str, str]]) -> list[dict[str, Any]]:
    rows = []
    for v in views:
        r = v.result
        if r is None:
            continue
        details = r.error or "; ".join(strip_source(w, r.file) for w in r.warnings)
        rows.append({
            "File": r.file,
            "Result": STATUS_LABELS.get(r.status, r.status),
            "Pages": r.pages,
            "Chunks": r.chunks if r.status != "failed" else None,
            "Skipped pages": _pages_text(r.skipped_pages),
            "OCR pages": ", ".join(str(p) for p in r.ocr_pages),
            "Details": details,
        })
    for rej in rejected:
        rows.append({"File": rej["file"], "Result": STATUS_LABELS["rejected"], "Pages": None, "Chunks": None,
                     "Skipped pages": "", "OCR pages": "", "Details": rej["reason"]})
    return rows


def _briefings(service: PrismService, info: WorkspaceInfo, batch: dict[str, Any], views: list[JobView]) -> None:
    new = [v.result for v in views if v.result is not None and v.result.status in ("ingested", "replaced")]
    if not new:
        return
    try:
        records = {d.doc_id: d for d in service.documents(info.name)}
    except PrismError as e:
        st.error(str(e))
        return
    st.markdown("##### Briefings")
    cols = st.columns(2) if len(new) > 1 else [st.container()]
    for i, result in enumerate(new):
        record = records.get(result.doc_id or "")
        with cols[i % len(cols)]:
            briefing_card(info, record, result.file, key=f"{batch['id']}.{(result.doc_id or str(i))[:12]}")


def briefing_card(info: WorkspaceInfo, record: Any, name: str, key: str) -> None:
    """One document's briefing: 5 key points and 3 question buttons that open the Chat with that question."""
    with st.container(border=True):
        st.markdown(f"**:material/description: {escape_markdown(name)}**")
        if record is None:
            st.caption("This document is no longer in the workspace.")
            return
        facts = [f"{record.pages} pages" if record.pages else record.kind.upper(), f"{record.chunks} chunks"]
        briefing = record.briefing or {}
        if briefing.get("mode") == "llm":
            facts.append(f"briefing by {briefing.get('model') or 'the LLM'}")
        elif briefing:
            facts.append("key sentences picked from the document (no LLM)")
        st.caption(" · ".join(facts))
        bullets = briefing.get("bullets") or []
        if not bullets:
            st.caption("No briefing was written for this document.")
        else:
            st.markdown("\n".join(f"- {bullet_markdown(b)}" for b in bullets))
        questions = briefing.get("questions") or []
        if questions:
            st.caption("Ask about it")
            for j, q in enumerate(questions):
                if st.button(q, key=f"brief.{key}.{j}", icon=":material/forum:", width="stretch"):
                    state.ask_in_chat(info.id, q)
                    st.switch_page("pages/chat.py")


def workspace_summary(service: PrismService, info: WorkspaceInfo) -> None:
    """One line on what the workspace already holds, with a link to manage it."""
    try:
        docs = service.documents(info.name)
    except PrismError as e:
        st.error(str(e))
        return
    n = len(docs)
    with st.container(horizontal=True, vertical_alignment="center"):
        st.caption(f"{escape_markdown(info.name)} holds {n} document{'s' if n != 1 else ''}"
                   f"{' · ' + str(sum(d.pages or 0 for d in docs)) + ' pages' if n else ''}.")
        st.page_link("pages/workspaces.py", label="Manage documents", icon=":material/folder_open:")
