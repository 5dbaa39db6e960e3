"""A derived figure with its work: the metric, the formula, the inputs read from cited table cells, the result; and
one figure quoted from a table cell (:class:`CellQuote`)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from prism.types.retrieval import RetrievedChunk


@dataclass(frozen=True)
class CalculationInput:
    """One input of a derived figure, read from a table cell.

    Attributes:
        line_item: the line item ("operating income"); label: the row label as printed ("Operating income (loss)").
        period: the fiscal period (``"FY2015"``).
        value: the cell as printed (``"305,826"``, ``"(1,837)"``).
        unit: ``thousands``, ``millions`` … or ``None``; currency: ISO 4217 or ``None``.
        citation: the answer's citation number ``[n]`` of the chunk holding the cell.
    """

    line_item: str
    label: str
    period: str
    value: str
    unit: str | None
    currency: str | None
    citation: int

    def to_dict(self) -> dict[str, Any]:
        """``{"line_item", "label", "period", "value", "unit", "currency", "citation"}``."""
        return {"line_item": self.line_item, "label": self.label, "period": self.period, "value": self.value,
                "unit": self.unit, "currency": self.currency, "citation": self.citation}


@dataclass(frozen=True)
class Calculation:
    """A derived figure computed in code from cited inputs (``ask --json``'s ``"calculation"``).

    Attributes:
        metric: the metric as named ("EBITDA margin", "3-year average capital expenditures as a % of revenue").
        formula: the formula in words ("(operating income + depreciation and amortization) / revenue").
        source: where the definition comes from ("the question", or a standard definition's reference).
        periods: the fiscal periods it runs over, oldest first.
        inputs: the inputs found, each with its citation.
        result: the result as shown (``"5.4 %"``, ``"0.66"``, ``"$1,832 million"``), or ``None`` when an input is
            missing (then no number is given).
        value: the shown result as a number (percent points for a percent), or ``None``.
        missing: the inputs not found ("FY2018 inventory"), empty when computed.
    """

    metric: str
    formula: str
    source: str
    periods: tuple[str, ...]
    inputs: tuple[CalculationInput, ...]
    result: str | None
    value: float | None
    missing: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """``{"metric", "formula", "source", "periods", "inputs": [...], "result", "value", "missing"}``."""
        return {"metric": self.metric, "formula": self.formula, "source": self.source, "periods": list(self.periods),
                "inputs": [i.to_dict() for i in self.inputs], "result": self.result, "value": self.value,
                "missing": list(self.missing)}


@dataclass(frozen=True)
class Derived:
    """One derived figure worked out: the answer's heading and lines, the chunks added, the calculation.

    Attributes:
        heading: the answer's first line (the label and the result, or why it cannot be computed).
        lines: ``(text, block n)`` per input and per step of the work (block numbers count ``chunks + extra``).
        extra: chunks holding inputs that were not among the retrieved ones (appended as sources).
        calculation: the :class:`Calculation` (citations are the answer's numbers).
        per_period: each period's raw value (a ratio, not ×100), for the number check.
        raw: the unrounded result, or ``None`` when an input is missing.
        kind: the result kind (``ratio``, ``percent``, ``bps`` or ``amount``), for the number check.
        percents: the percentage changes stated beside an amount change ("-$144,158 thousand (-54.03 %)"), as
            ratios (-0.5403), for the number check: a percent figure equal to one is accepted.
    """

    heading: str
    lines: list[tuple[str, int]]
    extra: list[RetrievedChunk]
    calculation: Calculation
    per_period: tuple[Decimal, ...] = ()
    raw: Decimal | None = None
    kind: str = "ratio"
    percents: tuple[Decimal, ...] = ()


@dataclass(frozen=True)
class CellQuote:
    """One figure read from a table cell.

    Attributes:
        n: the retrieved chunk's 1-based position (its block number, the citation).
        label: the row label as printed ("Net income").
        value: the cell as printed ("122,641", "(1,837)"), a decimal comma's written with a point ("(612.8)" for
            "(612,8)": :meth:`~prism.types.ChunkTable.with_decimal_point`).
        column: the column header as printed ("2015", "December 31, 2018").
        period: the column's fiscal period (``"FY2015"``) or ``None`` when the header names none.
        unit: ``thousands``, ``millions``, ``billions``, ``lakh``, ``crore`` or ``None``: the table's, else its
            column's ("2019 $’000", :func:`prism.vocabulary.units.column_unit`).
        currency: ISO 4217 code or ``None``.
        title: the table's statement heading or caption, or ``None``.
        chunk: the chunk holding the cell when it is another chunk of the retrieved chunk ``n``'s table (not
            retrieved itself), else ``None``.
        ambiguous: the table's number convention was not settled by its cells ("1.246": 1,246 or 1.246); the
            quote says so (:data:`prism.vocabulary.number_formats.AMBIGUOUS_NOTE`).
    """

    n: int
    label: str
    value: str
    column: str
    period: str | None
    unit: str | None
    currency: str | None
    title: str | None
    chunk: RetrievedChunk | None = None
    ambiguous: bool = False
