"""Where the table finders are combined: the tables of a page, and of a whole document, in page order.

Tables are found in each page's final stored text (:func:`page_tables`): tables of figures by
:func:`prism.ingestion.tables.stored_text.find_tables`, their column headers read from the PDF when the text gives
none (:class:`~prism.ingestion.tables.pdf_words.PdfTableHeaders`), numbered tables of text by
:mod:`prism.ingestion.tables.lists`, registers of words by :mod:`prism.ingestion.tables.words`; a table continued on
the next page keeps its headers, unit and title when its columns line up (:func:`continues_across_pages`), as one
continued below a heading on the same page does (:func:`continued_tables`). A loader's own tables (a CSV's rows,
``ParsedDocument.tables``) come first (:func:`document_tables`); a table whose cells do not settle its number
convention takes the document's (:func:`with_document_numbers`). Their offsets index the page's stored text, which
:func:`prism.ingestion.chunking.chunk_document` cuts between rows.
"""
from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import replace

from prism.ingestion.tables.headers import column_centres
from prism.ingestion.tables.lists import find_numbered_tables
from prism.ingestion.tables.pdf_words import PdfTableHeaders
from prism.ingestion.tables.stored_text import find_tables, find_tail_rows
from prism.ingestion.tables.words import find_word_tables, likely_register
from prism.types import Page, ParsedDocument, Table
from prism.vocabulary import number_formats

logger = logging.getLogger(__name__)

MIN_AGREEMENT = 0.9
"""A table of words replaces the tables of figures it overlaps when under this share of their cells are its cells."""



def page_tables(page_text: str, page: int | None, pdf: PdfTableHeaders | None = None,
                above: Table | None = None) -> list[Table]:
    """The tables of one page's stored text, in page order.

    Tables of figures (:func:`~prism.ingestion.tables.stored_text.find_tables`); where none has column headers and the
    page looks like a register, a table of words read from the ``pdf``
    (:func:`~prism.ingestion.tables.words.find_word_tables`) instead of those it overlaps, unless they read the same
    cells (:data:`MIN_AGREEMENT`); column headers from the ``pdf``'s word positions for the tables without
    (:class:`~prism.ingestion.tables.pdf_words.PdfTableHeaders`); and numbered tables of text
    (:func:`~prism.ingestion.tables.lists.find_numbered_tables`) that overlap none of them. A table that continues the
    one above it on the page (:func:`continued_tables`) takes its title, headers and unit first, and so does a table
    at the top of the page that continues ``above``, the last table of the page before, when their columns line up
    (:func:`continues_across_pages`); headers read from the PDF are kept only when they name columns, not values
    (:func:`plausible_headers`).
    """
    tables = find_tables(page_text, page)
    if above is not None and tables and continues_across_pages(above, tables[0], page_text, pdf):
        tables[0] = _carried(above, tables[0])
    tables = continued_tables(tables)
    if pdf is not None and likely_register(page_text) and not any(t.column_headers for t in tables):
        for word_table in find_word_tables(page_text, page, pdf.words(page), len(tables) + 1):
            rivals = [t for t in tables if _overlap(t, word_table)]
            if not rivals or _agreement(rivals, word_table) < MIN_AGREEMENT:
                tables = [t for t in tables if t not in rivals] + [word_table]
    if pdf is not None:
        tables = [t if t.column_headers else with_header_lines(
            replace(t, column_headers=plausible_headers(pdf(page, t), t)), page_text) for t in tables]
    for t in find_numbered_tables(page_text, page, len(tables) + 1):
        if not any(_overlap(t, o) for o in tables):
            tables.append(t)
    return sorted(tables, key=lambda t: t.char_start)


def _n_cols(table: Table) -> int:
    """The commonest number of values of the table's rows that hold two or more (0 when none does)."""
    counts = Counter(len(row.cells) for row in table.rows if len(row.cells) >= 2)
    return max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0] if counts else 0


def continued_tables(tables: list[Table]) -> list[Table]:
    """The tables of one page, each untitled, headerless table that continues the table above it (same number of
    columns) given that table's title, column headers, and unit and currency where it states none.

    A statement set on one page is often read as two tables: a balance sheet's liabilities follow a heading line
    ("LIABILITIES AND STOCKHOLDERS' EQUITY") below the assets, with no title, periods or unit of their own, so
    their rows ("Accounts payable $ 302,578 $ 255,028") would otherwise be chunked with no column and no unit.
    """
    out: list[Table] = []
    for table in tables:
        above = out[-1] if out else None
        if above is not None and table.title is None and _headerless_under(above, table):
            table = _carried(above, table)
        out.append(table)
    return out


def _headerless_under(above: Table, table: Table) -> bool:
    """``table`` has no column headers and as many columns as ``above`` has headers."""
    return not table.column_headers and bool(above.column_headers) and _n_cols(table) == len(above.column_headers)


def _carried(above: Table, table: Table) -> Table:
    """``table`` with ``above``'s title and column headers, and its unit and currency where it states none."""
    return replace(table, title=above.title, column_headers=above.column_headers, unit=table.unit or above.unit,
                   currency=table.currency or above.currency)


MAX_LINES_ABOVE = 3
"""Lines a continued table may have above it at the top of its page (a running head, a "(continued)" caption)."""
COLUMN_SHIFT = 0.25
"""How far (a share of the column pitch, at least 12 points) a continued table's columns may stand from the
columns of the table it continues."""


def continues_across_pages(above: Table, table: Table, page_text: str, pdf: PdfTableHeaders | None) -> bool:
    """Whether ``table``, the first table of its page, continues ``above``, the last table of the page before: it
    opens the page (at most :data:`MAX_LINES_ABOVE` short lines above it), has no column headers of its own and no
    other title (a "(continued)" repeat of the same statement heading is the same title), as many columns as
    ``above`` has headers, and, in a PDF, columns that stand where ``above``'s stand (each within
    :data:`COLUMN_SHIFT` of the pitch; when either table's columns cannot be placed, the count decides)."""
    if not _opens_page(table, page_text):
        return False
    if table.title not in (None, above.title) or not _headerless_under(above, table):
        return False
    if pdf is None or above.page is None or table.page is None:
        return True
    first, second = column_centres(above, pdf.words(above.page)), column_centres(table, pdf.words(table.page))
    if first is None or second is None:
        return True
    pitch = (first[-1] - first[0]) / (len(first) - 1) if len(first) > 1 else 0.0
    return all(abs(a - b) <= max(12.0, COLUMN_SHIFT * pitch) for a, b in zip(first, second, strict=True))


def with_header_lines(table: Table, page_text: str) -> Table:
    """``table`` starting at the lines right above it that print its column headers (at most
    :data:`MAX_LINES_ABOVE` + 2 lines, each with half its words or more in the headers: "Category Per transaction Per
    day Master" over "(aggregate) Circular para"), so they are chunked with the rows they head; unchanged without
    headers or such lines."""
    words = {w for h in table.column_headers for w in re.findall(r"\w+", h.casefold())}
    start = table.char_start
    for _ in range(MAX_LINES_ABOVE + 2):
        above = page_text.rfind("\n", 0, max(start - 1, 0))
        while above > 0 and not page_text[above:start].strip():  # blank lines between
            above = page_text.rfind("\n", 0, above)
        line = re.findall(r"\w+", page_text[above + 1:start].casefold())
        if not words or not line or sum(w in words for w in line) * 2 < len(line):
            break
        start = above + 1
    return replace(table, char_start=start) if start < table.char_start else table


def _opens_page(table: Table, page_text: str) -> bool:
    """Whether ``table`` opens its page: at most :data:`MAX_LINES_ABOVE` lines above it, none over 100 characters."""
    head = [line for line in page_text[:table.char_start].split("\n") if line.strip()]
    return len(head) <= MAX_LINES_ABOVE and all(len(line) <= 100 for line in head)


def _cut_head(page: Page, number: int, after: int, table: Table, page_text: str,
              pdf: PdfTableHeaders | None) -> tuple[Table | None, Table]:
    """``(head, table)``: the rows ending ``page`` that are the head of ``table`` (the first table of the next page,
    ``page_text``, which opens it with no title of its own), cut off by the page break and too few to be found as a
    table (:func:`~prism.ingestion.tables.stored_text.find_tail_rows`), numbered ``number`` on its page, below
    offset ``after``; with ``table``'s headers, or its own read from the ``pdf`` which ``table`` then takes when it
    has none. ``(None, table)`` when ``page`` does not end so."""
    n = _n_cols(table)
    if table.title is not None or n < 2 or not _opens_page(table, page_text):
        return None, table
    head = find_tail_rows(page.text, page.number, n, number, after)
    if head is None:
        return None, table
    headers = table.column_headers or (plausible_headers(pdf(page.number, head), head) if pdf is not None else ())
    head = with_header_lines(replace(head, column_headers=headers if len(headers) == n else (), unit=table.unit,
                                     currency=head.currency or table.currency), page.text)
    if not table.column_headers and head.column_headers:
        table = replace(table, column_headers=head.column_headers)
    return head, table


_VALUE = re.compile(r"\d{1,3}(?:,\d{3})+|\d+\.\d+")
_AMOUNT = re.compile(r"[$₹€£]\s*[\d—–-]")


def plausible_headers(headers: tuple[str, ...] | None, table: Table | None = None) -> tuple[str, ...]:
    """``headers`` when they read as column headers, else ``()``: headers that hold a figure ("3,944,463",
    "12.5", "$ 7", "$ —"), no letter or digit at all ("—") or one of ``table``'s own values ("9" over 9s) were
    stitched from the rows of a table above or of the table itself, not from a header."""
    values = {c for row in table.rows for c in row.cells} if table is not None else set()
    if not headers or any(_VALUE.search(h) or _AMOUNT.search(h) or not re.search(r"\w", h) or h in values
                          for h in headers):
        return ()
    return headers


def _overlap(a: Table, b: Table) -> bool:
    return a.char_start < b.char_end and b.char_start < a.char_end


def _agreement(figures: list[Table], words: Table) -> float:
    """Share of the figure tables' cells that are whole cells of the table of words: high when both read the same
    columns (the figures are kept), low when the figures are words' tails (``"FROM SEP. 18 446.87"``)."""
    spans = {s for row in words.rows for s in row.cell_spans}
    cells = [s for t in figures for row in t.rows for s in row.cell_spans]
    return sum(s in spans for s in cells) / len(cells) if cells else 0.0


def document_tables(doc: ParsedDocument, find: bool = True, pdf: PdfTableHeaders | None = None,
                    ) -> list[tuple[int, Table]]:
    """Every table of ``doc`` with the index of its page in ``doc.pages``, in document order.

    The loader's tables (a CSV's rows) when it gave any, else (with ``find``) :func:`page_tables` of each page's
    stored text. Tables whose page is not among ``doc.pages`` are left out.
    """
    if not find and not doc.tables:
        return []
    if doc.tables:
        index = {page.number: i for i, page in enumerate(doc.pages)}
        found = [(index[t.page], t) for t in doc.tables if t.page in index]
    else:
        found = []
        last: Table | None = None
        for i, page in enumerate(doc.pages):
            tables = page_tables(page.text, page.number, pdf, above=last)
            if i and tables and not (last is not None and tables[0].column_headers == last.column_headers):
                before = [t for j, t in found if j == i - 1]
                head, tables[0] = _cut_head(doc.pages[i - 1], len(before) + 1, max((t.char_end for t in before),
                                            default=0), tables[0], page.text, pdf)
                found += [(i - 1, head)] if head is not None else []
            found += [(i, t) for t in tables]
            last = tables[-1] if tables else None
        found = with_document_numbers(found)
    return sorted(found, key=lambda it: (it[0], it[1].char_start))


def with_document_numbers(found: list[tuple[int, Table]]) -> list[tuple[int, Table]]:
    """The tables with the document's number convention where their own cells do not settle theirs: the convention
    all the document's table cells imply (:func:`prism.vocabulary.number_formats.decide`), read once, so a German
    statement's table of "1.246" and "3.412" is read with the decimal comma its other tables show."""
    document = number_formats.decide(c for _, t in found for r in t.rows for c in r.cells)
    out = []
    for i, table in found:
        own = number_formats.decide((c for r in table.rows for c in r.cells), fallback=document)
        out.append((i, replace(table, decimal=own.decimal, ambiguous_numbers=own.ambiguous)))
    return out
