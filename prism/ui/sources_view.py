"""The sources under a Chat answer: cited passages, the passages retrieved but not cited, web results and timings.

Every citation is a collapsed expander whose label says what it is ("[1] Title · page 2 — “…”"); what is inside it
(why the passage was picked, the passage with the query's words marked, the page image with the passage boxed, the
scores table and chart) is built only while the expander is open (``on_change="rerun"``, :func:`lazy_expander`).
A closed citation costs one label, so a conversation of many turns redraws in about the time of one.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import streamlit as st

from prism.errors import PrismError
from prism.service import PrismService, document_title, query_terms
from prism.types import DocumentRecord, WorkspaceInfo, count_phrase, locator_of
from prism.ui.charts import score_figure
from prism.ui.explain import highlight_html, literal, score_rows, snippet, stage_ranges, why_cited
from prism.ui.preview import passage_html
from prism.ui.resources import page_preview

DocIds = Mapping[str, tuple[str | None, str]]
"""``{file name: (doc_id of a PDF or None, display title)}`` (:func:`doc_ids`)."""


def lazy_expander(label: str, key: str, *, icon: str | None = None, expanded: bool = False) -> Any:
    """An expander that reruns when opened or closed and tells whether it is open (``.open``), so its contents are
    built only while it is open. Opened in a fragment it reruns that fragment only."""
    return st.expander(label, expanded=expanded, key=key, icon=icon, on_change="rerun")


def ids_of(docs: Iterable[DocumentRecord]) -> dict[str, tuple[str | None, str]]:
    """:data:`DocIds` of ``docs`` (:func:`prism.service.document_title`): read once per page run and handed to
    every answer, so an answer does not read the workspace again."""
    return {d.source: (d.doc_id if d.kind == "pdf" else None, document_title(d)) for d in docs}


def doc_ids(service: PrismService, info: WorkspaceInfo) -> dict[str, tuple[str | None, str]]:
    """:func:`ids_of` the workspace's documents; ``{}`` when the workspace cannot be read."""
    try:
        return ids_of(service.documents(info.name))
    except PrismError:
        return {}


def title_of(c: Mapping[str, Any], ids: DocIds) -> str:
    """The display title of a citation's document (its file name when the document is gone)."""
    return ids.get(c["source"], (None, c["source"]))[1]


def citations(service: PrismService, info: WorkspaceInfo, answer: Mapping[str, Any], query: str,
              sides: Sequence[str], ids: DocIds, key: str) -> None:
    """The cited passages as lazy expanders (``answer``: :meth:`prism.types.Answer.to_dict`), numbered as cited."""
    cited = answer.get("citations") or []
    if not cited:
        return
    ranges = stage_ranges([c.get("scores") or {} for c in [*cited, *(answer.get("retrieved") or [])]])
    st.markdown(f"**Sources** · {count_phrase(len(cited), 'cited passage')}")
    for c in cited:
        pages = locator_of(c)
        profile = f" · {literal(c['profile'])}" if c.get("profile") else ""
        label = f"[{c['n']}] {literal(title_of(c, ids))}" + (f" · {pages}" if pages else "") + profile
        label += f" — “{literal(snippet(c.get('text', ''), 70))}”"
        ckey = f"{key}-c{c['n']}"
        with lazy_expander(label, ckey, icon=":material/format_quote:") as box:
            if box.open:
                citation_detail(service, info, c, query, sides, ranges, ids, ckey)


def citation_detail(service: PrismService, info: WorkspaceInfo, c: Mapping[str, Any], query: str,
                    sides: Sequence[str], ranges: Mapping[str, tuple[float, float]], ids: DocIds, key: str) -> None:
    """Inside an open citation: the file, why this passage, the passage with the query's words marked, the page
    preview, and (for a retrieved passage) its scores as a table and a chart."""
    title = title_of(c, ids)
    if title != c["source"]:
        st.caption(f":material/description: File: {literal(c['source'])}")
    rank = f" (retrieved #{c['rank']})" if c.get("rank") and c.get("rank") != c["n"] else ""
    st.markdown(f'<div class="prism-why">Why this passage{html.escape(rank)}: '
                f'{html.escape(why_cited(c, sides))}</div>', unsafe_allow_html=True)
    st.html(f'<div class="prism-chunk">{highlight_html(c.get("text", ""), query, query_terms)}</div>')
    _page_preview(service, info, c, ids)
    if c.get("read_beside"):
        return  # not retrieved: no scores to show
    scores = c.get("scores") or {}
    left, right = st.columns([1, 1], gap="medium")
    with left:
        st.dataframe(score_rows(scores), hide_index=True, width="stretch",
                     column_config={"Stage": st.column_config.TextColumn(width="small"),
                                    "Score": st.column_config.TextColumn(width="small"),
                                    "Rank": st.column_config.TextColumn(width="small"),
                                    "Meaning": st.column_config.TextColumn(width="medium")})
    with right:
        st.plotly_chart(score_figure(scores, ranges), key=f"{key}-chart", config={"displayModeBar": False})


def also_retrieved(answer: Mapping[str, Any], sides: Sequence[str], ids: DocIds, declined: bool, key: str) -> None:
    """The passages retrieved but not cited, in a lazy expander (open from the start for a decline, where they are
    the closest passages)."""
    retrieved = answer.get("retrieved") or []
    if not retrieved:
        return
    label = (f"Closest passages, which do not answer the question ({len(retrieved)})" if declined
             else f"Also retrieved, not cited ({len(retrieved)})")
    with lazy_expander(label, f"{key}-more", icon=":material/manage_search:", expanded=declined) as box:
        if not box.open:
            return
        for c in retrieved:
            pages = locator_of(c)
            st.markdown(f"**[{c['n']}] {literal(title_of(c, ids))}**" + (f" · {pages}" if pages else "")
                        + (f" · {literal(c['profile'])}" if c.get("profile") else ""))
            st.caption(why_cited(c, sides))
            st.markdown(f"> {literal(snippet(c.get('text', ''), 240))}")


def web_results(answer: Mapping[str, Any]) -> None:
    """The web results the answer may cite as [W1], [W2]…, each with its title, link and opening words."""
    web = answer.get("web") or []
    if not web:
        return
    st.markdown("**From the web** · cited as [W1], [W2]…")
    for w in web:
        with st.container(border=True):
            st.markdown(f"**[W{w['n']}] [{literal(w.get('title') or w['url'])}]({w['url']})**")
            st.caption(literal(snippet(w.get("content", ""), 300)))


def _page_preview(service: PrismService, info: WorkspaceInfo, c: Mapping[str, Any], ids: DocIds) -> None:
    page = c.get("page_start")
    doc_id = ids.get(c["source"], (None, ""))[0]
    if page is None or doc_id is None:  # no page image: the passage in the text of its slide, sheet or document
        _passage_preview(service, info, c)
        return
    try:
        path = service.original_path(info.name, c["source"])
        mtime = path.stat().st_mtime_ns
    except (PrismError, OSError, ValueError):
        st.caption("No page preview: the original file is not available.")
        return
    preview = page_preview(str(path), int(page), c.get("text", ""), mtime)
    if not preview.image:
        st.caption(preview.message or "No page preview.")
        return
    where = locator_of(c) or f"page {page}"
    if preview.crop:
        st.image(preview.crop, caption=f"{title_of(c, ids)}, {where}: the passage, highlighted", width="content")
        with st.popover(f"Whole page ({where})", icon=":material/description:"):
            st.image(preview.image, width="stretch")
    else:
        with st.popover(f"Page ({where})", icon=":material/description:"):
            st.image(preview.image, width="stretch")
        if preview.message:
            st.caption(preview.message)


def _passage_preview(service: PrismService, info: WorkspaceInfo, c: Mapping[str, Any]) -> None:
    try:
        view = service.passage(c["source"], c.get("chunk_id", ""), info.name)
    except PrismError:
        view = None
    if view is None:
        st.caption("No preview: the document is no longer in the workspace.")
        return
    with st.popover(f"In context ({view.locator})" if view.locator else "In context", icon=":material/description:"):
        st.html(passage_html(view))
