"""What a table shows: the sentence of the document that introduces it.

"What does the table show?" has no figure to read and few words to retrieve by: the analyst asks about the table
they see beside the text. Reports introduce a table in the prose around it: "The following table sets forth, for
the periods indicated, certain data derived from our Consolidated Statements of Operations", "Aggregate emoluments
of the Directors of the Company were as follows:", "The table below shows the carrying amounts and estimated fair
values of our debt". :func:`caption_lines` answers with that sentence, cited, read from the prose chunks of the
documents the retrieved chunks come from (the sentence need not have been retrieved: the question shares no word
with it).

A sentence introduces a table when it names one ("the following table", "the table below", "sets forth", "are
shown in the table") or leads into one ("… were as follows:", a heading ending in a colon). The first sentence
that names a table wins, else the first that leads into one, in document order.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from prism.answering.programs.tables import RowsOf, sibling_chunk
from prism.index.sentences import split_sentences
from prism.types import RetrievedChunk

__all__ = ["caption_lines"]

_NAMES_TABLE = re.compile(
    r"\b(?:(?:following|below|above|accompanying|preceding)\s+(?:table|schedule|summary)|(?:table|schedule)\s+"
    r"(?:below|above)|sets?\s+forth|(?:is|are|was|were)\s+(?:shown|presented|summari[sz]ed|set\s+out|detailed|"
    r"listed|analy[sz]ed|disclosed)\s+(?:below|in\s+the\s+(?:following\s+)?table))\b",
    re.IGNORECASE)
_LEADS_IN = re.compile(r"(?:\bas\s+follows\b[^.]{0,10}|:)\s*$", re.IGNORECASE)


def _introduction(text: str) -> tuple[int, str] | None:
    """The best table introduction among ``text``'s sentences, read line by line (a paragraph that leads into a
    table ends its line): ``(rank, sentence)``, rank 0 for a sentence naming a table, 1 for one leading into it;
    ``None`` when there is none."""
    best: tuple[int, str] | None = None
    for sentence in (s for line in text.splitlines() for s in split_sentences(line)):
        rank = 0 if _NAMES_TABLE.search(sentence) else 1 if _LEADS_IN.search(sentence) else None
        if rank is not None and (best is None or rank < best[0]):
            best = (rank, sentence)
    return best


def caption_lines(chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None
                  ) -> tuple[list[tuple[str, int]], list[RetrievedChunk]]:
    """For a question asking what a table shows (the reader's intent ``table_subject``), the sentence introducing
    the table as one extractive answer line.

    Args:
        chunks: the retrieved chunks, best first (chunk ``i`` is block ``i + 1``).
        rows_of: the workspace's ``read_chunks(doc_id)``: every chunk row of a document, in reading order.

    Returns:
        ``([(sentence, n)], extra)``: the sentence and the block it cites; ``extra`` holds its chunk when it was
        not retrieved (cited as block ``len(chunks) + 1``). ``([], [])`` for another question, without
        ``rows_of`` or when no prose of the retrieved chunks' documents introduces a table.
    """
    if rows_of is None or not chunks:
        return [], []
    ids = [c.chunk_id for c in chunks]
    for doc_id in dict.fromkeys(c.doc_id for c in chunks):
        like = next(c for c in chunks if c.doc_id == doc_id)
        found: tuple[int, str, Mapping[str, Any]] | None = None
        for row in rows_of(doc_id):
            if row.get("table_id"):  # a table's own rows introduce nothing
                continue
            intro = _introduction(str(row.get("text") or ""))
            if intro is not None and (found is None or intro[0] < found[0]):
                found = (intro[0], intro[1], row)
        if found is None:
            continue
        _, sentence, row = found
        chunk_id = str(row.get("chunk_id"))
        if chunk_id in ids:
            return [(sentence, ids.index(chunk_id) + 1)], []
        return [(sentence, len(chunks) + 1)], [sibling_chunk(like, row)]
    return [], []
