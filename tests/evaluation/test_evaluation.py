"""Evaluation: metrics on hand-built rankings, the relevance rule, the three loaders on real files, the ground truth
against the real sample PDFs, answer measures, the LLM judge (scripted fake), run files and the index, the CLI."""

from __future__ import annotations

import json
import math
import re
import shutil
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import tenacity

import prism
from prism.answering.llm import wrap_llms
from prism.config import Settings
from prism.errors import PrismError
from prism.evaluation import relevance
from prism.evaluation.answers import (
    answer_relevancy,
    asked_scale,
    is_declined,
    judge_correctness,
    numeric_match,
    parse_score,
    token_f1,
)
from prism.evaluation.datasets import QUESTION_TYPES, detect_format, load_dataset, load_prism
from prism.evaluation.metrics import evaluate_run, percentiles, stage_percentiles
from prism.evaluation.relevance import (
    RelevantSpec,
    chunk_matches,
    contains_evidence,
    is_relevant,
    lenient_precision_at_k,
    relevant_chunk_ids,
)
from prism.evaluation.runner import ablation_variants, run_evaluation
from prism.evaluation.runs import RUN_KEYS, RunStore, settings_snapshot
from tests.conftest import DATA, REPO, needs_data
from tests.fakes_llm import ScriptedLLM, route

SAMPLE = REPO / "data" / "sample"
GROUND_TRUTH = REPO / "data" / "ground_truth" / "eval_pairs.json"
UPI = SAMPLE / "meridian_bank_upi_operating_circular.pdf"


@pytest.fixture(autouse=True)
def eval_dir(tmp_path, monkeypatch) -> Path:
    """Runs of these tests never land in the repository's eval/ folder."""
    from prism.config import get_settings

    d = tmp_path / "eval_default"
    monkeypatch.setenv("PRISM_EVAL_DIR", str(d))
    get_settings.cache_clear()
    return d


# --- metrics on hand-built rankings -----------------------------------------------------------------------------
QRELS = {"q1": {"d1": 1, "d3": 1}, "q2": {"d2": 1}, "q3": {"d9": 1}}
RUN = {
    "q1": {"d2": 0.9, "d1": 0.8, "d4": 0.7, "d3": 0.6, "d5": 0.5},  # relevant at ranks 2 and 4
    "q2": {"d2": 0.3, "d7": 0.2},  # relevant at rank 1
    # q3 retrieved nothing: scores 0 everywhere
}


def test_metrics_match_hand_computed_values():
    means, per_query = evaluate_run(QRELS, RUN, ("hit@1", "hit@5", "mrr@10", "map@100", "ndcg@10", "p@5",
                                                 "recall@1", "recall@5"))
    dcg_q1 = 1 / math.log2(3) + 1 / math.log2(5)
    idcg_q1 = 1 + 1 / math.log2(3)
    assert per_query["q1"]["hit@1"] == 0.0 and per_query["q2"]["hit@1"] == 1.0
    assert per_query["q1"]["mrr@10"] == pytest.approx(1 / 2)
    assert per_query["q1"]["map@100"] == pytest.approx((1 / 2 + 2 / 4) / 2)
    assert per_query["q1"]["ndcg@10"] == pytest.approx(dcg_q1 / idcg_q1)
    assert per_query["q1"]["p@5"] == pytest.approx(2 / 5)
    assert per_query["q2"]["p@5"] == pytest.approx(1 / 5)
    assert per_query["q1"]["recall@1"] == 0.0 and per_query["q1"]["recall@5"] == 1.0
    assert per_query["q3"] == {m: 0.0 for m in per_query["q3"]}
    assert means["hit@1"] == pytest.approx(1 / 3)
    assert means["hit@5"] == pytest.approx(2 / 3)
    assert means["mrr@10"] == pytest.approx((1 / 2 + 1) / 3)
    assert means["ndcg@10"] == pytest.approx((dcg_q1 / idcg_q1 + 1) / 3)
    assert means["p@5"] == pytest.approx((2 / 5 + 1 / 5) / 3)
    assert means["recall@5"] == pytest.approx(2 / 3)
    assert RUN["q1"] == {"d2": 0.9, "d1": 0.8, "d4": 0.7, "d3": 0.6, "d5": 0.5}  # inputs not mutated


def test_metric_errors_and_percentiles():
    with pytest.raises(ValueError, match="unknown metric"):
        evaluate_run(QRELS, RUN, ("ndcg",))
    with pytest.raises(ValueError, match="no relevance judgements"):
        evaluate_run({}, RUN)
    assert percentiles([]) == {}
    assert percentiles([10.0, 20.0, 30.0, 40.0, 50.0]) == {"p50": 30.0, "p95": 48.0, "p99": pytest.approx(49.6)}
    stages = stage_percentiles([{"dense": 10.0, "rerank": None}, {"dense": 30.0}, {"dense": 20.0, "bm25": 4.0}])
    assert stages["dense"]["p50"] == 20.0 and stages["dense"]["n"] == 3
    assert stages["bm25"] == {"p50": 4.0, "p95": 4.0, "p99": 4.0, "n": 1}
    assert "rerank" not in stages


# --- the relevance rule -----------------------------------------------------------------------------------------
def test_relevance_rule_page_span_source_and_evidence():
    spec = RelevantSpec("c.pdf", 3, "P2P transfers ₹1,00,000")
    text = "Category Per transaction\nP2P   TRANSFERS ₹1,00,000 ₹1,00,000 9.1"
    assert chunk_matches(spec, "c.pdf", text, 2, 3)  # page inside the span; white space and case ignored
    assert chunk_matches(spec, "c.pdf", text, 3, None)  # single page
    assert not chunk_matches(spec, "c.pdf", text, 4, 5)  # page outside the span
    assert not chunk_matches(spec, "other.pdf", text, 3, 3)  # wrong source
    assert chunk_matches(spec, "c.pdf", text, None, None)  # unpaged chunks are not tested on pages
    assert not chunk_matches(spec, "c.pdf", "P2M transfers are not limited by count.", 3, 3)
    assert chunk_matches(RelevantSpec("c.pdf", 3), "c.pdf", "anything", 3, 3)  # no evidence: page is enough
    assert chunk_matches(RelevantSpec("c.pdf"), "c.pdf", "anything", 9, 9)  # source only
    assert not is_relevant([], "c.pdf", text, 3, 3)  # negative question


def test_relevance_rule_is_fuzzy_for_extraction_noise_only():
    evidence = "may not exceed ₹2,000, in line with paragraph 9.5"
    noisy = "4.2.2 A P2P collect request may not exceed ₹2.000, in Iine with paragraph 9.5 of the Master Circular."
    assert contains_evidence(noisy, evidence)  # two OCR-style slips in ~45 characters
    assert not contains_evidence("may not exceed ₹5,000 in aggregate during the first day", evidence)
    half = "The switch declines requests that may not exceed ₹2,000"  # evidence cut at a chunk boundary
    assert not contains_evidence(half, evidence)
    # the difflib fallback gives the same verdicts
    norm = relevance.normalize_for_match
    assert relevance._difflib_partial_ratio(norm(evidence), norm(noisy)) >= relevance.FUZZY_THRESHOLD
    assert relevance._difflib_partial_ratio(norm(evidence), norm(half)) < relevance.FUZZY_THRESHOLD
    assert relevance._difflib_partial_ratio("", "abc") == 0.0


def test_relevant_chunk_ids_and_lenient_precision():
    rows = [
        {"chunk_id": "a", "source": "c.pdf", "text": "Debits up to ₹15,000 are processed", "page_start": 2,
         "page_end": 2},
        {"chunk_id": "b", "source": "c.pdf", "text": "Debits up to ₹15,000 are processed", "page_start": 5,
         "page_end": 5},
        {"chunk_id": "c", "source": "m.pdf", "text": "recurring e-mandate debits up to ₹15,000", "page_start": 1,
         "page_end": 1},
    ]
    specs = [RelevantSpec("c.pdf", 2, "up to ₹15,000 are processed")]
    assert relevant_chunk_ids(specs, rows) == {"a": 1}
    retrieved = [{"source": "m.pdf", "text": "up to ₹15,000 are processed without AFA"},  # keyword → counts
                 {"source": "c.pdf", "text": "unrelated"},  # right source → counts
                 {"source": "s.pdf", "text": "unrelated"}]
    assert lenient_precision_at_k(retrieved, specs, k=5) == pytest.approx(2 / 5)
    assert lenient_precision_at_k(retrieved, specs, keywords=["nothing"], k=3) == pytest.approx(1 / 3)
    with pytest.raises(ValueError):
        lenient_precision_at_k(retrieved, specs, k=0)


# --- loaders on real files --------------------------------------------------------------------------------------
def test_prism_ground_truth_loads_and_covers_every_type():
    ds = load_dataset(GROUND_TRUTH)
    assert ds.format == "prism" and ds.granularity == "chunk" and ds.name == "eval_pairs"
    assert len(ds.queries) >= 50
    assert {q.type for q in ds.queries} == set(QUESTION_TYPES)
    assert sorted(d.source for d in ds.documents) == sorted(p.name for p in SAMPLE.glob("*.pdf"))
    assert all(d.path is not None and d.path.parent == SAMPLE for d in ds.documents)
    assert all(q.negative == (q.type == "negative") for q in ds.queries)
    assert sum(1 for q in ds.queries if len({s.source for s in q.relevant}) >= 2) >= 5  # two-document questions
    assert any("₹" in q.query + (q.reference_answer or "") and re.search(r"lakh|crore", q.reference_answer or "")
               for q in ds.queries)
    assert any(re.search(r"\b\d+\.\d+(\.\d+)?\b", q.query) for q in ds.queries)  # section numbers
    assert len({q.id for q in ds.queries}) == len(ds.queries)
    assert ds.content_hash != ds.corpus_hash and len(ds.content_hash) == 64


def test_every_evidence_string_is_on_its_page_of_the_real_pdf():
    """The ground truth is verified against pypdf's plain-mode extraction: each evidence snippet is on its stated
    page. (Layout mode, Prism's default, reads a table row whose cells wrap line by line across the cells, so two
    evidence strings from such a table are not verbatim in it; the evaluation's fuzzy rule is what judges them.)"""
    from prism.config import Settings
    from prism.ingestion.parsing import load

    pages = {}
    for pdf in SAMPLE.glob("*.pdf"):
        for p in load(pdf, settings=Settings(pdf_text_mode="plain")).pages:
            pages[(pdf.name, p.number)] = relevance.normalize_for_match(p.text)
    ds = load_prism(GROUND_TRUTH)
    checked = 0
    for q in ds.queries:
        for s in q.relevant:
            assert s.page is not None and s.evidence, q.id
            assert relevance.normalize_for_match(s.evidence) in pages[(s.source, s.page)], (q.id, s)
            checked += 1
    assert checked >= 80


def test_prism_loader_rejects_malformed_ground_truth(tmp_path):
    def write(items) -> Path:
        p = tmp_path / "gt.json"
        p.write_text(json.dumps(items), encoding="utf-8")
        return p

    base = {"id": "x", "query": "q?", "reference_answer": "a", "type": "factoid",
            "relevant": [{"source": UPI.name, "page": 1}]}
    with pytest.raises(PrismError, match="negative but lists relevant"):
        load_prism(write([{**base, "type": "negative"}]), SAMPLE)
    with pytest.raises(PrismError, match="only negative questions may have none"):
        load_prism(write([{**base, "relevant": []}]), SAMPLE)
    with pytest.raises(PrismError, match="has type 'opinion'"):
        load_prism(write([{**base, "type": "opinion"}]), SAMPLE)
    with pytest.raises(PrismError, match="1-based page"):
        load_prism(write([{**base, "relevant": [{"source": UPI.name, "page": 0}]}]), SAMPLE)
    with pytest.raises(PrismError, match="appears more than once"):
        load_prism(write([base, base]), SAMPLE)
    with pytest.raises(PrismError, match="were not found"):
        load_prism(write([{**base, "relevant": [{"source": "missing.pdf"}]}]), SAMPLE)
    with pytest.raises(PrismError, match="not valid JSON"):
        (tmp_path / "bad.json").write_text("[{", encoding="utf-8")
        load_prism(tmp_path / "bad.json", SAMPLE)
    assert len(load_prism(write([base]), SAMPLE).documents) == 1


@needs_data
def test_beir_loader_on_real_scifact():
    ds = load_dataset(DATA / "scifact")
    assert ds.format == "beir" and ds.granularity == "document" and ds.split == "train"
    assert len(ds.documents) == 5183 and len(ds.queries) == 809
    assert sum(len(q.grades) for q in ds.queries) == 919
    assert ds.corpus_hash.startswith("dec31c81") and ds.corpus_hash == ds.beir.content_hash
    ids = [q.id for q in ds.queries]
    assert ids == sorted(ids, key=lambda i: (len(i), i))
    q = ds.queries[0]
    assert {s.source for s in q.relevant} == set(q.grades) and all(s.page is None for s in q.relevant)


@needs_data
def test_financebench_loader_converts_pages_to_one_based():
    ds = load_dataset(DATA / "financebench-dev")
    assert ds.format == "financebench" and ds.granularity == "chunk"
    assert len(ds.queries) == 20 and len(ds.documents) == 16
    raw = [json.loads(line) for line in (DATA / "financebench-dev" / "questions.jsonl").read_text().splitlines()
           if line.strip()]
    first = next(q for q in ds.queries if q.id == raw[0]["id"])
    assert first.relevant[0] == RelevantSpec(f"{raw[0]['evidence'][0]['doc_name']}.pdf",
                                             raw[0]["evidence"][0]["page"] + 1)
    assert first.reference_answer == raw[0]["answer"]
    assert all(d.path is not None and d.path.is_file() for d in ds.documents)
    assert detect_format(DATA / "financebench-dev" / "questions.jsonl") == "financebench"
    with pytest.raises(PrismError, match="Cannot tell the dataset format"):
        detect_format(DATA / "financebench-dev" / "pdfs")


@needs_data
def test_financebench_rename_documents_maps_evidence_to_the_renamed_file():
    real = load_dataset(DATA / "financebench-dev")
    renamed = load_dataset(DATA / "financebench-dev", rename_documents=True)
    names = sorted(d.source for d in real.documents)
    assert [d.source for d in renamed.documents] == [f"doc{i:02d}.pdf" for i in range(1, 17)]
    mapping = renamed.summary()["renamed_documents"]
    assert mapping == {f"doc{i:02d}.pdf": n for i, n in enumerate(names, start=1)}
    assert renamed.name == "financebench-dev-renamed" and "renamed_documents" not in real.summary()
    for q_real, q_new in zip(real.queries, renamed.queries, strict=True):
        assert [(mapping[s.source], s.page) for s in q_new.relevant] == [(s.source, s.page) for s in q_real.relevant]
    by_name = {d.source: d.path for d in renamed.documents}
    assert all(by_name[new].name == old for new, old in mapping.items())
    with pytest.raises(PrismError, match="FinanceBench datasets only"):
        load_dataset(REPO / "data" / "ground_truth" / "eval_pairs.json", rename_documents=True)


# --- answer measures --------------------------------------------------------------------------------------------
def test_token_f1_numeric_match_and_declines():
    # tokens: answer {the P2P limit is 100000 1} → without article: p2p limit is 100000 (marker [1] dropped)
    assert token_f1("The P2P limit is ₹1,00,000 [1].", "₹1,00,000 per transaction") == pytest.approx(
        2 * (1 / 4) * (1 / 3) / (1 / 4 + 1 / 3))
    assert token_f1("", "") == 1.0 and token_f1("x", "") == 0.0
    assert numeric_match("It was ₹2,52,000 crore.", "₹2.52 lakh crore") == 1.0  # 2.52e12 either way
    assert numeric_match("It was ₹25,200 crore.", "₹2.52 lakh crore") == 0.0  # a tenth of it
    assert numeric_match("NIM was 3.6%.", "3.62%") == 0.0  # outside the reference's rounding and 0.5 %
    assert numeric_match("NIM was 3.62% and GNPA 1.9%.", "NIM 3.62%, GNPA 1.74%") == 0.5
    assert numeric_match("anything", "Mr. Rajesh Subramanian") is None


def test_numeric_match_reads_the_reference_in_the_scale_the_question_asks():
    q = "What is Amazon's FY2019 net income? Answer in USD millions."
    assert asked_scale(q) == 1e6 and asked_scale("What is the limit?") == 1.0
    assert asked_scale("the amount in USD thousands") == 1e3 and asked_scale("in billions") == 1e9
    assert numeric_match("Net income, 2019: $11,588 million [1]", "$11588.00", question=q) == 1.0
    assert numeric_match("Net income, 2019: $11,588 [1]", "$11588.00", question=q) == 0.0  # a millionth of it
    assert numeric_match("Net income, 2019: $11.6 billion [1]", "$11588.00", question=q) == 1.0  # within 0.5 %
    assert numeric_match("Net income, 2019: $11,588 thousand [1]", "$11588.00", question=q) == 0.0
    assert numeric_match("Net income, 2019: $11,588 million [1]", "$11588.00") == 0.0  # no scale asked: bare dollars
    assert numeric_match("The margin was 4.5%.", "4.5%", question=q) == 1.0  # percentages keep their scale
    assert numeric_match("$3,655 million", "₹3,655 million") == 0.0  # currencies conflict
    from prism.answering.engine import NOT_RELEVANT

    assert is_declined(NOT_RELEVANT)
    assert is_declined("The documents do not say what the dividend payout was.")
    assert is_declined("I cannot find this in the provided documents.")
    assert not is_declined("The cooling-period cap is ₹5,000 [1].")


def test_llm_judge_and_answer_relevancy_with_scripted_llm(embedder):
    llm = ScriptedLLM(respond=route(
        grading_an_answer="Score: 4\nThe limit is right but the daily cap is missing.",
        questions_that_the_answer_below_answers="What is the P2P limit per transaction?\nHow much can one send "
                                                "by UPI P2P in one transaction?\nWhat is the UPI P2P cap?",
    ))
    llms = wrap_llms(llm, settings=Settings(), wait=tenacity.wait_none())
    verdict = judge_correctness("What is the P2P limit?", "₹1,00,000 per transaction and per day.",
                                "₹1,00,000 per transaction [1].", llms.main)
    assert verdict is not None and verdict.score == 4 and verdict.normalized == pytest.approx(0.75)
    assert "daily cap" in verdict.reason
    assert "<reference>" in llm.calls[0]["text"] and "₹1,00,000 per transaction and per day." in llm.calls[0]["text"]
    close = answer_relevancy("What is the per-transaction limit for P2P UPI transfers?",
                             "₹1,00,000 per transaction [1].", llms.main, embedder)
    assert 0.6 < close <= 1.0
    n_calls = len(llm.calls)
    assert answer_relevancy("What is the P2P limit?", "The documents do not say.", llms.main, embedder) == 0.0
    assert len(llm.calls) == n_calls  # a declined answer needs no LLM call
    off = ScriptedLLM(respond=lambda _t: "What is the capital of France?\nWho wrote Hamlet?")
    far = answer_relevancy("What is the per-transaction limit for P2P UPI transfers?", "₹1,00,000 [1].",
                           wrap_llms(off, settings=Settings(), wait=tenacity.wait_none()).main, embedder)
    assert far < close - 0.3
    assert parse_score("**Score:** 2 — wrong figure") == 2 and parse_score("no verdict") is None


# --- runs -------------------------------------------------------------------------------------------------------
@pytest.fixture
def tiny_ground_truth(tmp_path) -> Path:
    """Four questions over the UPI circular (copied next to the JSON), one of them negative."""
    folder = tmp_path / "gt"
    folder.mkdir()
    shutil.copy(UPI, folder / UPI.name)
    pairs = [
        {"id": "t1", "query": "What is the maximum amount of a P2P collect request?", "type": "numeric",
         "reference_answer": "₹2,000 per collect request.",
         "relevant": [{"source": UPI.name, "page": 2,
                       "evidence": "may not exceed ₹2,000, in line with paragraph 9.5"}]},
        {"id": "t2", "query": "What is the toll-free number of the UPI contact centre?", "type": "factoid",
         "reference_answer": "1800-210-4455.",
         "relevant": [{"source": UPI.name, "page": 3, "evidence": "toll-free contact centre 1800-210-4455"}]},
        {"id": "t3", "query": "What UPI volume did Meridian process in FY2024?", "type": "numeric",
         "reference_answer": "612 crore transactions worth ₹8.4 lakh crore.",
         "relevant": [{"source": UPI.name, "page": 5, "evidence": "612 crore transactions worth ₹8.4 lakh crore"}]},
        {"id": "t4", "query": "Which firm is Meridian Bank's statutory auditor?", "type": "negative",
         "reference_answer": "The documents do not say.", "relevant": []},
    ]
    path = folder / "tiny.json"
    path.write_text(json.dumps(pairs, ensure_ascii=False), encoding="utf-8")
    return path


def test_ablation_run_files_schema_and_index(service, tiny_ground_truth, tmp_path):
    store = RunStore(tmp_path / "eval")
    ds = load_dataset(tiny_ground_truth)
    steps: list[tuple[float, str]] = []
    written = run_evaluation(service, ds, ablation=True, tag="test", store=store,
                             progress=lambda f, m: steps.append((f, m)))
    variants, skipped = ablation_variants(service)
    assert [r["variant"] for r, _ in written] == [v.name for v in variants]
    assert [v.name for v in variants][:3] == ["dense", "bm25", "hybrid"]
    if not service.reranker.enabled:
        assert {"variant": "hybrid+rerank", "reason": service.reranker.state.reason} in written[0][0]["skipped"]
    assert {s["variant"] for s in skipped} >= {"hybrid+hyde", "hybrid+multi_query"}  # no LLM here
    assert steps[-1][0] == pytest.approx(1.0)
    group = written[0][0]["group"]
    for run, path in written:
        assert set(RUN_KEYS) <= set(run)
        assert re.fullmatch(rf"{re.escape(prism.__version__)}_\d{{8}}T\d{{6}}Z_{re.escape(run['variant'])}", run["id"])
        assert path == store.runs_dir / f"{run['id']}.json" and json.loads(path.read_text()) == run
        assert run["group"] == group and run["tag"] == "test" and run["version"] == prism.__version__
        assert run["dataset"]["name"] == "tiny" and run["dataset"]["content_hash"] == ds.content_hash
        assert run["dataset"]["size"] == {"documents": 1, "queries": 4, "judged_queries": 3, "negative_queries": 1}
        assert run["workspace"]["name"] == "eval-tiny" and run["workspace"]["extra_documents"] == 0
        assert run["counts"] == {"queries": 4, "judged": 3, "negatives": 1, "unjudgeable": 0, "answered": 4}
        assert run["config"]["settings"]["chunk_size"] == service.settings.chunk_size
        assert run["environment"]["packages"]["ranx"] and run["git_commit"]
        for m in ("ndcg@10", "mrr@10", "hit@5", "recall@20", "p@5", "lenient_p@5", "answer_f1", "numeric_match"):
            assert 0.0 <= run["metrics"][m] <= 1.0, m
        assert "declined_negatives" in run["metrics"]
        assert run["latency_ms"]["retrieval"]["total"]["n"] == 4 and "p99" in run["latency_ms"]["answer"]["total"]
        by_id = {q["id"]: q for q in run["queries"]}
        assert by_id["t4"]["relevant"] == [] and by_id["t4"]["metrics"] == {}
        assert isinstance(by_id["t4"]["answer"]["declined"], bool) and "f1" not in by_id["t4"]["answer"]
        for q in run["queries"]:
            for r in q["retrieved"]:
                assert r["relevant"] == (r["chunk_id"] in q["relevant"])
                assert r["chunk_id"] in run["chunk_texts"]
                assert set(r["scores"]) >= {"dense", "bm25", "rrf", "rerank"}
            if q["relevant"]:
                # the per-query hit@10 agrees with the relevant flags of the recorded top 10
                assert q["metrics"]["hit@10"] == float(any(r["relevant"] for r in q["retrieved"][:10]))
        mode_side = {"dense": "dense", "bm25": "bm25"}.get(run["variant"])
        if mode_side:
            other = "bm25" if mode_side == "dense" else "dense"
            assert all(r["scores"][other] is None for q in run["queries"] for r in q["retrieved"])
    index = json.loads(store.index_path.read_text())
    assert [e["id"] for e in index["runs"]] == [r["id"] for r, _ in written]
    assert index["runs"][0]["metrics"]["ndcg@10"] == written[0][0]["metrics"]["ndcg@10"]
    # the same documents are reused, not ingested again
    again = run_evaluation(service, ds, mode="bm25", limit=1, answers=False, store=store)
    assert again[0][0]["workspace"]["ingested"] == 0 and again[0][0]["counts"]["queries"] == 1
    assert again[0][0]["id"].count("_") == 1 and len(store.list()) == 4


def test_run_with_llm_judges_and_never_writes_the_key(embedder, prism_home, tiny_ground_truth, tmp_path):
    from prism.service import PrismService

    secret = "gsk-test-secret-never-written-0123456789"
    settings = Settings(groq_api_key=secret, tavily_api_key="tvly-also-secret-42")
    llm = ScriptedLLM(respond=route(
        grading_an_answer="Score: 5\nMatches the reference.",
        questions_that_the_answer_below_answers="What is the maximum P2P collect request?",
        rephrasings="P2P collect request cap\nlargest collect request amount\nUPI collect limit",
        short_passage="A P2P collect request may not exceed ₹2,000 under the circular.",
        default="A P2P collect request may not exceed ₹2,000 [1].",
    ))
    svc = PrismService(settings, embedder=embedder, llms=wrap_llms(llm, settings=settings,
                                                                   wait=tenacity.wait_none()))
    assert "groq_api_key" not in settings_snapshot(settings) and "tavily_api_key" not in settings_snapshot(settings)
    store = RunStore(tmp_path / "eval")
    (run, path), = run_evaluation(svc, load_dataset(tiny_ground_truth), limit=2, store=store)
    assert run["variant"].startswith("hybrid") and run["variant"].endswith("+hyde+multi_query")
    assert run["options"]["judge"] is True and run["metrics"]["judge_correctness"] == 1.0
    assert 0.0 < run["metrics"]["answer_relevancy"] <= 1.0
    assert run["latency_ms"]["retrieval"]["expand"]["n"] == 2
    text = path.read_text(encoding="utf-8") + store.index_path.read_text(encoding="utf-8")
    assert secret not in text and "tvly-also-secret" not in text
    assert any("short passage" in c["text"].lower() for c in llm.calls)  # HyDE ran on the dense side


def _minimal_run(run_id: str, created: str) -> dict:
    run = {k: {} for k in RUN_KEYS}
    run.update({"schema": 1, "id": run_id, "group": run_id, "variant": "hybrid", "version": "0.0.1", "tag": None,
                "created_at": created, "git_commit": "unknown", "skipped": [], "queries": [],
                "dataset": {"name": "d", "format": "prism", "content_hash": "h"},
                "metrics": {"ndcg@10": 0.5}, "counts": {"queries": 0}})
    return run


def test_index_updates_are_atomic_and_serialised(tmp_path, monkeypatch):
    root = tmp_path / "eval"

    def writer(n: int) -> None:
        store = RunStore(root)
        for i in range(5):
            store.write(_minimal_run(f"w{n}-{i}", f"2026-01-0{n + 1}T00:00:0{i}+00:00"))

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    store = RunStore(root)
    assert sorted(e["id"] for e in store.list()) == sorted(f"w{n}-{i}" for n in range(3) for i in range(5))
    # a crash while replacing the index leaves the previous index whole and no temp file behind
    import prism.fsutil as ws

    real_replace = ws.os.replace

    def failing_replace(src, dst):
        if str(dst).endswith("index.json"):
            raise OSError("disk full")
        return real_replace(src, dst)

    monkeypatch.setattr(ws.os, "replace", failing_replace)
    with pytest.raises(OSError, match="disk full"):
        store.write(_minimal_run("crash", "2026-02-01T00:00:00+00:00"))
    monkeypatch.setattr(ws.os, "replace", real_replace)
    assert len(json.loads(store.index_path.read_text())["runs"]) == 15
    assert not list(root.glob(".index.json.*.tmp"))
    assert "crash" in {e["id"] for e in store.rebuild_index()}  # its run file was written first
    with pytest.raises(PrismError, match="lacks"):
        store.write({"id": "incomplete"})
    with pytest.raises(PrismError, match="no evaluation run"):
        store.load("../index")
    from datetime import UTC, datetime

    moment = datetime(2026, 3, 1, 12, 0, 0, tzinfo=UTC)
    first = store.new_id("1.2.3", moment)
    assert first == "1.2.3_20260301T120000Z"
    (store.runs_dir / f"{first}.json").write_text("{}", encoding="utf-8")
    assert store.new_id("1.2.3", moment) == f"{first}-2"


# --- CLI --------------------------------------------------------------------------------------------------------
def test_cli_eval_run_and_beir_alias(embedder, prism_home, tmp_path, monkeypatch, capsys):
    import prism.service as service_module
    from prism.cli.main import main

    service = service_module.PrismService(Settings(eval_dir=tmp_path / "default_eval"), embedder=embedder)
    monkeypatch.setattr(service_module, "PrismService", lambda *a, **k: service)
    beir = tmp_path / "minibeir"
    (beir / "qrels").mkdir(parents=True)
    corpus = [{"_id": "d1", "title": "UPI Lite", "text": "A UPI Lite payment may not exceed five hundred rupees."},
              {"_id": "d2", "title": "Cooling period", "text": "New devices have a cooling period of one day."},
              {"_id": "d3", "title": "Soundbox", "text": "The soundbox rental is waived for busy merchants."}]
    (beir / "corpus.jsonl").write_text("\n".join(json.dumps(c) for c in corpus), encoding="utf-8")
    queries = [{"_id": "1", "text": "UPI Lite payment limit"}, {"_id": "2", "text": "soundbox rental waiver"},
               {"_id": "3", "text": "unjudged"}]
    (beir / "queries.jsonl").write_text("\n".join(json.dumps(q) for q in queries), encoding="utf-8")
    (beir / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n1\td1\t1\n2\td3\t1\n", encoding="utf-8")
    eval_dir = tmp_path / "eval"
    code = main(["eval", "run", str(beir), "--mode", "bm25", "--json", "--eval-dir", str(eval_dir), "--tag", "cli"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["dataset"]["format"] == "beir" and out["dataset"]["split"] == "test"
    run = out["runs"][0]
    assert run["variant"] == "bm25" and run["counts"]["queries"] == 2
    assert run["metrics"]["hit@1"] == 1.0 and run["metrics"]["ndcg@10"] == 1.0  # both found first by BM25
    assert Path(run["file"]).is_file() and out["workspace"]["name"] == "beir-minibeir"
    # the alias: same run machinery, the old JSON keys, the corpus reused through its marker
    code = main(["eval", "beir", str(beir), "--mode", "bm25", "--json"])
    alias = json.loads(capsys.readouterr().out)
    assert code == 0 and set(alias) >= {"dataset", "mode", "queries", "metrics", "latency_ms", "config", "run_file"}
    assert alias["metrics"]["ndcg@10"] == 1.0 and set(alias["latency_ms"]) == {"p50", "p95", "p99"}
    assert Path(alias["run_file"]).parent == Path(service.settings.eval_dir) / "runs"
    code = main(["eval", "run", str(tmp_path / "nope.json"), "--json"])
    assert code == 1 and "not found" in json.loads(capsys.readouterr().out)["error"]
    code = main(["eval", "run", str(beir), "--limit", "0", "--json", "--eval-dir", str(eval_dir)])
    assert code == 1 and "--limit must be at least 1" in json.loads(capsys.readouterr().out)["error"]


def test_a_workspace_read_by_other_ingestion_code_is_reindexed_before_it_is_scored(service, tiny_ground_truth,
                                                                                    tmp_path):
    from prism.evaluation.prepare import PIPELINE_MARKER, pipeline_fingerprint, pipeline_modules, prepare_workspace

    ds = load_dataset(tiny_ground_truth)
    first = prepare_workspace(service, ds)
    assert (first["ingested"], first["reindexed"]) == (1, 0)
    marker = service.workspace_dir(first["name"]) / PIPELINE_MARKER
    assert json.loads(marker.read_text())["fingerprint"] == pipeline_fingerprint()
    assert prepare_workspace(service, ds)["reindexed"] == 0  # same code: reused as it is
    chunks = sum(len(rows) for _, rows in service.chunk_rows(first["name"]))
    marker.write_text(json.dumps({"fingerprint": "an older parser"}))
    again = prepare_workspace(service, ds)
    assert (again["name"], again["ingested"], again["reindexed"]) == (first["name"], 0, 1)
    assert sum(len(rows) for _, rows in service.chunk_rows(first["name"])) == chunks
    assert json.loads(marker.read_text())["fingerprint"] == pipeline_fingerprint()
    # two processes preparing it at once take turns: one re-indexes, the other finds it up to date
    marker.write_text(json.dumps({"fingerprint": "an older parser"}))
    start = threading.Barrier(2)

    def prepare() -> int:
        start.wait()
        return prepare_workspace(service, ds)["reindexed"]

    with ThreadPoolExecutor(2) as pool:
        assert sorted(pool.map(lambda _: prepare(), range(2))) == [0, 1]
    assert sum(len(rows) for _, rows in service.chunk_rows(first["name"])) == chunks
    # the fingerprint follows the code that reads documents, and only that code: the pipeline's packages and what
    # they import (a vocabulary module ingestion reads), not what only the question reader imports
    root = tmp_path / "prism"
    for package in ("ingestion", "index", "vocabulary", "types", "answering"):
        (root / package).mkdir(parents=True)
        (root / package / "a.py").write_text("x = 1\n")
    (root / "ingestion" / "b.py").write_text("def f():\n    from prism.vocabulary import a\n    return a\n")
    (root / "answering" / "b.py").write_text("import prism.types.a\n")
    before = pipeline_fingerprint(root)
    assert [p.relative_to(root).as_posix() for p in pipeline_modules(root)] == [
        "index/a.py", "ingestion/a.py", "ingestion/b.py", "vocabulary/a.py"]
    for untouched in ("answering/a.py", "answering/b.py", "types/a.py"):
        (root / untouched).write_text("x = 2\n")
        assert pipeline_fingerprint(root) == before, untouched
    for changed in ("ingestion/a.py", "index/a.py", "vocabulary/a.py"):
        (root / changed).write_text("x = 3\n")
        assert pipeline_fingerprint(root) != before, changed
        before = pipeline_fingerprint(root)
