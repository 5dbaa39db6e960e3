"""Figures with their row, column and unit and comparison follow-ups.

Pure functions on hand-made rows; then the real pipeline (fpdf2-built 10-K, real parser, table finder, embedder,
Chroma, BM25, HybridRetriever, AnswerEngine); then real filings from ../shared/data (skipped, naming the folder,
without it): Netflix's 2015 10-K and four FinanceBench dev figure lookups in one workspace.
"""

from __future__ import annotations

import json
import re

import pytest

from prism.answering.answerability import assess
from prism.answering.programs.answer import choose
from prism.answering.programs.columns import column_periods, pick_columns
from prism.answering.programs.step import figure_lines
from prism.answering.programs.writing import cell_quote
from prism.answering.reading.followups import condense_comparison, condense_heuristic
from prism.config import Settings
from prism.index.tokenizer import tokenize
from prism.service import PrismService
from prism.types import ChunkTable, IngestItem, RetrievedChunk, TableRow, Turn
from tests.builders import STATEMENT_ROWS, statement_pdf
from tests.conftest import require_data
from tests.readings import read, row_named, table_evidence

NETFLIX_Q = "What was Netflix's net income in 2015?"
FOLLOW_UP = "And how did that compare with the prior year?"


def _row(label: str, *cells: str) -> TableRow:
    return TableRow(label, cells, tuple((0, 0) for _ in cells), 0, 0)


def _cell_lines(question: str, chunks: list[RetrievedChunk], rows_of) -> tuple[list[tuple[str, int]], list]:
    """The figure lines the answer gives ``question`` over ``chunks`` (the programs' choice, written), and the
    chunks it appends as sources."""
    reading = read(question)
    _, lines, extra = figure_lines(reading, choose(reading, chunks, rows_of), rows_of)
    return lines, extra


# --- pure ---------------------------------------------------------------------------------------------------------
def test_row_label_words_must_all_be_in_the_question():
    rows = table_evidence(("Current assets:", ""), ("Total", "9"), ("Net income per share", "0.29"),
                          ("Net income", "122,641"), ("Property, plant and equipment, net", "12,645"),
                          ("Operating income", "305,826"))
    # "per share" is not asked; a section label has no cells
    assert row_named("What was Netflix's net income in 2015?", rows) == "Net income"
    assert row_named("what is Boeing's year end FY2018 net property, plant, and equipment (in USD millions)?",
                     rows) == "Property, plant and equipment, net"
    assert row_named("What is the refund period?", rows) is None
    assert row_named("What was the total in 2015?", rows) is None  # "Total" names no line item


def test_a_bracketed_abbreviation_need_not_be_asked_but_other_brackets_must():
    rows = table_evidence(("Other income (expense), net", "203"), ("Operating profit", "3,571"),
                          ("Net profit (PAT)", "2,146"), ("Net income (loss)", "11,588"))
    assert row_named("What was Meridian Bank's net profit in Q2 FY25?", rows) == "Net profit (PAT)"
    assert row_named("What was the net profit (PAT) in Q2 FY25?", rows) == "Net profit (PAT)"
    # "other" is a stop word: "(expense)" keeps "Other income (expense), net" from answering "net income"
    assert row_named("What was Amazon's net income in 2019?", rows) != "Other income (expense), net"
    assert row_named("What was Amazon's net income (loss) in 2019?", rows) == "Net income (loss)"


def test_columns_are_named_with_the_document_fiscal_year_end():
    assert column_periods(("2015", "2014", "2013"), "2015-12-31") == ["FY2015", "FY2014", "FY2013"]
    # Costco's 52/53-week year ends on the Sunday nearest the end of August
    assert column_periods(("August 29, 2021", "August 30, 2020"), "2021-08-29") == ["FY2021", "FY2020"]
    assert column_periods(("Three Months Ended June 30, 2022", "Streaming", "2015 2014"), "2022-12-31") == [
        "Q2 FY2022", None, None]
    # a January year end: Walmart's FY2020 10-K names its columns by the year they end in ("2020" ended 31 January
    # 2020, the document's own year); a table whose latest year is the year before names them by the year they start in
    assert column_periods(("2020", "2019", "2018"), "2020-01-31") == ["FY2020", "FY2019", "FY2018"]
    assert column_periods(("2019", "2018"), "2020-01-31") == ["FY2020", "FY2019"]


def test_pick_columns_asked_periods_else_the_most_recent():
    named = ["FY2013", "FY2014", None, "FY2015"]  # oldest first, as Amazon prints them
    assert pick_columns(named, ["FY2015", "FY2014"]) == [3, 1]
    assert pick_columns(named, ["FY2016"]) == []
    assert pick_columns(named, []) == [3]
    assert pick_columns([None, None], []) == []
    assert pick_columns(["Q2 FY2022", "FY2022", "Q4 FY2021"], []) == [1]


def test_pick_columns_of_a_two_level_header_takes_the_measure_the_question_names():
    headers = ["Revenue (Rs. crore) FY2024", "Revenue (Rs. crore) FY2023", "Net profit (Rs. crore) FY2024",
               "Net profit (Rs. crore) FY2023"]
    named = column_periods(headers, None)
    assert named == ["FY2024", "FY2023", "FY2024", "FY2023"]
    asked = set(tokenize("net profit of the Retail banking segment in FY2023"))
    assert pick_columns(named, ["FY2023"], headers, asked) == [3]
    assert pick_columns(named, ["FY2023"], headers, set(tokenize("revenue in FY2023"))) == [1]
    assert pick_columns(named, [], headers, asked) == [2]  # the most recent net profit column
    assert pick_columns(named, ["FY2023"]) == [1]  # without headers: the first, as before


def test_a_quoted_cell_names_row_column_and_unit():
    quote = ("Net income", "2015", "122,641", "thousands", "USD", "CONSOLIDATED STATEMENTS OF OPERATIONS")
    assert cell_quote(*quote) == "Net income, 2015: $122,641 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS)"
    loss = ("Operating income (loss)", "December 31, 2018", "(1,837)", "crore", "INR", None)
    assert cell_quote(*loss) == "Operating income (loss), December 31, 2018: -₹1,837 crore"
    margin = ("Gross margin", "2023", "41.2%", "millions", "USD", None)
    assert cell_quote(*margin) == "Gross margin, 2023: 41.2%"
    per_member = ("Global streaming average monthly revenue per paying membership", "2015", "8.15", "thousands", "USD",
                  None)  # "(in thousands, except per share data)"
    assert cell_quote(*per_member) == "Global streaming average monthly revenue per paying membership, 2015: $8.15"
    eps = ("Diluted EPS", "2015", "0.28", "thousands", "USD", None)
    assert cell_quote(*eps) == "Diluted EPS, 2015: $0.28"
    ratio = ("Gross NPA per cent", "FY2025", "2.1", "crore", "INR", None)
    assert cell_quote(*ratio) == "Gross NPA per cent, FY2025: 2.1%"  # a percentage row's bare cell gets its %
    leaders = ("Total revenue............ $", "2015", "4,795,511", "thousands", "USD", None)
    assert cell_quote(*leaders) == "Total revenue, 2015: $4,795,511 thousand"  # a 10-K's dot leaders are not read


@pytest.mark.parametrize(("follow_up", "previous", "expected"), [
    (FOLLOW_UP, NETFLIX_Q, "What was Netflix's net income in 2015 and 2014?"),
    ("How does that compare with 2013?", NETFLIX_Q, "What was Netflix's net income in 2015 and 2013?"),
    ("And the previous year?", "What was the EBITDA margin in Q3 FY24?",
     "What was the EBITDA margin in Q3 FY24 and Q3 FY23?"),
    ("what about a year earlier?", "Revenue in FY2015 for Adobe?", "Revenue in FY2015 and FY2014 for Adobe?"),
])
def test_comparison_follow_up_asks_the_same_item_over_both_periods(follow_up, previous, expected):
    assert condense_comparison(follow_up, previous) == expected
    assert condense_heuristic(follow_up, [Turn(previous, "…")]) == expected


def test_comparison_needs_a_period_to_compare():
    assert condense_comparison(FOLLOW_UP, "What is the P2P limit for UPI?") is None
    assert condense_comparison("How does that compare?", NETFLIX_Q) is None


def test_a_row_in_another_chunk_of_a_retrieved_table_is_read_there_and_cited():
    """A balance sheet cut into two chunks; only the first is retrieved, the row asked for is in the second."""
    columns = ("August 29, 2021", "August 30, 2020")

    def row(chunk_id: str, index: int, rows: tuple[TableRow, ...]) -> dict:
        table = ChunkTable("p38-t1", "CONSOLIDATED BALANCE SHEETS | August 29, 2021 | August 30, 2020 | in millions",
                           "CONSOLIDATED BALANCE SHEETS", columns, "millions", "USD", None, rows)
        return {"chunk_id": chunk_id, "doc_id": "c", "source": "costco.pdf", "text": "…", "chunk_index": index,
                "page_start": 38, "page_end": 38, "table_id": "p38-t1", "fiscal_year_end": "2021-08-29",
                "table": table.to_dict()}
    stored = [row("c-1", 1, (_row("Total current assets", "29,505", "28,120"),)),
              row("c-2", 2, (_row("TOTAL ASSETS", "59,268", "55,556"), _row("Current liabilities:")))]
    retrieved = [RetrievedChunk("c-1", "c", "costco.pdf", "…", 1, 38, 38,
                                metadata={"table_id": "p38-t1", "fiscal_year_end": "2021-08-29"})]
    lines, extra = _cell_lines("How much total assets did Costco have at the end of FY2021?", retrieved,
                               lambda doc_id: stored if doc_id == "c" else [])
    assert lines == [("TOTAL ASSETS, August 29, 2021: $59,268 million (CONSOLIDATED BALANCE SHEETS)", 2)]
    assert [(c.chunk_id, c.page_start, c.metadata["table_id"]) for c in extra] == [("c-2", 38, "p38-t1")]
    lines, extra = _cell_lines("What were total current assets at the end of FY2020?", retrieved,
                               lambda doc_id: stored)
    assert lines == [("Total current assets, August 30, 2020: $28,120 million (CONSOLIDATED BALANCE SHEETS)", 1)]
    assert extra == []


def test_a_currency_code_asking_for_the_unit_is_found_in_amounts_in_that_currency():
    """ "Answer in USD millions" names the answer's unit: a passage of dollar amounts has it; a rupee one does not."""
    question = "What were total assets at the end of FY2021? Answer in USD millions."
    dollars = RetrievedChunk("d-1", "d", "costco.pdf", "TOTAL ASSETS $ 59,268 $ 55,556 FY2021")
    by_metadata = RetrievedChunk("d-2", "d", "costco.pdf", "TOTAL ASSETS 59,268 55,556 FY2021",
                                 metadata={"table_currency": "USD"})
    rupees = RetrievedChunk("r-1", "r", "bank.pdf", "Total assets Rs. 59,268 crore FY2021")

    def rare(terms):  # every word as rare as a word in no chunk: only the currency rule can find USD
        return {t: 5.0 for t in terms}, 5.0

    def verdict(chunk):
        return assess(read(question), [chunk], 1.0, rare, min_relevance=0.3, min_salient_idf=0.8)
    assert verdict(dollars).missing == () and verdict(by_metadata).missing == ()
    assert verdict(rupees).missing == ("USD",)


# --- the real pipeline on a built 10-K ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def acme(tmp_path_factory, embedder):
    """A workspace holding :func:`tests.builders.statement_pdf` (ingested once per module)."""
    home = tmp_path_factory.mktemp("cells_home")
    svc = PrismService(Settings(home=home, groq_api_key=None, tavily_api_key=None, briefing_on_ingest=False),
                       embedder=embedder)
    result = svc.ingest([IngestItem(statement_pdf(home / "acme_10k.pdf"))], "acme")
    assert [r.status for r in result] == ["ingested"]
    return svc


def _lines(answer) -> list[str]:
    return [li[2:] for li in answer.answer.splitlines() if li.startswith("- ")]


def test_built_statement_quotes_the_asked_column(acme):
    answer = acme.ask("What was Acme's net income in 2022?", "acme")
    assert _lines(answer) == ["Net income, 2022: $52,301 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS) [1]"]
    assert answer.citations[0].source == "acme_10k.pdf" and answer.citations[0].page_start == 2
    assert answer.unsupported_numbers == [] and not answer.declined


def test_built_statement_without_a_period_quotes_the_most_recent_column_named(acme):
    answer = acme.ask("What was Acme's operating income?", "acme")
    assert _lines(answer) == ["Operating income, 2023: $96,310 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS) [1]"]


def test_built_statement_loss_and_two_periods(acme):
    answer = acme.ask("What was Acme's operating income in 2021 and 2023?", "acme")
    assert _lines(answer) == [  # each period with its own column, in the question's order, in the first line
        "Operating income, 2021: -$12,550 thousand; 2023: $96,310 thousand (CONSOLIDATED STATEMENTS OF OPERATIONS)"
        " [1]",
    ]
    assert answer.unsupported_numbers == []  # "(12,550)" in the table is the negative figure
    assert STATEMENT_ROWS[2][3] == "(12,550)"


def test_built_statement_follow_up_gives_both_years(acme):
    first = acme.ask("What was Acme's net income in 2023?", "acme")
    second = acme.ask(FOLLOW_UP, "acme", history=[Turn("What was Acme's net income in 2023?", first.answer)])
    assert second.condensed_query == "What was Acme's net income in 2023 and 2022?"
    assert _lines(second) == ["Net income, 2023: $64,875 thousand; 2022: $52,301 thousand (CONSOLIDATED STATEMENTS OF "
                              "OPERATIONS) [1]"]


# --- real filings ------------------------------------------------------------------------------------------------
FINANCEBENCH_LOOKUPS = {  # question id → the filing it is about
    "financebench_id_08286": "AMAZON_2019_10K.pdf",
    "financebench_id_10285": "BOEING_2018_10K.pdf",
    "financebench_id_04209": "COSTCO_2021_10K.pdf",
    "financebench_id_04171": "MGMRESORTS_2018_10K.pdf",
}
DISTRACTORS = ("FOOTLOCKER_2022_8K_dated_2022-08-19.pdf",)
_QUOTE = re.compile(r"^(?P<label>.+?), (?P<column>[^:]+): -?\$(?P<value>[\d,.]+)"
                    r"(?: (?P<unit>thousand|million|billion))?")
_SCALE = {None: 1.0, "thousand": 1e3, "million": 1e6, "billion": 1e9}


def _service(home, embedder, *pdfs) -> PrismService:
    svc = PrismService(Settings(home=home, groq_api_key=None, tavily_api_key=None, briefing_on_ingest=False),
                       embedder=embedder)
    result = svc.ingest([IngestItem(p) for p in pdfs], "filings")
    assert [r.status for r in result] == ["ingested"] * len(pdfs)
    return svc


@pytest.mark.slow
def test_netflix_net_income_2015_and_the_prior_year(tmp_path, embedder):
    pdf = require_data("financebench-dev", "pdfs", "NETFLIX_2015_10K.pdf")
    svc = _service(tmp_path / "home", embedder, pdf)
    first = svc.ask(NETFLIX_Q, "filings")
    lines = _lines(first)
    assert re.match(r"Net income, 2015: \$122,641 thousand( \(.+\))? \[1\]$", lines[0]), lines
    assert len(lines) == 1 and first.unsupported_numbers == []
    second = svc.ask(FOLLOW_UP, "filings", history=[Turn(NETFLIX_Q, first.answer, first.condensed_query)])
    assert second.condensed_query == "What was Netflix's net income in 2015 and 2014?"
    lines = _lines(second)
    assert re.match(r"Net income, 2015: \$122,641 thousand; 2014: \$266,799 thousand", lines[0]), lines
    assert second.unsupported_numbers == []


@pytest.mark.slow
def test_financebench_figure_lookups_quote_the_reference_with_its_column(tmp_path, embedder):
    """At least 3 of the 4 dev figure lookups give the reference figure (USD millions, to the reference's
    rounding) under a column that names the asked fiscal year, in one workspace of their filings and a distractor."""
    questions = {q["id"]: q for q in map(json.loads, require_data("financebench-dev", "questions.jsonl")
                                         .read_text(encoding="utf-8").splitlines()) if q["id"] in FINANCEBENCH_LOOKUPS}
    pdfs = [require_data("financebench-dev", "pdfs", name) for name in (*FINANCEBENCH_LOOKUPS.values(), *DISTRACTORS)]
    svc = _service(tmp_path / "home", embedder, *pdfs)
    right = []
    for qid, q in sorted(questions.items()):
        answer = svc.ask(q["question"], "filings")
        reference = float(q["answer"].strip("$").replace(",", ""))
        year = re.search(r"FY(\d{4})", q["question"]).group(1)
        cited = {c.n: c.source for c in answer.citations}
        for line in _lines(answer):
            m = _QUOTE.match(line)
            if m and year in m["column"]:
                millions = float(m["value"].replace(",", "")) * _SCALE[m["unit"]] / 1e6
                n = int(line.rsplit("[", 1)[1].rstrip("]"))
                if abs(millions - reference) <= 0.5 and cited[n] == FINANCEBENCH_LOOKUPS[qid]:
                    right.append(qid)
                    break
    assert len(right) >= 3, right


def test_a_row_under_a_per_share_heading_is_a_per_share_figure_not_an_amount_in_the_tables_scale():
    """"Basic" under "Earnings per share:" in a table in thousands: $0.34 a share, the figure asked for, not the
    $4,566,156 thousand of net income above it."""
    table = ChunkTable("p5-t1", "Net income per share | 2019 | 2018", "", ("2019", "2018"), "thousands", "USD", None,
                       (_row("Net income", "$4,566,156", "$4,274,547"), _row("Earnings per share:"),
                        _row("Basic", "$0.34", "$0.32"), _row("Diluted", "$0.33", "$0.31")))
    stored = [{"chunk_id": "e-1", "doc_id": "e", "source": "eps.pdf", "text": "…", "chunk_index": 1, "page_start": 5,
               "page_end": 5, "table_id": "p5-t1", "table": table.to_dict()}]
    chunk = RetrievedChunk("e-1", "e", "eps.pdf", "…", 1, 5, 5, metadata={"table_id": "p5-t1"})
    lines, _ = _cell_lines("What is the basic net income per share in 2019?", [chunk], lambda doc_id: stored)
    assert lines[0] == ("Basic, 2019: $0.34", 1), lines


@pytest.mark.parametrize(("label", "tokens"), [
    ("Volume (crore transactions)", {"volum"}),  # the parenthesis states the row's unit: not the item's name
    ("Value (₹ lakh crore)", {"valu"}),
    ("Net income (loss)", {"net", "incom", "loss"}),  # "(loss)" names no unit
    ("Preferred stock (as-converted basis)", {"prefer", "stock", "asconvert", "convert", "basi"}),  # no unit opens it
    ("YoY volume growth", {"yoy", "volum", "grow"}),  # "growth" and "grew" are one term
])
def test_a_row_is_named_by_its_label_without_the_unit_it_states(label, tokens):
    from prism.answering.programs.evidence import naming_tokens

    assert naming_tokens(label) == frozenset(tokens)


def test_the_numerator_under_a_per_share_heading_stays_an_amount():
    """Net income under "Basic earnings per share:" (a 10-K's computation of EPS) is the company's net income in
    the table's thousands; the cents figure below it is the per-share one."""
    table = ChunkTable("p7-t1", "Earnings per share | 2015 | 2014", "", ("2015", "2014"), "thousands", "USD", None,
                       (_row("Basic earnings per share:"), _row("Net income", "$122,641", "$266,799"),
                        _row("Shares used in computation", "425,889", "420,544"),
                        _row("Basic earnings per share", "$0.29", "$0.63")))
    stored = [{"chunk_id": "n-1", "doc_id": "n", "source": "nflx.pdf", "text": "…", "chunk_index": 1, "page_start": 7,
               "page_end": 7, "table_id": "p7-t1", "table": table.to_dict()}]
    chunk = RetrievedChunk("n-1", "n", "nflx.pdf", "…", 1, 7, 7, metadata={"table_id": "p7-t1"})
    lines, _ = _cell_lines("What was net income in 2015?", [chunk], lambda doc_id: stored)
    assert lines[0] == ("Net income, 2015: $122,641 thousand", 1), lines
