"""Table columns named as fiscal periods, and the columns a question asks for.

:func:`column_periods` names each column header as a fiscal period with the document's fiscal year end
(:func:`prism.retrieval.periods.period_label`: "2015" → ``FY2015``; "Six Months Ended June 30, 2024" → ``H1 FY2024``,
"Three Months Ended June 30, 2024" → ``Q2 FY2024``: a 10-Q's columns keep their duration). :func:`pick_columns` takes
the columns of the periods a question names (a fiscal year no column names reads the column dated in it), or, when it
names none, the most recent column of the duration the question implies. Used by the table-cell reader
(:mod:`prism.answering.derived.cells`) and the derived-figure inputs (:mod:`prism.answering.derived.inputs`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from datetime import date

from prism.index.tokenizer import tokenize
from prism.retrieval.periods import YEAR_TO_DATE, find_periods, period_label
from prism.types import ChunkTable, PeriodMention

__all__ = ["column_periods", "header_tokens", "label_months", "pick_columns"]


def column_periods(headers: Sequence[str], fiscal_year_end: str | None) -> list[str | None]:
    """Each column header named as a fiscal period (``"FY2015"``, ``"Q2 FY2022"``) with the document's fiscal year
    end, or ``None`` for a header that names no period or several ("Streaming", "2015 2014").

    Bare years follow :func:`prism.retrieval.periods.period_label`, except in a table whose latest bare year is the
    calendar year of the document's own fiscal year end: then the years are the years the fiscal years end in (a
    statement's latest column is its document's own year). Walmart's FY2020 10-K ("Fiscal Years Ended January 31,"
    2020, 2019, 2018) names FY2020, FY2019, FY2018; a January year end whose columns are named by the year they
    start in ("2019" for the year ended 31 January 2020) keeps ``period_label``'s FY2020.
    """
    mentions = [find_periods(header) for header in headers]
    years = [m[0].year for m in mentions if len(m) == 1 and m[0].kind == "year"]
    end_named = bool(fiscal_year_end and years and max(years) == date.fromisoformat(fiscal_year_end).year)
    out: list[str | None] = []
    for found in mentions:
        labels = {f"FY{m.year}" if end_named and m.kind == "year" else period_label(m, fiscal_year_end)
                  for m in found}
        out.append(labels.pop() if len(labels) == 1 else None)
    return out


_LABEL_RE = re.compile(r"(?:(Q|H)(\d) |(9M) )?FY(\d{4})")
_DURATION_LABEL_RE = re.compile(r"(\d{1,2})M (\d{4}-\d\d-\d\d)")


def _recency(period: str) -> tuple[int, int]:
    """Sort key of a period label: later is larger (a fiscal year sorts after its quarters; a half or nine months
    sorts with the quarter it ends in)."""
    m = _LABEL_RE.fullmatch(period)
    if m:
        part = 3 if m.group(3) else int(m.group(2)) * (2 if m.group(1) == "H" else 1) if m.group(1) else 5
        return int(m.group(4)), part
    d = _DURATION_LABEL_RE.fullmatch(period)
    day = date.fromisoformat(d.group(2) if d else period)
    return day.year, (day.month - 1) // 3 + 1


def label_months(period: str) -> int | None:
    """The months a period label spans: ``Q2 FY2024`` 3, ``H1 FY2024`` 6, ``9M FY2024`` 9, ``FY2024`` 12,
    ``"6M 2024-05-15"`` 6; ``None`` for an ISO date (a balance sheet's point in time)."""
    m = _LABEL_RE.fullmatch(period)
    if m:
        return 9 if m.group(3) else {"Q": 3, "H": 6}.get(m.group(1) or "", 12)
    d = _DURATION_LABEL_RE.fullmatch(period)
    return int(d.group(1)) if d else None


def _of_duration(named: list[tuple[int, str]], months: int | None) -> list[tuple[int, str]]:
    """The named columns of the duration a question implies (:func:`prism.retrieval.periods.duration_hint`;
    :data:`~prism.retrieval.periods.YEAR_TO_DATE`: the longest under a year), all when it implies none or no
    column has it."""
    if months is None:
        return named
    spans = {i: label_months(p) for i, p in named}
    if months == YEAR_TO_DATE:
        months = max((m for m in spans.values() if m and m < 12), default=None)
    kept = [(i, p) for i, p in named if spans[i] == months]
    return kept or named


_ISO_DATE = re.compile(r"(\d{4})-\d\d-\d\d")


def _columns_of(period: str, periods: Sequence[str | None]) -> list[int]:
    """The columns named ``period``; for a fiscal year (``FY2019``) no column is named, the columns dated in that
    calendar year ("December 31, 2019", "As of January 31, 2019" in a document without a fiscal year end, whose
    dates stay ISO dates: :func:`prism.retrieval.periods.period_label`), so "from 2018 to 2019" reads a balance
    sheet's year-end columns; a date no column names ("October 31, 2019"), the column of its year ("2019") when the
    table names its columns by year."""
    exact = [i for i, q in enumerate(periods) if q == period]
    if exact:
        return exact
    if day := _ISO_DATE.fullmatch(period):  # "October 31, 2019" asked of a table headed "2019"
        return [i for i, q in enumerate(periods) if q == f"FY{day.group(1)}"]
    if not (fy := re.fullmatch(r"FY(\d{4})", period)):
        return exact
    return [i for i, q in enumerate(periods) if q and (m := _ISO_DATE.fullmatch(q)) and m.group(1) == fy.group(1)]


def pick_columns(periods: Sequence[str | None], wanted: Sequence[str], headers: Sequence[str] = (),
                 question_tokens: frozenset[str] | set[str] = frozenset(), months: int | None = None, *,
                 by_words: bool = False) -> list[int]:
    """The columns to quote: for each wanted period in order, a column named that period (or, for a fiscal year no
    column names, one dated in that year: :func:`_columns_of`; periods without a column are left out); with
    nothing wanted, a most recent named column of the duration the question implies (``months``,
    :func:`prism.retrieval.periods.duration_hint`: a 10-Q's "first half" is its six-month column,
    "the quarter" its three-month one), of any duration when it implies none. ``[]`` when no column qualifies.

    Among the columns of one period (a two-level header: "Revenue FY2023", "Net profit FY2023"), the one whose
    ``headers`` entry shares the most index tokens with ``question_tokens`` wins, then the first. With nothing
    wanted, a column whose header alone shares the most words with the question ("What is the change (%) for order
    intake?": "Change (%)"; "… without the adoption of ASC 606?": "Balances without adoption of ASC 606") is
    quoted before the most recent one, in a table whose columns name periods (or any table, ``by_words``: then
    ``[]`` when no header shares a word with the question).
    """
    def best(columns: list[int]) -> int:
        if len(columns) == 1 or not headers:
            return columns[0]
        return max(columns, key=lambda i: (len(question_tokens & set(tokenize(headers[i]))), -i))

    if wanted:
        found = (_columns_of(p, periods) for p in dict.fromkeys(wanted))
        return [best(columns) for columns in found if columns]
    if headers and question_tokens and (any(periods) or by_words):  # a column named by its words ("Change (%)")
        shared = [len(question_tokens & {t for t in tokenize(h) if not any(c.isdigit() for c in t)})
                  for h in headers]
        top = max(shared, default=0)
        if top > 0 and shared.count(top) == 1:
            return [shared.index(top)]
        if top > 0:  # several columns of that measure: the most recent of them, as below
            periods = [p if shared[i] == top else None for i, p in enumerate(periods)]
    named = _of_duration([(i, p) for i, p in enumerate(periods) if p is not None], months)
    if not named:
        return []
    latest = max(_recency(p) for _, p in named)
    return [best([i for i, p in named if _recency(p) == latest])]


def rows_name_years(tables: Sequence[ChunkTable], periods: Sequence[PeriodMention]) -> bool:
    """Whether the labels of the table's rows of figures (over all its parts) name every year asked ("Non-vested at
    December 31, 2019"): a roll-forward, whose columns name no period ("Shares", "Weighted-average price"), then
    answers for it. A title's date ("Loan book by segment, 30 September 2024") is not enough: its columns are
    measures of that date."""
    text = " ".join(r.label for t in tables for r in t.rows if any(c.strip() for c in r.cells))
    return bool(periods) and all(str(p.year) in text for p in periods)


@functools.lru_cache(maxsize=4096)
def header_tokens(column: str) -> frozenset[str]:
    """The index tokens of a column header but its numbers (the words a question can name a column by):
    ``"Low 2018"`` → ``{"low"}``; ``"YoY growth"`` → ``{"yoy", "grow"}`` (a question's "grew" names it: the
    tokenizer gives a change's irregular forms one term)."""
    return frozenset(t for t in tokenize(column) if not t.isdigit())
