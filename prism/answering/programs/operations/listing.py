"""``list``: several items or figures — the items under a heading or making up a total ("What are the components
of deferred tax assets?"), one item's figures in several periods ("What were revenues in 2018 and 2019?"), each
item's figure in a period ("What were the low prices of each quarter in 2018?"), or the periods whose figure meets a
threshold ("Which years did X exceed $5 million?")."""

from __future__ import annotations

from collections.abc import Iterator

from prism.answering.programs.binding import item_pairs, rows
from prism.answering.programs.evidence import Evidence
from prism.answering.programs.formatting import written
from prism.answering.programs.groups import (
    GROUP_OF_TABLE,
    group_columns,
    item_groups,
    item_name,
    period_list,
    threshold_checked,
    threshold_rows,
    threshold_words,
)
from prism.answering.programs.operation import Operand, Operation, Program, Result
from prism.answering.programs.periods import asked, asked_periods
from prism.index.tokenizer import tokenize
from prism.retrieval.periods import find_periods
from prism.types.reading import Reading


class Listing(Operation):
    """The items of a group, the figures of a row in the periods asked, the periods meeting a threshold, or the
    periods a row is given for."""

    name = "list"
    roles = ("items*",)
    phrasings = ("what are the X", "list the X", "what items make up X", "name the components of X",
                 "what were X in P and P", "which years did X exceed N", "what does X include",
                 "what are the categories of X", "which X are shown", "what years does X cover",
                 "which periods is X given for")
    cues = ("what are", "list", "components", "items", "categories", "types", "which years", "what years",
            "which periods", "what periods", "consist of", "comprise", "made up of", "breakdown", "each",
            "respectively", "segments", "name the")
    formula = "the items as listed"
    intent = "list"

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        whole = "of_table" in reading.flags
        valued = list(group_columns(reading, evidence)) if "each" in reading.flags else []
        for name, figures in valued:  # "What were the low prices of each quarter in 2018?": every item's figure
            yield Program(self.name, figures, (("of", "item values"), ("group", name)))
        for name, group in item_groups(reading, evidence):
            if name in {n for n, _ in valued}:
                continue  # "each" asks for each item's figure, not only the items' names
            if reading.expected_unit == "period" and 2 * sum(bool(find_periods(r.label)) for r in group) <= len(group):
                continue  # "In which years were cash flow hedges calculated?": periods, not items that are no periods
            options: tuple[tuple[str, object], ...] = (("of", "items"), ("group", name))
            if whole and name == GROUP_OF_TABLE:  # "What items does the table list?": every item of the table
                options += (("whole", True),)
            yield Program(self.name, tuple(r.figures[0] for r in group), options)
        if len(asked_periods(reading)) >= 2:
            for row in rows(reading, evidence, figures=2):
                figures = tuple(asked(reading, row))
                if len(figures) >= 2:
                    yield Program(self.name, figures, (("of", "values"),))
        if reading.flags & {"respectively", "conjoined"} and len(asked_periods(reading)) <= 1:
            # "What were the respective sales and purchases in 2017?", "What volume and value did it process in
            # FY2024?": each item's figure, in the question's order
            order = tokenize(reading.text)
            for a, b in item_pairs(reading, evidence):
                if _first_named(a, order) < _first_named(b, order):
                    yield Program(self.name, (a, b), (("of", "item values"),))
        for figures in threshold_rows(reading, evidence):
            yield Program(self.name, figures, (("of", "periods"), ("threshold", threshold_words(reading))))
        if reading.comparison is not None or reading.polarity is not None:
            return  # a threshold or an extreme asks which periods meet it, not which the table gives
        if reading.expected_unit != "period":
            return  # "What was operating income?" asks for a figure, not the periods the table gives it for
        covered = False
        for row in rows(reading, evidence, limit=2, figures=2):
            dated = tuple(f for f in row.figures if f.when != (0, 0))
            if len({f.when for f in dated}) >= 2:
                covered = True  # a table asked about as a whole gives its periods in every row
                yield Program(self.name, dated, (("of", "coverage"), ("row", True))
                              + ((("whole", True),) if whole else ()))
        if not covered and whole:  # "What years does the table cover?": its dated columns
            for table in list(evidence.tables.values())[:1]:
                dated_rows = [tuple(f for f in r.figures if f.when != (0, 0)) for _, r in table if r is not None]
                widest = max(dated_rows, key=lambda fs: len({f.when for f in fs}), default=())
                if len({f.when for f in widest}) >= 2:
                    yield Program(self.name, widest, (("of", "coverage"), ("whole", True)))

    def run(self, program: Program, reading: Reading) -> Result:
        of = program.option("of")
        operands = program.operands
        if of == "periods":
            if reading.comparison is None:
                raise ArithmeticError("no threshold")
            picked, work = threshold_checked(reading.comparison, operands)
            return Result(None, None, "period", period_list([operands[i] for i in picked]), work=work,
                          picked=picked)
        if of == "coverage":
            return Result(None, None, "period", period_list(list(operands)), picked=tuple(range(len(operands))))
        if of == "values":
            text = "; ".join(f"{f.column}: {written(f.value, f.kind, f)}" for f in operands)
            return Result(None, None, "label", text, picked=tuple(range(len(operands))))
        if of == "item values":
            text = "; ".join(f"{item_name(f.label)}: {written(f.value, f.kind, f)}" for f in operands)
            return Result(None, None, "label", text, picked=tuple(range(len(operands))))
        text = "; ".join(item_name(f.label) for f in operands)
        return Result(None, None, "label", text, picked=tuple(range(len(operands))))

    def subject(self, program: Program) -> str:
        first = program.operands[0]
        if program.option("of") == "values":
            return first.name
        if program.option("of") == "item values":
            group = program.option("group")  # a group's items are named by the group, the table's by their column
            named = " and ".join(item_name(f.label) for f in program.operands) if group is None else group
            return ", ".join(part for part in (named if named != GROUP_OF_TABLE else "", first.column) if part)
        if program.option("of") == "periods":
            return f"periods with {first.name} {program.option('threshold', '')}".rstrip()
        if program.option("of") == "coverage":
            if program.option("row"):  # the row the question names
                return f"periods the table gives {first.name} for"
            return "periods the table gives"
        return str(program.option("group", "items"))

    def work_subject(self, program: Program) -> str:
        """The subject without the question's threshold (the work line's figures are checked against the table).
        """
        if program.option("of") == "periods":
            return f"{program.operands[0].name} against the threshold (✓ met)"
        return self.subject(program)


def _first_named(figure: Operand, order: list[str]) -> int:
    """Where the question first names a word of the figure's label (its index tokens ``order``, in text order); the
    question's length when it names none."""
    label = set(tokenize(figure.label))
    return next((i for i, token in enumerate(order) if token in label), len(order))


OPERATION = Listing()
