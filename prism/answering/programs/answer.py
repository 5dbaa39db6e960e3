"""The program answer of one question: gather the operands, rank the candidate programs, execute the best, write it.

:func:`choose` reads the retrieved chunks' figures once (:func:`~prism.answering.programs.evidence.gather`), makes
every candidate program (:func:`~prism.answering.programs.ranker.candidates`) and ranks them
(:class:`~prism.answering.programs.ranker.Ranker`). A program answers when it *fits*: the question names its
figures (some word of each operand's label, or of its table's heading for a total) and, for a question the reader
takes for a sentence answer, the best program is a lookup the question names whole. When the best program is not
clearly ahead of the runner-up with another result (its share of the two's probability below
:data:`CLEAR_MARGIN`), the answer says how it read the question and gives the other reading too, instead of a
silent wrong figure.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from prism.answering.programs.evidence import Evidence, gather, period_only
from prism.answering.programs.features import stated_words
from prism.answering.programs.ranker import ACCEPT_FEATURES, FEATURES, Candidate, Ranker, candidates
from prism.answering.programs.tables import RowsOf
from prism.answering.programs.writing import write
from prism.answering.reading.segments import segments
from prism.types import Derived, RetrievedChunk
from prism.types.reading import Reading

if TYPE_CHECKING:
    from prism.index.embedder import PrismEmbedding

__all__ = ["CLEAR_MARGIN", "Choice", "choose", "program_answer"]

logger = logging.getLogger(__name__)

CLEAR_MARGIN = 0.75
"""The best program's share of its and the runner-up's probability below which the answer names both readings."""
_LABEL = FEATURES.index("label_share")
_LEAST = FEATURES.index("label_least")
_MATCH = FEATURES.index("unit_match")
_CLASH = FEATURES.index("unit_clash")
_COLUMN_NAMED = FEATURES.index("column_named")
_SENTENCE_INTENTS = frozenset({"reason", "description", "table_subject"})


def _named_by_column(candidate: Candidate, reading: Reading) -> bool:
    """Whether the column the candidate reads is named by the question and its rows need not be: every row labelled
    with a period only ("FY2025", "Q4 FY25 (Jan–Mar 2025)": a table of periods down, measures across; "How many UPI
    transactions …" names the column "Volume (crore transactions)"), or every item of a category compared for a
    question asking which item ("Which loan segment grew fastest?" over the "YoY growth" column names no segment)."""
    program = candidate.program
    whole_category = reading.expected_unit == "label" and program.option("over") == "items" \
        and len(program.operands) > 2
    return candidate.features[_COLUMN_NAMED] > 0.0 and (whole_category or all(
        o.source == "cell" and period_only(o.label) for o in program.operands))


@dataclass
class Choice:
    """The ranked programs of one question over one set of chunks.

    Attributes:
        ranked: the candidates, best first.
        evidence: the operands they were made from.
        chunks: the chunks the evidence was read from.
        accept: the accept model's weights (:data:`ACCEPT_FEATURES`), or ``None`` for the untrained rule.
        added: the chunks beyond the retrieved ones that ``chunks`` ends with (tables a sub-search found), which
            an answer citing them appends as sources.
    """

    ranked: list[Candidate] = field(default_factory=list)
    evidence: Evidence = field(default_factory=Evidence)
    chunks: Sequence[RetrievedChunk] = ()
    accept: Sequence[float] | None = None
    added: list[RetrievedChunk] = field(default_factory=list)

    @property
    def best(self) -> Candidate | None:
        """The best candidate, or ``None``."""
        return self.ranked[0] if self.ranked else None

    def runner_up(self) -> Candidate | None:
        """The best candidate of another operation or another result than the best, or ``None``. When the best
        gives the unit the question expects, a candidate whose unit clashes with it is no rival reading ("net income
        per share": the per-share figure, not net income itself)."""
        best = self.best
        if best is None:
            return None
        matched = best.features[_MATCH] > 0.0
        return next((c for c in self.ranked[1:] if c.result.text != best.result.text
                     and not (matched and c.features[_CLASH] > 0.0)), None)

    def accept_features(self, reading: Reading) -> np.ndarray:
        """The features of :data:`ACCEPT_FEATURES` for the best candidate (zeros without one)."""
        best = self.best
        if best is None:
            return np.zeros(len(ACCEPT_FEATURES))
        f = dict(zip(FEATURES, best.features, strict=True))
        return np.array([1.0, f["op_log_probability"], reading.probability("text"), f["label_share"],
                         f["label_least"], f["label_phrase"], f["label_named"], f["column_named"], f["period_cover"],
                         f["unit_match"], f["unit_clash"], f["render_cosine"], self.margin(),
                         1.0 if best.program.operation == "lookup" else 0.0, f["sentence"], f["unasked_total"],
                         f["coverage"], f["question_cover"], f["label_clash"]])

    def fits(self, reading: Reading) -> bool:
        """Whether the best program answers the question (module docstring): not for a question whose answer is a
        sentence (a cause, a description, what a table shows); always for a program over a whole table when the
        question asks about the table as a whole (its periods, its items); not when no operand's label shares a word
        with it (but in a table of periods down, whose column names the figure: :func:`_named_by_column`); not when
        it reads undated figures for a period the evidence dates the same row in but not in that period
        (:meth:`undated_elsewhere`); otherwise when the accept model (:attr:`accept`) gives it at least even odds of
        being right; untrained, when the reader expects a program, or a lookup whose row the question names whole."""
        best = self.best
        if best is None or reading.intent in _SENTENCE_INTENTS:
            return False
        if best.program.option("whole"):
            return True  # made only for a question about the table as a whole, which names none of its rows
        if self.undated_elsewhere(reading) or self.segment_unnamed(reading) or self.quarter_elsewhere(reading):
            return False
        if best.features[_LEAST] <= 0.0 and best.features[_LABEL] <= 0.0 and not _named_by_column(best, reading):
            return False
        if self.accept is None:
            return reading.operation != "text" or (best.program.operation == "lookup"
                                                   and best.features[_LEAST] >= 1.0)
        return float(self.accept_features(reading) @ np.asarray(self.accept)) >= 0.0

    def undated_elsewhere(self, reading: Reading) -> bool:
        """Whether the best program answers a question asking periods with figures of no known period while the
        evidence gives the same rows dated, in none of the periods asked: "Netflix's operating income in 2022" over
        a filing dating operating income 2013–2015 is not answered by an undated table's operating income."""
        from prism.answering.programs.periods import asked_periods, matches_period

        best, periods = self.best, asked_periods(reading)
        if best is None or not periods or any(o.period is not None for o in best.program.operands):
            return False
        labels = {o.label.strip().lower() for o in best.program.operands}
        dated = [f for r in self.evidence.rows if r.label.strip().lower() in labels for f in r.figures if f.period]
        return bool(dated) and not any(matches_period(p, f) for p in periods for f in dated)

    def quarter_elsewhere(self, reading: Reading) -> bool:
        """Whether the best program reads only figures of sentences that date them nowhere, from documents about one
        quarter (an earnings call's "Q2 FY2025"), none of them a quarter the question asks: "return on equity in Q1
        FY24" is not the Q2 FY25 call's "return on equity 15.1%"."""
        from prism.answering.programs.periods import asked_periods
        from prism.retrieval.periods import period_label

        best, periods = self.best, asked_periods(reading)
        if best is None or not periods or any(p.kind != "Q" for p in periods):
            return False
        operands = best.program.operands
        if any(o.source != "sentence" or o.column for o in operands):
            return False  # a cell, or a sentence naming its figure's period (not dated by its document's quarter)
        by_id = {c.chunk_id: c for c in self.chunks}
        chunks = [o.chunk or by_id.get(o.table.split("#")[0]) for o in operands]
        if any(c is None for c in chunks):
            return False
        quarters = {str(c.metadata.get("period") or "") for c in chunks if c is not None}
        if not all(q.startswith("Q") for q in quarters):
            return False  # a document of a year, or of no known period, may date its sentences' figures in any
        fye = next((c.metadata.get("fiscal_year_end") for c in chunks if c is not None), None)
        return not quarters & {period_label(p, str(fye) if fye else None) for p in periods}

    def segment_unnamed(self, reading: Reading) -> bool:
        """Whether the question asks a segment's figure ("the gross NPA ratio of the home loan segment", "the retail
        division's revenue") that the best program's figures are not of: the words naming the segment
        (:func:`~prism.answering.reading.segments.segments`) are not all among the program's rows' labels, headings,
        titles or columns. A bank-wide figure does not answer a segment's question, nor does another segment's
        ("personal loans" for "the home loan segment")."""
        best = self.best
        if best is None or not segments(reading):
            return False
        keys = {o.series for o in best.program.operands}
        covered = stated_words(best.program.operands, [r for r in self.evidence.rows if r.key in keys])
        return any(not words <= covered for words in segments(reading))

    def margin(self) -> float:
        """The best program's share of its and the runner-up's probability (1.0 without a runner-up)."""
        best, other = self.best, self.runner_up()
        if best is None or other is None:
            return 1.0
        return 1.0 / (1.0 + math.exp(other.score - best.score))


TableSearch = Callable[[], Sequence[RetrievedChunk]]
"""A focused search for table chunks in the retrieved chunks' documents (the engine's), best first."""
TABLES_ADDED = 3
"""How many tables a sub-search adds when the retrieved chunks hold none."""


def choose(reading: Reading, chunks: Sequence[RetrievedChunk], rows_of: RowsOf | None, *,
           embedder: PrismEmbedding | None = None, ranker: Ranker | None = None,
           tables: TableSearch | None = None) -> Choice:
    """Every candidate program over ``chunks``, ranked (module docstring). When the chunks hold no table row and the
    reader expects a program, the best :data:`TABLES_ADDED` table chunks of ``tables`` (a focused search in their
    documents) are read too and added to the choice's chunks (:attr:`Choice.added`): a question naming a quarter
    often retrieves the call's sentences about it, not the table holding its figure."""
    ranker = ranker or Ranker.load()
    evidence = gather(chunks, rows_of)
    added: list[RetrievedChunk] = []
    if tables is not None and rows_of is not None and reading.operation != "text" \
            and not any(r.figures[0].source == "cell" for r in evidence.rows):
        seen = {c.chunk_id for c in chunks}
        added = [c for c in tables() if c.metadata.get("table_id") and c.chunk_id not in seen][:TABLES_ADDED]
        if added:
            chunks = [*chunks, *added]
            evidence = gather(chunks, rows_of)
    if evidence.empty:
        return Choice(evidence=evidence, chunks=chunks, accept=ranker.accept, added=added)
    found = candidates(reading, evidence)
    ranked = ranker.rank(reading, found, embedder)
    logger.info("programs: %d candidates, best %s", len(ranked), ranked[0].program.operation if ranked else None)
    return Choice(ranked, evidence, chunks, ranker.accept, added)


def _understood(choice: Choice) -> str:
    """The line naming the reading taken and the runner-up, when the best is not clearly ahead."""
    best, other = choice.best, choice.runner_up()
    if best is None or other is None or choice.margin() >= CLEAR_MARGIN:
        return ""
    from prism.answering.programs.registry import OPERATIONS

    taken = OPERATIONS[best.program.operation].subject(best.program)
    alternative = OPERATIONS[other.program.operation].subject(other.program)
    return (f"Read as the {taken}. Another reading, the {alternative}, gives {other.result.text}"
            + (f" {other.result.aside}" if other.result.aside else "") + ".")


def program_answer(reading: Reading, choice: Choice) -> Derived | None:
    """The best program written as an answer (:func:`~prism.answering.programs.writing.write`), or ``None`` when
    it does not fit the question (:meth:`Choice.fits`)."""
    best = choice.best
    if best is None or not choice.fits(reading):
        return None
    return write(best.program, best.result, choice.chunks, reading, _understood(choice))
