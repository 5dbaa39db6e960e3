"""The one sentence splitter: abbreviations, initials, clause numbers and decimal points never end a sentence, in
document text, in answers (the number check's sentences), in the chunker and in contextual retrieval's cut."""

from __future__ import annotations

import pytest

from prism.answering.citations import sentences_with_refs
from prism.answering.contextual import clean_context
from prism.index.sentences import ends_sentence, is_abbreviation, split_sentences
from prism.ingestion.chunking import split_spans
from tests.conftest import CASES

ABBREVIATED = ["Rs.", "No.", "Sec.", "Cr.", "Ltd.", "Co.", "Inc.", "Corp.", "Mr.", "Dr.", "vs.", "e.g.", "i.e.",
               "approx.", "viz."]


@pytest.mark.parametrize("abbreviation", ABBREVIATED)
def test_no_break_after_an_abbreviation(abbreviation):
    text = f"The fee is payable by Meridian {abbreviation} 5,000 Holdings under the scheme. The next rule follows."
    assert split_sentences(text) == [
        f"The fee is payable by Meridian {abbreviation} 5,000 Holdings under the scheme.", "The next rule follows."
    ]
    answer = f"The fee is payable by Meridian {abbreviation} 5,000 Holdings [1]. The next rule follows [2]."
    assert [s for s, _ in sentences_with_refs(answer)] == [
        f"The fee is payable by Meridian {abbreviation} 5,000 Holdings [1].", "The next rule follows [2]."
    ]


def test_real_sentence_ends_and_decimals():
    text = "Net profit was ₹2.52 lakh crore. Growth was 3.5% in FY2024! Was it? Yes. P. Ramanathan signed it."
    assert split_sentences(text) == ["Net profit was ₹2.52 lakh crore.", "Growth was 3.5% in FY2024!", "Was it?",
                                     "Yes.", "P. Ramanathan signed it."]
    assert [s for s, _ in sentences_with_refs("It is ₹2.52 lakh crore [1]. It grew 3.5% [2].")] == [
        "It is ₹2.52 lakh crore [1].", "It grew 3.5% [2]."]
    assert ends_sentence("Yes. No", 3) and ends_sentence("Why? No", 3)
    assert not ends_sentence("Pay Rs. 5", 6) and is_abbreviation("Pay Rs. 5", 6)
    assert is_abbreviation("10. Heading", 2) and not is_abbreviation("in 2010. Next", 7)


def test_case_49_penalty_sentence_stays_whole():
    text = (CASES / "49_penalty_in_rs.txt").read_text(encoding="utf-8")
    assert "Banks shall pay a penalty of Rs. 5,000 for each day of delay in filing the quarterly return." in (
        split_sentences(text))
    answer = "Banks pay a penalty of Rs. 50,000 for each day of delay [1]."
    assert sentences_with_refs(answer) == [(answer, ("1",))]


def test_chunker_never_ends_a_chunk_at_an_abbreviation():
    # one long line (no line breaks): the chunker falls back to sentence ends; "Rs." is the only full stop in the
    # first window and must not be taken for one
    text = ("The penalty for each day of delay in filing the quarterly return is Rs. 5,000 and it is payable by the "
            "bank to the regulator within thirty days of the demand. A second sentence follows here.")
    assert 60 < text.index("Rs.") < 120 < text.index("demand.")
    spans = split_spans(text, 120, 20)
    assert not any(text[s:e].endswith("Rs.") for s, e in spans)
    assert text[: spans[0][1]].endswith("bank to the")  # the last space of the window instead


def test_contextual_cut_keeps_a_sentence_whole():
    reply = "This chunk of Meridian Bank Ltd. sets the penalty of Rs. 5,000 per day. It is in section 4 of it."
    assert clean_context(reply, 80) == "This chunk of Meridian Bank Ltd. sets the penalty of Rs. 5,000 per day."
    assert clean_context(reply, 60) == "This chunk of Meridian Bank Ltd. sets the penalty of Rs."  # no end: a word cut


PENSION_RULE = ("(a) Pension paying banks should compensate the pensioner for delay in crediting\npension/ arrears "
                "thereof at a fixed interest rate of 8 per cent per annum for the\ndelay after the due date of payment "
                "and the compensation shall be credited to\nthe pensioner's account automatically without any claim "
                "from the pensioner on\nthe same day when the bank affords credit for revised pension/ pension "
                "arrears,\nin respect of all delayed pension payments made since October 1, 2008.")


def test_a_long_sentence_wrapped_at_the_page_lines_stays_whole_and_a_long_table_is_split_at_its_rows():
    """The RBI pension circular's rule is one 470-character sentence printed over six lines: it is one sentence
    (it was six, and the evidence check found "rate" and "compensation" on different lines and declined). A long
    fragment of table rows is still split at its line breaks."""
    assert len(PENSION_RULE) > 400
    assert split_sentences(PENSION_RULE) == [" ".join(PENSION_RULE.split())]
    rows = "\n".join(f"Branch {i} deposits 1,{i:03d} crore advances 2,{i:03d} crore ratio {i}.5 per cent"
                     for i in range(10))
    assert len(rows) > 400 and len(split_sentences(rows)) == 10
    unnamed = "\n".join(f"column 1: Line item {i}; Year Ended December 31, 2019: ${i},347; Year Ended December 31, "
                        f"2018: $100,28{i}" for i in range(6))  # rows of a table whose label column has no name
    assert len(unnamed) > 400 and len(split_sentences(unnamed)) == 6


def test_a_short_run_of_a_pdf_tables_rows_is_quoted_one_row_at_a_time():
    """A page's table rows, fewer than 400 characters, are no sentence of three rows: each row that ends in its
    figures is one (its header lines stay together), while wrapped prose and rendered rows keep their old cuts."""
    rows = ("Category Per transaction Per day Rule\n(aggregate) para\n\n"
            "P2M – general merchants ₹1,00,000 ₹2,00,000 9.1\n"
            "Tax payments to verified government merchants ₹5,00,000 ₹5,00,000 9.3\nHospitals ₹5,00,000 ₹5,00,000 9.3")
    assert split_sentences(rows) == ["Category Per transaction Per day Rule (aggregate) para",
                                     "P2M – general merchants ₹1,00,000 ₹2,00,000 9.1",
                                     "Tax payments to verified government merchants ₹5,00,000 ₹5,00,000 9.3",
                                     "Hospitals ₹5,00,000 ₹5,00,000 9.3"]
    words = ("Free ATM transactions a month – Meridian ATMs 5 5 Unlimited\n"
             "Free ATM transactions a month – other banks, metro 3 3 5")  # a cell stated in a word ends a row too
    assert split_sentences(words) == words.split("\n")
    prose = "Deposits rose to ₹1,200 crore in FY2024\nfrom ₹1,100 crore in FY2023, a rise of 9\nper cent."
    assert split_sentences(prose) == [" ".join(prose.split())]
    rendered = "Cost of revenue:\ncolumn 1: Products; 2019: $29,816\ncolumn 1: Services; 2019: $7,042"
    assert len(split_sentences(rendered)) == 1  # a section's rendered rows are read under their heading
