"""The number check's part for computed figures: a figure an answer states is accepted when recomputing the program
from the cells it read gives it.

:func:`accept_derived` removes from the unsupported figures (:mod:`prism.answering.figures`) those a computed figure's
work states: a percent (or bps) figure equal to the result or one period's value (recomputed from the inputs read
from the cited cells, :attr:`~prism.types.Derived.raw` / :attr:`~prism.types.Derived.per_period`) within the rounding
it is written with (half a unit of its last decimal) plus ``tolerance`` percent points; an amount the same in its own
scale; a figure equal to one of the inputs (a cell of :attr:`~prism.types.Calculation.inputs`, in its table's unit);
a percent figure equal to a percentage change stated beside an amount change (:attr:`~prism.types.Derived.
percents`). Everything else stays unsupported, so a wrong result is still reported.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from prism.answering.figures import Figure, extract_figures
from prism.answering.programs.numbers import cell_number
from prism.types import Derived
from prism.vocabulary.units import SCALE

__all__ = ["accept_derived"]


def _scale(unit: str | None) -> Decimal:
    return SCALE.get(unit or "", Decimal(1))


def _rounding(figure: Figure) -> float:
    """Half a unit of the figure's last written digit, in the units of its ``value``: a computed figure is rounded,
    so "-280 bps" states -280.36 bps and "$1,832 million" states 1,831.6."""
    number = re.search(r"\d[\d,]*(?:\.(\d+))?", figure.text)
    decimals = len(number.group(1) or "") if number else 0
    scale = figure.value / figure.mantissa if figure.mantissa else 1.0
    return 0.5 * 10 ** (-decimals) * scale


def accept_derived(derived: Derived | None, unsupported: Sequence[str], tolerance: float = 0.0, *,
                   result_only: bool = False) -> list[str]:
    """The unsupported figures minus those the derived figure's work states and recomputing confirms (module
    docstring); ``result_only`` accepts the result alone (no period's value, no input, no percentage beside it)."""
    if derived is None or derived.raw is None:
        return list(unsupported)
    scale = {"percent": 100, "bps": 100, "ratio": 1, "amount": 1}.get(derived.kind, 1)
    targets = [float(v) * scale for v in (derived.raw, *(() if result_only else derived.per_period))]
    if derived.kind == "amount":
        units = [i.unit for i in derived.calculation.inputs if i.unit in SCALE]
        smallest = min(units, key=lambda u: SCALE[u]) if units else None
        targets = [t * float(_scale(smallest)) for t in targets]
    if not result_only:
        targets += [float(n * _scale(i.unit)) for i in derived.calculation.inputs
                    if (n := cell_number(i.value.rstrip("%").strip())) is not None]
    percents = [] if result_only else [float(p) * 100 for p in derived.percents]
    kept = []
    for text in unsupported:
        figures = extract_figures(text)
        ok = bool(figures) and all(any(abs(f.value - abs(t)) <= _rounding(f) + tolerance + 1e-9 * abs(t)
                                       for t in (targets + percents if f.kind == "percent" else targets))
                                   for f in figures)
        if not ok:
            kept.append(text)
    return kept
