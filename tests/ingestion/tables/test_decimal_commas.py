"""Figures printed with decimal commas ("1.234,5", German and Indonesian filings): the number convention is read
once per table at ingestion (the document's where a table's cells do not settle it), stored with the table, and
every cell is read with it; a table whose convention stays ambiguous says so on each figure and computes nothing
(case c71, fourth batch).

The table finder on stored text first; then the case file and two statements built here with fpdf2 through the
real pipeline (pypdf, the table finder, the embedder, Chroma, BM25, the HybridRetriever, the extractive
AnswerEngine and its number check).
"""

from __future__ import annotations

import pytest

from prism.ingestion.tables.finders import with_document_numbers
from prism.ingestion.tables.stored_text import find_tables
from prism.types import ChunkTable, IngestItem
from prism.vocabulary.number_formats import AMBIGUOUS_NOTE, NOT_COMPUTED_NOTE
from tests.builders import text_pdf
from tests.conftest import CASES, offline_service

C71 = CASES / "c71_decimal_comma_income_statement.pdf"

GERMAN = """Consolidated income statement in EUR million
2024 2023
Revenue 1.234,5 1.102,3
Cost of sales (612,8) (548,1)
Gross profit 621,7 554,2
Net profit for the year 148,6 121,9
"""


def test_rows_of_decimal_comma_figures_are_read_and_their_convention_stored():
    [table] = find_tables(GERMAN, 1)
    assert [(r.label, r.cells) for r in table.rows] == [
        ("Revenue", ("1.234,5", "1.102,3")), ("Cost of sales", ("(612,8)", "(548,1)")),
        ("Gross profit", ("621,7", "554,2")), ("Net profit for the year", ("148,6", "121,9"))]
    assert (table.decimal, table.ambiguous_numbers) == (",", False)
    chunk = ChunkTable(table.table_id, table.index_header, table.title, table.column_headers, table.unit,
                       table.currency, None, table.rows, table.decimal, table.ambiguous_numbers)
    assert chunk.metadata()["table_decimal"] == ","
    read = ChunkTable.from_dict(chunk.to_dict()).with_decimal_point()
    assert [r.cells for r in read.rows][:2] == [("1,234.5", "1,102.3"), ("(612.8)", "(548.1)")]


def test_a_table_its_cells_do_not_settle_takes_the_documents_convention():
    key_figures = "Key figures\n2024 2023\nActive merchants (thousand) 1.246 1.088\nEmployees 3.412 3.105\n" \
                  "Branches 1.020 1.011\n"
    [(_, statement)] = [(0, t) for t in find_tables(GERMAN, 1)]
    [(_, alone)] = with_document_numbers([(1, find_tables(key_figures, 2)[0])])
    assert (alone.decimal, alone.ambiguous_numbers) == (".", True)  # nothing settles it: said to be ambiguous
    both = with_document_numbers([(0, statement), (1, find_tables(key_figures, 2)[0])])
    assert [(t.decimal, t.ambiguous_numbers) for _, t in both] == [(",", False), (",", False)]


@pytest.fixture(scope="module")
def c71(tmp_path_factory, embedder):
    svc = offline_service(tmp_path_factory.mktemp("c71_home"), embedder, briefing_on_ingest=False)
    [result] = svc.ingest([IngestItem(C71)], "eu")
    assert result.status == "ingested"
    return svc


@pytest.mark.parametrize(("question", "figure"), [
    ("What was revenue in 2024?", "Revenue, 2024: €1,234.5 million"),
    ("What was the cost of sales in 2023?", "Cost of sales, 2023: -€548.1 million"),
    ("How many active merchants were there in 2024?", "Active merchants (thousand), 2024: 1,246"),
    ("What was the total payment volume in 2024?", "Total payment volume (EUR billion), 2024: 84.3"),
    ("What was the take rate in 2023?", "Take rate (%), 2023: 1.53%"),
])
def test_each_figure_is_read_with_the_documents_decimal_comma(c71, question, figure):
    answer = c71.ask(question, "eu")
    assert figure in answer.answer, answer.answer
    assert answer.unsupported_numbers == []  # the number check reads the block with its convention too


def test_a_change_is_computed_from_figures_read_with_the_decimal_comma(c71):
    profit = c71.ask("What was the change in net profit for the year from 2023 to 2024?", "eu")
    assert profit.calculation is not None and profit.calculation.result == "€26.7 million"
    assert [i.value for i in profit.calculation.inputs] == ["121.9", "148.6"]
    rate = c71.ask("How did the take rate change from 2023 to 2024?", "eu")
    assert rate.calculation is not None
    assert rate.calculation.result == "-0.07 percentage points (-7 bps)"


AMBIGUOUS = """MERIDIAN PAYMENTS SE
Operating data (unaudited)
2024 2023
Active merchants (thousand) 1.246 1.088
Point-of-sale terminals (thousand) 3.412 3.105
Partner banks 1.020 1.011
"""


@pytest.fixture(scope="module")
def ambiguous(tmp_path_factory, embedder):
    root = tmp_path_factory.mktemp("ambiguous")
    svc = offline_service(root / "home", embedder, briefing_on_ingest=False)
    [result] = svc.ingest([IngestItem(text_pdf(root / "meridian_operating_data.pdf", [AMBIGUOUS]))], "ops")
    assert result.status == "ingested"
    return svc


def test_an_ambiguous_figure_says_so_and_nothing_is_computed_from_it(ambiguous):
    looked_up = ambiguous.ask("How many active merchants were there in 2024?", "ops")
    assert f"Active merchants (thousand), 2024: 1.246 thousand {AMBIGUOUS_NOTE}" in looked_up.answer
    change = ambiguous.ask("What was the change in active merchants from 2023 to 2024?", "ops")
    assert change.calculation is None
    assert "omputed in code" not in change.answer
    assert f"Active merchants (thousand), 2023: 1.088 thousand {AMBIGUOUS_NOTE}" in change.answer
    assert f"Active merchants (thousand), 2024: 1.246 thousand {AMBIGUOUS_NOTE}" in change.answer
    assert NOT_COMPUTED_NOTE in change.answer
