"""Tests of prism.ingestion.profiles.read: document profiles read from a document's own text, each field with its page.

Small texts written here exercise each rule; the sample PDFs of data/sample/ and the real filings and circulars of
../shared/data are read through prism.ingestion.parsing exactly as ingestion reads them (the shared ones skip, naming
the folder, when it is absent). Real filings are cut to their first pages with pypdf where later pages are not needed.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from prism.config import Settings
from prism.errors import PrismError
from prism.ingestion import parsing
from prism.ingestion.profiles.read import extract_profile, short_name
from prism.ingestion.profiles.text import SNIPPET_CHARS, find_dates, find_unit, fiscal_year_of
from prism.types import CORRECTED_SNIPPET, DocumentProfile, ProfileSource

REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "data" / "sample"
DATA = REPO.parent / "shared" / "data"
FILINGS = DATA / "financebench-dev" / "pdfs"
RBI = DATA / "rbi" / "pdfs"
SETTINGS = Settings(ocr_enabled=False)


def _need(folder: Path) -> None:
    if not folder.is_dir():
        pytest.skip(f"needs the shared data folder {folder} (real filings and circulars; CI has it)")


def _pages(path: Path, name: str | None = None, first: int | None = None) -> list[tuple[int | None, str]]:
    """Pages of ``path`` as Prism parses them, under the display name ``name``, optionally only the first pages."""
    name = name or path.name
    if first is None:
        doc = parsing.load(path, name, SETTINGS)
    else:
        writer = PdfWriter()
        for page in PdfReader(path).pages[:first]:
            writer.add_page(page)
        buffer = io.BytesIO()
        writer.write(buffer)
        doc = parsing.load(buffer.getvalue(), name, SETTINGS)
    return [(p.number, p.text) for p in doc.pages]


def _assert_snippets_bounded(profile: DocumentProfile) -> None:
    for name, src in profile.sources.items():
        assert 0 < len(src.snippet) <= SNIPPET_CHARS, name


# --- small texts ---------------------------------------------------------------------------------------------------

TEN_K = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
For the fiscal year ended February 1, 2020
Commission file number 1-10299
ACME STORES, INC.
(Exact name of registrant as specified in its charter)
Securities registered pursuant to Section 12(b) of the Act:
Title of each class Trading Symbol(s) Name of each exchange on which registered
Common Stock, par value $0.01 per share ACME New York Stock Exchange
Securities registered pursuant to Section 12(g) of the Act: None"""
TEN_K_BODY = """Acme Stores, Inc. sells shoes. Our fiscal year ended February 1, 2020 ("fiscal 2019") had 52 weeks.
Acme Stores, Inc. Consolidated Statements of Operations
(in millions, except per share data) 2019 2018
Sales $ 8,005 $ 7,939
(Shares in thousands) 1,000"""


def test_ten_k_cover_gives_every_field_with_its_page():
    profile = extract_profile([(1, TEN_K), (2, TEN_K_BODY)], file_name="d123456d10k.pdf")
    assert (profile.entity, profile.ticker, profile.type) == ("Acme Stores, Inc.", "ACME", "10-K")
    # the filing names its year ending 1 Feb 2020 "fiscal 2019", and that wins over the calendar-year rule
    assert (profile.period, profile.fiscal_year_end) == ("FY2019", "2020-02-01")
    assert profile.sources["period"] == ProfileSource(2, 'Acme Stores, Inc. sells shoes. Our fiscal year ended '
                                                         'February 1, 2020 ("fiscal 2019") had 52 weeks.')
    assert profile.sources["fiscal_year_end"].page == 1
    assert profile.sources["entity"] == ProfileSource(
        1, "ACME STORES, INC. (Exact name of registrant as specified in its charter)"
    )
    assert (profile.currency, profile.unit) == ("USD", "millions")  # "(Shares in thousands)" is not a money unit
    assert profile.sources["unit"] == ProfileSource(2, "(in millions, except per share data) 2019 2018")
    assert profile.aliases == ("Acme Stores, Inc.", "Acme Stores", "ACME")
    assert (profile.reference, profile.date) == (None, None)


def test_fiscal_year_is_named_by_the_year_it_ends():
    cover = TEN_K.replace("February 1, 2020", "{}")
    for ended, period in [("January 31, 2020", "FY2020"), ("May 31, 2018", "FY2018"), ("January 2, 2016", "FY2015"),
                          ("December 28, 2019", "FY2019"), ("August 29, 2021", "FY2021")]:
        assert extract_profile([(1, cover.format(ended))]).period == period, ended
    assert [fiscal_year_of(d) for d, _, _ in find_dates("January 7, 2024 January 8, 2024")] == [2023, 2024]


TEN_Q = """SECURITIES AND EXCHANGE COMMISSION
FORM 10-Q
For the quarterly period ended Commission file
July 31, 2022 number 001-6991
SHOPCO INC.
(Exact name of registrant as specified in its charter)"""


@pytest.mark.parametrize(
    ("columns", "period", "year_end"),
    [
        ("Three Months Ended July 31, 2022 Six Months Ended July 31, 2022", "Q2 FY2023", "2023-01-31"),
        ("Three Months Ended July 31, 2022 Nine Months Ended July 31, 2022", "Q3 FY2022", "2022-10-31"),
        ("Three Months Ended July 31, 2022", "Q1 FY2023", "2023-04-30"),
        ("12 Weeks Ended July 31, 2022 24 Weeks Ended July 31, 2022", "Q2 FY2023", "2023-01-31"),
    ],
)
def test_ten_q_quarter_comes_from_its_year_to_date_columns(columns, period, year_end):
    profile = extract_profile([(1, TEN_Q), (2, "Shopco Inc.\nConsolidated Statements of Income\n" + columns)])
    assert (profile.type, profile.entity, profile.period, profile.fiscal_year_end) == (
        "10-Q", "Shopco Inc.", period, year_end)
    assert profile.sources["period"].page == 1


def test_old_cover_without_symbol_column_reads_item_5():
    cover = TEN_K.replace("Trading Symbol(s) ", "").replace(" ACME New York", " New York")
    item5 = "Item 5. Market\nOur common stock is traded on the NASDAQ Global Select Market under the symbol “ACMS”."
    assert extract_profile([(1, cover)]).ticker is None
    profile = extract_profile([(1, cover), (2, TEN_K_BODY), (3, item5)])
    assert profile.ticker == "ACMS"
    assert profile.sources["ticker"].page == 3


RBI_TEXT = """भारतीय रिज़र्व बैंक
RESERVE BANK OF INDIA
RBI/2026 -2 7/78
DOR.CRE .REC.No.05/21.04 .172/2025- 26 Ju ly 15, 2024
All Scheduled Commercial Banks
Master Circular - Bank Finance to NBFCs
Please refer to our Master Circular dated April 24, 2023.
Department of Regulation,Central Office, Mumbai"""


def test_rbi_circular_reference_date_and_department_survive_split_text():
    profile = extract_profile([(1, RBI_TEXT)], file_name="05MC0104202552ED8A.pdf")
    assert profile.reference == "RBI/2026-27/78"
    assert (profile.date, profile.period) == ("2024-07-15", "2024-07-15")
    assert profile.type == "rbi_master_circular"
    assert profile.entity == "Reserve Bank of India, Department of Regulation"
    assert profile.aliases == ("Reserve Bank of India", "RBI", "Department of Regulation", "DOR", "RBI/2026-27/78",
                               "DOR.CRE.REC.No.05/21.04.172/2025-26")
    assert profile.sources["date"] == ProfileSource(1, "DOR.CRE .REC.No.05/21.04 .172/2025- 26 Ju ly 15, 2024")
    assert profile.ticker is None and profile.fiscal_year_end is None


@pytest.mark.parametrize(
    ("first_line", "kind"),
    [
        ("Notification No. FEMA 401/2026 -RB April 30, 2026", "rbi_notification"),
        ("A.P. (DIR Series) Circular No. 09 May 06, 2026", "rbi_circular"),
        ("FED Master Direction No. 17/2016- 17 January 1, 2016", "rbi_master_direction"),
    ],
)
def test_rbi_type_comes_from_the_reference_line(first_line, kind):
    text = f"RESERVE BANK OF INDIA\nRBI/2026-27/78\n{first_line}\nMaster Circular on something else"
    assert extract_profile([(1, text)]).type == kind


def test_npci_circular_reference_and_date():
    text = "NPCI/ UPI/ OC No. 37/ 2017-18 1st November 2017\nTo,\nAll Member Banks - Unified Payments Interface"
    profile = extract_profile([(1, text)])
    assert (profile.entity, profile.type) == ("National Payments Corporation of India", "npci_circular")
    assert (profile.reference, profile.date) == ("NPCI/UPI/OC No. 37/2017-18", "2017-11-01")
    assert profile.aliases == ("National Payments Corporation of India", "NPCI", "NPCI/UPI/OC No. 37/2017-18")


def test_dates_tolerate_split_digits_and_ordinals():
    text = "dated November 2 8, 2025; 15thDecember2021; October 11th, 2017; February 30, 2020; April 30, 2 026"
    assert [d.isoformat() for d, _, _ in find_dates(text)] == ["2025-11-28", "2021-12-15", "2017-10-11", "2026-04-30"]


def test_unit_counts_statement_headers_not_lakh_crore_or_shares():
    pages = [(1, "Value (₹ lakh crore) 2.52\n(₹ in lakh)\n(Shares in millions)"), (2, "Rs. in crore\n(in thousands)")]
    unit = find_unit(pages)
    assert unit is not None and unit[0] == "lakh" and unit[1].page == 1  # lakh 1, crore 1, thousands 1: first seen
    assert find_unit([(1, "we sold 2 million units")]) is None


def test_company_name_tie_is_broken_by_the_file_name_and_says_so():
    text = "Press release\nAlpha Holdings Ltd and Beta Systems Ltd announce a merger."
    assert extract_profile([(1, text)]).entity == "Alpha Holdings Ltd"
    profile = extract_profile([(1, text)], file_name="beta_press_release.pdf")
    assert profile.entity == "Beta Systems Ltd"
    assert profile.sources["entity"].snippet.endswith("(tie broken by the file name beta_press_release.pdf)")
    assert extract_profile([(1, text + " Beta Systems Ltd")], file_name="alpha.pdf").entity == "Beta Systems Ltd"


def test_unpaged_call_transcript_has_sources_without_pages():
    text = ("Northwind Traders Inc. Q3 2024 Earnings Call Transcript\nOctober 24, 2024\nOperator: Welcome to the "
            "Northwind Traders Inc. third quarter call. Revenue was $1.2 billion, margin $310 million, cash $95 "
            "million.\nResults for the quarter ended September 30, 2024.")
    profile = extract_profile([(None, text)], file_name="transcript.txt")
    assert (profile.entity, profile.type, profile.date) == ("Northwind Traders Inc.", "earnings_call", "2024-10-24")
    assert (profile.period, profile.fiscal_year_end) == ("Q3 FY2024", "2024-12-31")
    assert (profile.currency, profile.unit) == ("USD", "millions")
    assert {src.page for src in profile.sources.values()} == {None}
    assert profile.aliases == ("Northwind Traders Inc.", "Northwind Traders")


def test_empty_document_gives_an_empty_profile():
    profile = extract_profile([(1, "  \n"), (2, "")])
    assert profile == DocumentProfile(None, None, None, None, None, None, None)
    assert profile.to_dict()["sources"] == {}


def test_short_name_drops_legal_suffixes():
    assert [short_name(n) for n in ("3M Company", "The Boeing Company", "American Water Works Company, Inc.",
                                    "JPMorgan Chase & Co.", "Pfizer Inc.", "MGM Resorts International")] == [
        "3M", "Boeing", "American Water Works", "JPMorgan Chase", "Pfizer", "MGM Resorts International"]


# --- the profile value type ----------------------------------------------------------------------------------------


def _walmart() -> DocumentProfile:
    return DocumentProfile("Walmart Inc.", "WMT", "10-K", "FY2020", "2020-01-31", "USD", "millions",
                           {"entity": ProfileSource(1, "WALMART INC."), "period": ProfileSource(1, "January 31")},
                           aliases=("Walmart Inc.", "Walmart", "WMT"))


def test_to_dict_has_the_issue_keys_and_round_trips():
    data = _walmart().to_dict()
    assert set(data) == {"entity", "ticker", "type", "period", "fiscal_year_end", "currency", "unit", "sources",
                         "aliases", "reference", "date", "title"}
    assert data["sources"]["entity"] == {"page": 1, "snippet": "WALMART INC."}
    assert DocumentProfile.from_dict(data) == _walmart()
    assert DocumentProfile.from_dict({"entity": "X"}) == DocumentProfile("X", None, None, None, None, None, None)


def test_corrected_replaces_fields_and_their_sources():
    fixed = _walmart().corrected(period="FY2021", type="annual_report", ticker=None)
    assert (fixed.period, fixed.type, fixed.ticker, fixed.entity) == ("FY2021", "annual_report", None, "Walmart Inc.")
    assert fixed.sources["period"] == ProfileSource(None, CORRECTED_SNIPPET) == fixed.sources["type"]
    assert fixed.sources["entity"] == ProfileSource(1, "WALMART INC.")
    assert _walmart().period == "FY2020"  # the original is unchanged (frozen)
    with pytest.raises(PrismError, match="document type 'annual' is not known; use one of 10-K"):
        _walmart().corrected(type="annual")
    with pytest.raises(PrismError, match="fiscal_year_end '31/01/2020' is not a date; write it as YYYY-MM-DD"):
        _walmart().corrected(fiscal_year_end="31/01/2020")
    with pytest.raises(PrismError, match="cannot correct sector"):
        _walmart().corrected(sector="retail")


# --- the sample PDFs (data/sample) ----------------------------------------------------------------------------------


def test_sample_earnings_call_company_and_quarter():
    profile = extract_profile(_pages(SAMPLE / "meridian_q2_fy25_earnings_call.pdf", "call.pdf"), file_name="call.pdf")
    assert (profile.entity, profile.type) == ("Meridian Bank Ltd", "earnings_call")
    assert (profile.period, profile.fiscal_year_end, profile.date) == ("Q2 FY2025", "2025-03-31", "2024-10-21")
    assert (profile.currency, profile.unit) == ("INR", "crore")
    assert {name: src.page for name, src in profile.sources.items()} == dict.fromkeys(
        ("entity", "type", "period", "fiscal_year_end", "date", "currency", "unit"), 1)
    assert profile.sources["fiscal_year_end"].snippet.endswith("Results for the quarter ended 30 September 2024")
    _assert_snippets_bounded(profile)


def test_sample_rbi_style_master_circular():
    profile = extract_profile(_pages(SAMPLE / "rbi_style_master_circular_digital_payments.pdf"))
    assert (profile.type, profile.reference, profile.date) == (
        "rbi_master_circular", "DPSS.CO.PD.No.S-112/02.14.003/2025-26", "2025-04-01")
    assert profile.entity == "Reserve Bank of India, Department of Payment and Settlement Systems"
    assert profile.sources["reference"].page == 1


# --- real filings and circulars (../shared/data) -------------------------------------------------------------------


def test_walmart_fy2020_ends_31_january_2020():
    _need(FILINGS)
    profile = extract_profile(_pages(FILINGS / "WALMART_2020_10K.pdf", "doc16.pdf", first=8), file_name="doc16.pdf")
    assert (profile.entity, profile.ticker, profile.type) == ("Walmart Inc.", "WMT", "10-K")
    assert (profile.period, profile.fiscal_year_end) == ("FY2020", "2020-01-31")
    assert profile.sources["period"] == ProfileSource(1, "For the fiscal year ended January 31, 2020, or")
    assert profile.sources["entity"].page == 1


def test_opaque_file_name_gives_the_same_profile_as_the_real_one():
    _need(FILINGS)
    path = FILINGS / "WALMART_2020_10K.pdf"
    opaque = extract_profile(_pages(path, "d123456d10k.pdf", first=3), file_name="d123456d10k.pdf")
    named = extract_profile(_pages(path, first=3), file_name=path.name)
    assert opaque == named
    assert opaque.entity == "Walmart Inc."


@pytest.mark.slow
def test_netflix_fy2015_whole_filing():
    _need(FILINGS)
    profile = extract_profile(_pages(FILINGS / "NETFLIX_2015_10K.pdf", "doc13.pdf"), file_name="doc13.pdf")
    assert (profile.entity, profile.period, profile.fiscal_year_end) == ("Netflix, Inc.", "FY2015", "2015-12-31")
    assert (profile.currency, profile.unit) == ("USD", "thousands")
    assert profile.sources["unit"] == ProfileSource(40, "(in thousands, except per share data)")
    # the 2015 cover has no symbol column; Item 5 on page 15 gives it
    assert (profile.ticker, profile.sources["ticker"].page) == ("NFLX", 15)
    _assert_snippets_bounded(profile)


def test_3m_ticker_is_mmm_not_a_note_symbol():
    _need(FILINGS)
    profile = extract_profile(_pages(FILINGS / "3M_2022_10K.pdf", "doc01.pdf", first=3))
    assert (profile.entity, profile.ticker) == ("3M Company", "MMM")
    assert profile.sources["ticker"] == ProfileSource(1, "Common Stock, Par Value $.01 Per Share MMM New York Stock "
                                                         "Exchange")
    assert profile.aliases == ("3M Company", "3M", "MMM")


def test_jpmorgan_10q_is_q2_fy2022():
    _need(FILINGS)
    profile = extract_profile(_pages(FILINGS / "JPMORGAN_2022Q2_10Q.pdf", "doc08.pdf", first=6))
    assert (profile.type, profile.entity, profile.ticker) == ("10-Q", "JPMorgan Chase & Co.", "JPM")
    assert (profile.period, profile.fiscal_year_end) == ("Q2 FY2022", "2022-12-31")
    assert profile.sources["period"].page == 1


def test_rbi_master_circular_reference_and_date():
    _need(RBI)
    path = RBI / "13MC01042025792E33CF094B46F2B838E6409777438D.PDF"
    profile = extract_profile(_pages(path, first=3), file_name=path.name)
    assert (profile.reference, profile.date, profile.type) == ("RBI/2025-26/13", "2025-04-01", "rbi_master_circular")
    assert profile.entity == "Reserve Bank of India, Department of Regulation"
    assert "DOR.STR.REC.9/21.04.048/2025-26" in profile.aliases
    assert profile.sources["reference"] == ProfileSource(1, "RBI/2025-26/13")
    assert profile.sources["date"] == ProfileSource(1, "DOR.STR.REC.9/21.04.048/2025-26 April 01, 2025")
