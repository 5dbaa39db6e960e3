"""The one sentence splitter for regulatory and financial text: where a sentence may end, and where it may not.

Every place that cuts text at sentence ends uses it: extractive answers and briefings (:func:`split_sentences` on
document text), the number check (the sentences of an answer, :func:`prism.answering.citations.sentences_with_refs`),
the chunker (a chunk that cannot end at a line break prefers a sentence end) and contextual retrieval (an LLM
context cut to length). It lives beside the one tokenizer so that ingestion and answering share it.

A full stop does not end a sentence when it ends an abbreviation (:data:`ABBREVIATIONS`: ``Rs.``, ``No.``,
``Sec.``, ``Cr.``, ``Ltd.``, ``Co.``, ``Inc.``, ``Corp.``, ``Mr.``, ``Dr.``, ``vs.``, ``e.g.``, ``i.e.``,
``approx.``, ``viz.`` …), an initial (``P. Ramanathan``) or a clause number at the start of a line (``10.
Heading``); a decimal point (``₹2.52``) is never a boundary because a boundary needs white space after the stop.
So "a penalty of Rs. 5,000" stays one sentence, and a figure is never cut from its currency.
"""

from __future__ import annotations

import re

from prism.index import row_cells
from prism.vocabulary import legal

ABBREVIATIONS: frozenset[str] = frozenset(
    "rs no nos dr mr mrs ms st viz i.e e.g etc vs art sec secs para paras cl reg govt dept approx cf fig vol "
    "pp p incl ref sr jr bros u.s cr crs hon prof amt".split()
) | legal.ABBREVIATIONS
"""Words that a full stop abbreviates (lower case, without the final stop; ``i.e`` keeps its inner one); the legal
suffixes among them ("Ltd.", "Inc.") are :data:`prism.vocabulary.legal.ABBREVIATIONS`."""

# Candidate boundaries of document text: sentence punctuation followed by space, a numbered clause / bullet at a line
# start, a blank line, or a colon ending a line before one that starts a new sentence ("… were as follows:" / "Audit
# Fees consist of …": a paragraph that leads into a table or a list ends there).
_BOUNDARY = re.compile(
    r"(?P<stop>[.!?।][\"'”’)\]]*)\s+(?=[\"'“‘(\[]?[A-Z0-9₹])"
    r"|\n(?=[ \t]*(?:[A-Z]?\d+(?:\.\d+)*[.)]?[ \t]|[A-Z]\.\d|[•·▪\-*–][ \t]|\([a-z0-9]{1,4}\)[ \t]))"
    r"|\n[ \t]*\n"
    r"|(?P<colon>:)[ \t]*\n(?=[ \t]*[\"'“‘(\[]?[A-Z0-9₹])"
)
_MAX_SENTENCE_CHARS = 400
_ROW_LINE = re.compile(r"[^\n:;]{1,120}:\s[^\n]*(?:;\s|$)")
"""A table row as Prism renders it, ``"Name: value; Name: value"`` (:mod:`prism.ingestion.tables.csv`)."""


def _ends_in_figures(line: str) -> bool:
    """Whether a line ends in a table's cells, one of them a figure ("Tax payments ₹5,00,000 ₹5,00,000 9.3",
    "Meridian ATMs 5 5 Unlimited", "Small-value wallet ₹500 ₹4,000 (spends) 9.2"; :mod:`prism.index.row_cells`): a
    table's row, as a PDF's text gives it."""
    tokens = line.split()
    return any(row_cells.is_figure(tokens[c.figure]) for c in row_cells.trailing_cells(tokens)[1])


def _table_rows(piece: str) -> bool:
    """Whether a fragment spanning lines is a table's rows as a page's text prints them: two lines or more, and at
    least half its lines, end in a figure, and none is a row as Prism renders it (:data:`_ROW_LINE`: such a row
    names its columns, and a section's rows are read together under their heading row)."""
    lines = [line.strip() for line in piece.split("\n") if line.strip()]
    rows = sum(1 for line in lines if _ends_in_figures(line))
    return rows >= 2 and rows * 2 >= len(lines) and not any(_ROW_LINE.match(line) for line in lines)


def _lines_of(piece: str) -> list[str]:
    """A long fragment's lines, a line joined to the one before where it goes on in lower case (a wrapped line of a
    long sentence, "… for delay in crediting" / "pension arrears …"), unless either line is a rendered table row
    (:data:`_ROW_LINE`; a table whose label column has no name starts its rows with "column 1: …")."""
    lines: list[str] = []
    for line in piece.split("\n"):
        goes_on = line.lstrip()[:1].islower() and lines and not _ROW_LINE.match(line.strip()) \
            and not _ROW_LINE.match(lines[-1].strip())
        if goes_on:
            lines[-1] = f"{lines[-1]} {line}"
        else:
            lines.append(line)
    return lines


def is_abbreviation(text: str, stop_at: int) -> bool:
    """True when the full stop at ``text[stop_at]`` ends an abbreviation (:data:`ABBREVIATIONS`), an initial, or a
    clause number at the start of a line (``10. Heading``), i.e. when it does not end a sentence.

    Args:
        text: the whole text.
        stop_at: index of a ``"."`` in ``text``.
    """
    line = text[max(text.rfind("\n", 0, stop_at) + 1, stop_at - 40) : stop_at]
    if re.fullmatch(r"[ \t]*[A-Z]?\d+(?:\.\d+)*", line):
        return True
    m = re.search(r"([\w.]+)$", line)
    if not m:
        return False
    word = m.group(1).lower().rstrip(".")
    return word in ABBREVIATIONS or (len(word) == 1 and word.isalpha())


def split_sentences(text: str) -> list[str]:
    """Sentences of document ``text`` in order, inner line breaks joined with spaces.

    Fragments without 3 word characters in a row (page furniture, lone numbers) are dropped; a fragment that spans
    lines and is longer than 400 characters or a table's rows (:func:`_table_rows`: one row quoted, not the rows
    beside it) is split at its line breaks, except where the next line goes on in lower case (a long sentence of a
    circular, wrapped at the page's lines, stays whole).
    """
    pieces: list[str] = []
    start = 0
    for m in _BOUNDARY.finditer(text):
        if m.group("stop") and m.group("stop").startswith(".") and is_abbreviation(text, m.start("stop")):
            continue
        end = m.end("stop") if m.group("stop") else m.end("colon") if m.group("colon") else m.start()
        pieces.append(text[start:end])
        start = m.end()
    pieces.append(text[start:])
    sentences: list[str] = []
    for piece in pieces:
        long = len(piece) > _MAX_SENTENCE_CHARS
        parts = _lines_of(piece) if "\n" in piece and (long or _table_rows(piece)) else [piece]
        for part in parts:
            s = re.sub(r"\s+", " ", part).strip()
            if re.search(r"\w{3}", s):
                sentences.append(s)
    return sentences


def ends_sentence(text: str, stop_at: int) -> bool:
    """True when the punctuation at ``text[stop_at]`` (``.``, ``!``, ``?``, ``।``) may end a sentence: anything but
    a full stop that :func:`is_abbreviation` claims."""
    return text[stop_at] != "." or not is_abbreviation(text, stop_at)
