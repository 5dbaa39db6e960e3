"""Groups of a table's items, for the ``list`` and ``count`` operations: the rows under a section heading (up to the
next heading or the total that closes them), the rows a total adds up (back to the previous heading or total), and
every row of figures but the totals. A group is offered when the question names its heading, its total or, for the
whole table, any word of its title or columns; and the periods of one row that meet a threshold the question states.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from prism.answering.programs.binding import rows
from prism.answering.programs.columns import header_tokens
from prism.answering.programs.evidence import Evidence, Row
from prism.answering.programs.extremes import period_name
from prism.answering.programs.operation import Operand
from prism.answering.programs.periods import asked
from prism.index.tokenizer import tokenize
from prism.types.reading import Comparison, Reading
from prism.vocabulary.units import SCALE

__all__ = ["GROUP_OF_TABLE", "NAMED_GROUP", "adds_up", "comparable", "group_columns", "item_groups", "item_name",
           "meets", "named_share", "period_list", "threshold_checked", "threshold_in", "threshold_words",
           "unnamed_part"]


def adds_up(row: Row, above: list[Row]) -> bool:
    """Whether ``row``'s figures are the sums of the rows ``above`` (two or more) in the first column they all give:
    a subtotal whatever its label ("Gross deferred tax assets" under the rows it adds up; a restated earlier column
    need not add up)."""
    if len(above) < 2:
        return False
    col = next((f.col for f in row.figures if all(any(g.col == f.col for g in r.figures) for r in above)), None)
    if col is None:
        return False
    total = next(f.value for f in row.figures if f.col == col)
    return sum((next(g.value for g in r.figures if g.col == col) for r in above), Decimal(0)) == total


NAMED_GROUP = 0.5
"""The share of a heading's or total's words a question must name for its rows to be the items asked ("How many
ATMs …" does not ask for the rows under "Free ATM transactions a month – Meridian ATMs")."""

GROUP_OF_TABLE = "the table's items"
"""The name of the group of every row of a table but its totals (no heading or total the question names)."""


def _sections(table: list[tuple[str, Row | None]]) -> Iterator[tuple[str, list[Row]]]:
    """``(heading, rows)`` under each heading, and ``(total label, rows)`` for the rows each total adds up (a row
    labelled as a total, or one whose figures are the sums of the rows since the last heading or total:
    :func:`adds_up`)."""
    heading = ""
    under: list[Row] = []
    since_total: list[Row] = []
    for label, row in table:
        if row is None:
            if heading and under:
                yield heading, under
            heading, under, since_total = label, [], []
            continue
        if row.total or adds_up(row, since_total):
            if since_total:
                yield row.label, since_total
            if heading and under:
                yield heading, under
            heading, under, since_total = "", [], []
            continue
        under.append(row)
        since_total.append(row)
    if heading and under:
        yield heading, under


def item_groups(reading: Reading, evidence: Evidence) -> Iterator[tuple[str, list[Row]]]:
    """``(what the group is, its rows)`` for every group the question may mean (module docstring)."""
    for table in list(evidence.tables.values())[:3]:
        members = [r for _, r in table if r is not None]
        sections = [(name, group, named_share(name, reading)) for name, group in _sections(table) if len(group) >= 2]
        best = max((share for _, _, share in sections), default=0.0)
        if best >= NAMED_GROUP:  # the question names a heading or a total: the rows of the one it names best
            yield from ((item_name(name), group) for name, group, share in sections if share == best)
            continue
        yield from ((item_name(name), group) for name, group, share in sections if share > 0.0)  # named in part
        plain = [r for r in members if not r.total]
        context = set().union(*(r.context for r in members)) if members else set()
        if len(plain) >= 2 and (context & reading.tokens or not reading.mentions or "of_table" in reading.flags):
            yield GROUP_OF_TABLE, plain


def group_columns(reading: Reading, evidence: Evidence) -> Iterator[tuple[str, tuple[Operand, ...]]]:
    """``(what the group is, its figures)``: every item of a group (:func:`item_groups`) of three or more, in one
    column of a period asked (every column when none is asked): what "the average quarterly low price in 2018"
    averages, one figure per quarter row; of the columns asked, those whose headers the question names most.
    Two items are :func:`~prism.answering.programs.binding.item_sets`'; no
    group is offered when a mention names a total (the total row is asked; not the sum's "the total of A and B")."""
    for name, group in item_groups(reading, evidence):
        if len(group) < 3 or reading.names_total:
            continue  # "the 2019 average total amount falling due": the total row's figures, not its items'
        columns = asked(reading, group[0])
        named = [len(header_tokens(f.column) & reading.tokens) for f in columns]
        for first, n in zip(columns, named, strict=True):
            if n < max(named):
                continue  # "the low price": the Low column of the year, not the High beside it
            figures = [next((f for f in r.figures if f.col == first.col and f.table == first.table), None)
                       for r in group]
            if all(f is not None for f in figures):
                yield name, tuple(f for f in figures if f is not None)


def unnamed_part(figures: tuple[Operand, ...], groups: list[tuple[str, tuple[Operand, ...]]],
                 reading: Reading) -> bool:
    """Whether ``figures`` (several items in one column) are some of a group's items (:func:`group_columns`, in
    any column) that the question does not tell apart: not every item's label holds a word the question names and
    the other items' labels lack. Three of four quarters are no reading of "the average quarterly low price"; "the
    first and second quarters" name theirs."""
    keys = {(f.table, f.row) for f in figures}
    if not any(keys < {(g.table, g.row) for g in group} for _, group in groups):
        return False
    labels = [frozenset(tokenize(f.label)) for f in figures]
    return not all(label - frozenset().union(*(o for o in labels if o is not label)) & reading.tokens
                   for label in labels)


def named_share(name: str, reading: Reading) -> float:
    """The share of a heading's or total's index tokens the question names."""
    tokens = set(tokenize(name))
    return len(tokens & reading.tokens) / len(tokens) if tokens else 0.0


_FOOTNOTE = re.compile(r"(?<=[a-z])[1-9]$")


def item_name(label: str) -> str:
    """A row label as an item is listed: without a footnote mark written against its last word ("Other employee
    benefits2" → "Other employee benefits")."""
    return _FOOTNOTE.sub("", label.strip())


def threshold_in(comparison: Comparison, figure: Operand) -> Decimal:
    """The threshold in the figure's printed scale: a threshold naming its scale ("$5 million") against a table in
    thousands is 5,000; one without a scale is read as the table prints its cells."""
    if comparison.scale and comparison.scale in SCALE and figure.unit in SCALE:
        return comparison.value * SCALE[comparison.scale] / SCALE[figure.unit]
    return comparison.value


def meets(comparison: Comparison, figure: Operand) -> bool:
    """Whether the figure meets the threshold (``above``: greater; ``at_least``: greater or equal …)."""
    limit = threshold_in(comparison, figure)
    return {"above": figure.value > limit, "below": figure.value < limit, "at_least": figure.value >= limit,
            "at_most": figure.value <= limit}[comparison.relation]


def comparable(comparison: Comparison, figure: Operand) -> bool:
    """Whether ``figure`` may be compared with the threshold: an amount threshold ("less than 15,000 thousands") is
    not compared with a percentage (a row's "% of total revenue" column); a percentage or a sign ("negative") is
    compared with any figure."""
    return not comparison.amount or comparison.percent or figure.kind != "percent"


def threshold_rows(reading: Reading, evidence: Evidence) -> Iterator[tuple[Operand, ...]]:
    """The figures of each row the question may mean over the periods asked (every period when none), when it
    states a threshold, those it may be compared with (:func:`comparable`); in a table of periods down (quarters as
    rows, "2018 Low" and "2018 High" across), each column's figures of the periods asked. Two figures of one period
    are no periods to count."""
    comparison = reading.comparison
    if comparison is None:
        return
    found = rows(reading, evidence, figures=2)
    columns: dict[tuple[str, int], list[Operand]] = {}
    for row in found:
        figures = tuple(f for f in asked(reading, row) if f.when != (0, 0)) or tuple(asked(reading, row))
        figures = tuple(f for f in figures if comparable(comparison, f))
        if len(figures) >= 2 and (len({f.when for f in figures}) >= 2 or figures[0].when == (0, 0)):
            yield figures
        for f in figures:
            if f.when != (0, 0):
                columns.setdefault((f.table, f.col), []).append(f)
    for column in columns.values():  # a table of periods down ("First Quarter" … under "2018 Low"): its column
        if len({f.when for f in column}) == len(column) >= 2:
            yield tuple(column)


def threshold_checked(comparison: Comparison, figures: tuple[Operand, ...]) -> tuple[tuple[int, ...], str]:
    """The positions of the figures meeting the threshold, and the work line: each period's figure as printed,
    those meeting it marked ✓ ("2019: $16,684; 2018: $8,078 ✓; 2017: $9,512 ✓")."""
    picked = tuple(i for i, f in enumerate(figures) if meets(comparison, f))
    work = "; ".join(f"{period_name(f)}: {f.printed.strip()}" + (" ✓" if i in picked else "")
                     for i, f in enumerate(figures))
    return picked, work


def period_list(figures: list[Operand]) -> str:
    """The periods of ``figures`` as an analyst lists them, each once, in the table's order ("2019, 2018 and 2017");
    ``"none"`` for no figure."""
    names = list(dict.fromkeys(period_name(f) for f in figures))
    if not names:
        return "none"
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]


def threshold_words(reading: Reading) -> str:
    """The question's threshold in an answer's words ("less than 10,000 thousand"), or ``""`` without one."""
    return reading.comparison.stated if reading.comparison is not None else ""
