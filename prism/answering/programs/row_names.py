"""Operations a name in a table states or asks. A row's own name may hold an operation's words: "What was the Return
on Average Equity in 2017?" names the row "Return on Average Equity", it asks for no average. A column's header may
name the operation whose result its cells state: the "Change (%)" or "% of total" column of a table states each row's
change or share, so looking one up answers "What is the change (%) for order intake?" as computing it does. The
ranker (:mod:`prism.answering.programs.ranker`) gives the first the probability of an operation the question does not
ask and the second the probability of the operation it states, and training
(:mod:`prism.evaluation.training.train`) sets that feature through :func:`operation_log_probability` too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from prism.answering.programs.evidence import Evidence
from prism.answering.programs.operation import Program
from prism.answering.programs.registry import OPERATIONS
from prism.answering.reading.words import phrase_spans, words_of
from prism.answering.units import counts_things

__all__ = ["STATED", "column_states", "label_cued", "named_by_row", "operation_log_probability"]

STATED = ("change", "percent_change", "average", "sum", "cagr", "share", "margin")
"""The operations whose result a table prints as a column of its own ("Change", "% Change", "Average", "Total",
"CAGR", "% of total", "Margin"); a column never states a list, a count, an extreme or a yes/no."""


def label_cued(evidence: Evidence, words: Sequence[str]) -> dict[tuple[str, int], frozenset[str]]:
    """For each table row whose label the question writes (the label whole, or three of its words or more in a row),
    the operations whose every cue in the question (:attr:`~prism.answering.programs.operation.Operation.cues`) lies
    inside the words it writes: "What was the Return on Average Equity in 2017?" names the row "Return on Average
    Equity", it asks for no average; nor does "the change in valuation allowance in 2018" ask for a change (the row
    "Change in valuation allowance for deferred tax assets"), nor "the total revenue" for a sum."""
    asked = {name: found for name, op in OPERATIONS.items() if name != "lookup"
             if (found := [c for cue in op.cues for c in phrase_spans(cue, words)])}
    out: dict[tuple[str, int], frozenset[str]] = {}
    if not asked:
        return out
    for row in evidence.rows:
        if row.figures[0].source != "cell":
            continue  # a sentence is no name ("… $31.4 million and $28.5 million as of 2019 and 2018, respectively")
        spans = _label_runs(words_of(row.label), words)
        cued = frozenset(name for name, found in asked.items()
                         if spans and all(any(s <= a and b <= e for s, e in spans) for a, b in found))
        if cued:
            out[row.key] = cued
    return out


def _label_runs(label: Sequence[str], words: Sequence[str]) -> list[tuple[int, int]]:
    """The ``(start, end)`` word spans of the question that write a label of two words or more: whole, or three of
    its words or more in a row, two of them words, not numbers."""
    if len(label) < 2:
        return []
    least = min(3, len(label))
    spans = []
    for j in range(len(words)):
        for i in range(len(label)):
            k = 0
            while i + k < len(label) and j + k < len(words) and label[i + k] == words[j + k]:
                k += 1
            if k >= least and sum(1 for w in words[j:j + k] if w.isalpha()) >= 2:
                spans.append((j, j + k))
    return spans


def named_by_row(name: str, program: Program, cued: dict[tuple[str, int], frozenset[str]]) -> bool:
    """Whether operation ``name`` is asked only by words of the name of every row ``program`` reads
    (:func:`label_cued`)."""
    held = [cued.get(o.series) for o in program.operands]
    return name != "lookup" and bool(held) and all(h is not None and name in h for h in held)


def column_states(name: str, program: Program) -> frozenset[str]:
    """The operations (of :data:`STATED`) whose result a lookup ``program`` reads as printed: those whose cues
    (:attr:`~prism.answering.programs.operation.Operation.cues`) its cell's column header writes ("Change (%)" →
    ``change``; "% of total revenue" → ``share``, its "total" the share's whole), and ``count`` for a cell that
    states a count ("Number of …" rows, "Volume (crore transactions)": how many, read as printed), and ``share`` for
    a ratio printed as a percentage ("CASA ratio %": the share of deposits that are CASA). The ranker leaves
    out those the question writes only inside a row's name (:func:`label_cued`: "net change in cash balance" asks no
    change). Empty for any other program or a figure of a sentence."""
    if name != "lookup" or len(program.operands) != 1 or program.operands[0].source != "cell":
        return frozenset()
    cell = program.operands[0]
    words = words_of(cell.column)
    found = frozenset(op for op in STATED if any(phrase_spans(cue, words) for cue in OPERATIONS[op].cues))
    found = found - {"sum"} if len(found) > 1 else found  # "% of total": the total is the share's whole
    if cell.kind == "percent" and "ratio" in words_of(cell.label):
        found |= {"share"}  # "CASA ratio %": a ratio printed as a percentage is the share of one thing in another
    return found | {"count"} if cell.kind == "count" or counts_things(cell.column) else found


def operation_log_probability(probabilities: dict[str, float], name: str, named_by_row: bool,
                              stated: frozenset[str] = frozenset()) -> float:
    """A candidate's ``op_log_probability``: the log of the reader's probability of its operation
    (``probabilities``, :attr:`~prism.types.reading.Reading.operations` as a dict), or, for an operation asked only
    by words of the name of the rows it reads (``named_by_row``: "What was the Return on Average Equity in 2017?"
    asks for no average), of the least likely operation, as one the question does not ask; for a lookup of a cell
    whose column states an operation's result (``stated``, :func:`column_states`), of the likelier of the two.
    Training (:mod:`prism.evaluation.training.train`) sets the feature through this too, with its held-out
    probabilities."""
    p = min(probabilities.values(), default=0.0) if named_by_row else probabilities.get(name, 0.0)
    p = max([p, *(probabilities.get(op, 0.0) for op in stated)])
    return math.log(max(p, 1e-6))
