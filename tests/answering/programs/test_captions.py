"""What a table shows, and what a term is (a text answer leads with the sentence that answers): "What
does the table show?" is answered by the sentence introducing the table, not declined for having no words to
retrieve by; "What is Audit Fees?" by the sentence defining it, never by the table row that only names it. Through
the real pipeline: HTML report pages, real ingest, Chroma and the embedder."""

from __future__ import annotations

import pytest

from prism.types import IngestItem
from tests.conftest import offline_service
from tests.readings import read

EMOLUMENTS = """<html><body>
<table>
<tr><th></th><th>2019 €m</th><th>2018 €m</th></tr>
<tr><td>Salaries and fees</td><td>4</td><td>4</td></tr>
<tr><td>Incentive schemes</td><td>2</td><td>3</td></tr>
</table>
<p>22. Directors and key management compensation</p>
<p>This note details the total amounts earned by the Company's Directors and members of the Executive Committee.</p>
<p>Aggregate emoluments of the Directors of the Company were as follows:</p>
<p>Notes: 1 Excludes gains from long-term incentive plans.</p>
</body></html>"""

FEES = """<html><body>
<table>
<tr><th></th><th>2019</th><th>2018</th></tr>
<tr><td>Audit Fees</td><td>$1,200</td><td>$1,150</td></tr>
<tr><td>Non-audit Fees</td><td>$300</td><td>$280</td></tr>
</table>
<p>The table below shows the fees billed by our independent auditor, excluding out-of-pocket expenses:</p>
<p>Audit Fees consist of fees billed for the annual audit of our consolidated financial statements and the statutory
audits of our subsidiaries. Non-audit Fees consist of tax compliance and advisory services.</p>
</body></html>"""


@pytest.fixture(scope="module")
def service(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("captions_home")
    items = []
    for name, page in (("emoluments.html", EMOLUMENTS), ("fees.html", FEES)):
        (home / name).write_text(page, encoding="utf-8")
        items.append(IngestItem(home / name))
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    assert [r.status for r in svc.ingest(items, "captions")] == ["ingested", "ingested"]
    return svc


def _first_line(text: str) -> str:
    return next(line for line in text.splitlines()[1:] if line.strip()).lstrip("- ")


@pytest.mark.parametrize(("question", "asks"), [
    ("What does the table show?", True), ("What does the table represent?", True),
    ("What is shown in the table?", True), ("What does the following table present?", True),
    ("What does the table show us?", True),
    ("What does the table show about revenue in 2019?", True),
    ("What was revenue in 2019?", False), ("Which table shows revenue?", False),
    ("What does the company show in its segment note?", False),
])
def test_a_question_about_the_table_itself_is_told_from_a_figure_question(question, asks):
    assert (read(question).intent == "table_subject") is asks


@pytest.mark.parametrize(("source", "sentence"), [
    ("emoluments.html", "Aggregate emoluments of the Directors of the Company were as follows:"),
    ("fees.html", "The table below shows the fees billed by our independent auditor, excluding out-of-pocket "
                  "expenses:"),
])
def test_what_the_table_shows_is_the_sentence_introducing_it(service, source, sentence):
    ans = service.ask("What does the table show?", "captions", sources=[source], rerank=False)
    assert not ans.declined
    line = _first_line(ans.answer)
    assert line.startswith(sentence)
    assert line.endswith("[1]")
    assert ans.citations[0].source == source
    assert sentence in ans.citations[0].text


@pytest.mark.parametrize(("question", "term"), [
    ("What is Audit Fees?", True), ("What is included in Customer related costs?", True),
    ("What is Trade receivables?", True), ("What is the revenue?", False),
    ("What is fee for locker rent?", False), ("What is Total Revenue in 2019?", False),
])
def test_a_named_term_asks_for_its_definition(question, term):
    assert ("description" in read(question).flags) is term


def test_a_definition_is_the_sentence_not_the_table_row_naming_the_term(service):
    ans = service.ask("What is Audit Fees?", "captions", sources=["fees.html"], rerank=False)
    assert not ans.declined
    line = _first_line(ans.answer)
    assert line.startswith("Audit Fees consist of fees billed for the annual audit")
    assert "column" not in ans.answer.split("\n\n", 1)[1].splitlines()[0]


@pytest.mark.parametrize(("sentence", "printed", "stated"), [
    ("We guide loan growth of 15% to 16% and deposit growth of 14% to 15%.", "14%", "14% to 15%"),
    ("Annual fees run ₹500–1,000 per card.", "₹500", "₹500 to 1,000"),
    ("Margins of 12-14% are expected.", "12", "12 to 14%"),
    ("Revenue rose in 2018-2019 to $1,200 million.", "1,200", None),  # years, not a range
    ("Deposits grew 14% to ₹4,41,600 crore.", "14%", None),  # a growth to an amount: another unit
    ("Volume rose from 612 to 787 crore.", "612", None),  # a movement, not a range
])
def test_a_sentences_range_is_read_whole(sentence, printed, stated):
    from decimal import Decimal

    from prism.answering.programs.operation import Operand
    from prism.answering.programs.writing import stated_range

    operand = Operand(sentence, "", None, (0, 0), printed, Decimal(1), None, None, "percent", 0, source="sentence")
    assert stated_range(operand) == stated
