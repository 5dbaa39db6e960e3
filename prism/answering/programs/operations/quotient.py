"""The division both ``share`` and ``ratio`` are: (A1 + … + An) / B, with the parts added up before the division
(one part for most questions; several joined by "and": ``Program.parts``). Not an operation of its own (the registry
lists ``share`` and ``ratio``); each subclass states its unit, its scale (× 100 for a share) and its bindings.

Unit rule shared by both: a percentage is never divided by an amount, nor an amount by a percentage
(:func:`~prism.answering.programs.formatting.commensurable`); a division by zero is undefined.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import ClassVar, Literal

from prism.answering.programs.evidence import Evidence
from prism.answering.programs.formatting import added, commensurable, common_scale, rounded, written
from prism.answering.programs.operation import Operation, Program, Result
from prism.types.reading import Reading


class Quotient(Operation):
    """(A1 + … + An) / B × :attr:`factor`, shown to two decimals in :attr:`kind`. Subclasses give
    :meth:`candidate_bindings`; :meth:`bindings` keeps the commensurable ones.

    Raises (from :meth:`run`):
        ZeroDivisionError: B is zero (the candidate is dropped).
    """

    kind: ClassVar[Literal["percent", "ratio"]]
    factor: ClassVar[Decimal] = Decimal(1)

    def bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        for program in self.candidate_bindings(reading, evidence):
            if commensurable(program.operands):
                yield program

    def candidate_bindings(self, reading: Reading, evidence: Evidence) -> Iterator[Program]:
        """The programs the evidence allows, before the unit rule."""
        raise NotImplementedError

    def run(self, program: Program, reading: Reading) -> Result:
        parts, (b,) = program.parts
        values, _ = common_scale(program.operands)
        va, vb = sum(values[:-1], Decimal(0)), values[-1]
        if vb == 0:
            raise ZeroDivisionError(f"a {self.name} over zero")
        raw = va / vb
        shown = rounded(raw * self.factor, 2)
        text = written(shown, self.kind)
        scaled = f" × {self.factor}" if self.factor != 1 else ""
        return Result(raw, shown, self.kind, text, work=f"{added(parts)} / {b.printed}{scaled} = {text}")
