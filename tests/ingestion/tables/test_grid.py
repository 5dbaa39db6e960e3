"""Header rows of tables whose spans and header marks were lost (a dataset's grid, a saved report page): which
leading rows are the header, and which group label stands over which columns (:mod:`prism.ingestion.tables.grid`),
through the HTML reader into the :class:`~prism.types.Table` and its row text."""

from __future__ import annotations

import pytest

from prism.config import Settings
from prism.evaluation.tatqa.dataset import context_html
from prism.ingestion import parsing
from prism.ingestion.tables.grid import combine_headers, is_header_cell, split_header, spread_group_labels


@pytest.mark.parametrize(("cell", "header"), [
    ("January 3, 2020", True), ("(in millions)", True), ("$", True), ("%", True), ("2019", True), ("FY2024", True),
    ("Q3 2024", True), ("2018-19", True), ("13 weeks ended", True), ("$’000", True), ("2019 (1)", True),
    ("", True), ("$ 93,662", False), ("(114)", False), ("(9.4%)", False), ("1,000", False), ("86.8", False),
    # words naming a number inside them are a header: a fair value table's levels
    ("Quoted Prices in Active Markets (Level 1)", True), ("Tier 2 capital", True), ("$ 2,010", False),
    ("3", False)])
def test_a_header_cell_holds_no_figure(cell, header):
    assert is_header_cell(cell) is header


def _names(rows, declared=1):
    n = split_header(rows, declared)
    return n, combine_headers(spread_group_labels(rows[:n]))


def test_leading_rows_without_figures_are_header_rows_and_group_labels_cover_their_columns():
    assert _names([["", "", "For the Year Ended", ""], ["", "January 31, 2020", "February 1, 2019", "February 2, 2018"],
                   ["Revenue:", "", "", ""], ["License", "$3,181", "$3,042", "$2,628"]]) == (
        2, ["", "For the Year Ended January 31, 2020", "For the Year Ended February 1, 2019",
            "For the Year Ended February 2, 2018"])  # "Revenue:" is a section row: the header ends above it
    assert _names([["", "2019", "", "2018", ""], ["", "Men", "Women", "Men", "Women"],
                   ["Member aged 65", "86.8", "88.9", "87.3", "89.3"]]) == (
        2, ["", "2019 Men", "2019 Women", "2018 Men", "2018 Women"])
    assert _names([["", "January 3, 2020", "December 28, 2018"], ["", "", "(in millions)"],
                   ["Net cash provided by operating activities", "$992", "$768"]]) == (
        2, ["", "January 3, 2020 (in millions)", "December 28, 2018 (in millions)"])  # the unit covers every column
    assert _names([["($ in millions)", "", ""], ["At December 31:", "2019", "2018"],
                   ["Recorded investment (1)", "$22,446", "$31,182"]]) == (
        2, ["($ in millions) At December 31:", "2019", "2018"])


def test_a_group_label_covers_the_columns_of_its_kind_only():
    """A label over sub-columns named in words stops where the periods begin, and the reverse; a time frame covers
    the period columns around the words between them; a cell ending in a connective is wrapped, not a group."""
    assert _names([["Year Ended May 31,", "", "", "", ""], ["", "", "", "Percent Change", ""],
                   ["(Dollars in millions)", "2019", "Actual", "Constant", "2018"],
                   ["Interest expense", "$2,082", "3%", "3%", "$2,025"]]) == (
        3, ["Year Ended May 31, (Dollars in millions)", "2019", "Percent Change Actual", "Percent Change Constant",
            "2018"])
    assert _names([["", "", "Fiscal year", "", "% Change"], ["(in millions of €)", "2019", "2018", "Actual", "Comp."],
                   ["Orders", "12,749", "11,875", "7 %", "7 %"]]) == (
        2, ["(in millions of €)", "Fiscal year 2019", "Fiscal year 2018", "% Change Actual", "% Change Comp."])
    assert _names([["", "", "", "Year Ended June 30,", "", ""],
                   ["(In thousands)", "2019", "Change", "2018", "Change", "2017"],
                   ["Revenue", "$912", "4%", "$877", "6%", "$827"]]) == (
        2, ["(In thousands)", "Year Ended June 30, 2019", "Change", "Year Ended June 30, 2018", "Change",
            "Year Ended June 30, 2017"])
    assert _names([["", "Years Ended December 31,", "", "Increase (Decrease)", ""],
                   ["", "2019", "2018", "Amount", "Percent"], ["Total cost of revenue", "$48,881", "$51,896",
                                                               "$(3,015)", "(6)%"]])[1][3:] == [
        "Increase (Decrease) Amount", "Increase (Decrease) Percent"]
    assert _names([["", "Balance at Beginning of", "", ""], ["", "Period (1/1/19)", "Increase", "Balance at End"],
                   ["Deferred revenue", "4,066", "417", "4,483"]])[1] == [
        "", "Balance at Beginning of Period (1/1/19)", "Increase", "Balance at End"]
    assert _names([["", "", "As of December 31, 2019", ""], ["", "Amortized Cost", "Unrealized Losses", "Fair Value"],
                   ["Corporate bonds", "$129,499", "$3,433", "$126,066"]])[1][1:] == [
        "As of December 31, 2019 Amortized Cost", "As of December 31, 2019 Unrealized Losses",
        "As of December 31, 2019 Fair Value"]


def test_a_header_of_duration_bands_is_a_header_row():
    assert _names([["", "", "Payments Due by Period (in millions)", "", ""],
                   ["Contractual Obligations", "Total", "Less than 1 Year", "1-3 Years", "More than 5 Years"],
                   ["Long-term debt", "$1,200", "$100", "$300", "$800"]]) == (
        2, ["Contractual Obligations", "Total", "Payments Due by Period (in millions) Less than 1 Year",
            "Payments Due by Period (in millions) 1-3 Years", "Payments Due by Period (in millions) More than 5 Years"])
    assert split_header([["", "Current", "0 to 30 days past due", "31 to 60 days past due"],
                         ["Net receivables", "23,524", "1,965", "507"]], 1) == 1
    assert split_header([["", "2019"], ["", "3-5 years"], ["Useful life of plant", "4"]], 1) == 2


def test_a_table_of_words_keeps_its_declared_header():
    words = [["Name", "Role"], ["A. Rao", "Chief Executive Officer"], ["B. Shah", "Chief Financial Officer"]]
    assert split_header(words, 1) == 1 and split_header(words, 0) == 1
    assert split_header([["", "2019"], ["", "2018"]], 1) == 1  # no row with a figure: nothing more is a header


def test_an_html_table_with_its_years_in_the_second_row_names_each_column_by_year_and_unit():
    """TAT-QA writes a table's first row as ``<th>``; its years are in the second row and its unit in the third.
    Each column is named by all three, and its rows read that way ("2019 (in thousands): 1,452.4")."""
    rows = [["", "Year Ended December 31,", ""], ["", "2019", "2018"], ["", "(in thousands)", ""],
            ["Fixed price revenue", "$1,452.4", "$1,146.2"], ["Time and materials revenue", "701.9", "655.0"]]
    html = context_html({"table": {"table": rows}, "paragraphs": [
        {"order": 1, "text": "Revenue by contract type for the years ended December 31. Fixed price revenue grew as "
                             "more of our programmes moved to fixed price contracts, while time and materials revenue "
                             "rose with the number of billable hours in the year."}]}, "Revenue by contract type")
    doc = parsing.load(html.encode(), "revenue.html", Settings(ocr_enabled=False))
    (table,) = doc.tables
    assert table.column_headers == ("Year Ended December 31, 2019 (in thousands)",
                                    "Year Ended December 31, 2018 (in thousands)")
    assert table.unit == "thousands"
    fixed = table.rows[0]
    assert (fixed.label, fixed.cells) == ("Fixed price revenue", ("$1,452.4", "$1,146.2"))
    assert "Year Ended December 31, 2019 (in thousands): $1,452.4" in doc.pages[0].text[fixed.char_start:fixed.char_end]
