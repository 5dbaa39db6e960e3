"""The comparison grid: documents (columns) × questions (rows), each cell answered from its own document only.

Modules: :mod:`~.grid` (template lists, cells and their cache key), :mod:`~.templates` (placeholders filled from
each document's profile), :mod:`~.export` (CSV, XLSX and Markdown, the
:data:`~.export.EXPORTS` registry), :mod:`~.store` (saved grids and the cell cache on disk) and :mod:`~.facade` (the
comparison half of :class:`prism.service.PrismService`). Imports only the answer engine, the ground floor and
:mod:`prism.index`.
"""

from __future__ import annotations

from prism.answering.compare.facade import CompareFacade
from prism.answering.compare.grid import TEMPLATES, compare_cells, resolve_question

__all__ = ["TEMPLATES", "CompareFacade", "compare_cells", "resolve_question"]
