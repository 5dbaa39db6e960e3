"""Evaluation: datasets (Prism ground truth, BEIR, FinanceBench), relevance, metrics, versioned runs and the runner.

May import: :mod:`prism.answering`, :mod:`prism.retrieval`, :mod:`prism.index`, :mod:`prism.ingestion` (pure
functions and value types) and the ground floor. It reaches the service only through the narrow Protocol the
runner declares, never by importing :mod:`prism.service`.
"""
