"""Derived figures: a figure the documents do not state but their cells give (a margin, a change, a ratio).

Modules: :mod:`~.formulas` (recognising the metric and its formula in a question), :mod:`~.calc` (the arithmetic in
:class:`~decimal.Decimal`), :mod:`~.cells` (quoting a table cell with its row, column and unit), :mod:`~.inputs`
(finding each input's cell), :mod:`~.answer` (the one pipeline: plan → period → inputs → derive, and
:mod:`~.computed`, the one decision between a statement metric and a row operation, with the LLM as an optional step,
:mod:`~.llm`), :mod:`~.operations` (arithmetic over any table row), :mod:`~.plan` (the LLM's arithmetic
plan, executed in code) and :mod:`~.entity_figures` (one figure per company of a question naming several).
Imports only :mod:`prism.answering`'s own modules, the ground floor and :mod:`prism.index` / :mod:`prism.retrieval`.
"""

from __future__ import annotations

from prism.answering.derived.answer import accept_derived, derive, derived_answer, derived_gate, derived_text
from prism.answering.derived.formulas import METRICS, plan_of

__all__ = ["METRICS", "accept_derived", "derive", "derived_answer", "derived_gate", "derived_text", "plan_of"]
