"""Evaluation: datasets (Prism ground truth, BEIR, FinanceBench), relevance, metrics, versioned runs and the runner.

Metric names have one home, :data:`prism.evaluation.metrics.METRICS`, read by run files, the runner, the CLI summary
and the Eval page.

May import: :mod:`prism.answering`, :mod:`prism.retrieval` and :mod:`prism.index` (pure functions and value types)
and the ground floor. It reaches the service only through :class:`prism.evaluation.protocol.EvalService`, never by
importing :mod:`prism.service`.
"""
