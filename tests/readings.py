"""Questions read by the real question reader (:class:`prism.answering.reading.reader.Reader`, its packaged model,
no embedder), for tests of what a reading gives the later stages (the answer target, the flags)."""

from __future__ import annotations

import functools
from typing import Any

from prism.answering.programs import binding
from prism.answering.programs.evidence import Evidence, Row
from prism.answering.programs.numbers import cell_number
from prism.answering.programs.operation import Operand
from prism.answering.reading.reader import Reader
from prism.index.tokenizer import tokenize
from prism.retrieval.scope import DocumentCatalog
from prism.types.questions import AnswerTarget
from prism.types.reading import Reading


@functools.cache
def _reader() -> Reader:
    """One reader for the session (it keeps only its model)."""
    return Reader()


def read(question: str, catalog: DocumentCatalog | None = None) -> Reading:
    """The reading of ``question``, its entities read against ``catalog``'s profiles
    (:func:`prism.retrieval.scope.catalog_of`, as the engine reads a question in a workspace); with no catalog, no
    entities are read."""
    return _reader().read(question, catalog)


def target_of(question: str) -> AnswerTarget | None:
    """The expected answer type and focus the reader gives ``question`` (``None`` when no typed value answers it)."""
    return read(question).target


def table_evidence(*rows: tuple[str, str]) -> Evidence:
    """One table, one figure per row (``(label, cell)``, column FY24), as
    :func:`prism.answering.programs.evidence.gather` reads a retrieved table: a row without a cell (``""``) is a
    section label and holds no figure."""
    out = []
    for i, (label, cell) in enumerate(rows):
        value = cell_number(cell) if cell else None
        figures = () if value is None else (Operand(label, "FY24", "FY2024", (2024, 0), cell, value, None, None,
                                                    "amount", 1, table="t", row=i, col=0),)
        if figures:
            out.append(Row(("t", i), label, frozenset(tokenize(label)), figures))
    return Evidence(rows=out)


def row_named(question: str, evidence: Evidence) -> str | None:
    """The label of the row a program binds ``question`` to first (:func:`prism.answering.programs.binding.rows`),
    or ``None`` when no row is named."""
    named = binding.rows(read(question), evidence)
    return named[0].label if named else None


def metric_plan(question: str) -> Any:
    """The statement metric plan the reader reads in ``question`` (its first, for no fiscal year end:
    :attr:`~prism.types.reading.Reading.plans`), or ``None`` when it names none."""
    plans = read(question).plans
    return plans[0][1] if plans else None


_OPERATION_WORDS = ("percentage change in ", "change in ", "average in ", "total in ", "ratio of ")


def heading_states(heading: str, expected: str) -> bool:
    """Whether an answer's first line states the figure ``expected`` states, in any wording: ``expected`` is
    written ``"<operation> <row>, <periods> = <result>"`` ("change in Net income, 2014 to 2015 = -$144,158
    thousand (-54.03 %)"); the heading must end with the result (after ``": "`` or ``" = "``) and name the row."""
    what, result = expected.rsplit(" = ", 1)
    for words in _OPERATION_WORDS:
        if what.lower().startswith(words):
            what = what[len(words):]
            break
    row = what.split(", ")[0]
    ends = heading.endswith(f": {result}") or heading.endswith(f" = {result}")
    return ends and row.lower() in heading.lower()
