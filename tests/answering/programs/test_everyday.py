"""Everyday calculations over the sample documents: a change in basis points between two
quarters, the combined figure of two segments, growth in a count between two quarters as a number and as a
percentage. Computed in code from the cited cells of the fee schedule's quarterly tables, through the real pipeline:
the four sample PDFs, real ingest, Chroma and the embedder, no LLM. The questions name quarters that the earnings
call's file name carries ("Q2 FY25"), so the first retrieval ranks the call's sentences first: the computation
finds its rows in the tables of the whole workspace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from prism.types import IngestItem
from tests.conftest import offline_service
from tests.readings import heading_states, read

SAMPLE = Path(__file__).resolve().parents[3] / "data" / "sample"


@pytest.fixture(scope="module")
def sample(tmp_path_factory, embedder):
    svc = offline_service(tmp_path_factory.mktemp("everyday_home"), embedder, briefing_on_ingest=False)
    pdfs = sorted(SAMPLE.glob("*.pdf"))
    assert [r.status for r in svc.ingest([IngestItem(p) for p in pdfs], "sample")] == ["ingested"] * 4
    return svc


def test_two_quarters_are_two_periods_and_two_segments_two_items():
    reading = read("By how many basis points did the net interest margin change from Q1 FY25 to Q2 FY25?")
    assert (reading.operation, len(reading.periods)) == ("change", 2) and "bps" in reading.flags
    pair = read("What is the combined outstanding of the Home loans and Personal loans segments?")
    named = " | ".join(m.text.lower() for m in pair.mentions)
    assert pair.operation == "sum" and "home loans" in named and "personal loans" in named, pair.mentions


@pytest.mark.parametrize(("question", "heading", "work"), [
    # 3.68 % → 3.62 %: −0.06 percentage points = −6 bps
    ("By how many basis points did the net interest margin change from Q1 FY25 to Q2 FY25?",
     "change in Net interest margin (NIM) %, Q1 FY25 to Q2 FY25 = -6 bps", "(3.62 − 3.68) × 100 = -6 bps"),
    # "how did it change": the change itself, in percentage points (and basis points) for a percentage
    ("How did net interest margin change between Q1 FY25 and Q2 FY25?",
     "change in Net interest margin (NIM) %, Q1 FY25 to Q2 FY25 = -0.06 percentage points (-6 bps)",
     "3.62 − 3.68 = -0.06 percentage points (-6 bps)"),
    ("What was the change in NIM between Q2 FY24 and Q2 FY25?",
     "change in Net interest margin (NIM) %, Q2 FY24 to Q2 FY25 = -0.19 percentage points (-19 bps)",
     "3.62 − 3.81 = -0.19"),
    # a percentage change of a percentage states the move in points beside it: (3.62 − 3.68) / 3.68 = −1.63 %
    ("What was the percentage change in the net interest margin from Q1 FY25 to Q2 FY25?",
     "percentage change in Net interest margin (NIM) %, Q1 FY25 to Q2 FY25 = -1.63 % (-0.06 percentage points)",
     "(3.62 − 3.68) / 3.68 × 100 = -1.63 %; 3.62 − 3.68 = -0.06 percentage points"),
    # an average of a percentage is a percentage, not points
    ("What was the average net interest margin in Q1 FY25 and Q2 FY25?",
     "average in Net interest margin (NIM) %, Q1 FY25 to Q2 FY25 = 3.65 %", "(3.68 + 3.62) / 2 = 3.65 %"),
    # a count: 1,538 → 1,642 branches, +104, +6.76 % (never "₹104 crore": the row states its own unit)
    ("How much did the number of branches grow from Q2 FY24 to Q2 FY25?",
     "change in Branches (number), Q2 FY24 to Q2 FY25 = 104 (6.76 %)",
     "1,642 − 1,538 = 104; (1,642 − 1,538) / 1,538 × 100 = 6.76 %"),
    ("What was the percentage growth in the number of branches from Q2 FY24 to Q2 FY25?",
     "percentage change in Branches (number), Q2 FY24 to Q2 FY25 = 6.76 %", "(1,642 − 1,538) / 1,538 × 100"),
    # a range of quarters averages every quarter in it: (2,941 + 3,018 + 3,142 + 3,116 + 3,205) / 5, not its ends
    ("What was the average operating expenses from Q2 FY24 to Q2 FY25?",
     "average in Operating expenses, Q2 FY24 to Q2 FY25 = ₹3,084.4 crore", "/ 5 = ₹3,084.4 crore"),
    # two segments of the loan book: ₹1,02,380 crore + ₹38,900 crore
    ("What is the combined outstanding of the Home loans and Personal loans segments?",
     "Home loans and Personal loans combined, Outstanding (₹ crore) = ₹1,41,280 crore",
     "1,02,380 + 38,900 = ₹1,41,280 crore"),
])
def test_everyday_calculations_are_computed_and_cited(sample, question, heading, work):
    answer = sample.ask(question, "sample")
    first, *rest = answer.answer.splitlines()
    assert heading_states(first, heading), first
    assert any(work in line for line in rest), rest
    assert not answer.declined and answer.unsupported_numbers == []
    assert {c.source for c in answer.citations} == {"meridian_fee_schedule_tables.pdf"}
    assert answer.calculation is not None and answer.calculation.inputs
    assert all(i.citation >= 1 for i in answer.calculation.inputs)


@pytest.mark.parametrize(("question", "first_line"), [
    # the UPI annexure's rows are periods, a quarter's row restating its months ("Q4 FY25 (Jan–Mar 2025)"): each
    # row is its period, so the volume column is a series over them
    ("How much higher was UPI volume in Q4 FY25 than in Q1 FY25?",
     "Change in Volume (crore transactions), Q1 FY25 (Apr–Jun 2024) to Q4 FY25 (Jan–Mar 2025): 33 crore "
     "transactions (18.23 %)"),
    # the period that wins is named as its row writes it, not by a year its other quarters share
    ("Which was higher, UPI volume in Q1 FY25 or Q4 FY25?",
     "Highest Volume (crore transactions): Q4 FY25 (214 crore transactions)"),
    # a direction asked of one year is the movement into it from the year before, answered Yes or No
    ("Did UPI volume grow in FY2025?",
     "Yes — Volume (crore transactions): rose from 612 crore transactions in FY2024 to 787 crore transactions in "
     "FY2025"),
    ("did upi vol grow in FY2025",  # typed in lower case, with the shorthand "vol"
     "Yes — Volume (crore transactions): rose from 612 crore transactions in FY2024 to 787 crore transactions in "
     "FY2025"),
])
def test_a_table_of_period_rows_answers_movements_and_extremes(sample, question, first_line):
    answer = sample.ask(question, "sample")
    assert answer.answer.splitlines()[0] == first_line, answer.answer.splitlines()[0]
    assert {c.source for c in answer.citations} == {"meridian_bank_upi_operating_circular.pdf"}


def test_an_analysts_question_on_a_call_is_never_the_answer(sample):
    """The call's Q&A holds the analyst's "What is your microfinance exposure?", which shares every word of the
    question: a sentence that asks answers nothing, so the CRO's reply is quoted."""
    answer = sample.ask("What is the microfinance exposure?", "sample")
    lines = [li for li in answer.answer.splitlines() if li.startswith("- ")]
    assert "₹7,300 crore" in lines[0] and "?" not in lines[0], lines
    assert not any(re.sub(r"(?:\s*\[\d+\])+$", "", li).endswith("?") for li in lines), lines


def test_a_figure_restated_in_another_table_is_no_share_of_itself(sample):
    """Table 9's "UPI transactions (crore)" and the annexure's "Volume (crore transactions)" both give 189 for Q2
    FY25: one quantity in two units' words, never "100.00 %" of each other; the call's sentence answers."""
    answer = sample.ask("What was Meridian Bank's share of national UPI volumes in Q2 FY25?", "sample")
    assert "100.00 %" not in answer.answer and "4.2%" in answer.answer.split("\n\n")[1], answer.answer


@pytest.mark.parametrize(("question", "first_line"), [
    # a direction asked of one quarter is the movement into it from the quarter before: 13,640 → 13,210
    ("Did credit card spends fall in Q4 FY24?",
     "Yes — Credit card spends (₹ crore): fell from ₹13,640 crore in Q3 FY24 to ₹13,210 crore in Q4 FY24"),
    # the quarter before the first of a fiscal year is the last of the year before: 176 → 181
    ("Did UPI transactions rise in Q1 FY25?",
     "Yes — UPI transactions (crore): rose from 176 crore in Q4 FY24 to 181 crore in Q1 FY25"),
    ("How much did credit card spends change in Q4 FY24?",
     "Change in Credit card spends (₹ crore), Q3 FY24 to Q4 FY24: -₹430 crore (-3.15 %)"),
])
def test_a_movement_asked_of_one_quarter_is_from_the_quarter_before(sample, question, first_line):
    answer = sample.ask(question, "sample")
    assert answer.answer.splitlines()[0] == first_line, answer.answer.splitlines()[0]
    assert {c.source for c in answer.citations} == {"meridian_fee_schedule_tables.pdf"}


def test_a_figure_stated_as_a_range_is_quoted_as_the_range(sample):
    """The call guides "NIM guidance of 3.55% to 3.65%": the answer's figure is the range, never its first end."""
    answer = sample.ask("What is the NIM guidance for FY25?", "sample")
    first = next(li for li in answer.answer.splitlines() if li.startswith("- "))
    assert first.startswith("- 3.55% to 3.65%:"), first


def test_a_quarter_the_documents_do_not_report_is_declined_not_answered_from_the_calls_quarter(sample):
    """The Q2 FY25 call says "return on equity 15.1%" and dates it nowhere in the sentence; Table 8 runs from Q2 FY24:
    "in Q1 FY24" is declined, "in Q2 FY25" answered from the table."""
    declined = sample.ask("What was Meridian Bank's return on equity in Q1 FY24?", "sample")
    assert declined.declined and "15.1" not in declined.answer.split("\n\n")[0], declined.answer
    answered = sample.ask("What was Meridian Bank's return on equity in Q2 FY25?", "sample")
    assert "15.1%" in next(li for li in answered.answer.splitlines() if li.startswith("- ")), answered.answer


@pytest.mark.parametrize(("question", "stated", "not_stated"), [
    # Table 8's "Provision coverage ratio %" is another ratio: the call's sentence states the one asked
    ("What was the liquidity coverage ratio in Q2 FY25?", "118%", "73.8"),
    ("What is the cost of deposits in Q2 FY25?", "5.94%", "0.58"),  # not the table's "Credit cost %"
])
def test_a_row_naming_another_kind_of_the_thing_asked_does_not_answer(sample, question, stated, not_stated):
    answer = sample.ask(question, "sample")
    first = next(li for li in answer.answer.splitlines() if li.startswith("- "))
    assert stated in first and not_stated not in first, answer.answer


@pytest.mark.parametrize(("question", "first_line"), [
    ("Did the technical decline rate fall in Q2 FY25?",  # "fall" asks a movement; "decline" names the row
     "Yes — Technical decline rate: fell from 0.65 % in Q1 FY25 (Apr–Jun 2024) to 0.62 % in Q2 FY25 (Jul–Sep 2024)"),
])
def test_a_movement_word_inside_a_rows_name_asks_no_movement(sample, question, first_line):
    assert sample.ask(question, "sample").answer.splitlines()[0] == first_line
    lookup = sample.ask("What was the technical decline rate in Q2 FY25?", "sample")
    assert "0.62%" in next(li for li in lookup.answer.splitlines() if li.startswith("- ")), lookup.answer


@pytest.mark.parametrize("question", [
    "What was HDFC Bank's net profit in Q2 FY25?",  # a bank the workspace does not hold
    "What is the CASA ratio of Kotak Mahindra Bank?",
    "What was the net profit of SBI in Q2 FY25?",  # an acronym no passage writes: not Meridian's figure
])
def test_another_banks_question_is_declined_not_answered_with_meridians_figures(sample, question):
    answer = sample.ask(question, "sample")
    assert answer.declined and "2,146" not in answer.answer.split("\n\n")[0], answer.answer


def test_year_on_year_of_a_quarter_is_from_the_same_quarter_a_year_before(sample):
    answer = sample.ask("By how much did net profit grow year on year in Q2 FY25?", "sample")
    assert answer.answer.splitlines()[0] == ("Change in Net profit (PAT), Q2 FY24 to Q2 FY25: ₹191 crore (9.77 %)"), \
        answer.answer.splitlines()[0]


@pytest.mark.parametrize(("question", "stated", "not_stated"), [
    # Table 8 gives the bank-wide "Gross NPA %" (1.74 %); the Q2 FY25 call's sentence, dated by the call's quarter,
    # gives it per product: "2.1% in personal loans and 3.4% in credit cards"
    ("What was the gross NPA in credit cards in Q2 FY25?", "3.4%", "1.74"),
    ("What was the gross NPA in personal loans in Q2 FY25?", "2.1%", "1.74"),
])
def test_a_calls_undated_sentence_is_of_the_calls_quarter_and_each_figure_of_the_words_beside_it(
        sample, question, stated, not_stated):
    answer = sample.ask(question, "sample")
    first = next(li for li in answer.answer.splitlines() if li.startswith("- "))
    assert first.startswith(f"- {stated}") and not_stated not in first, answer.answer


@pytest.mark.parametrize("question", [
    "What share of total deposits are savings deposits?",
    "What percentage of total deposits were savings deposits?",
])
def test_the_total_a_share_is_of_is_the_whole_not_the_part(sample, question):
    """Table 11 states each deposit type's "Share of deposits", the Total row's 100.0 % too: the total the question
    names is the whole, so the answer is the savings row's 24.5 % (stated, or computed from the outstanding)."""
    answer = sample.ask(question, "sample")
    first = next(li for li in answer.answer.splitlines() if li.startswith("- "))
    assert "24.5" in first and "100.0" not in first, answer.answer


def test_a_figure_no_line_names_is_declined_not_quoted_from_a_line_of_the_period(sample):
    """No document gives the NIM of Q3 FY25; the UPI circular's Annexure A has a line for that quarter ("Q3 FY25
    (Oct–Dec 2024) 203 2.71 28.5% 0.63%"), which names no margin. Its volume, which the table's columns name, is
    answered from that line."""
    declined = sample.ask("What was the NIM in Q3 FY25?", "sample")
    assert declined.declined and "names “NIM” in Q3 FY25" in declined.answer and "203" not in declined.answer, \
        declined.answer
    answered = sample.ask("What was the UPI volume in Q3 FY25?", "sample")
    first = next(li for li in answered.answer.splitlines() if li.startswith("- "))
    assert "203" in first and not answered.declined, answered.answer
