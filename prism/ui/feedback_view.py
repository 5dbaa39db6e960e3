"""Feedback under an answer: 👍 / 👎 (``st.feedback``), "relevant" / "not relevant" per cited passage, and "Add to
ground truth", which turns the question, the passages marked relevant and an optional reference answer into a pair
of the workspace's own ground truth (:mod:`prism.evaluation.feedback`). Every mark is appended to the workspace's
feedback log with the question, the answer, the settings and the chunk ids. Drawn by
:func:`prism.ui.chat_view.answer_details` through one call of :func:`answer_feedback`.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from typing import Any

import streamlit as st

from prism.errors import PrismError
from prism.service import PrismService
from prism.types import ChatTurn, WorkspaceInfo, locator_of
from prism.ui import state
from prism.ui.explain import literal

logger = logging.getLogger(__name__)

THUMBS = ("down", "up")
"""``st.feedback("thumbs")`` values: 0 is 👎, 1 is 👍."""
MARKS = {"relevant": "Relevant", "not_relevant": "Not relevant"}


def _key(turn: ChatTurn, key: str) -> str:
    """A widget-key stem unique to this answer (its place in the chat, its question and answer text), the same while
    it is being asked and once it is saved (so a mark made right after the answer streams in is kept)."""
    text = str((turn.answer or {}).get("answer", ""))
    digest = hashlib.sha1(f"{turn.question}\0{text}".encode()).hexdigest()[:10]
    return f"prism.fb.{key}.{digest}"


def _settings(turn: ChatTurn) -> dict[str, Any]:
    answer = turn.answer or {}
    return {"retrieval_mode": turn.retrieval_mode, "sources": list(turn.sources), "mode": answer.get("mode"),
            "condensed_query": answer.get("condensed_query"), "declined": bool(answer.get("declined"))}


def _record(service: PrismService, info: WorkspaceInfo, kind: str, value: str, turn: ChatTurn,
            chunk_ids: list[str], target: Mapping[str, Any] | None = None) -> None:
    try:
        service.feedback(info.name, actor=state.actor()).add(kind, value, question=turn.question,
                                        answer=str((turn.answer or {}).get("answer", "")), settings=_settings(turn),
                                        chunk_ids=chunk_ids, target=dict(target or {}))
    except PrismError as e:
        st.session_state["prism.fb.error"] = str(e)


def _thumbs_changed(service: PrismService, info: WorkspaceInfo, turn: ChatTurn, widget: str) -> None:
    value = st.session_state.get(widget)
    if value is None:
        return
    cited = [c["chunk_id"] for c in (turn.answer or {}).get("citations") or []]
    _record(service, info, "answer", THUMBS[int(value)], turn, cited)


def _mark_changed(service: PrismService, info: WorkspaceInfo, turn: ChatTurn, widget: str,
                  c: Mapping[str, Any]) -> None:
    value = st.session_state.get(widget)
    if value is None:
        return
    target = {"chunk_id": c.get("chunk_id"), "source": c.get("source"), "page": c.get("page_start"), "n": c.get("n")}
    _record(service, info, "citation", str(value), turn, [str(c.get("chunk_id"))], target)


def _passages(turn: ChatTurn) -> list[Mapping[str, Any]]:
    """The answer's cited then retrieved passages, each chunk once (the first time it appears): a chunk is marked
    once, and a conversation saved before multi-part answers numbered a shared chunk once still opens."""
    answer = turn.answer or {}
    seen: set[Any] = set()
    passages = []
    for c in [*(answer.get("citations") or []), *(answer.get("retrieved") or [])]:
        if c.get("chunk_id") not in seen:
            seen.add(c.get("chunk_id"))
            passages.append(c)
    return passages


def _add_to_truth(service: PrismService, info: WorkspaceInfo, turn: ChatTurn, stem: str) -> None:
    """Button callback: the passages marked relevant (and the typed reference answer) become a ground-truth pair."""
    from_marks = [c for c in _passages(turn) if st.session_state.get(f"{stem}.m.{c.get('chunk_id')}") == "relevant"]
    qtype = st.session_state.get(f"{stem}.type") or "factoid"
    relevant = [{"source": c["source"], "page": c.get("page_start"), "text": c.get("text", "")} for c in from_marks]
    try:
        pair, created = service.ground_truth(info.name).add(
            turn.question, relevant, str(st.session_state.get(f"{stem}.ref") or ""), qtype)
    except PrismError as e:
        st.session_state[f"{stem}.done"] = ("error", str(e))
        return
    verb = "added as" if created else "updated:"
    st.session_state[f"{stem}.done"] = ("success", f"Ground truth {verb} {pair['id']} "
                                        f"({len(pair['relevant'])} relevant passage(s)).")


def answer_feedback(service: PrismService, info: WorkspaceInfo, turn: ChatTurn, key: str) -> None:
    """👍 / 👎 for the answer and, in an expander inside the message, the marks: relevant / not relevant per
    passage, the question type, an optional reference answer and "Add to ground truth". Nothing is drawn for an
    answer without passages."""
    passages = _passages(turn)
    if not turn.answer or not passages:
        return
    stem = _key(turn, key)
    if message := st.session_state.pop("prism.fb.error", None):
        st.error(literal(message))
    st.feedback("thumbs", key=f"{stem}.thumbs", on_change=_thumbs_changed,
                args=(service, info, turn, f"{stem}.thumbs"))
    # an expander inside the message, not a popover: a popover floats over the page and covered the chat input
    # at 1440×900; an expander opens in the flow of the answer. Its widgets are built only while it
    # is open (a rerun of a long conversation does not build them for every answer).
    with st.expander("Mark passages · add to ground truth", icon=":material/rule:", key=f"{stem}.open",
                     on_change="rerun") as box:
        if not box.open:
            return
        try:
            titles = service.document_titles(info.name)
        except PrismError:
            titles = {}
        for c in passages:
            where = locator_of(c)
            name = titles.get(c["source"], c["source"])
            st.segmented_control(literal(f"[{c['n']}] {name}" + (f" · {where}" if where else "")),
                                 list(MARKS), format_func=lambda m: MARKS[m], key=f"{stem}.m.{c.get('chunk_id')}",
                                 on_change=_mark_changed,
                                 args=(service, info, turn, f"{stem}.m.{c.get('chunk_id')}", c))
        st.selectbox("Question type", service.question_types(), key=f"{stem}.type")
        st.text_area("Reference answer (optional)", key=f"{stem}.ref", height=80)
        st.button("Add to ground truth", key=f"{stem}.add", icon=":material/playlist_add_check:",
                  on_click=_add_to_truth, args=(service, info, turn, stem),
                  help="The question and the passages marked relevant become a pair of this workspace's ground "
                       "truth (Evaluation page). A question added again updates its pair.")
        done = st.session_state.get(f"{stem}.done")
        if done:
            (st.success if done[0] == "success" else st.error)(literal(done[1]))
