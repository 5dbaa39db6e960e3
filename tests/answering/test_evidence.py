"""Answer-bearing evidence: a question's expected answer type and focus (a table of questions, read by
hand), the units a passage is read in, and whether a sentence or table row holds the focus with a typed value and
the period asked. The verdicts on the real sample workspace are in test_answerability.py."""

from __future__ import annotations

import pytest

from prism.answering.evidence import evidence_units, holds_evidence
from prism.types import RetrievedChunk
from tests.readings import target_of


@pytest.mark.parametrize(("question", "answer_type", "focus", "periods"), [
    ("How many ATMs does Meridian Bank operate?", "count", ("ATMs",), ()),
    ("How many complaints of unauthorised UPI transactions did Meridian receive in FY2025, and for what value?",
     "count", ("complaints", "unauthorised", "UPI", "transactions"), ("FY2025",)),
    ("Which firm is Meridian Bank's statutory auditor?", "person_or_org", ("statutory", "auditor"), ()),
    ("Who is Meridian Bank's Chief Risk Officer?", "person_or_org", ("Chief", "Risk", "Officer"), ()),
    ("What minimum credit score does Meridian Bank require for a personal loan?", "quantity",
     ("minimum", "credit", "score"), ()),
    ("What was Meridian Bank's net profit in Q3 FY25?", "quantity", ("net", "profit"), ("Q3 FY25",)),
    ("What were Meridian Bank's gross advances at the end of Q2 FY25?", "quantity", ("gross", "advances"),
     ("Q2 FY25",)),
    ("What was the gross NPA ratio of Meridian Bank's home loan segment in Q2 FY25?", "quantity",
     ("gross", "NPA", "ratio", "home", "loan", "segment"), ("Q2 FY25",)),
    ("What is the maximum amount of a P2P collect request under section 4.2.2?", "quantity",
     ("maximum", "amount", "P2P", "collect", "request"), ()),
    ("What is the FY2019 net income for Amazon? Answer in USD millions.", "quantity", ("net", "income"), ("FY2019",)),
    ("What was Netflix's net income in 2016?", "quantity", ("net", "income"), ("2016",)),
    # a value noun's "for" / "on" phrase names what the value applies to; a period's words never do
    ("What is the charge for standard settlement?", "quantity", ("charge", "standard", "settlement"), ()),
    ("What is the interest rate on savings accounts?", "quantity", ("interest", "rate", "savings", "accounts"), ()),
    ("What was the amount for accrued liabilities in 2019?", "quantity", ("amount", "accrued", "liabilities"),
     ("2019",)),
    ("What is the rate for the year ended December 31, 2019?", "quantity", ("rate",), ()),
    ("What was the weighted average rate for the period?", "quantity", ("weighted", "average", "rate"), ()),
    ("What was the revenue for 2019?", "quantity", ("revenue",), ("2019",)),  # no value noun: as before
    ("What is the rate for the previous year?", "quantity", ("rate",), ()),  # a period's words are none
    ("What was the fee for the last three years respectively?", "quantity", ("fee",), ()),
])
def test_answer_type_and_focus(question, answer_type, focus, periods):
    target = target_of(question)
    assert target is not None
    assert (target.answer_type, target.focus, tuple(p.text for p in target.periods)) == (answer_type, focus, periods)


@pytest.mark.parametrize("question", [
    "Is Meridian Bank's Board considering an interim dividend for FY25?",  # yes/no: a judgement
    "Why did Meridian tighten personal loan underwriting?",  # why: a description
    "How did Meridian's net interest margin change from Q2 FY24 to Q2 FY25?",  # how did: a comparison
    "Who signed the master circular on digital payment security controls?",  # a signature block, not a sentence
    "What does Meridian Bank charge for issuing a cheque book?",  # no head noun to read the type from
    "What reason code does the UPI switch give?",  # "code" names no measure
    "When was Meridian Bank's Q2 FY25 earnings call held?",
])
def test_questions_without_a_typed_answer(question):
    assert target_of(question) is None


def _chunk(text: str, **metadata: str) -> RetrievedChunk:
    return RetrievedChunk(chunk_id="c1", doc_id="d1", source="meridian_fee_schedule.pdf", text=text,
                          metadata={"entity": "Meridian Bank Ltd", **metadata})


FEE_TABLE = ("Item Classic Platinum\nAnnual fee ₹250 ₹500\nReplacement card ₹200 ₹200\n"
             "Free ATM transactions a month – Meridian ATMs 5 5\n\nBSBD accounts include 4 free cash withdrawals per "
             "month (branch and ATM together). Savings interest: 3.00% p.a.")


def test_units_are_rows_with_their_headers_and_sentences():
    units = evidence_units(_chunk(FEE_TABLE, table_title="Table 3 – Debit cards"))
    context = "meridian fee schedule Table 3 – Debit cards  Item Classic Platinum"
    assert units == [
        ("Item Classic Platinum", "meridian fee schedule", False),
        ("Annual fee ₹250 ₹500", context, True),
        ("Replacement card ₹200 ₹200", context, True),
        ("Free ATM transactions a month – Meridian ATMs 5 5", context, True),
        ("BSBD accounts include 4 free cash withdrawals per month (branch and ATM together).",
         "meridian fee schedule", False),
        ("Savings interest: 3.00% p.a.", "meridian fee schedule", False),
    ]


def test_a_frequency_adjective_is_named_by_its_noun():
    """"Daily" is required as the term ``day``: a row under a "Per day" column holds it, as a sentence saying
    "daily" does; a row with only a per-transaction limit does not."""
    target = target_of("What is the daily limit for a small-value wallet?")
    limits = "Category Per transaction Per day (aggregate)\nSmall-value wallet ₹1,000 ₹4,000"
    assert holds_evidence(target, [_chunk(limits)])
    assert holds_evidence(target, [_chunk("The daily limit for a small-value wallet is ₹4,000.")])
    assert not holds_evidence(target, [_chunk("Category Per transaction\nSmall-value wallet ₹1,000")])


def test_a_value_for_a_named_service_needs_the_service():
    """"The charge for standard settlement": a row naming another charge with a figure does not hold it; the
    service's row does, its charge stated in a word ("Free")."""
    target = target_of("What is the charge for standard settlement?")
    assert not holds_evidence(target, [_chunk("Finance charge on revolving balance 3.75% per month (45% p.a.)")])
    assert holds_evidence(target, [_chunk("Service Charge\n\nStandard settlement (T+1) Free")])


def test_a_count_needs_the_number_before_its_noun():
    target = target_of("How many ATMs does Meridian Bank operate?")
    assert not holds_evidence(target, [_chunk(FEE_TABLE)])  # "ATMs 5": free transactions, not ATMs
    assert holds_evidence(target, [_chunk("The Bank operates 1,240 ATMs and 410 branches.")])
    assert holds_evidence(target, [_chunk("Branches 410 398\nATMs 1,240 1,180")])  # a row labelled with the noun
    upi = target_of("How many UPI transactions in FY2025?")
    annexure = "Period Volume (crore transactions) Value (₹ lakh crore)\nFY2024 612 8.40\nFY2025 787 10.50"
    assert holds_evidence(upi, [_chunk(annexure, table_title="Annexure A – UPI volumes")])  # the header names it
    assert not holds_evidence(upi, [_chunk("Period Value (₹ lakh crore)\nFY2025 10.50")])
    # a title or file name naming the noun states no unit of the row's figures
    assert not holds_evidence(target, [_chunk(FEE_TABLE, table_title="Charges at Meridian ATMs")])
    atms = RetrievedChunk(chunk_id="c2", doc_id="d2", source="meridian_atms_charges.pdf", text=FEE_TABLE, metadata={})
    assert not holds_evidence(target, [atms])


def test_a_quantity_needs_its_focus_and_a_value_in_one_unit():
    target = target_of("What minimum credit score does Meridian Bank require for a personal loan?")
    split = "Personal loans need a good credit history. A score is reported monthly; fees are ₹500."
    assert not holds_evidence(target, [_chunk(split)])
    assert holds_evidence(target, [_chunk("Personal loans need a minimum credit score of 720.")])
    assert not holds_evidence(target, [_chunk("The credit score is checked under section 4.2.1 in FY2025.")])


def test_a_named_period_must_hold_for_the_figure():
    target = target_of("What was Meridian Bank's net profit in Q3 FY25?")
    said = "Net profit for the quarter was ₹2,146 crore."
    assert not holds_evidence(target, [_chunk(said, period="Q2 FY2025")])
    assert holds_evidence(target, [_chunk(said, period="Q3 FY2025")])
    assert holds_evidence(target, [_chunk("Net profit in Q3 FY25 was ₹2,210 crore.", period="Q2 FY2025")])
    full_year = target_of("What was Meridian Bank's net profit for the full year FY2024?")
    assert not holds_evidence(full_year, [_chunk("Net profit was ₹1,955 crore in Q2 FY24.")])  # a quarter of it
    assert holds_evidence(full_year, [_chunk("Net profit (PAT) 7,910 7,015", table_columns="FY2024 | FY2023")])


def test_a_person_or_firm_needs_a_name_beside_the_focus():
    target = target_of("Which firm is Meridian Bank's statutory auditor?")
    assert not holds_evidence(target, [_chunk("Payment systems undergo an annual audit by a CERT-In empanelled "
                                              "auditor.")])
    assert not holds_evidence(target, [_chunk("The statutory auditor reviewed the accounts.")])
    assert holds_evidence(target, [_chunk("The statutory auditor is Mehta Rao & Co, Chartered Accountants.")])
    assert not holds_evidence(target, [])


def test_a_line_item_is_found_by_its_statement_labels():
    # a 10-K says "Total net sales" and "Net income" where the analyst says revenue and net profit
    rows = _chunk("Total net sales 232,887 280,522\nOperating income 12,421 14,541", table_columns="2018 | 2019",
                  period="FY2019")
    revenue = target_of("What was total revenue in FY2019? Answer in USD millions.")
    assert revenue is not None and revenue.focus == ("total", "revenue")  # the instructions after "?" are not read
    assert holds_evidence(revenue, [rows])
    assert not holds_evidence(target_of("What was net profit in FY2019?"), [rows])  # no net income row
    assert not holds_evidence(revenue, [_chunk("Total net sales 177,866 232,887", table_columns="2017 | 2018",
                                               period="FY2018")])  # FY2019 is named nowhere


def test_a_bare_year_is_the_period_asked():
    # a FY2015 10-K's table holds 2015, 2014 and 2013: it does not answer for 2016 (the figure would be another year's)
    rows = _chunk("Net income $ 122,641 $ 266,799 $ 112,403", table_columns="2015 | 2014 | 2013", period="FY2015")
    assert not holds_evidence(target_of("What was Netflix's net income in 2016?"), [rows])
    assert holds_evidence(target_of("What was Netflix's net income in 2014?"), [rows])
    assert holds_evidence(target_of("What was net income in 2014 and 2015?"), [rows])
    assert not holds_evidence(target_of("What was net income in 2015 and 2016?"), [rows])


def test_generic_adjectives_and_value_nouns_need_not_be_repeated():
    target = target_of("What are the key transaction limits?")  # Compare's circular template
    assert target is not None and target.focus == ("key", "transaction", "limits")
    assert holds_evidence(target, [_chunk("A customer may make transactions up to ₹1,00,000 a day.")])
    assert not holds_evidence(target, [_chunk("Transactions are settled by the switch each day.")])  # no value


def test_only_a_copular_who_asks_for_a_name():
    assert target_of("Who does this circular apply to?") is None  # Compare's template: a description
    assert target_of("Which bank has the highest UPI share?") is None
    target = target_of("Who was the statutory auditor of Meridian Bank in FY2024?")
    # the "of" complement joins the focus; holds_evidence does not require the passages' entity words
    assert target is not None and (target.answer_type, target.focus) == (
        "person_or_org", ("statutory", "auditor", "Meridian", "Bank"))
    assert holds_evidence(target, [_chunk("Mehta Rao & Co were the statutory auditors for FY2024.")])
