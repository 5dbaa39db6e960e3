"""The registry's phrasings as the operation model's examples: filled with figures and years, read by the real
reader and embedder, each labelled with its own operation, and its own phrasing left out of its features."""

from __future__ import annotations

import numpy as np
import pytest

from prism.answering.programs.registry import OPERATIONS
from prism.answering.reading.model import ALTERNATIVES, TEXT_PHRASINGS, OperationModel
from prism.answering.reading.reader import Reader
from prism.evaluation.training.phrasings import fill, phrased_examples, variants, without


def test_placeholders_are_filled_in_order():
    assert fill("X CAGR P to P", "revenue", "opex", ("2022", "2023", "2024"), "5%") == "revenue CAGR 2022 to 2023"
    assert fill("is X above N", "net income", "y", ("2024",), "$100 million") == "is net income above $100 million"
    assert fill("which was higher X or Y", "products", "services", ("2024",), "1") == (
        "which was higher products or services")


@pytest.fixture(scope="module")
def examples(embedder):
    return phrased_examples(Reader(embedder, OperationModel()))


def test_a_phrasing_without_a_period_is_also_asked_of_one_year():
    assert variants("add X and Y") == ("add X and Y", "add X and Y in P")
    assert variants("X plus Y in P") == ("X plus Y in P",)
    assert variants("what is the change in X from P to P") == ("what is the change in X from P to P",)


def test_every_phrasing_of_every_alternative_is_an_example_labelled_with_it(examples):
    phrasings = [p for op in OPERATIONS.values() for p in op.phrasings] + list(TEXT_PHRASINGS)
    assert len(examples) == sum(len(variants(p)) for p in phrasings) > len(phrasings)
    one_year = [e for e in examples if e.labels == ("sum",) and e.question.startswith("add ")]
    assert [e.question for e in one_year] == ["add cash and cash equivalents and total liabilities",
                                              "add cash and cash equivalents and total liabilities in 2019"]
    assert "one_period" in one_year[1].signals.flags and "one_period" not in one_year[0].signals.flags
    assert {e.labels[0] for e in examples} == set(ALTERNATIVES)
    cagr = [e for e in examples if e.labels[0] == "cagr"]
    assert cagr[1].question == "net income CAGR 2023 to 2024"
    assert "cagr" in cagr[1].signals.words and cagr[1].signals.frame is not None


def test_its_own_phrasing_is_left_out_of_its_features(examples, embedder):
    vectors = OperationModel().phrasing_vectors(embedder)
    e = next(e for e in examples if e.labels[0] == "cagr" and e.index == 1)  # "net income CAGR 2023 to 2024"
    own = float(np.max(vectors["cagr"] @ e.signals.frame))
    left = without(vectors, "cagr", e.index)
    assert left["cagr"].shape[0] == vectors["cagr"].shape[0] - 1
    assert left["change"] is vectors["change"]
    assert own > 0.7  # nearest to its own phrasing ("X CAGR P to P")
    assert float(np.max(left["cagr"] @ e.signals.frame)) < own - 0.1  # the others are further
    assert without(None, "cagr", 0) is None
