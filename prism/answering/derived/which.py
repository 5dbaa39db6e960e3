"""Which period: one table row compared across its columns, in code ("In which year was revenue the highest?",
"Which years did Other exceed $5 million?", "Which years does the table provide information for net sales?").

:func:`read_which` reads the comparison from the question's wording:

* **threshold**: the periods whose value is below or above a figure the question states ("less than 10,000,000",
  "exceed $5 million", "greater than 2.0%", "lower than 2,000 thousands"); the figure is brought to the table's unit
  (a scale word against the table's "in thousands"; a table without a unit is read in the question's scale);
* **extreme**: the period with the largest or smallest value ("highest", "larger", "the most", "lowest") — of the
  periods the question names when it names two or more ("Between 2018 and 2019, which year had higher …"), else of
  every column the row has;
* **coverage**: the periods the table gives the row for ("Which years does the table provide information for
  X?", "In which years was X calculated?").

:func:`which_answer` reads the row and its cells with the table-cell reader
(:func:`prism.answering.derived.cells.quote_cells`, every column named as a period), compares the values exactly
(:class:`~decimal.Decimal`) and states the periods in the first line; the row's cells follow, cited, and the
comparison as the work.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Literal

from prism.answering.derived.cells import CellQuote, RowsOf, cited_blocks, format_row_quotes, quote_cells
from prism.answering.derived.numbers import cell_number
from prism.answering.derived.operations import DERIVED_LABEL
from prism.answering.units import printed_label
from prism.retrieval.understanding import Understanding
from prism.types import Calculation, CalculationInput, Derived, RetrievedChunk
from prism.vocabulary.units import BY_NAME, CANONICAL, FIGURE_WORD_RE, SCALE

logger = logging.getLogger(__name__)

__all__ = ["Which", "read_which", "which_answer"]

WhichKind = Literal["threshold", "extreme", "coverage"]

_WHICH = re.compile(r"\bwhich\s+(?:fiscal\s+|financial\s+|calendar\s+)?(?:years?|periods?|quarters?)\b|"
                    r"\bwhich\s+year\s*\(s\)|(?P<count>\bhow\s+many\s+(?:of\s+the\s+)?(?:fiscal\s+)?"
                    r"(?:years|periods|quarters)\b)", re.IGNORECASE)
_ABOVE = r"more|greater|higher|larger|bigger"
_BELOW = r"less|lower|fewer|smaller"
_THRESHOLD = re.compile(
    rf"\b(?P<cmp>(?:{_ABOVE}|{_BELOW})\s+than|above|below|under|over|exceed(?:s|ed|ing)?|in\s+excess\s+of|"
    r"at\s+least|at\s+most)\s+"
    r"(?P<num>[-−]?\s?(?:US\$|Rs\.?|[$€£¥₹])?\s?[-−]?\d[\d,]*(?:\.\d+)?)\s*"
    rf"(?P<unit>%|per\s?cent\b|percent\b|(?:{FIGURE_WORD_RE})\b)?",
    re.IGNORECASE)
_MAX = re.compile(r"\b(?:highest|largest|greatest|biggest|most|maximum|peak|higher|larger|greater|bigger|more)\b",
                  re.IGNORECASE)
_MIN = re.compile(r"\b(?:lowest|smallest|least|fewest|minimum|lower|smaller|less|fewer)\b", re.IGNORECASE)
_COVERAGE = re.compile(r"\b(?:provide[sd]?|calculated|shown|show|shows|presented|recorded|reported|disclosed|"
                       r"included|given|listed|covered|covers?|available|information)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Which:
    """A comparison of one row across its periods, read from a question.

    Attributes:
        kind: ``threshold``, ``extreme`` or ``coverage``.
        above: for ``threshold``, True for "more than / exceed / above / at least", False for "less than / below";
            for ``extreme``, True for the largest, False for the smallest.
        inclusive: the threshold itself qualifies ("at least", "at most").
        threshold: the figure compared with, as written in the question (sign applied), else ``None``.
        scale: the threshold's scale word as a multiplier (1 when none), or ``None`` for a percent.
        written: the threshold as the question writes it ("10,000,000", "$5 million").
        count: the periods' noun when the question asks how many ("years" for "How many years did net income
            exceed $30,000 thousand?"), else ``""``.
        written_scale: the threshold names its scale ("$5 million"); a bare figure is read in the table's unit.
    """

    kind: WhichKind
    above: bool = True
    inclusive: bool = False
    threshold: Decimal | None = None
    scale: Decimal | None = Decimal(1)
    written: str = ""
    count: str = ""
    written_scale: bool = False


def read_which(question: str | Understanding) -> Which | None:
    """The period comparison a question asks for, or ``None`` when it asks "which year / period" of nothing it can
    compare (or does not ask "which year" at all). Read once per question."""
    understood = Understanding.of(question)
    return understood.memo("which", lambda: _read(understood.text))


def _read(text: str) -> Which | None:
    which = _WHICH.search(text)
    if which is None:
        return None
    found = _compare(text)
    if found is None or not which.group("count"):
        return found
    return replace(found, count=re.findall(r"years|periods|quarters", which.group("count").lower())[-1])


def _compare(text: str) -> Which | None:
    if m := _THRESHOLD.search(text):
        cmp = re.sub(r"\s+", " ", m.group("cmp").lower())
        above = not (re.match(_BELOW, cmp) or cmp in ("below", "under", "at most"))
        value = cell_number(m.group("num").replace("−", "-").replace(" ", ""))
        if value is None:
            return None
        unit = (m.group("unit") or "").lower().replace(" ", "")
        named = CANONICAL.get(unit)
        scale = None if unit in ("%", "percent", "percent") else BY_NAME[named].scale if named else Decimal(1)
        written = m.group(0)[len(m.group("cmp")):].strip()
        return Which("threshold", above, cmp.startswith("at "), value, scale, written, written_scale=bool(named))
    tail = _WHICH.split(text, maxsplit=1)[-1]
    if _MAX.search(tail) and not _MIN.search(tail):
        return Which("extreme", True)
    if _MIN.search(tail) and not _MAX.search(tail):
        return Which("extreme", False)
    if _COVERAGE.search(text) and not re.search(r"\bhow\s+many\b", text, re.IGNORECASE):
        return Which("coverage")
    return None


def _period_name(quote: CellQuote) -> str:
    """The period a column names, as an analyst says it: its year ("Years ended December 31, 2019" → "2019"), else
    the column header as printed."""
    years = re.findall(r"(?:19|20)\d{2}", quote.column)
    return years[-1] if len(years) == 1 or (years and quote.period) else quote.column.strip()


def _in_table_unit(which: Which, quote: CellQuote) -> Decimal | None:
    """The threshold in the unit of the quote's table (a table without a unit is read in the question's, a figure
    without a scale word as the table prints its cells: "less than 600,000" of a column in £m)."""
    if which.threshold is None:
        return None
    if which.scale is None or quote.unit not in SCALE or not which.written_scale:
        return which.threshold  # a percent, a table without a unit, or a bare figure read as the table prints it
    return which.threshold * which.scale / SCALE[quote.unit]


def _chosen(which: Which, quotes: Sequence[CellQuote], values: Sequence[Decimal]) -> list[int]:
    """The indexes of the quotes the comparison picks (every tie of an extreme)."""
    if which.kind == "coverage":
        return list(range(len(quotes)))
    if which.kind == "extreme":
        target = max(values) if which.above else min(values)
        return [i for i, v in enumerate(values) if v == target]
    picked = []
    for i, (q, v) in enumerate(zip(quotes, values, strict=True)):
        limit = _in_table_unit(which, q)
        if limit is None:
            continue
        if (v > limit if which.above else v < limit) or (which.inclusive and v == limit):
            picked.append(i)
    return picked


def _wording(which: Which) -> tuple[str, str]:
    """``(what the periods are, the formula)`` for the heading and the calculation."""
    if which.kind == "coverage":
        return "given for", "every period the table gives the row for"
    if which.kind == "extreme":
        word = "highest" if which.above else "lowest"
        return f"{word} in", f"the period with the {'largest' if which.above else 'smallest'} value"
    if which.inclusive:
        word = "at least" if which.above else "at most"
    else:
        word = "more than" if which.above else "less than"
    return f"{word} {which.written} in", f"each period's value compared with {which.written}"


def which_answer(question: str | Understanding, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None
                 ) -> Derived | None:
    """The periods a "which year / period" question asks for, compared in code from one table row's cited cells.

    Args:
        question: the (standalone) question or its :class:`~prism.retrieval.understanding.Understanding`.
        chunks: the retrieved chunks, best first (block ``n`` = position + 1).
        rows_of: the workspace's ``read_chunks(doc_id)`` (table rows), or ``None``.

    Returns:
        A :class:`~prism.types.Derived` whose heading names the periods ("… Products and licensing costs less than
        10,000,000 in 2018"), whose lines quote the row's cells (cited) and the comparison; its calculation's
        ``result`` is the periods, ``value`` ``None``. ``None`` when the question asks no such comparison, no row
        matches, the row has fewer than two periods, or no period qualifies (then the other answers run).
    """
    which = read_which(question)
    if which is None or rows_of is None or not chunks:
        return None
    understood = Understanding.of(question)
    named = [p for p in understood.periods if p.kind in ("FY", "year")]
    if len({p.year for p in named}) >= 2:
        quotes = quote_cells(understood, chunks, rows_of, periods=named)
    else:
        quotes = quote_cells(understood, chunks, rows_of, every_column=True)
    values = [cell_number(q.value) for q in quotes]
    if len(quotes) < 2 or any(v is None for v in values):
        return None
    numbers = [v for v in values if v is not None]
    picked = _chosen(which, quotes, numbers)
    if not picked:
        return None
    return _derived(which, quotes, picked, chunks)


def _derived(which: Which, quotes: list[CellQuote], picked: list[int], chunks: Sequence[RetrievedChunk]
             ) -> Derived:
    blocks, extra = cited_blocks(quotes, chunks)
    label = printed_label(quotes[0].label.strip())
    names = [_period_name(quotes[i]) for i in picked]
    said, formula = _wording(which)
    periods = " and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " and " + names[-1]
    if which.count:
        unit = which.count if len(names) != 1 else which.count.removesuffix("s")
        heading = f"{DERIVED_LABEL}: {len(names)} {unit} — {label} {said} {periods}"
    else:
        heading = f"{DERIVED_LABEL}: {label} {said} {periods}"
    lines = [(format_row_quotes(quotes), blocks[0])] if len(set(blocks)) == 1 else [
        (format_row_quotes([q]), n) for q, n in zip(quotes, blocks, strict=True)]
    if which.kind != "coverage":
        work = "; ".join(f"{_period_name(q)}: {q.value.strip()}{' ✓' if i in picked else ''}"
                         for i, q in enumerate(quotes))
        lines.append((f"{label} by period (✓ the periods picked): {work}", blocks[0]))
    order = list(dict.fromkeys(blocks))
    inputs = tuple(CalculationInput(label, q.label, q.period or q.column, q.value, q.unit, q.currency,
                                    order.index(n) + 1) for q, n in zip(quotes, blocks, strict=True))
    result = f"{len(names)} ({periods})" if which.count else periods
    calc = Calculation(f"{label} {said.removesuffix(' in')}", formula, "the question",
                       tuple(q.period or q.column for q in quotes), inputs, result,
                       float(len(names)) if which.count else None)
    logger.info("which period: %s over %d cells, %d picked", which.kind, len(quotes), len(picked))
    return Derived(heading, lines, extra, calc, (), None, "amount")
