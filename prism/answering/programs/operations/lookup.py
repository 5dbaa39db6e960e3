"""``lookup``: one figure as the document states it ("What was net income in 2019?")."""

from __future__ import annotations

from collections.abc import Iterator

from prism.answering.programs.binding import rows
from prism.answering.programs.evidence import Evidence
from prism.answering.programs.formatting import written
from prism.answering.programs.operation import Operand, Operation, Program, Result
from prism.answering.programs.periods import asked
from prism.index.tokenizer import tokenize
from prism.types.reading import Reading


class Lookup(Operation):
    """One figure: a cell in the period asked (every period when none is), or a figure a sentence states."""

    name = "lookup"
    roles = ("figure",)
    phrasings = ("what was X in P", "how much was X in P", "X for P", "what is the amount of X in P",
                 "what did X amount to in P", "state X for P", "what were X as of P", "how much is X",
                 "what is the maximum X permitted")
    cues = ("amount of", "value of", "figure for", "amount to", "as of", "balance of", "reported")
    formula = "the figure as stated"

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        if reading.expected_unit == "label":
            return  # "Which country had the lowest revenue?" asks for an item, which no figure alone names
        for row in rows(reading, evidence, limit=10):
            for figure in named_columns(reading, asked(reading, row)):
                yield Program(self.name, (figure,))

    def run(self, program: Program, reading: Reading) -> Result:
        figure = program.operands[0]
        return Result(figure.value, figure.value, figure.kind, written(figure.value, figure.kind, figure))

    def subject(self, program: Program) -> str:
        figure = program.operands[0]
        return f"{figure.name}, {figure.column}" if figure.column and figure.source == "cell" else figure.name


def named_columns(reading: Reading, figures: list[Operand]) -> list[Operand]:
    """Of a row's figures of one period in several measure columns ("Shares", "Weighted-Average Grant Date Fair
    Value" of a roll-forward), those whose header the question names best: the most header words named, then the
    largest share of the header; all of them when it names none or the figures are of several periods."""
    if len({f.when for f in figures}) != 1 or len(figures) < 2:
        return figures
    scores = []
    for f in figures:
        header = frozenset(t for t in tokenize(f.column) if not t.isdigit())
        named = len(header & reading.tokens)
        scores.append((named, named / len(header) if header else 0.0))
    best = max(scores)
    return figures if best[0] == 0 else [f for f, score in zip(figures, scores, strict=True) if score == best]


OPERATION = Lookup()
