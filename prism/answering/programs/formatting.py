"""Results written as an analyst reads them, by their kind — never by a word near the figure.

* an **amount** keeps its operands' currency and scale, grouped: ``-$12.6 million``, ``₹4,812.36 crore``; a
  ``per_unit`` amount (per share) its currency without the table's scale; an amount or number whose figure is
  printed in lakh groups is written in them (``₹1,00,000``, ``₹3,84,250 crore``);
* a **percent** is written ``-22.22 %``; a change of percentages is in **points** with its basis points beside it
  (``-0.19 percentage points (-19 bps)``; 1 bp = 0.01 percentage point), or in **bps** when asked;
* a **ratio** has no unit (``2.93``); a **count** and a bare **number** are written bare (``1,384``).

Rounding is half-up (:data:`~decimal.ROUND_HALF_UP`), the rounding financial statements use: amounts at their
inputs' decimals, percents, points and ratios at two decimals, a mean at two decimals more than its inputs with the
trailing zeros beyond them dropped (the mean of 1,671 and 1,612 is 1,641.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import ROUND_HALF_UP, Decimal

from prism.answering.programs.operation import Kind, Operand, shown_decimals
from prism.answering.units import label_unit
from prism.vocabulary.currencies import SYMBOL
from prism.vocabulary.number_formats import grouped, lakh_grouped
from prism.vocabulary.units import SCALE, SPOKEN

__all__ = ["added", "commensurable", "common_scale", "mean_shown", "rounded", "written"]


def rounded(value: Decimal, decimals: int) -> Decimal:
    """``value`` rounded half-up to ``decimals`` places."""
    return value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def mean_shown(raw: Decimal, decimals: int) -> Decimal:
    """A mean as shown: two decimals more than its inputs, trailing zeros beyond the inputs' decimals dropped."""
    shown = rounded(raw, decimals + 2)
    while -int(shown.as_tuple().exponent) > decimals and shown == rounded(shown, -int(shown.as_tuple().exponent) - 1):
        shown = rounded(shown, -int(shown.as_tuple().exponent) - 1)
    return shown


def common_scale(operands: Sequence[Operand]) -> tuple[list[Decimal], str | None]:
    """The operands' values in one scale — the smallest any of them states (thousands and millions → thousands) —
    and that scale; values as printed when none states a scale or they are percentages or per-unit figures."""
    scales = {o.unit for o in operands if o.unit in SCALE and o.kind in ("amount", "number")}
    if len(scales) <= 1:
        return [o.value for o in operands], next(iter(scales), None)
    smallest = min(scales, key=lambda u: SCALE[u])
    return [o.value * SCALE[o.unit] / SCALE[smallest] if o.unit in SCALE else o.value for o in operands], smallest


def _number(value: Decimal, lakh: bool = False) -> str:
    return grouped(value, lakh=lakh)


def written(value: Decimal, kind: Kind, like: Operand | None = None, unit: str | None = None) -> str:
    """``value`` (already rounded) written as its kind is written (module docstring); ``like`` gives an amount's
    currency, ``unit`` its scale (default ``like``'s); a number of a row whose label states its unit is written in it
    ("175 crore transactions": :func:`~prism.answering.units.label_unit`)."""
    if kind == "percent":
        return f"{_number(value)} %"
    if kind == "points":
        bps = (value * 100).normalize()
        sign = "-" if value < 0 else ""
        return f"{points(value)} ({sign}{abs(bps):f} bps)"
    if kind == "bps":
        return f"{_number(value)} bps"
    lakh = like is not None and lakh_grouped(like.printed)  # "₹1,00,000" is written back as printed, not "100,000"
    if kind == "number" and like is not None and like.source == "cell" and (stated := label_unit(like.label)):
        symbol, words = stated  # the row states its unit: "Volume (crore transactions)" → 612 crore transactions
        return f"{'-' if value < 0 else ''}{symbol}{_number(abs(value), lakh)}" + (f" {words}" if words else "")
    if kind in ("ratio", "count", "number") or like is None:
        return _number(value, lakh)
    symbol = SYMBOL.get(like.currency or "", "")
    if not symbol:
        symbol = next((s for s in SYMBOL.values() if s in like.printed), "")
    scale = unit if unit is not None else like.unit
    spoken = f" {SPOKEN[scale]}" if kind == "amount" and scale in SPOKEN else ""
    sign = "-" if value < 0 else ""
    return f"{sign}{symbol}{_number(abs(value), lakh)}{spoken}"


def points(value: Decimal) -> str:
    """A change of percentages (already rounded) in percentage points: "-0.06 percentage points"."""
    return f"{_number(value)} percentage points"


def amount_decimals(operands: Sequence[Operand]) -> int:
    """The decimals an amount computed from ``operands`` is shown with: theirs (:func:`~.operation.shown_decimals`)."""
    return shown_decimals(operands)


def added(operands: Sequence[Operand]) -> str:
    """Figures as printed, added up in the work line: one figure alone, several in brackets ("(3,287.0 + 2,753.0)")."""
    shown = [o.printed.strip() for o in operands]
    return shown[0] if len(shown) == 1 else f"({' + '.join(shown)})"


def commensurable(operands: Sequence[Operand]) -> bool:
    """Whether figures may be divided one by another: all percentages or none (a percentage over an amount, "Gross
    NPA 1.74 % / Gross advances ₹3,84,250 crore", is no ratio and no share of anything)."""
    percents = {o.kind == "percent" for o in operands}
    return len(percents) == 1
