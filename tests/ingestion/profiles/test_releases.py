"""Earnings releases are profiled with their company, document type and period, read from their first page.

Each release is a PDF written here (fpdf2, a generated font for ₹, € and typographic marks) in the conventions of
its market: a US release on PR Newswire that cites its Form 10-K and 10-Q "filed with the Securities and Exchange
Commission" (it was read as a 10-K), a retailer's off-calendar quarter on Business Wire whose headline names no
year, a company that writes its name without its legal form ("Lumen Devices (NASDAQ: LUMD)"), an Indian NBFC in
₹ crore "registered with the Reserve Bank of India", a European release with day-first dates in € million, and an
8-K furnishing its release as Exhibit 99.1. Every PDF is read through prism.ingestion.parsing as ingestion reads it.
What is not a release stays what it is: a 10-Q, a call transcript that quotes its press release, the real Foot
Locker 8-K (../shared/data; its Exhibit 99.1 announces a new CEO, not results).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from prism.answering.reading.entities import find_doc_types
from prism.answering.reading.reader import Reader
from prism.config import Settings
from prism.ingestion import parsing
from prism.ingestion.profiles.periods import named_period
from prism.ingestion.profiles.read import extract_profile
from prism.retrieval.scope import ScopePlan, catalog_of, plan_scope
from prism.service import document_title
from prism.types import DOCUMENT_TYPE_LABELS, DOCUMENT_TYPES, DocumentProfile, DocumentRecord, IngestItem
from tests.builders import unicode_pdf
from tests.conftest import FIXTURES, require_data

SETTINGS = Settings(ocr_enabled=False)


def _plan(question: str, docs: list[DocumentRecord]) -> ScopePlan:
    """The scope of ``question`` over ``docs``, read by the question reader against their catalog."""
    reading = Reader().read(question, catalog_of(docs, "w"))
    return plan_scope(reading, docs, workspace="w")

ACME_RELEASE = """Acme Corp Reports Second Quarter Fiscal 2025 Results
Revenue up 8% to $2.41 billion; diluted EPS of $1.12; full-year outlook raised
NEW YORK, Aug. 7, 2025 /PRNewswire/ -- Acme Corp (NYSE: ACME) today reported financial results for its second \
quarter of fiscal 2025, which ended June 30, 2025.
"We delivered another strong quarter," said Jane Doe, Chief Executive Officer of Acme Corp.
Second Quarter Fiscal 2025 Highlights
- Revenue of $2,412 million, up 8% from $2,233 million in the second quarter of fiscal 2024
- Operating income of $402 million, up 11%
- Diluted earnings per share of $1.12, compared with $0.97
Conference Call
Acme will host an earnings conference call today at 8:30 a.m. ET to discuss these results.
Forward-Looking Statements
This press release contains forward-looking statements. Risks are described in Acme's Annual Report on Form 10-K \
for the fiscal year ended December 31, 2024 and its Quarterly Report on Form 10-Q for the quarterly period ended \
March 31, 2025, filed with the Securities and Exchange Commission."""
ACME_STATEMENTS = """ACME CORP
CONDENSED CONSOLIDATED STATEMENTS OF INCOME
(Unaudited)
(in millions, except per share data)
Three Months Ended June 30, Six Months Ended June 30,
2025 2024 2025 2024
Revenue $ 2,412 $ 2,233 $ 4,705 $ 4,388
Operating income 402 362 781 700
Net income $ 251 $ 218 $ 489 $ 425
Diluted earnings per share $ 1.12 $ 0.97 $ 2.18 $ 1.90"""

SHOPRIGHT_RELEASE = """ShopRight Stores, Inc. Reports Third Quarter Results
Comparable sales increased 2.1%; GAAP diluted EPS of $0.84
MINNEAPOLIS--(BUSINESS WIRE)--Nov. 21, 2024--ShopRight Stores, Inc. (NASDAQ: SHPR) today reported results for \
the 13-week third quarter ended November 2, 2024. Comparable sales increased 2.1% compared with the third quarter \
of fiscal 2023, when they fell 4.0%.
"Our teams executed well in a promotional quarter," said Mark Ellis, Chief Executive Officer.
Outlook: for the fourth quarter ending February 1, 2025, ShopRight expects comparable sales of flat to up 1%."""
SHOPRIGHT_STATEMENTS = """SHOPRIGHT STORES, INC.
CONSOLIDATED STATEMENTS OF EARNINGS
(in thousands, except per share amounts)
Three Months Ended Nine Months Ended
Nov. 2, 2024 Oct. 28, 2023 Nov. 2, 2024 Oct. 28, 2023
Revenue $ 1,912,400 $ 1,873,100 $ 5,604,200 $ 5,590,800
Net earnings $ 52,300 $ 47,800 $ 139,100 $ 131,900"""

LUMEN_RELEASE = """Lumen Devices Announces Financial Results for Fourth Quarter and Fiscal 2025
Record quarterly revenue of $39.3 billion, up 12% from Q3
SANTA CLARA, Calif., Feb. 26, 2025 (GLOBE NEWSWIRE) -- Lumen Devices (NASDAQ: LUMD) today reported revenue for \
the fourth quarter ended January 26, 2025, of $39.3 billion, up 12% from the previous quarter and up 78% from a \
year ago. For fiscal 2025, revenue was a record $130.5 billion, up 114%."""
LUMEN_STATEMENTS = """LUMEN DEVICES CORPORATION AND SUBSIDIARIES
CONDENSED CONSOLIDATED STATEMENTS OF INCOME
(In millions, except per share data)
Three Months Ended Twelve Months Ended
January 26, 2025 January 28, 2024 January 26, 2025 January 28, 2024
Revenue $ 39,331 $ 22,103 $ 130,497 $ 60,922
Net income $ 22,091 $ 12,285 $ 72,880 $ 29,760"""

MERIDIAN_RELEASE = """Meridian Finance Ltd
PRESS RELEASE
Meridian Finance Ltd announces Q2 FY25 results
Net profit up 18% YoY to ₹612 crore; AUM crosses ₹48,000 crore
Mumbai, October 24, 2024: Meridian Finance Ltd (NSE: MERIDFIN; BSE: 543210), a non-banking financial company \
registered with the Reserve Bank of India, today announced its financial results for the quarter and half year \
ended September 30, 2024.
Key highlights for Q2 FY25 (vs Q2 FY24):
• Assets under management grew 24% to ₹48,210 crore
• Net interest income rose 21% to ₹1,842 crore
• Profit after tax of ₹612 crore against ₹519 crore
• Gross stage 3 assets at 1.9% against 2.1%
The Board of Directors at its meeting held on October 24, 2024 approved the unaudited financial results."""
MERIDIAN_STATEMENTS = """Statement of Unaudited Standalone Financial Results for the Quarter and Half Year ended \
September 30, 2024
(₹ in crore)
Quarter ended Half year ended
30.09.2024 30.06.2024 30.09.2023 30.09.2024 30.09.2023
Revenue from operations 3,104 2,961 2,540 6,065 4,981
Profit after tax 612 588 519 1,200 1,012"""

VESTRA_RELEASE = """PRESS RELEASE
Amsterdam, 7 November 2024
Vestra Industrial N.V. reports third quarter 2024 results
Vestra Industrial N.V. (Euronext Amsterdam: VSTR) today published its results for the third quarter ended \
30 September 2024.
Q3 2024 highlights
• Revenue increased 6% to €1,284 million (Q3 2023: €1,211 million)
• EBITDA of €212 million, margin 16.5% (Q3 2023: 15.9%)
• Free cash flow of €96 million
“Demand in our automation segment held up well,” said Eva Janssen, CEO of Vestra Industrial."""
VESTRA_STATEMENTS = """Consolidated statement of income
(in € million) Q3 2024 Q3 2023 9M 2024 9M 2023
Revenue 1,284 1,211 3,790 3,602
EBITDA 212 193 611 570
Net income 118 104 341 316"""

EIGHT_K_COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 8-K
CURRENT REPORT
Pursuant to Section 13 or 15(d) of the Securities Exchange Act of 1934
Date of Report (Date of earliest event reported): August 7, 2025
ACME CORP
(Exact name of registrant as specified in its charter)
Delaware 001-12345 13-1234567
Securities registered pursuant to Section 12(b) of the Act:
Title of each class Trading Symbol(s) Name of each exchange on which registered
Common Stock, par value $0.01 per share ACME New York Stock Exchange"""
EIGHT_K_ITEMS = """Item 2.02 Results of Operations and Financial Condition.
On August 7, 2025, Acme Corp issued a press release announcing its financial results for the second quarter of \
fiscal 2025. A copy of the press release is furnished as Exhibit 99.1 to this Current Report on Form 8-K.
Item 9.01 Financial Statements and Exhibits.
(d) Exhibits. 99.1 Press release of Acme Corp dated August 7, 2025.
SIGNATURE
ACME CORP
Date: August 7, 2025 By: /s/ John Roe, Chief Financial Officer"""


def _profile(tmp_path: Path, name: str, pages: list[str]) -> DocumentProfile:
    """The profile of a PDF of ``pages`` written under ``name``, read as ingestion reads it."""
    path = unicode_pdf(tmp_path / name, pages)
    doc = parsing.load(path.read_bytes(), name, SETTINGS)
    return extract_profile([(p.number, p.text) for p in doc.pages], file_name=name)


def _fields(profile: DocumentProfile) -> tuple[str | None, ...]:
    return (profile.entity, profile.ticker, profile.type, profile.period, profile.fiscal_year_end, profile.date,
            profile.currency, profile.unit)


@pytest.mark.parametrize(("pages", "want"), [
    pytest.param([ACME_RELEASE, ACME_STATEMENTS],
                 ("Acme Corp", "ACME", "earnings_release", "Q2 FY2025", "2025-12-31", "2025-08-07", "USD", "millions"),
                 id="us-prnewswire-citing-its-10-k"),
    # the headline names no year: the quarter ended 2 November 2024, so its fiscal year ends three months later
    pytest.param([SHOPRIGHT_RELEASE, SHOPRIGHT_STATEMENTS],
                 ("ShopRight Stores, Inc.", "SHPR", "earnings_release", "Q3 FY2025", "2025-02-28", "2024-11-21",
                  "USD", "thousands"), id="us-retailer-off-calendar"),
    # the dateline writes no legal form; the statements print it ("LUMEN DEVICES CORPORATION AND SUBSIDIARIES")
    pytest.param([LUMEN_RELEASE, LUMEN_STATEMENTS],
                 ("Lumen Devices Corporation", "LUMD", "earnings_release", "Q4 FY2025", "2025-01-26", "2025-02-26",
                  "USD", "millions"), id="us-name-without-legal-form"),
    pytest.param([MERIDIAN_RELEASE, MERIDIAN_STATEMENTS],
                 ("Meridian Finance Ltd", "MERIDFIN", "earnings_release", "Q2 FY2025", "2025-03-31", "2024-10-24",
                  "INR", "crore"), id="india-nbfc-crore"),
    pytest.param([VESTRA_RELEASE, VESTRA_STATEMENTS],
                 ("Vestra Industrial N.V.", "VSTR", "earnings_release", "Q3 FY2024", "2024-12-31", "2024-11-07",
                  "EUR", "millions"), id="europe-day-first-euro"),
])
def test_earnings_release_names_company_type_and_period(tmp_path, pages, want):
    profile = _profile(tmp_path, "release.pdf", pages)
    assert _fields(profile) == want
    headline = next(line for line in pages[0].split("\n") if "results" in line.lower())
    assert profile.title == headline  # the headline is the release's title
    assert {name: profile.sources[name].page for name in ("entity", "type", "period", "date")} == dict.fromkeys(
        ("entity", "type", "period", "date"), 1)
    assert profile.ticker is not None and profile.ticker.casefold() in {a.casefold() for a in profile.aliases}
    assert profile.line() == f"{want[0]} · earnings release · {want[3]}"


def test_release_sources_quote_the_headline_and_the_dateline(tmp_path):
    profile = _profile(tmp_path, "acme.pdf", [ACME_RELEASE, ACME_STATEMENTS])
    assert profile.sources["type"].snippet == profile.sources["period"].snippet == profile.title
    assert profile.sources["entity"].snippet.startswith("NEW YORK, Aug. 7, 2025 /PRNewswire/ -- Acme Corp (NYSE: ACME)")
    assert profile.sources["fiscal_year_end"].snippet.endswith("second quarter of fiscal 2025, which ended June 30, "
                                                                 "2025.")
    # the release cites "Form 10-K … filed with the Securities and Exchange Commission": no SEC cover for all that
    assert profile.type != "10-K" and profile.period != "FY2024"


HARBOR_RELEASE = """FOR IMMEDIATE RELEASE
Harbor Point Bancorp Announces Record Earnings
PORTLAND, Maine, Oct. 22, 2024 -- Harbor Point Bancorp, Inc. today announced net income of $14.2 million, or \
$1.31 per diluted share, for the quarter ended September 30, 2024, compared with $12.9 million, or $1.18 per \
diluted share, for the quarter ended September 30, 2023."""
HARBOR_STATEMENTS = """HARBOR POINT BANCORP, INC.
CONSOLIDATED STATEMENTS OF INCOME (UNAUDITED)
(Dollars in thousands, except per share data)
Three Months Ended Nine Months Ended
September 30, 2024 September 30, 2023 September 30, 2024 September 30, 2023
Net interest income $ 41,220 $ 39,870 $ 121,650 $ 118,300
Net income $ 14,201 $ 12,905 $ 40,118 $ 37,262"""
CALL_QUOTING_ITS_RELEASE = """Acme Corp Q2 2025 Earnings Call Transcript
August 7, 2025
Operator: Good morning, and welcome to Acme Corp's second quarter 2025 earnings conference call.
Jane Doe, Chief Executive Officer: Thank you. Earlier today Acme Corp issued a press release and today reported \
results for the second quarter of fiscal 2025, which ended June 30, 2025. Revenue was $2,412 million, operating \
income $402 million and net income $251 million."""
APPOINTMENT = """NEWS RELEASE
Harbor Point Bancorp Names Laura Chen Chief Financial Officer
PORTLAND, Maine, Jan. 8, 2025 /PRNewswire/ -- Harbor Point Bancorp (NASDAQ: HPBK) today announced that Laura \
Chen will join the company as Executive Vice President and Chief Financial Officer on February 3, 2025."""
ADVANCE_NOTICE = """Acme Corp to Report Second Quarter 2025 Results on August 7
NEW YORK, July 10, 2025 /PRNewswire/ -- Acme Corp (NYSE: ACME) will release its second quarter 2025 results \
before the market opens on Thursday, August 7, 2025, and will host a conference call at 8:30 a.m. ET."""
RBI_PRESS_RELEASE = """RESERVE BANK OF INDIA
Press Release 2024-2025/1312 October 24, 2024
RBI releases results of the Survey of Professional Forecasters on Macroeconomic Indicators
The Reserve Bank today released the results of the 91st round of its Survey of Professional Forecasters."""


def test_release_without_a_period_in_its_headline_takes_the_quarter_from_its_columns(tmp_path):
    # "the quarter ended September 30, 2024" and nine-month columns: the third quarter of a calendar year
    profile = _profile(tmp_path, "harbor.pdf", [HARBOR_RELEASE, HARBOR_STATEMENTS])
    assert _fields(profile) == ("Harbor Point Bancorp, Inc.", None, "earnings_release", "Q3 FY2024", "2024-12-31",
                                "2024-10-22", "USD", "thousands")
    assert profile.sources["period"].page == 2 and "Nine Months Ended September 30, 2024" in \
        profile.sources["period"].snippet
    assert profile.title == "Harbor Point Bancorp Announces Record Earnings"


def test_eight_k_furnishing_an_earnings_release_is_profiled_as_the_release(tmp_path):
    pages = [EIGHT_K_COVER, EIGHT_K_ITEMS, "Exhibit 99.1\n" + ACME_RELEASE, ACME_STATEMENTS]
    profile = _profile(tmp_path, "d812345d8k.pdf", pages)
    assert _fields(profile) == ("Acme Corp", "ACME", "earnings_release", "Q2 FY2025", "2025-12-31", "2025-08-07",
                                "USD", "millions")
    # the company and the date come from the 8-K's cover, the kind and the quarter from its exhibit
    assert {n: profile.sources[n].page for n in ("entity", "ticker", "date", "type", "period")} == {
        "entity": 1, "ticker": 1, "date": 1, "type": 3, "period": 3}
    assert profile.title == "Acme Corp Reports Second Quarter Fiscal 2025 Results"
    # without the exhibit it is an 8-K dated by its report
    bare = _profile(tmp_path, "cover_only.pdf", pages[:2])
    assert (bare.entity, bare.type, bare.period, bare.date) == ("Acme Corp", "8-K", "2025-08-07", "2025-08-07")


@pytest.mark.parametrize(("pages", "want"), [
    pytest.param([CALL_QUOTING_ITS_RELEASE], ("Acme Corp", "earnings_call", "Q2 FY2025", "2025-08-07"),
                 id="call-quoting-its-press-release"),
    pytest.param([APPOINTMENT], ("Harbor Point Bancorp", "other", "2025-01-08", "2025-01-08"),
                 id="press-release-without-results"),
    pytest.param([ADVANCE_NOTICE], ("Acme Corp", "other", "2025-07-10", "2025-07-10"),
                 id="results-date-announcement"),
    pytest.param([RBI_PRESS_RELEASE], ("Reserve Bank of India", "other", "2024-10-24", "2024-10-24"),
                 id="rbi-press-release"),
])
def test_documents_that_are_no_earnings_release_stay_what_they_are(tmp_path, pages, want):
    profile = _profile(tmp_path, "doc.pdf", pages)
    assert (profile.entity, profile.type, profile.period, profile.date) == want


def test_releases_scope_questions_to_their_company(tmp_path):
    """Another company's question is declined, not answered from a release; a ticker names its company."""
    releases = {"acme": [ACME_RELEASE, ACME_STATEMENTS], "lumen": [LUMEN_RELEASE, LUMEN_STATEMENTS]}
    docs = [DocumentRecord(doc_id=name.ljust(64, "0"), source=f"{name}.pdf", kind="pdf", pages=2, chunks=1,
                           profile=_profile(tmp_path, f"{name}.pdf", pages).to_dict())
            for name, pages in releases.items()]
    walmart = _plan("What was Walmart's revenue?", docs)
    assert walmart.decline is not None and "Walmart" in walmart.decline
    for question in ("What was Acme's revenue in Q2 FY2025?", "What was ACME revenue growth?"):
        plan = _plan(question, docs)
        assert plan.decline is None and plan.allowed == {docs[0].doc_id}, question
    assert _plan("LUMD net income", docs).allowed == {docs[1].doc_id}


def test_real_eight_k_with_a_leadership_release_stays_an_eight_k():
    """Foot Locker's 8-K of 19 August 2022 (Item 5.02) furnishes a press release on its new CEO as Exhibit 99.1:
    no results, so it stays an 8-K dated by its report, its company and ticker from the cover."""
    path = require_data("financebench-dev", "pdfs", "FOOTLOCKER_2022_8K_dated_2022-08-19.pdf")
    doc = parsing.load(path, "doc07.pdf", SETTINGS)
    profile = extract_profile([(p.number, p.text) for p in doc.pages], file_name="doc07.pdf")
    assert (profile.entity, profile.ticker, profile.type) == ("Foot Locker, Inc.", "FL", "8-K")
    assert (profile.period, profile.date, profile.fiscal_year_end) == ("2022-08-19", "2022-08-19", None)
    assert profile.sources["entity"].page == 1


def test_cover_less_ten_q_is_still_a_ten_q():
    doc = parsing.load(FIXTURES / "cases" / "c65_orbital_loom_10q.pdf", "c65.pdf", SETTINGS)
    profile = extract_profile([(p.number, p.text) for p in doc.pages], file_name="c65.pdf")
    assert (profile.entity, profile.type, profile.period, profile.fiscal_year_end) == (
        "Orbital Loom Payments, Inc.", "10-Q", "Q2 FY2024", "2024-12-31")


def test_ten_q_cover_quoting_its_press_release_is_still_a_ten_q(tmp_path):
    cover = ("UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-Q\nQUARTERLY REPORT "
             "PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\nFor the quarterly period ended "
             "June 30, 2025\nACME CORP\n(Exact name of registrant as specified in its charter)")
    mdna = ("Item 2. Management's Discussion and Analysis\nOn August 7, 2025, Acme Corp reported second quarter fiscal "
            "2025 results in a press release. Three Months Ended June 30, 2025 Six Months Ended June 30, 2025")
    profile = _profile(tmp_path, "d10q.pdf", [cover, mdna])
    assert (profile.entity, profile.type, profile.period, profile.fiscal_year_end) == (
        "Acme Corp", "10-Q", "Q2 FY2025", "2025-12-31")


@pytest.mark.parametrize(("text", "quarter", "year"), [
    ("Acme Corp Reports Second Quarter Fiscal 2025 Results", 2, 2025),
    ("Meridian Finance Ltd announces Q2 FY25 results", 2, 2025),
    ("Vestra reports third quarter 2024 results", 3, 2024),
    ("Reports Second-Quarter 2024 Results", 2, 2024),
    ("Fiscal 2025 Second Quarter Results", 2, 2025),
    ("Fourth Quarter and Fiscal 2025 Results", 4, 2025),
    ("Q4 & FY24 Results", 4, 2024),
    ("2Q25 earnings", 2, 2025),
    ("Q3'24 trading update", 3, 2024),
    ("Results for Q2 FY2024-25", 2, 2025),
    ("Reports Third Quarter Results", 3, None),
    ("Full Year 2024 Results", None, 2024),
    ("FY 2023-24 results", None, 2024),
])
def test_named_periods_in_the_ways_releases_write_them(text, quarter, year):
    named = named_period(1, text)
    assert named is not None and (named.quarter, named.year) == (quarter, year)


def test_earnings_release_is_a_document_type_and_a_question_can_name_it():
    assert "earnings_release" in DOCUMENT_TYPES and DOCUMENT_TYPE_LABELS["earnings_release"] == "earnings release"
    assert find_doc_types("What did the earnings release say about margins?") == ("earnings_release",)
    assert find_doc_types("In the Q2 press release") == ("earnings_release",)
    assert find_doc_types("What did management say on the earnings call?") == ("earnings_call",)


def test_headline_wrapped_onto_two_lines_is_one_title(tmp_path):
    wrapped = LUMEN_RELEASE.replace("Fourth Quarter and Fiscal 2025\n", "Fourth Quarter and\nFiscal 2025\n", 1)
    profile = _profile(tmp_path, "lumen.pdf", [wrapped, LUMEN_STATEMENTS])
    assert profile.title == "Lumen Devices Announces Financial Results for Fourth Quarter and Fiscal 2025"
    assert (profile.type, profile.period, profile.fiscal_year_end) == ("earnings_release", "Q4 FY2025", "2025-01-26")


POMONA = ("Pomona reports third quarter results\nServices revenue reaches new all-time high\nPALO ALTO, CALIFORNIA — "
          "Pomona® today announced financial results for its fiscal 2024 third quarter ended June 29, 2024. The "
          "Company posted quarterly revenue of $85.8 billion, up 5 percent year over year.",
          "Pomona Inc.\nCONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS (Unaudited)\n(In millions, except per-share "
          "amounts)\nThree Months Ended Nine Months Ended\nJune 29, 2024 July 1, 2023 June 29, 2024 July 1, 2023\n"
          "Net sales $ 85,777 $ 81,797 $ 296,105 $ 288,867")
NORTHGATE = ("Northgate Cloud strength drives fourth quarter results\nREDMOND, Wash. — July 30, 2024 — Northgate Corp. "
             "today announced the following results for the quarter ended June 30, 2024, as compared to the "
             "corresponding period of last fiscal year:\n· Revenue was $64.7 billion and increased 15%",)
BENTLEY = ("Bentley Mart Inc. Q2 FY25 earnings release\nBENTONVILLE, Ark., Aug. 15, 2024 — Bentley Mart Inc. (NYSE: "
           "BMRT): Consolidated revenue of $169.3 billion, an increase of $7.7 billion, or 4.8%, for the quarter "
           "ended July 31, 2024.",)


@pytest.mark.parametrize(("pages", "want"), [
    # no ticker, a registered mark after the name, the fiscal year before the quarter, a year ending in September
    pytest.param(POMONA, ("Pomona Inc.", None, "Q3 FY2024", "2024-09-30"), id="name-with-mark-fiscal-year-first"),
    # a headline without a verb or a year: the quarter ended June 30 is the fiscal year's fourth
    pytest.param(NORTHGATE, ("Northgate Corp.", None, "Q4 FY2024", "2024-06-30"), id="fourth-quarter-ending-june"),
    pytest.param(BENTLEY, ("Bentley Mart Inc.", "BMRT", "Q2 FY2025", "2025-01-31"), id="fiscal-code-january-year"),
])
def test_release_conventions_of_other_issuers(pages, want):
    profile = extract_profile(list(enumerate(pages, start=1)))
    assert profile.type == "earnings_release"
    assert (profile.entity, profile.ticker, profile.period, profile.fiscal_year_end) == want


def test_ingested_release_carries_its_profile_in_every_chunk_and_its_headline_as_title(service, tmp_path):
    path = unicode_pdf(tmp_path / "release.pdf", [ACME_RELEASE, ACME_STATEMENTS])
    [result] = service.ingest([IngestItem(path.read_bytes(), "d812345dex991.pdf")], "r", briefing=False)
    assert result.status == "ingested"
    [record] = service.documents("r")
    assert record.effective_profile().line() == "Acme Corp · earnings release · Q2 FY2025"
    assert document_title(record) == "Acme Corp Reports Second Quarter Fiscal 2025 Results"
    metas = service.open("r").store._col.get(include=["metadatas"])["metadatas"]
    assert len(metas) == record.chunks
    assert {(m["entity"], m["doc_type"], m["period"], m["fiscal_year_end"]) for m in metas} == {
        ("Acme Corp", "earnings_release", "Q2 FY2025", "2025-12-31")}
