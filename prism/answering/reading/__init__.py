"""The question reader: one reading of a question, by meaning (:class:`Reader` → :class:`~prism.types.reading.
Reading`). Modules: :mod:`~.words` (shorthand, mentions, frame), :mod:`~.kinds` (rule-based readings that propose),
:mod:`~.entities` (the workspace's entities a question names), :mod:`~.model` (the operation model that decides),
:mod:`~.reader` (the one entry point)."""

from __future__ import annotations

from prism.answering.reading.reader import Reader

__all__ = ["Reader"]
