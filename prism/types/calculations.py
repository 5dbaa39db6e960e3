"""A derived figure with its work: the metric, the formula, the inputs read from cited table cells, the result."""

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
class Heading:
    """An answer's first line as a structured value, never re-parsed from its text.

    Attributes:
        subject: what the result is ("Percentage change in Other, 2018 to 2019", "Year with the highest revenue").
        result: the result as written ("-22.22 %", "2019"), or why there is none ("cannot be computed").
        aside: what is written beside the result ("(-$12.6 million)"), or ``""``.
        lead: a word written first ("Yes", "No"), or ``""``.
    """

    subject: str
    result: str
    aside: str = ""
    lead: str = ""

    @property
    def text(self) -> str:
        """The line as shown: ``"[lead — ]subject: result[ aside]"``."""
        body = f"{self.subject}: {self.result}" + (f" {self.aside}" if self.aside else "")
        return f"{self.lead} — {body}" if self.lead else body

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Derived:
    """One derived figure worked out: the answer's heading and lines, the chunks added, the calculation.

    Attributes:
        heading: the answer's first line (:class:`Heading`: what, the result, what is beside it).
        lines: ``(text, block n)`` per input and per step of the work (block numbers count ``chunks + extra``).
        extra: chunks holding inputs that were not among the retrieved ones (appended as sources).
        calculation: the :class:`Calculation` (citations are the answer's numbers).
        per_period: each period's raw value (a ratio, not ×100), for the number check.
        raw: the unrounded result, or ``None`` when an input is missing.
        kind: the result kind (``ratio``, ``percent``, ``bps`` or ``amount``), for the number check.
        percents: the percentage changes stated beside an amount change ("-$144,158 thousand (-54.03 %)"), as
            ratios (-0.5403), for the number check: a percent figure equal to one is accepted.
        understood: a line saying how the question was read and the runner-up reading, when the reading was not
            clearly ahead of it (written after the heading), or ``""``.
    """

    heading: Heading
    lines: list[tuple[str, int]]
    extra: list[RetrievedChunk]
    calculation: Calculation
    per_period: tuple[Decimal, ...] = ()
    raw: Decimal | None = None
    kind: str = "ratio"
    percents: tuple[Decimal, ...] = ()
    understood: str = ""
