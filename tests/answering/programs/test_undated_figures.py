"""A question asking a period the documents do not report is declined, not answered with a figure of no stated
period, when the documents date the same line item in other periods (a filing for 2013–2015 asked about 2022,
which it mentions only as a maturity);
a table whose columns name no period still answers when nothing dates its rows otherwise. Through the real
pipeline: an HTML page, real ingest, Chroma and the embedder."""

from __future__ import annotations

import pytest

from tests.conftest import pages_service

STATEMENT = """<html><body>
<p>Consolidated statements of operations (in thousands).</p>
<table>
<tr><th></th><th>2015</th><th>2014</th><th>2013</th></tr>
<tr><td>Revenues</td><td>$6,779,511</td><td>$5,504,656</td><td>$4,374,562</td></tr>
<tr><td>Operating income</td><td>305,826</td><td>402,648</td><td>228,347</td></tr>
</table>
<p>Our 5.375% senior notes of $500,000 are due in February 2022; interest is paid semi-annually.</p>
<p>Segment information. The following table presents the segment results of the streaming business.</p>
<table>
<tr><th></th><th>Domestic streaming</th><th>International streaming</th></tr>
<tr><td>Contribution profit</td><td>1,375,500</td><td>(450,651)</td></tr>
<tr><td>Operating income</td><td>402,648</td><td>(34,120)</td></tr>
</table>
</body></html>"""

UNDATED = """<html><body>
<p>Store metrics for the fiscal year ended 2024.</p>
<table>
<tr><th></th><th>North</th><th>South</th></tr>
<tr><td>Stores opened</td><td>14</td><td>9</td></tr>
</table>
</body></html>"""


@pytest.fixture(scope="module")
def filings(tmp_path_factory, embedder):
    return pages_service(tmp_path_factory.mktemp("undated_home"), embedder,
                         {"filing.html": STATEMENT, "stores.html": UNDATED}, "undated")


def test_a_period_the_documents_do_not_report_is_declined(filings):
    answer = filings.ask("What was operating income in 2022?", "undated", sources=["filing.html"])
    assert answer.declined, answer.answer
    assert "402,648" not in answer.answer.split("Closest passages")[0]


def test_a_period_the_documents_report_is_answered(filings):
    answer = filings.ask("What was operating income in 2015?", "undated", sources=["filing.html"])
    first = next(li for li in answer.answer.splitlines() if li.strip() and not li.startswith("Extractive"))
    assert "305,826" in first and "2015" in first, first


def test_a_table_dated_by_no_column_still_answers(filings):
    answer = filings.ask("How many stores were opened in North in 2024?", "undated", sources=["stores.html"])
    assert not answer.declined and "14" in answer.answer, answer.answer
