"""The title a document prints on its first page (prism/ingestion/profiles/heading.py), read into its profile."""

from __future__ import annotations

import pypdf

from prism.ingestion.profiles import extract_profile
from prism.ingestion.profiles.heading import MAX_TITLE_CHARS, find_title
from tests.builders import PENSION_DISPLAY, hash_named_circular
from tests.conftest import require_data


def test_title_after_the_salutation_with_an_en_dash():
    text = "RBI/2025-26/05\nAll Agency Banks\nMadam/Dear Sir\nMaster Circular - Disbursement of X by Y\nPlease refer"
    title, where = find_title([(1, text)])
    assert title == "Master Circular – Disbursement of X by Y"
    assert where.page == 1 and where.snippet == "Master Circular - Disbursement of X by Y"


def test_a_wrapped_title_is_joined_and_stops_at_the_body():
    text = ("Madam/Dear Sir\nMaster Circular - Prudential norms on Income Recognition, Asset Classification and\n"
            "Provisioning pertaining to Advances\nPlease refer to the Master Circular dated April 2, 2024")
    assert find_title([(1, text)])[0] == ("Master Circular – Prudential norms on Income Recognition, Asset "
                                          "Classification and Provisioning pertaining to Advances")


def test_directions_tail_and_subject_prefix_and_markdown_heading():
    directions = "RBI/DOR/2025-26/161\nReserve Bank of India (Commercial Banks - Interest Rates on Advances)\n" \
                 "Directions, 2025\nTable of Contents"
    assert find_title([(1, directions)])[0] == ("Reserve Bank of India (Commercial Banks – Interest Rates on "
                                                "Advances) Directions, 2025")
    assert find_title([(None, "To all members\nSub: Revised UPI refund timelines\nBody.")])[0] == \
        "Revised UPI refund timelines"
    assert find_title([(None, "# Interchange fee terms\n\nText.")])[0] == "Interchange fee terms"


def test_no_title_in_plain_text_or_a_paragraph():
    assert find_title([(1, "Net sales rose 5% in the year.\nOperating income fell.")]) is None
    assert find_title([]) is None
    long_line = "Madam/Dear Sir\n" + "Master Circular on " + "word " * MAX_TITLE_CHARS
    assert find_title([(1, long_line)]) is None
    # "sub-section (1)" is not a subject line
    assert find_title([(1, "powers under sub-section (1) of section 10 of the Act;")]) is None


def test_the_profile_of_a_hash_named_pdf_carries_its_title(tmp_path):
    path = hash_named_circular(tmp_path)
    reader = pypdf.PdfReader(path)
    pages = [(i + 1, p.extract_text()) for i, p in enumerate(reader.pages)]
    profile = extract_profile(pages, file_name=path.name)
    assert profile.title == PENSION_DISPLAY
    assert profile.sources["title"].page == 1
    assert profile.to_dict()["title"] == PENSION_DISPLAY
    assert type(profile).from_dict(profile.to_dict()).title == PENSION_DISPLAY


def test_titles_of_the_real_rbi_circulars():
    folder = require_data("rbi", "pdfs")
    titles = {}
    for path in sorted(folder.iterdir()):
        first = pypdf.PdfReader(path).pages[0].extract_text()
        found = find_title([(1, first)])
        titles[path.name] = found[0] if found else None
    assert titles["05MC010420252ED8A74EE428468287D815016A33587F.pdf"] == PENSION_DISPLAY
    assert titles["MD_10201_Archives.pdf"] == "Master Direction – Import of Goods and Services"
    assert titles["Accessibility20012026.pdf"] is None
    assert sum(t is not None for t in titles.values()) >= 10


def test_a_long_wrapped_subject_is_joined_and_a_labelled_line_ends_it():
    text = ("To: All Branches\nSubject: Unified Payments Interface (UPI) – transaction limits, merchant charges, "
            "dispute\nresolution, fraud reporting and customer liability\n"
            "Supersedes: Circular MBL/2024-25/OPS/042\n1. Purpose")
    assert find_title([(1, text)])[0] == ("Unified Payments Interface (UPI) – transaction limits, merchant charges, "
                                          "dispute resolution, fraud reporting and customer liability")


def test_a_markdown_heading_counts_only_on_the_first_line():
    assert find_title([(None, "Credit cost is guided at 5 bps.\n\n# 1 priority is liquidity")]) is None
