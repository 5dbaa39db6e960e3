"""How operations bind operands: the figures of the rows a question may mean, in the periods it asks for.

The operations enumerate their candidate programs from these few shapes; the ranker
(:mod:`prism.answering.programs.ranker`) decides among them, so the shapes are generous: every row that shares a
word with the question (the best :data:`ROWS` of them), every asked period, both orders of a pair.

* :func:`rows` — the rows a question may mean, best first by the share of their label's words it names;
* :func:`~prism.answering.programs.periods.asked` (in :mod:`~prism.answering.programs.periods`) — a row's figures
  in the periods asked (all its figures when none is asked);
* :func:`series_pairs` — two figures of one row in two periods (a change), oldest first, and the reverse;
* :func:`item_pairs` — two rows' figures in one period (a ratio, a share, a difference of items), both orders;
* :func:`series_sets` — a row's figures over the periods asked, over every period, or over the year asked and the
  one before (an average balance);
* :func:`part_sets` — several rows' figures in one column that add up to a part, with a whole (a share of a sum).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import combinations, permutations

from prism.answering.programs.columns import header_tokens
from prism.answering.programs.evidence import Evidence, Row, transposed
from prism.answering.programs.naming import label_share, named_tokens, question_words
from prism.answering.programs.operation import Operand
from prism.answering.programs.periods import asked, asked_periods, matches_period
from prism.answering.reading.words import phrase_in, words_of
from prism.index.tokenizer import tokenize
from prism.types.reading import Reading
from prism.vocabulary import months

__all__ = ["PARTS", "ROWS", "into_year_pairs", "item_pairs", "item_sets", "part_sets", "rows", "series_pairs",
           "series_sets"]

ROWS = 6
"""How many rows (best first) pairs and sets are built from."""
_MONTH_WORDS = frozenset(months.NUMBER)


_GENERIC = frozenset(tokenize("total net other less add subtotal balance amount"))
"""Label words that name no line item on their own."""


@lru_cache(maxsize=4096)
def _run(label: str, words: tuple[str, ...]) -> int:
    """The most consecutive words of ``label`` the question writes in a row ("Net income (loss)" and "… net income
    in 2019": 2; "Other income (expense), net": 1): of two labels named alike, the one written as the question
    writes it."""
    parts = re.findall(r"[a-z0-9]+", label.lower())
    best = 0
    for i in range(len(parts)):
        for j in range(len(words)):
            k = 0
            while i + k < len(parts) and j + k < len(words) and parts[i + k] == words[j + k]:
                k += 1
            best = max(best, k)
    return best


def rows(reading: Reading, evidence: Evidence, limit: int = ROWS, *, figures: int = 1) -> list[Row]:
    """The rows with at least ``figures`` figures that share a word with the question (label, or heading and title
    for a total), best first: the share of their label named, then the number of label words named, then evidence
    order; at most ``limit``."""
    scored = []
    words = question_words(reading.text)
    for i, row in enumerate(evidence.rows):
        if len(row.figures) < figures:
            continue
        named = len(named_tokens(row, reading))
        context = len(row.context & reading.tokens)
        if not row.tokens and row.label and phrase_in(row.label.lower(), words):
            named = 1  # a label of common words only ("Other"), written whole in the question
        if row.tokens and row.tokens <= _GENERIC and len(row.label.split()) == 1:
            named = 0  # "Total" alone names no line item: "the total" of a question is no row's name
        if not named and not (row.total and context):
            continue
        scored.append((-label_share(row, reading), -_run(row.label, words), -named, -context, i, row))
    scored.sort(key=lambda t: t[:5])
    found = [t[-1] for t in scored]
    if not reading.tokens & _OPENING:
        found = [r for r in found if not _opening_twin(r, found)]
    return found[:limit]


_OPENING = frozenset(tokenize("beginning begin opening open start"))
_CLOSING = frozenset(tokenize("end ending closing close"))


def _opening_twin(row: Row, others: Sequence[Row]) -> bool:
    """Whether ``row`` is a roll-forward's opening balance beside its closing one in the same table ("Goodwill,
    beginning of the year" and "Goodwill, end of the year"): a balance asked at a date or of a year, the question
    naming no beginning, is the closing one (the opening balance is the year before's closing)."""
    if not row.tokens & _OPENING:
        return False
    own = row.tokens - _OPENING
    return any(o.key[0] == row.key[0] and o is not row and o.tokens & _CLOSING and o.tokens - _CLOSING == own
               for o in others)


def _family(figure: Operand) -> str:
    """A column's header without its years and dates, and the figure's kind: the columns of one measure over time
    ("2019 $", "2018 $" against "2019 % of total", "2018 % of total")."""
    return f"{figure.kind}|" + " ".join(w for w in re.findall(r"[a-z%$€£₹]+", figure.column.lower())
                                         if w not in _MONTH_WORDS)


def _dated(figures: Sequence[Operand]) -> list[Operand]:
    """Figures with distinct known times, oldest first (of a row with several measures per time, the first
    measure's; :func:`_families` gives each)."""
    seen: dict[tuple[int, int], Operand] = {}
    for f in figures:
        if f.when != (0, 0):
            seen.setdefault(f.when, f)
    return [seen[w] for w in sorted(seen)]


def _families(figures: Sequence[Operand]) -> list[list[Operand]]:
    """The row's dated figures per column family (:func:`_family`), each oldest first, the families with two times
    or more."""
    groups: dict[str, list[Operand]] = {}
    for f in figures:
        if f.when != (0, 0):
            groups.setdefault(_family(f), []).append(f)
    return [_dated(g) for g in groups.values() if len({f.when for f in g}) >= 2]


_MOVEMENT = frozenset(tokenize("increase increased decrease decreased change changed grow grew growth rise rose "
                               "fall fell decline declined drop dropped movement moved delta swing"))
"""The index tokens of the words naming a movement over time."""


def _bigrams(tokens: Sequence[str]) -> set[tuple[str, str]]:
    return set(zip(tokens, tokens[1:], strict=False))


def _moving(reading: Reading, evidence: Evidence) -> bool:
    """Whether the question names a movement (:data:`_MOVEMENT`) other than as a word of a table row's name it
    writes with its neighbour, in the same form ("decline rate": the row "Technical decline rate"; "volume grow" is a
    verb beside the row "YoY volume growth", whose noun the tokenizer gives the same term)."""
    asked = _keys(reading.text)
    pairs = _bigrams(asked)
    in_names = {w for r in evidence.rows if r.figures and r.figures[0].source == "cell"
                for pair in _bigrams(_keys(r.label)) & pairs for w in pair}
    return any(_MOVEMENT & set(tokenize(w)) for w in set(asked) - in_names)


def _keys(text: str) -> list[str]:
    """The words of ``text`` as :func:`_moving` compares them: a movement word as written ("grow" is not "growth"),
    any other word by its index term ("deposits" is "deposit"); stop words left out."""
    out = []
    for word in words_of(text):
        tokens = tokenize(word)
        if tokens:
            out.append(word if _MOVEMENT & set(tokens) else tokens[0])
    return out


def into_year_pairs(reading: Reading, evidence: Evidence, *, named_apart: bool = False
                    ) -> Iterator[tuple[Operand, Operand]]:
    """For a question naming one year or one quarter and a movement ("What was the increase in FCC licenses in
    2019?", "Did credit card spends fall in Q4 FY24?"), each row's figures of the period before (the year before;
    the quarter before, sequentially) and of that period (full years or quarters, per column family:
    :func:`_families`; a year as :func:`matches_period` reads it, so "2019" is the column closing fiscal 2019 on
    January 3, 2020): its movement into the period asked; both orders. Only when the question names a movement
    (:data:`_MOVEMENT`: "compare net income in 2023" asks for the figure); with ``named_apart`` (a yes/no test of a
    direction) or of a quarter, outside a table row's name (:func:`_moving`: the "decline rate" of a row "Technical
    decline rate" is no movement; a change of a year named only by a row is weighed by the ranker instead); nothing
    for several periods or a difference asked without a direction (the reader's ``gap`` flag: "the difference between
    the domestic and international rates in 2019" compares the items)."""
    periods = asked_periods(reading)
    if len(periods) != 1 or periods[0].kind not in ("FY", "year", "Q") or "gap" in reading.flags:
        return
    asked_period = periods[0]
    quarter = asked_period.kind == "Q" and asked_period.part is not None
    if not (_moving(reading, evidence) if named_apart or quarter else _MOVEMENT & reading.tokens):
        return
    if quarter:
        part = asked_period.part or 1
        period_before = replace(asked_period, part=part - 1) if part > 1 else \
            replace(asked_period, year=asked_period.year - 1, part=4)
    else:
        period_before = replace(asked_period, year=asked_period.year - 1)
    for row in rows(reading, evidence, figures=2):
        for dated in _families(row.figures):
            before = [f for f in dated if (f.when[1] != 0) == quarter and matches_period(period_before, f)]
            into = [f for f in dated if (f.when[1] != 0) == quarter and matches_period(asked_period, f)]
            if len(before) == 1 and len(into) == 1 and before[0] is not into[0]:
                yield before[0], into[0]
                yield into[0], before[0]


def series_pairs(reading: Reading, evidence: Evidence) -> Iterator[tuple[Operand, Operand]]:
    """Two figures of one row: in the periods asked (two or more; of a range, its two ends), else each adjacent pair
    and the first and last of every period; oldest first, then the reverse order. A row whose columns name no time
    gives its figures in column order when the question names both columns or neither (:func:`_named_alike`). Two
    figures of one sentence given the same period are no pair: the sentence dates them as a whole, not each."""
    periods = asked_periods(reading)
    for row in rows(reading, evidence, figures=2):
        figures = asked(reading, row)
        families = _families(figures)
        chosen: list[tuple[Operand, Operand]] = []
        for dated in families:
            if len(periods) >= 2:
                chosen += list(combinations(dated, 2))
            else:
                chosen += list(zip(dated, dated[1:], strict=False)) + (
                    [(dated[0], dated[-1])] if len(dated) > 2 else [])
        if not families:
            chosen = [(a, b) for a, b in combinations(figures, 2) if _named_alike((a, b), reading)]
        inner = {p.year for p in periods if "…" in p.text}  # "from 2017 to 2019" moves between its ends
        ends = [(a, b) for a, b in chosen if a.when[0] not in inner and b.when[0] not in inner]
        for a, b in ends or chosen:
            if a.source == "sentence" and a.period is not None and a.period == b.period:
                continue  # a sentence's figures of one period are not a movement over time ("38.4%, against 39.1%")
            yield a, b
            yield b, a


def _named_alike(figures: Sequence[Operand], reading: Reading) -> bool:
    """Whether the question names undated columns of one row alike: each by a word no other one's header has ("the
    high and low price": "High", "Low"), or none; a question naming some of them ("personal loans YoY growth"
    beside "Share of book"; "the total deferred revenue at the end of the period" beside "Balance at Beginning of
    Period" and "Increase / (Decrease)") asks for those columns' figures, not a sum or difference with the others."""
    headers = [header_tokens(f.column) for f in figures]
    named = [bool((h - frozenset().union(*headers[:i], *headers[i + 1:])) & reading.tokens)
             for i, h in enumerate(headers)]
    return all(named) or not any(named)


def item_pairs(reading: Reading, evidence: Evidence) -> Iterator[tuple[Operand, Operand]]:
    """Two rows' figures in one column (a period asked, or every column when none is), or of one period (a table's
    and a sentence's); both orders. Never a row and a column of one table (a table of periods read both ways)."""
    candidates = rows(reading, evidence)
    for r1, r2 in combinations(candidates, 2):
        if r1.key[0] == r2.key[0] and transposed(r1) != transposed(r2):
            continue  # a row and a column of one table cross at one cell: no pair of items
        for a in asked(reading, r1):
            b = next((f for f in r2.figures if f.col == a.col and f.table == a.table), None)
            if b is None and a.period is not None:
                b = next((f for f in asked(reading, r2) if f.period == a.period), None)
            if b is not None and not _same_figure(a, b):
                yield a, b
                yield b, a


def _same_figure(a: Operand, b: Operand) -> bool:
    """Whether two figures are one figure stated twice (the same line item, period and value in two copies of a
    statement): no pair of items to compare, add or divide."""
    return a.label.casefold() == b.label.casefold() and a.when == b.when and a.value == b.value


def series_sets(reading: Reading, evidence: Evidence) -> Iterator[tuple[Operand, ...]]:
    """A row's figures over several periods: those asked (two or more); every dated figure of the row; for one year
    asked, that year and the year before (an average balance)."""
    periods = asked_periods(reading)
    for row in rows(reading, evidence, figures=2):
        dated = _dated(row.figures)
        if len(periods) >= 2:
            figures = _dated(asked(reading, row)) or asked(reading, row)
            if len(figures) >= 2:
                yield tuple(figures)
            continue
        if len(dated) >= 2:
            yield tuple(dated)
        elif not dated and len(row.figures) >= 2 and _named_alike(row.figures, reading):
            yield tuple(row.figures)
        if len(periods) == 1:
            year = periods[0].year
            pair = [f for f in dated if f.when[0] in (year - 1, year) and f.when[1] == 0]
            if len(pair) == 2:
                yield tuple(pair)


def item_sets(reading: Reading, evidence: Evidence, largest: int = 3) -> Iterator[tuple[Operand, ...]]:
    """Two to ``largest`` rows' figures in one column (the items a sum adds), in evidence order. Three or more
    items hold a total row only when all are totals: a total beside some of its own items counts them twice ("the
    total of A and B" is no sum of A, B and the table's total)."""
    candidates = rows(reading, evidence)
    for size in range(2, largest + 1):
        for group in combinations(candidates, size):
            if size > 2 and len({r.total for r in group}) > 1:
                continue
            for a in asked(reading, group[0]):
                others = [next((f for f in r.figures if f.col == a.col and f.table == a.table), None)
                          for r in group[1:]]
                if all(o is not None for o in others):
                    yield (a, *[o for o in others if o is not None])


PARTS = 4
"""How many of the best rows the parts of a sum (:func:`part_sets`) are chosen from."""


def part_sets(reading: Reading, evidence: Evidence, largest: int = 3) -> Iterator[tuple[tuple[Operand, ...], Operand]]:
    """For a question that joins items as the parts of one figure (the reader's ``conjoined`` flag: "A and B as a
    percentage of total revenue"), two to ``largest`` rows' figures in one column (the parts, none a total, from the
    best :data:`PARTS` rows) with another row's figure in that column (the whole); nothing otherwise."""
    if "conjoined" not in reading.flags:
        return
    candidates = rows(reading, evidence)
    for size in range(2, largest + 1):
        for group in combinations([r for r in candidates[:PARTS] if not r.total], size):
            for a in asked(reading, group[0]):
                others = [_in_column(r, a) for r in group[1:]]
                if any(o is None for o in others):
                    continue
                for whole_row in candidates:
                    whole = None if whole_row in group else _in_column(whole_row, a)
                    if whole is not None:
                        yield (a, *[o for o in others if o is not None]), whole


def _in_column(row: Row, figure: Operand) -> Operand | None:
    """The row's figure in the column of ``figure`` (same table), or ``None``."""
    return next((f for f in row.figures if f.col == figure.col and f.table == figure.table), None)


def ordered_pairs(figures: Sequence[Operand]) -> Iterator[tuple[Operand, Operand]]:
    """Every ordered pair of distinct figures."""
    yield from permutations(figures, 2)
