"""Prism: cited answers over regulatory and financial documents."""

from __future__ import annotations

__version__ = "0.3.0"
