"""Periods a question names (prism.retrieval.periods) and the period codes they share with the tokenizer
(prism.index.period_codes): a table of written forms with their hand-written readings, and each reading named in
the fiscal calendars of real profiles (an Indian bank's year ending 31 March, Walmart's ending 31 January, a
calendar year)."""

from __future__ import annotations

import pytest

from prism.index.period_codes import PERIOD_CODE_RE, code_of, code_tokens, full_year
from prism.retrieval.periods import find_periods, period_label

CALENDAR, INDIA, WALMART, NIKE = "2015-12-31", "2024-03-31", "2020-01-31", "2018-05-31"


@pytest.mark.parametrize(("question", "kinds"), [
    ("What was revenue in FY2018?", [("FY", None, 2018, None)]),
    ("Capex in fiscal 2018", [("FY", None, 2018, None)]),
    ("Capex in fiscal year 2018", [("FY", None, 2018, None)]),
    ("FY24 dividend", [("FY", None, 2024, None)]),
    ("net profit for FY 2023-24", [("FY", None, 2024, None)]),
    ("net profit for FY23-24", [("FY", None, 2024, None)]),
    ("Q3 FY24 EBITDA margin", [("Q", 3, 2024, None)]),
    ("Q3FY24 EBITDA margin", [("Q", 3, 2024, None)]),
    ("3QFY24 EBITDA margin", [("Q", 3, 2024, None)]),
    ("Q3 FY2024 EBITDA margin", [("Q", 3, 2024, None)]),
    ("H1 FY25 deposits", [("H", 1, 2025, None)]),
    ("in H1 FY2023", [("H", 1, 2023, None)]),
    ("In 2022 Q2, which segment", [("Q", 2, 2022, None)]),
    ("the second quarter of fiscal 2022", [("Q", 2, 2022, None)]),
    ("net income for the year ended December 31, 2015", [("date", None, 2015, "2015-12-31")]),
    ("total deposits as of March 31, 2024", [("date", None, 2024, "2024-03-31")]),
    ("home loans at 30 September 2024", [("date", None, 2024, "2024-09-30")]),
    ("net income in 2015", [("year", None, 2015, None)]),
    ("FY2018 - FY2020 average", [("FY", None, 2018, None), ("FY", None, 2019, None), ("FY", None, 2020, None)]),
    ("from FY2016 to FY2018", [("FY", None, 2016, None), ("FY", None, 2017, None), ("FY", None, 2018, None)]),
    ("between FY20 and FY21", [("FY", None, 2020, None), ("FY", None, 2021, None)]),
    ("2018-2020 capex", [("year", None, 2018, None), ("year", None, 2019, None), ("year", None, 2020, None)]),
    ("Q2 FY24 and Q2 FY25", [("Q", 2, 2024, None), ("Q", 2, 2025, None)]),
    # a range of quarters names every quarter in it, in its order; "and" names its two ends only
    ("average opex from Q2 FY24 to Q2 FY25", [("Q", 2, 2024, None), ("Q", 3, 2024, None), ("Q", 4, 2024, None),
                                               ("Q", 1, 2025, None), ("Q", 2, 2025, None)]),
    ("Q4 FY25 - Q2 FY25", [("Q", 4, 2025, None), ("Q", 3, 2025, None), ("Q", 2, 2025, None)]),
    ("Q3 FY24 to Q4 FY24", [("Q", 3, 2024, None), ("Q", 4, 2024, None)]),
    # a list of years written without a space after its commas
    ("average costs for 2017,2018 and 2019", [("year", None, 2017, None), ("year", None, 2018, None),
                                              ("year", None, 2019, None)]),
    # an Indian fiscal year without "FY", and a quarter of a split fiscal year, end in the later year
    ("Tier I capital in 2023-24", [("FY", None, 2024, None)]),
    ("revenue 2019-20 and 2020-21", [("FY", None, 2020, None), ("FY", None, 2021, None)]),
    ("Q3 FY 2023-24 collections", [("Q", 3, 2024, None)]),
    # day-first dates as Indian and European documents write them (dateparser, DATE_ORDER DMY)
    ("interest income for the year ended 31 March 2025", [("date", None, 2025, "2025-03-31")]),
    ("balance as at 31.12.2023", [("date", None, 2023, "2023-12-31")]),
    ("deposits on 31/03/2024", [("date", None, 2024, "2024-03-31")]),
    ("loans at 31-Mar-2024", [("date", None, 2024, "2024-03-31")]),
    ("loans at 31-Mar-24", [("date", None, 2024, "2024-03-31")]),
    ("from 01/04/2024", [("date", None, 2024, "2024-04-01")]),  # day first: 1 April, an Indian fiscal year's start
    ("as of 12/31/2023", [("date", None, 2023, "2023-12-31")]),  # a US date that cannot be day first
    # a day written without its year before a date that has one shares that year
    ("working capital at June 30 and December 31, 2019", [("date", None, 2019, "2019-06-30"),
                                                          ("date", None, 2019, "2019-12-31")]),
    ("deposits as at 30 June and 31 December 2024", [("date", None, 2024, "2024-06-30"),
                                                     ("date", None, 2024, "2024-12-31")]),
    ("between September 30 and December 31, 2024", [("date", None, 2024, "2024-09-30"),
                                                    ("date", None, 2024, "2024-12-31")]),
    ("opened on May 5 and closed in 2019", [("year", None, 2019, None)]),  # no date follows: no year to share
])
def test_find_periods_reads_each_written_form(question, kinds):
    assert [(p.kind, p.part, p.year, p.date) for p in find_periods(question)] == kinds


@pytest.mark.parametrize("question", [
    "What was revenue of $2,015 million?",  # an amount, not a year
    "2015 million shares",
    "sales of 1,2019 units and 12,2019,500 more",  # digits grouped by commas, not years
    "Q3 24 branches opened",  # a quarter needs FY or a four-digit year
    "RBI/2025-26/13 and section 2015.4",
    "see section 10.5.12 and the ISO date 2024-03-31",  # a section number; an ISO date is no split year
    "31.02.2024",  # no such day
    "",
])
def test_find_periods_false_matches(question):
    assert find_periods(question) == ()


def test_phone_like_numbers_are_years_only_in_range():
    # "1800" is outside 1970-2099; "2020" reads as a year: documented, the question asks nothing else
    assert [p.year for p in find_periods("What is the toll-free number 1800 2020?")] == [2020]


def test_spans_point_into_the_question():
    q = "Walmart's EBITDA margin, FY2018 - FY2020, and Q3FY24"
    for p in find_periods(q):
        assert q[p.start:p.end] == p.text or "…" in p.text


@pytest.mark.parametrize(("written", "fye", "label"), [
    ("FY24", INDIA, "FY2024"),
    ("FY 2023-24", INDIA, "FY2024"),
    ("Q3FY24", INDIA, "Q3 FY2024"),
    ("H1 FY25", INDIA, "H1 FY2025"),
    ("as of March 31, 2024", INDIA, "FY2024"),  # an Indian bank's year end
    ("as of March 31, 2024", CALENDAR, "Q1 FY2024"),  # a calendar-year company's first quarter
    ("year ended December 31, 2015", CALENDAR, "FY2015"),
    ("year ended December 31, 2015", INDIA, "Q3 FY2016"),
    ("at 30 September 2024", INDIA, "Q2 FY2025"),
    ("at 30 September 2024", None, "2024-09-30"),  # no fiscal year end (a circular): the date
    ("as of January 31, 2020", WALMART, "FY2020"),
    ("in 2019", WALMART, "FY2020"),  # Walmart's FY2020 runs February 2019 - 31 January 2020
    ("in 2019", CALENDAR, "FY2019"),
    ("in 2018", NIKE, "FY2018"),
    ("in 2019", None, "FY2019"),
    ("on 15 August 2024", CALENDAR, "2024-08-15"),  # neither a year nor a quarter end
    ("year ended 31.03.2025", INDIA, "FY2025"),
    ("2024-25", INDIA, "FY2025"),
    ("three months ended 31.12.2023", INDIA, "Q3 FY2024"),
])
def test_period_label_uses_the_documents_fiscal_year_end(written, fye, label):
    (mention,) = find_periods(written)
    assert period_label(mention, fye) == label


@pytest.mark.parametrize(("text", "tokens"), [
    ("q3fy24", ["q3fy2024", "q3", "fy2024"]),
    ("q3 fy24", ["q3fy2024", "q3", "fy2024"]),
    ("q3 fy2024", ["q3fy2024", "q3", "fy2024"]),
    ("3qfy24", ["q3fy2024", "q3", "fy2024"]),
    ("fy 2023-24", ["fy2024", "2024"]),
    ("fy2018-20", ["fy2018", "2018", "fy2020", "2020"]),
    ("h1 fy25", ["h1fy2025", "h1", "fy2025"]),
    ("2024-25", ["fy2025", "2025"]),
    ("q3 fy 2023-24", ["q3fy2024", "q3", "fy2024"]),
])
def test_period_codes_have_one_token_form(text, tokens):
    (m,) = PERIOD_CODE_RE.finditer(text)
    assert [t for code in code_of(m) for t in code_tokens(code)] == tokens


def test_full_year():
    assert (full_year("24"), full_year("69"), full_year("70"), full_year("1998")) == (2024, 2069, 1970, 1998)
