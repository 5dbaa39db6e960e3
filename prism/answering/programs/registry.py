"""The registry of operations: one line each. Adding an operation is one module defining an
:class:`~prism.answering.programs.operation.Operation` and one line here."""

from __future__ import annotations

from prism.answering.programs.operation import Operation
from prism.answering.programs.operations import (
    average,
    cagr,
    change,
    count,
    listing,
    lookup,
    margin,
    maximum,
    minimum,
    per_share,
    percent_change,
    ratio,
    share,
    total,
    yes_no,
)

__all__ = ["OPERATIONS", "operation"]

OPERATIONS: dict[str, Operation] = {op.name: op for op in (
    lookup.OPERATION,
    listing.OPERATION,
    count.OPERATION,
    total.OPERATION,
    change.OPERATION,
    percent_change.OPERATION,
    ratio.OPERATION,
    share.OPERATION,
    average.OPERATION,
    cagr.OPERATION,
    margin.OPERATION,
    per_share.OPERATION,
    maximum.OPERATION,
    minimum.OPERATION,
    yes_no.OPERATION,
)}
"""Every operation by name, in a fixed order (features and reports follow it)."""


def operation(name: str) -> Operation:
    """The operation called ``name``.

    Raises:
        KeyError: no operation has that name.
    """
    return OPERATIONS[name]
