"""``count``: how many items a group holds ("How many categories are there under …?"), or how many periods meet a
threshold ("How many years did net income exceed $30 million?"). Unit rule: a count carries no currency."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal

from prism.answering.programs.evidence import Evidence, Row
from prism.answering.programs.groups import (
    GROUP_OF_TABLE,
    NAMED_GROUP,
    comparable,
    item_groups,
    item_name,
    meets,
    named_share,
    period_list,
    threshold_checked,
    threshold_rows,
    threshold_words,
)
from prism.answering.programs.operation import Operand, Operation, Program, Result
from prism.answering.programs.periods import asked
from prism.index.tokenizer import tokenize
from prism.types.reading import Comparison, Reading
from prism.vocabulary.question_words import ITEM_NOUNS


class Count(Operation):
    """The number of items of a group, or of periods meeting a threshold."""

    name = "count"
    roles = ("items*",)
    phrasings = ("how many X are there", "what is the number of X", "count the X", "how many years did X exceed N",
                 "how many categories of X", "number of X listed")
    cues = ("how many", "number of", "count", "how many years", "how many times")
    formula = "the number of items"
    intent = "count"

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        for name, group in item_groups(reading, evidence):
            if _named_in_part(name, reading) and not _headed_by(name, reading):
                continue  # "How many ATMs …" does not count the rows under "Free ATM transactions – …"
            if name == GROUP_OF_TABLE and (_modifies_items(reading, group) or not _rows_counted(reading, group)):
                continue  # nor a fee table whose rows are "Free ATM transactions a month – …"
            if reading.comparison is None:
                yield Program(self.name, tuple(r.figures[0] for r in group), (("of", "items"), ("group", name)))
            elif figures := _in_period_asked(reading, group, reading.comparison):
                yield Program(self.name, figures, (("of", "items"), ("group", name),
                                                   ("threshold", threshold_words(reading))))
        for figures in threshold_rows(reading, evidence):
            yield Program(self.name, figures, (("of", "periods"), ("threshold", threshold_words(reading))))

    def run(self, program: Program, reading: Reading) -> Result:
        operands = program.operands
        if program.option("of") == "periods":
            if reading.comparison is None:
                raise ArithmeticError("no threshold")
            picked, work = threshold_checked(reading.comparison, operands)
            n = Decimal(len(picked))
            listed = period_list([operands[i] for i in picked]) if picked else ""
            return Result(n, n, "count", f"{len(picked)}", f"({listed})" if listed else "", work, picked=picked)
        work = ""
        if program.option("threshold") is None:
            picked = tuple(range(len(operands)))
        elif reading.comparison is None:
            raise ArithmeticError("no threshold")
        else:  # the items whose figure meets the threshold
            picked = tuple(i for i, f in enumerate(operands) if meets(reading.comparison, f))
            work = "; ".join(f"{item_name(f.label)}: {f.printed.strip()}" + (" ✓" if i in picked else "")
                             for i, f in enumerate(operands))
        n = Decimal(len(picked))
        listed = "; ".join(item_name(operands[i].label) for i in picked)
        return Result(n, n, "count", f"{len(picked)}", f"({listed})" if listed else "", work, picked=picked)

    def subject(self, program: Program) -> str:
        if program.option("of") == "items" and program.option("threshold"):
            return f"number of {program.option('group', 'items')} {program.option('threshold')}"
        if program.option("of") == "periods":
            first = program.operands[0]
            across = len({o.row for o in program.operands}) > 1  # a column of a table of periods down
            name = first.column if across else first.label
            return f"number of periods with {name} {program.option('threshold', '')}".rstrip()
        return f"number of {program.option('group', 'items')}"

    def work_subject(self, program: Program) -> str:
        """The subject without the question's threshold (the work line's figures are checked against the table).
        """
        if program.option("of") == "periods":
            first = program.operands[0]
            across = len({o.row for o in program.operands}) > 1
            return f"{first.column if across else first.name} against the threshold (✓ met)"
        return self.subject(program)


def _in_period_asked(reading: Reading, group: list[Row], comparison: Comparison) -> tuple[Operand, ...]:
    """Each item's one figure of the period asked that the question's threshold can be compared with ("How many
    components of deferred tax assets exceeded $50,000 thousand in 2019?": each row's 2019 figure); empty when an
    item has none or several."""
    figures = []
    for row in group:
        found = [f for f in asked(reading, row) if comparable(comparison, f)]
        if len(found) != 1:
            return ()
        figures.append(found[0])
    return tuple(figures)


_PHRASE_BREAK = re.compile(r"\s[–—-]\s|[,:;()]")


def _named_in_part(name: str, reading: Reading) -> bool:
    """Whether the group's heading is named only in part (fewer than :data:`NAMED_GROUP` of its words)."""
    return name != GROUP_OF_TABLE and named_share(name, reading) < NAMED_GROUP


def _counted(reading: Reading) -> str | None:
    """The index token of the thing the question counts (its focus's head word: "ATMs" → "atm"), or ``None``."""
    head = getattr(reading.target, "head", None)
    tokens = tokenize(head) if head else []
    return tokens[-1] if tokens else None


def _headed_by(name: str, reading: Reading) -> bool:
    """Whether the thing the question counts (:func:`_counted`) is the head of a phrase of the heading (its last
    word: "Number of ATMs", "Receivable types"), not a word modifying another ("ATM transactions"). True when the
    question gives no head."""
    wanted = _counted(reading)
    return wanted is None or any((tokens := tokenize(phrase)) and tokens[-1] == wanted
                                 for phrase in _PHRASE_BREAK.split(name))


_ITEM_TOKENS = frozenset(t for word in ITEM_NOUNS for t in tokenize(word))
"""Index tokens of the nouns naming items as such ("components", "items", "categories")."""


def _rows_counted(reading: Reading, group: list[Row]) -> bool:
    """Whether counting every row of a table counts what the question counts (:func:`_counted`): it asks of the
    table ("How many items does the table list?"), counts items as such ("How many components …"), or
    counts what the rows are: the head of every row's label ("How many segments …" over "Americas segment", "EMEA
    segment") or a word of the table's title or headings. Not what heads some rows only ("How many primary service
    units …": that row's figure is asked), what a column header measures ("How many shares were granted …" over
    "Number of Shares"), nor a thing the table does not name ("How many employees …" over a table of expenses)."""
    wanted = _counted(reading)
    if wanted is None or wanted in _ITEM_TOKENS or "of_table" in reading.flags:
        return True
    heads = [bool(tokens := tokenize(row.label)) and tokens[-1] == wanted for row in group]
    if all(heads):
        return True
    headers = {t for row in group for f in row.figures for t in tokenize(f.column)}
    named = {t for row in group for t in tokenize(f"{row.title} {row.heading}")}
    return not any(heads) and wanted in named - headers


def _modifies_items(reading: Reading, group: list[Row]) -> bool:
    """Whether the thing the question counts (:func:`_counted`) only modifies the items' own head words ("ATM" in
    "Free ATM transactions a month"): the items are kinds of something else, and counting them does not count it."""
    wanted = _counted(reading)
    return wanted is not None and any(wanted in tokenize(phrase)[:-1]
                                      for row in group for phrase in _PHRASE_BREAK.split(row.label))


OPERATION = Count()
