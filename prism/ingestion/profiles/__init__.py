"""Document profiles: the entity, document type, fiscal period, currency and unit a document is about.

Modules: :mod:`~.read` (:func:`~.read.extract_profile`, the entry point), :mod:`~.sec` (SEC filings' cover pages),
:mod:`~.india` (RBI and NPCI documents), :mod:`~.other` (earnings calls, annual reports, company documents),
:mod:`~.release` (earnings and other press releases), :mod:`~.periods` (quarters and years named in words, period end
dates, year-to-date columns), :mod:`~.heading` (titles) and :mod:`~.text` (snippets, tolerant dates, fiscal-year
naming). Imports only the ground floor and :mod:`prism.index`.
"""

from __future__ import annotations

from prism.ingestion.profiles.read import extract_profile, short_name

__all__ = ["extract_profile", "short_name"]
