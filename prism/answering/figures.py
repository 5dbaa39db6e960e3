"""The number check: every figure in an answer must be found in the blocks it cites.

A *figure* is a number with a currency (``₹``, ``Rs.``, ``INR``, ``$``, ``USD``, ``€``), a scale unit (``thousand``,
``lakh``/``lac``, ``crore``/``cr``, ``million``/``mn``, ``billion``/``bn``, ``trillion``/``tn``, compounded:
``lakh crore``) or a percentage (``%``, ``per cent``, ``percent``, ``bps``). Bare numbers (years, section numbers,
days) are not figures. Values are normalised: 1 lakh = 1e5, 1 crore = 1e7, million = 1e6, billion = 1e9,
``₹8.4 lakh crore`` = 8.4e12, Indian grouping ``1,00,000`` = 1e5; ``25 bps`` = 0.25 %.

Two figures match when they are of the same kind (amount or percent), their currencies do not conflict (a figure
without currency matches any), and they differ by at most half a unit in the last digit the answer states
(rounding: "₹8.4 lakh crore" is supported by "₹8.42 lakh crore" but not by "₹8.46 lakh crore"; a whole number must
match exactly: "₹1 lakh" is not supported by "₹1.4 lakh"), or by a relative 1e-9. A figure also matches a bare
number in a cited block when the block states the figure's scale unit as a phrase of its own and its currency
(tables state units once, in a header: "Value (₹ lakh crore) … 8.40" supports "₹8.4 lakh crore" but not "8.4
lakh").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass

from prism.answering.citations import sentences_with_refs

logger = logging.getLogger(__name__)

UNIT_VALUES: dict[str, float] = {
    "thousand": 1e3,
    "lakh": 1e5,
    "crore": 1e7,
    "million": 1e6,
    "billion": 1e9,
    "trillion": 1e12,
}
_UNIT_ALIASES: dict[str, str] = {
    "thousand": "thousand", "thousands": "thousand",
    "lakh": "lakh", "lakhs": "lakh", "lac": "lakh", "lacs": "lakh",
    "crore": "crore", "crores": "crore", "cr": "crore",
    "million": "million", "millions": "million", "mn": "million",
    "billion": "billion", "billions": "billion", "bn": "billion",
    "trillion": "trillion", "trillions": "trillion", "tn": "trillion",
}
_CURRENCIES: dict[str, str] = {"₹": "INR", "rs": "INR", "rs.": "INR", "inr": "INR", "$": "USD", "usd": "USD",
                               "us$": "USD", "€": "EUR", "eur": "EUR"}

_CUR = r"(?P<cur>₹|\bRs\.?|\bINR|\bUS\$|\bUSD|\$|€|\bEUR)"
_NUM = r"(?P<num>\d{1,3}(?:,\d{2}(?=,))*(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
_UNIT_WORD = r"(?:thousands?|lakhs?|lacs?|crores?|cr|millions?|mn|billions?|bn|trillions?|tn)"
_UNITS = rf"(?P<units>(?:[ \t]*-?[ \t]*{_UNIT_WORD}\b)*)"
_PCT = r"(?P<pct>[ \t]*(?:%|per[ \t]?cent\b|percent\b|bps\b|basis points\b))?"
FIGURE_RE = re.compile(rf"(?:{_CUR}[ \t]*|(?<![\w.,])){_NUM}(?![\w]){_UNITS}{_PCT}", re.IGNORECASE)
_BARE_RE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{2}(?=,))*(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\d])")
_MARKER_RE = re.compile(r"\[[Ww]?\d{1,3}(?:\s*[,;–-]\s*[Ww]?\d{1,3})*\]")


@dataclass(frozen=True)
class Figure:
    """One figure as written and normalised.

    Attributes:
        text: the figure as written (e.g. ``"₹8.4 lakh crore"``).
        value: normalised value (rupees/dollars/units, or percent points for ``percent``).
        kind: ``amount`` or ``percent``.
        currency: ``INR``, ``USD``, ``EUR`` or ``None``.
        tolerance: half a unit of the last stated decimal digit (0 for whole numbers), in the units of ``value``.
        mantissa: the number as written, without grouping commas.
        units: the scale unit words, canonical (``("lakh", "crore")``).
    """

    text: str
    value: float
    kind: str
    currency: str | None
    tolerance: float
    mantissa: float
    units: tuple[str, ...]


def _decimals(num: str) -> int:
    return len(num.split(".", 1)[1]) if "." in num else 0


def extract_figures(text: str) -> list[Figure]:
    """Every figure in ``text`` (citation markers ignored), in order of appearance."""
    text = _MARKER_RE.sub(" ", text)
    figures = []
    for m in FIGURE_RE.finditer(text):
        cur_raw, num, units_raw, pct_raw = m.group("cur"), m.group("num"), m.group("units"), m.group("pct")
        units = tuple(_UNIT_ALIASES[u.lower()] for u in re.findall(_UNIT_WORD, units_raw or "", re.IGNORECASE))
        if not (cur_raw or units or pct_raw):
            continue
        mantissa = float(num.replace(",", ""))
        scale = 1.0
        for u in units:
            scale *= UNIT_VALUES[u]
        decimals = _decimals(num)
        step = 0.5 * 10 ** (-decimals) if decimals else 0.0  # whole numbers must match exactly
        kind = "amount"
        if pct_raw:
            kind = "percent"
            if re.search(r"bps|basis", pct_raw, re.IGNORECASE):
                scale /= 100.0  # basis points → percent points
        currency = _CURRENCIES.get(cur_raw.lower()) if cur_raw else None
        figures.append(Figure(m.group(0).strip(), mantissa * scale, kind, currency, step * scale, mantissa, units))
    return figures


def _close(a: float, b: float, tolerance: float) -> bool:
    return abs(a - b) <= max(tolerance, 1e-9 * max(abs(a), abs(b)))


_UNIT_RUN_RE = re.compile(rf"\b{_UNIT_WORD}\b(?:[ \t]*-?[ \t]*{_UNIT_WORD}\b)*", re.IGNORECASE)
_CURRENCY_MARKS: dict[str, str] = {"INR": r"₹|\bRs\b|\bINR\b|\brupees?\b", "USD": r"\$|\bUSD\b|\bdollars?\b",
                                   "EUR": r"€|\bEUR\b|\beuros?\b"}


def _unit_runs(text: str) -> set[tuple[str, ...]]:
    """The scale-unit phrases of a text as canonical tuples (``"₹ lakh crore"`` → ``("lakh", "crore")``)."""
    return {
        tuple(_UNIT_ALIASES[u.lower()] for u in re.findall(_UNIT_WORD, m.group(0), re.IGNORECASE))
        for m in _UNIT_RUN_RE.finditer(text)
    }


def supported(figure: Figure, source_text: str) -> bool:
    """True when ``source_text`` states ``figure`` (see the module docstring for the matching rules)."""
    for other in extract_figures(source_text):
        if other.kind != figure.kind:
            continue
        if figure.currency and other.currency and figure.currency != other.currency:
            continue
        if _close(figure.value, other.value, figure.tolerance):
            return True
    lower = source_text.lower()
    if figure.kind == "percent" and not re.search(r"%|per ?cent|bps|basis points", lower):
        return False
    if figure.units and figure.units not in _unit_runs(source_text):
        return False
    if figure.currency and not re.search(_CURRENCY_MARKS[figure.currency], source_text, re.IGNORECASE):
        return False
    step = figure.tolerance / (figure.value / figure.mantissa) if figure.mantissa and figure.value else 0.0
    text = _MARKER_RE.sub(" ", source_text)
    taken = [m.span("num") for m in FIGURE_RE.finditer(text) if m.group("cur") or m.group("units") or m.group("pct")]
    for m in _BARE_RE.finditer(text):
        if any(a <= m.start(1) < b for a, b in taken):
            continue  # part of a figure of its own (61% is not a bare 61)
        if _close(figure.mantissa, float(m.group(1).replace(",", "")), step):
            return True
    return False


def unsupported_numbers(answer: str, blocks: Mapping[str, str]) -> list[str]:
    """Figures of ``answer`` not found in the blocks they cite.

    Args:
        answer: the validated answer text (markers point at existing blocks).
        blocks: block reference → text, for the blocks shown to the LLM (``"1"``, ``"2"``, ``"W1"``).

    Returns:
        The unsupported figures as written, unique, in order of appearance. A figure is looked up in the blocks its
        sentence cites; in a sentence without markers, in every block the answer cites; a figure in an answer that
        cites nothing is unsupported.
    """
    sentences = sentences_with_refs(answer)
    all_cited: list[str] = []
    for _s, refs in sentences:
        all_cited.extend(r for r in refs if r in blocks and r not in all_cited)
    result: list[str] = []
    for sentence, refs in sentences:
        figures = extract_figures(sentence)
        if not figures:
            continue
        scope = [r for r in refs if r in blocks] or all_cited
        texts = [blocks[r] for r in scope]
        for f in figures:
            if not any(supported(f, t) for t in texts) and f.text not in result:
                result.append(f.text)
    if result:
        logger.info("number check: %d unsupported figure(s)", len(result))
    return result
