"""Figures quoted from a table cell with their row, column and unit: "Net income, 2015: $122,641 thousand".

An analyst asks for a line item in a period ("What was Netflix's net income in 2015?"). When a retrieved chunk is
part of a table (its chunk row carries a :class:`~prism.types.ChunkTable`: row labels, cells, column headers, unit,
currency), the figure is read from the cell, not from a sentence:

1. :func:`match_row` scores each row label against the question's index tokens (:func:`prism.index.tokenizer.
   tokenize`, stemmed, stop words out): every word of the label must be in the question ("Property, plant and
   equipment, net" for "net property, plant, and equipment"), except one of a label of four words or more; a label
   of generic words only ("Total", "Other, net") matches nothing.
2. :func:`~prism.answering.derived.columns.column_periods` (:mod:`prism.answering.derived.columns`) names each
   column header as a fiscal period with the document's fiscal year end
   (:func:`prism.retrieval.periods.period_label`: "2015" → ``FY2015``; "August 29, 2021" → ``FY2021`` for Costco,
   whose year ends then; "Six Months Ended June 30, 2024" → ``H1 FY2024`` and "Three Months Ended June 30, 2024" →
   ``Q2 FY2024``: a 10-Q's columns keep their duration); :func:`~prism.answering.derived.columns.pick_columns` takes
   the columns of the periods the question names (a year no column names: the column dated in it), or, when it
   names none, the most recent column of the duration the question implies ("first half" → six months, "the
   quarter" → three; any when none). A table without a column for an asked period gives
   no quote.
3. :func:`format_quote` writes ``"<row label>, <column header>: <value with unit> (<table title>)"``; a value in
   accounting parentheses is written with a minus sign, so the number check (:mod:`prism.answering.figures`) reads
   it as the same negative figure. Every quote names its own column: a figure is never quoted bare.

:func:`quote_cells` runs the three steps over the rows of the retrieved table chunks and of the other chunks of
their tables (a statement is cut at row boundaries; the row asked for may sit in a chunk that was not retrieved) —
best row first: most label words matched, a table of the statement the question names, retrieval rank, the
retrieved chunk's own rows — and returns one :class:`CellQuote` per asked period; :func:`cell_lines` writes them as
extractive answer lines and names the chunks to add as sources. Pure functions: the chunk rows come in through
``rows_of`` (the workspace's ``read_chunks``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from itertools import groupby
from typing import Any

from prism.answering import acronyms
from prism.answering.derived.columns import column_periods, pick_columns, rows_name_years
from prism.answering.derived.numbers import cell_number
from prism.answering.units import PERCENT_LABEL, label_states_unit, per_unit_label, printed_label
from prism.index.statements import ITEMS, statement_kinds
from prism.index.tokenizer import tokenize
from prism.retrieval.periods import duration_hint, period_label
from prism.retrieval.understanding import Understanding
from prism.types import CellQuote, ChunkTable, PeriodMention, RetrievedChunk, TableRow
from prism.vocabulary.currencies import SYMBOL
from prism.vocabulary.number_formats import AMBIGUOUS_NOTE
from prism.vocabulary.units import SPOKEN, column_unit

logger = logging.getLogger(__name__)

__all__ = ["AMBIGUOUS_NOTE", "CellQuote", "cited_blocks", "format_quote", "format_row_quotes", "match_row",
           "quote_cells", "sibling_chunk", "table_parts"]

RowsOf = Callable[[str], Sequence[Mapping[str, Any]]]
"""``rows_of(doc_id)`` → the document's stored chunk rows (``chunk_id``, ``table`` …)."""



_GENERIC = frozenset(tokenize("total net other less add subtotal balance amount"))
"""Label words that name no line item on their own: a row labelled "Total" or "Other, net" matches no question."""


_ACRONYM_IN_BRACKETS = re.compile(r"\(\s*[A-Z][A-Z&.-]{1,9}\s*\)")
_BRACKET = re.compile(r"\([^()]*\)")


def _label_tokens(label: str) -> set[str]:
    """The label's required index tokens without numbers: all but a bracketed abbreviation ("Net profit (PAT)",
    "Earnings (EBITDA)": the question need not name it) or unit ("Assets under management (₹ crore)"), or all when
    the label is only that; empty for a label of
    generic words only (:data:`_GENERIC`). Other brackets stay required: "Other income (expense), net" must not
    answer "net income" ("other" is a stop word)."""
    label = _BRACKET.sub(lambda m: " " if label_states_unit(m.group()) else m.group(), label)  # "(₹ crore)"
    outside = {t for t in tokenize(_ACRONYM_IN_BRACKETS.sub(" ", label)) if not t.isdigit()}
    tokens = outside or {t for t in tokenize(label) if not t.isdigit()}
    return tokens if tokens - _GENERIC else set()


def item_label_tokens(question: str) -> set[str]:
    """The index tokens of the row labels of every line item ``question`` names (a phrase of its ``words`` in
    :data:`prism.index.statements.ITEMS`, the one line-item vocabulary): "research and development expense" →
    the tokens of "technology and development", "product development" …; empty when it names none."""
    text = question.lower()
    return {t for item in ITEMS.values() if any(re.search(rf"\b{w}\b", text) for w in item.words)
            for label in item.labels for t in tokenize(label) if not t.isdigit()}


def _names_generic(label: str, question: str) -> int:
    """The words of a generic label ("Total Other", "Other, net", "Other") the question names as written: the
    label's words as one phrase of the question, and for a one-word label written with its capital mid-sentence
    ("the change in Other in 2019"); 0 when it does not."""
    words = re.findall(r"[A-Za-z]+", label)
    if not words or not question:
        return 0
    if len(words) == 1:
        found = re.search(rf"(?<=\s){re.escape(words[0])}\b", question)
        return 1 if found and words[0][0].isupper() else 0
    pattern = r"\b" + r"\W+".join(map(re.escape, words)) + r"\b"
    return len(words) if re.search(pattern, question, re.IGNORECASE) else 0


def match_row(question_tokens: set[str], rows: Sequence[TableRow], question: str = "") -> tuple[TableRow, int] | None:
    """The row whose label the question names best, with the number of label tokens matched.

    A label matches when all its required tokens (:func:`_label_tokens`) are among ``question_tokens``, or all but
    one of a label of four tokens or more; a bracketed abbreviation the question names counts as matched too, and
    names the whole label ("NIM": "Net interest margin (NIM) %"); so do label words the question writes as an
    abbreviation or the label's abbreviation the question spells out ("PAT" names "Profit after tax"; "net
    interest income" names "NII"; :func:`prism.answering.acronyms.label_equivalents`). A
    label of generic words only ("Total Other") matches when ``question`` names it as written (:func:`_names_generic`),
    below every label matched by its tokens. A label matched whole comes before one missing a word ("Granted" before
    "Non-vested at December 31, 2019"), then the most tokens matched, the fewest missing, the first. Rows without
    cells never match. With no label matched, "the total X" reads the last row labelled "Total" or unlabelled.

    Returns:
        ``(row, matched)`` or ``None`` when no label matches.
    """
    best: tuple[int, int, int, int] | None = None
    found: TableRow | None = None
    for i, row in enumerate(rows):
        if not row.cells:
            continue
        tokens = _label_tokens(row.label)
        if not tokens:
            generic = _names_generic(row.label, question)
            key = (2, -generic, 0, i)
            if generic and (best is None or key < best):
                best, found = key, row
            continue
        bracketed = {t for t in tokenize(row.label) if not t.isdigit()} - tokens
        named = question_tokens | (acronyms.label_equivalents(row.label, question, question_tokens) & tokens)
        matched = len(tokens & named) + len(bracketed & question_tokens)
        missing = len(tokens - named)
        if bracketed and bracketed <= question_tokens:  # "NIM" names "Net interest margin (NIM) %" whole
            matched, missing = len(tokens) + len(bracketed), 0
        if missing > (1 if len(tokens) >= 4 else 0) or matched == 0:
            continue
        key = (int(missing > 0), -matched, missing, i)
        if best is None or key < best:
            best, found = key, row
    if found is None and re.search(r"\btotal\b", question, re.IGNORECASE):  # "the total X": the table's total row
        totals = [r for r in rows if r.cells and printed_label(r.label).lower() in ("", "total")]
        return (replace(totals[-1], label=totals[-1].label or "Total"), 1) if totals else None
    return (found, -best[1]) if found is not None and best is not None else None


def format_quote(quote: CellQuote) -> str:
    """``"Net income, 2015: $122,641 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS)"``.

    The value gets the currency symbol (``$``, ``₹``, ``€``, ``£``) and the unit in the singular ("thousand",
    "million", "crore"); a per-unit row ("Diluted earnings per share") gets the currency without the table's unit;
    a percentage or a table without a unit keeps the value as printed; "(1,837)" is written "-$1,837 thousand". The
    title is left out when the table has none.
    """
    title = f" ({quote.title})" if quote.title else ""
    return f"{printed_label(quote.label)}, {quote.column}: {_written(quote)}{_flag(quote)}{title}"


def _flag(quote: CellQuote) -> str:
    return f" {AMBIGUOUS_NOTE}" if quote.ambiguous else ""


def _written(quote: CellQuote) -> str:
    """The cell's value as :func:`format_quote` writes it ("-$1,837 thousand"): its sign (accounting parentheses
    are a minus), the table's currency and unit; a percentage row or column with its "%" ("3.62%"); a per-unit row or
    column, or no number, as printed; a column stating its own unit in brackets, with it ("612 crore transactions")."""
    value, number = quote.value.strip(), cell_number(quote.value.strip())
    percent = number is not None and not value.endswith("%") and bool(
        PERCENT_LABEL.search(f"{quote.label} {quote.column}"))
    if number is None or value.endswith("%") or percent or label_states_unit(quote.label):
        return value + ("%" if percent else "")
    if label_states_unit(quote.column):  # "Volume (crore transactions)": 612 crore transactions, never ₹612 crore
        own = re.search(r"\(([^()]*)\)\W*$", quote.column)
        return f"{value} {own.group(1).strip()}" if own else value
    digits = re.search(r"\d[\d,]*(?:\.\d+)?|\.\d+", value)
    printed_symbol = next((s for s in SYMBOL.values() if s and s in value), "")
    symbol = SYMBOL.get(quote.currency or "", "") or printed_symbol
    per_unit = per_unit_label(quote.label) or per_unit_label(quote.column)
    unit = f" {SPOKEN[quote.unit]}" if quote.unit in SPOKEN and not per_unit else ""
    return f"{'-' if number < 0 else ''}{symbol}{digits.group(0) if digits else value}{unit}"


def format_row_quotes(quotes: Sequence[CellQuote]) -> str:
    """Several columns of one row as one statement, in the order given: ``"Finished goods, December 30, 2018: $716
    thousand; December 29, 2019: $668 thousand (Inventories)"``; :func:`format_quote` for one.

    Raises:
        ValueError: ``quotes`` is empty.
    """
    if not quotes:
        raise ValueError("no quotes to format")
    if len(quotes) == 1:
        return format_quote(quotes[0])
    first = quotes[0]
    title = f" ({first.title})" if first.title else ""
    cells = "; ".join(f"{q.column}: {_written(q)}{_flag(q)}" for q in quotes)
    return f"{printed_label(first.label)}, {cells}{title}"


def _rows_by_id(doc_id: str, rows_of: RowsOf, cache: dict[str, dict[str, Mapping[str, Any]]]
               ) -> dict[str, Mapping[str, Any]]:
    """The document's stored chunk rows by ``chunk_id``, in chunk order (read once per document)."""
    if doc_id not in cache:
        rows = sorted(rows_of(doc_id), key=lambda r: r.get("chunk_index") or 0)
        cache[doc_id] = {str(r.get("chunk_id")): r for r in rows}
    return cache[doc_id]


def _table(row: Mapping[str, Any] | None) -> ChunkTable | None:
    """The chunk row's table, its cells read with the number convention stored at ingestion ("1.234,5" in a
    decimal-comma table is 1,234.5: :meth:`~prism.types.ChunkTable.with_decimal_point`)."""
    data = row.get("table") if row else None
    return ChunkTable.from_dict(data).with_decimal_point() if isinstance(data, dict) else None


def sibling_chunk(chunk: RetrievedChunk, row: Mapping[str, Any]) -> RetrievedChunk:
    """Another chunk of ``chunk``'s document (``row``: its stored row) as a retrieved chunk with no scores (it was
    not retrieved), citable beside ``chunk``: its ``read_beside`` is ``chunk``'s rank."""
    meta = {k: v for k, v in row.items() if k not in _ROW_ONLY and isinstance(v, str | int | float | bool)}
    return RetrievedChunk(str(row["chunk_id"]), chunk.doc_id, chunk.source, str(row["text"]),
                          int(row.get("chunk_index") or 0), row.get("page_start"), row.get("page_end"),
                          metadata=meta, read_beside=chunk.read_beside or chunk.rank or None)


_ROW_ONLY = frozenset({"chunk_id", "doc_id", "source", "text", "tokens", "tokenizer", "index_text", "chunk_index",
                       "page_start", "page_end", "table"})


def table_parts(chunk: RetrievedChunk, rows_of: RowsOf, cache: dict[str, dict[str, Mapping[str, Any]]]
                ) -> list[tuple[ChunkTable, RetrievedChunk | None]]:
    """The retrieved chunk's table part first (``None``: the chunk itself), then its table's other chunks on the
    same page (the rows a table chunk was cut from), each with the chunk that holds it; ``cache`` keeps each
    document's rows between calls."""
    table_id = chunk.metadata.get("table_id")
    if not table_id:
        return []
    rows = _rows_by_id(chunk.doc_id, rows_of, cache)
    own = _table(rows.get(chunk.chunk_id))
    out: list[tuple[ChunkTable, RetrievedChunk | None]] = [(own, None)] if own is not None else []
    for chunk_id, row in rows.items():
        other = _table(row) if chunk_id != chunk.chunk_id and row.get("table_id") == table_id else None
        if other is not None and row.get("page_start") == chunk.page_start:
            out.append((other, sibling_chunk(chunk, row)))
    return out


def _quotes(n: int, chunk: RetrievedChunk, table: ChunkTable, row: TableRow, periods: Sequence[Any],
            q_tokens: frozenset[str] | set[str] = frozenset(), months: int | None = None, every: bool = False,
            rows_name_years: bool = False) -> list[CellQuote]:
    """The row's cells under the asked columns (all asked periods the table has, else the most recent of the
    duration ``months`` the question implies; of several columns of one period, the one the question names
    best); with ``every``, of every column named as a period (of every column when none is). A table whose columns
    name no period answers a period its rows name (``rows_name_years``) from the column the question names by its
    words other than the row's ("the number of shares granted": "Shares")."""
    fye = chunk.metadata.get("fiscal_year_end") or None
    named = column_periods(table.column_headers, fye)
    wanted = [period_label(m, fye) for m in periods]
    if every:
        picked = [j for j, p in enumerate(named) if p is not None] or list(range(len(named)))
    elif not any(named) and (rows_name_years or not wanted):  # a roll-forward, or no period asked of none named
        words = set(q_tokens) - set(tokenize(row.label))
        picked = pick_columns([None] * len(named), [], table.column_headers, words, months, by_words=True) if wanted \
            else [j for j, h in enumerate(table.column_headers) if set(tokenize(h)) - set("0123456789") <= q_tokens]
        picked = picked if len(picked) == 1 else []  # without a period: a column the question names whole
    else:
        picked = pick_columns(named, wanted, table.column_headers, q_tokens, months)
    columns = [j for j in picked if j < len(row.cells) and cell_number(row.cells[j]) is not None]
    if not columns or (wanted and len(columns) < len(set(wanted) & set(named))):
        return []
    return [CellQuote(n, row.label, row.cells[j], table.column_headers[j], named[j],
                      table.unit or column_unit(table.column_headers[j]), table.currency, table.title,
                      ambiguous=table.ambiguous_numbers) for j in columns]


def _candidate(n: int, chunk: RetrievedChunk, parts: list[tuple[ChunkTable, RetrievedChunk | None]],
               q_tokens: set[str], periods: Sequence[Any], kinds: set[str], months: int | None = None,
               question: str = "", every: bool = False
               ) -> tuple[tuple[int, int, int, int, int], list[CellQuote]] | None:
    """The quotes one retrieved table chunk gives (from its own rows or its table's other chunks) with their sort
    key, smaller is better: most label tokens matched, the statement the question names, retrieval rank, the
    retrieved chunk's own rows before the others, then chunk order."""
    best: tuple[tuple[int, int, int, int, int], list[CellQuote]] | None = None
    years_in_rows = rows_name_years([t for t, _ in parts], periods)
    for k, (table, holder) in enumerate(parts):
        found = match_row(q_tokens, table.rows, question) if table.column_headers else None
        quotes = _quotes(n, chunk, table, found[0], periods, q_tokens, months, every, years_in_rows
                         ) if found is not None else []
        if not quotes or found is None:
            continue
        same_statement = 0 if kinds & statement_kinds(table.title or "") else 1
        key = (-found[1], same_statement if kinds else 0, n, min(k, 1), k)
        if best is None or key < best[0]:
            best = key, [replace(q, chunk=holder) for q in quotes]
    return best


def quote_cells(question: str | Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None, *,
                periods: Sequence[PeriodMention] | None = None, every_column: bool = False) -> list[CellQuote]:
    """The figures the question asks for, read from the best-matching table row of the retrieved chunks' tables.

    Args:
        question: the (standalone) question, or its :class:`~prism.retrieval.understanding.Understanding` (its periods
            are reused).
        chunks: the retrieved chunks, best first (chunk ``i`` is block ``i + 1``).
        rows_of: the workspace's ``read_chunks(doc_id)``; ``None`` gives no quotes.
        periods: the periods to quote instead of those the question names (an average balance also reads the year
            before the one asked).
        every_column: quote the chosen row's cell in every column named as a period, whatever the question names
            ("In which year was revenue highest?" compares them all).

    Returns:
        One :class:`CellQuote` per period asked that the chosen row has a column for (text order), or one for the
        most recent column when the question names no period; ``[]`` when no row matches (then the extractive
        answer quotes sentences). The rows searched are those of each retrieved table chunk and of the other
        chunks of its table (a statement is cut into several chunks; the row asked for need not be in the one
        retrieved: then the quote's ``chunk`` is the chunk that holds it). The row is chosen by most label tokens
        matched, then a table of the statement the question names
        (:func:`prism.index.statements.statement_kinds`), then retrieval rank, then the retrieved chunk's own rows.
        When no row matches the question's own words, the row labels of the line item it names are tried
        (:func:`item_label_tokens`: "research and development" reads Netflix's "Technology and development").
    """
    if rows_of is None or not chunks:
        return []
    understood = Understanding.of(question)
    q_tokens = set(tokenize(understood.text))
    periods = understood.periods if periods is None else periods
    months = duration_hint(understood.text)
    kinds = statement_kinds(understood.text)
    cache: dict[str, dict[str, Mapping[str, Any]]] = {}
    best: tuple[tuple[int, int, int, int, int], list[CellQuote]] | None = None
    synonyms = q_tokens | item_label_tokens(understood.text)
    for tokens in (q_tokens, synonyms) if synonyms != q_tokens else (q_tokens,):
        for n, chunk in enumerate(chunks, start=1):
            parts = table_parts(chunk, rows_of, cache)
            found = _candidate(n, chunk, parts, tokens, periods, kinds, months, understood.text,
                               every_column) if parts else None
            if found is not None and (best is None or found[0] < best[0]):
                best = found
        if best is not None:
            break
    if best is None:
        return []
    logger.info("cell answer: %d figure(s) from block %d", len(best[1]), best[1][0].n)
    return best[1]


def cited_blocks(quotes: Sequence[CellQuote], chunks: Sequence[RetrievedChunk]
                 ) -> tuple[list[int], list[RetrievedChunk]]:
    """The block number each quote cites and the chunks to append as sources: a quote from another chunk of a
    retrieved table (its ``chunk``) cites that chunk, appended as block ``len(chunks) + 1``, ``+ 2`` … (once)."""
    extra: list[RetrievedChunk] = []
    blocks: list[int] = []
    for q in quotes:
        n = q.n
        if q.chunk is not None:
            ids = [c.chunk_id for c in (*chunks, *extra)]
            if q.chunk.chunk_id not in ids:
                extra.append(q.chunk)
                ids.append(q.chunk.chunk_id)
            n = ids.index(q.chunk.chunk_id) + 1
        blocks.append(n)
    return blocks, extra


def cell_lines(question: str | Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None
               ) -> tuple[list[tuple[str, int]], list[RetrievedChunk]]:
    """:func:`quote_cells` as extractive answer lines ``[(format_row_quotes(quotes), n)]`` (the columns one chunk
    holds in one line, so the first line states every period asked) and the chunks to add to
    ``chunks`` so that every line cites the chunk holding its figure (:func:`cited_blocks`; ``([], [])`` without a
    quote)."""
    quotes = quote_cells(question, chunks, rows_of)
    blocks, extra = cited_blocks(quotes, chunks)
    lines: list[tuple[str, int]] = []
    for n, group in groupby(zip(quotes, blocks, strict=True), key=lambda qn: qn[1]):
        lines.append((format_row_quotes([q for q, _ in group]), n))
    return lines, extra
