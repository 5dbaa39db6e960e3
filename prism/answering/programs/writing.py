"""A chosen program written as an answer an analyst can check: the heading states the result, one line quotes each
figure read (its row, column, unit and table, cited), the last line shows the work, cited.

A figure is quoted as its cell is printed, with the table's currency and unit and its sign (accounting parentheses
are a minus): ``"Other, 2019: $44.1 million (Sales by contract type)"``; a percentage, a count, a per-share figure
and a bare number keep their own unit — a header word ("12 Weeks Ended") is never a unit, and a row whose label states
its unit ("Volume (crore transactions)", "Value (₹ lakh crore)") has its figures written in it ("612 crore
transactions", "₹8.40 lakh crore": :func:`~prism.answering.units.label_unit`). Block numbers count the
retrieved chunks, then the chunks added because a figure sits in another chunk of a retrieved table.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from prism.answering.programs.numbers import cell_number
from prism.answering.programs.operation import Kind, Operand, Program, Result
from prism.answering.programs.registry import OPERATIONS
from prism.answering.units import PERCENT_LABEL, label_unit, per_unit_label, printed_label
from prism.types import Calculation, CalculationInput, Derived, Heading, RetrievedChunk
from prism.types.reading import Reading
from prism.vocabulary.currencies import SYMBOL
from prism.vocabulary.number_formats import AMBIGUOUS_NOTE, grouped, lakh_grouped, split_cell_note
from prism.vocabulary.units import SPOKEN

__all__ = ["COMPUTED_LABEL", "blocks_of", "cell_quote", "derived_text", "quote", "stated_range", "write"]

COMPUTED_LABEL = "Computed in code from the cited table cells (extractive, no LLM)"
"""The note of an answer whose figure a program computed offline."""


_PERCENT_WRITTEN = re.compile(r"%|\bper\s?cent\b|\bpercent\b", re.IGNORECASE)


def _figure(operand: Operand) -> str:
    """The figure as quoted: sign, currency, digits as printed, unit (module docstring); a cell's note in words after
    its figure stays after it ("₹4,000 (spends)")."""
    printed, note = split_cell_note(operand.printed.strip())
    figure = _bare_figure(operand, printed)
    return f"{figure} {note}" if note else figure


def _bare_figure(operand: Operand, printed: str) -> str:
    """:func:`_figure` of ``printed``, the figure without its note."""
    if operand.kind == "number" and operand.source == "cell" and (stated := label_unit(operand.label)):
        symbol, words = stated  # the row states its figures' unit ("Value (₹ lakh crore)": ₹8.40 lakh crore)
        return (printed if not symbol or symbol in printed else f"{symbol}{printed}") + (f" {words}" if words else "")
    if operand.kind in ("percent", "count", "per_unit", "number") or operand.source == "sentence":
        if operand.kind == "percent" and not _PERCENT_WRITTEN.search(printed):  # "20 per cent" says it already
            return f"{printed}%"
        if operand.kind == "per_unit" and operand.currency and SYMBOL.get(operand.currency, "") not in printed:
            digits = grouped(abs(operand.value), lakh=lakh_grouped(printed))
            return f"{'-' if operand.value < 0 else ''}{SYMBOL[operand.currency]}{digits}"
        return printed
    symbol = SYMBOL.get(operand.currency or "", "") or next((s for s in SYMBOL.values() if s in printed), "")
    unit = f" {SPOKEN[operand.unit]}" if operand.unit in SPOKEN else ""
    digits = "".join(ch for ch in printed if ch.isdigit() or ch in ",.").strip(",.") or printed
    return f"{'-' if operand.value < 0 else ''}{symbol}{digits}{unit}"


def cell_quote(label: str, column: str, printed: str, unit: str | None, currency: str | None,
               title: str | None = None) -> str:
    """A cell quoted as :func:`quote` quotes an amount: ``"Operating income, FY2015: $305,826 thousand (…)"``; a
    percentage as printed (a bare cell of a percentage row with its %); a per-unit figure ("… per share",
    "… per paying membership") in its currency without the table's scale."""
    value = cell_number(printed)
    if value is None or printed.strip().endswith("%"):
        figure = printed.strip()
    else:
        kind: Kind = "percent" if PERCENT_LABEL.search(label) else "per_unit" if per_unit_label(label) else "amount"
        figure = _figure(Operand(label, column, None, (0, 0), printed, value, unit, currency, kind, 0))
    return f"{printed_label(label)}, {column}: {figure}" + (f" ({title})" if title else "")


_NUMBER = r"[-+]?[₹$€£]?\s?\d(?:[\d,]*\d)?(?:\.\d+)?(?!\d)\s?%?"
_RANGE = re.compile(rf"(?P<low>{_NUMBER})\s*(?:to|–|—|-)\s*(?P<high>{_NUMBER})")
"""Two figures a sentence states as a range: "3.55% to 3.65%", "₹500–1,000", "12-14%"."""


def stated_range(operand: Operand) -> str | None:
    """The range a sentence states a figure as one end of ("our FY25 NIM guidance of 3.55% to 3.65%": "3.55% to
    3.65%"), as printed; ``None`` for a figure stated alone, a cell, or two figures of different units (one has a
    % sign, the other none, unless the sign closes the range: "12-14%"), years ("2024-25") and a movement ("from
    612 to 787")."""
    if operand.source != "sentence":
        return None
    printed = operand.printed.strip().rstrip("%").strip()
    for m in _RANGE.finditer(operand.label):
        low, high = m.group("low").strip(), m.group("high").strip()
        if printed not in (low.rstrip("%").strip(), high.rstrip("%").strip()):
            continue
        if low.endswith("%") != high.endswith("%") and not high.endswith("%"):
            continue
        if _year(low) or _year(high) or operand.label[:m.start()].rstrip().lower().endswith("from"):
            continue  # "2018-2019", "2024-25": years; "rose from 612 to 787": a movement, not a range
        return f"{low} to {high}"
    return None


def _year(text: str) -> bool:
    digits = text.strip("%₹$€£ +-")
    return len(digits) == 4 and digits.isdigit() and digits[:2] in ("19", "20")


def quote(operand: Operand) -> str:
    """``"<label>, <column>: <figure> (<title>)"`` for a cell; ``"<figure>: <sentence>"`` for a sentence's figure
    (the figure first: the sentence may state several)."""
    if operand.source == "sentence":
        return f"{stated_range(operand) or _figure(operand)}: {operand.label}"
    title = f" ({operand.title})" if operand.title else ""
    column = f", {operand.column}" if operand.column else ""
    flag = f" {AMBIGUOUS_NOTE}" if operand.ambiguous else ""
    return f"{operand.label}{column}: {_figure(operand)}{flag}{title}"


def blocks_of(operands: Sequence[Operand], chunks: Sequence[RetrievedChunk]) -> tuple[list[int], list[RetrievedChunk]]:
    """The block number each operand cites and the chunks to append as sources (another chunk of a retrieved table,
    appended once, as block ``len(chunks) + 1`` …)."""
    extra: list[RetrievedChunk] = []
    ids = [c.chunk_id for c in chunks]
    out = []
    for o in operands:
        if o.chunk is None:
            out.append(o.block)
            continue
        if o.chunk.chunk_id not in ids:
            extra.append(o.chunk)
            ids.append(o.chunk.chunk_id)
        out.append(ids.index(o.chunk.chunk_id) + 1)
    return out, extra


def _heading(program: Program, result: Result, subject: str) -> Heading:
    """The first line: what the result is and the result (a yes/no answer leads with Yes or No)."""
    if result.kind == "yes_no":
        aside = result.aside.strip()
        reason = aside[1:-1] if aside.startswith("(") and aside.endswith(")") else aside  # its own brackets only
        return Heading(subject[:1].upper() + subject[1:], reason, lead=result.text)
    return Heading(subject[:1].upper() + subject[1:], result.text, result.aside)


def _kind(result: Result) -> str:
    """The result kind the number check reads (:attr:`Derived.kind`)."""
    return {"percent": "percent", "points": "bps", "bps": "bps", "ratio": "ratio"}.get(result.kind, "amount")


def write(program: Program, result: Result, chunks: Sequence[RetrievedChunk], reading: Reading,
          understood: str = "", *, renumber: bool = True) -> Derived:
    """The :class:`~prism.types.Derived` answer of ``program`` (module docstring): heading, one line per row of
    figures read (the columns of one row in one line), the work line citing every block used, the calculation.

    Args:
        program: the chosen program; result: its result.
        chunks: the retrieved chunks (block ``n`` = position + 1).
        reading: the question as read (for the calculation's periods).
        understood: the line saying what was understood and the runner-up, when not clearly ahead.
        renumber: the work line's markers and the inputs' citations count the blocks by first use, as the extractive
            answer numbers its citations; ``False`` keeps block numbers (an LLM's context).
    """
    op = OPERATIONS[program.operation]
    operands = program.operands
    blocks, extra = blocks_of(operands, chunks)
    subject = op.subject(program)
    lines: list[tuple[str, int]] = []
    shown_rows: dict[tuple[str, int], int] = {}
    for o, n in zip(operands, blocks, strict=True):
        if o.source == "cell" and o.series in shown_rows and len(operands) <= 6:
            i = shown_rows[o.series]
            text, block = lines[i]
            lines[i] = (text.replace(f" ({o.title})", "") + f"; {o.column}: {_figure(o)}" +
                        (f" ({o.title})" if o.title else ""), block)
            continue
        if len(lines) >= 12:
            continue
        shown_rows[o.series] = len(lines)
        lines.append((quote(o), n))
    order = list(dict.fromkeys(blocks))
    number = (lambda n: order.index(n) + 1) if renumber else (lambda n: n)  # noqa: E731
    marks = " ".join(f"[{number(n)}]" for n in order[:-1])
    if result.work:
        lines.append((f"{op.work_subject(program)} = {result.work} {marks}".rstrip(), order[-1]))
    inputs = tuple(CalculationInput(o.label, o.label, o.period or o.column, o.printed, o.unit, o.currency, number(n))
                   for o, n in zip(operands, blocks, strict=True))
    periods = tuple(dict.fromkeys(o.period or o.column for o in operands if o.period or o.column))
    value = float(result.shown) if result.shown is not None else None
    calc = Calculation(subject, op.formula, "the question", periods, inputs, result.text if result.value is not None
                       or result.kind in ("period", "label", "yes_no") else None, value)
    per_period = tuple(o.value for o in operands)
    raw: Decimal | None = result.value
    if result.kind in ("period", "label", "yes_no"):
        raw = None
    return Derived(_heading(program, result, subject), lines, extra, calc, per_period, raw, _kind(result),
                   result.percents, understood)


def derived_text(derived: Derived) -> str:
    """The answer text: the heading, the line saying what was understood when there is one, then one ``- line [n]``
    per line (block numbers, renumbered by the engine)."""
    head = derived.heading.text + (f"\n{derived.understood}" if derived.understood else "")
    body = "\n".join(f"- {text} [{n}]" for text, n in derived.lines)
    return f"{head}\n\n{body}" if body else head
