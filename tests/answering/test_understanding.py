"""Each question is understood once: its entities and periods are parsed once per question, its
embedding computed once, whichever stages read them (search, expanded search, the answerability gate, the cell
reading, the derived figure, the extractive sentences). Counted on the real pipeline: a generated 10-K
(:func:`tests.builders.statements_pdf`), the real embedder and Chroma."""

from __future__ import annotations

import json
import sys
from collections import Counter

import pytest
import tenacity

from prism.answering.engine import AnswerEngine
from prism.answering.llm import wrap_llms
from prism.answering.reading import entities as query_module
from prism.index.sentences import split_sentences
from prism.retrieval import periods as periods_module
from prism.types import IngestItem
from tests.builders import statements_pdf
from tests.conftest import offline_service
from tests.fakes_llm import ScriptedLLM, route


@pytest.fixture(scope="module")
def acme(tmp_path_factory, embedder):
    home = tmp_path_factory.mktemp("understanding_home")
    svc = offline_service(home, embedder, briefing_on_ingest=False)
    [result] = svc.ingest([IngestItem(statements_pdf(home / "acme_10k.pdf"))], "acme")
    assert result.status == "ingested"
    return svc


@pytest.fixture
def counted(monkeypatch, acme):
    """Counts, per text, the calls of ``find_periods`` (in every Prism module that imported it), of the entity
    matcher and of the embedder (texts embedded)."""
    calls: dict[str, Counter[str]] = {"periods": Counter(), "entities": Counter(), "embedded": Counter()}
    original_periods = periods_module.find_periods

    def find_periods(text):
        calls["periods"][text] += 1
        return original_periods(text)

    for name, module in list(sys.modules.items()):
        if name.startswith("prism") and getattr(module, "find_periods", None) is original_periods:
            monkeypatch.setattr(module, "find_periods", find_periods)
    original_entities = query_module.find_entities

    def find_entities(text, profiles):
        calls["entities"][text] += 1
        return original_entities(text, profiles)

    monkeypatch.setattr(query_module, "find_entities", find_entities)
    original_embed = type(acme.embedder).embed

    def embed(self, texts, threads=None):
        calls["embedded"].update(texts)
        return original_embed(self, texts, threads=threads)

    monkeypatch.setattr(type(acme.embedder), "embed", embed)  # a pydantic model: patched on its class
    return calls


QUESTIONS = [
    "What was Acme's operating margin in FY2023?",  # a derived figure: plan, inputs, sub-retrieval
    "What were Acme's revenues in FY2023?",  # a table cell
    "How does Acme describe its revenues?",  # extractive sentences
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_an_offline_question_is_parsed_and_embedded_once(acme, counted, question):
    answer = acme.ask(question, "acme")
    assert not answer.declined and answer.answer
    assert counted["periods"][question] == 1
    assert counted["entities"][question] == 1
    assert counted["embedded"][question] == 1
    # no retrieved chunk is embedded at answer time: the gate reads the vectors the store holds (a chunk of one
    # sentence may still be embedded as an extractive answer's candidate sentence)
    chunks = [c.text for c in (*answer.citations, *answer.retrieved)]
    assert chunks and not [c for c in chunks if counted["embedded"][c] and len(split_sentences(c)) > 1]


def test_with_expansions_the_query_is_still_parsed_and_embedded_once(acme, counted):
    formula = json.dumps({"metric": "operating margin", "formula": "operating income / revenue",
                          "periods": ["FY2023"], "how": "single", "kind": "percent", "decimals": 1})
    fake = ScriptedLLM(respond=route(you_choose_the_formula=formula,
                                     write_a_short_passage="Acme's operating margin was 12 %.",
                                     different_rephrasings="Acme operating income / revenue FY2023\nAcme margin 2023",
                                     document_context_blocks="Acme's operating margin was 11.9 % [1]."))
    settings = acme.settings.model_copy(update={"hyde_enabled": True, "multi_query_enabled": True})
    engine = AnswerEngine(acme.open("acme").retriever, acme.embedder, settings,
                          wrap_llms(fake, settings=settings, wait=tenacity.wait_none()))
    question = QUESTIONS[0]
    answer = engine.ask(question)
    assert answer.mode == "llm" and answer.calculation is not None and answer.calculation.result == "11.9 %"
    assert any("write a short passage" in c["text"].lower() for c in fake.calls)  # the expanded search did run
    assert counted["periods"][question] == 1
    assert counted["entities"][question] == 1
    assert counted["embedded"][question] == 1
