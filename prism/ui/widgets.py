"""Shared pieces of every page: the access gate, first start, the sidebar, page headers and the ingest activity."""

from __future__ import annotations

import logging
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from prism.errors import PrismError
from prism.service import PrismService, SampleBuild, retrieval_modes, supported_file_types
from prism.types import WorkspaceInfo, count_phrase, file_types_phrase
from prism.ui import access_view, conversations_view, state, status_view
from prism.ui.explain import literal, shorten
from prism.ui.resources import first_start, get_service, ingest_jobs

logger = logging.getLogger(__name__)

MAX_PILLS = 12
"""Above this many documents the filter is a multiselect instead of chips."""

EFFECTIVE = "prism.effective_options"

CSS = """
<style>
.prism-chunk {border-left: 3px solid #4F46E5; background: #F8FAFC; padding: .65rem .9rem; border-radius: 6px;
  font-size: .92rem; line-height: 1.55; max-height: 300px; overflow-y: auto; white-space: normal;}
.prism-chunk mark {background: #FDE68A; padding: 0 2px; border-radius: 3px;}
.prism-why {color: #475569; font-size: .88rem;}
.prism-brand {font-weight: 700; font-size: 1.35rem; letter-spacing: .01em; margin-bottom: -.4rem;}
.prism-brand span {color: #4F46E5;}
</style>
"""


# --- access gate ----------------------------------------------------------------------------------------------
def access_granted() -> bool:
    """True when no access code is configured or this session has given it (:mod:`prism.ui.access_view`)."""
    return access_view.access_granted()


def access_gate() -> None:
    """The only page a locked session sees (:func:`prism.ui.access_view.access_gate`)."""
    access_view.access_gate(CSS)


# --- page guard -----------------------------------------------------------------------------------------------
def mark_entered() -> None:
    """Called by app.py once the access check has passed: this session came in through the entry script."""
    st.session_state[state.ENTERED] = True


def page_guard() -> None:
    """The first line of every page script: a page draws nothing unless the session came in through app.py.

    Streamlit still routes a pages/ folder the legacy way (running ``pages/<name>.py`` alone, without app.py) until
    the first ``st.navigation`` call of the server process, so right after a restart a request for ``/upload``
    would skip the access gate. Such a run is sent to app.py instead (which then routes normally).
    """
    if st.session_state.get(state.ENTERED) and access_granted():
        return
    logger.info("page requested without the entry script; redirecting to app.py")
    try:
        st.switch_page("app.py")
    except StreamlitAPIException:  # app.py is not a page under st.navigation: just draw nothing
        st.stop()


# --- first start ----------------------------------------------------------------------------------------------
def ensure_first_start(service: PrismService) -> None:
    """Build the sample workspace when the home needs it (the first start, or a build that stopped part-way:
    :meth:`PrismService.sample_build_needed`), with a status box while it runs. The build runs on a thread of its
    own (:class:`~prism.ui.resources.FirstStart`): closing this tab does not stop it."""
    slot = st.container()  # always there: what pages draw after it keeps its place (and a fragment its id)
    build = first_start(str(service.settings.home)).start(service)
    if build is None or build.finished:
        return
    with slot, st.status("Setting up Prism for the first time…", expanded=True) as status:
        st.write("Building the **Sample workspace** from four short Meridian Bank documents, so you can ask right "
                 "away. This takes a few seconds, once.")
        bar = st.progress(0.0, text="Starting")
        while not build.wait(0.3):
            fraction, message = build.progress()
            bar.progress(fraction, text=message.split(": ", 1)[0])
        if build.error:
            status.update(label="The sample workspace could not be created", state="error")
            st.error(literal(build.error))
            return
        status.update(label="Sample workspace ready", state="complete", expanded=False)


# --- workspace selection --------------------------------------------------------------------------------------
def workspace_page(title: str) -> tuple[PrismService, WorkspaceInfo]:
    """The opening of a page that works on the workspace in use: the guard (:func:`page_guard`), the service and
    the workspace; with no workspace at all the page shows its title and what to do, and stops there."""
    page_guard()
    service_ = service()
    info = current_workspace(service_)
    if info is None:
        page_header(title)
        no_workspace()
        st.stop()
    return service_, info


def current_workspace(service: PrismService) -> WorkspaceInfo | None:
    """The workspace in use (:mod:`prism.ui.state`), checked against the workspaces that exist now: one deleted
    (here or by another session or process) is never shown; the sample workspace, else the first, takes its place.
    ``None`` when there is no workspace at all."""
    infos = service.workspaces()
    if not infos:
        if state.workspace_id() is not None:
            state.select_workspace(None)
        return None
    by_id = {i.id: i for i in infos}
    wanted = state.workspace_id()
    chosen = by_id.get(wanted or "")
    if chosen is None:
        sample = service.settings.sample_workspace.casefold()
        chosen = next((i for i in infos if i.name.casefold() == sample), infos[0])
        state.select_workspace(chosen.id)
        if wanted:  # a deleted workspace, or a link to one that no longer exists
            state.flash(f"That workspace no longer exists; showing **{literal(chosen.name)}**.", "warning")
    return chosen


def _picked() -> None:
    """The sidebar picker's callback: use the workspace it names (the picker's value is a workspace id)."""
    state.select_workspace(st.session_state[state.PICKER])


# --- sidebar --------------------------------------------------------------------------------------------------
def sidebar(service: PrismService) -> WorkspaceInfo | None:
    """Draw the sidebar (workspace picker, document filter, retrieval settings, status) and return the selected
    workspace."""
    with st.sidebar:
        st.markdown('<p class="prism-brand"><span>◆</span> Prism</p>', unsafe_allow_html=True)
        st.caption("Cited answers over your financial documents")
        info = current_workspace(service)
        if info is None:
            st.info("No workspace yet. Create one on the Workspaces page.")
            status_view.status(service)
            return None
        infos = service.workspaces()
        names = {i.id: i.name for i in infos}
        st.session_state[state.PICKER] = info.id  # the picker shows the workspace in use, whoever changed it
        st.selectbox("Workspace", list(names), format_func=lambda i: names.get(i, i), key=state.PICKER,
                     on_change=_picked)
        state.sync_address()
        conversations_view.sidebar_list(service, info)
        _document_filter(service, info)
        _retrieval_settings(service)
        status_view.status(service)
        ingest_activity()
    return info


def _document_filter(service: PrismService, info: WorkspaceInfo) -> None:
    try:
        titles = service.document_titles(info.name)
    except PrismError as e:
        st.error(literal(str(e)))
        return
    sources = list(titles)
    if not sources:
        st.caption("This workspace has no documents yet.")
        return
    key = state.filter_key(info.id)
    chosen = st.session_state.get(key)
    if chosen:  # a deleted document must not linger in the filter
        st.session_state[key] = [s for s in chosen if s in sources]
    label = "Limit answers to"
    help_text = "Pick documents to search only those; none picked searches the whole workspace."
    if len(sources) <= MAX_PILLS:
        st.pills(label, sources, selection_mode="multi", format_func=lambda s: literal(shorten(titles[s], 30)),
                 key=key, help=help_text)  # a chip's label is Markdown: "notes_*v2*.txt" must not lose its stars
    else:
        st.multiselect(label, sources, format_func=lambda s: shorten(titles[s], 40), key=key, help=help_text,
                       placeholder="All documents")
    file_names(titles)


def file_names(titles: dict[str, str]) -> None:
    """The file name behind each title, one click away: an expander listing ``title — file name`` for the
    documents whose title is not their file name (nothing when none is). Both are Markdown-escaped."""
    renamed = {source: title for source, title in titles.items() if title != source}
    if renamed:
        with st.expander("File names", icon=":material/description:"):
            for source, title in renamed.items():
                st.caption(f"{literal(shorten(title, 60))} — file {literal(source)}")


def _retrieval_settings(service: PrismService) -> None:
    status = service.llm_status()
    llm = status.get("mode") == "llm"
    web_ok = status.get("web") == "available"
    reranker = service.reranker_state()
    s = service.settings
    st.session_state.setdefault(state.MODE, s.retrieval_mode)
    st.session_state.setdefault(state.HYDE, s.hyde_enabled)
    st.session_state.setdefault(state.MULTI, s.multi_query_enabled)
    st.session_state.setdefault(state.WEB, s.web_search_enabled)
    st.session_state.setdefault(state.RERANK, True)
    stages = ((state.HYDE, llm), (state.MULTI, llm), (state.WEB, web_ok), (state.RERANK, reranker.enabled))
    for key, available in stages:
        if not available:  # a switched-off stage is drawn off, not on and greyed out
            st.session_state[key] = False

    with st.expander("Retrieval settings", expanded=False, icon=":material/tune:"):
        modes = {m.name: m for m in retrieval_modes()}
        st.radio("Search", list(modes), format_func=lambda name: modes[name].label, horizontal=True, key=state.MODE,
                 help=" · ".join(f"{m.label}: {m.description}" for m in modes.values()) + ".")
        off_llm = "Needs an LLM: no Groq API key is configured."
        st.toggle("HyDE", key=state.HYDE, disabled=not llm,
                  help="Search with a hypothetical answer written by the LLM." if llm else off_llm)
        st.toggle("Multi-query", key=state.MULTI, disabled=not llm,
                  help="Search with several rephrasings of the question." if llm else off_llm)
        st.toggle("Web search", key=state.WEB, disabled=not web_ok,
                  help="Add Tavily web results, cited separately as [W1]…" if web_ok else
                  "Needs a Tavily API key (TAVILY_API_KEY).")
        st.toggle("Rerank", key=state.RERANK, disabled=not reranker.enabled,
                  help=f"Re-order the top passages with {reranker.model}." if reranker.enabled else reranker.reason)
        notes = []
        if not llm:
            notes.append("HyDE and multi-query need an LLM (no Groq key configured).")
        if not web_ok:
            notes.append("Web search needs a Tavily API key.")
        if not reranker.enabled:
            notes.append("Rerank is off: the cross-encoder model is not available on this server.")
        for note in notes:
            st.caption(note)
    st.session_state[EFFECTIVE] = {
        "mode": st.session_state.get(state.MODE) or s.retrieval_mode,
        "hyde": bool(st.session_state.get(state.HYDE)) and llm,
        "multi_query": bool(st.session_state.get(state.MULTI)) and llm,
        "web": bool(st.session_state.get(state.WEB)) and web_ok,
        "rerank": bool(st.session_state.get(state.RERANK)) and reranker.enabled,
    }


def effective_options() -> dict[str, Any]:
    """The retrieval settings as they apply (a setting whose feature is unavailable is off)."""
    return dict(st.session_state.get(EFFECTIVE) or state.options())


# --- ingest activity ------------------------------------------------------------------------------------------
def session_job_ids() -> list[str]:
    """Ids of every ingestion job this session submitted."""
    return [j for b in state.batches() for j in b["job_ids"]]


def ingest_activity() -> None:
    """A live line in the sidebar while this session's files are being ingested (on every page)."""
    ids = session_job_ids()
    if not ids:
        return
    jobs = ingest_jobs()
    if all(v.done for v in jobs.views(ids)):
        return

    @st.fragment(run_every=1.5)
    def activity() -> None:
        views = jobs.views(session_job_ids())
        active = [v for v in views if not v.done]
        if not active:
            st.rerun()  # refresh the whole page: new documents appear in the filter and on every page
        running = next((v for v in active if v.status == "running"), active[0])
        st.caption(f"Adding {count_phrase(len(active), 'document')} to **{literal(running.workspace)}**…")
        st.progress(running.fraction, text=f"{literal(shorten(running.filename, 26))} · {literal(running.stage)}")

    activity()


# --- page chrome ----------------------------------------------------------------------------------------------
def page_header(title: str, subtitle: str | None = None) -> None:
    """The page's title and one line under it; also injects the app's CSS."""
    st.html(CSS)
    st.title(title, anchor=False)
    if subtitle:
        st.caption(subtitle)
    flashed = state.pop_flash()
    if flashed:
        kind, message = flashed
        getattr(st, kind if kind in ("success", "info", "warning", "error") else "info")(message)


def service() -> PrismService:
    """The shared service (for pages)."""
    return get_service()


# --- empty states ---------------------------------------------------------------------------------------------
def no_workspace() -> None:
    """What a page shows when there is no workspace at all."""
    st.info("There is no workspace yet. Create one on the **Workspaces** page, or bring back the sample workspace.",
            icon=":material/folder_off:")
    left, right, _ = st.columns([1, 1, 2])
    with left:
        st.page_link("pages/workspaces_page.py", label="Go to Workspaces", icon=":material/folder_open:")
    with right:
        restore_sample_button("empty.restore")


def restore_sample_button(key: str, label: str = "Create the sample workspace") -> None:
    """A button that (re)creates the sample workspace (on its own thread: closing the tab does not stop it; any
    sample document missing is added) and selects it."""
    svc = get_service()
    if st.button(label, key=key, icon=":material/auto_awesome:"):
        with st.spinner("Building the sample workspace…"):
            build = SampleBuild(svc.restore_sample_workspace).start()
            build.wait()
        if build.error:
            st.error(literal(build.error))
            return
        info = svc.find_workspace(svc.settings.sample_workspace)
        if info is not None:
            state.select_workspace(info.id)
        n = sum(r.status != "failed" for r in build.results)
        state.flash(f"Sample workspace ready with {n} document{'s' if n != 1 else ''}.")
        st.rerun()


def empty_workspace(svc: PrismService, info: WorkspaceInfo) -> None:
    """The Chat page of a workspace without documents: point to Upload, or to the sample workspace."""
    types = file_types_phrase(supported_file_types())
    st.info(f"**{literal(info.name)}** has no documents yet. Upload {types} (or a web page) and ask as soon as they "
            "are indexed.", icon=":material/inbox:")
    cols = st.columns([1, 1, 2])
    with cols[0]:
        st.page_link("pages/upload_page.py", label="Upload documents", icon=":material/upload_file:")
    sample = svc.find_workspace(svc.settings.sample_workspace)
    with cols[1]:
        if sample is not None and sample.id != info.id:
            st.button(f"Open {literal(sample.name)}", key="empty.sample", icon=":material/auto_awesome:",
                      on_click=state.select_workspace, args=(sample.id,))
        elif sample is None:
            restore_sample_button("empty.restore")


def suggested_questions(docs: list[Any], info: WorkspaceInfo) -> None:
    """A welcome with a few questions taken from the documents' briefings, as buttons."""
    per_doc = [list((d.briefing or {}).get("questions") or []) for d in docs]
    questions: list[str] = []
    for depth in range(3):  # round robin: the first question of each document, then the second, ...
        questions += [qs[depth] for qs in per_doc if len(qs) > depth]
    questions = list(dict.fromkeys(questions))[:3]
    with st.container(border=True):
        st.markdown("**Ask anything about these documents.** Answers quote and cite the exact passages; open a "
                    "source to see why it was picked and where it sits on the page.")
        if questions:
            st.caption("Try one of these:")
            for i, q in enumerate(questions):
                if st.button(literal(q), key=f"suggest.{i}", icon=":material/lightbulb:"):
                    state.ask_in_chat(info.id, q)
                    st.rerun()
