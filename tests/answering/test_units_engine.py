"""Units and citation markers end to end: the case files ingested for real (parser, chunker, the
packaged embedder, Chroma in tmp_path, BM25), answered extractively and with the scripted fake LLM.

Cases: 40 (a document's own "[2]" is not a citation; 40b is never a cited source of a penalty question), 41 / 41b
(the unit stated once in a header), 49 ("Rs. 50,000" is flagged as "₹50,000" is)."""

from __future__ import annotations

import json

import pytest
import tenacity

from prism.answering.citations import parse_markers
from prism.answering.engine import AnswerEngine
from prism.answering.llm import wrap_llms
from prism.cli.common import EXIT_OK
from prism.cli.main import main
from prism.config import Settings
from prism.service import PrismService
from prism.types import IngestItem
from tests.conftest import CASES
from tests.fakes_llm import ScriptedLLM, route

CASE_FILES = ["40a_circular_with_reference_markers.txt", "40b_unrelated_branch_hours.txt",
              "41_income_statement_in_millions.txt", "41b_results_in_crore.txt", "49_penalty_in_rs.txt"]
SEGMENTS = ["Retail", "Treasury", "Wholesale", "Insurance", "Leasing", "Payments", "Cards", "Mortgages", "Gold loans",
            "Microfinance", "Agriculture", "Housing", "Vehicles", "Education", "Exports", "Imports", "Deposits",
            "Remittances", "Custody", "Advisory", "Brokerage", "Forex", "Trade finance", "Pensions"]
LONG_RESULTS = ("Segment results of Kaveri Finance Ltd\n(Rs. in crore)\n\n"
                + "\n".join(f"{name} segment revenue {1000 + 37 * i:,}" for i, name in enumerate(SEGMENTS)) + "\n")


@pytest.fixture(scope="module")
def cases(tmp_path_factory, embedder):
    """One workspace with the case files and a long TXT table whose unit is stated only in its first chunk."""
    home = tmp_path_factory.mktemp("units_home")
    long_txt = home / "kaveri_segment_results.txt"
    long_txt.write_text(LONG_RESULTS, encoding="utf-8")
    settings = Settings(home=home / "prism", groq_api_key=None, tavily_api_key=None, briefing_on_ingest=False)
    svc = PrismService(settings, embedder=embedder)
    results = svc.ingest([IngestItem(CASES / name) for name in CASE_FILES] + [IngestItem(long_txt)], "cases")
    assert [r.status for r in results] == ["ingested"] * (len(CASE_FILES) + 1)
    return svc


def _engine(svc: PrismService, fake: ScriptedLLM) -> AnswerEngine:
    settings = svc.settings.model_copy(update={"hyde_enabled": False, "multi_query_enabled": False})
    return AnswerEngine(svc.open("cases").retriever, svc.embedder, settings,
                        wrap_llms(fake, wait=tenacity.wait_none(), settings=settings))


def _block_of(svc: PrismService, question: str, source: str) -> int:
    """The block number (retrieval rank) of ``source`` among the results for ``question``."""
    top = svc.open("cases").retriever.search(question).results
    return next(i for i, r in enumerate(top, start=1) if r.source == source)


def test_extractive_answer_states_the_table_unit(cases):
    answer = cases.ask("What were net sales in the consolidated statement of income?", "cases")
    assert "Net sales $5,213 million" in answer.answer
    assert "41_income_statement_in_millions.txt" in [c.source for c in answer.citations]
    assert answer.unsupported_numbers == []


def test_extractive_answer_takes_the_unit_from_the_page_head(cases):
    rows = cases.open("cases").workspace
    [doc] = [d for d in rows.documents() if d.source == "kaveri_segment_results.txt"]
    stored = rows.read_chunks(doc.doc_id)
    assert len(stored) >= 2 and "Trade finance" not in stored[0]["text"]  # the row is below the header's chunk
    assert "(Rs. in crore)" not in stored[1]["text"]
    answer = cases.ask("What was the Trade finance segment revenue?", "cases")
    assert "Trade finance segment revenue ₹1,814 crore" in answer.answer
    assert answer.unsupported_numbers == []


@pytest.mark.parametrize(("reply", "flagged"), [
    ("Net sales were $5,213 million [{n}].", []),
    ("Net sales were $5.2 billion [{n}].", []),
    ("Net sales were $5,213 [{n}].", []),
    ("Net sales were $5,213 billion [{n}].", ["$5,213 billion"]),
    ("The net loss was -$1,234 million [{n}]; operating income -$1,102 million [{n}].", ["-$1,102 million"]),
])
def test_llm_figures_checked_in_the_table_unit(cases, reply, flagged):
    question = "What were net sales in the consolidated statement of income?"
    n = _block_of(cases, question, "41_income_statement_in_millions.txt")
    answer = _engine(cases, ScriptedLLM(respond=route(documents=reply.format(n=n)))).ask(question)
    assert answer.unsupported_numbers == flagged


def test_llm_figures_in_crore(cases):
    question = "What was net profit in the standalone financial results?"
    n = _block_of(cases, question, "41b_results_in_crore.txt")
    reply = f"Net profit was ₹812 crore [{n}] on total income of Rs. 5,213 crore [{n}], not $812 crore [{n}]."
    answer = _engine(cases, ScriptedLLM(respond=route(documents=reply))).ask(question)
    assert answer.unsupported_numbers == ["$812 crore"]


@pytest.mark.parametrize(("amount", "flagged"), [("Rs. 5,000", False), ("Rs. 50,000", True), ("₹50,000", True)])
def test_case_49_rs_amount(cases, amount, flagged):
    question = "What is the penalty for late filing of the quarterly return?"
    n = _block_of(cases, question, "49_penalty_in_rs.txt")
    reply = f"Banks pay a penalty of {amount} for each day of delay [{n}]."
    answer = _engine(cases, ScriptedLLM(respond=route(documents=reply))).ask(question)
    assert answer.unsupported_numbers == ([amount] if flagged else [])
    assert [c.source for c in answer.citations] == ["49_penalty_in_rs.txt"]


PENALTY_Q = "What is the penalty for delay in reporting large exposures?"


def _marker_refs(text: str) -> set[str]:
    return {r for m in parse_markers(text) for r in m.refs}


def test_case_40_extractive_cites_by_structure(cases):
    answer = cases.ask(PENALTY_Q, "cases")
    sources = [c.source for c in answer.citations]
    assert "40a_circular_with_reference_markers.txt" in sources
    assert "40b_unrelated_branch_hours.txt" not in sources
    assert "Rs. 5,000" in answer.answer.split("\n\n")[1]  # the figure, quoted from its sentence
    assert "reporting large exposures [ref 2]." in answer.answer  # the document's own reference, set apart
    assert "exposures [2]" not in answer.answer
    assert _marker_refs(answer.answer) == {str(c.n) for c in answer.citations}
    assert len(sources) == len(set(sources)) and all(c.n == i for i, c in enumerate(answer.citations, start=1))


def test_case_40_cli_answer_keeps_the_documents_reference_apart(cases, monkeypatch, capsys):
    monkeypatch.setattr("prism.cli.common.service", lambda: cases)
    assert main(["ask", PENALTY_Q, "--workspace", "cases"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "large exposures [ref 2]." in out and "large exposures [2]" not in out
    assert main(["ask", PENALTY_Q, "--workspace", "cases", "--json"]) == EXIT_OK
    answer = json.loads(capsys.readouterr().out)
    assert _marker_refs(answer["answer"]) == {str(c["n"]) for c in answer["citations"]}


def test_case_40_llm_sees_the_documents_references_apart(cases):
    fake = ScriptedLLM(respond=route(documents="Banks pay Rs. 5,000 per day of delay in reporting large exposures "
                                               "[ref 2] [1]."))
    answer = _engine(cases, fake).ask(PENALTY_Q)
    prompt = next(c["text"] for c in fake.calls if "Document context blocks" in c["text"])
    assert "large exposures [ref 2]." in prompt and "exposures [2]" not in prompt
    assert "[1] Master Direction" not in prompt and "[ref 1] Master Direction" in prompt  # the reference list too
    # a "[ref 2]" the LLM copies is text, never a citation: only the block it cites is a source
    assert [c.source for c in answer.citations] == ["40a_circular_with_reference_markers.txt"]
    assert "large exposures [ref 2] [1]." in answer.answer


def test_case_40_llm_marker_inside_a_quotation_is_text(cases):
    n = _block_of(cases, PENALTY_Q, "40a_circular_with_reference_markers.txt")
    k = _block_of(cases, PENALTY_Q, "40b_unrelated_branch_hours.txt")
    quoted = f"The circular says “Banks shall pay a penalty of Rs. 5,000 for each day of delay in reporting large " \
             f"exposures [{k}]” [{n}]."
    answer = _engine(cases, ScriptedLLM(respond=route(documents=quoted))).ask(PENALTY_Q)
    assert [c.source for c in answer.citations] == ["40a_circular_with_reference_markers.txt"]
    assert f"exposures [ref {k}]” [1]." in answer.answer  # the quoted number is set apart, the marker renumbered
    assert answer.unsupported_numbers == []
    # outside a quotation the same number is a marker: 40b becomes a cited source
    unquoted = f"Banks pay Rs. 5,000 per day of delay [{n}]; see also [{k}]."
    answer = _engine(cases, ScriptedLLM(respond=route(documents=unquoted))).ask(PENALTY_Q)
    assert [c.source for c in answer.citations] == ["40a_circular_with_reference_markers.txt",
                                                    "40b_unrelated_branch_hours.txt"]
