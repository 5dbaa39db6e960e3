"""Tables that date their cells twice: a statement repeating its header block for the year before under the first
year's rows (two stacked tables in one grid), and a table of quarters by year (the quarter in the row label, the
year in the column: a stock's high and low prices). Pure functions first (the grid split, the quarter of a row);
then an HTML report through the real pipeline (ingest, Chroma, the embedder, the extractive engine)."""

from __future__ import annotations

import pytest

from prism.answering.programs.evidence import _row_quarter
from prism.evaluation.tatqa.run import first_line
from prism.ingestion.tables.grid import stacked_tables
from tests.conftest import pages_service

STACKED = [
    ["", "", "As of December 31, 2019", "", ""],
    ["", "Amortized", "Unrealized", "Unrealized", "Fair"],
    ["", "Cost", "Gains", "Losses", "Value"],
    ["Sovereign bonds", "$112,400", "$—", "$2,100", "$110,300"],
    ["Municipal bonds", "84,500", "—", "1,700", "82,800"],
    ["Total", "$196,900", "$—", "$3,800", "$193,100"],
    ["", "", "As of December 31, 2018", "", ""],
    ["", "Amortized", "Unrealized", "Unrealized", "Fair"],
    ["", "Cost", "Gains", "Losses", "Value"],
    ["Sovereign bonds", "$61,250", "$9,840", "$190", "$70,900"],
    ["Municipal bonds", "88,770", "520", "4,310", "84,980"],
    ["Total", "$150,020", "$10,360", "$4,500", "$155,880"],
]


def test_a_repeated_header_block_naming_another_period_starts_a_stacked_table():
    first, second = stacked_tables(STACKED, declared=1)
    assert first[0][1] == "As of December 31, 2019 Amortized Cost"
    assert [r[0] for r in first[1]] == ["Sovereign bonds", "Municipal bonds", "Total"]
    assert second[0] == ["", "As of December 31, 2018 Amortized Cost", "As of December 31, 2018 Unrealized Gains",
                         "As of December 31, 2018 Unrealized Losses", "As of December 31, 2018 Fair Value"]
    assert [r[1] for r in second[1]] == ["$61,250", "88,770", "$150,020"]


@pytest.mark.parametrize("row", [
    ["", "Liabilities and stockholders' equity", "", ""],  # a section row names no period
    ["", "€m", "€m", "€m"],  # a unit row
])
def test_a_section_or_unit_row_between_figures_stays_in_its_table(row):
    grid = [["", "2019", "2018", "2017"], ["Cash", "10", "9", "8"], row, ["Debt", "4", "3", "2"]]
    ((names, body),) = stacked_tables(grid, declared=1)
    assert names == ["", "2019", "2018", "2017"] and [r[0] for r in body] == ["Cash", "", "Debt"]


@pytest.mark.parametrize(("label", "expected"), [
    ("First Quarter", ("Q1 FY2018", (2018, 1))), ("Fourth quarter", ("Q4 FY2018", (2018, 4))),
    ("Q3", ("Q3 FY2018", (2018, 3))), ("Second half", ("H2 FY2018", (2018, 2))),
    ("Total", None), ("Net income", None), ("First quarter 2019", None),  # a label with its own year keeps it
])
def test_a_row_naming_a_quarter_dates_its_cells_in_the_column_year(label, expected):
    assert _row_quarter(label, 2018, None) == expected


def _table(rows: list[list[str]]) -> str:
    head, *body = rows
    return ("<table><tr>" + "".join(f"<th>{c}</th>" for c in head) + "</tr>"
            + "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in body) + "</table>")


PAGE = f"""<html><body><h1>Harbor Point Holdings annual report: investments and stock prices</h1>
<p>Our restricted investments are held to maturity (in thousands).</p>
{_table(STACKED)}
<p>The high and low sales prices of our common stock by quarter were as follows.</p>
{_table([["", "2019 High", "2019 Low", "2018 High", "2018 Low"],
         ["First Quarter", "$12.10", "$9.45", "$8.40", "$5.99"],
         ["Second Quarter", "$13.80", "$10.05", "$6.48", "$4.79"],
         ["Third Quarter", "$11.20", "$8.75", "$4.63", "$2.66"],
         ["Fourth Quarter", "$14.35", "$11.90", "$3.39", "$1.88"]])}
<p>Our common stock trades on the NASDAQ Global Select Market.</p>
</body></html>"""


@pytest.fixture(scope="module")
def report(tmp_path_factory, embedder):
    return pages_service(tmp_path_factory.mktemp("stacked_home"), embedder, {"harbor.html": PAGE}, "stacked")


@pytest.mark.parametrize(("question", "figure"), [
    ("What is the difference between the total fair value and the total amortized cost at 2018?", "$5,860"),
    ("What was the fair value of sovereign bonds as of December 31, 2018?", "$70,900"),
    ("In the first quarter of 2018, what is the difference between the low and high price?", "$2.41"),
    ("What was the high price in the third quarter of 2019?", "$11.20"),
])
def test_the_cells_of_the_period_asked_answer(report, question, figure):
    answer = report.ask(question, "stacked")
    first = first_line(answer.answer)
    assert not answer.declined and figure in first, answer.answer
