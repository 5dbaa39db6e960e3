"""The periods a question asks for and the figures in them: which column or sentence figure names a period the
question names (:func:`matches_period`), the distinct periods asked (:func:`asked_periods`) and a row's figures in
them (:func:`asked`). The operand shapes of :mod:`prism.answering.programs.binding` are built on these."""

from __future__ import annotations

from datetime import date

from prism.answering.programs.evidence import Row
from prism.answering.programs.operation import Operand
from prism.retrieval.periods import closes_prior_year, period_label
from prism.types import PeriodMention
from prism.types.reading import Reading

__all__ = ["asked", "asked_periods", "matches_period"]

def matches_period(mention: PeriodMention, operand: Operand) -> bool:
    """Whether ``operand``'s column or sentence names the period ``mention`` (its label with the document's fiscal
    year end, or for a year, a column dated in it)."""
    if operand.period is None:
        return False
    fye = operand.chunk.metadata.get("fiscal_year_end") if operand.chunk is not None else None
    if period_label(mention, fye or None) == operand.period:
        return True
    dated = _month_of(operand.period)
    if mention.kind == "date" and dated is not None and _month(mention) not in (None, dated):
        return False  # "June 30, 2019" does not name the column of December 31, 2019 (a day of that month may)
    if mention.kind in ("FY", "year", "date") and operand.when[1] == 0:
        return operand.when[0] == mention.year or (mention.kind != "date" and _closes_year(operand, mention.year))
    if mention.kind in ("Q", "H"):
        return operand.when == (mention.year, mention.part or 0)
    return False


def _month_of(iso: str | None) -> int | None:
    """The month of an ISO date ("2019-06-30": 6), or ``None`` for any other label (a year's, a quarter's)."""
    try:
        return date.fromisoformat(iso or "").month
    except ValueError:
        return None


def _closes_year(operand: Operand, year: int) -> bool:
    """Whether ``operand``'s column is dated in the first week of January of the year after ``year`` but its first
    day (a document with no fiscal year end profiled): the close of a 52/53-week fiscal year, which an analyst calls
    by either year ("fiscal 2019" and "2020" both name the year ended January 3, 2020), as
    :func:`prism.retrieval.periods.period_label` names it when the year end is known
    (:func:`prism.retrieval.periods.closes_prior_year`; 1 January is an opening balance of its own year)."""
    try:
        day = date.fromisoformat(operand.period or "")
    except ValueError:
        return False
    return day.year == year + 1 and closes_prior_year(day, first_day=2)


def asked_periods(reading: Reading) -> list[PeriodMention]:
    """The distinct periods the question names, in text order (a year named twice counts once; two dates of one year
    in different months are two periods: "at June 30 and December 31, 2019")."""
    out: dict[tuple[object, ...], PeriodMention] = {}
    months: dict[int, set[int]] = {}
    for p in reading.periods:
        if (m := _month(p)) is not None:
            months.setdefault(p.year, set()).add(m)
    for p in reading.periods:
        month = _month(p) if len(months.get(p.year, ())) > 1 else None
        out.setdefault((p.kind if p.kind in ("Q", "H") else "Y", p.year, p.part, month), p)
    return list(out.values())


def _month(mention: PeriodMention) -> int | None:
    """The month of a date mention ("2019-06-30": 6), or ``None``."""
    return _month_of(mention.date) if mention.kind == "date" else None


def _same_year(mention: PeriodMention, operand: Operand) -> bool:
    """A bare year asked of a column of a quarter or half of that year ("Q4 2018" for "2018": a table of quarters by
    year), when no column is the year's own. A fiscal year named as one ("FY2025", "fiscal 2025") asks the year's
    figure, which no quarter's column states."""
    return mention.kind == "year" and operand.when[0] == mention.year


def asked(reading: Reading, row: Row) -> list[Operand]:
    """The row's figures in the periods asked, in the question's order of periods (every column of a period: a
    two-level header has several); a year asked of quarter columns, the columns of that year; every figure of the
    row when the question names no period, or when no figure is of a period asked but the row's label names them
    all (a row "2020 – 2024")."""
    periods = asked_periods(reading)
    if not periods:
        return list(row.figures)
    out: list[Operand] = []
    for p in periods:
        hits = [f for f in row.figures if matches_period(p, f) and f not in out]
        hits = hits or [f for f in row.figures if _same_year(p, f) and f not in out]
        out.extend(hits)
    if not out and (all(str(p.year) in row.label for p in periods)
                    or all(f.period is None for f in row.figures)):
        return list(row.figures)  # the row names the periods, or no column names any (the title does)
    return out
