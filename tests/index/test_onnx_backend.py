"""The ONNX Runtime backends of the embedder, on the real packaged all-MiniLM-L6-v2 exported into a temp folder.

The models are exported once per session (fp32 ~3 s, int8 ~5 s on a quiet machine) into ``onnx_models_dir``, shared
with the session's default ``embedder`` when that runs on ONNX.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest

from prism.config import Settings
from prism.errors import EmbedderBackendError, EmbeddingModelMismatchError
from prism.index import onnx_backend
from prism.index.embedder import PrismEmbedding
from prism.index.vector_store import VectorStore, make_client

NAME = "sentence-transformers/all-MiniLM-L6-v2"
SENTENCES = [
    "Customer liability for unauthorised UPI transactions is zero when reported within three days.",
    "A loan is classified as a non-performing asset when interest is overdue for more than 90 days.",
    "Net revenue rose 12% year over year on higher card volumes.",
    "The board approved a final dividend of ₹4 per share.",
]


@pytest.fixture(scope="session")
def model_path() -> Path:
    return Settings().resolved_embed_model_path()


@pytest.fixture(scope="session")
def onnx_models_dir(embedder, tmp_path_factory) -> Path:
    """The session embedder's model cache when it runs on ONNX (its export is reused), else a new folder."""
    onnx = embedder._onnx
    return onnx.folder.parent if onnx is not None else tmp_path_factory.mktemp("onnx-models")


@pytest.fixture(scope="session")
def torch_embedder(model_path):
    return PrismEmbedding(model_path, NAME, batch_size=8, backend="torch")


@pytest.fixture(scope="session")
def fp32_embedder(model_path, onnx_models_dir):
    return PrismEmbedding(model_path, NAME, batch_size=8, backend="onnx-fp32", models_dir=onnx_models_dir)


@pytest.fixture(scope="session")
def int8_embedder(model_path, onnx_models_dir):
    return PrismEmbedding(model_path, NAME, batch_size=8, backend="onnx-int8", models_dir=onnx_models_dir)


def test_onnx_vectors_have_the_torch_shape_norm_and_direction(torch_embedder, fp32_embedder, int8_embedder):
    reference = torch_embedder.embed(SENTENCES)
    for embedder in (fp32_embedder, int8_embedder):
        vectors = embedder.embed(SENTENCES)
        assert embedder.backend_reason == ""
        assert vectors.shape == (4, 384) and vectors.dtype == np.float32 and embedder.dimension == 384
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
        np.testing.assert_allclose(embedder.embed(SENTENCES, threads=1), vectors, atol=1e-5)
        assert embedder.embed([]).shape == (0, 384)
    assert (fp32_embedder.backend, int8_embedder.backend) == ("onnx-fp32", "onnx-int8")
    np.testing.assert_allclose(fp32_embedder.embed(SENTENCES), reference, atol=1e-4)
    cosines = (int8_embedder.embed(SENTENCES) * reference).sum(axis=1)
    assert cosines.min() >= 0.99
    assert not np.allclose(int8_embedder.embed(SENTENCES), reference, atol=1e-3)  # int8 really is another model


def test_an_int8_vector_does_not_depend_on_the_texts_embedded_with_it(int8_embedder):
    # dynamic quantization scales activations over a whole ONNX Runtime call: one text per call keeps them its own
    together = int8_embedder.embed(SENTENCES)
    alone = np.stack([int8_embedder.embed([s])[0] for s in reversed(SENTENCES)])[::-1]
    np.testing.assert_allclose(alone, together, atol=1e-6)


@pytest.mark.parametrize("batch_size", [1, 3])
def test_texts_split_across_cores_come_back_in_order_with_the_same_vectors(fp32_embedder, batch_size):
    onnx = fp32_embedder._onnx
    texts = [f"{s} Note {i}: " + "amounts in millions. " * (i % 7) for i, s in enumerate(SENTENCES * 9)]  # 36
    one_core = onnx.encode(texts, batch_size, threads=1)
    for threads in (2, 3, 50):
        np.testing.assert_array_equal(onnx.encode(texts, batch_size, threads=threads), one_core)
    alone = np.stack([onnx.encode([t], 1, threads=1)[0] for t in texts[:5]])
    np.testing.assert_allclose(one_core[:5], alone, atol=1e-6)  # row i is text i's vector
    assert len({id(onnx.tokenizer), *map(id, onnx._worker_tokenizers)}) == 1 + len(onnx._worker_tokenizers) >= 3


@pytest.mark.parametrize("longer", [0, 1])  # texts go out longest first: batch 0 to the caller, batch 1 to a worker
def test_a_failing_text_raises_from_encode_and_the_next_call_still_works(fp32_embedder, monkeypatch, longer):
    from prism.index import onnx_encoder

    onnx, real = fp32_embedder._onnx, onnx_encoder.run_batch

    def failing(session, tokenizer, texts, max_length):
        if any("BOOM" in t for t in texts):
            raise RuntimeError("ONNX Runtime failed on this text")
        return real(session, tokenizer, texts, max_length)

    monkeypatch.setattr(onnx_encoder, "run_batch", failing)
    texts = [*SENTENCES, "BOOM " * 40, *(["statement " * 60] * longer)]
    with pytest.raises(RuntimeError, match="failed on this text"):
        onnx.encode(texts, 1, threads=2)
    monkeypatch.undo()
    np.testing.assert_array_equal(onnx.encode(SENTENCES, 1, threads=2), onnx.encode(SENTENCES, 1, threads=1))


def test_sessions_embedding_at_once_each_get_their_own_vectors(fp32_embedder):
    # Streamlit sessions share one embedder; a fast tokenizer used by two threads at once raises "Already borrowed"
    expected = fp32_embedder.embed(SENTENCES, threads=1)
    results: dict[int, np.ndarray] = {}
    errors: list[BaseException] = []

    def embed(k: int) -> None:
        try:
            for _ in range(5):
                results[k] = fp32_embedder.embed(SENTENCES[k % 4 :] + SENTENCES[: k % 4], threads=2)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    workers = [threading.Thread(target=embed, args=(k,)) for k in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors
    for k, vectors in results.items():
        np.testing.assert_allclose(vectors, np.roll(expected, -(k % 4), axis=0), atol=1e-6)


def test_tokens_and_the_256_piece_window_match_torch(torch_embedder, fp32_embedder):
    long_text = "Operating lease liabilities increased. " * 60  # ~300 word pieces: truncated to 256
    assert fp32_embedder.count_tokens(long_text) == torch_embedder.count_tokens(long_text) > 256
    short = "NPA after 90 days"  # [CLS] np ##a after 90 days [SEP]
    assert fp32_embedder.count_tokens(short) == torch_embedder.count_tokens(short) == 7
    texts = [long_text, "  padded with spaces  ", ""]
    np.testing.assert_allclose(fp32_embedder.embed(texts), torch_embedder.embed(texts), atol=1e-4)


def test_every_backend_ranks_a_tiny_corpus_in_the_same_exact_order(torch_embedder, fp32_embedder, int8_embedder):
    # torch cosines to the query: 0 -0.06, 1 0.14, 2 0.24, 3 0.51 (gaps of 0.1+, beyond int8's ~0.02 noise)
    corpus = [
        "Bake the bread at 200 degrees for forty minutes.",  # 0: unrelated
        "UPI payments settle between banks several times a day through NPCI.",  # 1: banking, not loans
        "The interest rate on home loans was raised by 25 basis points.",  # 2: loans, not NPA
        "An account becomes a non-performing asset when its interest remains overdue for over 90 days.",  # 3
    ]
    query = "When is a loan classified as a non-performing asset?"
    for embedder in (torch_embedder, fp32_embedder, int8_embedder):
        scores = embedder.embed(corpus) @ embedder.embed([query])[0]
        assert list(np.argsort(-scores)) == [3, 2, 1, 0], embedder.backend


def test_the_export_is_cached_by_the_weights_hash_and_reused(model_path, int8_embedder, onnx_models_dir, monkeypatch):
    folder = int8_embedder._onnx.folder
    source = onnx_backend.source_sha256(model_path)
    assert folder == onnx_models_dir / f"onnx-int8-r{onnx_backend.EXPORT_RECIPE}-{source[:16]}"
    assert sorted(p.name for p in folder.iterdir()) == ["export.json", "model.onnx"]
    before = (folder / "model.onnx").stat().st_mtime_ns

    def no_export(*_args, **_kwargs):
        raise AssertionError("the cached export must be reused")

    monkeypatch.setattr(onnx_backend, "export_model", no_export)
    again = PrismEmbedding(model_path, NAME, batch_size=8, backend="onnx-int8", models_dir=onnx_models_dir)
    assert again.backend == "onnx-int8" and again._onnx.folder == folder
    assert (folder / "model.onnx").stat().st_mtime_ns == before
    np.testing.assert_array_equal(again.embed(SENTENCES), int8_embedder.embed(SENTENCES))
    assert not [p for p in onnx_models_dir.iterdir() if p.name.startswith(".tmp-")]


def test_the_source_hash_covers_weights_and_configs_only(tmp_path):
    (tmp_path / "model.safetensors").write_bytes(b"\x00" * 64)
    (tmp_path / "config.json").write_text('{"hidden_size": 384}')
    first = onnx_backend.source_sha256(tmp_path)
    (tmp_path / "README.md").write_text("a model card")
    assert onnx_backend.source_sha256(tmp_path) == first
    (tmp_path / "model.safetensors").write_bytes(b"\x00" * 63 + b"\x01")
    assert onnx_backend.source_sha256(tmp_path) != first
    (tmp_path / "model.safetensors").unlink()
    with pytest.raises(EmbedderBackendError, match="no weight file"):
        onnx_backend.source_sha256(tmp_path)


def test_racing_exports_export_once_and_share_one_complete_folder(model_path, tmp_path, monkeypatch):
    calls: list[int] = []

    def slow_export(_model_path, backend, out_dir, max_tokens=256):
        calls.append(threading.get_ident())
        time.sleep(0.3)  # both threads are inside ensure_exported by now
        (out_dir / onnx_backend.MODEL_FILE).write_bytes(b"onnx bytes")
        return {"export_s": 0.3}

    monkeypatch.setattr(onnx_backend, "export_model", slow_export)
    results: list[tuple[Path, dict]] = []
    threads = [threading.Thread(target=lambda: results.append(
        onnx_backend.ensure_exported(model_path, "onnx-fp32", tmp_path))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and len(results) == 2
    assert results[0][0] == results[1][0] and results[0][1]["source_sha256"] == results[1][1]["source_sha256"]
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")) == [results[0][0].name]


def test_a_failed_export_falls_back_to_torch_and_says_why(model_path, tmp_path, torch_embedder, monkeypatch):
    import torch

    def broken_export(*_args, **_kwargs):
        raise torch.onnx.errors.OnnxExporterError("simulated exporter failure")

    monkeypatch.setattr(torch.onnx, "export", broken_export)
    embedder = PrismEmbedding(model_path, NAME, batch_size=8, backend="onnx-int8", models_dir=tmp_path)
    assert embedder.backend == "torch"
    assert embedder.backend_state() == {"backend": "torch", "configured": "onnx-int8",
                                        "reason": embedder.backend_reason}
    assert "onnx-int8 unavailable, running on torch" in embedder.backend_reason
    assert "simulated exporter failure" in embedder.backend_reason
    np.testing.assert_allclose(embedder.embed(SENTENCES), torch_embedder.embed(SENTENCES), atol=1e-6)
    assert [p.name for p in tmp_path.iterdir() if not p.name.endswith(".lock")] == []  # no half-made folder


def test_a_corrupt_cached_model_falls_back_to_torch(model_path, fp32_embedder, onnx_models_dir, tmp_path):
    import shutil

    src = fp32_embedder._onnx.folder
    shutil.copytree(src, tmp_path / src.name)
    (tmp_path / src.name / "model.onnx").write_bytes(b"not an onnx model")
    embedder = PrismEmbedding(model_path, NAME, backend="onnx-fp32", models_dir=tmp_path)
    assert embedder.backend == "torch" and "ONNX Runtime could not load" in embedder.backend_reason
    assert embedder.embed(SENTENCES[:1]).shape == (1, 384)


def test_int8_and_fp32_vectors_never_share_a_collection(prism_home):
    client = make_client(Settings(home=prism_home))
    VectorStore(client, "ws-test-00000003", NAME, 384, "Research", embed_backend="torch")
    VectorStore(client, "ws-test-00000003", NAME, 384, "Research", embed_backend="onnx-fp32")  # same vectors
    with pytest.raises(EmbeddingModelMismatchError,
                       match=r"indexed by the torch embedder backend but the embedder now runs on onnx-int8.*"
                             r"python -m prism reindex --workspace 'Research'"):
        VectorStore(client, "ws-test-00000003", NAME, 384, "Research", embed_backend="onnx-int8")
    VectorStore(client, "ws-test-00000004", NAME, 384, "Ledger", embed_backend="onnx-int8")
    with pytest.raises(EmbeddingModelMismatchError, match="PRISM_EMBED_BACKEND=onnx-int8"):
        VectorStore(client, "ws-test-00000004", NAME, 384, "Ledger", embed_backend="onnx-fp32")
    # a collection made before backends were recorded holds torch vectors
    client.get_or_create_collection("ws-test-00000005", metadata={"embed_model": NAME, "embed_dim": 384})
    VectorStore(client, "ws-test-00000005", NAME, 384, "Old", embed_backend="onnx-fp32")
    with pytest.raises(EmbeddingModelMismatchError, match="indexed by the torch embedder backend"):
        VectorStore(client, "ws-test-00000005", NAME, 384, "Old", embed_backend="onnx-int8")


def test_a_workspace_built_by_torch_is_reindexed_for_int8(prism_home, torch_embedder, int8_embedder, model_path,
                                                          monkeypatch):
    import torch

    from prism.service import PrismService
    from prism.types import IngestItem

    data = b"Escrow accounts are reconciled monthly. Card disputes are resolved within 30 days."
    PrismService(Settings(home=prism_home), embedder=torch_embedder).ingest(
        [IngestItem(data, "ops.txt")], "ops", briefing=False)
    service = PrismService(Settings(home=prism_home), embedder=int8_embedder)
    with pytest.raises(EmbeddingModelMismatchError, match="reindex --workspace 'ops'"):
        service.open("ops")
    [result] = service.reindex("ops")
    assert result.status == "ingested"
    handle = service.open("ops")
    assert handle.store._col.metadata["embed_backend"] == "onnx-int8"
    assert service.search("escrow reconciliation", "ops", mode="dense").results[0].source == "ops.txt"

    # an embedder that fell back to torch cannot open the int8 workspace, and the error says why it fell back
    monkeypatch.setattr(torch.onnx, "export", lambda *a, **k: (_ for _ in ()).throw(RuntimeError("no exporter")))
    fallback = PrismEmbedding(model_path, NAME, backend="onnx-int8", models_dir=prism_home / "elsewhere")
    with pytest.raises(EmbeddingModelMismatchError, match=r"now runs on torch.*Note: onnx-int8 unavailable.*no "
                                                          r"exporter"):
        PrismService(Settings(home=prism_home), embedder=fallback).open("ops")
