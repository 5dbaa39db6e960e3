"""Answering end to end on real documents: real parser, chunker, embedder, Chroma, BM25 and HybridRetriever; only
the LLM is a scripted fake (LlamaIndex LLM interface). The documents are the repository's sample PDFs; one test reads
a real RBI master circular from ../shared/data (skipped, naming the folder, without it)."""

from __future__ import annotations

import pytest
import tenacity

from prism.answering.answerability import unnamed_decline
from prism.answering.conversation import Conversation
from prism.answering.engine import EMPTY_WORKSPACE, REPHRASE, AnswerEngine, AnswerStream
from prism.answering.extractive import (
    EXTRACTIVE_LABEL,
    extractive_answer,
    relevance,
    score_sentences,
    split_sentences,
)
from prism.answering.llm import wrap_llms
from prism.config import Settings
from prism.errors import DocumentNotFoundError, LLMAuthError
from prism.index.bm25 import BM25Index
from prism.service import PrismService
from prism.types import TIMING_STAGES, IngestItem, Turn
from tests.conftest import CASES, DATA, REPO, require_data
from tests.fakes_llm import ScriptedLLM, auth_error, route, server_error
from tests.readings import read

UPI_PDF = REPO / "data" / "sample" / "meridian_bank_upi_operating_circular.pdf"
MASTER_PDF = REPO / "data" / "sample" / "rbi_style_master_circular_digital_payments.pdf"
SHG_PDF = DATA / "rbi" / "pdfs" / "01MCD0D97308D3AD49A3908E2F4410ED4409.PDF"
UPI = UPI_PDF.name
SHG = SHG_PDF.name
SEED = "What was the total UPI transaction volume in FY2024?"
FIGURE_SENTENCE = "In FY2024 Meridian Bank processed a total UPI transaction volume of 612 crore transactions worth"
NO_WAIT = tenacity.wait_none()


def _service_with(home, embedder, *pdfs) -> PrismService:
    settings = Settings(home=home, groq_api_key=None, tavily_api_key=None, briefing_on_ingest=False)
    svc = PrismService(settings, embedder=embedder)
    results = svc.ingest([IngestItem(p) for p in pdfs], "docs")
    assert [r.status for r in results] == ["ingested"] * len(pdfs)
    return svc


@pytest.fixture(scope="module")
def docs(tmp_path_factory, embedder):
    """One workspace with the two sample circulars of the repository (ingested once per module)."""
    return _service_with(tmp_path_factory.mktemp("answer_home"), embedder, UPI_PDF, MASTER_PDF)


@pytest.fixture(scope="module")
def rbi_docs(tmp_path_factory, embedder):
    """The sample UPI circular and a real RBI master circular on self-help groups (../shared/data)."""
    require_data("rbi", "pdfs")
    return _service_with(tmp_path_factory.mktemp("answer_rbi_home"), embedder, UPI_PDF, SHG_PDF)


def engine(docs, fake: ScriptedLLM | None = None, **overrides) -> AnswerEngine:
    settings = docs.settings.model_copy(update=overrides) if overrides else docs.settings
    llms = wrap_llms(fake, wait=NO_WAIT, settings=settings) if fake is not None else None
    return AnswerEngine(docs.open("docs").retriever, docs.embedder, settings, llms)


# --- extractive -------------------------------------------------------------------------------------------------
def test_seed_question_extractive_answer_contains_the_figure(docs):
    answer = docs.ask(SEED, "docs")
    assert answer.mode == "extractive"
    assert answer.answer.startswith("Extractive answer (no LLM configured):")
    assert EXTRACTIVE_LABEL in answer.message
    # the figure is read from the annexure's table, in the column the question names, in its own unit (a count of
    # transactions, not the table's ₹ crore)
    line = next(li for li in answer.answer.splitlines() if li.startswith("- "))
    assert line.startswith("- Volume (crore transactions), FY2024: 612 "), line
    n = int(line.rsplit("[", 1)[1].rstrip("]"))
    cited = {c.n: c for c in answer.citations}
    assert cited[n].source == UPI and cited[n].page_start == 5 and "612" in cited[n].text
    assert set(cited[n].scores) == {"dense", "dense_rank", "bm25", "bm25_rank", "rrf", "rrf_rank", "rerank",
                                    "rerank_rank"}
    assert answer.unsupported_numbers == []  # verbatim sentences
    assert {c.n for c in answer.citations}.isdisjoint({c.n for c in answer.retrieved})
    assert sorted(c.n for c in answer.citations + answer.retrieved) == list(range(1, 6))
    assert set(answer.timings_ms) == set(TIMING_STAGES)
    assert answer.timings_ms["retrieve"] > 0 and answer.timings_ms["condense"] is None


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What saving to loan ratio can savings linked loans to SHGs have?", "saving to loan ratio of 1:1 to 1:4"),
        ("Who decides the interest rates on loans to SHGs?", "discretion to decide on the interest rates"),
    ],
)
def test_extractive_answers_on_real_rbi_text(rbi_docs, question, expected):
    answer = rbi_docs.ask(question, "docs", sources=[SHG])
    assert expected in " ".join(answer.answer.split())
    assert all(c.source == SHG for c in answer.citations + answer.retrieved)


def _source(line: str, sentences: list[str]) -> str:
    """The document's sentence a quoted line gives: itself, or for a table row written with its columns' headers
    ("P2P transfers — Per transaction: ₹1,00,000; …") the row as printed, its label then its figures."""
    if " — " not in line or ": " not in line:
        return line
    label, cells = line.split(" — ", 1)
    figures = ["".join(c.split(": ", 1)[1].split()) for c in cells.split("; ")]
    return next(s for s in sentences if s.startswith(label) and "".join(s[len(label):].split()) == "".join(figures))


def test_extractive_leads_with_the_best_then_keeps_reading_order_and_markers(docs, embedder):
    chunks = docs.open("docs").retriever.search(SEED, sources=[UPI]).results
    text, cited = extractive_answer(read(SEED), chunks, embedder, max_sentences=3)
    lines = text.splitlines()[2:]
    assert len(lines) <= 3 and cited
    ns = [int(li.rsplit("[", 1)[1].rstrip("]")) for li in lines]
    assert set(ns) == set(cited)
    scored = score_sentences(read(SEED), chunks, embedder)
    answering = {s.text for s in scored if s.answers}
    order = []
    for li, n in zip(lines, ns, strict=True):
        sentence = _source(li[2 : li.rindex(" [")].strip("…"), [s.text for s in scored])  # "…": where a chunk cut
        assert " ".join(sentence.split()) in " ".join(chunks[n - 1].text.split())
        order.append((not any(" ".join(sentence.split()) in " ".join(a.split()) for a in answering), n))
    assert order[1:] == sorted(order[1:])  # the best answering line leads, then those that answer, in reading order
    assert extractive_answer(read(SEED), [], embedder) == ("", [])


def test_extractive_marks_sentences_cut_by_a_chunk_boundary(embedder):
    from prism.types import RetrievedChunk

    chunk = RetrievedChunk("c-1", "d" * 64, "x.txt", "lakh per day for P2P transfers. The UPI limit for P2M is "
                           "₹2,00,000 per day. Collect requests above ₹2,000 are declined by the")
    text, cited = extractive_answer(read("What is the UPI limit and what happens to collect requests?"), [chunk],
                                    embedder, max_sentences=3)
    assert cited == [1]
    assert "- The UPI limit for P2M is ₹2,00,000 per day. [1]" in text
    assert "- Collect requests above ₹2,000 are declined by the… [1]" in text
    assert "…lakh per day" in text or "lakh per day" not in text


def test_extractive_leaves_out_headings_and_call_logistics(embedder):
    from prism.types import RetrievedChunk

    call = RetrievedChunk("c-1", "d" * 64, "call.pdf", "4. Transaction Limits\n\nThe UPI limit per day is ₹1,00,000 "
                          "for P2P transfers.\nModerator: On behalf of Meridian Bank Ltd, that concludes this "
                          "conference on transaction limits.")
    text, cited = extractive_answer(read("What are the UPI transaction limits per day?"), [call], embedder,
                                    max_sentences=4)
    assert text.splitlines()[2:] == ["- The UPI limit per day is ₹1,00,000 for P2P transfers. [1]"], text
    # a passage of headings only still answers with what it has
    heading = RetrievedChunk("c-2", "e" * 64, "c.pdf", "4. Transaction Limits")
    assert extractive_answer(read("transaction limits"), [heading], embedder)[1] == [1]


def test_split_sentences_respects_abbreviations_and_clauses():
    text = "4.1 The fee is Rs. 500 per month, i.e. for No. 3 accounts. It applies now.\n4.2 Next clause here."
    assert split_sentences(text) == [
        "4.1 The fee is Rs. 500 per month, i.e. for No. 3 accounts.", "It applies now.", "4.2 Next clause here."
    ]
    assert split_sentences("??? ...") == []


# --- guards: no LLM call ----------------------------------------------------------------------------------------
def test_empty_workspace_makes_no_llm_call(service):
    service.create_workspace("empty")
    fake = ScriptedLLM()
    svc = PrismService(service.settings, embedder=service.embedder, llms=wrap_llms(fake, wait=NO_WAIT))
    answer = svc.ask(SEED, "empty", history=[Turn("What is UPI?", "UPI is a payment system.")])
    assert answer.answer == EMPTY_WORKSPACE.format(name="empty")
    assert "Workspace 'empty' is empty" in answer.message
    assert [n.to_dict() for n in answer.notes] == [{"kind": "declined", "text": answer.answer}]
    assert fake.calls == [] and answer.citations == [] and answer.retrieved == []


def test_nothing_relevant_makes_no_llm_call(docs):
    fake = ScriptedLLM()
    for question, why in (("What is the capital of France?", "nothing retrieved is close enough"),
                          ("How do I bake sourdough bread?", "no close passage mentions: bake, sourdough")):
        answer = engine(docs, fake).ask(question)
        assert answer.answer == (f"The documents in this workspace don't answer that. Searched for \"{question}\" in "
                                 f"all documents; {why}. The closest passages are listed "
                                 "below so you can check, or try other words or another filter.")
        assert answer.citations == [] and answer.mode == "llm" and answer.declined
        assert len(answer.retrieved) == 5 and [c.n for c in answer.retrieved] == [1, 2, 3, 4, 5]
    assert fake.calls == []


def test_degenerate_queries_ask_to_rephrase_without_llm_call(docs):
    fake = ScriptedLLM()
    queries = (CASES / "18_degenerate_queries.txt").read_text(encoding="utf-8").splitlines()
    assert len(queries) >= 5
    for q in queries:
        answer = engine(docs, fake).ask(q)
        assert answer.answer == REPHRASE and "rephrase" in answer.message
    assert fake.calls == []


def test_relevance_separates_answerable_from_off_topic(docs, embedder):
    retriever = docs.open("docs").retriever
    threshold = docs.settings.answer_min_relevance
    on = relevance(read(SEED), retriever.search(SEED, rerank=False).results, embedder)
    mona = "Who painted the Mona Lisa?"
    off = relevance(read(mona), retriever.search(mona).results, embedder)
    assert off < threshold < on
    assert relevance(read(SEED), [], embedder) == -1.0


# --- LLM path ---------------------------------------------------------------------------------------------------
def test_llm_answer_streams_validates_citations_and_checks_figures(docs):
    # the answer cites the retrieved chunk that states both figures, wherever it ranks in the top 5
    top = docs.open("docs").retriever.search(SEED).results
    [n] = [i for i, r in enumerate(top, start=1) if "612 crore" in r.text and "₹8.4 lakh crore" in r.text][:1]
    answer_text = (f"Meridian Bank processed 612 crore UPI transactions worth ₹8.4 lakh crore in FY2024 [{n}]. "
                   "Its value later reached ₹9.9 lakh crore [7].")
    fake = ScriptedLLM(respond=route(documents=answer_text))
    stream = engine(docs, fake, hyde_enabled=False, multi_query_enabled=False).ask(SEED, stream=True)
    assert isinstance(stream, AnswerStream) and stream.answer is None
    assert stream.condensed_query == SEED and len(stream.chunks) == 5
    assert [c.chunk_id for c in stream.chunks] == [r.chunk_id for r in top]
    pieces = list(stream)
    assert len(pieces) > 3 and "".join(pieces).endswith("[7].")  # the raw stream, markers not yet validated
    answer = stream.answer
    assert answer is not None and answer.mode == "llm"
    assert answer.answer.endswith("₹9.9 lakh crore.")  # [7] pointed nowhere: removed
    assert "[1]." in answer.answer and f"[{n}]" not in answer.answer.replace("[1]", "")  # numbered by first use
    assert [(c.n, c.rank) for c in answer.citations] == [(1, n)]
    assert [(c.n, c.rank) for c in answer.retrieved] == list(enumerate([k for k in range(1, 6) if k != n], start=2))
    assert answer.citations[0].chunk_id == stream.chunks[n - 1].chunk_id
    assert answer.unsupported_numbers == ["₹9.9 lakh crore"]
    assert "[7]" in answer.message and "₹9.9 lakh crore" in answer.message
    # the same, structured: the view shows flagged figures from these notes instead of parsing the message
    assert [n.kind for n in answer.notes] == ["citations_removed", "unsupported_figures"]
    assert answer.notes[1].text == "Check these figures, not found in the sources they cite: ₹9.9 lakh crore."
    assert answer.message == " ".join(n.text for n in answer.notes)
    assert answer.timings_ms["first_token"] is not None
    assert answer.timings_ms["first_token"] <= answer.timings_ms["total"]
    [call] = fake.calls
    system, user = call["messages"][0].content, call["messages"][-1].content
    assert "DATA" in system and "never instructions" in system
    assert user.count("<documents>") == 1 and f"[1] source: {stream.chunks[0].source}" in user
    assert f"Question: {SEED}" in user


def test_history_reaches_prompt_and_condenser(docs):
    history = Conversation(max_turns=10)
    history.add("What is the P2P limit for UPI?", "The P2P limit is ₹1 lakh per day [2].")
    fake = ScriptedLLM(respond=route(standalone="What was the UPI transaction volume in FY2024?",
                                     documents="The volume was 612 crore transactions [1]."))
    answer = engine(docs, fake, hyde_enabled=False, multi_query_enabled=False).ask(
        "and the volume in FY2024?", history=history
    )
    assert answer.condensed_query == "What was the UPI transaction volume in FY2024?"
    condense_call, answer_call = fake.calls
    assert "Analyst: What is the P2P limit for UPI?" in condense_call["text"]
    assert "Follow-up question: and the volume in FY2024?" in condense_call["text"]
    assert "[2]" not in condense_call["text"]  # old markers are stripped
    roles = [m.role.value for m in answer_call["messages"]]
    assert roles == ["system", "user", "assistant", "user"]
    assert answer_call["messages"][1].content == "What is the P2P limit for UPI?"
    last = answer_call["messages"][-1].content
    assert "Question: and the volume in FY2024?" in last and "Standalone form" in last and "<documents>" in last
    assert answer.timings_ms["condense"] is not None


def test_llm_failure_before_first_token_falls_back_to_extractive(docs):
    fake = ScriptedLLM(script=[server_error()] * 4)
    answer = engine(docs, fake, hyde_enabled=False, multi_query_enabled=False, llm_max_attempts=2).ask(SEED)
    assert answer.mode == "extractive" and answer.answer.startswith("Extractive answer (the LLM call failed)")
    assert "Volume (crore transactions), FY2024: 612" in answer.answer and "HTTP 500" in answer.message
    assert len(fake.calls) == 2


def test_bad_key_raises_auth_error(docs):
    fake = ScriptedLLM(script=[auth_error()])
    with pytest.raises(LLMAuthError, match="rejected the API key"):
        engine(docs, fake, hyde_enabled=False, multi_query_enabled=False).ask(SEED)


def test_unknown_document_filter_raises(docs):
    with pytest.raises(DocumentNotFoundError, match="nope.pdf"):
        docs.ask(SEED, "docs", sources=["nope.pdf"])


# --- expansion wiring -------------------------------------------------------------------------------------------
HYDE_TEXT = "Annexure A states that the bank processed crore transactions, quasar-lexeme, during the year."
PHRASINGS = (
    "1. UPI volume processed in financial year 2024\n2. How many UPI transactions in FY24?\n- total UPI count 2024"
)


class SpyRetriever:
    """Delegates to the real retriever, recording the keyword arguments of each search."""

    def __init__(self, real):
        self.real, self.workspace, self.settings, self.calls = real, real.workspace, real.settings, []

    def idf(self, terms):
        return self.real.idf(terms)

    def vectors(self, chunk_ids):
        return self.real.vectors(chunk_ids)

    def search(self, query, **kwargs):
        self.calls.append({"query": query, **kwargs})
        return self.real.search(query, **kwargs)


@pytest.fixture
def sides(monkeypatch):
    """Records the strings that reach the dense side (embedder) and the BM25 side (index search)."""
    seen = {"dense": [], "bm25": []}
    from prism.index.embedder import PrismEmbedding

    real_embed, real_search = PrismEmbedding.embed, BM25Index.search

    def embed(self, texts, *args, **kwargs):
        seen["dense"].extend(texts)
        return real_embed(self, texts, *args, **kwargs)

    def search(self, query, *args, **kwargs):
        seen["bm25"].append(query)
        return real_search(self, query, *args, **kwargs)

    monkeypatch.setattr(PrismEmbedding, "embed", embed)
    monkeypatch.setattr(BM25Index, "search", search)
    return seen


def _spy_engine(docs, fake, **overrides):
    eng = engine(docs, fake, **overrides)
    eng.retriever = SpyRetriever(eng.retriever)
    return eng


def test_hyde_reaches_the_dense_side_only(docs, sides):
    fake = ScriptedLLM(respond=route(passage=HYDE_TEXT, documents="612 crore [1]."))
    eng = _spy_engine(docs, fake, multi_query_enabled=False)
    answer = eng.ask(SEED)
    assert HYDE_TEXT in sides["dense"]
    assert not any("quasar" in q for q in sides["bm25"])
    assert SEED in sides["bm25"] and SEED in sides["dense"]
    final = eng.retriever.calls[-1]
    assert final["dense_queries"] == [SEED, HYDE_TEXT] and final["sparse_queries"] == [SEED]
    assert final["rerank_query"] == SEED and eng.retriever.calls[0]["rerank"] is False
    assert [c["kind"] for c in fake.calls] == ["complete", "stream_chat"]
    assert answer.timings_ms["expand"] is not None


def test_multi_query_reaches_both_sides_and_rerank_uses_the_question(docs, sides):
    fake = ScriptedLLM(respond=route(rephrasings=PHRASINGS, documents="612 crore [1]."))
    eng = _spy_engine(docs, fake, hyde_enabled=False)
    eng.ask(SEED)
    phrasings = ["UPI volume processed in financial year 2024", "How many UPI transactions in FY24?",
                 "total UPI count 2024"]
    final = eng.retriever.calls[-1]
    assert final["dense_queries"] == [SEED, *phrasings] and final["sparse_queries"] == [SEED, *phrasings]
    assert final["rerank_query"] == SEED and final["rerank"] is True
    for p in phrasings:
        assert p in sides["dense"] and p in sides["bm25"]
    prompt = next(c["text"] for c in fake.calls if c["kind"] == "complete")
    assert "3 different rephrasings" in prompt


def test_expansion_is_off_without_llm_and_failures_degrade(docs, sides):
    eng = engine(docs)
    eng.retriever = SpyRetriever(eng.retriever)
    plain = eng.ask(SEED, hyde=True, multi_query=True)
    assert len(eng.retriever.calls) == 1 and "dense_queries" not in eng.retriever.calls[0]
    assert "HyDE and multi-query are off: no LLM is configured." in plain.message

    fake = ScriptedLLM(respond=lambda text: (_ for _ in ()).throw(server_error()) if "passage" in text.lower()
                       else "612 crore [1].")
    answer = engine(docs, fake, multi_query_enabled=False, llm_max_attempts=1).ask(SEED)
    assert answer.mode == "llm" and "HyDE was skipped" in answer.message


def test_citations_are_numbered_by_first_use_and_keep_their_retrieval_rank(docs):
    """An answer citing blocks 3, then 1 and 4 reads [1], [2], [3] (today's "[1], [3], [4] under 3 cited passages"
    is gone); each citation keeps the block's retrieval rank; figures are still checked against the cited blocks."""
    top = docs.open("docs").retriever.search(SEED).results
    text = "First point [3]. Second point [1][4]. Again the first [3]; both [4, 1]. Nowhere [9]."
    fake = ScriptedLLM(respond=route(documents=text))
    answer = engine(docs, fake, hyde_enabled=False, multi_query_enabled=False).ask(SEED)
    assert answer.answer == "First point [1]. Second point [2][3]. Again the first [1]; both [3, 2]. Nowhere."
    assert [(c.n, c.rank) for c in answer.citations] == [(1, 3), (2, 1), (3, 4)]
    assert [c.chunk_id for c in answer.citations] == [top[2].chunk_id, top[0].chunk_id, top[3].chunk_id]
    assert [(c.n, c.rank) for c in answer.retrieved] == [(4, 2), (5, 5)]
    data = answer.to_dict()
    assert [c["n"] for c in data["citations"]] == [1, 2, 3] and data["citations"][0]["rank"] == 3


def test_a_decline_is_not_an_extractive_answer(docs, monkeypatch):
    """When no sentence of the retrieved chunks answers, the answer is the decline, noted as such (the UI and the
    export then never call it "sentences quoted from the documents")."""
    import prism.answering.engine as engine_module

    monkeypatch.setattr(engine_module, "extractive_lines", lambda *args, **kwargs: [])
    monkeypatch.setattr(engine_module.FigureStep, "figures", lambda *args, **kwargs: (None, [], []))
    answer = docs.ask(SEED, "docs")
    assert answer.answer == unnamed_decline(read(SEED)) and answer.mode == "extractive" and answer.declined
    assert "names “total UPI transaction volume” in FY2024" in answer.answer
    assert answer.to_dict()["declined"] is True
    assert [n.kind for n in answer.notes] == ["declined"]
    assert answer.citations == [] and answer.retrieved  # the passages are still there to look at


def test_a_company_the_workspace_does_not_hold_is_declined(docs):
    """Never another company's figure; the decline lists the entities the workspace holds."""
    fake = ScriptedLLM()
    answer = engine(docs, fake).ask("What was Tesla's total UPI transaction volume in FY2024?")
    assert answer.answer == (
        "No document in workspace 'docs' is about Tesla, so Prism does not answer with another company's figures. "
        "The workspace holds: Meridian Bank Ltd, Reserve Bank of India, Department of Payment and Settlement "
        "Systems. Add Tesla's documents, or ask about one of these.")
    assert [n.kind for n in answer.notes] == ["declined"]
    assert fake.calls == [] and answer.citations == [] and answer.retrieved == []
    # no entity to restrict to; the UPI circular's chunks that hold "FY2024" are preferred (auto)
    assert answer.to_dict()["scope"] == {"entities": [], "periods": ["FY2024"], "documents": [], "auto": True}
    named = engine(docs).ask("What was Meridian Bank's total UPI transaction volume in FY2024?")
    # Meridian Bank's figure, quoted from its annexure's table cell in the unit its row label states
    assert named.answer == ("Extractive answer (no LLM configured):\n\n- Volume (crore transactions), FY2024: 612 "
                            "crore transactions (Annexure A – UPI Volumes Processed by Meridian Bank) [1]")
    assert [n.kind for n in named.notes][0] == "extractive"
    assert named.scope.entities == ("Meridian Bank Ltd",) and named.scope.documents == (UPI,)
    unscoped = engine(docs).ask("What was Tesla's total UPI transaction volume in FY2024?", auto_scope=False)
    assert not unscoped.answer.startswith("No document in workspace")  # --no-auto-scope: no entity decline
