"""The packaged MiniLM embedder: shapes, normalisation, and per-call thread counts."""

from __future__ import annotations

import numpy as np
import torch


def test_embeddings_are_unit_vectors_and_thread_count_does_not_change_them(embedder):
    texts = ["Customer liability for unauthorised UPI transactions", "NPA after 90 days overdue", "₹2,000 limit"]
    default = torch.get_num_threads()
    base = embedder.embed(texts)
    one = embedder.embed(texts, threads=1)
    assert base.shape == (3, 384) and base.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(base, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(one, base, atol=1e-5)
    assert torch.get_num_threads() == default  # a per-call thread count is restored afterwards
    assert float(base[0] @ base[1]) < 0.9  # different texts, different vectors


def test_retriever_embeds_queries_with_the_configured_threads(service, monkeypatch, embedder):
    from prism.types import IngestItem

    service.ingest([IngestItem(b"Escrow accounts are reconciled monthly.", filename="escrow.txt")], "q",
                   briefing=False)
    service.reader.model.phrasing_vectors(embedder)  # the operations' phrasings, embedded once per embedder
    seen: list[int | None] = []
    real = type(embedder).embed

    def spy(self, texts, threads=None):
        seen.append(threads)
        return real(self, texts, threads)

    monkeypatch.setattr(type(embedder), "embed", spy)
    found = service.search("escrow reconciliation", "q", mode="dense")
    assert found.results[0].source == "escrow.txt"
    # the query (read once: its vector serves the dense side) on one thread, whatever the backend
    assert service.settings.query_threads == 1 and seen == [1]


def test_a_per_call_torch_thread_count_is_restored():
    from prism.config import Settings
    from prism.index.embedder import PrismEmbedding

    torch_embedder = PrismEmbedding(Settings().resolved_embed_model_path(), "m", backend="torch")
    default = torch.get_num_threads()
    real = torch.set_num_threads
    real(2)
    try:
        one = torch_embedder.embed(["NPA after 90 days overdue"], threads=1)
        assert torch.get_num_threads() == 2
    finally:
        real(default)
    np.testing.assert_allclose(one, torch_embedder.embed(["NPA after 90 days overdue"]), atol=1e-5)
