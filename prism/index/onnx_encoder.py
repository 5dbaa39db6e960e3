"""Running an exported embedder on ONNX Runtime: one-thread sessions, several texts at once on several cores.

The export itself (tracing, quantizing, caching) is :mod:`prism.index.onnx_backend`.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

import numpy as np

from prism.errors import EmbedderBackendError

MODEL_FILE = "model.onnx"
INPUT_NAMES = ("input_ids", "attention_mask", "token_type_ids")


def open_session(path: Path) -> Any:
    """An ONNX Runtime CPU session on one thread (sequential graph, full graph optimisation)."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3  # errors only: no optimiser notes on stderr
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])


def run_batch(session: Any, tokenizer: Any, texts: list[str], max_length: int) -> np.ndarray:
    """One batch through ``session``: float32 ``(len(texts), dim)``."""
    encoded = tokenizer(texts, padding=True, truncation=True, max_length=max_length, return_tensors="np")
    feed = {name: np.asarray(encoded[name], dtype=np.int64) for name in INPUT_NAMES}
    return np.asarray(session.run(None, feed)[0], dtype=np.float32)


class OnnxEncoder:
    """An exported model run by ONNX Runtime on one-thread sessions, texts split across CPU cores.

    Several cores run several texts at once (each text on one core), not one text on several cores: ONNX Runtime's
    intra-op threads wait on each other at every operator (and spin while they wait), which on 2 cores and
    1,500 FinanceBench chunks gave 161 chunks/s at 81 chunks per CPU second, against 182 chunks/s at 94 per CPU
    second for two one-thread runs side by side (``bench/embedder.py`` prints the current rates).
    ``InferenceSession.run`` may be called from several threads at once and releases the GIL; a Hugging Face fast
    tokenizer may not be shared by threads (it reconfigures itself on every call: "Already borrowed",
    huggingface/tokenizers#537), so each worker has its own copy.

    Args:
        folder: a cache folder from :func:`prism.index.onnx_backend.ensure_exported`.
        tokenizer: the source model's Hugging Face tokenizer (used by the calling thread; workers get copies).
        max_tokens: the window in word pieces; longer texts are truncated.

    Not re-entrant: callers serialise :meth:`encode` (``PrismEmbedding`` holds a lock around it).

    Raises:
        EmbedderBackendError: ONNX Runtime cannot load or run the model.
    """

    def __init__(self, folder: Path, tokenizer: Any, max_tokens: int):
        self.folder = folder
        self.tokenizer = tokenizer
        self.max_tokens = max_tokens
        self._session: Any = None
        self._pool: ThreadPoolExecutor | None = None
        self._worker_tokenizers: list[Any] = []
        self.dimension = int(self.encode(["dimension probe"], batch_size=1, threads=1).shape[1])

    def _get_session(self) -> Any:
        if self._session is None:
            try:
                self._session = open_session(self.folder / MODEL_FILE)
            except Exception as exc:  # onnxruntime's Fail / InvalidGraph / NoSuchFile derive from Exception only
                raise EmbedderBackendError(f"ONNX Runtime could not load {self.folder / MODEL_FILE}: {exc}") from exc
        return self._session

    def _workers(self, count: int) -> tuple[ThreadPoolExecutor, list[Any]]:
        """A pool of ``count`` threads (beside the caller's) and a tokenizer copy for each."""
        if len(self._worker_tokenizers) < count:
            if self._pool is not None:
                self._pool.shutdown(wait=True)
            self._pool = ThreadPoolExecutor(max_workers=count, thread_name_prefix="prism-onnx")
            missing = count - len(self._worker_tokenizers)
            self._worker_tokenizers += [copy.deepcopy(self.tokenizer) for _ in range(missing)]
        assert self._pool is not None
        return self._pool, self._worker_tokenizers

    def _encode_share(self, tokenizer: Any, texts: Sequence[str], share: np.ndarray, batch_size: int) -> np.ndarray:
        """``texts[share]`` in batches of ``batch_size`` on one thread: float32 ``(len(share), dim)``."""
        session = self._get_session()
        return np.concatenate([run_batch(session, tokenizer, [texts[i] for i in share[start : start + batch_size]],
                                    self.max_tokens) for start in range(0, len(share), batch_size)])

    def encode(self, texts: Sequence[str], batch_size: int, threads: int) -> np.ndarray:
        """Embed ``texts`` on up to ``threads`` cores, longest first in batches of ``batch_size`` (texts of like
        length batched together: less padding), returned in input order. Each vector depends only on its batch,
        never on how texts are split across cores.

        Returns:
            float32 ``(len(texts), dim)``, rows L2-normalised (the graph normalises).
        """
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        self._get_session()
        order = np.argsort([-len(t) for t in texts], kind="stable")
        workers = max(1, min(threads, -(-len(texts) // batch_size)))
        step = workers * batch_size  # whole batches dealt in turn: worker i takes batches i, i + workers, ...
        shares = [np.concatenate([order[b : b + batch_size] for b in range(i * batch_size, len(order), step)])
                  for i in range(workers)]
        if workers == 1:
            results = [self._encode_share(self.tokenizer, texts, shares[0], batch_size)]
        else:
            pool, tokenizers = self._workers(workers - 1)
            futures = [pool.submit(self._encode_share, tokenizers[i], texts, share, batch_size)
                       for i, share in enumerate(shares[1:])]
            try:
                first = self._encode_share(self.tokenizer, texts, shares[0], batch_size)
            finally:
                wait(futures)  # no worker may still hold its tokenizer when this call ends, even on an error
            results = [first, *(future.result() for future in futures)]
        out = np.empty((len(texts), results[0].shape[1]), dtype=np.float32)
        for share, vectors in zip(shares, results, strict=True):
            out[share] = vectors
        return out
