"""Words for the Chat page: why a chunk was retrieved, its scores as table rows, query terms highlighted, timings.

Pure functions (no Streamlit), unit-tested in tests/ui/test_pages.py. ``scores`` everywhere is the stable object of
:meth:`prism.types.RetrievedChunk.scores`: ``{"dense", "dense_rank", "bm25", "bm25_rank", "rrf", "rrf_rank",
"rerank", "rerank_rank"}`` with ``None`` where a stage did not see the chunk; ranks are 1-based.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from prism.types import INGEST_STAGES, SCORE_STAGES, count_phrase

Scores = Mapping[str, float | int | None]

STAGE_WORDS: dict[str, tuple[str, str]] = {
    "dense": ("Dense", "meaning: cosine, −1 to 1"),
    "bm25": ("BM25", "keywords: 0 and up"),
    "rrf": ("RRF", "fusion of the ranks"),
    "rerank": ("Rerank", "cross-encoder logit"),
}
"""How the page names each scoring stage of :data:`prism.types.SCORE_STAGES`: ``(label, what the score is)``."""

STAGES: tuple[tuple[str, str, str], ...] = tuple((key, *STAGE_WORDS[key]) for key in SCORE_STAGES)
"""``(key, label, what the score is)`` per stage, in pipeline order."""

TIMING_LABELS: tuple[tuple[str, str], ...] = (
    ("condense", "condense"),
    ("expand", "expand"),
    ("retrieve", "retrieve"),
    ("rerank", "rerank"),
    ("web", "web"),
    ("first_token", "first token"),
    ("total", "total"),
)

# A "word" as an analyst sees it: amounts with ₹/$ and separators, codes such as P2P or 4.3.1, plain words.
_WORDLIKE = re.compile(r"[₹$€£]?\w(?:[\w,./%&'-]*\w)?%?")
# Every ASCII punctuation character Markdown, GFM, LaTeX or Streamlit give a meaning (, ; ? @ / % ' " ^ have none).
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+\-.!|~$:&=])")
_LINE_BREAK = re.compile(r"[\r\n\v\f\x1c-\x1e\x85\u2028\u2029]")
_LIST_ITEM = re.compile(r"^([-*•]|\d{1,3}[.)])\s+")


def _rank(scores: Scores, key: str) -> int | None:
    value = scores.get(f"{key}_rank")
    return int(value) if value is not None else None


SIDE_LABELS: tuple[tuple[str, str], ...] = (("bm25", "BM25"), ("dense", "dense"))
"""``(side, label)`` of the retrieval sides, in the order equal ranks are listed."""

BOTH_SIDES: tuple[str, ...] = ("dense", "bm25")


def why_this_chunk(scores: Scores, sides: Sequence[str] = BOTH_SIDES) -> str:
    """One sentence on how a chunk got where it is, e.g. ``"BM25 #1, dense #7, fused #2, rerank moved it up to #1
    — mainly a keyword match."``.

    The retrieval sides the mode ran are listed best rank first ("not in the dense top list" when a side did not
    return the chunk); then the fused rank (when several sides ran); then what the reranker did relative to the rank
    it was given (the fused rank, or the single side's rank). The closing phrase (:func:`_carried_by`) says which
    side carried it.

    Args:
        scores: the chunk's scores object.
        sides: the sides the retrieval mode ran (:attr:`prism.types.RetrievalMode.sides`), e.g. ``("dense",
            "bm25")`` for hybrid.

    Returns:
        The sentence, ending in a full stop.
    """
    ranked = [(label, _rank(scores, side)) for side, label in SIDE_LABELS if side in sides]
    ranked.sort(key=lambda s: (s[1] is None, s[1] or 0))
    parts = [f"{name} #{rank}" if rank is not None else f"not in the {name} top list" for name, rank in ranked]
    fused = len(ranked) > 1
    before: int | None
    statement = _rank(scores, "statement")
    if statement is not None:
        parts.append(f"#{statement} among the rows of the statement the question names")
    if fused:
        before = _rank(scores, "rrf")
        if before is not None:
            parts.append(f"fused #{before}")
    else:
        before = ranked[0][1] if ranked else None
    section = _rank(scores, "section")
    if section is not None:
        parts.append(f"#{section} in the sections whose text the question looks for")
    page = _rank(scores, "page")
    if page is not None:
        parts.append(f"its page #{page} by the fused scores of its chunks")
    after = _rank(scores, "rerank")
    if after is not None:
        parts.append(_rerank_move(before, after))
    sentence = ", ".join(parts) if parts else "ranked by the retriever"
    sentence = sentence[0].upper() + sentence[1:]
    reason = _carried_by(scores) if fused else ""
    return f"{sentence} — {reason}." if reason else f"{sentence}."


def why_cited(citation: Mapping[str, Any], sides: Sequence[str] = BOTH_SIDES) -> str:
    """Why a citation's chunk is there (``citation``: :meth:`prism.types.Citation.to_dict`): :func:`why_this_chunk`
    of its scores, or, for a chunk read beside a retrieved one (``read_beside``), that it was not retrieved itself
    but is the rest of that passage's table, read for the calculation."""
    beside = citation.get("read_beside")
    if beside:
        return (f"Not retrieved itself: the rest of the table of retrieved passage #{beside} on its page, read to "
                "compute the answer; it has no retrieval scores.")
    return why_this_chunk(citation.get("scores") or {}, sides)


def _rerank_move(before: int | None, after: int) -> str:
    if before is None:
        return f"reranked to #{after}"
    if after < before:
        return f"rerank moved it up to #{after}"
    if after > before:
        return f"rerank moved it down to #{after}"
    return f"rerank kept it at #{after}"


def _carried_by(scores: Scores) -> str:
    """Which side carried a fused chunk: "mainly a keyword match" when BM25 ranked it at least 5 places better than
    dense and in its top 5 (and the mirror for "mainly a meaning match"), "strong on both keywords and meaning" when
    both ranked it in their top 5, "found by keywords only" / "found by meaning only" when one side missed it;
    ``""`` otherwise."""
    bm25, dense = _rank(scores, "bm25"), _rank(scores, "dense")
    if bm25 is not None and dense is None:
        return "found by keywords only"
    if dense is not None and bm25 is None:
        return "found by meaning only (no query word in common)"
    if bm25 is None or dense is None:
        return ""
    if bm25 <= 5 and dense <= 5:
        return "strong on both keywords and meaning"
    if bm25 <= 5 and dense - bm25 >= 5:
        return "mainly a keyword match"
    if dense <= 5 and bm25 - dense >= 5:
        return "mainly a meaning match"
    return ""


def score_rows(scores: Scores) -> list[dict[str, str]]:
    """Table rows ``{"Stage", "Score", "Rank", "Meaning"}`` for the four stages (and the statement ranking after
    BM25 when it ranked the chunk, the page ranking before rerank when pages were ranked), in pipeline order, as
    display text: scores with 4 decimals for RRF and 3 otherwise, ranks as ``"#3"``, and ``"—"`` where the stage
    did not see the chunk."""
    rows = []
    for key, label, meaning in STAGES:
        value = scores.get(key)
        rank = _rank(scores, key)
        digits = 4 if key == "rrf" else 3
        rows.append({
            "Stage": label,
            "Score": f"{float(value):.{digits}f}" if value is not None else "—",
            "Rank": f"#{rank}" if rank is not None else "—",
            "Meaning": meaning,
        })
    if (rank := _rank(scores, "statement")) is not None:  # after BM25: the statement ranking is BM25 within it
        value = scores.get("statement")
        rows.insert(2, {"Stage": "Statement", "Score": f"{float(value):.3f}" if value is not None else "—",
                        "Rank": f"#{rank}", "Meaning": "keywords among the rows of the statement the question names"})
    if (rank := _rank(scores, "section")) is not None:  # after BM25 (and the statement): BM25 within the sections
        value = scores.get("section")
        rows.insert(len(rows) - 2, {"Stage": "Section", "Score": f"{float(value):.3f}" if value is not None else "—",
                                    "Rank": f"#{rank}", "Meaning": "keywords in the sections the question looks for"})
    if (rank := _rank(scores, "page")) is not None:  # before rerank (the last stage): pages are ranked on fused scores
        value = scores.get("page")
        rows.insert(len(rows) - 1, {"Stage": "Page", "Score": f"{float(value):.4f}" if value is not None else "—",
                         "Rank": f"#{rank}", "Meaning": "its page: the page's chunks' fused scores, summed with decay"})
    return rows


def stage_ranges(all_scores: Iterable[Scores]) -> dict[str, tuple[float, float]]:
    """Axis range per stage over an answer's blocks, so each chunk's bars read against the others.

    Dense is fixed at [0, 1] (cosine; negatives clipped to 0 on the chart); BM25 and RRF go from 0 to the highest
    score seen; rerank logits from min(0, lowest) to max(0, highest). A stage with no scores gets [0, 1].
    """
    seen: dict[str, list[float]] = {key: [] for key, _, _ in STAGES}
    for scores in all_scores:
        for key in seen:
            value = scores.get(key)
            if value is not None:
                seen[key].append(float(value))
    ranges = {}
    for key, values in seen.items():
        if key == "dense" or not values:
            ranges[key] = (0.0, 1.0)
        elif key == "rerank":
            lo, hi = min(0.0, min(values)), max(0.0, max(values))
            ranges[key] = (lo, hi if hi > lo else lo + 1.0)
        else:
            hi = max(values)
            ranges[key] = (0.0, hi if hi > 0 else 1.0)
    return ranges


def reflow(text: str) -> str:
    """Text laid out for reading: single line breaks (PDF lines, table cells) become spaces, blank lines stay
    paragraph breaks (``"\\n\\n"``)."""
    paragraphs = re.split(r"\n[ \t]*\n", text)
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def highlight_html(text: str, query: str, tokenize: Callable[[str], Iterable[str]]) -> str:
    """``text`` as HTML (escaped, :func:`reflow` ed, paragraphs as ``<br><br>``) with every word sharing an index
    token with ``query`` wrapped in ``<mark>``.

    Args:
        text: a chunk's text.
        query: the (standalone) question.
        tokenize: the index tokenizer (:func:`prism.service.query_terms`), so "requests" matches
            "request" and "₹2,000" matches "2000".
    """
    text = reflow(text)
    terms = set(tokenize(query))
    out: list[str] = []
    pos = 0
    for m in _WORDLIKE.finditer(text):
        out.append(html.escape(text[pos:m.start()]))
        word = m.group()
        if terms and terms.intersection(tokenize(word)):
            out.append(f"<mark>{html.escape(word)}</mark>")
        else:
            out.append(html.escape(word))
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out).replace("\n\n", "<br><br>")


def injection_flag(injections: list[dict[str, Any]]) -> str:
    """The table flag of a document with sentences addressed to an AI assistant (possible prompt injection, OWASP
    LLM01:2025; :attr:`prism.types.DocumentRecord.injections`): ``"⚠ 1 sentence"``, or ``""`` for none."""
    return f"⚠ {count_phrase(len(injections), 'sentence')}" if injections else ""


def strip_source(message: str, source: str) -> str:
    """A parser warning without its leading ``"<file name>: "`` (the table already names the file)."""
    prefix = f"{source}: "
    return message[len(prefix):] if message.startswith(prefix) else message


def literal(text: str, block: bool = False) -> str:
    """Text that comes from a document (or an analyst) as Markdown that Streamlit shows exactly as written: the one
    escaping helper for answers, chunks, briefings, citations, file and workspace names and error messages.

    Every ASCII punctuation character that means something to Markdown, GFM, KaTeX or Streamlit is backslash-escaped
    (CommonMark allows it for all of them), so nothing in the text can start strikethrough (``5~10 bps``), a quote
    block (``> 90 days``), LaTeX (``$5 … $6``), emphasis, a heading, a table, code, a link or an image (a ``data:``
    URI stays text), an HTML tag (``<script>``), an entity or Streamlit's ``:color[…]`` directives. In ``block``
    mode lines lose their leading white space (four spaces would start a code block; Streamlit also dedents).

    Args:
        text: the text as written.
        block: keep the text's own structure: blank lines stay paragraph breaks and a line that starts with a list
            marker (``- ``, ``* ``, ``• `` or ``1. ``, as answers and briefings write their points) stays a list
            item; the rest of each line is escaped. Without ``block`` line breaks become spaces (the text becomes one
            line) and nothing else changes, so pieces of a stream escaped one by one join into the escaped whole.

    Returns:
        Markdown source; rendered, it reads as ``text`` (white space aside).
    """
    if not block:
        return _MD_SPECIAL.sub(r"\\\1", _LINE_BREAK.sub(" ", text))
    lines = []
    for line in text.splitlines():
        line = line.strip()
        m = _LIST_ITEM.match(line)
        marker = ""
        if m:
            marker = "- " if m.group(1) in "-*•" else f"{m.group(1)[:-1]}. "
            line = line[m.end():]
        lines.append(marker + _MD_SPECIAL.sub(r"\\\1", " ".join(line.split())))
    return "\n".join(lines)


def snippet(text: str, max_chars: int = 90) -> str:
    """The start of ``text`` on one line, cut at a word boundary with ``…``."""
    flat = " ".join(text.split())
    if len(flat) <= max_chars:
        return flat
    cut = flat[: max_chars - 1].rsplit(" ", 1)[0]
    return cut + "…"


def format_ms(ms: float) -> str:
    """``"85 ms"`` below a second, ``"2.1 s"`` above."""
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.1f} s"


def timings_caption(timings_ms: Mapping[str, float | None]) -> str:
    """``"condense 120 ms · retrieve 85 ms · first token 900 ms · total 2.1 s"`` over the stages that ran (stages
    under half a millisecond, e.g. a heuristic condense, are left out; the total is always shown)."""
    parts = [f"{label} {format_ms(float(ms))}" for key, label in TIMING_LABELS
             if (ms := timings_ms.get(key)) is not None and (float(ms) >= 0.5 or key == "total")]
    return " · ".join(parts)


STAGE_LABELS: dict[str, str] = {"ocr": "OCR", "bm25": "BM25"}
"""How the Upload page names an ingest stage of :data:`prism.types.INGEST_STAGES` (the others by their own name)."""


def stage_times(seconds: Mapping[str, float], ocr_pages: int = 0) -> str:
    """Where one file's ingest time went, for the Upload page: ``"parse 0.4 s · OCR 6.1 s (1 page, 9.8 pages/min) ·
    profile 12 ms · chunk 0.3 s · embed 2.1 s · store 0.2 s · BM25 5 ms · briefing 0.4 s"``: the stages of
    :attr:`prism.types.IngestResult.stage_seconds` that ran, in pipeline order (:func:`format_ms`); OCR with its
    pages and their rate; ``""`` for none (a duplicate, a failure)."""
    parts = []
    for stage in INGEST_STAGES:
        if seconds.get(stage) is None:
            continue
        part = f"{STAGE_LABELS.get(stage, stage)} {format_ms(float(seconds[stage]) * 1000)}"
        if stage == "ocr" and ocr_pages and seconds[stage] > 0:
            part += f" ({count_phrase(ocr_pages, 'page')}, {ocr_pages * 60 / float(seconds[stage]):.1f} pages/min)"
        parts.append(part)
    return " · ".join(parts)


def shorten(name: str, max_chars: int = 32) -> str:
    """A long file name shortened in the middle, keeping its extension: ``"NT78714…BB1408.pdf"``."""
    if len(name) <= max_chars:
        return name
    keep = max_chars - 1
    head = keep // 2
    tail = keep - head
    return f"{name[:head]}…{name[-tail:]}"
