"""The operands a program may read: every figure of the retrieved tables and sentences, with its label, period, unit
and citation.

:func:`gather` reads the retrieved chunks once per question:

* **table cells** — the rows of each retrieved table chunk and of the other chunks its table was cut into on the same
  page (:func:`prism.answering.derived.cells.table_parts`), each value cell an :class:`~.operation.Operand` with the
  row's label, the column's header and fiscal period (:func:`prism.answering.programs.columns.column_periods`, with
  the document's fiscal year end; a roll-forward whose columns name no period takes the period its row label names),
  the table's unit and currency (a column's own unit note, "2019 $’000", when the table states none), the section
  heading above the row and whether the row is a total;
* **figures in sentences** — each number of a prose sentence with a currency, a scale word or a percent sign ("the
  Company recognized $0.3 million, $0.9 million and $0.6 million, respectively"), with the period its sentence
  names: the one period it names, or the periods in order when it lists them "respectively" — as many figures as
  periods, or several lists of that many ("sales were $318,928, $296,316 and $18,951, respectively, and operating
  profit was $17,076, $18,177 and $3,300, respectively" over "fiscal 2017, 2018 and 2019": each list in turn); a
  sentence naming no period, of a document about one quarter (an earnings call, its ``period`` profile), is of
  that quarter ("Gross NPA was 3.4% in credit cards" in the Q2 FY2025 call), its column (the words naming its
  period) left empty.

Years, dates, clause numbers and footnote markers are not figures. Nothing here reads the question.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from prism.answering.programs.columns import column_periods
from prism.answering.programs.numbers import cell_number
from prism.answering.programs.operation import Evidence, Kind, Operand, Row
from prism.answering.programs.tables import RowsOf, table_parts
from prism.answering.units import (
    PERCENT_LABEL,
    label_states_unit,
    per_unit_label,
    printed_label,
    unit_parenthesis,
    without_parentheses,
)
from prism.index.sentences import split_sentences
from prism.index.tokenizer import tokenize
from prism.retrieval.periods import find_periods, period_label
from prism.types import ChunkTable, PeriodMention, RetrievedChunk
from prism.vocabulary import currencies
from prism.vocabulary.units import CANONICAL, FIGURE_WORD_RE, column_unit

__all__ = ["Evidence", "Row", "gather", "naming_tokens", "period_only", "when_of"]

_TOTAL = re.compile(r"^\s*(?:total|sub-?total|net\s+total|grand\s+total)\b|\btotal\s*$", re.IGNORECASE)
_COUNT_LABEL = re.compile(r"\bnumber\s+of\b|\(\s*(?:number|nos?\.?|count)\s*\)|\bheadcount\b", re.IGNORECASE)
_YEAR = re.compile(r"(?:19|20)\d{2}")
_PART = re.compile(r"\b(?:Q|H)([1-4])\b")
_PROSE_NUMBER = re.compile(
    rf"(?P<neg>[-−–]\s?|\()?(?P<cur>US\$|Rs\.?\s?|INR\s?|[$€£¥₹])?\s?(?P<num>\d(?:[\d,]*\d)?(?:\.\d+)?)(?P<close>\))?"
    rf"(?:\s?(?P<pct>%|per\s?cent\b|percent\b)|\s(?P<scale>{FIGURE_WORD_RE})\b)?",
    re.IGNORECASE)
_NOT_A_FIGURE_BEFORE = re.compile(r"(?:note|notes|section|item|clause|para(?:graph)?|rule|page|table|chapter|"
                                  r"annexure|schedule|exhibit|no\.?|part|level)\s*$", re.IGNORECASE)
_REFERENCE_COLUMN = re.compile(r"\b(?:note|notes|section|clause|para(?:graph)?|rule|page|schedule|ref(?:erence)?)"
                               r"s?\s*(?:no\.?|number)?\s*$", re.IGNORECASE)
"""A column of references, not figures ("Master Circular para", "Note", "Page No."): "9.1" there is a paragraph."""


def when_of(text: str, period: str | None) -> tuple[int, int]:
    """``(year, part)`` of a column header or period label, for ordering in time; ``(0, 0)`` when it names no year
    or several without naming one period ("Change 2019 vs 2018" is no time)."""
    years = _YEAR.findall(period or "") or _YEAR.findall(text)
    if not years or (period is None and len(set(years)) > 1):
        return (0, 0)
    part = _PART.search(period or "") or _PART.search(text)
    return (int(years[-1]), int(part.group(1)) if part else 0)


_CENTS = re.compile(r"\.\d{2}\)?$")
"""A figure printed to the cent ("$0.34", "(1.20)"), as per-share figures are."""


def _kind(label: str, column: str, printed: str, unit: str | None, currency: str | None, heading: str = "") -> Kind:
    """A figure's kind from its row label, column header, the section heading over its row and how it is printed:
    a row under a per-share heading is per share when printed to the cent ("Basic $0.34" under "Earnings per
    share:"), not the numerator beside it ("Net income 122,641" under "Basic earnings per share:")."""
    if printed.rstrip().endswith("%") or PERCENT_LABEL.search(label) or PERCENT_LABEL.search(column):
        return "percent"
    if _COUNT_LABEL.search(label):
        return "count"
    if label_states_unit(label) or label_states_unit(column):
        return "number"  # its own unit, written in the label ("(cents)", "(number)", "(₹ lakh crore)")
    if per_unit_label(label) or per_unit_label(column) or (per_unit_label(heading) and _CENTS.search(printed.strip())):
        return "per_unit"
    if currency or unit or any(s in printed for s in currencies.SYMBOL.values()):
        return "amount"
    return "number"


_PERIOD_FRAME = frozenset("year years quarter quarters half month months weeks six three nine twelve fiscal ended "
                          "ending as at of end the".split())
"""Words a row label may write around the one period it names and still name only that period ("Year ended March
31, 2025", "As at 31 March 2024"); "Balance at December 31, 2019" names a measure at a date."""


def _one_period(label: str) -> PeriodMention | None:
    """The one period a row label names, a parenthesis restating it left aside ("Q4 FY25 (Jan–Mar 2025)": the
    quarter's months); ``None`` when it names none or several."""
    found = find_periods(label)
    if len(found) > 1:
        found = find_periods(without_parentheses(label))
    return found[0] if len(found) == 1 else None


def period_only(label: str) -> bool:
    """Whether a row label names one period and nothing else ("FY2025", "Q4 FY25 (Jan–Mar 2025)", "Year ended March
    31, 2025", "2019"), as the rows of a table of periods down and measures across are labelled."""
    found = _one_period(label)
    if found is None:
        return False
    rest = without_parentheses(label).replace(found.text, " ").lower()
    return all(word in _PERIOD_FRAME for word in re.findall(r"[a-z]+", rest))


def _row_period(label: str, fye: str | None) -> tuple[str | None, tuple[int, int]]:
    """The period a row label names on its own ("Non-vested at December 31, 2019"), for a table whose columns name
    none (:func:`_one_period`)."""
    found = _one_period(label)
    if found is None:
        return None, (0, 0)
    period = period_label(found, fye)
    return period, when_of(found.text, period)


@lru_cache(maxsize=4096)
def _row_quarter(label: str, year: int, fye: str | None) -> tuple[str, tuple[int, int]] | None:
    """The quarter or half of ``year`` a row label names without a year ("First Quarter", "Q4", "Second half") in a
    column of that year: a table of quarters by year (a stock's high and low prices per quarter, quarterly results)
    dates its cells by both, "First Quarter" under "2018" is Q1 of fiscal 2018. ``None`` for any other label."""
    if not label or find_periods(label):
        return None
    found = find_periods(f"{label} {year}")
    if len(found) != 1 or found[0].kind not in ("Q", "H") or found[0].year != year:
        return None
    period = period_label(found[0], fye)
    return period, (year, found[0].part or 0)


def _table_rows(n: int, chunk: RetrievedChunk, parts: list[tuple[ChunkTable, RetrievedChunk | None]],
                seen: set[tuple[str, str]]) -> tuple[list[Row], list[tuple[str, Row | None]]]:
    """The rows of one retrieved table chunk's table (its own part first, then the others on the page)."""
    fye = chunk.metadata.get("fiscal_year_end") or None
    key = f"{chunk.doc_id}/{chunk.metadata.get('table_id')}"
    rows: list[Row] = []
    ordered: list[tuple[int, int, str, Row | None]] = []
    for table, holder in parts:
        part_id = (key, (holder or chunk).chunk_id)
        if part_id in seen:
            continue
        seen.add(part_id)
        periods = column_periods(table.column_headers, fye)
        context = frozenset(tokenize(" ".join([table.title or "", *table.column_headers])))
        heading = ""
        chunk_index = (holder or chunk).chunk_index
        for i, trow in enumerate(table.rows):
            label = printed_label(trow.label)
            if not any(c.strip() for c in trow.cells):
                heading = label
                ordered.append((chunk_index, i, label, None))
                continue
            row_id = chunk_index * 1000 + i
            figures = []
            for j, cell in enumerate(trow.cells):
                value = cell_number(cell)
                if value is None or j >= len(table.column_headers) and table.column_headers:
                    continue
                column = table.column_headers[j] if j < len(table.column_headers) else ""
                if _REFERENCE_COLUMN.search(column):
                    continue
                period = periods[j] if j < len(periods) else None
                when = when_of(column, period)
                if period is None and not any(periods):
                    period, when = _row_period(label, fye)
                elif when[0] and not when[1]:
                    period, when = _row_quarter(label, when[0], fye) or (period, when)
                unit = table.unit or column_unit(column)
                figures.append(Operand(
                    label or "Total", column, period, when, cell.strip(), value, unit, table.currency,
                    _kind(label, column, cell, unit, table.currency, heading), n, "cell", key, row_id, j,
                    not label or bool(_TOTAL.search(label)), heading, table.title or "", n, holder,
                    table.ambiguous_numbers))
            if figures:
                row = Row((key, row_id), label or "Total", naming_tokens(label), tuple(figures), heading,
                          table.title or "", figures[0].total, frozenset(context | set(tokenize(heading))))
                rows.append(row)
                ordered.append((chunk_index, i, label, row))
    ordered.sort(key=lambda t: (t[0], t[1]))
    dated = _roll_forward(rows)
    return dated, [(label, dated[rows.index(row)] if row is not None else None) for _, _, label, row in ordered]


def _roll_forward(rows: list[Row]) -> list[Row]:
    """``rows`` with the movements of a roll-forward dated: in a table whose columns name no period, a row between
    an opening balance dated by its label ("Non-vested at December 31, 2018") and the closing one ("… at December
    31, 2019") — "Granted", "Forfeited" — moves the balance during the closing row's period and takes it."""
    out = list(rows)
    for i, row in enumerate(rows):
        if not row.figures or row.figures[0].period is not None or any(f.when != (0, 0) for f in row.figures):
            continue
        before = [r for r in rows[:i] if r.figures and r.figures[0].period is not None]
        after = [r for r in rows[i + 1:] if r.figures and r.figures[0].period is not None]
        if not before or not after or before[-1].figures[0].table != row.figures[0].table \
                or after[0].figures[0].table != row.figures[0].table:
            continue
        closing = after[0].figures[0]
        if before[-1].figures[0].when >= closing.when or not (find_periods(before[-1].label)
                                                               and find_periods(after[0].label)):
            continue  # dated by their labels, the opening balance before the closing one
        out[i] = replace(row, figures=tuple(replace(f, period=closing.period, when=closing.when)
                                            for f in row.figures))
    return out


def naming_tokens(label: str) -> frozenset[str]:
    """The index tokens that name a row's line item: its label's, less a closing parenthesis that opens with the
    row's unit ("Volume (crore transactions)" is named by "volume"; "Net income (loss)" keeps "loss" and "Preferred
    stock (as-converted basis)" its basis: no unit opens them)."""
    m = unit_parenthesis(label)
    if m is not None:
        label = label[:m.start()]
    return frozenset(tokenize(label))


TRANSPOSED = 10_000_000
"""Row numbers from here on are a table's columns read as rows (:func:`_transposed`): column ``c`` is row
``TRANSPOSED + c``."""


def transposed(row: Row) -> bool:
    """Whether ``row`` is a table's column read as a row (:func:`_transposed`)."""
    return row.key[1] >= TRANSPOSED


def _transposed(rows: list[Row]) -> list[Row]:
    """A table whose rows are periods ("2020", "2021", … with columns "Operating leases", "Finance leases") read the
    other way too: one row per column, its figures down the column, each with its row's period."""
    dated = [r for r in rows if r.figures and r.figures[0].period is not None and r.figures[0].column
             and all(f.period == r.figures[0].period for f in r.figures) and find_periods(r.label)]
    if len(dated) < 2 or all(len(r.figures) < 2 for r in dated):
        return []
    columns: dict[int, list[Operand]] = {}
    for row in dated:
        for f in row.figures:
            columns.setdefault(f.col, []).append(replace(f, label=f.column, column=row.label,
                                                         row=TRANSPOSED + f.col, total=False))
    return [Row((figs[0].table, figs[0].row), figs[0].label, naming_tokens(figs[0].label), tuple(figs),
                title=figs[0].title, context=dated[0].context)
            for figs in columns.values() if len(figs) >= 2]


def _prose_figures(n: int, chunk: RetrievedChunk, k: int, sentence: str) -> list[Operand]:
    """The figures of one sentence with the periods it names (see the module docstring)."""
    fye = chunk.metadata.get("fiscal_year_end") or None
    periods = [p for p in find_periods(sentence) if p.kind in ("FY", "year", "date", "Q", "H")]
    found: list[tuple[re.Match[str], Decimal]] = []
    for m in _PROSE_NUMBER.finditer(sentence):
        if not (m.group("cur") or m.group("pct") or m.group("scale")):
            continue
        if _YEAR.fullmatch(m.group("num")) and not (m.group("cur") or m.group("scale")):
            continue
        if _NOT_A_FIGURE_BEFORE.search(sentence[:m.start()]):
            continue
        try:
            value = Decimal(m.group("num").replace(",", ""))
        except InvalidOperation:
            continue
        negative = bool(m.group("neg")) and (not m.group("neg").startswith("(") or bool(m.group("close")))
        found.append((m, -value if negative else value))
    if not found:
        return []
    respectively = "respectively" in sentence.lower() and len(periods) > 1 and len(found) % len(periods) == 0
    document_period = str(chunk.metadata.get("period") or "")
    quarter = document_period if not periods and document_period.startswith("Q") else None
    out = []
    for i, (m, value) in enumerate(found):
        mention = periods[i % len(periods)] if respectively else periods[0] if len(periods) == 1 else None
        period = period_label(mention, fye) if mention is not None else quarter
        scale = (m.group("scale") or "").lower()
        unit = CANONICAL.get(scale) or CANONICAL.get(scale.rstrip("s"))
        currency = currencies.code_of(m.group("cur") or "") if m.group("cur") else None
        kind: Kind = "percent" if m.group("pct") else "amount" if (currency or unit) else "number"
        out.append(Operand(sentence, mention.text if mention else "", period,
                           when_of(mention.text if mention else "", period), m.group(0).strip(), value, unit,
                           currency, kind, n, "sentence", f"{chunk.chunk_id}#{k}", -1, i, False, "", "", n))
    return out


def gather(chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None, *, prose: bool = True) -> Evidence:
    """Every figure the retrieved chunks give (module docstring).

    Args:
        chunks: the retrieved chunks, best first (block ``n`` = position + 1).
        rows_of: the workspace's ``read_chunks(doc_id)`` (the table rows of the chunks' other parts), or ``None``.
        prose: also read figures stated in sentences.

    Returns:
        The :class:`Evidence`; empty when no chunk holds a figure.
    """
    evidence = Evidence(chunks=chunks)
    cache: dict[str, dict[str, Mapping[str, Any]]] = {}
    seen: set[tuple[str, str]] = set()
    sentence_rows: list[Row] = []
    for n, chunk in enumerate(chunks, start=1):
        if chunk.metadata.get("table_id") and rows_of is not None:
            rows, ordered = _table_rows(n, chunk, table_parts(chunk, rows_of, cache), seen)
            evidence.rows.extend(rows + _transposed(rows))
            key = f"{chunk.doc_id}/{chunk.metadata.get('table_id')}"
            evidence.tables.setdefault(key, []).extend(ordered)
            continue
        if not prose:
            continue
        for k, sentence in enumerate(split_sentences(chunk.text)):
            figures = _prose_figures(n, chunk, k, sentence)
            if figures:
                sentence_rows.append(Row((f"{chunk.chunk_id}#{k}", -1), sentence, frozenset(tokenize(sentence)),
                                         tuple(figures)))
    evidence.rows.extend(sentence_rows)
    return evidence
