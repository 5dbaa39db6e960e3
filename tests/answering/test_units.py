"""The number check with units, on pure text: quantity pairs that must and must not match, the unit
a table states once (cases 41, 41b), "Rs." amounts (case 49), signs, and quoting a table figure with its unit.
The engine end to end (real ingest of the case files) is in test_units_engine.py."""

from __future__ import annotations

import pytest

from prism.answering.citations import sentences_with_refs
from prism.answering.figures import extract_figures, same_quantity, supported, unsupported_numbers
from prism.answering.units import Block, blocks_of_chunks, page_head, stated_unit, with_units
from prism.types import RetrievedChunk
from tests.conftest import CASES

MILLIONS = (CASES / "41_income_statement_in_millions.txt").read_text(encoding="utf-8")
CRORE = (CASES / "41b_results_in_crore.txt").read_text(encoding="utf-8")
PENALTY = (CASES / "49_penalty_in_rs.txt").read_text(encoding="utf-8")


def _one(text: str):
    [figure] = extract_figures(text)
    return figure


# (a, b, same quantity?) — each pair is checked in both directions.
PAIRS = [
    # scale words
    ("$5,213 million", "$5.213 billion", True),
    ("$5,213 million", "$5,213 billion", False),
    ("$1.2 mn", "$1,200,000", True),
    ("$1.2 mn", "$1.2 bn", False),
    ("$5.2B", "$5,213 million", True),
    ("₹5cr", "₹50 million", True),
    ("10 lakh", "1 million", True),
    ("₹2.5 crore", "₹250 lakh", True),
    ("₹2.5 crore", "₹2.5 lakh", False),
    ("₹2.52 lakh crore", "₹2,520 billion", True),
    # Indian grouping and rupee forms
    ("₹1,00,000", "₹1 lakh", True),
    ("₹1,00,00,000", "₹1 crore", True),
    ("₹1,00,000", "₹1 million", False),
    ("Rs. 50,000", "₹50,000", True),
    ("Rs. 50,000", "₹5,000", False),
    ("INR 5,000", "₹ 5,000", True),
    # rounding: equal within the rounding of the less precise one; a whole number is exact
    ("$5.2 billion", "$5,213 million", True),
    ("$5.3 billion", "$5,213 million", False),
    ("₹8.4 lakh crore", "₹8.42 lakh crore", True),
    ("₹8.4 lakh crore", "₹8.46 lakh crore", False),
    ("₹1 lakh", "₹1.4 lakh", False),
    # currency conflicts (a figure without currency conflicts with none)
    ("$5,213 million", "₹5,213 million", False),
    ("€5 million", "$5 million", False),
    ("5,213 million", "$5,213 million", True),
    # percent vs bps, percent vs amount
    ("25 bps", "0.25%", True),
    ("25 bps", "25%", False),
    ("0.25%", "2.5 bps", False),
    ("12.5 per cent", "12.5%", True),
    ("2.5%", "2.5 crore", False),
    # negative and parenthesised values: sizes compare, signs are the block check's business
    ("$(1,234) million", "$1,234 million", True),
    ("-$1,234 million", "$1,234 million", True),
    ("$(1,234) million", "$1,243 million", False),
]


@pytest.mark.parametrize(("a", "b", "same"), PAIRS, ids=[f"{a} ~ {b}" for a, b, _ in PAIRS])
def test_quantity_pairs_both_directions(a, b, same):
    fa, fb = _one(a), _one(b)
    assert same_quantity(fa, fb) is same
    assert same_quantity(fb, fa) is same


def test_signs_are_read():
    assert [f.sign for f in extract_figures("-$1,234 million, $ (1,234) and (₹500) but ₹500")] == ["-", "()", "()", ""]
    assert all(f.value > 0 for f in extract_figures("-$1,234 million"))


@pytest.mark.parametrize(("text", "expected"), [
    ("(In millions, except per share amounts)", ("millions", None)),
    ("Standalone financial results (Rs. in crore)", ("crore", "INR")),
    ("(Dollars in thousands)", ("thousands", "USD")),
    ("All figures ₹ lakh crore unless stated otherwise", ("lakh crore", "INR")),
    ("Value (₹ lakh crore) YoY growth", None),  # a column header mid-line states its column's unit only
    ("Banks shall pay a penalty of Rs. 5,000 for each day.", None),
])
def test_stated_unit(text, expected):
    assert stated_unit(text) == expected


def test_case_41_one_quantity_in_millions():
    block = Block.of(MILLIONS)
    assert (block.unit, block.currency, block.scale) == ("millions", "USD", 1e6)
    blocks = {"1": block}
    for good in ("$5,213 million", "$5.2 billion", "$5,213", "5,213 million", "$1,102 million"):
        assert unsupported_numbers(f"Net sales were {good} [1].", blocks) == [], good
    assert unsupported_numbers("Net sales were $5,213 billion [1].", blocks) == ["$5,213 billion"]
    assert unsupported_numbers("Net sales were ₹5,213 million [1].", blocks) == ["₹5,213 million"]
    assert unsupported_numbers("Net sales were $5.3 billion [1].", blocks) == ["$5.3 billion"]
    # the same text without its header is not in millions: "$5,213 million" is not found there
    assert unsupported_numbers("Net sales were $5,213 million [1].", {"1": MILLIONS.split("\n", 2)[2]}) == [
        "$5,213 million"]


def test_case_41_negative_figure():
    block = Block.of(MILLIONS)
    assert supported(_one("-$1,234 million"), block)  # "$ (1,234)" is negative
    assert supported(_one("a net loss of $1,234 million"), block)  # the size of the negative figure
    assert not supported(_one("-$1,102 million"), block)  # operating income is positive


def test_case_41b_crore():
    block = Block.of(CRORE)
    assert (block.unit, block.currency) == ("crore", "INR")
    blocks = {"1": block}
    assert unsupported_numbers("Net profit was ₹812 crore [1]; total income Rs. 5,213 crore [1].", blocks) == []
    assert unsupported_numbers("Net profit was ₹8.12 billion [1].", blocks) == []
    assert unsupported_numbers("Net profit was ₹812 lakh [1].", blocks) == ["₹812 lakh"]
    assert unsupported_numbers("Net profit was $812 crore [1].", blocks) == ["$812 crore"]


def test_case_49_rs_amounts():
    blocks = {"1": Block.of(PENALTY)}
    assert Block.of(PENALTY).currency == "INR" and Block.of(PENALTY).unit is None
    assert unsupported_numbers("Banks pay Rs. 5,000 a day [1].", blocks) == []
    assert unsupported_numbers("Banks pay Rs. 50,000 a day [1].", blocks) == ["Rs. 50,000"]
    assert unsupported_numbers("Banks pay ₹50,000 a day [1].", blocks) == ["₹50,000"]
    # "Rs." does not end the sentence: the figure stays with its marker
    assert sentences_with_refs("Banks pay Rs. 5,000 a day [1]. Branches open at 10 am [2].") == [
        ("Banks pay Rs. 5,000 a day [1].", ("1",)), ("Branches open at 10 am [2].", ("2",))]


@pytest.mark.parametrize(("sentence", "text", "expected"), [
    ("Net sales $ 5,213", MILLIONS, "Net sales $5,213 million"),
    ("Net sales $ 5,213 Operating income 1,102", MILLIONS, "Net sales $5,213 million Operating income $1,102 million"),
    ("Net income (loss) $ (1,234)", MILLIONS, "Net income (loss) $(1,234) million"),
    ("Net profit 812", CRORE, "Net profit ₹812 crore"),
    ("Total income 5,213 Net profit 812", CRORE, "Total income ₹5,213 crore Net profit ₹812 crore"),
    ("(In millions, except per share amounts)", MILLIONS, "(In millions, except per share amounts)"),
    # left alone: prose numbers, a figure with its own unit, a row stating its own unit, years, a block without unit
    ("Banks shall pay a penalty of Rs. 5,000 for each day of delay", CRORE,
     "Banks shall pay a penalty of Rs. 5,000 for each day of delay"),
    ("Growth (%) 12.5 13.1", CRORE, "Growth (%) 12.5 13.1"),
    # per-unit rows are in plain currency ("(In millions, except per share amounts)"), other rows in the scale
    ("Diluted earnings per share $ 2.97 $ 3.41", MILLIONS, "Diluted earnings per share $ 2.97 $ 3.41"),
    ("Average monthly revenue per paying membership $ 8.15 Revenues $ 6,780", MILLIONS,
     "Average monthly revenue per paying membership $ 8.15 Revenues $6,780 million"),
    ("Revenues $ 6,780 Average monthly revenue per paying membership $ 8.15", MILLIONS,
     "Revenues $6,780 million Average monthly revenue per paying membership $ 8.15"),
    ("Capital adequacy ratio per cent 16.4 15.9", CRORE, "Capital adequacy ratio per cent 16.4 15.9"),
    ("Net profit 2024 2023", CRORE, "Net profit 2024 2023"),
    ("Net profit 812", PENALTY, "Net profit 812"),
    # a footnote's marker opening a sentence is no cell; a row's "Change (%)" column is a percent
    ("(2) Qdoba Evaluation consulting costs are primarily related to advisory services.", MILLIONS,
     "(2) Qdoba Evaluation consulting costs are primarily related to advisory services."),
    ("Order intake; 2019: 532.0; Change (%): 13.2", MILLIONS, "Order intake; 2019: 532.0; Change (%): 13.2"),
    # a footnote's marker after a row's label is no cell either (Netflix's 10-K, Selected Financial Data); a loss is
    ("Net sales (1) 5,213 4,876 4,410", MILLIONS, "Net sales (1) $5,213 million $4,876 million $4,410 million"),
    ("Other income (12) 5,213 4,876", MILLIONS, "Other income $(12) million $5,213 million $4,876 million"),
    ("Other income (1) 5,213", MILLIONS, "Other income $(1) million $5,213 million"),
])
def test_with_units(sentence, text, expected):
    assert with_units(sentence, Block.of(text)) == expected


def test_quoted_figure_passes_the_number_check():
    block = Block.of(MILLIONS)
    quoted = with_units("Net sales $ 5,213 Operating income 1,102", block)
    assert unsupported_numbers(quoted + " [1].", {"1": block}) == []


def _chunk(index: int, text: str, page: int | None = None) -> RetrievedChunk:
    return RetrievedChunk(chunk_id=f"c{index}", doc_id="d", source="r.txt", text=text, chunk_index=index,
                          page_start=page, page_end=page)


def test_page_head_and_blocks_of_chunks():
    rows = [{"chunk_index": 0, "page_start": 3, "text": "Results (Rs. in crore)\nRevenue 100"},
            {"chunk_index": 1, "page_start": 3, "text": "Cost 40\n(In millions)"},
            {"chunk_index": 2, "page_start": 4, "text": "Other 7"},
            {"chunk_index": 3, "page_start": 3, "text": "Profit 60"}]
    later = _chunk(3, "Profit 60", page=3)
    assert page_head(later, rows) == "Results (Rs. in crore)\nRevenue 100\nCost 40\n(In millions)"
    reads: list[str] = []

    def rows_of(doc_id: str):
        reads.append(doc_id)
        return rows

    first, other, own = blocks_of_chunks([later, _chunk(2, "Other 7", page=4), _chunk(5, "x (₹ in lakh)", page=3)],
                                         rows_of)
    assert (first.unit, first.currency) == ("millions", None)  # the nearest statement before it on its page
    assert other.unit is None  # nothing before it on page 4
    assert (own.unit, own.currency) == ("lakh", "INR")  # its own statement wins
    assert reads == ["d"]  # read once per document
    assert blocks_of_chunks([_chunk(0, "Revenue 100")], rows_of)[0].unit is None and reads == ["d"]


def test_table_metadata_unit_wins():
    table = RetrievedChunk(chunk_id="t", doc_id="d", source="r.pdf", text="Revenue 100 (In millions)",
                           metadata={"table_unit": "crore", "table_currency": "INR", "unit": "millions"})
    [block] = blocks_of_chunks([table])
    assert (block.unit, block.currency) == ("crore", "INR")
    prose = RetrievedChunk(chunk_id="p", doc_id="d", source="r.pdf", text="Revenue rose to 100 units.",
                           metadata={"unit": "millions", "currency": "USD"})  # the document profile's
    [block] = blocks_of_chunks([prose])
    assert (block.unit, block.currency) == (None, "USD")


def test_a_table_whose_columns_count_in_different_units_gives_its_cells_no_one_unit():
    """The UPI annexure's columns are "Volume (crore transactions)" and "Value (₹ lakh crore)": the table's one
    unit ("crore", in INR) is no cell's, so a quoted row keeps its cells as printed, never "₹612 crore"."""
    from prism.answering.units import columns_own_units

    headers = "Volume (crore transactions) | Value (₹ lakh crore) | YoY volume growth | Technical decline rate"
    row = "FY2024 612 8.40 52.6% 0.75%"
    mixed = RetrievedChunk(chunk_id="t", doc_id="d", source="upi.pdf", text=row,
                           metadata={"table_unit": "crore", "table_currency": "INR", "table_columns": headers})
    [block] = blocks_of_chunks([mixed])
    assert (block.unit, block.currency) == (None, None)
    assert with_units(row, block) == row
    assert columns_own_units(headers.split(" | ")) == {"crore transactions", "₹ lakh crore"}
    one = "Advances (₹ crore) | Deposits (₹ crore) | YoY (%)"  # one unit, stated per column, and a percent
    assert columns_own_units(one.split(" | ")) == {"₹ crore"}
    same = RetrievedChunk(chunk_id="u", doc_id="d", source="r.pdf", text="Q2 FY25 4,812 6,686",
                          metadata={"table_unit": "crore", "table_currency": "INR", "table_columns": one})
    [block] = blocks_of_chunks([same])
    assert (block.unit, block.currency) == ("crore", "INR")
    assert "₹4,812 crore" in with_units("Q2 FY25 4,812 6,686", block)


@pytest.mark.parametrize(("label", "stated"), [
    ("Volume (crore transactions)", ("", "crore transactions")),
    ("Value (₹ lakh crore)", ("₹", "lakh crore")),
    ("Deposits (Rs. crore)", ("₹", "crore")),
    ("Inventory turnover (days)", ("", "days")),
    ("Employees (number)", None),  # a count: no unit to write beside it
    ("Change (%)", None),  # a percentage is written as one
    ("Preferred stock (as-converted basis)", None),  # no unit opens the parenthesis
    ("Net income (loss)", None),
])
def test_the_unit_a_row_label_states_for_its_figures(label, stated):
    from prism.answering.units import label_unit

    assert label_unit(label) == stated


def test_a_figure_of_a_row_stating_its_unit_is_written_with_it():
    from decimal import Decimal

    from prism.answering.programs.formatting import written
    from prism.answering.programs.operation import Operand
    from prism.answering.programs.writing import quote

    volume = Operand("Volume (crore transactions)", "FY2024", "FY2024", (2024, 0), "612", Decimal(612), None, None,
                     "number", 1)
    value = Operand("Value (₹ lakh crore)", "FY2024", "FY2024", (2024, 0), "8.40", Decimal("8.40"), None, None,
                    "number", 1)
    assert quote(volume) == "Volume (crore transactions), FY2024: 612 crore transactions"
    assert quote(value) == "Value (₹ lakh crore), FY2024: ₹8.40 lakh crore"
    assert written(Decimal(175), "number", volume) == "175 crore transactions"  # a change keeps the row's unit
    assert written(Decimal(-2), "number", value) == "-₹2 lakh crore"
