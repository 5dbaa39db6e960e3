"""Template questions of the comparison grid: placeholders filled from each document's profile.

A grid question may hold placeholders, ``{name}`` for a field of the document's (corrected) profile
(:class:`prism.types.DocumentProfile`): :data:`PLACEHOLDERS`. Each cell asks the question with every placeholder
filled from its own document (an export never carries a placeholder such as "{period}"). The rules:

* ``{period}``: the fiscal period ("FY2022"). Glued to a word ("revenue{period}") it reads " in FY2022"; after a
  preposition ("in {period}", "for {period}") it is the period alone. A profile without a fiscal period (a
  circular: its ISO date is no fiscal period) drops it with its preposition: "What was revenue?".
* Any other placeholder (``{entity}``, ``{ticker}`` …) takes its profile field; a document whose profile lacks it
  is not asked (:attr:`Filled.missing` says which, and the cell says so in words, :func:`missing_text`).
* An unknown placeholder ("{year}") is a :class:`~prism.errors.PrismError` that names it and the known ones,
  raised before any cell is asked (:func:`check_placeholders`); it is never sent as a literal.

:func:`row_label` shows a template row with its placeholders in words ("in each document's fiscal period", "each
document's company"): an export carries no placeholder, braced or bracketed (:func:`unfilled` finds one).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from prism.errors import PrismError
from prism.types import DocumentRecord

__all__ = ["PLACEHOLDERS", "PLACEHOLDER_WORDS", "Filled", "check_placeholders", "fill_question", "missing_text",
           "resolve_question", "row_label", "unfilled"]

PLACEHOLDERS: dict[str, str] = {
    "period": "period", "entity": "entity", "ticker": "ticker", "type": "type", "fiscal_year_end": "fiscal_year_end",
    "currency": "currency", "unit": "unit", "date": "date", "reference": "reference",
}
"""Placeholder name → the :class:`~prism.types.DocumentProfile` field it is filled from."""
PLACEHOLDER_WORDS: dict[str, str] = {
    "period": "fiscal period", "entity": "company", "ticker": "ticker", "type": "document type",
    "fiscal_year_end": "fiscal year end", "currency": "currency", "unit": "unit", "date": "date",
    "reference": "reference number",
}
"""Placeholder name → the words a row label and a not-asked cell use for it."""
if set(PLACEHOLDER_WORDS) != set(PLACEHOLDERS):
    raise RuntimeError("every grid placeholder needs its words")
PERIOD_SLOT = "{period}"
_SLOT = re.compile(r"\{([^{}]*)\}")
_PERIOD = re.compile(r"(?:(?<=\s)(?P<prep>in|for|during|of|over|as of|at)\s+)?\{period\}", re.IGNORECASE)
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_UNFILLED = re.compile(r"[{\[]\s*(" + "|".join(PLACEHOLDERS) + r")\s*[}\]]", re.IGNORECASE)


@dataclass(frozen=True)
class Filled:
    """A question as asked of one document: ``asked`` (every placeholder filled), the fiscal ``period`` it names
    (``None`` without a ``{period}`` slot or a fiscal period), and the placeholders the document's profile has no
    value for (``missing``: the question is then not asked of it)."""

    asked: str
    period: str | None
    missing: tuple[str, ...] = ()


def check_placeholders(template: str) -> None:
    """Refuse a grid question (a template) with an unknown placeholder.

    Raises:
        PrismError: a ``{name}`` that is not in :data:`PLACEHOLDERS`; the message names the question, the
            placeholder and the known ones.
    """
    unknown = [name for name in _SLOT.findall(template) if name.strip() not in PLACEHOLDERS]
    if unknown:
        known = ", ".join(f"{{{p}}}" for p in PLACEHOLDERS)
        raise PrismError(f"The question “{template.strip()}” has an unknown placeholder {{{unknown[0]}}}; a grid "
                         f"question may use {known} (filled from each document's profile), or write the value.")


def _fiscal_period(record: DocumentRecord) -> str | None:
    profile = record.effective_profile()
    period = profile.period if profile is not None else None
    return None if not period or _ISO_DATE.fullmatch(period) else period


def _fill_period(question: str, period: str | None) -> str:
    def slot(m: re.Match[str]) -> str:
        if period is None:
            return ""
        return f"{m.group('prep')} {period}" if m.group("prep") else f" in {period}"
    return _PERIOD.sub(slot, question)


def fill_question(question: str, record: DocumentRecord) -> Filled:
    """``question`` with every placeholder filled from ``record``'s corrected profile (module docstring).

    Raises:
        PrismError: an unknown placeholder (:func:`check_placeholders`).
    """
    check_placeholders(question)
    if "{" not in question:
        return Filled(" ".join(question.split()), None)
    period = _fiscal_period(record) if PERIOD_SLOT in question else None
    text = _fill_period(question, period)
    profile = record.effective_profile()
    missing: list[str] = []

    def slot(m: re.Match[str]) -> str:
        name = m.group(1).strip()
        value = getattr(profile, PLACEHOLDERS[name], None) if profile is not None else None
        if not value:
            missing.append(name)
            return f"the document's {PLACEHOLDER_WORDS[name]}"
        return str(value)

    text = _SLOT.sub(slot, text)
    return Filled(" ".join(text.replace(" ?", "?").split()), period, tuple(dict.fromkeys(missing)))


def resolve_question(question: str, record: DocumentRecord) -> tuple[str, str | None]:
    """The question as asked of ``record`` and the fiscal period it names: ``("What was total revenue in
    FY2022?", "FY2022")`` (:func:`fill_question` without the missing placeholders).

    Raises:
        PrismError: an unknown placeholder.
    """
    filled = fill_question(question, record)
    return filled.asked, filled.period


def row_label(question: str) -> str:
    """A grid row's question as exported and shown, its placeholders in words (:data:`PLACEHOLDER_WORDS`): a
    ``{period}`` as "in each document's fiscal period" (after a preposition, "each document's fiscal period"), any
    other as "each document's <words>": "What was research and development expense in each document's fiscal
    period?", "Who is each document's company's auditor?"."""
    words = "each document's " + PLACEHOLDER_WORDS["period"]
    text = _PERIOD.sub(lambda m: f"{m.group('prep')} {words}" if m.group("prep") else f" in {words}", question)
    text = _SLOT.sub(lambda m: "each document's " + PLACEHOLDER_WORDS.get(m.group(1).strip(), m.group(1).strip()),
                     text)
    return " ".join(text.replace(" ?", "?").split())


def missing_text(missing: tuple[str, ...]) -> str:
    """What a cell not asked says: the profile fields its document lacks, in words (no placeholder): "Not asked:
    this document's profile has no ticker, which the question needs; correct the profile (Documents page) or write
    the value into the question."."""
    names = " or ".join(PLACEHOLDER_WORDS.get(m, m) for m in missing)
    return (f"Not asked: this document's profile has no {names}, which the question needs; correct the profile "
            "(Documents page) or write the value into the question.")


def unfilled(text: str) -> list[str]:
    """The template placeholders left in ``text``, braced or bracketed (``{period}``, ``[period]``), by name."""
    return [m.group(1).lower() for m in _UNFILLED.finditer(text)]
