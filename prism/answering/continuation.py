"""Sentences a chunk boundary cut, completed from the neighbouring chunk of their document.

Chunks are cut at about 500 characters with a 50-character overlap, not always at a sentence end, so a sentence
quoted from a chunk can stop short of its figure or date ("… receives a…" for "… receives a provisional credit within
2 working days."), or start in its middle. :func:`complete_cut` reads the rest of such a sentence from the next chunk
(whose first characters repeat the cut chunk's last ones), or its start from the previous chunk, and cites that chunk
beside the quoted one: the line's figures are checked against both chunks, and both open from the answer.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from prism.answering.citations import number_by_first_use, validate_citations
from prism.answering.extractive import quoted_line
from prism.answering.figures import check_sentences, unsupported_numbers
from prism.answering.programs.tables import RowsOf, sibling_chunk
from prism.answering.stream import AnswerRun
from prism.answering.units import Block
from prism.index.sentences import ends_sentence
from prism.types import RetrievedChunk

__all__ = ["Completed", "cite_answer", "cite_quotes", "complete_cut"]

Completed = tuple[list[tuple[str, int]], list[RetrievedChunk], dict[int, tuple[int, ...]]]
"""``(lines, added chunks, beside)``: the lines with cut sentences completed, the neighbouring chunks they were
completed from that were not among the chunks (their blocks follow the chunks' in order), and for each completed
line's index the block numbers it is also read from."""

OVERLAP_PROBE = 24
"""Characters of a cut end looked for in the neighbouring chunk (at most the chunker's overlap, 50 by default)."""
MAX_ADDED = 400
"""The most characters a completion adds (a longer run is no sentence's rest)."""


def _flat(text: str) -> str:
    return " ".join(text.split())


def _sentence_ends(text: str) -> Iterator[int]:
    """Offsets just past each sentence end of flattened ``text``: a ``.``, ``!``, ``?`` or ``।`` before a space or
    the text's end that :func:`prism.index.sentences.ends_sentence` accepts (not "Rs." nor the "2" of "2.5"), the
    chunker's and the sentence splitter's rule."""
    for i, ch in enumerate(text):
        if ch in ".!?।" and (i + 1 == len(text) or text[i + 1] == " ") and ends_sentence(text, i):
            yield i + 1


def _rest_after(fragment: str, following: str, overlap: int) -> str | None:
    """The words that complete ``fragment`` (cut at its chunk's end) from ``following``, the next chunk, up to and
    with the sentence end; ``None`` when the overlap is not found within ``overlap`` characters (and the probe's
    length) of ``following``'s start, or no end follows within :data:`MAX_ADDED` characters."""
    tail = _flat(fragment.rstrip("…"))[-OVERLAP_PROBE:]
    text = _flat(following)
    at = text.find(tail)
    if len(tail) < OVERLAP_PROBE // 2 or not 0 <= at <= overlap + OVERLAP_PROBE:
        return None
    rest = text[at + len(tail):]
    end = next(_sentence_ends(rest[:MAX_ADDED + 1]), None)
    return rest[:end] if end else None


def _start_before(fragment: str, preceding: str, overlap: int) -> str | None:
    """The words that start ``fragment`` (cut at its chunk's start) from ``preceding``, the previous chunk, from
    the sentence end before them; ``None`` when the overlap is not found within ``overlap`` characters (and the
    probe's length) of ``preceding``'s end, or no sentence starts within :data:`MAX_ADDED` characters."""
    head = _flat(fragment.lstrip("…"))[:OVERLAP_PROBE]
    text = _flat(preceding)
    at = text.rfind(head)
    if len(head) < OVERLAP_PROBE // 2 or at < 0 or at < len(text) - overlap - OVERLAP_PROBE:
        return None
    start = max(_sentence_ends(text[:at]), default=None)
    return text[start:at].lstrip() if start is not None and at - start <= MAX_ADDED else None


def _neighbour(chunk: RetrievedChunk, step: int, rows_of: RowsOf) -> dict | None:
    """The stored row of the chunk ``step`` places after ``chunk`` in its document (``-1``: before), or ``None``."""
    index = chunk.chunk_index + step
    return next((dict(r) for r in rows_of(chunk.doc_id) if r.get("chunk_index") == index and r.get("text")), None)


def complete_cut(lines: Sequence[tuple[str, int]], chunks: Sequence[RetrievedChunk], rows_of: RowsOf, *,
                 overlap: int) -> Completed:
    """Each quoted ``(sentence, block n)`` that its chunk cut (marked "…" at its end or start by the extractive
    answer) completed from the next or previous chunk of its document (``rows_of(doc_id)``: the stored chunk
    rows; ``overlap``: the characters neighbouring chunks share, ``Settings.chunk_overlap``). A neighbouring chunk
    among ``chunks`` is cited by its block; another is added after them (citable beside the quoted chunk:
    :func:`~prism.answering.programs.tables.sibling_chunk`). A sentence whose rest is not found
    stays as quoted, "…" and all; a completed sentence another line already quotes (the other half of the same cut
    sentence, completed from this one's chunk) is dropped.

    Returns:
        :data:`Completed`.
    """
    blocks = {c.chunk_id: n for n, c in enumerate(chunks, start=1)}
    added: list[RetrievedChunk] = []
    out: list[tuple[str, int]] = []
    beside: dict[int, tuple[int, ...]] = {}
    for text, n in lines:
        chunk = chunks[n - 1]
        more: tuple[int, ...] = ()
        for step in (1, -1):
            cut = text.endswith("…") if step == 1 else text.startswith("…")
            row = _neighbour(chunk, step, rows_of) if cut else None
            part = (_rest_after if step == 1 else _start_before)(text, str(row["text"]), overlap) if row else None
            if row is None or part is None:
                continue
            text = text.rstrip("…") + part if step == 1 else part + text.lstrip("…")
            if str(row["chunk_id"]) not in blocks:
                added.append(sibling_chunk(chunk, row))
                blocks[str(row["chunk_id"])] = len(chunks) + len(added)
            more = (*more, blocks[str(row["chunk_id"])])
        if any(_flat(text) in _flat(kept) for kept, _ in out):
            continue  # both halves of one cut sentence, each completed from the other's chunk: quoted once
        if more:
            beside[len(out)] = more
        out.append((text, n))
    return out, added, beside


def cite_quotes(lines: Sequence[tuple[str, int]], beside: dict[int, tuple[int, ...]], blocks: dict[str, Block | str],
                *, derived: bool) -> tuple[str, list[int], list[str]]:
    """The quoted lines with their citations numbered by first use: ``(body, block numbers in that order, figures
    not found in the blocks their line cites)``. A line cites its block and the blocks it was completed from
    (``beside``, by line index: "- … within 2 working days. [1][2]"); a computed figure's lines (``derived``) carry
    Prism's own markers, a document's quoted sentence is defused (:func:`~prism.answering.extractive.quoted_line`)."""
    refs = [(n, *beside.get(i, ())) for i, (_, n) in enumerate(lines)]
    order = list(dict.fromkeys(n for line in refs for n in line))
    new = {old: i for i, old in enumerate(order, start=1)}
    unsupported = check_sentences([(s, tuple(map(str, r))) for (s, _), r in zip(lines, refs, strict=True)], blocks)
    body = "\n".join((f"- {s} [{new[n]}]" if derived else quoted_line(s, new[n])) + "".join(f"[{new[m]}]" for m in more)
                     for (s, _), (n, *more) in zip(lines, refs, strict=True))
    return body, order, unsupported


def cite_answer(run: AnswerRun, text: str) -> tuple[str, list[int], list[str]]:
    """``(text, order, unsupported)``: the answer ``text`` with its citations numbered by first use, the block
    numbers (retrieval ranks) in that order, and the figures not found in the blocks they cite. An extractive answer
    is cited by its structure (:attr:`AnswerRun.lines`): a bracketed number quoted from a document is never taken for
    a marker and is shown ``[ref 2]`` (a computed figure's lines carry Prism's own markers); an LLM's markers that
    point to no block are removed, with a note on ``run``."""
    blocks: dict[str, Block | str] = {str(i): b for i, b in enumerate(run.blocks, start=1)}
    blocks.update({f"W{w.n}": w.content for w in run.web})
    if run.lines is not None:
        body, order, unsupported = cite_quotes(run.lines, run.beside, blocks, derived=run.derived is not None)
        heading = text.split("\n", 1)[0] if run.lines else text
        return (f"{heading}\n\n{body}" if run.lines else text), order, unsupported
    check = validate_citations(text, len(run.chunks), len(run.web))
    if check.removed:
        run.note("citations_removed", "Removed citation marker(s) pointing to no source: "
                 + ", ".join(f"[{r}]" for r in check.removed) + ".")
    unsupported = unsupported_numbers(check.text, blocks)
    text, order = number_by_first_use(check.text)
    return text, order, unsupported
