"""The arithmetic of derived figures: formulas over line items and fiscal periods, evaluated in :class:`Decimal`.

A formula is a small expression tree (never ``eval()``): :class:`Ref` names a line item in a period (a fixed one,
``"FY2019"``, or one relative to the period being computed: ``offset=-1`` is the year before), :class:`Op` is one of
``+ - * /`` over two expressions, :class:`Mean` is the arithmetic mean of its terms (the average inventory of two
year-ends). :func:`evaluate` computes an expression for one fiscal year from values keyed ``(item, period)`` in
one common unit; :func:`aggregate` computes a :class:`Plan` over its periods (one period, the mean of per-year values,
or the compound annual growth rate); :func:`present` scales and rounds the result as asked (ROUND_HALF_UP, the rounding
of the questions: "round to one decimal place").

Sources: CAGR = (last / first) ** (1 / years) − 1 (CFA Institute, *Quantitative Methods*, "compound growth rate");
a change in basis points = (new − old) × 10,000 for ratios (1 bp = 0.01 %).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, DivisionByZero, InvalidOperation, localcontext
from typing import Literal, Union

from prism.vocabulary.units import SCALE

logger = logging.getLogger(__name__)

__all__ = ["Expr", "Mean", "Op", "Plan", "Ref", "aggregate", "evaluate", "present", "refs", "render",
           "shift_period", "shifted"]

ResultKind = Literal["ratio", "percent", "amount", "bps"]
"""How a result is shown: a plain ratio (0.66, 6.25), a percentage (×100, "%"), an amount (a currency figure in
the inputs' unit or the one asked), or basis points (×10,000, "bps")."""

_FY = re.compile(r"FY(\d{4})")


@dataclass(frozen=True)
class Ref:
    """One input: a line item (a key of :data:`prism.index.statements.ITEMS`) in a fiscal period.

    Attributes:
        item: the line item's key (``"revenue"``).
        offset: years relative to the period computed (0: that year, -1: the year before); used when ``period`` is
            ``None``.
        period: a fixed fiscal period (``"FY2019"``), whatever the period computed.
    """

    item: str
    offset: int = 0
    period: str | None = None

    def at(self, period: str) -> str:
        """The fiscal period this input is read for when ``period`` is computed (``"FY2018"``)."""
        return self.period or shift_period(period, self.offset)


@dataclass(frozen=True)
class Op:
    """``left <op> right`` with ``op`` one of ``+ - * /``."""

    op: Literal["+", "-", "*", "/"]
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Mean:
    """The arithmetic mean of ``terms`` (at least one)."""

    terms: tuple[Expr, ...]


Expr = Union[Ref, Op, Mean]  # noqa: UP007 - a runtime alias of a forward-referenced union


@dataclass(frozen=True)
class Plan:
    """What to compute: a named formula, the periods it runs over and how the per-period values combine.

    Attributes:
        metric: the metric's name as shown ("operating margin").
        expr: the formula for one period.
        periods: fiscal periods (``"FY2018"``), oldest first; one for a single-period metric.
        how: ``"single"`` (the one period), ``"average"`` (mean of the per-period values) or ``"cagr"``
            (compound annual growth of the formula's value from the first period to the last).
        kind: how the result is shown (:data:`ResultKind`).
        decimals: decimal places of the shown result (``≥ 0``).
        unit: the unit an amount is shown in (``"millions"``), ``None`` for the inputs' own unit.
        source: where the definition comes from ("the question", or the standard definition's reference).
    """

    metric: str
    expr: Expr
    periods: tuple[str, ...]
    how: Literal["single", "average", "cagr"] = "single"
    kind: ResultKind = "ratio"
    decimals: int = 2
    unit: str | None = None
    source: str = "the question"


def shift_period(period: str, years: int) -> str:
    """``"FY2019"`` shifted by ``years`` (``-1`` → ``"FY2018"``); other labels only with ``years == 0``.

    Raises:
        ValueError: a non-zero shift of a label that is not a fiscal year (a quarter, a date).
    """
    if years == 0:
        return period
    m = _FY.fullmatch(period)
    if m is None:
        raise ValueError(f"cannot shift the period {period!r} by {years} year(s): only fiscal years (FY2019) shift")
    return f"FY{int(m.group(1)) + years}"


def shifted(expr: Expr, years: int) -> Expr:
    """``expr`` with every relative input moved by ``years`` (inputs with a fixed period stay)."""
    if isinstance(expr, Ref):
        return expr if expr.period else Ref(expr.item, expr.offset + years)
    if isinstance(expr, Mean):
        return Mean(tuple(shifted(t, years) for t in expr.terms))
    return Op(expr.op, shifted(expr.left, years), shifted(expr.right, years))


def refs(expr: Expr) -> Iterator[Ref]:
    """The expression's inputs, left to right (repeats kept)."""
    if isinstance(expr, Ref):
        yield expr
    elif isinstance(expr, Op):
        yield from refs(expr.left)
        yield from refs(expr.right)
    else:
        for term in expr.terms:
            yield from refs(term)


def evaluate(expr: Expr, period: str, values: Mapping[tuple[str, str], Decimal]) -> Decimal:
    """The expression's value for ``period`` from ``values[(item, period)]``, all in one unit.

    Raises:
        KeyError: an input is not in ``values``.
        ZeroDivisionError: a division by zero (a zero denominator is never a figure to report).
    """
    if isinstance(expr, Ref):
        return values[(expr.item, expr.at(period))]
    if isinstance(expr, Mean):
        return sum((evaluate(t, period, values) for t in expr.terms), Decimal(0)) / len(expr.terms)
    left, right = evaluate(expr.left, period, values), evaluate(expr.right, period, values)
    if expr.op == "+":
        return left + right
    if expr.op == "-":
        return left - right
    if expr.op == "*":
        return left * right
    if right == 0:
        raise ZeroDivisionError("division by zero in a derived figure")
    return left / right


def aggregate(plan: Plan, values: Mapping[tuple[str, str], Decimal]) -> tuple[Decimal, list[Decimal]]:
    """The plan's raw result (a ratio, not yet ×100) and the per-period values it came from (``plan.periods``
    order).

    ``average``: the mean of the per-period values; ``cagr``: ``(last / first) ** (1 / (n - 1)) - 1`` over ``n``
    periods; ``single``: the one value.

    Raises:
        KeyError, ZeroDivisionError: as :func:`evaluate`; ``ValueError``: a CAGR over fewer than two periods or
        from a non-positive first value.
    """
    per = [evaluate(plan.expr, p, values) for p in plan.periods]
    if plan.how == "average":
        return sum(per, Decimal(0)) / len(per), per
    if plan.how == "cagr":
        if len(per) < 2 or per[0] <= 0 or per[-1] < 0:
            raise ValueError("a CAGR needs two periods and positive values")
        with localcontext() as ctx:
            ctx.prec = 28
            try:
                growth = (per[-1] / per[0]) ** (Decimal(1) / (len(per) - 1)) - 1
            except (InvalidOperation, DivisionByZero) as exc:
                raise ValueError("a CAGR could not be computed from these values") from exc
        return growth, per
    return per[-1], per


def present(value: Decimal, kind: ResultKind, decimals: int, *, unit: str | None = None,
            from_unit: str | None = None) -> Decimal:
    """``value`` as shown: ×100 for a percent, ×10,000 for basis points, an amount converted from ``from_unit`` to
    ``unit`` (both keys of ``thousands``/``millions``/``billions``/``lakh``/``crore`` or ``None``: unchanged), rounded
    half up to ``decimals`` places."""
    if kind == "percent":
        value *= 100
    elif kind == "bps":
        value *= 10000
    elif kind == "amount" and unit in SCALE and from_unit in SCALE:
        value = value * SCALE[from_unit] / SCALE[unit]
    return value.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def unit_scale(unit: str | None) -> Decimal:
    """The multiplier of a table unit (``"thousands"`` → 1,000); 1 for ``None`` or an unknown unit."""
    return SCALE.get(unit or "", Decimal(1))


def render(expr: Expr, names: Mapping[str, str], *, top: bool = True) -> str:
    """The formula in words: ``"(operating income + depreciation and amortization) / revenue"``; an input with a
    fixed period or an offset names it (``"inventory FY2018"``, ``"inventory (year before)"``)."""
    if isinstance(expr, Ref):
        name = names.get(expr.item, expr.item)
        if expr.period:
            return f"{name} {expr.period}"
        return f"{name} (year before)" if expr.offset == -1 else name if expr.offset == 0 else \
            f"{name} (year {expr.offset:+d})"
    if isinstance(expr, Mean):
        return "average(" + ", ".join(render(t, names) for t in expr.terms) + ")"
    text = f"{render(expr.left, names, top=False)} {expr.op} {render(expr.right, names, top=False)}"
    return text if top or expr.op in "*/" else f"({text})"


def substitute(expr: Expr, period: str, shown: Mapping[tuple[str, str], str], *, top: bool = True) -> str:
    """The formula with each input replaced by its value as shown (``shown[(item, period)]``): ``"305,826 /
    6,779,511"``."""
    if isinstance(expr, Ref):
        return shown[(expr.item, expr.at(period))]
    if isinstance(expr, Mean):
        return "average(" + ", ".join(substitute(t, period, shown) for t in expr.terms) + ")"
    left = substitute(expr.left, period, shown, top=False)
    text = f"{left} {expr.op} {substitute(expr.right, period, shown, top=False)}"
    return text if top or expr.op in "*/" else f"({text})"


def needed(plan: Plan) -> list[tuple[str, str]]:
    """Every ``(item, period)`` the plan reads, without repeats, in the order first needed (periods oldest first)."""
    out: dict[tuple[str, str], None] = {}
    for period in plan.periods:
        for ref in refs(plan.expr):
            out[(ref.item, ref.at(period))] = None
    return list(out)


def common_unit(units: Sequence[str | None]) -> str | None:
    """The smallest of the inputs' units (every input converts to it exactly): ``["millions", "thousands"]`` →
    ``"thousands"``; ``None`` when no input states one."""
    known = [u for u in units if u in SCALE]
    return min(known, key=lambda u: SCALE[u]) if known else None
