"""Figures stated in sentences take the periods the sentence lists "respectively", in order: one list of figures, or
several lists of as many figures as periods, each in turn."""

from __future__ import annotations

from prism.answering.programs.evidence import gather
from prism.types import RetrievedChunk


def _periods(sentence: str) -> list[tuple[str, str | None]]:
    chunk = RetrievedChunk(chunk_id="c1", doc_id="d1", source="report.html", text=sentence)
    evidence = gather([chunk], None)
    return [(f.printed, f.period) for row in evidence.rows for f in row.figures]


def test_one_list_takes_the_periods_in_order():
    assert _periods("The Company recognized $0.3 million, $0.9 million and $0.6 million in 2019, 2018 and 2017, "
                    "respectively.") == [("$0.3 million", "FY2019"), ("$0.9 million", "FY2018"),
                                         ("$0.6 million", "FY2017")]


def test_two_lists_each_take_the_periods_in_order():
    sentence = ("During fiscal 2017, 2018 and 2019 sales of resale products were $318,928, $296,316 and $18,951, "
                "respectively, and related operating profit was $17,076, $18,177 and $3,300, respectively.")
    assert _periods(sentence) == [("$318,928", "FY2017"), ("$296,316", "FY2018"), ("$18,951", "FY2019"),
                                  ("$17,076", "FY2017"), ("$18,177", "FY2018"), ("$3,300", "FY2019")]


def test_figures_that_do_not_fill_whole_lists_take_no_period():
    sentence = "Revenue was $5 million, $4 million and $2 million in 2019 and 2018, respectively."
    assert [period for _, period in _periods(sentence)] == [None, None, None]
