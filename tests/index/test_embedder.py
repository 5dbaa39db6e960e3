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
    seen: list[int] = []
    real = torch.set_num_threads

    def spy(n: int) -> None:
        seen.append(n)
        real(n)

    default = torch.get_num_threads()
    real(2)  # documents on two threads, as on the 2-core machines Prism runs on
    monkeypatch.setattr(torch, "set_num_threads", spy)
    try:
        found = service.search("escrow reconciliation", "q", mode="dense")
    finally:
        real(default)
    assert found.results[0].source == "escrow.txt"
    assert service.settings.query_threads == 1 and seen == [1, 2]  # one thread for the query, then restored
