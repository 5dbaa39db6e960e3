"""A table whose rows are dated balances (a restructuring roll-forward) is read both ways, its columns as rows too;
two items are then two columns, or two rows, never a row and a column, which cross at one cell. Through the real
pipeline: an HTML page, real ingest, Chroma and the embedder."""

from __future__ import annotations

import pytest

from tests.conftest import pages_service

PAGE = """<html><body>
<p>The activity in the restructuring liability of the Fiscal 2017 Restructuring Plan was as follows.</p>
<table>
<tr><th>Fiscal 2017 Restructuring Plan</th><th>Workforce reduction</th><th>Facility costs</th><th>Total</th></tr>
<tr><td>Balance payable as at June 30, 2018</td><td>$1,590</td><td>$3,431</td><td>$5,021</td></tr>
<tr><td>Accruals and adjustments</td><td>(254)</td><td>1,152</td><td>898</td></tr>
<tr><td>Cash payments</td><td>(213)</td><td>(1,290)</td><td>(1,503)</td></tr>
<tr><td>Balance payable as at June 30, 2019</td><td>$1,046</td><td>$2,949</td><td>$3,995</td></tr>
</table>
</body></html>"""


@pytest.fixture(scope="module")
def report(tmp_path_factory, embedder):
    return pages_service(tmp_path_factory.mktemp("crossed_home"), embedder, {"restructuring.html": PAGE}, "crossed")


def test_two_columns_of_a_dated_row_are_the_two_items_compared(report):
    answer = report.ask("For Balance payable as at June 30, 2019, what is the difference between Workforce reduction "
                        "and Facility costs?", "crossed")
    first = answer.answer.splitlines()[0]
    # |1,046 − 2,949| = 1,903: both columns in the June 30, 2019 row, not a row paired with a column
    assert first.startswith("Difference between Workforce reduction and Facility costs"), first
    assert "$1,903" in first and "June 30, 2019" in first, first
    assert answer.calculation is not None and len(answer.calculation.inputs) == 2
