"""Briefings: built from the profile and structure of real sample PDFs, every bullet citing its page,
no near-duplicate bullets (real embedder), well-formed suggested questions that the real answer engine answers
citing the page they came from; key figures read from table rows; the LLM keeps the structure and the citations;
Markdown export; ``docs --json``; tolerant JSON parsing; a failing briefing never blocks ingestion."""

from __future__ import annotations

import json
import re

import pytest
import tenacity

from prism.answering.briefing.compose import (
    DUPLICATE_COSINE,
    Briefing,
    briefing_markdown,
    distinct_bullets,
    make_briefing,
    well_formed,
)
from prism.answering.briefing.facts import document_text, identity_fact, key_figures, money
from prism.answering.briefing.llm import extract_json_object, parse_briefing
from prism.answering.briefing.sections import section_headings
from prism.answering.llm import LLMClient, wrap_llms
from prism.cli.common import EXIT_OK
from prism.cli.main import main
from prism.config import Settings
from prism.service import PrismService
from prism.types import (
    BriefingBullet,
    BulletCitation,
    ChunkTable,
    DocumentProfile,
    IngestItem,
    TableRow,
    briefing_points,
)
from tests.conftest import CASES, REPO
from tests.fakes_llm import ScriptedLLM, rate_limit_error

SAMPLE = REPO / "data" / "sample"
UPI_PDF = SAMPLE / "meridian_bank_upi_operating_circular.pdf"
GOOD = ('{"bullets": ["B1", "B2", "B3", "B4", "B5", "B6"], "questions": ["Q1?", "Q2?", "Q3?", "Q4?"]}')


@pytest.fixture(scope="module")
def sample(tmp_path_factory, embedder):
    """The four sample PDFs in one workspace, each briefed offline (after all are ingested, as the bench does)."""
    svc = PrismService(Settings(home=tmp_path_factory.mktemp("brief_home"), groq_api_key=None), embedder=embedder)
    results = svc.ingest([IngestItem(p) for p in sorted(SAMPLE.glob("*.pdf"))], "s", briefing=False)
    assert [r.status for r in results] == ["ingested"] * 4
    briefs = {r.source: svc.brief(r.source, "s") for r in svc.documents("s")}
    return svc, briefs


def test_every_bullet_cites_a_page_of_its_document(sample):
    svc, briefs = sample
    pages = {r.source: r.pages for r in svc.documents("s")}
    for source, brief in briefs.items():
        assert 5 <= len(brief.bullets) <= 8, source
        for bullet in brief.bullets:
            assert bullet.pages() and all(1 <= p <= pages[source] for p in bullet.pages()), (source, bullet)
    upi = briefs[UPI_PDF.name]
    assert upi.bullets[0].kind == "identity" and upi.bullets[0].text.startswith("Meridian Bank Ltd — ")
    effective = next(b for b in upi.bullets if b.kind == "effective")
    assert (effective.text, effective.pages()) == ("1 July 2025", [1])  # "… comes into force on 1 July 2025."
    sections = next(b for b in upi.bullets if b.kind == "sections")
    assert "Dispute Resolution and Chargebacks" in sections.text and "Purpose and Scope" not in sections.text


def test_no_two_bullets_say_the_same_thing(sample, embedder):
    for source, brief in sample[1].items():
        vectors = embedder.embed([b.text for b in brief.bullets])
        sims = vectors @ vectors.T
        off_diagonal = sims[~(sims > 0.9999)]  # a bullet with itself
        assert off_diagonal.max() < DUPLICATE_COSINE, source


def test_distinct_bullets_drops_the_later_of_a_near_duplicate_pair(embedder):
    texts = ["Netflix had 75 million streaming members at the end of 2015.",
             "At the end of 2015 Netflix had 75 million streaming members.",
             "The company repurchased no shares in the year."]
    vectors = embedder.embed(texts)
    assert float(vectors[0] @ vectors[1]) >= DUPLICATE_COSINE > float(vectors[0] @ vectors[2])  # the premise
    bullets = [BriefingBullet(t, (BulletCitation(i + 1),)) for i, t in enumerate(texts)]
    assert [b.text for b in distinct_bullets(bullets, embedder)] == [texts[0], texts[2]]


def test_every_suggested_question_is_answered_citing_its_page(sample):
    svc, briefs = sample
    for source, brief in briefs.items():
        assert len(brief.questions) == 3 and all(well_formed(q) for q in brief.questions), brief.questions
        for question, pages in zip(brief.questions, brief.question_pages, strict=True):
            answer = svc.ask(question, "s")
            assert not answer.declined, question
            cited = [(c.page_start, c.page_end) for c in answer.citations if c.source == source]
            assert cited, (question, [c.source for c in answer.citations])
            if source != "meridian_fee_schedule_tables.pdf":  # a heading at a page break cites the page before
                assert any(a <= p <= (b or a) for a, b in cited for p in pages), (question, pages, cited)


@pytest.mark.parametrize("question, ok", [
    ("What were Netflix's revenues for FY2015?", True),
    ("Who does the UPI operating circular apply to?", True),
    ("What does the document say about general guidelines (interest rate?", False),  # the example
    ("general guidelines?", False),
    ("What is it?", False),  # too short
    ("What does the circular say? And more?", False),
    ('What does "the circular say about limits?', False),
])
def test_well_formed_questions(question, ok):
    assert well_formed(question) is ok


def _table_row(labels_cells, columns, unit="thousands", title="CONSOLIDATED STATEMENTS OF OPERATIONS", page=38):
    rows = tuple(TableRow(label, tuple(cells), (), 0, 0) for label, cells in labels_cells)
    table = ChunkTable("p38-t1", "", title, tuple(columns), unit, "USD", None, rows)
    return {"chunk_id": f"c{page}", "page_start": page, "table": table.to_dict(), "text": "", "char_start": 0,
            "char_end": 0}


def test_key_figures_read_the_latest_column_of_a_statement_row():
    profile = DocumentProfile("Netflix, Inc.", "NFLX", "10-K", "FY2015", "2015-12-31", "USD", "thousands")
    rows = [
        _table_row([("Revenues", ["1,000", "2,000"])], ["2013", "2014"], title="Selected Financial Data", page=20),
        _table_row([("Revenues", ["6,779,511", "5,504,656", "4,374,562"]), ("Cost of revenues", ["1", "2", "3"]),
                    ("Net income", ["122,641", "266,799", "112,403"])], ["2015", "2014", "2013"]),
        _table_row([("Total assets", ["10,202,871", "7,042,500"]), ("Net loss", ["(1,837)", "5"])],
                   ["As of December 31, 2014", "As of December 31, 2015"], title="CONSOLIDATED BALANCE SHEETS",
                   page=40),
    ]
    facts = key_figures(rows, profile)
    assert [f.bullet.text for f in facts] == [  # the statement's row wins; the latest column; grouped per table
        "CONSOLIDATED STATEMENTS OF OPERATIONS (FY2015): Revenues $6,779,511 thousand; Net income $122,641 thousand.",
        "CONSOLIDATED BALANCE SHEETS (FY2015): Total assets $7,042,500 thousand.",
    ]
    assert [f.bullet.pages() for f in facts] == [[38], [40]]
    # a figure of a main statement: the question names the statement, so it is answered from that page
    assert facts[0].questions == ("What were Netflix's revenues for FY2015 in the income statement?",
                                  "What was Netflix's net income for FY2015 in the income statement?")
    assert facts[1].questions == ("What were Netflix's total assets for FY2015 in the balance sheet?",)
    assert money("(1,837)", "USD", "millions") == "-$1,837 million" and money("2.5", "INR", "crore") == "₹2.5 crore"


def test_key_figure_questions_read_as_an_analyst_writes_them():
    profile = DocumentProfile("American Water Works Company, Inc.", "AWK", "10-K", "FY2021", "2021-12-31", "USD",
                              "millions")
    rows = [_table_row([("Operating revenues", ["3,930", "3,777"]),
                        ("Net income attributable to common shareholders ........", ["1,263", "709"]),
                        ("Total assets..............................", ["26,075", "24,766"]),
                        ("NET CASH PROVIDED BY OPERATING ACTIVITIES", ["1,441", "1,426"])],
                       ["2021", "2020"], unit="millions", title="Statement of Operations", page=55)]
    facts = key_figures(rows, profile)
    # dot leaders dropped from the bullet; a table titled as the income statement that holds balance-sheet rows is a
    # summary ("Selected Financial Data"): no statement named; a name ending in s takes the apostrophe only; the head
    # noun sets the verb
    assert facts[0].bullet.text == ("Key figures (FY2021): Operating revenues $3,930 million; Net income attributable "
                                    "to common shareholders $1,263 million; Total assets $26,075 million; NET CASH "
                                    "PROVIDED BY OPERATING ACTIVITIES $1,441 million.")
    assert facts[0].questions == (
        "What were American Water Works' operating revenues for FY2021?",
        "What was American Water Works' net income attributable to common shareholders for FY2021?",
        "What were American Water Works' total assets for FY2021?",
        "What was American Water Works' net cash provided by operating activities for FY2021?")
    # the statement's own table, on a later page, wins over the summary and names its statement
    rows.append(_table_row([("Total assets", ["26,075", "24,766"])], ["2021", "2020"], unit="millions",
                           title="Consolidated Balance Sheets", page=90))
    assert [f.bullet.text for f in key_figures(rows, profile)][-1] == ("Consolidated Balance Sheets (FY2021): Total "
                                                                       "assets $26,075 million.")
    assert key_figures(rows, profile)[-1].questions == (
        "What were American Water Works' total assets for FY2021 in the balance sheet?",)
    costco = DocumentProfile("Costco Wholesale Corporation", "COST", "10-K", "FY2021", None, "USD", "millions")
    rows = [_table_row([("NET INCOME ATTRIBUTABLE TO COSTCO", ["5,007"])], ["2021"], unit="millions")]
    assert key_figures(rows, costco)[0].questions == (  # names keep their spelling, the rest is lower case
        "What was Costco Wholesale's net income attributable to Costco for FY2021 in the income statement?",)


def test_a_statement_cut_into_several_chunks_is_one_point_citing_each_page():
    profile = DocumentProfile("Adobe Systems Incorporated", "ADBE", "10-K", "FY2015", None, "USD", "thousands")
    rows = [_table_row([("Total revenue....................", ["4,795,511", "4,147,065"])], ["2015", "2014"],
                       title="CONSOLIDATED STATEMENTS OF INCOME", page=60),
            _table_row([("Operating income .............", ["903,095", "412,685"]),
                        ("Net income ....................", ["629,551", "268,395"])], ["2015", "2014"],
                       title="CONSOLIDATED STATEMENTS OF INCOME", page=61)]
    [fact] = key_figures(rows, profile)  # one point, not three near-identical ones that the cosine check would drop
    assert fact.bullet.text == ("CONSOLIDATED STATEMENTS OF INCOME (FY2015): Total revenue $4,795,511 thousand; Net "
                                "income $629,551 thousand; Operating income $903,095 thousand.")
    assert fact.bullet.pages() == [60, 61]


def test_a_filings_exhibits_addresses_and_subsidiaries_are_not_its_sections():
    text = ("410 Terry Avenue North\n1 Business\nWe sell.\n7 Management's Discussion and Analysis\nSales grew.\n"
            "10.5 Omnibus Incentive Plan\n101.SCH XBRL Taxonomy Extension Schema Document X\n"
            "31.1 Certification of Chief Executive Officer (a)\n21 Equity Incentive Plan*\n"
            "3 Leasing Company II, LLC Nevada\nSIGNATURES\nPursuant to the requirements.\n1 Covenant Not to Compete\n")
    rows = [{"chunk_id": "a", "page_start": 1, "char_start": 0, "char_end": len(text), "text": text}]
    filing = DocumentProfile("Amazon.com, Inc.", "AMZN", "10-K", "FY2019", None, "USD", "millions")
    doc = document_text(rows)
    assert [t for t, _c in section_headings(doc, filing)] == ["Business", "Management's Discussion and Analysis"]
    # a circular numbers its sections 10.5 too; only a filing's exhibit numbers are left out
    circular = DocumentProfile("Reserve Bank of India", None, "rbi_circular", None, None, "INR", None)
    assert "Omnibus Incentive Plan" in [t for t, _c in section_headings(doc, circular)]


def test_headings_are_cited_at_their_last_occurrence_and_fragments_are_left_out():
    rows = [
        {"chunk_id": "a", "page_start": 1, "char_start": 0, "char_end": 60,
         "text": "Contents\n1. Transaction Limits\n2. Accordingly, the banks are requested to display"},
        {"chunk_id": "b", "page_start": 3, "char_start": 60, "char_end": 120,
         "text": "\n\n1. Transaction Limits\nLimits apply per day.\n3. Annex 4 ₹500 1,000"},
    ]
    doc = document_text(rows)
    assert [(t, c.page, c.chunk_id) for t, c in section_headings(doc)] == [("Transaction Limits", 3, "b")]


def test_llm_rewrites_bullets_but_keeps_citations_and_well_formed_questions(sample, embedder):
    svc, briefs = sample
    record = next(r for r in svc.documents("s") if r.source == UPI_PDF.name)
    rows = svc.open("s").workspace.read_chunks(record.doc_id)
    offline = briefs[UPI_PDF.name]
    effective = next(i for i, b in enumerate(offline.bullets, 1) if b.kind == "effective")
    reply = json.dumps({"bullets": [{"text": "The circular takes effect on 1 July 2025.", "facts": [effective]},
                                    "It applies to every UPI handle of the Bank and the Meridian Pay app.",
                                    {"text": "A point citing no fact.", "facts": [99]}],
                        "questions": ["general guidelines (interest rate?", "When does Meridian's UPI circular take "
                                      "effect?"]})
    fake = ScriptedLLM(script=[f"```json\n{reply}\n```"])
    brief = make_briefing(UPI_PDF.name, rows, record.effective_profile(), embedder=embedder,
                          llm=LLMClient(fake, "m", wait=tenacity.wait_none()))
    assert (brief.mode, brief.model) == ("llm", "m")
    assert brief.bullets[0].pages() == [1]  # the fact it names
    applies = next(b for b in offline.bullets if b.kind == "applies")
    assert brief.bullets[1].citations == applies.citations  # the closest fact's citations
    assert all(b.pages() for b in brief.bullets)
    assert brief.questions[0] == "When does Meridian's UPI circular take effect?"  # the malformed one is dropped
    assert brief.questions[1:] == offline.questions[:2] and brief.question_pages[0] == []
    prompt = fake.calls[0]["text"]
    assert f"[{effective}] (pages 1) Effective date: 1 July 2025" in prompt

    bad = make_briefing("x.pdf", rows, None, embedder=embedder,
                        llm=LLMClient(ScriptedLLM(script=["I cannot do that."]), "m", wait=tenacity.wait_none()))
    assert bad.mode == "extractive" and "not usable JSON" in bad.note and len(bad.bullets) >= 5
    failing = LLMClient(ScriptedLLM(script=[rate_limit_error()] * 2), "m", max_attempts=2, wait=tenacity.wait_none())
    failed = make_briefing("x.pdf", rows, None, embedder=embedder, llm=failing)
    assert failed.mode == "extractive" and "429" in failed.note and all(b.pages() for b in failed.bullets)


def test_markdown_export(sample):
    svc, briefs = sample
    record = next(r for r in svc.documents("s") if r.source == UPI_PDF.name)
    md = briefing_markdown(record)
    brief = briefs[UPI_PDF.name]
    assert md.startswith(f"# Briefing: {UPI_PDF.name.replace('_', chr(92) + '_')}\n")
    assert "- **Effective date:** 1 July 2025 (p. 1)\n" in md
    assert md.count("\n- ") == len(brief.bullets) + len(brief.questions)
    assert "## Questions to ask" in md and "_Briefing built without an LLM" in md
    hostile = Briefing([BriefingBullet("Cost 5~10 bps *draft* <b>x</b>", (BulletCitation(2),))], ["Why?"])
    record.briefing = hostile.to_dict()
    assert "- Cost 5\\~10 bps \\*draft\\* \\<b\\>x\\</b\\> (p. 2)" in briefing_markdown(record)
    record.briefing = None
    assert "No briefing was written for this document." in briefing_markdown(record)


def test_docs_json_shows_the_briefing(sample, monkeypatch, capsys):
    svc, _ = sample
    monkeypatch.setattr("prism.cli.common.service", lambda: svc)
    assert main(["docs", "--workspace", "s", "--json"]) == EXIT_OK
    docs = json.loads(capsys.readouterr().out)
    for doc in docs:
        briefing = doc["briefing"]
        assert briefing["bullets"] and all(set(b) == {"text", "citations", "kind"} for b in briefing["bullets"])
        assert all(c["page"] >= 1 and re.fullmatch(r"[0-9a-f]{16}-\d{5}", c["chunk_id"] or "0" * 16 + "-00000")
                   for b in briefing["bullets"] for c in b["citations"])
        assert len(briefing["questions"]) == 3
    assert main(["brief", UPI_PDF.name, "--workspace", "s"]) == EXIT_OK  # the Markdown export
    out = capsys.readouterr().out
    assert out.startswith("# Briefing: ") and "1 July 2025 (p. 1)" in out and "## Questions to ask" in out
    assert main(["brief", "nope.pdf", "--workspace", "s", "--json"]) != EXIT_OK
    assert "No document named 'nope.pdf'" in json.loads(capsys.readouterr().out)["error"]


@pytest.mark.parametrize(
    "reply",
    [GOOD, f"```json\n{GOOD}\n```", f"Here is the briefing you asked for:\n```\n{GOOD}\n```\nHope this helps!",
     f"Sure! {GOOD} Let me know.", f"Note {{not json}} first, then {GOOD}"],
)
def test_briefing_json_is_found_in_fences_and_stray_text(reply):
    bullets, questions = parse_briefing(reply, 5, 3)
    assert bullets == [("B1", []), ("B2", []), ("B3", []), ("B4", []), ("B5", [])]  # at most 5
    assert questions == ["Q1?", "Q2?", "Q3?"]


@pytest.mark.parametrize(
    "reply",
    ["", "no json at all", '{"bullets": "not a list", "questions": ["Q?"]}', '{"bullets": [], "questions": ["Q?"]}',
     '{"bullets": ["B"]}', '["B1", "B2"]', '{"bullets": ["B1", "B2"], "questions": ['],
)
def test_malformed_briefing_json_is_rejected(reply):
    assert parse_briefing(reply, 8, 3) is None


def test_extract_json_object_skips_non_objects():
    assert extract_json_object('[1, 2] then {"a": 1}') == {"a": 1}
    assert extract_json_object("{broken") is None


def test_document_text_undoes_overlap_and_maps_offsets_to_pages():
    doc = "abcdefghijklmnopqrstuvwxyz"
    rows = [{"text": doc[0:10], "char_start": 0, "char_end": 10, "page_start": 1, "chunk_id": "a"},
            {"text": doc[7:20], "char_start": 7, "char_end": 20, "page_start": 2, "chunk_id": "b"},
            {"text": doc[18:26], "char_start": 18, "char_end": 26, "page_start": 3, "chunk_id": "c"}]
    text = document_text(list(reversed(rows)))
    assert text.text == doc
    assert [text.citation(i) for i in (0, 9, 10, 19, 20, 25)] == [
        BulletCitation(1, "a"), BulletCitation(1, "a"), BulletCitation(2, "b"), BulletCitation(2, "b"),
        BulletCitation(3, "c"), BulletCitation(3, "c")]
    assert document_text([]).text == "" and document_text([]).citation(0) == BulletCitation(None)


def test_briefing_is_stored_at_ingest_and_failure_never_blocks(service):
    [result] = service.ingest([IngestItem(UPI_PDF)], "b")
    assert result.status == "ingested" and result.warnings == []
    [record] = service.documents("b")
    assert record.briefing["mode"] == "extractive" and len(record.briefing["bullets"]) >= 5
    assert len(record.briefing["questions"]) == 3

    points = ["UPI transaction limits are set per merchant category.", "Disputes and chargebacks follow NPCI's "
              "timelines.", "Fraud must be reported to the Bank at once."]
    fake = ScriptedLLM(script=[json.dumps({"bullets": points, "questions": ["Q?"]})])
    svc = PrismService(service.settings, embedder=service.embedder, llms=wrap_llms(fake, wait=tenacity.wait_none()))
    brief = svc.brief(UPI_PDF.name, "b")
    assert brief.mode == "llm" and [b.text for b in brief.bullets] == points
    stored = svc.documents("b")[0].briefing
    assert [b["text"] for b in stored["bullets"]] == points and stored["questions"] == record.briefing["questions"]
    assert all(b["citations"] and b["citations"][0]["page"] for b in stored["bullets"])


def test_briefing_points_set_the_offline_identity_line_apart():
    identity = BriefingBullet("Netflix, Inc. — 10-K for FY2015.", (BulletCitation(1),), "identity")
    point = BriefingBullet("Revenues rose.", (BulletCitation(17, "c17"),), "figure")
    offline = Briefing([identity, point], ["Q?"]).to_dict()
    assert briefing_points(offline) == (identity, [point])
    assert briefing_points({**offline, "mode": "llm"}) == (None, [identity, point])  # an LLM's points are all points
    assert briefing_points({"bullets": ["an older briefing's point"]}) == (None, [BriefingBullet("an older briefing's "
                                                                                                 "point")])
    assert briefing_points(None) == (None, [])


def test_an_identity_line_that_would_say_only_document_is_left_out():
    # a short text file has no entity, type "other" and nothing else: "Document." told the analyst nothing
    assert identity_fact(DocumentProfile(None, None, "other", None, None, None, None)) is None
    dated = identity_fact(DocumentProfile(None, None, "other", None, None, "INR", None))
    assert dated is not None and dated.bullet.text == "Document; figures in INR."
    profile = DocumentProfile("Netflix, Inc.", "NFLX", "10-K", "FY2015", "2015-12-31", "USD", "thousands")
    netflix = identity_fact(profile)
    assert netflix is not None and netflix.bullet.text.startswith("Netflix, Inc. — 10-K")


def test_a_reference_list_is_neither_the_documents_name_nor_a_point(service):
    """Case 40a: "References / [1] Master Direction on Reporting, 2016." names documents the circular cites."""
    [result] = service.ingest([IngestItem(CASES / "40a_circular_with_reference_markers.txt")], "refs")
    assert result.status == "ingested"
    briefing = service.documents("refs")[0].briefing
    assert len(briefing["questions"]) == 3
    assert not any("master direction" in q.lower() or "circular on penalties" in q.lower()
                   for q in briefing["questions"]), briefing["questions"]
    texts = [b["text"] for b in briefing["bullets"]]
    assert any(t.startswith("Banks shall pay a penalty of Rs. 5,000") for t in texts), texts
    assert not any(re.match(r"(?:References\s*)?\[\d\]", t) for t in texts), texts
