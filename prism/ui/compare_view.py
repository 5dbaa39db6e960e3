"""The Compare page: documents (columns) × questions (rows), each cell answered from its own document only.

The analyst picks up to 12 documents, types questions (one per line) or adds a template's, and runs the grid: cells
fill in as they finish, with progress over all cells. Clicking Cancel (or leaving the page) stops the run at the
next cell; the cells done so far are kept in the saved grid and in the workspace's cache, so running it again asks
only the rest. Each cell's "Sources" opens the same citation panel as Chat. Grids are saved per workspace and can be
reopened; exports are CSV, XLSX and Markdown.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import streamlit as st

from prism.errors import PrismError
from prism.service import PrismService
from prism.types import ChatTurn, CompareCell, CompareGrid, WorkspaceInfo
from prism.ui import chat_view, state, widgets
from prism.ui.explain import literal

logger = logging.getLogger(__name__)

MAX_COLUMNS = 12
STATUS_ICONS = {"found": ":material/check_circle:", "not_found": ":material/search_off:",
                "error": ":material/error:"}
NEW_GRID = "New grid"


def _grid_key(ws_id: str) -> str:
    return f"prism.compare.grid.{ws_id}"


def current_grid(ws_id: str) -> CompareGrid | None:
    """The grid open in this session for the workspace, or ``None``."""
    return st.session_state.get(_grid_key(ws_id))


def _set_grid(ws_id: str, grid: CompareGrid | None) -> None:
    st.session_state[_grid_key(ws_id)] = grid


def _open_saved(service: PrismService, info: WorkspaceInfo) -> None:
    """Callback of the saved-grid picker: open the chosen grid (its documents, questions and cells)."""
    choice = st.session_state.get(f"compare.saved.{info.id}")
    if not choice or choice == NEW_GRID:
        _set_grid(info.id, None)
        return
    try:
        grid = service.grids(info.name).get(choice)
    except PrismError as e:
        st.session_state["compare.error"] = str(e)
        return
    _set_grid(info.id, grid)
    st.session_state[f"compare.docs.{info.id}"] = list(grid.documents)
    st.session_state[f"compare.questions.{info.id}"] = "\n".join(grid.questions)
    st.session_state[f"compare.title.{info.id}"] = grid.title


def _add_template(service: PrismService, info: WorkspaceInfo) -> None:
    """Callback: append the chosen template's questions to the question box."""
    name = st.session_state.get(f"compare.template.{info.id}")
    if not name:
        return
    key = f"compare.questions.{info.id}"
    have = [q for q in str(st.session_state.get(key, "")).splitlines() if q.strip()]
    st.session_state[key] = "\n".join(dict.fromkeys([*have, *service.template_questions(name)]))


def _editor(service: PrismService, info: WorkspaceInfo, titles: dict[str, str]) -> tuple[list[str], list[str], str]:
    """The grid's inputs: saved grids, documents (by their display titles), questions (and templates), title."""
    sources = list(titles)
    saved = service.grids(info.name).list()
    names = {g.id: f"{g.title} ({len(g.documents)} × {len(g.questions)}, {g.updated_at[:16].replace('T', ' ')})"
             for g in saved}
    st.selectbox("Saved grids", [NEW_GRID, *names], key=f"compare.saved.{info.id}",
                 format_func=lambda gid: names.get(gid, gid), on_change=_open_saved, args=(service, info))
    docs_key = f"compare.docs.{info.id}"
    if docs_key in st.session_state:
        st.session_state[docs_key] = [d for d in st.session_state[docs_key] if d in sources]
    docs = st.multiselect("Documents (columns, up to 12)", sources, key=docs_key, max_selections=MAX_COLUMNS,
                          placeholder="Choose documents to compare", format_func=lambda s: titles.get(s, s))
    left, right = st.columns([3, 1], vertical_alignment="bottom")
    templates = service.compare_templates()
    with right:
        st.selectbox("Template", list(templates), key=f"compare.template.{info.id}", index=None,
                     placeholder="Choose a template",
                     help="filings: revenue, net income, operating margin, capex, key risks (each document's own "
                          "fiscal period); circulars: applies to, effective date, key limits, penalty")
        st.button("Add template questions", key=f"compare.add_template.{info.id}", on_click=_add_template,
                  args=(service, info), icon=":material/playlist_add:")
    with left:
        text = st.text_area("Questions (rows, one per line)", key=f"compare.questions.{info.id}", height=140,
                            placeholder="What is the effective date of this circular?\n"
                                        "What was total revenue{period}?")
    st.caption("`{period}` in a question is replaced by each document's own fiscal period from its profile, and "
               "the cell names that period.")
    title = st.text_input("Grid title", key=f"compare.title.{info.id}", placeholder="Untitled grid")
    questions = list(dict.fromkeys(q.strip() for q in text.splitlines() if q.strip()))
    return docs, questions, title


def draw_cell(service: PrismService, info: WorkspaceInfo, cell: CompareCell | None, key: str,
              titles: dict[str, str] | None = None) -> None:
    """One cell: the short answer (or "not found" / the error) with its citations (documents by their ``titles``,
    ``{file name: display title}``) and a Sources panel."""
    if cell is None:
        st.caption("…")
        return
    period = f"**{literal(cell.period)}** · " if cell.period else ""
    if cell.status == "found":
        st.markdown(period + literal(cell.answer))
        st.caption(literal(cell.citation_labels(titles)))
    elif cell.status == "not_found":
        st.markdown(f"{period}:material/search_off: *Not found in this document.*")
        if cell.closest is not None:
            st.caption(f"Closest passage: {literal(cell.closest.label(titles))}")
    else:
        st.error(literal(cell.answer), icon=STATUS_ICONS["error"])
    if cell.note:
        st.caption(f":material/warning: {literal(cell.note)}")
    if cell.full:
        label = "Sources" if cell.status == "found" else "Closest passages"
        with st.popover(label, icon=":material/format_quote:"):
            turn = ChatTurn(cell.asked, cell.full, sources=(cell.document,))
            chat_view.answer_details(service, info, turn, key=key)


def _draw(service: PrismService, info: WorkspaceInfo, grid: CompareGrid,
          titles: dict[str, str]) -> dict[tuple[str, str], Any]:
    """The grid as rows of columns, each headed by its document's title (its file name in the tooltip); returns
    each cell's placeholder by (document, question)."""
    widths = [2] + [3] * len(grid.documents)
    head = st.columns(widths)
    head[0].markdown("**Question**")
    for col, doc in zip(head[1:], grid.documents, strict=True):
        title = titles.get(doc, doc)
        col.markdown(f"**{literal(title)}**", help=None if title == doc else f"File: {literal(doc)}")
    holders: dict[tuple[str, str], Any] = {}
    for r, q in enumerate(grid.questions):
        st.divider()
        cols = st.columns(widths)
        cols[0].markdown(literal(service.row_label(q)))
        for c, (col, doc) in enumerate(zip(cols[1:], grid.documents, strict=True)):
            holders[(doc, q)] = col.empty()
            with holders[(doc, q)].container():
                draw_cell(service, info, grid.cell(doc, q), key=f"cmp-{r}-{c}", titles=titles)
    return holders


def _run(service: PrismService, info: WorkspaceInfo, grid: CompareGrid, holders: dict[tuple[str, str], Any],
         options: dict[str, Any], titles: dict[str, str]) -> CompareGrid:
    """Answer the grid's cells (cached ones at once), filling each placeholder and the progress bar as cells finish;
    the grid is saved after every cell, so a cancelled run keeps what it did."""
    total = len(grid.documents) * len(grid.questions)
    bar = st.progress(0.0, text=f"0 of {total} cells")
    llm = service.llm_status()
    if llm.get("mode") == "llm" and llm.get("pacing") not in (None, "no pacing"):
        st.caption(f":material/speed: LLM calls are paced to {literal(str(llm['pacing']))} per model (your Groq "
                   "plan's limits); a cell waits for room rather than failing.")
    store = service.grids(info.name)
    cells: list[CompareCell] = []
    for cell in service.compare(list(grid.documents), list(grid.questions), info.name, mode=options.get("mode"),
                                hyde=options.get("hyde"), multi_query=options.get("multi_query"),
                                rerank=bool(options.get("rerank", True))):
        cells.append(cell)
        grid = store.save(replace(grid, cells=tuple(cells)))
        _set_grid(info.id, grid)
        holder = holders.get((cell.document, cell.question))
        if holder is not None:
            with holder.container():
                draw_cell(service, info, cell, key=f"cmp-new-{len(cells)}", titles=titles)
        bar.progress(len(cells) / total, text=f"{len(cells)} of {total} cells"
                     + (f" · {sum(c.cached for c in cells)} from the cache" if any(c.cached for c in cells) else ""))
    return grid


def _exports(service: PrismService, grid: CompareGrid, workspace: str, titles: dict[str, str]) -> None:
    stem = "".join(ch if ch.isalnum() else "-" for ch in grid.title.lower()).strip("-") or "grid"
    with st.container(horizontal=True):
        for fmt in service.export_formats():
            name = f"prism-{stem}.{fmt.key}"
            st.download_button(f"Export {fmt.label}", service.export_grid(grid, fmt.key, titles),
                               file_name=name,
                               mime=fmt.mime, key=f"compare.export.{fmt.key}", on_click=state.record_export,
                               args=(service, workspace, "grid", name), icon=":material/download:")


def page(service: PrismService, info: WorkspaceInfo) -> None:
    """The Compare page body for the workspace in use."""
    if message := st.session_state.pop("compare.error", None):
        st.error(literal(message))
    titles = service.document_titles(info.name)
    docs, questions, title = _editor(service, info, titles)
    with st.container(horizontal=True):
        run = st.button("Run grid", type="primary", key="compare.run", icon=":material/grid_on:",
                        disabled=not docs or not questions)
        st.button("Cancel", key="compare.cancel", icon=":material/stop_circle:",
                  help="Stops after the cell being answered; answered cells are kept and cached.")
    grid = current_grid(info.id)
    if run:
        base = grid if grid is not None and grid.title == (title or grid.title) else None
        grid = CompareGrid(base.id if base else "", title or "Untitled grid", tuple(docs), tuple(questions),
                           tuple(c for c in (base.cells if base else ()) if c.document in docs
                                 and c.question in questions))
    if grid is None:
        st.info("Choose documents and questions, then **Run grid**. Each cell is answered from its own document "
                "only, with the same pipeline as Chat.", icon=":material/grid_on:")
        return
    holders = _draw(service, info, grid, titles)
    if run:
        try:
            grid = _run(service, info, grid, holders, widgets.effective_options(), titles)
        except PrismError as e:  # an unknown placeholder in a question, refused before any cell is asked
            st.error(literal(str(e)))
            return
        st.success(f"Grid '{grid.title}' saved: {len(grid.cells)} cells.", icon=":material/task_alt:")
    _exports(service, grid, info.name, titles)
