"""Contextual retrieval: contexts are embedded and BM25-indexed while the analyst still sees the original chunk;
per-chunk fallback; bounded concurrency; counts reported."""

from __future__ import annotations

import numpy as np
import tenacity

from prism.answering.contextual import Contextualizer, clean_context, document_window
from prism.answering.llm import LLMClient, wrap_llms
from prism.index.tokenizer import tokenize
from prism.service import PrismService
from prism.types import Chunk, IngestItem
from tests.conftest import CASES
from tests.fakes_llm import ScriptedLLM, auth_error, server_error

DOC = CASES / "19_fact_after_256_wordpieces.txt"
CONTEXT = "This chunk is from the zephyrcontext operations note. It covers the annual access codes."


def _chunk(i: int, text: str, start: int = 0) -> Chunk:
    return Chunk(f"c{i}", "d", "doc.txt", i, text, start, start + len(text))


def test_contextualizer_prepends_context_and_falls_back_per_chunk():
    def respond(prompt: str) -> str:
        if "FAILME" in prompt.split("<chunk>")[1]:
            raise server_error()
        return f"Context: {CONTEXT}"

    llm = LLMClient(ScriptedLLM(respond=respond), "small", max_attempts=1, wait=tenacity.wait_none())
    ctx = Contextualizer(llm, max_workers=3, max_context_chars=320)
    chunks = [_chunk(0, "Alpha text."), _chunk(1, "FAILME beta."), _chunk(2, "Gamma text.")]
    texts = ctx(chunks, "Alpha text. FAILME beta. Gamma text.")
    assert texts == [f"{CONTEXT}\n\nAlpha text.", "FAILME beta.", f"{CONTEXT}\n\nGamma text."]
    report = ctx.last_report
    assert (report.chunks, report.contextualized, report.failed) == (3, 2, 1)


def test_rejected_key_stops_the_remaining_calls():
    fake = ScriptedLLM(script=[auth_error()], respond=lambda p: "never")
    ctx = Contextualizer(LLMClient(fake, "small", wait=tenacity.wait_none()), max_workers=1)
    chunks = [_chunk(i, f"text {i}") for i in range(4)]
    assert ctx(chunks, "doc") == [c.text for c in chunks]
    assert len(fake.calls) == 1 and ctx.last_report.failed == 4


def test_context_cleaning_and_document_window():
    long = "First sentence here. " * 30
    cut = clean_context(long, 100)
    assert len(cut) <= 100 and cut.endswith(".")
    assert clean_context("Context:  two   words", 50) == "two words"
    doc = "HEAD" + "x" * 10_000 + "TARGET" + "y" * 10_000
    chunk = _chunk(0, "TARGET", doc.index("TARGET"))
    window = document_window(doc, chunk, 2000)
    assert window.startswith("HEAD") and "TARGET" in window and len(window) <= 2000 + 3
    assert document_window("short doc", chunk, 2000) == "short doc"


def test_ingest_indexes_context_but_shows_the_original_chunk(service, embedder):
    def respond(prompt: str) -> str:
        chunk_text = prompt.split("<chunk>")[1]
        if "7734-ALPHA" in chunk_text:
            raise server_error()
        return CONTEXT

    fake = ScriptedLLM(respond=respond)
    # title headers off: the failed chunk's fallback is then its bare text (with them on, it is title + text)
    settings = service.settings.model_copy(update={"llm_max_attempts": 1, "title_headers": False})
    svc = PrismService(settings, embedder=embedder, llms=wrap_llms(fake, wait=tenacity.wait_none(), settings=settings))
    [result] = svc.ingest([IngestItem(DOC)], "ctx", contextual=True, briefing=False)
    assert result.status == "ingested" and result.chunks >= 3
    handle = svc.open("ctx")
    rows = handle.workspace.read_chunks(result.doc_id)
    with_ctx = [r for r in rows if "index_text" in r]
    plain = [r for r in rows if "index_text" not in r]
    assert len(plain) == 1 and "7734-ALPHA" in plain[0]["text"]  # its call failed: plain text kept
    assert len(with_ctx) == result.chunks - 1
    assert f"{len(with_ctx)} of {result.chunks} chunks got a situating context" in result.warnings[0]
    for r in rows:
        assert "zephyrcontext" not in r["text"]
        assert r["tokens"] == tokenize(r.get("index_text", r["text"]))
    for r in with_ctx:
        assert r["index_text"] == f"{CONTEXT}\n\n{r['text']}"

    got = handle.store._col.get(ids=[r["chunk_id"] for r in rows], include=["documents", "embeddings"])
    stored = dict(zip(got["ids"], zip(got["documents"], got["embeddings"], strict=True), strict=True))
    for r in with_ctx:
        document, vector = stored[r["chunk_id"]]
        assert document == r["text"]  # the analyst sees the original chunk
        v_ctx, v_plain = embedder.embed([r["index_text"], r["text"]])
        assert float(np.dot(vector, v_ctx)) > 0.999 > float(np.dot(vector, v_plain))

    hits = handle.retriever.search("zephyrcontext", mode="bm25", top_k=50).results
    assert {h.chunk_id for h in hits} == {r["chunk_id"] for r in with_ctx}
    assert all("zephyrcontext" not in h.text for h in hits)


def test_contextual_without_llm_is_off_with_a_warning(service):
    [result] = service.ingest([IngestItem(DOC)], "plain", contextual=True, briefing=False)
    assert result.status == "ingested" and "no LLM is configured" in result.warnings[-1]
    rows = service.open("plain").workspace.read_chunks(result.doc_id)
    title = "19 fact after 256 wordpieces"  # the title header (from the file name) is all that is added
    assert rows and all(r["index_text"] == f"{title}\n\n{r['text']}" for r in rows)
    assert service.llm_status()["contextual"] == "off: no LLM configured"
