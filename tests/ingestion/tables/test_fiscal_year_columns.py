"""Indian statements: fiscal-year columns headed "Year ended 31 March 2025", "31.03.2025", "FY 2024-25" or
"2024-25", a "Note" column of references, figures in ₹ crore or lakh (case c69, fourth batch).

Pure functions first (the table finder on stored text, the unit quoted after a figure); then two statements through
the real pipeline (pypdf, the table finder, the embedder, Chroma, BM25, the HybridRetriever and the extractive
AnswerEngine): the case file, and an NBFC's statement built here with fpdf2 whose headers are written day first with
points ("31.03.2025") and whose figures are in lakh.
"""

from __future__ import annotations

import pytest

from prism.answering.units import Block, with_units
from prism.ingestion.tables.stored_text import find_tables
from prism.types import IngestItem
from tests.builders import text_pdf
from tests.conftest import CASES, offline_service

C69 = CASES / "c69_nbfc_statement_of_profit_and_loss.pdf"

STATEMENT = """Standalone Statement of Profit and Loss for the year ended 31 March 2025
(₹ in crore)
Particulars Note Year ended Year ended
31 March 2025 31 March 2024
Revenue from operations
Interest income 22 4,812.36 3,905.14
Fees and commission income 23 212.48 176.90
Total revenue from operations 5,088.89 4,133.26
Finance costs 26 2,498.17 1,987.55
Profit for the year 931.54 762.10
"""


def test_a_note_column_is_no_figure_and_day_first_dates_head_the_columns():
    [table] = find_tables(STATEMENT, 1)
    assert table.column_headers == ("31 March 2025", "31 March 2024")
    assert [(r.label, r.cells) for r in table.rows if r.cells] == [
        ("Interest income", ("4,812.36", "3,905.14")), ("Fees and commission income", ("212.48", "176.90")),
        ("Total revenue from operations", ("5,088.89", "4,133.26")), ("Finance costs", ("2,498.17", "1,987.55")),
        ("Profit for the year", ("931.54", "762.10"))]
    assert (table.unit, table.currency) == ("crore", "INR")
    row = table.rows[0]
    assert STATEMENT[row.char_start:row.char_end] == "Interest income 22 4,812.36 3,905.14"  # the line is kept whole


@pytest.mark.parametrize(("written", "headers"), [
    ("31.03.2025 31.03.2024", ("31.03.2025", "31.03.2024")),
    ("31/03/2025 31/03/2024", ("31/03/2025", "31/03/2024")),
    ("31-Mar-2025 31-Mar-2024", ("31-Mar-2025", "31-Mar-2024")),
    ("FY 2024-25 FY 2023-24", ("FY 2024-25", "FY 2023-24")),
])
def test_headers_written_day_first_or_as_indian_fiscal_years(written, headers):
    text = STATEMENT.replace("31 March 2025 31 March 2024", written)
    assert find_tables(text, 1)[0].column_headers == headers


def test_a_column_of_small_numbers_is_a_column_of_figures_when_every_column_holds_such():
    text = ("Branch network (see Note 4)\nParticulars 2025 2024 2023\nBranches opened 12 14 16\nBranches closed 2 3 "
            "1\nBranches merged 4 5 6\n")
    [table] = find_tables(text, 1)
    assert table.column_headers == ("2025", "2024", "2023")
    assert table.rows[0].cells == ("12", "14", "16")


def test_a_header_line_inside_a_run_of_rows_starts_the_next_table():
    text = ("Key performance indicators\nIndicator FY 2024-25 FY 2023-24\nAssets under management (₹ crore) 38,416 "
            "31,072\nDisbursements (₹ crore) 21,905 18,348\nNumber of branches 1,146 1,012\nCapital adequacy (₹ in "
            "crore)\nParticulars 2024-25 2023-24\nTier I capital 6,905.42 6,012.77\nTier II capital 612.30 498.15\n"
            "Total capital 7,517.72 6,510.92\n")
    kpis, capital = find_tables(text, 2)
    assert (kpis.column_headers, kpis.unit) == (("FY 2024-25", "FY 2023-24"), None)
    assert (capital.column_headers, capital.unit) == (("2024-25", "2023-24"), "crore")
    assert [r.label for r in capital.rows] == ["Tier I capital", "Tier II capital", "Total capital"]


def test_no_unit_is_attached_to_a_date_or_a_note_reference():
    block = Block("", "crore", "INR")
    assert with_units("Statement of Profit and Loss for the year ended 31 March 2025", block) == \
        "Statement of Profit and Loss for the year ended 31 March 2025"
    assert with_units("Interest income 22 4,812.36 3,905.14", block) == \
        "Interest income 22 ₹4,812.36 crore ₹3,905.14 crore"
    assert with_units("Total income 5,107.63 4,145.57", block) == "Total income ₹5,107.63 crore ₹4,145.57 crore"


@pytest.fixture(scope="module")
def c69(tmp_path_factory, embedder):
    svc = offline_service(tmp_path_factory.mktemp("c69_home"), embedder, briefing_on_ingest=False)
    [result] = svc.ingest([IngestItem(C69)], "nbfc")
    assert result.status == "ingested"
    return svc


def test_the_statement_is_profiled_as_a_year_ending_in_march(c69):
    [record] = c69.documents("nbfc")
    assert (record.profile["period"], record.profile["fiscal_year_end"]) == ("FY2025", "2025-03-31")
    assert record.profile.get("date") != "2024-03-31"  # the prior year's column header is no document date


@pytest.mark.parametrize(("question", "figure"), [
    ("What was the interest income for the year ended 31 March 2025?",
     "Interest income, 31 March 2025: ₹4,812.36 crore"),
    ("What was interest income in FY 2024-25?", "Interest income, 31 March 2025: ₹4,812.36 crore"),
    ("What was interest income in FY 2023-24?", "Interest income, 31 March 2024: ₹3,905.14 crore"),
    ("What were the finance costs for the year ended 31.03.2024?", "Finance costs, 31 March 2024: ₹1,987.55 crore"),
    ("What was the net interest margin in FY 2023-24?", "Net interest margin (%), FY 2023-24: 7.6%"),
    ("What were assets under management in FY 2024-25?",
     "Assets under management (₹ crore), FY 2024-25: ₹38,416 crore"),
    ("What was the Tier I capital in 2023-24?", "Tier I capital, 2023-24: ₹6,012.77 crore"),
])
def test_a_question_for_one_year_reads_that_years_column(c69, question, figure):
    answer = c69.ask(question, "nbfc")
    assert not answer.declined, answer.answer
    assert figure in answer.answer
    assert "₹22 crore" not in answer.answer and "₹31 crore" not in answer.answer


def test_a_change_between_fiscal_years_is_computed_from_both_columns(c69):
    answer = c69.ask("What was the change in profit for the year from FY 2023-24 to FY 2024-25?", "nbfc")
    assert answer.calculation is not None
    assert [(i.period, i.value) for i in answer.calculation.inputs] == [("FY2024", "762.10"), ("FY2025", "931.54")]
    assert answer.calculation.result == "₹169.44 crore"


LAKH_STATEMENT = """KAVERI HOUSING FINANCE LIMITED
Statement of Profit and Loss for the year ended 31.03.2025
(Rs. in lakh)
Particulars Note No. As at As at
31.03.2025 31.03.2024
Income
Interest on loans 18 48,123.60 39,051.40
Processing fees 19 1,204.75 986.10
Total income 49,328.35 40,037.50
Expenses
Finance costs 20 27,410.05 22,118.90
Provisions for expected credit loss 21 1,822.40 2,406.75
Total expenses 29,232.45 24,525.65
Profit before tax 20,095.90 15,511.85
"""


@pytest.fixture(scope="module")
def kaveri(tmp_path_factory, embedder):
    root = tmp_path_factory.mktemp("kaveri")
    pdf = text_pdf(root / "kaveri_housing_finance_fy2025.pdf", [LAKH_STATEMENT])
    svc = offline_service(root / "home", embedder, briefing_on_ingest=False)
    [result] = svc.ingest([IngestItem(pdf)], "hfc")
    assert result.status == "ingested"
    return svc


@pytest.mark.parametrize(("question", "figure", "other"), [
    ("What was the interest on loans for the year ended 31 March 2025?",
     "Interest on loans, 31.03.2025: ₹48,123.60 lakh", "39,051.40"),
    ("What was the interest on loans in FY 2023-24?", "Interest on loans, 31.03.2024: ₹39,051.40 lakh", "48,123.60"),
    ("What were the provisions for expected credit loss in FY 2024-25?",
     "Provisions for expected credit loss, 31.03.2025: ₹1,822.40 lakh", "2,406.75"),
])
def test_columns_dated_day_first_with_points_are_their_fiscal_years(kaveri, question, figure, other):
    answer = kaveri.ask(question, "hfc")
    assert not answer.declined, answer.answer
    assert figure in answer.answer
    assert other not in answer.answer
    assert "₹18 lakh" not in answer.answer and "₹20 lakh" not in answer.answer  # note references are no figures


def test_duration_groups_on_one_line_take_the_dates_of_the_line_below_in_order():
    """A 10-Q's summary table sets "Three Months Ended  Six Months Ended" on one line and "June 30,  June 30," on the
    next: each column keeps its duration and its date, so "the second quarter of 2023" finds its column."""
    text = ("The following table summarizes our consolidated operating results:\n"
            "Three Months Ended Six Months Ended\nJune 30, June 30,\n2023 2022 2023 2022\n(In thousands)\n"
            "Net revenues $ 3,942,207 $ 3,264,888 $ 7,815,503 $ 6,119,197\n"
            "Operating income 371,378 2,381,451 1,102,217 2,487,239\n"
            "Net income 243,544 1,622,625 723,427 1,587,832\n")
    (table,) = find_tables(text, 28)
    assert table.column_headers == ("Three Months Ended June 30, 2023", "Three Months Ended June 30, 2022",
                                    "Six Months Ended June 30, 2023", "Six Months Ended June 30, 2022")
    assert [r.label for r in table.rows] == ["Net revenues", "Operating income", "Net income"]
