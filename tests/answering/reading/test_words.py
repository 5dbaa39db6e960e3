"""The reader's wording: shorthand, symbols and imperative forms written out before anything else is read, and the
yes/no questions asked in the imperative ("Tell me whether …")."""

from __future__ import annotations

import pytest

from prism.answering.reading import kinds, line_items
from prism.answering.reading.cues import names_bound
from prism.answering.reading.words import mentions, normalise
from tests.readings import read


@pytest.mark.parametrize(("question", "text"), [
    ("Net income/share 2024", "Net income per share 2024"),  # a slash before a unit of count reads "per"
    ("What was per-share net income in 2024?", "What was per share net income in 2024?"),
    ("Revenue/employee in FY24?", "Revenue per employee in FY24?"),
    ("Opex/revenue in 2024", "operating expenses divided by revenue in 2024"),  # any other slash divides
    ("Divide gross profit by operating expenses for 2024", "gross profit divided by operating expenses for 2024"),
    ("# of years with net income > $100 million", "number of years with net income greater than $100 million"),
    ("avg opex YoY", "average operating expenses year over year"),
    ("Operating expenses 2023 + 2024", "Operating expenses 2023 plus 2024"),  # a plus between words adds
    ("Is the issuer rated A+ by CRISIL?", "Is the issuer rated A+ by CRISIL?"),  # one inside a word is kept
    ("In which year was maintenance less than15,000 thousands?",  # a word typed against a figure is set apart
     "In which year was maintenance less than 15,000 thousands?"),
    ("Years with margin above10%", "Years with margin above 10%"),
    ("CO2 emissions in FY2024 and Q3FY24", "CO2 emissions in FY2024 and Q3FY24"),  # codes and periods are kept
])
def test_shorthand_symbols_and_imperative_division_are_written_out(question, text):
    assert normalise(question) == text


@pytest.mark.parametrize(("question", "polar"), [
    ("Tell me whether net income increased from 2023 to 2024", True),
    ("Check if the IMPS fee is above ₹5", True),
    ("Please confirm whether the cap is ₹5,000", True),
    ("Whether revenue rose in 2024", True),
    ("Did revenue grow year over year?", True),
    ("From 2023 to 2024, did net income rise?", True),  # an adverbial fronted before the question
    ("In Q2 FY25, was the NIM above 3.5%?", True),
    ("In 2024, what was revenue?", False),
    ("Is the reason for the decline stated?", False),  # asks for the reason's sentence
    ("If revenue grew 10%, what would it be in 2025?", False),  # a conditional, not a yes/no question
    ("Tell me the net income for 2024", False),
    ("What was net income in 2024?", False),
])
def test_a_yes_no_question_may_be_asked_in_the_imperative(question, polar):
    assert kinds.polar(normalise(question)) is polar


@pytest.mark.parametrize(("question", "periods"), [
    ("YoY revenue growth % in 2024?", ["2023", "2024"]),
    ("Net income up year-over-year in FY2024?", ["FY2023", "FY2024"]),
    ("Meridian NIM YoY change in Q2 FY25?", ["Q2 FY2024", "Q2 FY25"]),  # the same quarter a year before
    ("Did NIM fall QoQ in Q1 FY25?", ["Q4 FY2024", "Q1 FY25"]),  # the quarter before
    ("Revenue growth YoY from 2022 to 2024", ["2022", "2022 … 2024", "2024"]),  # both named: nothing added
    ("What was revenue in 2024?", ["2024"]),
])
def test_a_period_compared_with_the_one_before_adds_that_period(question, periods):
    from prism.retrieval.periods import find_periods

    text = normalise(question)
    from prism.answering.reading.prior_period import with_prior_period

    assert [p.text for p in with_prior_period(text, find_periods(text))] == periods


def test_words_written_short_with_a_full_stop_are_read_once():
    from prism.answering.reading.words import shortened_words

    assert shortened_words("Meridian gross adv. 2QFY25?") == ("adv",)
    assert shortened_words("What were govt. securities and govt. bonds in FY24?") == ("govt",)
    assert shortened_words("What was U.S. revenue in 2024?") == ()  # an abbreviation's letters, not a word cut short
    assert shortened_words("What was revenue in 2024?") == ()


@pytest.mark.parametrize(("question", "named"), [
    ("How much did pers. loans grow YoY?", ["pers. loans"]),  # one item: the stop marks the word cut short
    ("What were govt. securities in 2019?", ["govt. securities"]),
    ("What was gross adv. in 2019? What about 2018?", ["gross adv"]),  # a capital after it: a new sentence
    ("What was the difference in net profit between both FYs?", ["net profit"]),  # periods as a kind: no item
    ("TTM revenue vs LTM opex", ["revenue", "operating expenses"]),
])
def test_an_item_is_read_whole_past_a_word_cut_short_and_a_period_kind_is_no_item(question, named):
    from prism.answering.reading.words import mentions
    from prism.retrieval.periods import find_periods

    text = normalise(question)
    assert [m.text for m in mentions(text, find_periods(text))] == named


def test_a_rare_word_the_reader_writes_out_is_not_required_of_the_passages():
    from prism.answering.reading.reader import _as_read

    salient = (("opex", "rare"), ("FY2024", "period"), ("zakat", "rare"))
    assert _as_read(salient, "Gross profit to operating expenses, FY24?") == (("FY2024", "period"),)
    assert _as_read(salient, "What was the zakat paid in FY24?") == (("FY2024", "period"), ("zakat", "rare"))


@pytest.mark.parametrize(("question", "items"), [
    ("What were net earnings in FY2024?", (("net_income", "net earnings"),)),
    ("Research and Development expense in FY2015", (("rd", "research and development expense"),)),
    ("How many analysts attended the call?", ()),
])
def test_the_line_items_a_question_names_are_read_with_the_words_naming_them(question, items):
    assert line_items.line_items(question) == items


@pytest.mark.parametrize(("question", "named"), [
    ("What were audit fees and non-audit fees in total in 2019?", False),
    ("How much were audit fees and non-audit fees in total?", False),
    ("What was the total of audit fees and non-audit fees in 2019?", False),
    ("What was the change in total revenue in 2019?", True),  # "total" names the row here
    ("What was the change in Total Other in 2018 from 2017?", True),
    ("What was the total revenue in 2019?", True),
])
def test_total_asking_for_the_sum_names_no_item(question, named):
    mentions = [m.text.lower() for m in read(question).mentions]
    assert any("total" in m.split() for m in mentions) is named, mentions
    assert any("fees" in m or "revenue" in m or "total" in m for m in mentions)


@pytest.mark.parametrize(("question", "whole"), [
    ("What years are reported by the table?", True),
    ("What financial items are listed in the table?", True),
    ("Which periods does the table cover?", True),
    ("What was revenue in the table for 2019?", False),  # a figure in the table, not the table
    ("What years are reported?", False),  # no table named
    ("Which years does the table provide information for net sales?", True),  # its years, whichever row it names
])
def test_a_question_about_a_table_as_a_whole_is_told_from_one_about_a_figure_in_it(question, whole):
    assert ("of_table" in read(question).flags) is whole


def test_the_respective_items_are_asked_as_a_figure_each():
    assert normalise("What are the respective sales and purchases for 2017?") == (
        "What are the sales and purchases for 2017 respectively?")
    kept = "What were sales in 2019 and 2018 respectively?"
    assert normalise(kept) == kept


@pytest.mark.parametrize(("question", "joined"), [
    ("What share of total revenue came from services and licenses in 2019?", True),
    ("What is the percentage of other foreign borrowings and other domestic borrowings as a percentage of Total debt?",
     True),
    ("Grocery & Snacks and Refrigerated & Frozen net sales over total net sales in 2018", True),
    ("What is the difference between services revenue and license revenue in 2019?", False),  # side by side
    ("What were the services and licenses revenues in 2019 respectively?", False),  # a figure each
    ("What was revenue in 2018 and 2019?", False),  # two periods, one item
    ("What share of total revenue came from services in 2019?", False),
])
def test_items_joined_as_the_parts_of_one_figure_are_told_from_items_set_side_by_side(question, joined):
    assert ("conjoined" in read(question).flags) is joined


@pytest.mark.parametrize("question", [
    "What was net income per share in 2024?",
    "What was per-share net income in 2024?",  # the divisor first, as a modifier
    "What was per share net income in 2024?",
    "What was net income, per share, in 2024?",
    "What was net income for each share in 2024?",
])
def test_a_figure_per_share_is_read_as_the_figure_then_its_divisor_wherever_the_divisor_stands(question):
    text = normalise(question)
    assert [m.text.lower() for m in mentions(text, read(question).periods)] == ["net income", "share"]


@pytest.mark.parametrize(("question", "ratio"), [
    ("What is the per-transaction limit for P2P transfers?", False),  # a hyphenated rate names the limit
    ("What is the per-day cap on UPI Lite spends?", False),
    ("What is the per transaction limit for P2P transfers?", False),  # unhyphenated, before the value's noun
    ("per day fee for a locker", False),
    ("What was revenue per employee in 2024?", True),  # "per" of a figure per unit still divides
    ("What was revenue per employee and the fee in 2024?", True),
])
def test_per_of_a_rate_modifier_asks_no_division(question, ratio):
    reading = read(question)
    assert (reading.operation == "ratio") is ratio, reading.operations[:3]


@pytest.mark.parametrize(("question", "bound"), [
    ("What is the minimum capital adequacy ratio required?", True),
    ("What is the minimum balance for a savings account?", True),  # a rule's quantity after "minimum"
    ("What is the maximum liability of a BSBD account holder?", True),
    ("Maximum monthly fee for a current account", True),
    ("What was the maximum revenue between 2017 and 2019?", False),  # the greatest of a series
    ("Which year had the minimum operating income?", False),
])
def test_minimum_or_maximum_of_a_rules_quantity_names_a_bound(question, bound):
    assert names_bound(question) is bound
