"""Evaluation: versioned runs, metric trends against published anchors, ablations, latency and run comparison."""

from __future__ import annotations

from prism.ui import widgets
from prism.ui.evaluation import view as eval_view

widgets.page_guard()
service = widgets.service()
widgets.page_header("Evaluation", "Retrieval and answer quality across Prism versions, on the sample set and "
                    "public benchmarks.")
eval_view.page(service)
