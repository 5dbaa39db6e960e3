"""A 10-Q's "Three Months Ended" and "Six Months Ended" column groups keep their duration (case c65, third batch).

Pure functions first (question periods with durations, column headers, column picking); then the case file through
the real pipeline (pypdf, table finder, embedder, Chroma, BM25, HybridRetriever, extractive AnswerEngine, offline
briefing): the first half is the six-month column, the quarter the three-month one, and the briefing names the
quarter as a quarter.
"""

from __future__ import annotations

import pytest

from prism.answering.programs.columns import column_periods, label_months, pick_columns
from prism.ingestion.tables.stored_text import find_tables
from prism.retrieval.periods import YEAR_TO_DATE, duration_hint, find_periods, period_label
from prism.types import IngestItem
from tests.conftest import CASES, offline_service

C65 = CASES / "c65_orbital_loom_10q.pdf"
HEADERS = ("Three Months Ended June 30, 2024", "Three Months Ended June 30, 2023", "Six Months Ended June 30, 2024",
           "Six Months Ended June 30, 2023")


@pytest.mark.parametrize(("question", "label"), [
    ("net income in the first half of 2024", "H1 FY2024"),
    ("net income for the six months ended June 30, 2024", "H1 FY2024"),
    ("net income for the three months ended June 30, 2024", "Q2 FY2024"),
    ("revenue for the quarter ended March 31, 2024", "Q1 FY2024"),
    ("net income for the nine months ended September 30, 2023", "9M FY2023"),
    ("net income in the first nine months of fiscal 2024", "9M FY2024"),
    ("sales in the second half of 2023", "H2 FY2023"),
    ("sales for the 26 weeks ended June 29, 2024", "H1 FY2024"),  # a 52/53-week year
    ("sales for the thirteen weeks ended December 30, 2023", "Q4 FY2023"),
    ("net income in H1 2024", "H1 FY2024"),
])
def test_a_question_period_carries_its_duration(question, label):
    [mention] = find_periods(question)
    assert period_label(mention, "2024-12-31") == label


def test_a_duration_that_fits_no_quarter_keeps_it_and_a_plain_date_has_none():
    [odd] = find_periods("six months ended May 15, 2024")
    assert (odd.months, period_label(odd, "2024-12-31")) == (6, "6M 2024-05-15")
    [plain] = find_periods("the year ended December 31, 2015")
    assert (plain.months, period_label(plain, "2015-12-31")) == (None, "FY2015")


def test_duration_hints_of_questions_without_a_period():
    assert duration_hint("What was net income in the first half?") == 6
    assert duration_hint("net income for the quarter") == 3
    assert duration_hint("nine months net income") == 9
    assert duration_hint("year-to-date revenue") == YEAR_TO_DATE
    assert duration_hint("What was net income in 2024?") is None


def test_stored_text_headers_keep_their_column_groups():
    text = ("CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS\n(In millions)\n"
            "Three Months Ended June 30, Six Months Ended June 30,\n2024 2023 2024 2023\n"
            "Net revenues 4,812 4,377 9,530 8,611\nOperating income 911 804 1,788 1,561\n"
            "Net income 655 590 1,290 1,148\n")
    assert find_tables(text, 1)[0].column_headers == HEADERS
    weeks = text.replace("Three Months Ended June 30, Six Months Ended June 30,\n2024 2023 2024 2023",
                         "13 Weeks Ended 26 Weeks Ended\nJune 29, 2024 July 1, 2023 June 29, 2024 July 1, 2023")
    assert find_tables(weeks, 1)[0].column_headers == (
        "13 Weeks Ended June 29, 2024", "13 Weeks Ended July 1, 2023", "26 Weeks Ended June 29, 2024",
        "26 Weeks Ended July 1, 2023")
    year = text.replace("Three Months Ended June 30, Six Months Ended June 30,", "Year Ended December 31,")
    assert find_tables(year, 1)[0].column_headers == ("2024", "2023", "2024", "2023")  # no duration group: as before


def test_columns_are_named_with_their_duration_and_picked_by_it():
    named = column_periods(HEADERS, "2024-12-31")
    assert named == ["Q2 FY2024", "Q2 FY2023", "H1 FY2024", "H1 FY2023"]
    assert [label_months(p) for p in named] == [3, 3, 6, 6]
    assert pick_columns(named, ["H1 FY2024"]) == [2]
    assert pick_columns(named, ["Q2 FY2024"]) == [0]
    assert pick_columns(named, [], months=6) == [2]
    assert pick_columns(named, [], months=3) == [0]
    assert pick_columns(named, [], months=YEAR_TO_DATE) == [2]
    assert pick_columns(named, []) == [0]  # no duration asked: the filing's own quarter
    nine = column_periods(("Three Months Ended September 30, 2024", "Nine Months Ended September 30, 2024"), None)
    assert nine == ["Q3 FY2024", "9M FY2024"]


@pytest.fixture(scope="module")
def c65(tmp_path_factory, embedder):
    svc = offline_service(tmp_path_factory.mktemp("c65_home"), embedder)
    [result] = svc.ingest([IngestItem(C65)], "tenq")
    assert result.status == "ingested"
    return svc


def test_the_ingested_table_keeps_the_durations_in_its_headers(c65):
    [record] = c65.documents("tenq")
    profile = record.profile
    assert (profile["type"], profile["entity"], profile["period"], profile["fiscal_year_end"]) == (
        "10-Q", "Orbital Loom Payments, Inc.", "Q2 FY2024", "2024-12-31")
    rows = c65.open("tenq").workspace.read_chunks(record.doc_id)
    assert [tuple(r["table"]["columns"]) for r in rows if r.get("table")] == [HEADERS]


@pytest.mark.parametrize(("question", "figure", "not_figure"), [
    ("What was net income in the first half of 2024?", "Net income, Six Months Ended June 30, 2024: 1,290 million",
     "655"),
    ("What was net income in H1 2024?", "Net income, Six Months Ended June 30, 2024: 1,290 million", "655"),
    ("What was net income for the six months ended June 30, 2024?",
     "Net income, Six Months Ended June 30, 2024: 1,290 million", "655"),
    ("What was net income for the three months ended June 30, 2024?",
     "Net income, Three Months Ended June 30, 2024: 655 million", "1,290"),
    ("What was net income in Q2 2024?", "Net income, Three Months Ended June 30, 2024: 655 million", "1,290"),
])
def test_the_first_half_is_the_six_month_column_and_the_quarter_the_three_month_one(c65, question, figure,
                                                                                     not_figure):
    answer = c65.ask(question, "tenq")
    assert not answer.declined and answer.mode == "extractive"
    assert figure in answer.answer
    assert not_figure not in answer.answer


def test_the_briefing_names_the_quarter_as_a_quarter(c65):
    [record] = c65.documents("tenq")
    texts = [b["text"] for b in record.briefing["bullets"]]
    assert texts[0].startswith("Orbital Loom Payments, Inc. — 10-Q for Q2 FY2024 ")
    figures = next(t for t in texts if "Net income" in t)
    assert figures.startswith("CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Q2 FY2024, three months ended June "
                              "30, 2024): ")
    assert "Net income 655 million" in figures
    assert "FY2024)" not in figures and "(2024)" not in figures
    assert "What was Orbital Loom Payments' net income for the three months ended June 30, 2024 in the income " \
           "statement?" in record.briefing["questions"]


def test_a_columns_change_noun_is_named_by_its_irregular_verbs():
    """"grew" and "growth", "rose" and "rise", "fell" and "fall" stem apart; a header's change is named by any form
    (the tokenizer gives a change's forms one term)."""
    from prism.answering.programs.columns import header_tokens
    from prism.index.tokenizer import tokenize

    assert all(set(tokenize(form)) <= header_tokens("YoY growth") for form in ("grew", "grow", "grown", "growth"))
    assert set(tokenize("rose")) <= header_tokens("Rise / (fall)") and set(tokenize("fell")) <= header_tokens("Fall")
    assert header_tokens("Share of deposits") == {"share", "deposit"}
