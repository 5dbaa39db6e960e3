"""A roll-forward states a balance twice a year, opening and closing ("Goodwill, beginning of the year", "Goodwill,
end of the year"): a balance asked of a year or at a date, the question naming no beginning, is the closing one; a
question naming the beginning gets the opening one. Through the real pipeline: an HTML note, real ingest, Chroma,
the packaged embedder, BM25 and the extractive engine."""

from __future__ import annotations

import pytest

from tests.conftest import pages_service

NOTE = """<html><body>
<p>The changes in the carrying amount of goodwill were as follows (in millions).</p>
<table>
<tr><th></th><th>January 31, 2019</th><th>January 31, 2018</th></tr>
<tr><td>Goodwill, beginning of the year</td><td>1,769.4</td><td>1,710.3</td></tr>
<tr><td>Acquisitions</td><td>681.4</td><td>50.0</td></tr>
<tr><td>Other</td><td>0.0</td><td>(140.1)</td></tr>
<tr><td>Goodwill, end of the year</td><td>2,450.8</td><td>1,620.2</td></tr>
</table>
</body></html>"""


@pytest.fixture(scope="module")
def note(tmp_path_factory, embedder):
    return pages_service(tmp_path_factory.mktemp("roll_home"), embedder, {"goodwill.html": NOTE}, "roll")


@pytest.mark.parametrize(("question", "work"), [
    ("What was the change in goodwill from 2018 to 2019?", "2,450.8 − 1,620.2"),
    ("How much did goodwill increase between 2018 and 2019?", "2,450.8 − 1,620.2"),
    ("goodwill delta 2018 to 2019", "2,450.8 − 1,620.2"),
    ("What was the change in goodwill at the beginning of the year from 2018 to 2019?", "1,769.4 − 1,710.3"),
])
def test_a_balance_asked_of_a_year_is_the_closing_one(note, question, work):
    answer = note.ask(question, "roll")
    assert answer.calculation is not None, answer.answer
    assert any(work in line for line in answer.answer.splitlines()), answer.answer


@pytest.mark.parametrize(("question", "figure"), [
    ("What was goodwill in 2019?", "2,450.8"),
    ("What was goodwill at the start of fiscal 2019?", "1,769.4"),
])
def test_a_balance_looked_up_is_the_closing_one_unless_the_beginning_is_named(note, question, figure):
    answer = note.ask(question, "roll")
    assert figure in answer.answer.splitlines()[0] or figure in answer.answer.split("\n- ")[1], answer.answer
