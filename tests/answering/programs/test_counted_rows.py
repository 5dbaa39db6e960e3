""""How many X" counts a table's rows only when the rows are X's. A question counting what one row names ("How many
primary service units …"), what a column measures ("How many shares were granted …" over "Number of Shares") or a
thing the table does not list ("How many employees …" over a table of expenses) asks for a figure, which the prose
states; it is never answered with the number of the table's rows. Through the real pipeline: HTML pages, real ingest,
Chroma and the embedder."""

from __future__ import annotations

import dataclasses

import pytest

from prism.answering.programs.groups import GROUP_OF_TABLE
from prism.answering.programs.operation import Evidence
from prism.answering.programs.registry import OPERATIONS
from prism.index.tokenizer import tokenize
from tests.conftest import pages_service
from tests.readings import read, table_evidence

EXPENSES = """<html><body>
<p>General and administrative expenses by nature (in thousands of dollars).</p>
<table>
<tr><th></th><th>Fiscal 2019</th><th>Fiscal 2018</th></tr>
<tr><td>Payroll and payroll-related benefits</td><td>118,430</td><td>110,211</td></tr>
<tr><td>Contract labour and consulting</td><td>9,114</td><td>9,732</td></tr>
<tr><td>Travel and communication</td><td>6,210</td><td>5,416</td></tr>
<tr><td>Facilities</td><td>12,338</td><td>11,902</td></tr>
</table>
<p>Our general and administrative staff grew to 1,620 employees at June 30, 2019, from 1,501 employees a year
earlier.</p>
</body></html>"""

SEGMENTS = """<html><body>
<p>Revenue by operating segment (in millions).</p>
<table>
<tr><th></th><th>2019</th><th>2018</th></tr>
<tr><td>Americas segment</td><td>4,120</td><td>3,870</td></tr>
<tr><td>EMEA segment</td><td>2,310</td><td>2,240</td></tr>
<tr><td>Asia Pacific segment</td><td>1,505</td><td>1,390</td></tr>
</table>
</body></html>"""


def _counts_the_rows(question: str, labels: tuple[str, ...], header: str = "FY24", title: str = "") -> bool:
    """Whether the count operation offers the number of the table's rows for ``question`` over one table of
    ``labels`` (one figure each, in a column headed ``header``; the table titled ``title``)."""
    rows = table_evidence(*((label, str(100 + i)) for i, label in enumerate(labels))).rows
    context = frozenset(tokenize(f"{title} {header}"))
    table = [dataclasses.replace(r, title=title, context=context,
                                 figures=tuple(dataclasses.replace(f, column=header) for f in r.figures))
             for r in rows]
    evidence = Evidence(rows=table, tables={"t": [(r.label, r) for r in table]})
    return any(p.option("group") == GROUP_OF_TABLE for p in OPERATIONS["count"].bindings(read(question), evidence))


UNITS = ("Primary service units", "Internet service customers", "Video service customers")
AWARDS = ("Nonvested at the start of the year", "Granted", "Vested", "Forfeited")
EXPENSE_ROWS = ("Payroll and payroll-related benefits", "Contract labour and consulting", "Facilities")


@pytest.mark.parametrize(("question", "labels", "header", "title", "counted"), [
    # what one row names: that row's figure is asked, not how many rows there are
    ("How many primary service units were excluded in FY24?", UNITS, "FY24", "", False),
    # what the figures measure ("Number of Shares"), and what names one of the rows ("Granted")
    ("How many shares were granted in FY24?", AWARDS, "Number of Shares FY24", "", False),
    # a thing the table does not name at all
    ("How many employees were there in FY24?", EXPENSE_ROWS, "FY24", "", False),
    # what every row is, a word that names no thing, and what the table's title says it lists
    ("How many segments were there in FY24?", ("Americas segment", "EMEA segment", "Asia Pacific segment"), "FY24",
     "", True),
    ("How many components are there in FY24?", EXPENSE_ROWS, "FY24", "", True),
    ("How many countries are there in FY24?", ("United States", "Korea", "Germany"), "FY24", "Revenue by country",
     True),
])
def test_the_rows_are_counted_only_when_they_are_what_is_counted(question, labels, header, title, counted):
    assert _counts_the_rows(question, labels, header, title) is counted


@pytest.fixture(scope="module")
def report(tmp_path_factory, embedder):
    pages = {"expenses.html": EXPENSES, "segments.html": SEGMENTS}
    return pages_service(tmp_path_factory.mktemp("counted_rows_home"), embedder, pages, "counted")


def _first(answer) -> str:
    return next(line for line in answer.answer.splitlines() if line.strip() and not line.startswith("Extractive"))


def test_a_count_of_what_the_rows_are_not_is_answered_with_the_figure_the_prose_states(report):
    answer = report.ask("How many employees are in general and administrative at fiscal 2019?", "counted",
                        sources=["expenses.html"])
    first = _first(answer)
    assert "Number of" not in first and "1,620 employees" in first, first


def test_a_count_of_what_every_row_is_counts_the_rows(report):
    answer = report.ask("How many segments were there in 2019?", "counted", sources=["segments.html"])
    first = _first(answer)
    assert first.startswith("Number of the table's items: 3 (Americas segment; EMEA segment; Asia Pacific segment")
