"""Sections of a filing (prism/index/sections.py): Item headings, a table of contents, the notes, another entity's
exhibit, and the question words that look for a section. A built filing is ingested and searched in
tests/retrieval/test_sections_search.py."""

from __future__ import annotations

from prism.index.sections import SectionTag, assign_sections, question_sections, section_starts, section_tokens

SEP = "\n\n"


def _doc(pages):
    offsets, pos = [], 0
    for i, page in enumerate(pages):
        pos += len(SEP) if i else 0
        offsets.append(pos)
        pos += len(page)
    return SEP.join(pages), offsets


def _kinds(pages, entity=None):
    text, offsets = _doc(pages)
    return [(text[at:at + 12], tag.section, tag.exhibit_entity) for at, tag in section_starts(text, offsets, entity)]


TOC = ("PART I\nItem 1. Business 1\nItem 1A. Risk Factors 11\nItem 7. Management's Discussion and Analysis 29\n"
       "Item 8. Financial Statements and Supplementary Data 52\n\nPART I\n\nITEM\n1. BUSINESS\nWe run resorts.")


def test_contents_entries_are_no_headings_but_the_first_item_after_them_on_the_same_page_is():
    assert _kinds(["Cover page of the annual report", TOC, "ITEM\n1A. RISK\nFACTORS\nOur business is cyclical."]) == [
        ("PART I\n\nITEM", "business", None), ("ITEM\n1A. RIS", "risk_factors", None)]


def test_a_title_cut_off_by_the_layout_is_read_from_the_item_number():
    assert _kinds(["ITEM\n7A.\n\nWe hedge currency exposure."]) == [("ITEM\n7A.\n\nWe", "market_risk", None)]


def test_notes_heading_is_a_whole_line_and_the_accompanying_notes_line_is_not():
    pages = ["Item 8. Financial Statements and Supplementary Data",
             "Total assets 5,000\nThe accompanying notes to consolidated financial statements are an integral part.",
             "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS\nNote 1. Basis of presentation"]
    assert [k for _, k, _ in _kinds(pages)] == ["financial_statements", "notes"]


def test_a_later_page_of_the_same_exhibit_keeps_its_entity_and_the_next_exhibit_does_not():
    pages = ["Exhibit 99.3\nCITYCENTER HOLDINGS, LLC\nCONSOLIDATED BALANCE SHEETS\nCash 182,681",
             "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS\nNote 1. Organization",
             "Exhibit 99.3\nThe Company and MGM Resorts entered into a management agreement.",
             "Exhibit 99.4\nThe registrant's own press release."]
    assert [(k, e) for _, k, e in _kinds(pages, "MGM Resorts International")] == [
        ("exhibits", "CITYCENTER HOLDINGS, LLC"), ("notes", "CITYCENTER HOLDINGS, LLC"),
        ("exhibits", "CITYCENTER HOLDINGS, LLC"), ("exhibits", None)]


def test_another_entitys_exhibit_is_theirs_and_the_filers_own_exhibit_is_not():
    pages = ["Item 15. Exhibits\nExhibit index follows; Exhibit 99.3 is filed herewith.",
             "Exhibit\n99.3\n\nCITYCENTER\nHOLDINGS,\nLLC\nCONSOLIDATED BALANCE SHEETS\nCash 182,681",
             "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS\nNote 1. CityCenter owns Aria.",
             "Exhibit 99.4\nMGM GRAND PARADISE, S.A.\nCONSOLIDATED BALANCE SHEETS\nCash 1,000",
             "Exhibit 21\nSUBSIDIARIES OF THE REGISTRANT\nAria Resort & Casino, LLC"]
    assert [(k, e) for _, k, e in _kinds(pages, "MGM Resorts International")] == [
        ("exhibits", None), ("exhibits", "CITYCENTER HOLDINGS, LLC"), ("notes", "CITYCENTER HOLDINGS, LLC"),
        ("exhibits", None), ("exhibits", None)]


def test_each_chunk_takes_the_section_in_force_at_its_first_40_percent():
    pages = ["Preface of the report. " * 4,
             "Item 7. Management's Discussion and Analysis\n" + "Revenue grew because volumes rose. " * 6
             + "\nItem 7A. Quantitative and Qualitative Disclosures About Market Risk\nRates are low."]
    text, offsets = _doc(pages)
    late = text.index("Item 7A") - 100
    spans = [(0, 60), (offsets[1], offsets[1] + 120), (late, late + 120), (late + 90, len(text))]
    tags = assign_sections(text, offsets, spans, None)
    assert [t.section for t in tags] == [None, "mdna", "mdna", "market_risk"]
    assert tags[1].metadata() == {"section": "mdna"} and tags[0].metadata() == {}


def test_an_exhibit_heading_counts_only_at_the_start_of_a_page_and_no_heading_no_section():
    assert _kinds(["Item 7. Management's Discussion", "as filed in\nthe report\nExhibit 10.1\n"]) == [
        ("Item 7. Mana", "mdna", None)]
    text, offsets = _doc(["RBI/2025-26/13 Master Direction"])
    assert assign_sections(text, offsets, [(0, len(text))]) == [SectionTag()]
    assert section_tokens({"section": "mdna"}) == ["section:mdna"] and section_tokens({}) == []


def test_question_words_name_the_sections_they_look_for():
    assert question_sections("What drove Boeing's margins in 2018?") == {"mdna"}
    assert question_sections("What are the main risks for JPMorgan?") == {"risk_factors"}
    assert question_sections("How many employees did Walmart have?") == {"business"}
    assert question_sections("What is Adobe's revenue recognition policy?") == {"notes"}
    assert question_sections("How much did Boeing spend on buybacks?") == {"equity"}
    assert question_sections("What was Netflix's net income in 2015?") == set()
