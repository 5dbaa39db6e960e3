"""TAT-QA (Zhu et al., ACL 2021): the dataset as HTML pages, the answer matcher and the scoped answer run."""

from __future__ import annotations

from prism.evaluation.tatqa.dataset import ANSWER_FROM, ANSWER_TYPES, context_html, load_tatqa
from prism.evaluation.tatqa.match import line_matches
from prism.evaluation.tatqa.run import aggregate, evaluate_tatqa, first_line, score_answer

__all__ = ["ANSWER_FROM", "ANSWER_TYPES", "aggregate", "context_html", "evaluate_tatqa", "first_line",
           "line_matches", "load_tatqa", "score_answer"]
